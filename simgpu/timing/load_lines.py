"""A global load's L1-miss lines at its issue: joined to an open L2 request of its merge domain, or
sent to the L2 near or far.

The replay calls `load_lines` when a global load issues whose L1 misses the functional walk recorded
(prepare.Streams miss groups: one per warp instruction and line). In issue order (the replay's one
clock, so whoever is ahead in time is ahead here):

* with merging (l2_merge.merge_step), each missed sector joins the open request of its SM's merge
  domain for that sector, or opens a new one; a join counts by how likely the two SMs' request
  streams were still in step, from the L1-miss lines each had in flight (the replay keeps them).
  With `release_together` (config l2_merge_release_together, off by default: measured there) a
  line whose missed sectors all joined is answered with the request it joined: its data is back
  when the leader's is, and at the earliest an L1 round trip after its own issue;
* every other line takes the near/far L2 or DRAM latency of l2_sides.line_latency, plus its GPC's
  offset for that line (config l2_gpc_line_latency, l2_sides.gpc_line_offsets).

Before either, each missed line leaves its SM: at most config l1_miss_lines_per_cycle lines a cycle
per SM (benchmarks/microbench/l1_inflight: ~0.97 one-sector lines a cycle on the H200), so a warp
load of 32 missed lines sends its last ~32 cycles after its first. A line joins or opens a request
when it leaves, and its latency counts from then: two SMs asking for the same line from different
places in their queues reach the L2 that far apart.

The load waits for its slowest line. The sectors it opened are answered when the load's own data
is back: the replay writes that time, and the window it gives the requests, into the in-flight
table once it knows it (`answer_opened`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simgpu.memory.l1 import asked_sectors, dram_sectors
from simgpu.memory.l2 import popcount4
from simgpu.timing.l2_merge import merge_step, merge_tables
from simgpu.timing.l2_sides import line_latency

# what MergeState.log holds for each L1-miss group (a warp instruction's missed sectors of one line):
# when the line left its SM, its index among the launch's distinct lines, the SM, its merge domain,
# the sectors it missed and those that joined another SM's open request (bits), its pc
REQUEST_LOG_COLUMNS = ("cycle", "line", "sm", "domain", "missed", "joined", "pc")


class MergeState(NamedTuple):
    """What the replay needs for the merging at issue: the switches and parameters, the in-flight
    tables (l2_merge.merge_tables) and the counts it accumulates, per pc unless said."""

    on: bool  # False: no merging (no merge domains or no L1 miss)
    n_dom: int  # merge domains
    cap: int  # SMs per request (0: any)
    w_hit: np.int64  # the least window
    w_miss: np.int64  # merge_step's provisional fetch window (answer_opened replaces it)
    dram_mask: np.ndarray  # per line, the sectors the launch read from DRAM
    fetch_ready: np.ndarray
    keys: np.ndarray
    ends: np.ndarray
    cnts: np.ndarray
    rets: np.ndarray
    oq: np.ndarray  # per open request's sector, its SM's L1-miss lines in flight when it opened
    osm: np.ndarray  # ... and its SM
    merged_f: np.ndarray  # L1-miss sectors the functional walk merged
    merged_t: np.ndarray  # ... merged in time, each join by its weight (float64)
    evict: np.ndarray  # [1]: requests that replaced a still-open table entry
    together: bool  # a fully joined line is answered with its request (config l2_merge_release_together)
    sm_dom: np.ndarray  # per SM, its merge domain
    floor: np.int64  # the earliest a joined line's data is back after its own issue
    pend: np.ndarray  # read lookups that reached the L2 before their sector's DRAM fetch
    q0: float  # config l2_merge_inflight_half_lines (<= 0: every join counts in full)
    pend_short: bool  # a request waiting for another domain's DRAM fetch stays open w_hit (config
    # l2_merge_pending_window_hit)
    miss_gap: float  # cycles between two L1-miss lines leaving one SM (0: no limit)
    miss_free: np.ndarray  # per SM, when its next L1-miss line may leave (float64)
    w_hit_max: np.int64  # an L2-hit request stays open at most this long (0: until its data leaves)
    line_off: np.ndarray  # per distinct line and GPC, its extra L2 latency (int16; [1, 1] zeros: off)
    sm_gpc: np.ndarray  # per SM, its GPC (the column of line_off)
    # the L1-miss groups as they reach the merging, one row each (REQUEST_LOG_COLUMNS), up to the
    # array's length (0 rows: not recorded; config l2_request_log_groups); log_n[0] rows written
    log: np.ndarray
    log_n: np.ndarray


def merge_state(on: bool, sm_dom: np.ndarray, cap: int, w_hit: int, dram_mask: np.ndarray, n_groups: int,
                n_lines: int, n_pc: int, together: bool = False, floor: int = 0, w_miss: int = 0,
                q0: float = 0.0, pend_short: bool = False, miss_lines_per_cycle: float = 0.0,
                line_off: np.ndarray | None = None, sm_gpc: np.ndarray | None = None,
                w_hit_max: int = 0, log_groups: int = 0) -> MergeState:
    """A fresh MergeState with empty tables and zero counts (and every SM's miss queue empty).
    line_off / sm_gpc: the (GPC, line) latency offsets (l2_sides.gpc_line_offsets); None: none.
    log_groups: record at most this many L1-miss groups (MergeState.log; 0: none)."""
    sm_dom = np.asarray(sm_dom, np.int64)
    if line_off is None or sm_gpc is None:
        line_off, sm_gpc = np.zeros((1, 1), np.int16), np.zeros(len(sm_dom), np.int64)
    return MergeState(bool(on), int(sm_dom.max(initial=0)) + 1, int(cap), np.int64(w_hit), np.int64(w_miss),
                      np.asarray(dram_mask, np.int64), *merge_tables(n_groups, n_lines),
                      np.zeros(n_pc, np.int64), np.zeros(n_pc, np.float64), np.zeros(1, np.int64), bool(together),
                      sm_dom, np.int64(floor), np.zeros(n_pc, np.int64), float(q0), bool(pend_short),
                      1.0 / miss_lines_per_cycle if miss_lines_per_cycle > 0 else 0.0,
                      np.zeros(len(sm_dom), np.float64), np.int64(w_hit_max), np.asarray(line_off, np.int16),
                      np.asarray(sm_gpc, np.int64),
                      np.zeros((max(0, int(log_groups)), len(REQUEST_LOG_COLUMNS)), np.int64), np.zeros(1, np.int64))


@njit(cache=True)
def _log_group(mg, tl, li, sm, dom, miss, joined, pc):
    """One row of MergeState.log (REQUEST_LOG_COLUMNS)."""
    i = mg.log_n[0]
    mg.log[i, 0] = tl
    mg.log[i, 1] = li
    mg.log[i, 2] = sm
    mg.log[i, 3] = dom
    mg.log[i, 4] = miss
    mg.log[i, 5] = joined
    mg.log[i, 6] = pc
    mg.log_n[0] = i + 1


@njit(cache=True, inline="always")
def load_lines(gl, mr, t, sm, side, dom, pc, g_row, g_li, g_home, g_info, copy_at, back, dram_left, lats,
               use_sides, in_time, mg, op_b, op_w, op_m, op_l, op_f, q):
    """Row mr (a global load) issued at cycle t from SM sm of L2 side `side` and merge domain `dom`
    with q L1-miss lines in flight;
    gl: the warp's cursor into the groups (sorted by row). lats: (l2_near, l2_far, dram_near,
    dram_far); in_time: the first request in time fetches a sector from DRAM (else the group the
    functional walk had fetch it); mg: the MergeState (mg.on False: no merging). op_b / op_w / op_m /
    op_l / op_f: scratch for the requests this load opened (bucket, way, sectors, line, the sectors
    whose DRAM fetch it started | the sectors that wait for another request's fetch << 4).

    Returns (latency of the slowest line sent on by this load, -1 if none or no near/far rule; the
    latest return time of the requests its fully joined lines joined, -1 if none; whether some line
    was sent on; how many entries of op_* it filled; the advanced cursor; its L1-miss lines)."""
    n = g_row.shape[0]
    while gl < n and g_row[gl] < mr:
        gl += 1
    g_first = gl
    own = np.int64(-1)
    jret = np.int64(-1)
    sent_any = False
    n_open = 0
    while gl < n and g_row[gl] == mr:
        li = g_li[gl]
        joined_all = False
        tl = t  # when the line leaves the SM (module docstring)
        if mg.miss_gap > 0.0:
            leave = mg.miss_free[sm] if mg.miss_free[sm] > t else float(t)
            mg.miss_free[sm] = leave + mg.miss_gap
            tl = np.int64(leave)
        if mg.on:
            inf = np.int64(g_info[gl])
            miss = inf & 15
            sent = (inf >> 4) & 15
            mg.merged_f[pc] += popcount4(miss & ~sent & 15)
            joined, fetching, pending, bkt, way, ev, ret, weight = merge_step(
                tl, li, dom, mg.n_dom, asked_sectors(inf), miss, mg.dram_mask[li], mg.cap, mg.w_hit, mg.w_miss,
                mg.fetch_ready, mg.keys, mg.ends, mg.cnts, mg.rets, mg.oq, q, mg.q0, mg.osm, sm)
            mg.evict[0] += ev
            if mg.log_n[0] < mg.log.shape[0]:
                _log_group(mg, tl, li, sm, dom, miss, joined, pc)
            mg.merged_t[pc] += weight
            mg.pend[pc] += popcount4(pending)
            opened = miss & ~joined
            if opened:
                if n_open < op_b.shape[0]:
                    op_b[n_open] = bkt
                    op_w[n_open] = way
                    op_m[n_open] = opened
                    op_l[n_open] = li
                    op_f[n_open] = fetching | ((pending & opened) << 4)
                    n_open += 1
            elif mg.together and joined and ret >= 0:
                joined_all = True
                if ret > jret:
                    jret = ret
        if not joined_all:
            sent_any = True
            if use_sides:
                inf = np.int64(g_info[gl])
                v = line_latency(li, g_home[gl], inf & 15, tl, side, copy_at, back, dram_left,
                                 lats[0], lats[1], lats[2], lats[3], -1 if in_time else dram_sectors(inf),
                                 lats[4]) + (tl - t)
                if mg.line_off.shape[0] > li:  # the path from this SM's GPC to the line's slice
                    v += mg.line_off[li, mg.sm_gpc[sm]]
                if v > own:
                    own = v
        gl += 1
    return own, jret, sent_any, n_open, gl, gl - g_first


@njit(cache=True, inline="always")
def answer_opened(mg, op_b, op_w, op_m, op_l, op_f, n_open, t, done, trip):
    """The requests a load issued at cycle t opened are answered when its data is back (cycle
    `done`). A request stays open to joiners while its data has not left the L2: a joiner reaches
    the L2 about half an SM -> L2 round trip after its issue, the data gets back to the SM about
    half a round trip after it leaves, so the window closes `trip` (an unloaded near L2 hit's
    latency) before `done`, or w_hit after t if that is later (module docstring); a request that hits
    in L2 at the latest w_hit_max after t (config l2_merge_window_hit_max_cycles, 0: no limit). By the same
    reckoning a DRAM fetch it started reaches the L2 then (fetch_ready: a later request that finds
    it still on its way is a pending miss, merge_step)."""
    end = done - trip
    if end < t + mg.w_hit:
        end = t + mg.w_hit
    for i in range(n_open):
        for b in range(4):
            if (op_m[i] >> b) & 1:
                mg.rets[op_b[i], op_w[i], b] = done
                mg.ends[op_b[i], op_w[i], b] = end
                if mg.w_hit_max > 0 and not (op_f[i] >> b) & 1 and end > t + mg.w_hit_max:
                    mg.ends[op_b[i], op_w[i], b] = t + mg.w_hit_max  # an L2 hit: at most w_hit_max
                if mg.pend_short and (op_f[i] >> (4 + b)) & 1:
                    mg.ends[op_b[i], op_w[i], b] = t + mg.w_hit
            if (op_f[i] >> b) & 1:
                mg.fetch_ready[op_l[i], b] = end
