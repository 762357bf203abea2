"""The streams a second replay needs once the L1 walk has found other hits (l1_order.py).

The replay's loads take their latencies, L2 sectors and DRAM sectors from the functional engines'
L1 (prepare.py), whose warps go through it in step. The walk after the replay (in runs, on the
replay's SMs) can find a very different L1: validation/typical15 thread_chunk_sum (each thread
sums its own 128 B) hits 0 % in step and 74.7 % in runs (H200 79.5 %), and its kernel time stayed
the one of the L1 that hit nothing (+72 %). Where the walk moved at least config
l1_walk_retime_min_share (on by default) of the launch's global-load sectors between hit and
miss, model.py replays the launch once more on the streams built here, and the times come from
that replay; the counters stay those of the first replay and the walk (the walk's own hits, its L2
lookups moved with them by MemorySystem.apply_timed_l1), so that the two never answer the counters
twice.

Per (warp, line) group of a global load: the sectors the walk missed replace the functional misses
(memory.l1.hierarchy_batch's g_info bits 0-3). A sector that hit in step and misses in the walk is
sent to L2 and hits there (this SM's L1 held it a moment before in the functional order, and
the launch's L2 holds what its L1s held); one that missed in step and hits in the walk takes its
L2 traffic with it and hands its DRAM fetch to the first group, in stream order, that still misses
that sector (so the launch reads as much from DRAM as before: validation/typical5 stencil3_double,
whose three loads share sectors between neighbouring warps, ran -40 % with the fetches dropped).
A row whose misses or DRAM fetches changed gets the latency of where its slowest sector now is (an
L1 hit, or prepare.py's L2 / DRAM expectation over its missed lines), its misses as L2 sectors, and
its DRAM sectors in the share of its DRAM misses left (a row that fetches only now: its sectors at
the launch's own scale). The L1-miss groups (Streams.miss_*: near/far sides, in-time merging,
pending fills) are the walk's.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from simgpu.timing.config import TimingConfig
from simgpu.timing.prepare import Streams, dram_latency, l2_latency

_POPCOUNT4 = np.array([bin(i).count("1") for i in range(16)], np.int64)


def _row_of_groups(sr: Streams) -> np.ndarray:
    """Each load group's row (Streams.load_off's slices)."""
    return np.repeat(np.arange(len(sr.load_off) - 1, dtype=np.int64), np.diff(sr.load_off))


def changed_share(sr: Streams, load_misses: np.ndarray) -> float:
    """The share of the launch's global-load sectors whose L1 hit or miss the walk changed."""
    if sr.load_info is None or not len(sr.load_info):
        return 0.0
    info = np.asarray(sr.load_info, np.int64)
    asked = (info >> 12) & 15
    moved = ((info & 15) ^ np.asarray(load_misses, np.int64)) & asked
    total = int(_POPCOUNT4[asked].sum())
    return float(_POPCOUNT4[moved].sum()) / total if total else 0.0


def _dram_fetches_follow(line: np.ndarray, lost: np.ndarray, l2_hits: np.ndarray) -> np.ndarray:
    """The groups' L2-hit masks once each DRAM fetch the walk took from a group (`lost`: sectors it
    fetched in step and hits in the walk) goes to the first groups, in stream order, that still miss
    that sector of that line and were taken for L2 hits (`l2_hits`): the launch reads a sector from
    DRAM as often in the walk as in step, only another load of it does."""
    bits = np.arange(4, dtype=np.int64)
    g_lost, b_lost = np.nonzero((lost[:, None] >> bits) & 1)
    if not len(g_lost):
        return l2_hits
    g_cand, b_cand = np.nonzero((l2_hits[:, None] >> bits) & 1)  # in group order
    key_lost = line[g_lost] * 4 + b_lost
    key_cand = line[g_cand] * 4 + b_cand
    order = np.argsort(key_cand, kind="stable")  # by sector, then group order
    key_sorted = key_cand[order]
    keys, n_lost = np.unique(key_lost, return_counts=True)
    first = np.searchsorted(key_sorted, keys, side="left")
    n_cand = np.searchsorted(key_sorted, keys, side="right") - first
    take = np.minimum(n_lost, n_cand)
    pick = np.repeat(first, take) + (np.arange(take.sum()) - np.repeat(np.cumsum(take) - take, take))
    out = l2_hits.copy()
    np.bitwise_and.at(out, g_cand[order[pick]], ~(np.int64(1) << b_cand[order[pick]]))
    return out


def walked_streams(sr: Streams, load_misses: np.ndarray, cfg: TimingConfig) -> Streams:
    """A copy of `sr` whose global-load rows and L1-miss groups follow the walk's misses
    (load_misses: per load group, Streams.load_*'s order, the 4-bit mask it missed); module
    docstring."""
    info = np.asarray(sr.load_info, np.int64)
    asked = (info >> 12) & 15
    old_miss = info & 15
    sent = (info >> 4) & 15
    l2_hit = (info >> 8) & 15
    new_miss = np.asarray(load_misses, np.int64) & asked
    fresh = new_miss & ~old_miss & 15  # missed only in the walk: sent to L2, a hit there
    new_sent = (sent & new_miss) | fresh
    new_l2_hit = (l2_hit & new_miss) | fresh
    line = np.asarray(sr.load_line, np.int64)
    new_l2_hit = _dram_fetches_follow(line, old_miss & ~l2_hit & ~new_miss & 15, new_l2_hit)
    new_info = (new_miss | (new_sent << 4) | (new_l2_hit << 8) | (asked << 12)).astype(np.uint16)

    n_rows = len(sr.rows)
    row = _row_of_groups(sr)

    def per_row(mask: np.ndarray) -> np.ndarray:
        return np.bincount(row, weights=_POPCOUNT4[mask], minlength=n_rows)[:n_rows]

    miss_before, miss_after = per_row(old_miss), per_row(new_miss)
    dram_before = per_row(old_miss & ~l2_hit & 15)
    dram_after = per_row(new_miss & ~new_l2_hit & 15)
    changed = np.flatnonzero((miss_before != miss_after) | (dram_before != dram_after))
    rows = sr.rows.copy()
    if len(changed):
        spw = float(cfg.sectors_per_wavefront)
        m = miss_after[changed]
        d = dram_after[changed]
        lat = np.where(m == 0, float(cfg.lat_l1_hit),
                       np.where(d > 0, dram_latency(np.ceil(np.maximum(d, 1) / spw), cfg),
                                l2_latency(np.ceil(np.maximum(m, 1) / spw), cfg)))
        d0 = dram_before[changed]
        share = np.divide(d, d0, out=np.zeros(len(changed)), where=d0 > 0)
        # a row that fetches from DRAM only now: its sectors at the launch's DRAM rows' own scale
        had = dram_before > 0
        scale = float(rows["dram"][had].sum() / dram_before[had].sum()) if had.any() else 1.0
        rows["lat"][changed] = np.rint(lat).astype(np.int32)
        rows["l2"][changed] = m
        rows["dram"][changed] = np.where(d0 > 0, rows["dram"][changed] * share, d * scale)

    keep = new_miss != 0
    miss_row = row[keep]
    miss_line = np.asarray(sr.load_line, np.int64)[keep]
    lines, line_idx = np.unique(miss_line, return_inverse=True)
    return dataclasses.replace(
        sr, rows=rows, miss_row=miss_row, miss_line=miss_line, miss_info=new_info[keep],
        miss_line_idx=line_idx.astype(np.int64), n_miss_lines=len(lines),
        miss_by_row=np.argsort(miss_row, kind="stable"))
