"""Turn an ExecutionTrace into the flat per-instruction arrays the replay runs on.

Each warp's own instruction stream (in its program order) becomes a run of entries; each entry
carries its pc and, for memory instructions, what the functional memory system answered,
reduced to what timing needs: a base latency (where the slowest sector hit), L1TEX wavefronts,
sectors sent to L2, sectors fetched from DRAM and atomic lanes.

In-flight merging (TimingConfig.merge_inflight_*): the trace has no addresses, so a warp whose
sectors all hit in L1 cannot be told apart from one that hit a line another warp's miss is still
fetching. The functional engine issues all warps at one pc in one step, which on the GPU are
close in time; so within one memory event, an all-L1-hit warp on an SM where another warp of
the event missed waits as long as the slowest miss of that SM, and an all-L2-hit warp in an
event where some warp went to DRAM waits for DRAM (gemm's shared B rows, read by many CTAs).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simgpu.stats.trace import ExecutionTrace
from simgpu.timing.config import TimingConfig
from simgpu.timing.isa import K_FREE, K_GATOM, K_GLD, K_GST, K_LLD, K_LST, K_SATOM, K_SHFL, K_SLD, K_SST, StaticTable


@dataclass
class Streams:
    e_pc: np.ndarray  # int32 per entry
    e_lat: np.ndarray  # int32: base latency of a memory entry (-1: no memory work)
    e_wf: np.ndarray  # float64: L1TEX wavefronts
    e_l2: np.ndarray  # float64: sectors to L2
    e_dram: np.ndarray  # float64: sectors from DRAM
    e_lanes: np.ndarray  # float64: active lanes (atomics)
    warp_off: np.ndarray  # int64 [W+1]
    cta_warp0: np.ndarray  # int64 [C]: first warp id of each CTA
    cta_nwarps: np.ndarray  # int64 [C]
    n_ctas: int


def _popcount32(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.uint32)
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(x).astype(np.int64)
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    return ((((x + (x >> 4)) & 0x0F0F0F0F) * 0x01010101) & 0xFFFFFFFF) >> 24


def _fill_shadows(shadows: dict[int, int], n_pc: int, warps, pcs, lat, wf, l2, dram, lanes):
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
        return warps, pcs, lat, wf, l2, dram, lanes
    extra = np.where(taken, tgt - pcs - 1, 0)
    pos = np.arange(n) + np.concatenate([[0], np.cumsum(extra)[:-1]])
    total = n + int(extra.sum())
    src = np.flatnonzero(taken)
    cnt = extra[src]
    rep = np.repeat(src, cnt)
    k = np.arange(len(rep)) - np.repeat(np.cumsum(cnt) - cnt, cnt)  # 0.. within each shadow
    ins = pos[rep] + 1 + k
    out = []
    for arr, fill in ((warps, None), (pcs, None), (lat, -1), (wf, 0.0), (l2, 0.0), (dram, 0.0), (lanes, 0.0)):
        new = np.empty(total, arr.dtype)
        new[pos] = arr
        if fill is None:
            new[ins] = warps[rep] if arr is warps else pcs[rep] + 1 + k
        else:
            new[ins] = fill
        out.append(new)
    return tuple(out)


def l2_latency(lines: np.ndarray, cfg: TimingConfig) -> np.ndarray:
    """Expected latency of the slowest of `lines` L2 lines, each near or far at random."""
    p_near = 1.0 - cfg.l2_far_fraction
    return np.rint(cfg.lat_l2_near + (cfg.lat_l2_far - cfg.lat_l2_near) * (1.0 - p_near ** np.maximum(lines, 1)))


def dram_latency(lines: np.ndarray, cfg: TimingConfig) -> np.ndarray:
    """Expected latency of the slowest of `lines` lines fetched from DRAM. A DRAM read is answered
    through the L2 partition that owns the line, near or far: the per-load HBM latencies are
    bimodal, clusters at 537 and 767 cycles, half each (per_load_latency_hbm_ws134217728B), the
    same 230-cycle gap as L2 near/far hits. lat_dram is the mean (one line)."""
    gap = cfg.lat_l2_far - cfg.lat_l2_near
    p_near = 1.0 - cfg.l2_far_fraction
    lo = cfg.lat_dram - gap * (1.0 - p_near)
    return np.rint(lo + gap * (1.0 - p_near ** np.maximum(lines, 1)))


def build_streams(trace: ExecutionTrace, st: StaticTable, cfg: TimingConfig, n_ctas: int,
                  clock_mhz: float, schedules: list[tuple[int, np.ndarray]] | None = None,
                  dram_bytes_per_pc: dict[int, float] | None = None,
                  shadows: dict[int, int] | None = None) -> Streams:
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
            # write-through to L2; the warp's exit waits for the acknowledgement
            elat = l2lat if ev.space == "global" else np.full(len(ew), float(hit_lat))
            l2s = sec.astype(np.float64) if ev.space == "global" else miss.astype(np.float64)
            ds = np.zeros(len(ew))
        elif ev.op in ("atom", "red"):
            per_sector = lanes[idx] / np.maximum(sec, 1)
            serial = np.maximum(per_sector - 1.0, 0.0) * (clock_mhz / 1000.0 / cfg.same_address_atomics_per_ns)
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
        warps, pcs, lat, wf, l2, dram, lanes = _fill_shadows(shadows, n_pc, warps, pcs, lat, wf, l2, dram, lanes)
        n = len(pcs)
    # ptxas-like order inside each basic block (full block instances only)
    if schedules and n:
        arrays = [pcs, lat, wf, l2, dram, lanes]
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
    lat, wf, l2, dram, lanes = lat[keep], wf[keep], l2[keep], dram[keep], lanes[keep]
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
    return Streams(pcs.astype(np.int32), lat.astype(np.int32), wf, l2, dram, lanes, warp_off, cta_warp0,
                   cta_nwarps, n_ctas)


# kinds that use the L1TEX path of their SM
LSU_GLOBAL_KINDS = (K_GLD, K_GST, K_GATOM, K_LLD, K_LST)
MIO_KINDS = (K_SLD, K_SST, K_SATOM, K_SHFL)
