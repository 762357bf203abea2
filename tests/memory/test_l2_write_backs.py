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



def _dirty_lines(l2: L2Cache) -> int:
    return int(((l2.dirty & 15) != 0).sum())


def test_the_l2_holds_no_more_dirty_lines_than_its_limit():
    """Stores alone of four times the L2 under a 256 KB limit: the L2 ends with exactly the limit's
    lines dirty, and every other line written has gone to DRAM once, whole."""
    limit = 256 * 1024
    l2, ctr = L2Cache(1 << 20, 16, dirty_bytes_max=limit), np.zeros(N_COUNTERS, np.int64)
    n = 4 * CAPACITY_LINES
    for line in range(n):
        l2.access(L2_WRITE, line, 15, ctr)
    assert _dirty_lines(l2) == limit // 128
    assert ctr[C_DRAM_WRITE_SECTORS] == 4 * (n - limit // 128)


def test_below_the_limit_nothing_is_written_back():
    """Lines updated in place (read, then written) that fit the limit stay dirty, however they fall
    on the sets (typical9 adam_step: 25.2 MB updated, 1.5 MB written back on the H200)."""
    l2, ctr = L2Cache(1 << 20, 16, dirty_bytes_max=512 * 1024), np.zeros(N_COUNTERS, np.int64)
    lines = np.random.default_rng(3).choice(1 << 30, CAPACITY_LINES // 4, replace=False)
    for line in lines:
        l2.access(L2_READ, int(line), 15, ctr)
        l2.access(L2_WRITE, int(line), 15, ctr)
    assert ctr[C_DRAM_WRITE_SECTORS] == 0 and _dirty_lines(l2) == len(lines)


def test_the_written_back_line_stays_clean_and_valid():
    l2, ctr = L2Cache(16 * 128, 16, dirty_bytes_max=2 * 128), np.zeros(N_COUNTERS, np.int64)  # one set
    for line in (5, 6, 7):
        l2.access(L2_WRITE, line, 15, ctr)
    assert ctr[C_DRAM_WRITE_SECTORS] == 4
    held = {int(t): int(d) & 15 for t, d in zip(l2.tags[0], l2.dirty[0]) if t >= 0}
    assert held == {5: 0, 6: 15, 7: 15}  # the oldest, line 5, written back and still held
    assert l2.access(L2_READ, 5, 15, ctr) == 15  # a hit


def test_without_a_limit_every_way_may_be_dirty():
    l2, ctr = L2Cache(1 << 20, 16), np.zeros(N_COUNTERS, np.int64)
    for line in range(CAPACITY_LINES):
        l2.access(L2_WRITE, line, 15, ctr)
    assert _dirty_lines(l2) > 0.9 * CAPACITY_LINES
