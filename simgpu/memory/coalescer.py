"""Global/local memory coalescer: warp requests -> 32-byte sectors and 128-byte lines.

ncu semantics (Nsight Compute Kernel Profiling Guide, "Memory" terms, Volta and newer): a global or
local memory instruction executed by a warp sends *one request* to L1TEX; the request accesses the
distinct aligned 32-byte sectors that its active lanes touch, grouped in 128-byte cache lines (tags).
A lane accessing ``size`` bytes at ``addr`` touches every sector in [addr, addr + size).
Inactive lanes touch nothing; a warp with no active lane makes no request (ncu does not count a
fully predicated-off instruction at all).

Everything is vectorised over the k warps of a call: per-row sort of the (k, 2*32) candidate
sector numbers, then first-occurrence marks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SECTOR_SHIFT = 5  # 32-byte sectors
LINE_SHIFT = 7  # 128-byte lines
_SENTINEL = np.iinfo(np.int64).max


@dataclass
class Coalesced:
    """Result of coalescing k warp accesses.

    requests: int64[k], 1 for a warp with an active lane else 0
    sectors:  int64[k], distinct sectors per warp
    lines:    int64[k], distinct 128-byte lines per warp
    g_warp, g_line, g_mask: one entry per (warp, line) touched, warps in call order and lines
        ascending inside a warp; g_mask is the 4-bit mask of the line's sectors touched.
    sector_warp, sector_id: every (warp, sector) pair, same order (for pictures).
    """

    requests: np.ndarray
    sectors: np.ndarray
    lines: np.ndarray
    g_warp: np.ndarray
    g_line: np.ndarray
    g_mask: np.ndarray
    sector_warp: np.ndarray
    sector_id: np.ndarray


def coalesce(addr: np.ndarray, mask: np.ndarray, size: int) -> Coalesced:
    """Coalesce k warp accesses: addr uint64/int64[k, 32], mask bool[k, 32], size bytes per lane."""
    addr = np.asarray(addr)
    mask = np.asarray(mask, dtype=bool)
    if addr.ndim == 1:
        addr, mask = addr[None, :], mask[None, :]
    if size not in (1, 2, 4, 8, 16, 32):
        raise ValueError(f"access size must be 1, 2, 4, 8, 16 or 32 bytes, got {size}")
    k, lanes = addr.shape
    a = addr.astype(np.int64)
    s_first = a >> SECTOR_SHIFT
    s_last = (a + (size - 1)) >> SECTOR_SHIFT  # a lane's access spans at most 2 sectors (size <= 32)
    cand = np.concatenate([np.where(mask, s_first, _SENTINEL), np.where(mask, s_last, _SENTINEL)], axis=1)
    cand.sort(axis=1)
    first = np.empty(cand.shape, dtype=bool)
    first[:, 0] = True
    first[:, 1:] = cand[:, 1:] != cand[:, :-1]
    first &= cand != _SENTINEL
    sectors = first.sum(axis=1).astype(np.int64)
    rows, cols = np.nonzero(first)  # row-major: warps in order, sectors ascending
    sec = cand[rows, cols]
    line = sec >> (LINE_SHIFT - SECTOR_SHIFT)
    bit = (np.int64(1) << (sec & 3)).astype(np.uint8)
    n = sec.size
    if n:
        new = np.empty(n, dtype=bool)
        new[0] = True
        new[1:] = (line[1:] != line[:-1]) | (rows[1:] != rows[:-1])
        starts = np.flatnonzero(new)
        g_mask = np.bitwise_or.reduceat(bit, starts)
        g_warp = rows[starts].astype(np.int64)
        g_line = line[starts]
        lines = np.bincount(g_warp, minlength=k).astype(np.int64)
    else:
        g_mask = np.zeros(0, np.uint8)
        g_warp = np.zeros(0, np.int64)
        g_line = np.zeros(0, np.int64)
        lines = np.zeros(k, np.int64)
    return Coalesced(
        requests=mask.any(axis=1).astype(np.int64),
        sectors=sectors,
        lines=lines,
        g_warp=g_warp,
        g_line=g_line,
        g_mask=g_mask,
        sector_warp=rows.astype(np.int64),
        sector_id=sec,
    )


def coalesce_reference(addr, mask, size: int) -> tuple[list[int], list[int], list[list[int]]]:
    """Per-lane brute-force reference: (sectors per warp, lines per warp, sorted sector lists)."""
    n_sec, n_lines, lists = [], [], []
    for a_row, m_row in zip(np.asarray(addr).tolist(), np.asarray(mask).tolist(), strict=True):
        secs = set()
        for a, m in zip(a_row, m_row, strict=True):
            if m:
                for byte in range(int(a), int(a) + size):
                    secs.add(byte // 32)
        n_sec.append(len(secs))
        n_lines.append(len({s // 4 for s in secs}))
        lists.append(sorted(secs))
    return n_sec, n_lines, lists


# ---------------------------------------------------------------------------------------------
# numba fast path (same result as coalesce(); used by MemorySystem). Plain loops over lanes.

from numba import njit  # noqa: E402

from simgpu.memory.banks import warp_wavefronts_nb  # noqa: E402


@njit(cache=True)
def coalesce_nb(addr, mask, size, sectors, lines, g_warp, g_line, g_mask):
    """Loop version of coalesce(): fills per-warp ``sectors``/``lines`` and the (warp, line, mask)
    groups; returns the number of groups. addr int64[k, L], mask bool[k, L]; g_* hold >= 2*k*L."""
    k, L = addr.shape
    buf = np.empty(2 * L, dtype=np.int64)
    ng = 0
    for w in range(k):
        n = 0
        for l in range(L):
            if mask[w, l]:
                a = addr[w, l]
                s0 = a >> 5
                s1 = (a + size - 1) >> 5
                # insertion keeps buf sorted; typical warps are nearly sorted, so this is ~O(n)
                for s in (s0, s1):
                    j = n
                    while j > 0 and buf[j - 1] > s:
                        buf[j] = buf[j - 1]
                        j -= 1
                    buf[j] = s
                    n += 1
                    if s1 == s0:
                        break
        nsec = 0
        nlines = 0
        prev = np.int64(-1)
        prev_line = np.int64(-1)
        for i in range(n):
            s = buf[i]
            if i > 0 and s == prev:
                continue
            prev = s
            nsec += 1
            ln = s >> 2
            if nlines == 0 or ln != prev_line:
                g_warp[ng] = w
                g_line[ng] = ln
                g_mask[ng] = np.uint8(1 << (s & 3))
                ng += 1
                nlines += 1
                prev_line = ln
            else:
                g_mask[ng - 1] = g_mask[ng - 1] | np.uint8(1 << (s & 3))
        sectors[w] = nsec
        lines[w] = nlines
    return ng


# L1TEX throughput of one global/local load request (benchmarks/microbench/l1_pending_hits, H200,
# 2026-12-04: 8-32 warps an SM, L1-resident lines, ncu's l1tex__data_pipe_lsu_wavefronts_mem_lgds and
# l1tex__t_output_wavefronts beside clock64). Two stages, the slower sets the pace:
# * the data stage reads the lanes' words out of the L1's 32 banks of 4 bytes like shared memory
#   (bank = word % 32, one distinct word a bank a wavefront, lanes on one word share it; 8- and 16-byte
#   accesses in half- and quarter-warp phases): 32 lanes 128 B apart all read one bank, 32 cycles a
#   load; 132 B apart, 32 banks, one wavefront. ncu counts these as l1tex__data_bank_conflicts_pipe_lsu_
#   mem_gds_op_ld. This is what slows a thread walking its own 128-byte chunk (typical16: 35 cycles a
#   load on the H200; 10.5 and 15 with rows 132 and 160 bytes apart);
# * the tag stage takes 4 lines a cycle (ncu: t_output_wavefronts = lines / 4): 32 lines in 32 banks,
#   8.7 cycles.
# max(data wavefronts, ceil(lines / 4)) gave 4 / 8 / 16 / 32 / 8 / 8 / 8 / 8 / 8 / 16 / 3 cycles where
# the H200 took 4.02 / 8.02 / 16.02 / 32.01 / 8.66 / 8.86 / 8.72 / 8.02 / 8.02 / 16.02 / 2.89
# (results/probe_cycles.jsonl). Loads of 1-2 lines measured 2.06 there, the probe's own address
# arithmetic (a 64-bit add a load) on the schedulers, not the L1: typical7's fir32_const (32
# coalesced loads off one base register) ran 1.62 cycles a load in all. (benchmarks/microbench/
# l1_lines' 2 lines a cycle, used before, was half of the true cost: its loads were merged.)
L1_TAG_LINES_PER_CYCLE = 4
L1_MIN_CYCLES_PER_LOAD = 1


@njit(cache=True, inline="always")
def load_wavefronts(addr, mask, size, lines, words, cnt):
    """L1TEX cycles of one warp's load request: addr[32] (int64 byte addresses), mask[32] its active
    lanes, size bytes a lane, lines its 128-byte lines; words (64) and cnt (32) are scratch. The data
    stage's bank wavefronts or the tag stage's lines, whichever is more (at least 1)."""
    data, _ = warp_wavefronts_nb(addr, mask, np.int64(0), size, False, words, cnt)
    tags = (lines + L1_TAG_LINES_PER_CYCLE - 1) // L1_TAG_LINES_PER_CYCLE
    w = data if data > tags else tags
    return w if w > L1_MIN_CYCLES_PER_LOAD else L1_MIN_CYCLES_PER_LOAD


# A global store's cost on its CTA's write path to L2 (benchmarks/microbench/l2_writes, H200,
# 2026-11-30): one CTA storing, with 4 to 32 warps, takes 4.0 cycles per warp store of one whole line
# (4 sectors), 7.3 / 16.0 for 2 / 4 lines of 4 sectors, 40 for 8 lines of 4 and 63 for 32 lines of 1
# sector; 2 and 4 CTAs on one SM store 2x and 4x as fast (stores2.py), so the limit is the CTA's,
# not the SM's or the warp's: a sector a cycle, and a line at least two cycles.
STORE_SECTORS_PER_CYCLE_PER_CTA = 1
STORE_CYCLES_PER_LINE = 2


@njit(cache=True, inline="always")
def store_write_cycles(sectors, lines):
    """Cycles one warp's global store holds its CTA's write path: a sector a cycle, a line at least
    STORE_CYCLES_PER_LINE (whichever is more)."""
    per_sector = sectors // STORE_SECTORS_PER_CYCLE_PER_CTA
    per_line = lines * STORE_CYCLES_PER_LINE
    return per_sector if per_sector > per_line else per_line


def store_write_cycles_of(sectors: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """store_write_cycles per warp, int64."""
    sectors = np.asarray(sectors, np.int64)
    return np.maximum(sectors // STORE_SECTORS_PER_CYCLE_PER_CTA, np.asarray(lines, np.int64) * STORE_CYCLES_PER_LINE)


@njit(cache=True)
def _load_wavefronts_rows(addr, mask, size, lines, out):
    words = np.empty(64, np.int64)
    cnt = np.zeros(32, np.int64)
    for w in range(addr.shape[0]):
        out[w] = load_wavefronts(addr[w], mask[w], size, lines[w], words, cnt)
    return out


def load_wavefronts_of(addr: np.ndarray, mask: np.ndarray, size: int, lines: np.ndarray) -> np.ndarray:
    """load_wavefronts per warp (rows of the addresses and active-lane mask), int64."""
    addr = np.asarray(addr).astype(np.int64)
    mask = np.asarray(mask, np.bool_)
    return _load_wavefronts_rows(addr, mask, np.int64(size), np.asarray(lines, np.int64),
                                 np.empty(addr.shape[0], np.int64))
