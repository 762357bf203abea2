"""Global stores that meet on their CTA's write path: their sectors reach L2 once, decided in time.

What the H200 does (benchmarks/microbench/l1_stores: stores.cu, windows.cu, burst.cu, README):
* two stores to one line or sector 15 cycles apart or more never combine: both reach L2, and the
  second hits in L1 (windows.cu, every gap from 15 to 2,150 cycles, line resident or not);
* a store right behind another to the same single line joins it: one warp's `st [L]; st [L+4]`
  back to back counts the second as an L1 hit and writes the sector to L2 once; eight warps of a
  CTA storing one word each into one sector reach L2 once with one CTA per SM, 2.5 times with
  eight (burst.cu back_to_back N = 0, together);
* one store between them stops that (back_to_back N = 1: `st [L]; st [X]; st [L]` writes three).

The rule simgpu takes from that, on the write path the replay already keeps per CTA (config
cta_store_queue_cycles; a store holds it for memory/coalescer.store_write_cycles): a store to a
single line that reaches L1 while a single-line store of the same CTA to that line is still on the
path (queued or being written) joins it: its sectors count as L1 hits, the sectors that store writes
already are not written to L2 again, and it takes no L2 bandwidth or line-unit passes of its own
(nor, before 2026-12-07, path cycles: since, it takes config store_join_path_share, 1, of the path
cycles it would take alone, as benchmarks/microbench/fences' repeated stores showed). Since
2026-12-01 the same holds for a store of up to config store_join_max_lines (16)
lines whose every line has a store of the CTA still on the path (l1_stores multiline.cu: the H200
writes back-to-back stores to the same 2-16 lines once per sector); stores of more lines keep the
functional walk's answer (memory/l1.py: one warp's stores to its own 32 rows back to back all miss
on the H200 and are all written, a rule about the previous request, not about time); so do stores
that join nothing. The functional walk counted every store's sectors as
L2 writes; the replay reports, per pc, the sectors merged away and the hits it found
(`StoreCounts`), and the memory system swaps its counts for those (MemorySystem.apply_timed_stores).

The H200 also counts a store as an L1 miss when its line's store is one store request back
(`st [L]; st [X]; st [L]` back to back: the last misses even with L resident, burst.cu N = 1; with
two stores between it hits, and 15 cycles or more after a store to its line a store always hits,
windows.cu). store_two_back keeps per SM the lines of its last two store requests and when they
reached L1 and takes back the hits of a single-line store whose line the one before last wrote
less than config store_two_back_cycles (15) earlier. Over the 255 recorded launches (2026-12-06)
it moved the store hits of 15 launches, 14 nearer the H200's; half_warp_masks, resize_nearest_u8
and fp8_quantize_rows came within 3 points of the L1 hit rate. Without the window (any two-back
store) the gemv kernels' one store a warp lost far too many (topk8_rows 53,489 against 61,674).
Not modelled: the rest of what makes close stores miss (short_axpy 16,350 hits against 12,260,
block_compact 15,930 against 11,384, warp_sum_redux 7,211 against 5,826). A broader rule "a store
to a line being written misses" took add_partial_warps' hits from 2,048 to 154 (H200 1,770) and
warp_sum_redux's from 7,168 to 3,111 (H200 5,826): simgpu's warps run closer together than the
H200's, so it is left out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from simgpu.memory.l2 import popcount4

RING = 64  # recent (store, line) records kept per CTA slot: four 16-line stores
PENDING = 512  # per SM, lines whose L1 fill is on its way (direct-mapped by line: a newer one replaces)


@dataclass(frozen=True)
class StoreCounts:
    """Per pc: global-store sectors the functional walk counted as L1 hits, the hits counted once
    the joined stores are hits, and L2 write sectors merged into an earlier store (int64 [n_pc])."""

    functional_hits: np.ndarray
    timed_hits: np.ndarray
    merged_sectors: np.ndarray

    def hit_delta(self) -> np.ndarray:
        return self.timed_hits - self.functional_hits


def store_rings(n_slots: int, on: bool, max_lines: int = 1, join_path_share: float = 0.0) -> tuple:
    """The sequencer's state: per CTA slot a ring of RING (line, sectors written, when it leaves the
    path) records of the stores of at most max_lines lines, the ring heads, max_lines, a scratch
    row (store_arrives: the record each line of a store joins) and the share of its path cycles a
    joined store still takes (config store_join_path_share)."""
    n = n_slots if on else 1
    return (np.full((n, RING), -1, np.int64), np.zeros((n, RING), np.int64), np.zeros((n, RING), np.float64),
            np.zeros(n, np.int64), np.int64(max(1, min(max_lines, RING))), np.zeros(RING, np.int64),
            np.float64(join_path_share))


@njit(cache=True)
def store_arrives(st_off, st_line, st_info, row, g, t1, ring, pc, f_hit, t_hit, merged):
    """Store `row` (its (line, info) records st_line / st_info[st_off[row]:st_off[row + 1]], info as
    memory.l1.hierarchy_batch's g_info) of CTA slot g reaches L1 at t1: count its functional and
    timed hits per pc. True if it joined: at most max_lines lines, each with a store of the same
    CTA still on the path (then it sends no L2 write; the replay charges it
    store_join_path_share of its path cycles)."""
    r_line, r_mask, r_end, head, max_lines, best, _ = ring
    a = st_off[row]
    b = st_off[row + 1]
    f = 0
    for j in range(a, b):
        info = np.int64(st_info[j])
        if (info >> 5) & 1:
            f += popcount4(info & 15)
    f_hit[pc] += f
    if 1 <= b - a <= max_lines:
        found = True
        for j in range(a, b):  # every line must have one
            best[j - a] = _latest_on_path(r_line, r_end, g, st_line[j], t1)
            if best[j - a] < 0:
                found = False
                break
        if found:
            for j in range(a, b):
                r = best[j - a]
                m = np.int64(st_info[j]) & 15
                t_hit[pc] += popcount4(m)
                merged[pc] += popcount4(m & r_mask[g, r])
                r_mask[g, r] |= m
            return True
    t_hit[pc] += f
    return False


@njit(cache=True, inline="always")
def _latest_on_path(r_line, r_end, g, line, t1):
    """The ring record of CTA slot g's latest store to `line` still on the path at t1 (-1: none)."""
    best = -1
    for r in range(RING):
        if r_line[g, r] == line and r_end[g, r] > t1 and (best < 0 or r_end[g, r] > r_end[g, best]):
            best = r
    return best


@njit(cache=True)
def store_leaves(st_off, st_line, st_info, row, g, end, ring):
    """Record store `row` on CTA slot g's path until `end`, a record per line, if it has at most
    max_lines lines."""
    r_line, r_mask, r_end, head, max_lines, _, _ = ring
    a = st_off[row]
    b = st_off[row + 1]
    if not 1 <= b - a <= max_lines:
        return
    for j in range(a, b):
        r = head[g] % RING
        head[g] += 1
        r_line[g, r] = st_line[j]
        r_mask[g, r] = np.int64(st_info[j]) & 15
        r_end[g, r] = end


def pending_fills(n_sms: int, on: bool, miss_lines: np.ndarray, miss_sectors: np.ndarray) -> tuple:
    """The state of the pending-fill rule: on, the global loads' L1-miss lines in the replay's group
    order (absolute line numbers) and the sectors each misses, and per SM a table of lines whose fill
    is on its way (line; per sector when its data is back and the warp that asked for it)."""
    n = n_sms if on else 1
    return (bool(on), np.ascontiguousarray(miss_lines, np.int64), np.ascontiguousarray(miss_sectors, np.int64) & 15,
            np.full((n, PENDING), -1, np.int64), np.zeros((n, PENDING, 4), np.int64),
            np.full((n, PENDING, 4), -1, np.int64))


def store_history(n_sms: int, window: int) -> tuple:
    """The state of the two-back rule (store_two_back; window in cycles, 0: off): per SM the lines
    of its last two store requests (-1 none, -2 a store of several lines) and when they reached L1
    (an empty table when off), and the window."""
    return np.full((n_sms if window > 0 else 0, 4), -1, np.int64), np.int64(window)


@njit(cache=True, inline="always")
def _pending_slot(line):
    return (line ^ (line >> 9) ^ (line >> 18)) & (PENDING - 1)


@njit(cache=True)
def fills_requested(pend, sm, g0, g1, ready, warp):
    """A global load of warp `warp` on SM sm whose L1-miss groups are g0..g1 - 1 has its data back at
    `ready`: their sectors are pending on the SM until then."""
    on, g_line, g_sec, p_line, p_t, p_w = pend
    if not on:
        return
    for g in range(g0, g1):
        line = g_line[g]
        h = _pending_slot(line)
        if p_line[sm, h] != line:
            p_line[sm, h] = line
            for b in range(4):
                p_t[sm, h, b] = 0
                p_w[sm, h, b] = -1
        for b in range(4):
            if (g_sec[g] >> b) & 1 and p_t[sm, h, b] < ready:
                p_t[sm, h, b] = ready
                p_w[sm, h, b] = warp


@njit(cache=True)
def store_hits_lost(pend, sm, st_off, st_line, st_info, row, t, warp):
    """The L1 hit sectors the functional walk gave store `row` of warp `warp` on SM sm (reaching L1
    at t) that the H200 counts as misses, on lines with a fill still on its way
    (benchmarks/microbench/l1_pending): a store into sectors a load has asked for but not yet
    received misses (pending.cu), and so does a store into sectors that are there while another
    warp's fill of other sectors of the line is on its way (sectors.cu mode 4); the warp's own
    fill of other sectors does not make it miss (sectors.cu modes 1 and 3)."""
    on, _, _, p_line, p_t, p_w = pend
    if not on:
        return 0
    lost = 0
    for j in range(st_off[row], st_off[row + 1]):
        info = np.int64(st_info[j])
        if (info >> 5) & 1:
            line = st_line[j]
            h = _pending_slot(line)
            if p_line[sm, h] != line:
                continue
            m = info & 15
            for b in range(4):
                if p_t[sm, h, b] > t and ((m >> b) & 1 or p_w[sm, h, b] != warp):
                    lost += popcount4(m)
                    break
    return lost


@njit(cache=True)
def store_two_back(hist, sm, st_off, st_line, st_info, row, joined, t1):
    """The L1 hit sectors the functional walk gave store `row` of SM sm (reaching L1 at t1) that
    the H200 counts as misses: a single-line store whose line the SM's store request before last
    wrote less than the window (store_history) ago, with another line's store between
    them (benchmarks/microbench/l1_stores: burst.cu, one store between, back to back, and it misses
    even with its line resident; none between, it joins; two, an ordinary hit; windows.cu, 15
    cycles or more after a store to its line a store always hits). Records the store as the SM's
    last."""
    prev, window = hist
    if prev.shape[0] == 0:
        return 0
    a = st_off[row]
    b = st_off[row + 1]
    line = st_line[a] if b - a == 1 else np.int64(-2)
    t = np.int64(t1)
    lost = 0
    if (not joined and line >= 0 and prev[sm, 1] == line and prev[sm, 0] != line
            and t - prev[sm, 3] < window):
        info = np.int64(st_info[a])
        if (info >> 5) & 1:
            lost = popcount4(info & 15)
    prev[sm, 1] = prev[sm, 0]
    prev[sm, 3] = prev[sm, 2]
    prev[sm, 0] = line
    prev[sm, 2] = t
    return lost
