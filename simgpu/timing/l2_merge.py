"""L1 -> L2 read merging decided in time, on the replay's issue cycles.

On the H200 the L1 read misses of SMs of one merge domain (a GPC, memory/topology.py) to one sector
reach L2 once per request while that request is in flight, at most `cap` SMs per request. The
functional memory system can only guess which misses are in flight together (it takes every warp of
one engine call as concurrent); the replay knows when each load issued, so here the merging is done
again, in time:

* misses are taken in issue order (cycle, then the functional order);
* a miss joins the domain's request for its sector if that request issued at t0, the miss issues
  before its window closes and fewer than `cap` SMs share it; otherwise it is a new request to L2;
* the window of a request (benchmarks/microbench/l2_drift, window.cu, H200, 2026-11-29): while the
  sector is on its way from DRAM -- the first request of a sector this launch fetches from DRAM
  (when the functional walk fetched it at all), and a request of another domain that arrives before
  that fetch returns waits for it -- merging stays possible until the data is back
  (`window_miss` cycles after the fetch was sent: half of the copies merge at d ~ 800 cycles);
  once the sector is in L2 a request is answered in `window_hit` cycles (half at d ~ 75).

Counting: merging changes how many L2 lookups the L1 misses cause, not which sectors come from
DRAM. With n misses of a sector and M of them merged there are n - M lookups, the fetching one a
miss and the others hits, so moving from the functional merge count M_f to the timed one M_t
changes the read lookups and read hits by M_f - M_t each (per pc: `MergeCounts`), DRAM not at all.
Not modelled: ncu counts a lookup that finds the sector's fetch still on its way as a miss (the
H200's gemm_tiled has 26.5k L2 sector misses for 16.5k sectors read from DRAM). Counting those here
made the calibration gemms' L2 hit rates 64 / 70 % with an 800-cycle fetch, 73 / 76 % with a
376-cycle one (lat_dram - lat_l2_near), against 88.9 / 84.0 % on the H200 and 92.4 / 90.3 % without
(2026-11-30): the replay's first requests of a line from different domains still bunch up more than
the H200's.
The latencies the replay used are not changed by the merging. What spreads the SMs apart in time,
and so decides how much merges, is mostly the near/far L2 latency of each line in issue order
(l2_sides.py): whoever loads a line first from its side pays the far trip. With it the calibration
gemms' first-round CTAs end a median 1,150 (gemm_naive) / 2,420 (gemm_tiled) cycles apart (H200:
500-1,200 / 200-500), against 25 / 63 with the expected-latency rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from simgpu.memory.l1 import dram_sectors
from simgpu.memory.l2 import popcount4

_WAYS = 8  # ways per bucket of the in-flight table


@dataclass(frozen=True)
class MergeCounts:
    """L1 read-miss sectors that joined another SM's L2 request, per pc: as the functional walk
    merged them (`functional`) and as they merge in time (`timed`); int64 [n_pc] each."""

    functional: np.ndarray
    timed: np.ndarray
    # requests that replaced a still-open entry of the in-flight table (a merge possibly missed)
    evicted: int = 0

    def delta(self) -> np.ndarray:
        """Per pc, L2 read lookups (and read hits) to add to the functional counts."""
        return self.functional - self.timed


@njit(cache=True)
def _group_times(row_pc, e_pc, warp_off, warp_row0, e_issue, warp_sm, g_row, by_row, t_g, sm_g, pc_g):
    """Issue cycle, SM and pc of the entry that owns each group's memory row (rows are the ROW_KINDS
    entries, in entry order; by_row: the groups sorted by row). Returns how many groups were found."""
    W = warp_off.shape[0] - 1
    G = by_row.shape[0]
    p = 0
    for w in range(W):
        if p >= G:
            break
        if g_row[by_row[p]] >= warp_row0[w + 1]:
            continue  # no group in this warp's rows
        r = warp_row0[w]
        for e in range(warp_off[w], warp_off[w + 1]):
            pc = e_pc[e]
            if row_pc[pc]:
                while p < G and g_row[by_row[p]] == r:
                    g = by_row[p]
                    t_g[g] = e_issue[e]
                    sm_g[g] = warp_sm[w]
                    pc_g[g] = pc
                    p += 1
                r += 1
    return p


@njit(cache=True)
def _dram_sectors(line_idx, info, n_lines):
    """Per line, the sectors the functional walk fetched from DRAM."""
    out = np.zeros(n_lines, np.int64)
    for g in range(line_idx.shape[0]):
        out[line_idx[g]] |= dram_sectors(info[g])
    return out


@njit(cache=True)
def _merge_in_time(order, t_g, dom_g, line_idx, info, pc_g, dram_mask, cap, w_hit, w_miss, n_dom,
                   fetch_ready, keys, ends, cnts, merged_f, merged_t):
    """The pass over the misses in `order` (see the module docstring). fetch_ready[l, b]: when
    sector b of line l is in L2 (-1: not requested yet); keys/ends/cnts: the in-flight table
    (buckets x _WAYS: key = line * n_dom + domain, per sector the end of its request's window and
    the SMs it serves). Returns how many requests had to evict a live entry of the table."""
    nb = keys.shape[0]
    evicted = 0
    for q in range(order.shape[0]):
        g = order[q]
        t = t_g[g]
        li = line_idx[g]
        inf = np.int64(info[g])
        miss = inf & 15
        sent = (inf >> 4) & 15
        merged_f[pc_g[g]] += popcount4(miss & ~sent & 15)
        key = li * n_dom + dom_g[g]
        h = (key * np.int64(0x9E3779B97F4A7C15)) >> np.int64(17)
        bkt = h & (nb - 1)
        way = -1
        for w in range(_WAYS):
            if keys[bkt, w] == key:
                way = w
                break
        if way < 0:  # a free way, else the one whose windows closed first
            best = 0
            best_end = np.int64(1) << np.int64(62)
            for w in range(_WAYS):
                if keys[bkt, w] < 0:
                    best = w
                    best_end = -1
                    break
                e = max(ends[bkt, w, 0], ends[bkt, w, 1], ends[bkt, w, 2], ends[bkt, w, 3])
                if e < best_end:
                    best_end = e
                    best = w
            if best_end > t:
                evicted += 1
            way = best
            keys[bkt, way] = key
            for b in range(4):
                ends[bkt, way, b] = -1
                cnts[bkt, way, b] = 0
        for b in range(4):
            if not (miss >> b) & 1:
                continue
            if t < ends[bkt, way, b] and (cap <= 0 or cnts[bkt, way, b] < cap):
                cnts[bkt, way, b] += 1
                merged_t[pc_g[g]] += 1
                continue
            ready = fetch_ready[li, b]
            if ready < 0:  # the sector's first request: it fetches from DRAM if the launch did
                ready = t + w_miss if (dram_mask[li] >> b) & 1 else t
                fetch_ready[li, b] = ready
            ends[bkt, way, b] = max(ready, t + w_hit)
            cnts[bkt, way, b] = 1
    return evicted


def merge_in_time(streams, row_pc: np.ndarray, e_issue: np.ndarray, warp_sm: np.ndarray,
                  merge_dom: np.ndarray, cap: int, window_hit: int, window_miss: int,
                  n_pc: int) -> MergeCounts | None:
    """Redo the L2 read merging of the launch's global-load L1 misses on the replay's issue cycles.

    streams: prepare.Streams (miss_row / miss_line / miss_info); row_pc: bool per pc, whether its
    entries own a memory row; e_issue: issue cycle per entry; warp_sm: SM of each warp (the one
    whose L1 missed: the functional engine's placement); merge_dom:
    merge domain of each SM (empty: no merging modelled, returns None); cap: SMs per request (0: any)."""
    if merge_dom is None or len(merge_dom) == 0 or streams.miss_row is None:
        return None
    if len(streams.miss_row) == 0:
        zero = np.zeros(n_pc, np.int64)
        return MergeCounts(zero, zero.copy(), 0)
    rows = np.asarray(streams.miss_row, np.int64)
    G = len(rows)
    t_g = np.full(G, -1, np.int64)
    sm_g = np.zeros(G, np.int64)
    pc_g = np.zeros(G, np.int64)
    found = _group_times(row_pc, streams.e_pc, streams.warp_off, streams.warp_row0, e_issue, warp_sm, rows,
                         streams.miss_by_row, t_g, sm_g, pc_g)
    if found != G or t_g.min() < 0:
        raise ValueError("timing: a load with L1 misses was never issued by the replay")
    if sm_g.max() >= len(merge_dom):
        raise ValueError("timing: an SM outside the merge domains")
    dom_g = np.asarray(merge_dom, np.int64)[sm_g]
    return merge_groups(t_g, dom_g, streams.miss_line, streams.miss_info, pc_g, int(cap),
                        window_hit, window_miss, n_pc, int(np.max(merge_dom)) + 1,
                        (streams.miss_line_idx, streams.n_miss_lines))


def merge_groups(t: np.ndarray, domain: np.ndarray, line: np.ndarray, info: np.ndarray, pc: np.ndarray,
                 cap: int, window_hit: int, window_miss: int, n_pc: int, n_domains: int,
                 line_index: tuple[np.ndarray, int] | None = None) -> MergeCounts:
    """The merging of L1-miss groups (one per warp instruction and line; info as hierarchy_batch's
    g_info) issued at cycles t from SMs of merge domains `domain` (ties: in the given order).
    line_index: (index of each group's line among the distinct lines, their number), if known."""
    n = len(t)
    if not len(domain) == len(line) == len(info) == len(pc) == n:
        raise ValueError(f"merge_groups: t, domain, line, info and pc need one per group, got "
                         f"{n}, {len(domain)}, {len(line)}, {len(info)}, {len(pc)}")
    if n == 0:
        zero = np.zeros(n_pc, np.int64)
        return MergeCounts(zero, zero.copy(), 0)
    if line_index is None or line_index[0] is None:
        lines, line_idx = np.unique(np.asarray(line, np.int64), return_inverse=True)
        n_lines = len(lines)
    else:
        line_idx, n_lines = line_index
    info = np.asarray(info, np.int64)
    line_idx = np.asarray(line_idx, np.int64)
    dram_mask = _dram_sectors(line_idx, info, n_lines)
    order = np.argsort(np.asarray(t, np.int64), kind="stable")
    buckets = 1 << max(10, min(14, int(n // 4).bit_length()))  # open requests are few: a window is <= ~1k cycles
    keys = np.full((buckets, _WAYS), -1, np.int64)
    ends = np.full((buckets, _WAYS, 4), -1, np.int64)
    cnts = np.zeros((buckets, _WAYS, 4), np.int32)
    fetch_ready = np.full((n_lines, 4), -1, np.int64)
    merged_f = np.zeros(n_pc, np.int64)
    merged_t = np.zeros(n_pc, np.int64)
    evicted = _merge_in_time(order, np.asarray(t, np.int64), np.asarray(domain, np.int64),
                             line_idx, info, np.asarray(pc, np.int64), dram_mask, int(cap),
                             np.int64(window_hit), np.int64(window_miss), int(n_domains),
                             fetch_ready, keys, ends, cnts, merged_f, merged_t)
    return MergeCounts(merged_f, merged_t, int(evicted))
