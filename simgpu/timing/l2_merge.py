"""L1 -> L2 read merging decided in time, in the order the loads issue.

On the H200 the L1 read misses of SMs of one merge domain (a GPC, memory/topology.py) to one sector
reach L2 once per request while that request is in flight, at most `cap` SMs per request. The
functional memory system can only guess which misses are in flight together (it takes every warp of
one engine call as concurrent); the timing replay knows when each load issues and when its data is
back, so it decides the merging again (load_lines.py calls `merge_step` at each global load's issue):

* a missed sector joins its domain's open request if the request's window has not closed and fewer
  than `cap` SMs share it; otherwise it opens a new request to L2. Requests are told apart by line,
  sectors asked for and sectors missed: only an identical request joins (measured, memory/l1.py);
* a join counts in part: the two SMs' request streams must also be in step on the H200, and they
  drift apart with the L1-miss lines each SM has in flight (q, when each request was made): a join
  counts 1 / (1 + (q_opener + q_joiner) / (2 q0)), q0 = config l2_merge_inflight_half_lines
  (benchmarks/microbench/l2_order: two SMs reading the same data merge fully with a few hundred
  lines in flight each and half as often with ~8k; simgpu's SMs run in step where the H200's do
  not, so this is an expectation, not a draw);
* a request's window closes when its data leaves the L2: about lat_l2_near (an unloaded SM -> L2 ->
  SM trip) before the load that opened it completes, queueing and DRAM fetch included
  (load_lines.answer_opened), and at the earliest w_hit cycles after it opened. So the window grows
  with the load, as on the H200 (benchmarks/microbench/l2_drift, window.cu, README sections 4-5:
  under a light load a DRAM fetch merges for ~350-450 cycles = lat_dram - lat_l2_near and an L2
  hit for < 25; under a 1,024-sector burst per SM for ~800 and ~75);
* a request of another domain that arrives while the sector's DRAM fetch is on its way waits for
  that fetch (l2_sides.line_latency), so its window lasts until the data is back too.

`merge_groups` runs the same step over groups in a given order with fixed windows (w_hit for a
sector in L2, w_miss for one the launch fetched from DRAM): the rule without a replay, used by the
tests (the property that misses of one cycle merge exactly as the functional walk merged them).

Counting: merging changes how many L2 lookups the L1 misses cause, not which sectors come from
DRAM. With n misses of a sector and M of them merged there are n - M lookups, the fetching one a
miss and the others hits, so moving from the functional merge count M_f to the timed one M_t
changes the read lookups and read hits by M_f - M_t each (per pc: `MergeCounts`), DRAM not at all.
ncu counts a lookup that finds its sector's DRAM fetch still on its way as a miss (the H200's
gemm_tiled has 26.5k L2 sector misses for 16.5k sectors read from DRAM). merge_step tells those
lookups (`pending`: a request opened while fetch_ready, when the fetch reaches the L2, is still
ahead); counting them as misses (config l2_pending_fetch_is_miss) made the calibration gemms' L2
hit rates 75.0 / 79.6 % against 88.9 / 84.0 % on the H200 and 92.2 / 90.4 % without, so it is
off (2026-11-30).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from simgpu.memory.l1 import asked_sectors, dram_sectors, request_key
from simgpu.memory.l2 import popcount4

_WAYS = 8  # ways per bucket of the in-flight table


@dataclass(frozen=True)
class MergeCounts:
    """L1 read-miss sectors that joined another SM's L2 request, per pc: as the functional walk
    merged them (`functional`) and as they merge in time (`timed`: the joins' weights summed and
    rounded, module docstring); int64 [n_pc] each."""

    functional: np.ndarray
    timed: np.ndarray
    # requests that replaced a still-open entry of the in-flight table (a merge possibly missed)
    evicted: int = 0
    # per pc, read lookups that reached the L2 before their sector's DRAM fetch (another request's)
    # did: ncu counts those as misses (None: not decided, merge_groups)
    pending: np.ndarray | None = None
    # the L1-miss groups as they reached the merging (load_lines.REQUEST_LOG_COLUMNS, pc as the
    # kernel's), where config l2_request_log_groups asked for them; None: not recorded
    requests: np.ndarray | None = None

    def delta(self) -> np.ndarray:
        """Per pc, L2 read lookups (and read hits) to add to the functional counts."""
        return self.functional - self.timed


def merge_tables(n_groups: int, n_lines: int) -> tuple:
    """The state of the pass: fetch_ready[l, b] (when sector b of line l is in L2, -1: not requested
    yet) and the in-flight table (buckets x _WAYS: key = ((line * n_domains + domain) * 16 + sectors
    asked for) * 16 + sectors missed; per sector the end of its request's window, the SMs it serves,
    when its data is back, its opener's L1-miss lines in flight and its opener's SM)."""
    buckets = 1 << max(10, min(14, int(n_groups // 4).bit_length()))  # open requests are few: a window is <= ~1k cycles
    return (np.full((max(1, n_lines), 4), -1, np.int64), np.full((buckets, _WAYS), -1, np.int64),
            np.full((buckets, _WAYS, 4), -1, np.int64), np.zeros((buckets, _WAYS, 4), np.int32),
            np.full((buckets, _WAYS, 4), -1, np.int64), np.zeros((buckets, _WAYS, 4), np.float64),
            np.full((buckets, _WAYS, 4), -1, np.int64))


@njit(cache=True, inline="always")
def merge_step(t, li, dom, n_dom, ask, miss, dram_bits, cap, w_hit, w_miss, fetch_ready, keys, ends, cnts, rets,
               oq, q, q0, osm, sm):
    """One L1-miss group issued at cycle t: line index li, sectors asked for `ask` and missed `miss`
    (bits), from SM sm (-1: not known) of merge domain dom with q L1-miss lines in flight; dram_bits:
    the line's sectors the launch fetched from DRAM. Each missed sector joins the domain's open
    request for it (module docstring; q0 <= 0: a join counts in full, and so does a join of the SM's
    own request, which needs no other SM in step and takes no place under the cap) or opens a new one.
    Returns (the joined sectors, the sectors whose DRAM fetch this group started, the sectors it opened while another
    request's fetch of them had not reached the L2 (fetch_ready > t), the bucket and way of the
    line's entry, 1 if opening it replaced a live entry, the latest return time of the joined
    sectors' requests, -1 if none is known, the joins' weight). The replay, which knows when a
    load's data is back, then sets rets[bucket, way, b] and the windows' ends of the sectors it
    opened, and fetch_ready of the fetches it started, from that time (load_lines.answer_opened)."""
    nb = keys.shape[0]
    key = request_key(li, dom, n_dom, ask, miss)  # only identical requests merge
    h = (key * np.int64(0x9E3779B97F4A7C15)) >> np.int64(17)
    bkt = h & (nb - 1)
    way = -1
    evicted = 0
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
            evicted = 1
        way = best
        keys[bkt, way] = key
        for b in range(4):
            ends[bkt, way, b] = -1
            cnts[bkt, way, b] = 0
            rets[bkt, way, b] = -1
    joined = 0
    fetching = 0
    pending = 0
    weight = 0.0
    ret = np.int64(-1)
    for b in range(4):
        if not (miss >> b) & 1:
            continue
        own = sm >= 0 and osm[bkt, way, b] == sm
        if t < ends[bkt, way, b] and (own or cap <= 0 or cnts[bkt, way, b] < cap):
            joined |= 1 << b
            if own:
                weight += 1.0
            else:
                cnts[bkt, way, b] += 1
                weight += 1.0 if q0 <= 0.0 else 1.0 / (1.0 + 0.5 * (q + oq[bkt, way, b]) / q0)
            if rets[bkt, way, b] > ret:
                ret = rets[bkt, way, b]
            continue
        ready = fetch_ready[li, b]
        if ready < 0:  # the sector's first request: it fetches from DRAM if the launch did
            ready = t
            if (dram_bits >> b) & 1:
                ready = t + w_miss
                fetching |= 1 << b
            fetch_ready[li, b] = ready
        elif ready > t:  # the sector's DRAM fetch has not reached the L2 yet
            pending |= 1 << b
        ends[bkt, way, b] = max(ready, t + w_hit)
        cnts[bkt, way, b] = 1
        rets[bkt, way, b] = -1
        oq[bkt, way, b] = q
        osm[bkt, way, b] = sm
    return joined, fetching, pending, bkt, way, evicted, ret, weight


@njit(cache=True)
def _dram_sectors(line_idx, info, n_lines):
    """Per line, the sectors the functional walk fetched from DRAM."""
    out = np.zeros(n_lines, np.int64)
    for g in range(line_idx.shape[0]):
        out[line_idx[g]] |= dram_sectors(info[g])
    return out


def line_dram_sectors(line_idx: np.ndarray, info: np.ndarray, n_lines: int) -> np.ndarray:
    """Per line (index into the distinct lines), the sectors the launch fetched from DRAM (int64 bits)."""
    return _dram_sectors(np.asarray(line_idx, np.int64), np.asarray(info, np.int64), int(max(1, n_lines)))


@njit(cache=True)
def _merge_in_order(order, t_g, dom_g, line_idx, info, pc_g, dram_mask, cap, w_hit, w_miss, n_dom,
                    fetch_ready, keys, ends, cnts, rets, oq, osm, merged_f, merged_t):
    """merge_step over the groups in `order`; returns how many requests evicted a live entry."""
    evicted = 0
    for q in range(order.shape[0]):
        g = order[q]
        li = line_idx[g]
        inf = np.int64(info[g])
        miss = inf & 15
        sent = (inf >> 4) & 15
        merged_f[pc_g[g]] += popcount4(miss & ~sent & 15)
        joined, _, _, bkt, way, ev, ret, _ = merge_step(t_g[g], li, dom_g[g], n_dom, asked_sectors(inf), miss,
                                                        dram_mask[li], cap, w_hit, w_miss, fetch_ready, keys, ends,
                                                        cnts, rets, oq, 0.0, 0.0, osm, -1)
        evicted += ev
        merged_t[pc_g[g]] += popcount4(joined)
        for b in range(4):  # no replay here: the data is back when the window would close on a hit
            if (miss & ~joined) >> b & 1:
                rets[bkt, way, b] = t_g[g] + w_hit
    return evicted


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
    tables = merge_tables(n, n_lines)
    merged_f = np.zeros(n_pc, np.int64)
    merged_t = np.zeros(n_pc, np.int64)
    evicted = _merge_in_order(order, np.asarray(t, np.int64), np.asarray(domain, np.int64),
                              line_idx, info, np.asarray(pc, np.int64), dram_mask, int(cap),
                              np.int64(window_hit), np.int64(window_miss), int(n_domains),
                              *tables, merged_f, merged_t)
    return MergeCounts(merged_f, merged_t, int(evicted))
