"""What the L2 counts of the dirty lines it writes back, for the timing model's DRAM costs
(memory/l2.py C_DRAM_WRITE_ACTS, C_DRAM_WRITE_GRANULES): the rows they open in a table of their
own, in the order they leave, and the 64 B DRAM writes their dirty sectors take."""

import numpy as np
import pytest

from simgpu.memory.l2 import (
    C_DRAM_WRITE_ACTS,
    C_DRAM_WRITE_GRANULES,
    C_DRAM_WRITE_SECTORS,
    DRAM_ROW_BYTES,
    L2_READ,
    L2_WRITE,
    N_COUNTERS,
    L2Cache,
)

LINES_PER_ROW = DRAM_ROW_BYTES // 128
CAPACITY_LINES = (1 << 20) // 128


def _write(lines, mask: int) -> np.ndarray:
    """Write `mask` of each line in turn into a 1 MB L2, then read four times its size of other
    lines through it (every dirty line leaves); the counters."""
    l2, ctr = L2Cache(1 << 20, 16), np.zeros(N_COUNTERS, np.int64)
    for line in lines:
        l2.access(L2_WRITE, int(line), mask, ctr)
    for line in range(1 << 40, (1 << 40) + 4 * CAPACITY_LINES):
        l2.access(L2_READ, line, 15, ctr)
    return ctr


def test_whole_lines_stored_in_order_open_a_row_per_row():
    n = 4 * CAPACITY_LINES
    ctr = _write(range(n), 15)
    assert ctr[C_DRAM_WRITE_SECTORS] == 4 * n
    assert ctr[C_DRAM_WRITE_GRANULES] == 2 * n
    # the L2 evicts a set's oldest line: lines leave about in the order they came, a row at a time
    assert n / LINES_PER_ROW <= ctr[C_DRAM_WRITE_ACTS] <= 1.1 * n / LINES_PER_ROW


@pytest.mark.parametrize("mask, granules", [(0b0001, 1), (0b0011, 1), (0b0101, 2), (0b1111, 2)])
def test_lines_at_random_rows_open_one_each(mask, granules):
    rows = np.random.default_rng(0).choice(1 << 30, 3 * CAPACITY_LINES, replace=False)
    ctr = _write(rows * LINES_PER_ROW, mask)
    n = len(rows)
    assert ctr[C_DRAM_WRITE_SECTORS] == n * bin(mask).count("1")
    assert ctr[C_DRAM_WRITE_GRANULES] == n * granules  # a lone sector takes a 64 B write, as a pair
    assert ctr[C_DRAM_WRITE_ACTS] >= 0.99 * n  # (1,024 banks: a row can still be open by chance)


def test_clean_lines_leave_without_a_write():
    l2, ctr = L2Cache(1 << 20, 16), np.zeros(N_COUNTERS, np.int64)
    for line in range(4 * CAPACITY_LINES):
        l2.access(L2_READ, line, 15, ctr)
    assert ctr[C_DRAM_WRITE_SECTORS] == ctr[C_DRAM_WRITE_GRANULES] == ctr[C_DRAM_WRITE_ACTS] == 0

