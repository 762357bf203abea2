"""What a warp's global atomic, or a store that writes part of a sector, asks of the L2's per-line
units: per line it touches, how many passes.

Measured on the H200 (benchmarks/microbench/l2_atomics, histogram_global's kernel with 1 ... 65,536
bins; h200_measurements atomic_global_*), a unit updates one sector a pass, a pass every 0.745 ns
(1 / atomic_global_same_address_ptx_red_per_ns), and lanes on one word take a pass each: 32 lanes on
one word 32 passes (1.34 atomics per ns), on 2 / 8 words of one sector ~19 / ~7 (H200 2.38 / 6.12 per
ns; this rule 2.3 / 6.1), hashed onto one line's 32 words (4 sectors of ~2.6 passes) ~10.4 (H200
4.44 per ns, this rule 4.1), 32 distinct words of a line 4 passes. Stores that leave part of a
sector unwritten ran at the units' rate too (benchmarks/microbench/l2_writes partial.py: one word
per line onto many lines 65.9-67.1 per ns, the units 65.8; whole lines ~2x faster), a pass per line
(8 lines of 4 one-word sectors per warp store, st_small on 132 SMs, ran 15.8 lines a cycle, under
the units' 33; a pass per sector would allow 8). The timing replay queues every warp's request to a
line on that line's unit (timing/config.py l2_line_units).
"""

from __future__ import annotations

import numpy as np
from numba import njit

LINE_BYTES = 128
SECTOR_BYTES = 32
_FULL = np.uint64(0xFFFFFFFF)


def atomic_line_groups(addr: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per (warp row, line) the row touches with an active lane, in row order: (row, line, sector
    passes: over the line's sectors, the most active lanes on one address of the sector); int64
    each. addr / mask: [warps, 32] byte addresses and active lanes."""
    addr = np.asarray(addr, np.int64)
    mask = np.asarray(mask, bool)
    rows, lanes = np.nonzero(mask)
    z = np.zeros(0, np.int64)
    if rows.size == 0:
        return z, z, z
    a = addr[rows, lanes]
    order = np.lexsort((a, rows))
    r, a = rows[order].astype(np.int64), a[order]

    def runs(*keys: np.ndarray) -> np.ndarray:
        """Starts of the runs of equal keys (sorted input)."""
        new = np.zeros(keys[0].size, bool)
        new[0] = True
        for k in keys:
            new[1:] |= k[1:] != k[:-1]
        return np.flatnonzero(new)

    starts = runs(r, a)  # per (row, address): its lanes
    mult = np.diff(np.append(starts, r.size))
    ur, ua = r[starts], a[starts]
    sec = runs(ur, ua // SECTOR_BYTES)  # per (row, sector): its busiest address
    passes = np.maximum.reduceat(mult, sec)
    sr, sa = ur[sec], ua[sec]
    grp = runs(sr, sa // LINE_BYTES)  # per (row, line): its sectors' passes
    return sr[grp], sa[grp] // LINE_BYTES, np.add.reduceat(passes, grp).astype(np.int64)


@njit(cache=True, inline="always")
def _sector_coverage(addr, mask, w, nbytes, secs, cov):
    """The sectors warp row w's active lanes write (secs, in the order of their first lane) and the
    bytes of each they write (cov: 32 bits a sector); returns how many. Accesses are aligned (nbytes
    1, 2, 4, 8 or 16 at a multiple of nbytes), so none crosses a sector."""
    ns = 0
    for lane in range(addr.shape[1]):
        if not mask[w, lane]:
            continue
        a = addr[w, lane]
        s = a >> 5
        bits = ((np.uint64(1) << np.uint64(nbytes)) - np.uint64(1)) << np.uint64(a & 31)
        k = 0
        while k < ns and secs[k] != s:
            k += 1
        if k == ns:
            secs[ns] = s
            cov[ns] = np.uint64(0)
            ns += 1
        cov[k] |= bits
    return ns


@njit(cache=True)
def partial_store_lines(addr, mask, nbytes, out_row, out_line):
    """The lines each warp row's store leaves partly written (some touched sector not written in all
    its 32 bytes), in row order and, within a row, in the order of their first lane; writes them to
    out_row / out_line (room for 2 per lane) and returns how many."""
    n = 0
    secs = np.empty(64, np.int64)
    cov = np.empty(64, np.uint64)
    for w in range(addr.shape[0]):
        ns = _sector_coverage(addr, mask, w, nbytes, secs, cov)
        first = n
        for k in range(ns):
            if cov[k] & _FULL == _FULL:
                continue
            line = secs[k] >> 2
            j = first
            while j < n and out_line[j] != line:
                j += 1
            if j == n:
                out_row[n] = w
                out_line[n] = line
                n += 1
    return n


@njit(cache=True)
def mark_partial_sectors(addr, mask, nbytes, g_warp, g_line, g_mask, n_groups):
    """For a store's (warp row, line) groups (coalescer.coalesce_nb's, in row order; g_mask uint16):
    set bit 4 + j of g_mask[i] where the row writes sector j of the line in fewer than its 32 bytes,
    and bit 8 + j too where it writes some 4-byte word of it in part. The L2 fills such sectors from
    DRAM (memory/l2.py, benchmarks/microbench/l2_fill)."""
    secs = np.empty(64, np.int64)
    cov = np.empty(64, np.uint64)
    row = np.int64(-1)
    ns = 0
    for i in range(n_groups):
        if g_warp[i] != row:
            row = g_warp[i]
            ns = _sector_coverage(addr, mask, row, nbytes, secs, cov)
        m = np.int64(g_mask[i]) & 15
        part = np.int64(0)
        sub = np.int64(0)
        for k in range(ns):
            if secs[k] >> 2 != g_line[i] or not (m >> (secs[k] & 3)) & 1 or cov[k] & _FULL == _FULL:
                continue
            bit = np.int64(1) << (secs[k] & 3)
            part |= bit
            for word in range(8):
                nib = (cov[k] >> np.uint64(4 * word)) & np.uint64(15)
                if nib != 0 and nib != 15:
                    sub |= bit
        g_mask[i] = m | (part << 4) | (sub << 8)


def partial_store_groups(addr: np.ndarray, mask: np.ndarray, nbytes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """partial_store_lines as (row, line, passes = 1) arrays, int64 each."""
    addr = np.ascontiguousarray(addr, np.int64)
    mask = np.ascontiguousarray(mask, np.bool_)
    cap = 2 * addr.size
    row, line = np.empty(cap, np.int64), np.empty(cap, np.int64)
    n = partial_store_lines(addr, mask, int(nbytes), row, line)
    return row[:n].copy(), line[:n].copy(), np.ones(n, np.int64)
