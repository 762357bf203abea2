"""What a warp's global atomic asks of the L2's atomic units: per line it touches, how many sector
passes (for each sector, the most lanes on one of its addresses, summed over the line's sectors).

Measured on the H200 (benchmarks/microbench/l2_atomics, histogram_global's kernel with 1 ... 65,536
bins; h200_measurements atomic_global_*), a unit updates one sector a pass, a pass every 0.745 ns
(1 / atomic_global_same_address_ptx_red_per_ns), and lanes on one word take a pass each: 32 lanes on
one word 32 passes (1.34 atomics per ns), on 2 / 8 words of one sector ~19 / ~7 (H200 2.38 / 6.12 per
ns; this rule 2.3 / 6.1), hashed onto one line's 32 words (4 sectors of ~2.6 passes) ~10.4 (H200
4.44 per ns, this rule 4.1), 32 distinct words of a line 4 passes. The timing replay queues every
warp's request to a line on that line's unit (timing/config.py atomic_units).
"""

from __future__ import annotations

import numpy as np

LINE_BYTES = 128
SECTOR_BYTES = 32


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
