"""Near and far L2 hits: which partition holds a line, and which lines an SM's side already copied.

The H200's L2 is two partitions; an SM reaches its own side's partition faster. Measured
(benchmarks/microbench/l2_partition, memory/topology.py):

* a line's home partition is the parity of byte-address bits 12, 13, 15, 17 and 19, XOR a constant
  per 2 MB page (physical bits simgpu does not know). simgpu applies it to a line's offset in its
  allocation, as if every allocation began a 2 MB page (the page constant: the parity of the page
  number in the allocation), so a launch's timing does not depend on where earlier allocations
  put its arrays;
* GPCs 1, 2, 3 and 7 form one side, the other GPCs (and SMs 124-131) the other;
* an SM's first load of a line homed on the other side is far (474 cycles in that run, config
  lat_l2_far), every later load of it from that side is near (273 cycles for all 132 SMs x 8,192
  lines, repeated ld.cg): the near partition keeps a copy (a load of the line from that side while
  the far trip that brings it is on its way waits for it). A line fetched from DRAM comes through
  its home partition (the H200's HBM latencies are bimodal: 537 / 767 cycles) and is then on both.

So where the functional walk recorded a global load's L1 misses (line, sectors, L2 hit or DRAM),
the replay gives the load, at its issue, the latency of its slowest line: an L2 hit is near when
the line is homed on the SM's side or that side already loaded it (in issue order: whoever is
ahead pays the far trip, the others wait for the copy it brings), else far; a hit on a line still on its way from
DRAM waits for it; a DRAM fetch is near or far by the home. Copies are never evicted here (the far
side's copies share the 60 MB; kernels that stream more than that through L2 are charged near
where the H200 may go far).

The copies stay with the L2's contents: a launch with warm caches finds the copies the launches
before it left (`side_copies_before` / `side_copies_after`, kept by the memory system), so a kernel
run again reads its lines near: a warm column walk, one load a trip, took 308 cycles a trip on the
H200 (benchmarks/microbench/loads_in_flight sweep, 8 SMs) and 301-308 on an H100 from 1 to 132 SMs
at any row pitch (benchmarks/microbench/gpc_inflight), where simgpu gave 403 (the mean of near and
far) before the copies were kept; 285 now. A cold launch starts without them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgpu.memory.l2 import home_partition, popcount4


def side_copies_before(line_of: np.ndarray, copies: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
    """The replay's copy_at at a launch's start: per line (line_of: its line number) and side, 0
    where `copies` (sorted line numbers, a bit per side) says that side holds a copy, else -1."""
    at = np.full((len(line_of), 2), -1, np.int64)
    if copies is None or not len(copies[0]) or not len(line_of):
        return at
    lines, mask = copies
    i = np.minimum(np.searchsorted(lines, line_of), len(lines) - 1)
    m = np.where(lines[i] == line_of, mask[i], 0)
    for s in range(2):
        at[(m >> s) & 1 == 1, s] = 0
    return at


def side_copies_after(line_of: np.ndarray, copy_at: np.ndarray,
                      copies: tuple[np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, np.ndarray]:
    """`copies` with the copies the replay made (copy_at >= 0) added: what the next warm launch finds."""
    mine = ((copy_at[:, 0] >= 0) * 1 + (copy_at[:, 1] >= 0) * 2).astype(np.int8)
    keep = mine > 0
    lines, mask = np.asarray(line_of, np.int64)[keep], mine[keep]
    if copies is not None and len(copies[0]):
        lines, mask = np.concatenate([copies[0], lines]), np.concatenate([copies[1], mask])
    order = np.argsort(lines, kind="stable")
    lines, mask = lines[order], mask[order]
    uniq, start = np.unique(lines, return_index=True)
    return uniq, np.bitwise_or.reduceat(mask, start).astype(np.int8) if len(uniq) else mask


def gpc_line_offsets(lines: np.ndarray, n_groups: int, table) -> np.ndarray:
    """Per line (allocation-relative line numbers) and GPC, its extra L2 latency: a value of `table`
    (the measured distribution, config l2_gpc_line_latency) picked by a hash of (line, GPC), so it
    is the same for every launch that reads the line from that GPC. int16 [lines, n_groups]."""
    lines = np.asarray(lines, np.uint64)
    tab = np.asarray(table, np.int16)
    g = np.arange(n_groups, dtype=np.uint64)
    x = (lines[:, None] * np.uint64(64) + g[None, :] + np.uint64(0x9E3779B97F4A7C15))
    with np.errstate(over="ignore"):  # splitmix64
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        x = x ^ (x >> np.uint64(31))
    return tab[(x % np.uint64(len(tab))).astype(np.int64)]


def group_homes(g_line: np.ndarray) -> np.ndarray:
    """Per L1-miss group: its line's home partition (int8, for line_latency)."""
    return _homes(np.asarray(g_line, np.int64))


@njit(cache=True)
def _homes(g_line):
    out = np.empty(g_line.shape[0], np.int8)
    for i in range(g_line.shape[0]):
        out[i] = home_partition(g_line[i])
    return out


@njit(cache=True, inline="always")
def line_latency(li, home, need, t, side, copy_at, back, dram_left, l2_near, l2_far, dram_near, dram_far,
                 fetch_sectors=-1, dram_per_sector=0):
    """The latency of one L1-miss line (index li, home partition `home`, missed sectors `need`) of a
    global load issued at cycle t from an SM of `side`, by the rules of the module docstring.
    dram_left[line]: the sectors the launch reads from DRAM that no request has asked for yet (the
    first request in time fetches them, whichever warp the functional walk had fetch them);
    copy_at[line, s]: when side s holds a copy (-1: not yet); back[line]: when its DRAM fetch is
    back. A DRAM fetch is near or far by the home and leaves the line on both sides. An L2 hit is
    near if the line is homed on this side, or the side holds a copy, at the earliest when that copy
    arrives; else far, and the side holds a copy from then on. A hit on a line whose DRAM fetch is
    still on its way waits for it. fetch_sectors >= 0: the sectors this group fetches from DRAM are
    given (the functional walk's), instead of decided in time. A fetch of several sectors takes
    dram_per_sector cycles more for each sector past the first."""
    fetch = need & dram_left[li] if fetch_sectors < 0 else fetch_sectors
    if fetch:
        dram_left[li] &= ~fetch
        v = (dram_near if home == side else dram_far) + dram_per_sector * (popcount4(fetch) - 1)
        if t + v > back[li]:
            back[li] = t + v
        for s in range(2):
            if copy_at[li, s] < 0 or copy_at[li, s] > t + v:
                copy_at[li, s] = t + v
        return v
    if home == side:
        v = l2_near
    elif copy_at[li, side] >= 0:
        v = l2_near
        if copy_at[li, side] - t > v:  # the copy is still on its way
            v = copy_at[li, side] - t
    else:
        v = l2_far
        copy_at[li, side] = t + v
    if back[li] - t > v:
        v = back[li] - t
    return v
