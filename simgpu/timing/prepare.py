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

The work is done by numba loops over flat arrays, a few passes in all (group the trace's entries
by warp, carrying each entry's pc and flat index; put the shadows back; reorder the scheduled
blocks and fold free ops away in one pass, in place; lay out one blank memory row per entry that
reads one, noting each flat entry's row; then add the memory events' work straight into those
rows, in event order, and scale the DRAM sectors). Building the rows in place, rather than in a
table in event order copied into entry order afterwards, saves a pass and a second copy of the
rows. Per entry only a pc (int32) is kept; every entry of a kind that reads a memory row
(ROW_KINDS) owns the next 32-byte row (MEM_ROW) of its warp's run, so the replay walks each warp's
rows in order through a cursor (no per-entry row index, and a row's fields share one cache line),
and preparing costs a fraction of the replay at any size. The loops do the same floating-point
operations in the same order as the NumPy formulation they replaced and give bit-identical
streams; tests/timing/test_prepare.py keeps that formulation as the reference.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from simgpu.stats.trace import ExecutionTrace
from simgpu.timing.config import TimingConfig
from simgpu.timing.isa import K_FREE, K_GATOM, K_GLD, K_GST, K_LLD, K_LST, K_SATOM, K_SHFL, K_SLD, K_SST, StaticTable

# A memory row: base latency (the slowest sector's; -1: no memory work), active lanes (a popcount,
# 0..32; used by atomics), a global store's cycles on its CTA's write path (coalescer.store_write_cycles,
# at most 64 a warp store), L1TEX wavefronts, sectors to L2, sectors from DRAM.
# 32 bytes, aligned: two rows per 64-byte line.
MEM_ROW = np.dtype([("lat", np.int32), ("lanes", np.int16), ("wr", np.int16), ("wf", np.float64),
                    ("l2", np.float64), ("dram", np.float64)], align=True)
assert MEM_ROW.itemsize == 32
# kinds whose entries read a memory row in the replay (all L1TEX kinds but shuffles, which use none)
ROW_KINDS = (K_GLD, K_GST, K_GATOM, K_LLD, K_LST, K_SLD, K_SST, K_SATOM)


@dataclass
class Streams:
    """Per entry its pc; per entry of a ROW_KINDS kind, in entry order, a memory row (what the memory
    system answered; latency -1 where it answered nothing), so warp w's rows are
    rows[warp_row0[w]:warp_row0[w+1]], one per such entry of its run, in order."""

    e_pc: np.ndarray  # int32 per entry
    rows: np.ndarray  # MEM_ROW per entry of a ROW_KINDS kind, in entry order
    warp_row0: np.ndarray  # int64 [W+1]: first row of each warp
    warp_off: np.ndarray  # int64 [W+1]
    cta_warp0: np.ndarray  # int64 [C]: first warp id of each CTA
    cta_nwarps: np.ndarray  # int64 [C]
    n_ctas: int
    # the global loads' L1 read misses, one per (entry, line): its row, the line, the sector masks
    # (memory.l1.hierarchy_batch's g_info), for the in-time L2 merging (l2_merge.py)
    miss_row: np.ndarray = None  # int64
    miss_line: np.ndarray = None  # int64
    miss_info: np.ndarray = None  # uint16
    miss_line_idx: np.ndarray = None  # int64: index of the line among the distinct ones
    n_miss_lines: int = 0
    miss_by_row: np.ndarray = None  # int64: the groups in row order (a stable argsort of miss_row)
    # the (warp, line) requests of global atomics and partial stores to the L2's line units
    # (memory/line_units.py): row r's are unit_line / unit_cycles[unit_off[r]:unit_off[r + 1]] (the
    # cycles each holds its unit: its passes, a same-address step each)
    unit_off: np.ndarray = None  # int64 [rows + 1]
    unit_line: np.ndarray = None  # int64
    unit_cycles: np.ndarray = None  # float64
    # every (warp, line) of the global stores, for the store sequencer (store_lines.py): row r's are
    # store_line / store_info[store_off[r]:store_off[r + 1]] (info: memory.l1.hierarchy_batch's g_info)
    store_off: np.ndarray = None  # int64 [rows + 1]
    store_line: np.ndarray = None  # int64
    store_info: np.ndarray = None  # uint16
    # every (warp, line) of the global loads, misses or not, for the timed L1 (l1_order.py): row r's
    # are load_line / load_info[load_off[r]:load_off[r + 1]] (info: memory.l1.hierarchy_batch's g_info)
    load_off: np.ndarray = None  # int64 [rows + 1]
    load_line: np.ndarray = None  # int64
    load_info: np.ndarray = None  # uint16
    # per row, its entry's index in the trace's flat step order (the functional engines' order), for
    # the timed L1 walk in that order (config l1_loads_on_replay_sms), and its step (the place of the
    # step it was issued in, all warps at one pc together), for the walk in runs (l1_loads_in_runs);
    # None where no walk is asked for
    row_flat: np.ndarray = None  # int64
    row_step: np.ndarray = None  # int64
    # int8 per entry: 1 where the warp split at this branch (StaticTable.split, and its active mask
    # shrank at its next entry: _split_entries); empty where no warp split anywhere
    e_split: np.ndarray = None

    def per_entry(self, kind: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(latency int32, wavefronts, L2 sectors, DRAM sectors, lanes) per entry (kind: the static
        table's, per pc); entries without a row get -1, 0, 0, 0, 0 (the replay uses none of these
        where the latency is < 0)."""
        has = np.isin(kind[self.e_pc], ROW_KINDS) if len(self.e_pc) else np.zeros(0, np.bool_)
        lat = np.full(len(self.e_pc), -1, np.int32)
        lat[has] = self.rows["lat"]
        out = [lat]
        for f in ("wf", "l2", "dram", "lanes"):
            x = np.zeros(len(self.e_pc), np.float64)
            x[has] = self.rows[f]
            out.append(x)
        return tuple(out)


# memory event codes for _event_rows
SP_SHARED, SP_GLOBAL, SP_LOCAL, SP_OTHER = range(4)
OP_ST, OP_ATOM, OP_LD = range(3)
TILE_STEPS, TILE_WARPS = 32, 64
_SPACE_CODE = {"shared": SP_SHARED, "global": SP_GLOBAL, "local": SP_LOCAL}
_OP_CODE = {"st": OP_ST, "atom": OP_ATOM, "red": OP_ATOM}


@njit(cache=True)
def _popcount32(x):
    v = np.int64(x) & 0xFFFFFFFF
    v = v - ((v >> 1) & 0x55555555)
    v = (v & 0x33333333) + ((v >> 2) & 0x33333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F
    return ((v * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True)
def _lists_a_warp_twice(counts, warps, n_buckets):
    """Whether some step lists the same warp more than once."""
    last = np.full(n_buckets, -1, np.int64)
    j = 0
    for s in range(counts.shape[0]):
        for q in range(j, j + counts[s]):
            if last[warps[q]] == s:
                return True
            last[warps[q]] = s
        j += counts[s]
    return False


@njit(cache=True)
def _lower_bound(w, s, bucket_off, step_s):
    """First sorted entry at or after (warp w, step s) (np.searchsorted on warp * S + step)."""
    if w < 0:
        return np.int64(0)
    if w >= bucket_off.shape[0] - 1:
        return step_s.shape[0]
    lo = bucket_off[w]
    hi = bucket_off[w + 1]
    while lo < hi:
        mid = (lo + hi) // 2
        if step_s[mid] < s:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def _event_rows(ev_step, ev_space, ev_op, ev_off, ew, wfr, wfg, wrg, sec, h1, h2, step_off, step_pc, fwarps, active,
                dup, use_fb, fb_bucket_off, fb_step_s, fb_inv, sm_of_warp, dest, rows, miss_pc, g_row, g_pc, pos_row,
                l2_tab, dram_tab, lat_shared, hit_l1, hit_local, lat_dram, spw, atom_k, merge_l1, merge_l2):
    """Every memory event's work (see build_streams), added straight into the memory row of each trace
    entry (flat, in step order) that it names: dest[q] is that entry's row in rows (-1: none, the
    entry was dropped or reads no row); an entry's latency is the largest of its events', its
    wavefronts and sectors add up (the same floating-point operations, in the same order, as on
    the per-entry arrays). wfr holds the wavefronts of the shared events, sec/h1/h2 the sectors / L1
    hits / L2 hits of the others, wfg their L1TEX cycles (loads, coalescer.load_wavefronts; < 0:
    ceil(sectors / spw), stores and atomics) and wrg a global store's CTA write-path cycles
    (coalescer.store_write_cycles; < 0: none), each in event order. Also adds each event's DRAM sectors to
    miss_pc (per pc, integers: exact in any order) and lists the rows and pcs the non-shared events
    touched (g_row, g_pc), for the scaling of their DRAM sectors; pos_row[p]: the row of the p-th warp
    of the non-shared events (as sec counts them; -1: none).

    An event's warps are found by walking its step's warps (events list them in the step's order);
    where that fails (or a step lists a warp twice: dup), the entry is the first of the warp at or
    after the step (a binary search in the warp-sorted order: fb_*, which only use_fb provides).
    Returns (status, rows listed in g_row): status 0 done, 1 the fallback is needed (use_fb False;
    rows is then partly written), 2 an event names a (warp, step) after the last entry."""
    N = fwarps.shape[0]
    E = ev_step.shape[0]
    maxk = 0
    for e in range(E):
        maxk = max(maxk, ev_off[e + 1] - ev_off[e])
    idx = np.empty(maxk, np.int64)
    lns = np.empty(maxk, np.float64)
    pcs = np.empty(maxk, np.int64)
    el = np.empty(maxk, np.float64)
    mi = np.empty(maxk, np.int64)
    dm = np.empty(maxk, np.int64)
    n_sm = 1
    for x in sm_of_warp:
        n_sm = max(n_sm, x + 1)
    grp = np.zeros(n_sm, np.float64)
    ps = 0
    pg = 0
    n_g = 0
    for e in range(E):
        a = ev_off[e]
        k = ev_off[e + 1] - a
        s = ev_step[e]
        q = step_off[s]
        qe = step_off[s + 1]
        walk = not dup
        for i in range(k):
            w = ew[a + i]
            found = np.int64(-1)
            pc_q = step_pc[s]
            if walk:
                qq = q
                while qq < qe and fwarps[qq] != w:
                    qq += 1
                if qq < qe:
                    found = qq
                    q = qq
                else:
                    walk = False
            if found < 0:
                if not use_fb:
                    return 1, n_g
                j = _lower_bound(w, s, fb_bucket_off, fb_step_s)
                if j >= N:
                    return 2, n_g
                found = fb_inv[j]
                pc_q = step_pc[fb_step_s[j]]
            d = dest[found]
            idx[i] = d
            pcs[i] = pc_q
            lns[i] = float(_popcount32(active[found]))
            if d >= 0:
                rows[d].lanes = np.int16(lns[i])
        if ev_space[e] == SP_SHARED:
            for i in range(k):
                j = idx[i]
                w_ = wfr[ps + i]
                if j < 0:
                    continue
                x = w_ - 1.0
                if x < 0.0:
                    x = 0.0
                v = np.int64(lat_shared + x)
                if v > rows[j].lat:
                    rows[j].lat = v
                rows[j].wf += w_
            ps += k
            continue
        sp = ev_space[e]
        op = ev_op[e]
        hit = hit_local if sp == SP_LOCAL else hit_l1
        any_miss = False
        any_dmiss = False
        for i in range(k):
            sc = sec[pg + i]
            m = sc - h1[pg + i]
            if m < 0:
                m = 0
            d = m - h2[pg + i]
            if d < 0:
                d = 0
            mi[i] = m
            dm[i] = d
            any_miss = any_miss or m > 0
            any_dmiss = any_dmiss or d > 0
            l2lat = l2_tab[np.int64(np.ceil(float(max(m, 1)) / spw))]
            if op == OP_ST:  # a global store writes every sector through to L2, L1 hit or not
                el[i] = l2_tab[np.int64(np.ceil(float(max(sc, 1)) / spw))] if sp == SP_GLOBAL else hit
            elif op == OP_ATOM:
                x = lns[i] / float(max(sc, 1)) - 1.0
                if x < 0.0:
                    x = 0.0
                el[i] = (lat_dram if d > 0 else l2lat) + x * atom_k
            elif d > 0:
                el[i] = dram_tab[np.int64(np.ceil(float(max(d, 1)) / spw))]
            elif m > 0:
                el[i] = l2lat
            else:
                el[i] = hit
        if op == OP_LD:
            if merge_l1 and any_miss:
                for i in range(k):
                    if mi[i] > 0:
                        g = sm_of_warp[ew[a + i]]
                        if el[i] > grp[g]:
                            grp[g] = el[i]
                for i in range(k):
                    if mi[i] == 0:
                        g = sm_of_warp[ew[a + i]]
                        if grp[g] > el[i]:
                            el[i] = grp[g]
                for i in range(k):
                    if mi[i] > 0:
                        grp[sm_of_warp[ew[a + i]]] = 0.0
            if merge_l2 and any_dmiss:
                for i in range(k):
                    if mi[i] > 0 and dm[i] == 0:
                        el[i] = lat_dram
        for i in range(k):
            j = idx[i]
            sc = sec[pg + i]
            pos_row[pg + i] = j
            if op != OP_ST:
                miss_pc[pcs[i]] += float(dm[i])
            if j < 0:
                continue
            g_row[n_g] = j
            g_pc[n_g] = pcs[i]
            n_g += 1
            v = np.int64(np.rint(el[i]))
            if v > rows[j].lat:
                rows[j].lat = v
            w_ = float(wfg[pg + i]) if wfg[pg + i] >= 0 else np.ceil(float(sc) / spw)
            if w_ < 1.0:
                w_ = 1.0
            rows[j].wf += w_
            if op == OP_ST:
                rows[j].l2 += float(sc) if sp == SP_GLOBAL else float(mi[i])
                rows[j].dram += 0.0
                if sp == SP_GLOBAL and wrg[pg + i] > 0:
                    rows[j].wr = np.int16(min(32767, rows[j].wr + wrg[pg + i]))
            else:
                rows[j].l2 += float(sc) if op == OP_ATOM else float(mi[i])
                rows[j].dram += float(dm[i])
        pg += k
    return 0, n_g


@njit(cache=True)
def _blank_rows(rows):
    for n in range(rows.shape[0]):
        rows[n].lat = -1
        rows[n].lanes = 0
        rows[n].wr = 0
        rows[n].wf = 0.0
        rows[n].l2 = 0.0
        rows[n].dram = 0.0


@njit(cache=True)
def _ascending(counts, warps):
    """Whether every step lists its warps in strictly ascending order (both engines do)."""
    j = 0
    for s in range(counts.shape[0]):
        for q in range(j + 1, j + counts[s]):
            if warps[q] <= warps[q - 1]:
                return False
        j += counts[s]
    return True


@njit(cache=True)
def _sort_by_warp(step_pc, counts, warps, n_buckets, ascending):
    """The trace's entries (flat, in step order) grouped by warp, each warp's entries in step order
    (a stable counting sort on the warp id): per sorted entry its pc and flat index (int32), and the
    offset of each warp's run (bucket_off). When every step lists its warps in ascending order, the
    entries are moved tile by tile (TILE_STEPS steps x TILE_WARPS warps), so that the writes stay in
    cache."""
    S = step_pc.shape[0]
    N = warps.shape[0]
    bucket_off = np.zeros(n_buckets + 1, np.int64)
    for j in range(N):
        bucket_off[warps[j] + 1] += 1
    for b in range(n_buckets):
        bucket_off[b + 1] += bucket_off[b]
    step_off = np.zeros(S + 1, np.int64)
    for s in range(S):
        step_off[s + 1] = step_off[s] + counts[s]
    fill = bucket_off[:-1].copy()
    pc_s = np.empty(N, np.int32)
    mem_s = np.empty(N, np.int32)
    if ascending:
        ptr = step_off[:-1].copy()
        for s0 in range(0, S, TILE_STEPS):
            s1 = min(S, s0 + TILE_STEPS)
            lo = n_buckets
            for s in range(s0, s1):
                if ptr[s] < step_off[s + 1] and warps[ptr[s]] < lo:
                    lo = warps[ptr[s]]
            while lo < n_buckets:
                hi = lo + TILE_WARPS
                nxt = n_buckets
                for s in range(s0, s1):
                    q = ptr[s]
                    e = step_off[s + 1]
                    p = step_pc[s]
                    while q < e and warps[q] < hi:
                        d = fill[warps[q]]
                        fill[warps[q]] = d + 1
                        pc_s[d] = p
                        mem_s[d] = q
                        q += 1
                    ptr[s] = q
                    if q < e and warps[q] < nxt:
                        nxt = warps[q]
                lo = nxt
        return pc_s, mem_s, bucket_off
    for s in range(S):
        p = step_pc[s]
        for q in range(step_off[s], step_off[s + 1]):
            d = fill[warps[q]]
            fill[warps[q]] = d + 1
            pc_s[d] = p
            mem_s[d] = q
    return pc_s, mem_s, bucket_off


@njit(cache=True)
def _scale_rows(rows, g_row, g_pc, n_g, factor):
    """Each listed row's DRAM sectors times factor[its pc], once (a row may be listed more than once:
    the scaled ones are marked by a negative lanes count meanwhile)."""
    for i in range(n_g):
        d = g_row[i]
        if rows[d].lanes >= 0:
            rows[d].dram = rows[d].dram * factor[g_pc[i]]
            rows[d].lanes = -1 - rows[d].lanes
    for i in range(n_g):
        d = g_row[i]
        if rows[d].lanes < 0:
            rows[d].lanes = -1 - rows[d].lanes


@njit(cache=True)
def _split_entries(split_pc, bucket_off, pcs, fidx, active, flat_split):
    """flat_split[flat index] = 1 for each entry at a split_pc branch whose warp's next entry runs
    with fewer of the same lanes (its mask a proper, non-empty subset: the warp split there and
    took one side first). Returns how many."""
    n = 0
    for b in range(bucket_off.shape[0] - 1):
        for i in range(bucket_off[b], bucket_off[b + 1] - 1):
            if split_pc[pcs[i]]:
                a = active[fidx[i]]
                c = active[fidx[i + 1]]
                if c != 0 and c != a and (c & ~a) == 0:
                    flat_split[fidx[i]] = 1
                    n += 1
    return n


@njit(cache=True)
def _fill_shadows_nb(tgt_of, bucket_off, pcs, mem):
    nb = bucket_off.shape[0] - 1
    extra = 0
    for b in range(nb):
        for i in range(bucket_off[b], bucket_off[b + 1] - 1):
            t = tgt_of[pcs[i]]
            if t > pcs[i] + 1 and pcs[i + 1] == t:
                extra += t - pcs[i] - 1
    if extra == 0:
        return bucket_off, pcs, mem
    n = pcs.shape[0]
    off2 = np.zeros(nb + 1, np.int64)
    p2 = np.empty(n + extra, pcs.dtype)
    m2 = np.empty(n + extra, mem.dtype)
    o = 0
    for b in range(nb):
        e = bucket_off[b + 1]
        for i in range(bucket_off[b], e):
            p2[o] = pcs[i]
            m2[o] = mem[i]
            o += 1
            if i < e - 1:
                t = tgt_of[pcs[i]]
                if t > pcs[i] + 1 and pcs[i + 1] == t:
                    for pc in range(pcs[i] + 1, t):
                        p2[o] = pc
                        m2[o] = -1
                        o += 1
        off2[b + 1] = o
    return off2, p2, m2


def _fill_shadows(shadows: dict[int, int], n_pc: int, bucket_off, pcs, mem):
    """Insert the instructions of every if-converted shadow a warp jumped over (predicated off:
    they issue, with no memory work: row -1). shadows: branch pc -> its target; an entry at a branch
    pc whose warp's next entry (bucket_off: each warp's run) is the target gets the pcs in between
    after it. Returns the new (bucket_off, pcs, mem), or the given ones if nothing was inserted."""
    tgt_of = np.full(n_pc + 1, -1, np.int64)
    for p, t in shadows.items():
        if 0 <= p < n_pc:
            tgt_of[p] = t
    return _fill_shadows_nb(tgt_of, bucket_off, pcs, mem)


@njit(cache=True)
def _match_block(i, end, b, blk_start, blk_len, blk_period, pcs):
    """Whether entries i.. (of one warp's run, which ends at end) are a full instance of block b:
    blk_len[b] consecutive entries at the block's pcs a, a+1, ..., a+period-1, repeated (period <
    length: consecutive instances of a loop block that ptxas unrolled, timing/unroll.py)."""
    a = blk_start[b]
    m = blk_len[b]
    p = blk_period[b]
    if i + m > end:
        return False
    for j in range(1, m):
        if pcs[i + j] != a + j % p:
            return False
    return True


@njit(cache=True)
def _reorder_blocks(block_of_pc, blk_start, blk_off, blk_src, bucket_off, pcs, mem):
    """In place: every full instance of a scheduled block gets its entries in the block's order
    (entry j takes what was at j' = blk_src[j]). Blocks must not overlap, nor be unrolled."""
    blk_len = blk_off[1:] - blk_off[:-1]
    for w in range(bucket_off.shape[0] - 1):
        i = bucket_off[w]
        end = bucket_off[w + 1]
        while i < end:
            b = block_of_pc[pcs[i]]
            if b >= 0 and _match_block(i, end, b, blk_start, blk_len, blk_len, pcs):
                m = blk_len[b]
                tp = pcs[i:i + m].copy()
                tm = mem[i:i + m].copy()
                for j in range(m):
                    pcs[i + j] = tp[blk_src[blk_off[b] + j]]
                    mem[i + j] = tm[blk_src[blk_off[b] + j]]
                i += m
            else:
                i += 1


@njit(cache=True)
def _emit(kind, k_free, n_warps, block_of_pc, unrolled_of_pc, blk_start, blk_len, blk_period, blk_off, blk_src,
          blk_pc, bucket_off, pcs, mem):
    """In place: the entries in order, every full instance of a scheduled block in the block's
    order (blk_len[b] entries, of which those at blk_src[blk_off[b]:blk_off[b+1]] go out in that
    order, at the pcs blk_pc gives: all of them at their own pcs, or for an unrolled loop fewer,
    its inner back branches gone, at its copies' pcs; blocks must not overlap), free ops dropped.
    An unrolled loop (unrolled_of_pc, at its block's start) is tried before the block's own
    schedule (block_of_pc), so its left-over instances get that.
    Returns how many entries are left (pcs[:m], mem[:m]) and warp_off (warp_off[w] = entries of
    warps below w; the entries of warp ids >= n_warps, if any, are kept but not counted)."""
    warp_off = np.zeros(n_warps + 1, np.int64)
    maxm = 1
    for b in range(blk_start.shape[0]):
        maxm = max(maxm, blk_len[b])
    tp = np.empty(maxm, pcs.dtype)
    tm = np.empty(maxm, mem.dtype)
    o = 0
    for w in range(bucket_off.shape[0] - 1):
        i = bucket_off[w]
        end = bucket_off[w + 1]
        o0 = o
        while i < end:
            b = unrolled_of_pc[pcs[i]]
            found = b >= 0 and _match_block(i, end, b, blk_start, blk_len, blk_period, pcs)
            if not found:
                b = block_of_pc[pcs[i]]
                found = b >= 0 and _match_block(i, end, b, blk_start, blk_len, blk_period, pcs)
            if found:
                m = blk_len[b]
                for j in range(m):
                    tp[j] = pcs[i + j]
                    tm[j] = mem[i + j]
                for q in range(blk_off[b], blk_off[b + 1]):
                    k = blk_src[q]
                    if kind[tp[k]] == k_free:
                        continue
                    pcs[o] = blk_pc[q]
                    mem[o] = tm[k]
                    o += 1
                i += m
            else:
                if kind[pcs[i]] != k_free:
                    pcs[o] = pcs[i]
                    mem[o] = mem[i]
                    o += 1
                i += 1
        if w < n_warps:
            warp_off[w + 1] = o - o0
    for w in range(n_warps):
        warp_off[w + 1] += warp_off[w]
    return o, warp_off


@njit(cache=True)
def _lay_rows(row_pc, pcs, fidx, m, warp_off, rows, dest, row0):
    """Each entry of pcs[:m] at a pc that reads a row (row_pc) gets the next row of rows, blank (the
    memory events fill it in later), and dest[its flat index (fidx; -1: none)] = that row; row0[w]:
    the rows of the entries before warp_off[w]. (A pass of its own: folded into _emit it made that
    loop several times slower.)"""
    n = 0
    w = 0
    W = warp_off.shape[0] - 1
    for e in range(m):
        while w <= W and warp_off[w] <= e:
            row0[w] = n
            w += 1
        if row_pc[pcs[e]]:
            fi = fidx[e]
            if fi >= 0:
                dest[fi] = n
            rows[n].lat = -1
            rows[n].lanes = 0
            rows[n].wr = 0
            rows[n].wf = 0.0
            rows[n].l2 = 0.0
            rows[n].dram = 0.0
            n += 1
    while w <= W:
        row0[w] = n
        w += 1


@njit(cache=True)
def _count_rows(row_pc, pcs):
    n = 0
    for e in range(pcs.shape[0]):
        if row_pc[pcs[e]]:
            n += 1
    return n


@njit(cache=True)
def _cta_layout(cta, n_ctas):
    """First warp id and warp count of each CTA; False if a CTA's warps are not contiguous ids."""
    W = cta.shape[0]
    nw = np.zeros(n_ctas, np.int64)
    w0 = np.full(n_ctas, W, np.int64)
    for w in range(W):
        c = cta[w]
        nw[c] += 1
        if w < w0[c]:
            w0[c] = w
    for c in range(n_ctas):
        if w0[c] >= W:
            w0[c] = -1
    for w in range(W):
        rel = w - w0[cta[w]]
        if rel < 0 or rel >= nw[cta[w]]:
            return w0, nw, False
    return w0, nw, True


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


def _flat(parts: list, dtype) -> np.ndarray:
    return np.concatenate(parts, dtype=dtype, casting="unsafe") if parts else np.zeros(0, dtype)


def _memory_work(trace: ExecutionTrace, cfg: TimingConfig, clock_mhz: float, step_pc: np.ndarray,
                 counts: np.ndarray, fwarps: np.ndarray, active: np.ndarray, ascending: bool, n_buckets: int,
                 dest: np.ndarray, rows: np.ndarray, n_pc: int):
    """What the memory system answered (the per-event model, applied in event order), added into
    the row (rows[dest[q]]) of each trace entry q that an event names; returns (DRAM sectors per pc,
    the rows and pcs of the non-shared events (for _scale_rows), how many).

    Shared: latency lat_shared + (wavefronts - 1), the wavefronts on L1TEX.
    Global/local, per warp: miss = sectors - L1 hits, dmiss = miss - L2 hits; wavefronts: a load's
    L1TEX cycles (its words' bank wavefronts in the data stage or a quarter of its lines at the
    tags, whichever is more, at least 1: memory.coalescer.load_wavefronts), else max(ceil(sectors /
    sectors_per_wavefront), 1); the latency of where its slowest sector hit: L1 (local or global hit
    latency), L2 (l2_latency of its missed lines) or DRAM (dram_latency).
    * st: write-through to L2, the warp's exit waits for the acknowledgement: L2 latency and every
      sector to L2 for global stores, L1 hit latency and the misses to L2 for local ones.
    * atom/red: every sector to L2, DRAM latency if some missed L2, plus the serialisation of the
      lanes that hit one sector (same-address atomics at same_address_atomics_per_ns).
    * ld: the misses to L2, dmiss from DRAM; with merge_inflight_l1, an all-L1-hit warp on an SM
      where another warp of the event missed waits as long as that SM's slowest miss; with
      merge_inflight_l2, an all-L2-hit warp in an event where some warp went to DRAM waits lat_dram.
    An entry's latency is the largest of its events', its wavefronts and sectors add up."""
    miss_pc = np.zeros(n_pc, np.float64)
    evs = [ev for ev in trace.memory if len(ev.warps)]
    if not evs:
        z = np.zeros(0, np.int64)
        return miss_pc, z, z, 0, (z, z, np.zeros(0, np.uint16)), (z, z, z), (z, z, np.zeros(0, np.uint16))
    S = trace.n_steps
    shared = [ev.space == "shared" for ev in evs]
    ev_step = np.array([ev.step for ev in evs], np.int64)
    if S == 0 or ev_step.min() < 0 or ev_step.max() >= S:
        raise ValueError("trace: a memory event names a step the trace does not have")
    ev_space = np.array([_SPACE_CODE.get(ev.space, SP_OTHER) for ev in evs], np.int64)
    ev_op = np.array([_OP_CODE.get(ev.op, OP_LD) for ev in evs], np.int64)
    ev_off = np.zeros(len(evs) + 1, np.int64)
    np.cumsum([len(ev.warps) for ev in evs], out=ev_off[1:])
    ew = _flat([ev.warps for ev in evs], np.int64)
    wfr = _flat([ev.wavefronts for ev, s in zip(evs, shared) if s], np.float64)
    glob = [ev for ev, s in zip(evs, shared) if not s]
    sec = _flat([ev.sectors for ev in glob], np.int64)
    wfg = _flat([ev.wavefronts if ev.wavefronts is not None else np.full(len(ev.warps), -1) for ev in glob],
                np.int64)
    wrg = _flat([ev.write_cycles if ev.write_cycles is not None else np.full(len(ev.warps), -1) for ev in glob],
                np.int64)
    h1 = _flat([ev.l1_hit_sectors for ev in glob], np.int64)
    h2 = _flat([ev.l2_hit_sectors for ev in glob], np.int64)
    spw = float(cfg.sectors_per_wavefront)
    # latency tables over the number of lines (l2_latency / dram_latency of 0..max)
    miss = np.maximum(sec - h1, 0)
    dmiss = np.maximum(miss - h2, 0)
    n_l2 = int(np.ceil(max(int(sec.max(initial=0)), 1) / spw))  # stores look up all their sectors
    n_dram = int(np.ceil(max(int(dmiss.max(initial=0)), 1) / spw))
    l2_tab = l2_latency(np.arange(n_l2 + 1, dtype=np.float64), cfg)
    dram_tab = dram_latency(np.arange(n_dram + 1, dtype=np.float64), cfg)
    step_off = np.zeros(S + 1, np.int64)
    np.cumsum(counts, out=step_off[1:])
    # same-address lanes of one warp wait for each other in its latency, unless the atomic units
    # (replay) queue them
    atom_k = 0.0 if cfg.l2_line_units > 0 else clock_mhz / 1000.0 / cfg.same_address_atomics_per_ns
    consts = (l2_tab, dram_tab, float(cfg.lat_shared), float(cfg.lat_l1_hit), float(cfg.lat_local_l1_hit),
              float(cfg.lat_dram), spw, atom_k, bool(cfg.merge_inflight_l1), bool(cfg.merge_inflight_l2))
    sm_of_warp = trace.sm_of_warp()
    g_row = np.empty(len(sec), np.int64)
    g_pc = np.empty(len(sec), np.int64)
    pos_row = np.full(len(sec), -1, np.int64)
    z64 = np.zeros(0, np.int64)
    zi32 = np.zeros(0, np.int32)
    status = 1
    if ascending:  # no step lists a warp twice: walk the steps
        status, n_g = _event_rows(ev_step, ev_space, ev_op, ev_off, ew, wfr, wfg, wrg, sec, h1, h2, step_off, step_pc,
                                  fwarps, active, False, False, z64, zi32, zi32, sm_of_warp, dest, rows, miss_pc,
                                  g_row, g_pc, pos_row, *consts)
    if status == 1:
        # some event's warps are not in its step's order, or a step lists a warp twice: start again,
        # with the warp-sorted order (the streams' stable counting sort) for the binary searches
        if ascending:
            _blank_rows(rows)
            miss_pc[:] = 0.0
        _, fb_inv, fb_bucket_off = _sort_by_warp(step_pc, counts, fwarps, n_buckets, ascending)
        fb_step_s = np.repeat(np.arange(len(counts), dtype=np.int32), counts)[fb_inv]
        dup = bool(_lists_a_warp_twice(counts, fwarps, n_buckets))
        status, n_g = _event_rows(ev_step, ev_space, ev_op, ev_off, ew, wfr, wfg, wrg, sec, h1, h2, step_off, step_pc,
                                  fwarps, active, dup, True, fb_bucket_off, fb_step_s, fb_inv, sm_of_warp, dest, rows,
                                  miss_pc, g_row, g_pc, pos_row, *consts)
    if status != 0:
        raise IndexError("trace: a memory event names a (warp, step) after the last entry")
    return (miss_pc, g_row, g_pc, int(n_g), _load_groups(glob, pos_row), _unit_groups(glob, pos_row),
            _store_groups(glob, pos_row))


def _warp_line_groups(glob: list, pos_row: np.ndarray, pick, dtypes: tuple, what: str) -> tuple:
    """Per-(warp, line) groups the events carry: pick(ev) gives (the warps' indices in the event,
    field arrays...) or a None warps array; returns (row, field...) arrays (fields as dtypes) in
    event order, those of entries without a row left out; `what` names a group in the error."""
    base = np.zeros(len(glob) + 1, np.int64)
    np.cumsum([len(ev.warps) for ev in glob], out=base[1:])
    picked = [(i, pick(ev)) for i, ev in enumerate(glob)]
    picked = [(i, p) for i, p in picked if p[0] is not None and len(p[0])]
    if not picked:
        return (np.zeros(0, np.int64),) + tuple(np.zeros(0, dt) for dt in dtypes)
    pos = _flat([base[i] + p[0].astype(np.int64) for i, p in picked], np.int64)
    if pos.max() >= len(pos_row):
        raise IndexError(f"trace: {what} names a warp outside its event")
    row = pos_row[pos]
    keep = row >= 0
    fields = (_flat([p[1 + f] for _, p in picked], dt)[keep] for f, dt in enumerate(dtypes))
    return (row[keep], *fields)


def _load_groups(glob: list, pos_row: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The global loads' (warp, line) groups (MemoryEvent.ld_*) as (row, line, info), in event order,
    those of entries without a row left out."""
    return _warp_line_groups(glob, pos_row, lambda ev: (ev.ld_warp, ev.ld_line, ev.ld_info),
                             (np.int64, np.uint16), "a load's line")


def _unit_groups(glob: list, pos_row: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (warp, line) requests of global atomics and partial stores to the L2's line units
    (MemoryEvent.unit_*, memory/line_units.py) as (row, line, passes), sorted by row (stable), those
    of entries without a row left out."""
    return _sorted_by_row(_warp_line_groups(glob, pos_row, lambda ev: (ev.unit_warp, ev.unit_line, ev.unit_passes),
                                            (np.int64, np.int64), "a line-unit request"))


def _store_groups(glob: list, pos_row: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (warp, line) of the global stores (MemoryEvent.st_*) as (row, line, info), sorted by
    row (stable), those of entries without a row left out."""
    return _sorted_by_row(_warp_line_groups(glob, pos_row, lambda ev: (ev.st_warp, ev.st_line, ev.st_info),
                                            (np.int64, np.uint16), "a store's line"))


def _sorted_by_row(groups: tuple) -> tuple:
    """(row, ...) arrays reordered by row, stable (the replay walks each row's slice)."""
    order = np.argsort(groups[0], kind="stable")
    return tuple(a[order] for a in groups)


def _row_offsets(row: np.ndarray, n_rows: int) -> np.ndarray:
    off = np.zeros(n_rows + 1, np.int64)
    np.cumsum(np.bincount(row, minlength=n_rows), out=off[1:])
    return off


def build_streams(trace: ExecutionTrace, st: StaticTable, cfg: TimingConfig, n_ctas: int,
                  clock_mhz: float, schedules: list[tuple[int, np.ndarray]] | None = None,
                  dram_bytes_per_pc: dict[int, float] | None = None,
                  shadows: dict[int, int] | None = None, timed_l1: bool = False,
                  unrolled: list[tuple[int, int, int, list[int], int]] | None = None) -> Streams:
    """schedules: (block start pc, new pc order) per reordered basic block; unrolled: (start pc,
    block length n, factor f, the order of the f * n instance positions that issue, the pc of
    position 0's copy) per loop block ptxas unrolls (timing/unroll.py: st has a row for each
    copy, and f consecutive instances go out at the copies' pcs); dram_bytes_per_pc:
    DRAM bytes read per pc from the memory system (report.per_pc), which fixes how many sectors an
    L2 miss really fetched (64 B pairs); without it one sector per missed sector; shadows: if-converted
    branch pc -> its target (isa.if_convertible_branches). ptxas predicates such a shadow instead of
    branching around it, and a predicated-off SASS instruction still issues (ncu counts it in
    inst_executed, not in thread_inst_executed_pred_on): where a warp's trace jumped over a shadow,
    its instructions are put back as entries with no memory work, so the block's scheduled order
    applies to that instance too. The global loads' L1-miss groups go into Streams.miss_* (for the
    replay's near/far lines, l2_sides.py, and the in-time merging, l2_merge.py), all their groups
    into Streams.load_* (and each row's step-order place into Streams.row_flat) where timed_l1 asks
    for the timed L1 walk (l1_order.py; TimingConfig.timed_l1_walk)."""
    W = trace.num_warps
    n_pc = len(st.kind)
    if trace.n_steps:
        step_pc, counts, fwarps, active = trace.flat_steps()
    else:
        step_pc = counts = fwarps = np.zeros(0, np.int64)
        active = np.zeros(0, np.uint32)
    n_buckets = W
    if len(fwarps):
        if len(fwarps) >= 2**31 or trace.n_steps >= 2**31:
            raise ValueError("trace: too long")
        if fwarps.min() < 0:
            raise ValueError("trace: negative warp id")
        n_buckets = max(W, int(fwarps.max()) + 1)
    if len(step_pc) and (step_pc.min() < 0 or step_pc.max() >= n_pc):
        raise ValueError("trace: a step's pc is outside the kernel")
    ascending = bool(_ascending(counts, fwarps))
    # each warp's own stream, in issue (step) order, with each entry's flat index
    pcs, fidx, bucket_off = _sort_by_warp(step_pc, counts, fwarps, n_buckets, ascending)
    # where a warp split at a branch (before the shadows go in: those follow if-converted branches)
    flat_split = np.zeros(len(fidx) if st.split is not None and st.split.any() else 0, np.int8)
    n_split = _split_entries(st.split, bucket_off, pcs, fidx, active, flat_split) if len(flat_split) else 0
    if shadows and len(pcs):
        bucket_off, pcs, fidx = _fill_shadows(shadows, n_pc, bucket_off, pcs, fidx)
    # ptxas-like order inside each basic block (full block instances only), and across the
    # instances of the loops ptxas unrolls (after the blocks), then fold free ops away
    block_of_pc = np.full(n_pc, -1, np.int64)
    unrolled_of_pc = np.full(n_pc, -1, np.int64)
    schedules, unrolled = list(schedules or ()), list(unrolled or ())
    n_blk = len(schedules)
    starts = np.array([a for a, _ in schedules] + [a for a, _, _, _, _ in unrolled], np.int64)
    blk_len = np.array([len(order) for _, order in schedules] + [f * n for _, n, f, _, _ in unrolled], np.int64)
    blk_period = np.array([len(order) for _, order in schedules] + [n for _, n, _, _, _ in unrolled], np.int64)
    blk_off = np.zeros(len(starts) + 1, np.int64)
    np.cumsum([len(order) for _, order in schedules] + [len(pos) for _, _, _, pos, _ in unrolled], out=blk_off[1:])
    blk_src = _flat([np.asarray(order, np.int64) - a for a, order in schedules]
                    + [np.asarray(pos, np.int64) for _, _, _, pos, _ in unrolled], np.int64)
    blk_pc = _flat([np.asarray(order, np.int64) for _, order in schedules]
                   + [first + np.asarray(pos, np.int64) for _, _, _, pos, first in unrolled], np.int64)
    if len(starts) and len(pcs):
        ends = starts[:n_blk] + blk_len[:n_blk]
        o = np.argsort(starts[:n_blk], kind="stable")
        if np.all(starts[o][1:] >= ends[o][:-1]) and starts.min() >= 0 and (blk_period + starts).max() <= n_pc:
            block_of_pc[starts[:n_blk]] = np.arange(n_blk)
            unrolled_of_pc[starts[n_blk:]] = np.arange(n_blk, len(starts))
        else:  # overlapping blocks: one block at a time, in the given order (and no unrolling)
            for b in range(n_blk):
                if 0 <= starts[b] < n_pc:
                    one = np.full(n_pc, -1, np.int64)
                    one[starts[b]] = 0
                    _reorder_blocks(one, starts[b:b + 1], blk_off[b:b + 2] - blk_off[b],
                                    blk_src[blk_off[b]:blk_off[b + 1]], bucket_off, pcs, fidx)
    # the rows, one per entry of a ROW_KINDS kind, in entry order (the replay's cursor walks them),
    # laid out (blank) as the entries go out; dest: each flat entry's row (-1: none)
    is_row = np.zeros(max(int(st.kind.max(initial=0)) + 1, max(ROW_KINDS) + 1), np.bool_)
    is_row[list(ROW_KINDS)] = True
    row_pc = is_row[st.kind]
    rows = np.empty(_count_rows(row_pc, pcs), MEM_ROW)
    dest = np.full(len(fwarps), -1, np.int32)
    warp_row0 = np.zeros(W + 1, np.int64)
    m, warp_off = _emit(st.kind, K_FREE, W, block_of_pc, unrolled_of_pc, starts, blk_len, blk_period, blk_off,
                        blk_src, blk_pc.astype(pcs.dtype), bucket_off, pcs, fidx)
    _lay_rows(row_pc, pcs, fidx, m, warp_off, rows, dest, warp_row0)
    e_split = np.zeros(0, np.int8)
    if n_split:
        e_split = np.zeros(m, np.int8)
        known = fidx[:m] >= 0
        e_split[known] = flat_split[fidx[:m][known]]
    del fidx, flat_split
    row_flat = row_step = None
    if timed_l1:  # each row's entry's place in the trace's step order
        named = np.flatnonzero(dest >= 0)
        row_flat = np.full(len(rows), -1, np.int64)
        row_flat[dest[named]] = named
        row_step = np.searchsorted(np.cumsum(counts), row_flat, side="right").astype(np.int64)
    # the memory work, straight into the rows
    miss_pc, g_row, g_pc, n_g, groups, unit_groups, store_groups = _memory_work(
        trace, cfg, clock_mhz, step_pc, counts, fwarps, active, ascending, n_buckets, dest, rows, n_pc)
    del dest
    _peer_shared_rows(rows, pcs[:m], row_pc, getattr(trace, "dsmem_pcs", ()), cfg.lat_dsmem)
    # DRAM sectors per missed sector, per pc
    factor = np.full(n_pc, float(cfg.dram_sectors_per_miss), np.float64)
    if dram_bytes_per_pc:
        for pc, by in dram_bytes_per_pc.items():
            if 0 <= pc < n_pc and miss_pc[pc] > 0:
                factor[pc] = float(by) / cfg.sector_bytes / miss_pc[pc]
    _scale_rows(rows, g_row, g_pc, n_g, factor)
    ld_row, ld_line, ld_info = _sorted_by_row(groups) if timed_l1 else (
        np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.uint16))
    g_row, g_line, g_info = (a[(groups[2] & 15) != 0] for a in groups)  # the L1-miss groups, in event order
    lines, g_line_idx = np.unique(g_line, return_inverse=True)
    g_line_idx = g_line_idx.astype(np.int64)
    cta = trace.cta_of_warp()
    if W and (cta.min() < 0 or cta.max() >= n_ctas):
        raise IndexError("trace: a warp's CTA id is outside the grid")
    cta_warp0, cta_nwarps, contiguous = _cta_layout(cta, n_ctas)
    if not contiguous:
        # warps of a CTA must be contiguous ids (the engine lays a wave out CTA by CTA)
        raise ValueError("trace: warps of a CTA are not contiguous")
    u_row, u_line, u_passes = unit_groups
    s_row, s_line, s_info = store_groups
    return Streams(pcs[:m], rows, warp_row0, warp_off, cta_warp0, cta_nwarps, n_ctas, g_row, g_line, g_info,
                   g_line_idx, len(lines), np.argsort(g_row, kind="stable"), _row_offsets(u_row, len(rows)), u_line,
                   u_passes * (clock_mhz / 1000.0 / cfg.same_address_atomics_per_ns),
                   _row_offsets(s_row, len(rows)), s_line, s_info, _row_offsets(ld_row, len(rows)), ld_line, ld_info,
                   row_flat, row_step, e_split)


def _peer_shared_rows(rows, pcs: np.ndarray, row_pc: np.ndarray, peer_pcs, lat_dsmem: int) -> None:
    """Rows of entries at pcs that reached another CTA's shared memory (the trace's dsmem_pcs) and
    made no memory event of this SM (every lane in the peer's memory) take lat_dsmem. A generic
    ld / st / atom is a global kind whose blank row the replay finishes in one cycle, so a generic
    pointer from map_shared_rank (one NVRTC cannot prove shared, e.g. `c ? peer : p`) cost 1 cycle
    where `.shared::cluster` cost lat_dsmem; both go through the same SM-to-SM network."""
    if not peer_pcs or not len(rows):
        return
    entry_pcs = pcs[row_pc[pcs]]  # the pc of each row, in row order (_lay_rows)
    blank = (rows["lat"] < 0) & np.isin(entry_pcs, np.fromiter(peer_pcs, np.int64))
    rows["lat"][blank] = lat_dsmem


# kinds that use the L1TEX path of their SM
LSU_GLOBAL_KINDS = (K_GLD, K_GST, K_GATOM, K_LLD, K_LST)
MIO_KINDS = (K_SLD, K_SST, K_SATOM, K_SHFL)
