"""build_streams (numba loops) against the NumPy formulation it replaced, on random traces:
the pcs, warp offsets and CTA layout must be identical (values and dtypes), and so must every entry's
latency and, where the latency is >= 0, its wavefronts, L2 and DRAM sectors and lanes, at every entry
whose memory row the replay reads (a ROW_KINDS kind: build_streams keeps one row per such entry, in
entry order)."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs

from simgpu.stats.trace import ExecutionTrace
from simgpu.timing.config import TimingConfig, default_config
from simgpu.timing.isa import K_ALU, K_FREE, K_GLD, K_SLD, StaticTable
from simgpu.timing.model import _issued_per_bin, _resident_per_bin, _sm_active
from simgpu.timing.prepare import MEM_ROW, ROW_KINDS, Streams, build_streams, dram_latency, l2_latency


@dataclasses.dataclass
class RefStreams:
    """The per-entry layout the reference builds."""

    e_pc: np.ndarray
    e_lat: np.ndarray
    e_wf: np.ndarray
    e_l2: np.ndarray
    e_dram: np.ndarray
    e_lanes: np.ndarray
    e_wr: np.ndarray  # a global store's CTA write-path cycles
    warp_off: np.ndarray
    cta_warp0: np.ndarray
    cta_nwarps: np.ndarray
    n_ctas: int


# ---------------------------------------------------------------- the NumPy reference (verbatim)


def _popcount32(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.uint32)
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(x).astype(np.int64)
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    return ((((x + (x >> 4)) & 0x0F0F0F0F) * 0x01010101) & 0xFFFFFFFF) >> 24


def _ref_fill_shadows(shadows: dict[int, int], n_pc: int, warps, pcs, lat, wf, l2, dram, lanes, wr):
    """Insert the instructions of every if-converted shadow a warp jumped over (predicated off:
    they issue, with no memory work and no active lanes)."""
    tgt_of = np.full(n_pc + 1, -1, np.int64)
    for p, t in shadows.items():
        if 0 <= p < n_pc:
            tgt_of[p] = t
    n = len(pcs)
    tgt = tgt_of[pcs]
    taken = np.zeros(n, bool)
    taken[:-1] = (tgt[:-1] > pcs[:-1] + 1) & (warps[1:] == warps[:-1]) & (pcs[1:] == tgt[:-1])
    if not taken.any():
        return warps, pcs, lat, wf, l2, dram, lanes, wr
    extra = np.where(taken, tgt - pcs - 1, 0)
    pos = np.arange(n) + np.concatenate([[0], np.cumsum(extra)[:-1]])
    total = n + int(extra.sum())
    src = np.flatnonzero(taken)
    cnt = extra[src]
    rep = np.repeat(src, cnt)
    k = np.arange(len(rep)) - np.repeat(np.cumsum(cnt) - cnt, cnt)  # 0.. within each shadow
    ins = pos[rep] + 1 + k
    out = []
    for arr, fill in ((warps, None), (pcs, None), (lat, -1), (wf, 0.0), (l2, 0.0), (dram, 0.0), (lanes, 0.0),
                      (wr, 0)):
        new = np.empty(total, arr.dtype)
        new[pos] = arr
        if fill is None:
            new[ins] = warps[rep] if arr is warps else pcs[rep] + 1 + k
        else:
            new[ins] = fill
        out.append(new)
    return tuple(out)



def reference_build_streams(trace: ExecutionTrace, st: StaticTable, cfg: TimingConfig, n_ctas: int,
                  clock_mhz: float, schedules: list[tuple[int, np.ndarray]] | None = None,
                  dram_bytes_per_pc: dict[int, float] | None = None,
                  shadows: dict[int, int] | None = None) -> RefStreams:
    """schedules: (block start pc, new pc order) per reordered basic block; dram_bytes_per_pc:
    DRAM bytes read per pc from the memory system (report.per_pc), which fixes how many sectors an
    L2 miss really fetched (64 B pairs); without it one sector per missed sector; shadows: if-converted
    branch pc -> its target (isa.if_convertible_branches). ptxas predicates such a shadow instead of
    branching around it, and a predicated-off SASS instruction still issues (ncu counts it in
    inst_executed, not in thread_inst_executed_pred_on): where a warp's trace jumped over a shadow,
    its instructions are put back as entries with no memory work, so the block's scheduled order
    applies to that instance too."""
    W = trace.num_warps
    S = trace.n_steps
    if S:
        step_pc, counts, warps, active = trace.flat_steps()
        warps = warps.copy()
        pcs = np.repeat(step_pc, counts)
        steps = np.repeat(np.arange(S, dtype=np.int64), counts)
    else:
        warps = pcs = steps = np.zeros(0, np.int64)
        active = np.zeros(0, np.uint32)
    key = warps * max(S, 1) + steps
    order = np.argsort(key, kind="stable")
    key, warps, pcs, active = key[order], warps[order], pcs[order], active[order]
    n = len(key)
    lat = np.full(n, -1, np.int64)
    wf = np.zeros(n, np.float64)
    l2 = np.zeros(n, np.float64)
    dram = np.zeros(n, np.float64)
    lanes = _popcount32(active).astype(np.float64)
    wr = np.zeros(n, np.int64)
    sm_of_warp = trace.sm_of_warp()
    kind = st.kind
    spw = cfg.sectors_per_wavefront
    for ev in trace.memory:
        ew = np.asarray(ev.warps, np.int64)
        if len(ew) == 0:
            continue
        idx = np.searchsorted(key, ew * max(S, 1) + ev.step)
        if ev.space == "shared":
            w = np.asarray(ev.wavefronts, np.float64)
            elat = cfg.lat_shared + np.maximum(w - 1, 0)
            np.maximum.at(lat, idx, elat.astype(np.int64))
            np.add.at(wf, idx, w)
            continue
        sec = np.asarray(ev.sectors, np.int64)
        h1 = np.asarray(ev.l1_hit_sectors, np.int64)
        h2 = np.asarray(ev.l2_hit_sectors, np.int64)
        miss = np.maximum(sec - h1, 0)
        dmiss = np.maximum(miss - h2, 0)
        w = np.maximum(np.ceil(sec / spw), 1.0)
        l2lat = l2_latency(np.ceil(np.maximum(miss, 1) / spw), cfg)
        hit_lat = cfg.lat_local_l1_hit if ev.space == "local" else cfg.lat_l1_hit
        if ev.op == "st":
            # write-through to L2, every sector (L1 hit or not); the warp's exit waits for the acknowledgement
            st_lat = l2_latency(np.ceil(np.maximum(sec, 1) / spw), cfg)
            elat = st_lat if ev.space == "global" else np.full(len(ew), float(hit_lat))
            l2s = sec.astype(np.float64) if ev.space == "global" else miss.astype(np.float64)
            ds = np.zeros(len(ew))
            if ev.space == "global" and ev.write_cycles is not None:
                np.add.at(wr, idx, np.asarray(ev.write_cycles, np.int64))
        elif ev.op in ("atom", "red"):
            per_sector = lanes[idx] / np.maximum(sec, 1)
            # same-address lanes wait for each other in the latency only without the atomic units
            step = 0.0 if cfg.l2_line_units > 0 else clock_mhz / 1000.0 / cfg.same_address_atomics_per_ns
            serial = np.maximum(per_sector - 1.0, 0.0) * step
            elat = np.where(dmiss > 0, cfg.lat_dram, l2lat) + serial
            l2s = sec.astype(np.float64)
            ds = dmiss.astype(np.float64)
        else:
            dlat = dram_latency(np.ceil(np.maximum(dmiss, 1) / spw), cfg)
            elat = np.where(dmiss > 0, dlat, np.where(miss > 0, l2lat, float(hit_lat)))
            if cfg.merge_inflight_l1 and (miss > 0).any():
                sms = sm_of_warp[ew]
                grp = np.zeros(int(sms.max()) + 1)
                np.maximum.at(grp, sms[miss > 0], elat[miss > 0])
                elat = np.where(miss == 0, np.maximum(elat, grp[sms]), elat)
            if cfg.merge_inflight_l2 and (dmiss > 0).any():
                elat = np.where((miss > 0) & (dmiss == 0), float(cfg.lat_dram), elat)
            l2s = miss.astype(np.float64)
            ds = dmiss.astype(np.float64)
        np.maximum.at(lat, idx, np.rint(elat).astype(np.int64))
        np.add.at(wf, idx, w)
        np.add.at(l2, idx, l2s)
        np.add.at(dram, idx, ds)
    # DRAM sectors per missed sector, per pc
    n_pc = len(st.kind)
    factor = np.full(n_pc, float(cfg.dram_sectors_per_miss), np.float64)
    if dram_bytes_per_pc:
        miss_pc = np.bincount(pcs, weights=dram, minlength=n_pc)
        for pc, by in dram_bytes_per_pc.items():
            if 0 <= pc < n_pc and miss_pc[pc] > 0:
                factor[pc] = float(by) / cfg.sector_bytes / miss_pc[pc]
    dram *= factor[pcs]
    if shadows and n:
        warps, pcs, lat, wf, l2, dram, lanes, wr = _ref_fill_shadows(shadows, n_pc, warps, pcs, lat, wf, l2, dram,
                                                                     lanes, wr)
        n = len(pcs)
    # ptxas-like order inside each basic block (full block instances only)
    if schedules and n:
        arrays = [pcs, lat, wf, l2, dram, lanes, wr]
        for a, order in schedules:
            m = len(order)
            idx = np.flatnonzero(pcs == a)
            idx = idx[idx + m <= n]
            if not len(idx):
                continue
            span = idx[:, None] + np.arange(m)[None, :]
            ok = np.all((pcs[span] == a + np.arange(m)[None, :]) & (warps[span] == warps[idx][:, None]), axis=1)
            span = span[ok]
            if not len(span):
                continue
            src = span[:, 0:1] + (np.asarray(order) - a)[None, :]
            for arr in arrays:
                arr[span] = arr[src]
    # fold free ops away
    keep = kind[pcs] != K_FREE
    warps, pcs = warps[keep], pcs[keep]
    lat, wf, l2, dram, lanes, wr = lat[keep], wf[keep], l2[keep], dram[keep], lanes[keep], wr[keep]
    warp_off = np.searchsorted(warps, np.arange(W + 1, dtype=np.int64)).astype(np.int64)
    cta = trace.cta_of_warp()
    cta_warp0 = np.full(n_ctas, -1, np.int64)
    cta_nwarps = np.zeros(n_ctas, np.int64)
    if W:
        np.add.at(cta_nwarps, cta, 1)
        first = np.full(n_ctas, W, np.int64)
        np.minimum.at(first, cta, np.arange(W, dtype=np.int64))
        cta_warp0 = np.where(first < W, first, -1)
        # warps of a CTA must be contiguous ids (the engine lays a wave out CTA by CTA)
        rel = np.arange(W, dtype=np.int64) - cta_warp0[cta]
        if np.any(rel < 0) or np.any(rel >= cta_nwarps[cta]):
            raise ValueError("trace: warps of a CTA are not contiguous")
    return RefStreams(pcs.astype(np.int32), lat.astype(np.int32), wf, l2, dram, lanes, np.minimum(wr, 32767),
                      warp_off, cta_warp0, cta_nwarps, n_ctas)


# ---------------------------------------------------------------- random traces


def random_launch(seed: int):
    """A random trace with its static table, schedules, shadows and DRAM bytes per pc."""
    rng = np.random.default_rng(seed)
    n_pc = int(rng.integers(4, 40))
    wpc = int(rng.integers(1, 5))
    n_ctas = int(rng.integers(1, 6))
    W = wpc * n_ctas
    n_sms = int(rng.integers(1, 4))
    shadows = {}  # branch pc -> target
    for p in rng.choice(n_pc, min(n_pc, 3), replace=False):
        shadows[int(p)] = int(rng.integers(0, n_pc + 1))
    tr = ExecutionTrace()
    tr.add_wave(0, np.arange(W) // wpc, rng.integers(0, n_sms, W))
    ascending = rng.random() < 0.7
    pc = 0
    for _ in range(int(rng.integers(0, 60))):
        k = int(rng.integers(1, W + 1))
        warps = np.sort(rng.choice(W, k, replace=False)) if rng.random() < 0.3 else np.arange(W)
        if not ascending:
            if rng.random() < 0.5:
                warps = rng.permutation(warps)
            if rng.random() < 0.1:
                warps = np.concatenate([warps, warps[:1]])  # a warp listed twice
        if pc in shadows and shadows[pc] < n_pc and rng.random() < 0.5:
            pc = shadows[pc]  # a jump over a shadow
        else:
            pc = (pc + 1) % n_pc if rng.random() < 0.8 else int(rng.integers(0, n_pc))  # mostly program order
        active = rng.integers(0, 2**32, len(warps), dtype=np.uint64).astype(np.uint32)
        tr.add_step(pc, warps, active)
        if rng.random() < 0.5:
            ew = warps[rng.random(len(warps)) < 0.8]
            if rng.random() < 0.2:
                ew = rng.permutation(ew)
            space = str(rng.choice(["global", "shared", "local", "generic"]))
            op = str(rng.choice(["ld", "st", "atom", "red"]))
            m = len(ew)
            if space == "shared":
                summary = {"wavefronts": rng.integers(1, 33, m)}
            else:
                sec = rng.integers(0, 70, m)
                h1 = np.where(rng.random(m) < 0.4, sec, (sec * rng.random(m)).astype(np.int64))  # all-L1-hit warps
                h2 = np.where(rng.random(m) < 0.4, sec - h1, ((sec - h1) * rng.random(m)).astype(np.int64))
                summary = {"sectors": sec, "l1_hit_sectors": h1, "l2_hit_sectors": h2}
                if op == "st":  # the engines give these for global stores only: the replay reads them there
                    summary["write_cycles"] = rng.integers(1, 65, m)
            tr.add_memory(space, op, ew, summary)
    kind = rng.choice([K_ALU, K_FREE, K_GLD, K_SLD], n_pc).astype(np.int8)
    z = np.zeros(n_pc, np.int32)
    st = StaticTable(kind, z.astype(np.int8), z, z, z.astype(np.int8), np.full((n_pc, 8), -1, np.int32),
                     np.full((n_pc, 4), -1, np.int32), 1)
    schedules = []
    a = 0
    while a < n_pc:  # disjoint blocks, some of them reordered
        m = int(rng.integers(1, 8))
        if a + m <= n_pc and rng.random() < 0.5:
            schedules.append((a, a + rng.permutation(m)))
        a += m
    if rng.random() < 0.2 and n_pc > 6:  # overlapping blocks
        schedules += [(1, 1 + rng.permutation(4)), (2, 2 + rng.permutation(3))]
    dram_pc = {int(p): float(rng.integers(0, 5000)) for p in rng.choice(n_pc, 3)} if rng.random() < 0.7 else None
    cfg = default_config()
    if rng.random() < 0.3:
        cfg = dataclasses.replace(cfg, merge_inflight_l1=bool(rng.random() < 0.5),
                                  merge_inflight_l2=bool(rng.random() < 0.5))
    return tr, st, cfg, n_ctas, 1980.0, schedules, dram_pc, shadows


def _same(g: np.ndarray, w: np.ndarray, name: str):
    assert g.dtype == w.dtype and g.shape == w.shape, name
    assert np.array_equal(g.view(np.uint8), w.view(np.uint8)) if w.size else True, name


def assert_same_streams(got: Streams, want: RefStreams, kind: np.ndarray):
    for name in ("e_pc", "warp_off", "cta_warp0", "cta_nwarps"):
        _same(getattr(got, name), getattr(want, name), name)
    assert got.n_ctas == want.n_ctas
    assert got.rows.dtype == MEM_ROW and got.rows.itemsize == 32
    has = np.isin(kind[got.e_pc], ROW_KINDS)
    assert len(got.rows) == has.sum()
    # warp w's rows: one per row entry of its run, in order
    cum = np.concatenate([[0], np.cumsum(has)])
    _same(got.warp_row0, cum[got.warp_off], "warp_row0")
    lat, wf, l2, dram, lanes = got.per_entry(kind)
    _same(lat[has], want.e_lat[has], "e_lat")
    assert (lat[~has] == -1).all()
    mem = has & (want.e_lat >= 0)
    for name, g in (("e_wf", wf), ("e_l2", l2), ("e_dram", dram), ("e_lanes", lanes)):
        _same(g[mem], getattr(want, name)[mem], name)
    wr = np.zeros(len(got.e_pc), np.int64)
    wr[has] = got.rows["wr"]
    _same(wr[mem], want.e_wr[mem], "e_wr")


@settings(max_examples=150, deadline=None)
@given(hs.integers(0, 2**32 - 1))
def test_build_streams_matches_the_numpy_reference(seed):
    args = random_launch(seed)
    assert_same_streams(build_streams(*args), reference_build_streams(*args), args[1].kind)


def test_build_streams_without_optional_inputs():
    tr, st, cfg, n_ctas, clk, *_ = random_launch(7)
    assert_same_streams(build_streams(tr, st, cfg, n_ctas, clk), reference_build_streams(tr, st, cfg, n_ctas, clk),
                        st.kind)


def test_empty_trace():
    tr = ExecutionTrace()
    tr.add_wave(0, np.zeros(2, np.int64), np.zeros(2, np.int64))
    st = random_launch(1)[1]
    got = build_streams(tr, st, default_config(), 1, 1980.0)
    assert_same_streams(got, reference_build_streams(tr, st, default_config(), 1, 1980.0), st.kind)
    assert got.warp_off.tolist() == [0, 0, 0]


# ---------------------------------------------------------------- the timeline helpers of model.py


@settings(max_examples=60, deadline=None)
@given(hs.integers(0, 2**32 - 1))
def test_timeline_helpers_match_numpy(seed):
    rng = np.random.default_rng(seed)
    num_sms, W, C, nb = int(rng.integers(1, 6)), int(rng.integers(0, 40)), int(rng.integers(0, 12)), 7
    warp_sm = rng.integers(-1, num_sms, W)
    warp_start = rng.integers(0, 500, W)
    warp_end = warp_start + rng.integers(0, 300, W)
    cycles = int(rng.integers(0, 900))
    span = max(cycles, 1)
    edges = np.linspace(0, span, nb + 1)
    want = np.zeros((num_sms, nb))
    for i in range(nb):
        ov = np.clip(np.minimum(warp_end, edges[i + 1]) - np.maximum(warp_start, edges[i]), 0, None)
        want[:, i] = np.bincount(warp_sm[warp_sm >= 0], weights=ov[warp_sm >= 0], minlength=num_sms) / (span / nb)
    got = _resident_per_bin(warp_start, warp_end, warp_sm, edges, num_sms) / (span / nb)
    assert np.array_equal(got, want)
    # issued instructions per bin
    warp_off = np.concatenate([[0], np.cumsum(rng.integers(0, 5, W))]).astype(np.int64)
    e_issue = rng.integers(-1, cycles + 2, warp_off[-1])
    sm = np.where(warp_sm >= 0, warp_sm, 0)
    want_i = np.zeros((num_sms, nb), np.int64)
    ok = e_issue >= 0
    ew = np.repeat(np.arange(W), np.diff(warp_off))[ok]
    np.add.at(want_i, (sm[ew], np.minimum((e_issue[ok] * nb) // span, nb - 1)), 1)
    assert np.array_equal(_issued_per_bin(e_issue, warp_off, sm, num_sms, nb, span), want_i)
    # per-SM active cycles
    cta_sm = rng.integers(-1, num_sms, C)
    cta_start = rng.integers(0, 100, C)
    cta_end = cta_start + rng.integers(0, 60, C)
    want_a = np.zeros(num_sms, np.int64)
    for s in range(num_sms):
        sel = cta_sm == s
        if sel.any():
            o = np.argsort(cta_start[sel], kind="stable")
            a, e = cta_start[sel][o], cta_end[sel][o]
            run = np.maximum.accumulate(e)
            want_a[s] = int(run[-1] - a[0] - np.maximum(a[1:] - run[:-1], 0).sum())
    got_a = _sm_active(np.lexsort((cta_start, cta_sm)), cta_sm, cta_start, cta_end, num_sms)
    assert np.array_equal(got_a, want_a)
