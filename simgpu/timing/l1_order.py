"""Global loads' L1 hits walked again after the replay: on the SMs the replay ran the CTAs on, in
runs (the default), in the functional order (launches of more than one wave, where runs are off) or
in the replay's issue order (off by default).

Which SM: the functional engines deal every wave of CTAs out in the same SM order
(core/dispatch.py), so CTA i + k * ctas_per_wave always shares an SM, and its L1, with CTA i. Past
the first wave the H200 starts a CTA on the SM where a slot frees first, and so does the replay.
validation/typical14 switch_interp reads table group j mod 4 in CTA j: with 132 SMs each SM sees one
group in the functional walk (96.77 % hits) and all four on the H200 (96.19 %); walked in the
functional order on the replay's SMs (config l1_loads_on_replay_sms) the hits are the H200's to the
sector. Single-wave launches are not walked in that mode: their CTAs sit on the same SMs in both.

Which order: the functional engines take the warps of an SM in step: at each pc every ready warp
of the wave issues together, and memory/l1.py walks that instruction for all of them before the
next. Where an SM's lines are read twice with more lines than its L1 holds in between, the order decides what is
still there. validation/typical13 cross_entropy_rows reads each warp's 4,000-byte row twice: with
64 warps an SM, in step, all 64 rows (256 KB) go through the 216 KB L1 before any is read again,
and the second pass misses (7.5 % hits); on the H200 the warps drift apart and a third of the
second pass hits (33.2 %).

After the replay, `timed_l1_hits` walks every global load's and global store's lines again through
an L1 per SM of the same geometry and policies as memory/l1.py (sets, ways, set index from the
line's place in its allocation, the victim choice (empty ways first); loads allocate; stores write-allocate and
mark their sectors valid; .cg/.cv/volatile loads drop the sectors, .lu hits and drops), row by
row in the order given (the replay's issue cycles, or each row's place in the trace's step order;
ties: the row order), each on the SM the replay ran its warp on. Per pc it returns the load sectors
the functional walk counted as L1 hits and those the walk gives (`L1Counts`);
MemorySystem.apply_timed_l1 swaps them and moves the L2 read lookups with them, in the share of
lookups pc's L1 misses had.

On the same SMs, where no line is evicted between two uses, both orders give the same hits (a
sector's first touch on an SM misses, every later one hits, whatever the order), so only launches
whose L1 runs out of room between reuses move. Not walked, and so left to the functional answer
(the launch's counts stay as they are): a launch with local memory (its lines share the L1), with a fence that
invalidates L1 (CCTL.IVALL), with atomics on lines its loads read, or with no L1; a launch whose
L1 started warm is cold at every launch (MemorySystem.begin_kernel) like this walk. Not modelled:
the store rule about a line still busy with the same warp's previous store (l1.py): here every
store marks its sectors valid. Latencies and L2 traffic in time are the replay's, from the
functional answer; only the counters move.

Runs (config l1_loads_in_runs, the default) keep the step where it matters and let a warp go
ahead where the H200's does: a greedy (GTO) scheduler issues a warp's independent loads back to
back until one waits for a load's data, so the L1 sees a warp's run of loads together. A run is a
warp's memory rows between two waits on a long-scoreboard result (a global, local or constant
load's, an atomic's) or a barrier (the replay marks the entries that waited: e_waited); runs go
through the L1 in the functional step of their first row, and the runs of one step in the
replay's issue order. validation/typical15 thread_chunk_sum (each thread's
own 128 B, read 4 floats a load, 4 loads a run) hits 0.00 % in step (a warp's next load of a line
comes after the SM's 63 other warps brought in 2,016 lines), 74.72 % in runs (H200 79.53 %);
loops whose every iteration waits for its load stay in step, as the H200 keeps a CTA's warps
within one loop step (benchmarks/microbench/warp_drift), so typical7 wmma_gemm_f16 keeps its
80.09 % (H200 81.02) where the issue order loses it. With config l1_runs_end_on_own_loads (off)
only a wait on a load of the run itself ends it (own_run_waits), for software-pipelined loops.

The issue order is off by default (config l1_loads_in_issue_order): the answer is only as good as
the replay's order, and that order lets an SM's warps drift further apart than the H200's. Over the 170 recorded
launches (2026-12-03) it fixed some L1 hit rates (cross_entropy_rows 7.47 -> 21.05 %, H200 33.19;
lower_bound_search 43.18 -> 41.73, H200 41.48) and broke others (validation/typical7
wmma_gemm_f16 80.09 -> 60.46 %, H200 81.02, whose CTAs must stay within a few loop iterations of
each other to share their A and B lines; softmax_block_rows 44.95 -> 49.81, H200 45.18). In
wmma_gemm_f16 the replay's schedulers take the SM's LSU queue in a fixed order (the fourth
sub-partition's warps issued their first load ~50,000 cycles late) and GTO holds the youngest CTAs
~40,000 cycles back; with the turns rotated and loose round-robin scheduling the walk gives 80.09 %
there, as the functional walk does. benchmarks/microbench/warp_drift measures the drift on the
H200 against the replay's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from simgpu.memory.l1 import REREAD, _l1_alloc, _l1_find, l1_set_of
from simgpu.memory.l2 import line_in_allocation, popcount4

# per pc, what a global load does in L1 (memory/l1.py's OP_LD, OP_LD_BYPASS, OP_LD_LAST_USE)
POLICY_PLAIN, POLICY_BYPASS, POLICY_LAST_USE = 0, 1, 2
POLICY_CODES = {"ld_bypass": POLICY_BYPASS, "ld_last_use": POLICY_LAST_USE}


@dataclass(frozen=True)
class L1Counts:
    """Per pc: global-load sectors the functional walk counted as L1 hits and those the timed walk
    gives (int64 [n_pc]); per (warp, line) group of the global loads (Streams.load_*'s order) the
    sectors the timed walk missed (uint8, a 4-bit mask), for the replay again (retime.py)."""

    functional_hits: np.ndarray
    timed_hits: np.ndarray
    load_misses: np.ndarray | None = None

    def hit_delta(self) -> np.ndarray:
        return self.timed_hits - self.functional_hits


@njit(cache=True)
def _l1_places(lines, heap_lines, nsets):
    """Each line's number in its allocation and memory/l1.py's L1 set for it (which, with the victim
    draw, follow the place in the allocation, not the address)."""
    rel = np.empty(lines.shape[0], np.int64)
    out = np.empty(lines.shape[0], np.int64)
    for i in range(lines.shape[0]):
        rel[i] = line_in_allocation(lines[i], heap_lines)
        out[i] = l1_set_of(rel[i], nsets)
    return rel, out


@njit(cache=True)
def _walk(order, row_pc, row_sm, policy, ld_off, ld_line, ld_info, ld_place, st_off, st_line, st_info, st_place,
          tags, valid, lru, wreq, rule, f_hit, t_hit, ld_miss):
    """The rows in `order` through the per-SM L1 arrays (tags / valid / lru / wreq [sms, sets, ways],
    memory/l1.py's, whose lookup and victim choice this reuses; ld_place / st_place: each line's
    number in its allocation and its set, _l1_places); adds per pc the functional and the
    timed load hit sectors, and sets each load group's missed sectors (ld_miss, all asked for where
    its row is not walked)."""
    ways = tags.shape[2]
    stamp = np.zeros(1, np.int64)  # shared with _l1_alloc's second chance
    for r in order:
        sm = row_sm[r]
        pc = row_pc[r]
        pol = policy[pc]
        for j in range(ld_off[r], ld_off[r + 1]):
            info = np.int64(ld_info[j])
            m = (info >> 12) & 15
            f_hit[pc] += popcount4(m & ~info & 15)
            s = ld_place[1][j]
            w = _l1_find(tags, sm, s, ld_line[j], ways)
            if w < 0 and pol == POLICY_PLAIN:
                w = _l1_alloc(tags, valid, lru, wreq, stamp, sm, s, ld_line[j], ld_place[0][j], ways, rule)
            if w < 0:
                continue
            v = np.int64(valid[sm, s, w])
            if pol == POLICY_BYPASS:  # fetched again from L2, the L1's copy dropped
                valid[sm, s, w] = v & ~m & 15
                continue
            t_hit[pc] += popcount4(v & m)
            ld_miss[j] = m & ~v & 15
            if pol == POLICY_LAST_USE:
                valid[sm, s, w] = v & ~m & 15
                continue
            valid[sm, s, w] = v | m | (REREAD if v & m else 0)
            stamp[0] += 1
            lru[sm, s, w] = stamp[0]
        for j in range(st_off[r], st_off[r + 1]):
            s = st_place[1][j]
            w = _l1_find(tags, sm, s, st_line[j], ways)
            mark = np.int64(REREAD)  # a store to a resident line marks it (memory/l1.py)
            if w < 0:
                w = _l1_alloc(tags, valid, lru, wreq, stamp, sm, s, st_line[j], st_place[0][j], ways, rule)
                mark = np.int64(0)
            valid[sm, s, w] = np.int64(valid[sm, s, w]) | (np.int64(st_info[j]) & 15) | mark
            stamp[0] += 1
            lru[sm, s, w] = stamp[0]


@njit(cache=True)
def _waits_on_own_run(e_waited, e_pc, warp_off, src, dst, long_pc, bar_pc, n_regs):
    """e_waited kept only where the wait ends a run: a barrier's, or one on a register a long-
    scoreboard instruction (long_pc) of the same run wrote. A wait on a load the warp issued
    before its run began is its software pipeline (ptxas keeps loads that many ahead) and leaves
    the run going: the loads were already on their way when the run started."""
    n = e_waited.shape[0]
    out = np.zeros(n, np.int8)
    last = np.full(n_regs, -1, np.int64)  # per register, the entry of its latest long-scoreboard writer
    for w in range(warp_off.shape[0] - 1):
        a = warp_off[w]
        b = min(warp_off[w + 1], n)
        run_start = a  # entries of earlier warps are below a, so their writers never count
        for e in range(a, b):
            pc = e_pc[e]
            if e_waited[e] and e > a:
                ends = bar_pc[pc]
                for j in range(src.shape[1]):
                    r = src[pc, j]
                    if r >= 0 and last[r] >= run_start:
                        ends = True
                if ends:
                    out[e] = 1
                    run_start = e
            for j in range(dst.shape[1]):
                r = dst[pc, j]
                if r >= 0:
                    last[r] = e if long_pc[pc] else -1
    return out


def own_run_waits(e_waited: np.ndarray, e_pc: np.ndarray, warp_off: np.ndarray, src: np.ndarray,
                  dst: np.ndarray, long_pc: np.ndarray, bar_pc: np.ndarray, n_regs: int) -> np.ndarray:
    """The waits that end a run when runs end only on the warp's own run's loads (config
    l1_runs_end_on_own_loads; _waits_on_own_run). src / dst: the StaticTable's register rows;
    long_pc / bar_pc: per pc whether it writes through the long scoreboard / is a barrier."""
    return _waits_on_own_run(np.asarray(e_waited, np.int8), np.asarray(e_pc, np.int64),
                             np.asarray(warp_off, np.int64), np.asarray(src, np.int64), np.asarray(dst, np.int64),
                             np.asarray(long_pc, np.bool_), np.asarray(bar_pc, np.bool_), int(n_regs))


def run_order(warp_off: np.ndarray, row_step: np.ndarray, e_issue: np.ndarray, e_waited: np.ndarray,
              row_entry: np.ndarray) -> np.ndarray:
    """Per entry the walk key of the order in runs (module docstring): its run's first row's
    functional step (row_step), then its issue cycle. warp_off: each warp's first entry (entries
    run warp by warp); e_waited: per entry 1 where the warp waited on a long-scoreboard result or a
    barrier before issuing it (replay.py); row_entry: each memory row's entry, ascending. Entries
    without a row get 0."""
    n = len(e_issue)
    starts = np.asarray(e_waited, np.bool_).copy()  # entries that begin a run
    first_entries = np.asarray(warp_off[:-1], np.int64)
    starts[first_entries[first_entries < n]] = True
    row_run = np.cumsum(starts, dtype=np.int32)[row_entry]  # prepare keeps a trace below 2**31 entries
    new_run = np.ones(len(row_run), np.bool_)  # rows come in entry order: a run's rows are adjacent
    new_run[1:] = row_run[1:] != row_run[:-1]
    start_step = np.asarray(row_step, np.int64)[np.flatnonzero(new_run)][np.cumsum(new_run) - 1]
    order = np.zeros(n, np.int64)
    # issue cycles stay below 2**29 (replay.T_MAX)
    order[row_entry] = (start_step << 30) | np.asarray(e_issue, np.int64)[row_entry]
    return order


def timed_l1_hits(e_issue: np.ndarray, row_entry: np.ndarray, row_pc: np.ndarray, row_warp: np.ndarray,
                  warp_sm: np.ndarray, policy: np.ndarray, load: tuple, store: tuple, *, num_sms: int,
                  sets: int, ways: int, heap_lines: np.ndarray, rule: int = 1) -> L1Counts:
    """Walk the global loads' and stores' lines through per-SM L1s in issue order (module docstring).

    e_issue: per replayed entry its issue cycle; row_entry / row_pc / row_warp: per memory row its
    entry, pc and warp; warp_sm: per warp the SM the replay ran it on; policy: per pc a POLICY_*
    code; load / store: (off [rows + 1], line, info) as Streams.load_* / store_*; heap_lines: the
    sorted first lines of the allocations (memory/l1.py's set index); rule: the victim rule
    (memory/l1.py L1Caches.victim_rule, _l1_alloc)."""
    n_pc = len(policy)
    f_hit = np.zeros(n_pc, np.int64)
    t_hit = np.zeros(n_pc, np.int64)
    ld_off, ld_line, ld_info = load
    st_off, st_line, st_info = store
    ld_miss = ((np.asarray(ld_info, np.int64) >> 12) & 15).astype(np.uint8)  # a group not walked misses all
    if ways <= 0 or not len(ld_line):
        return L1Counts(f_hit, t_hit, ld_miss)
    has = (np.diff(ld_off) > 0) | (np.diff(st_off) > 0)
    rows = np.flatnonzero(has)
    t = np.asarray(e_issue, np.int64)[row_entry[rows]]
    order = rows[np.lexsort((rows, t))]
    row_sm = np.asarray(warp_sm, np.int64)[row_warp]
    if len(order) and row_sm[order].min() < 0:
        raise ValueError("timed L1: a memory row's warp was not run on any SM")
    heap_lines = np.asarray(heap_lines, np.int64)
    shape = (num_sms, sets, ways)
    _walk(order, np.asarray(row_pc, np.int64), row_sm, np.asarray(policy, np.int64),
          ld_off, ld_line, ld_info, _l1_places(ld_line, heap_lines, sets), st_off, st_line, st_info,
          _l1_places(st_line, heap_lines, sets),
          np.full(shape, -1, np.int64), np.zeros(shape, np.uint8), np.zeros(shape, np.int64),
          np.full(shape, -1, np.int64), int(rule), f_hit, t_hit, ld_miss)
    return L1Counts(f_hit, t_hit, ld_miss)

