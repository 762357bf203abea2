"""Each (GPC, line) pair's own L2 latency offset (config l2_gpc_line_latency, measured in
benchmarks/microbench/l2_partition; off by default): drawn from the measured distribution by a hash of
the line's offset in its allocation, the same for every launch, and added to the line's latency."""

import numpy as np

from simgpu.memory.topology import H200_GPC_LINE_LATENCY
from simgpu.timing.l2_sides import gpc_line_offsets
from simgpu.timing.load_lines import load_lines, merge_state

TABLE = np.array(H200_GPC_LINE_LATENCY)


def test_offsets_are_the_tables_values_in_its_proportions():
    off = gpc_line_offsets(np.arange(64_000), 9, TABLE)
    assert off.shape == (64_000, 9) and set(np.unique(off)) <= set(TABLE.tolist())
    share = np.bincount(np.searchsorted(TABLE, off.ravel()), minlength=len(TABLE)) / off.size
    assert np.all(np.abs(share - 1 / len(TABLE)) < 0.002)  # every quantile equally often


def test_offsets_depend_on_line_and_gpc_only():
    a = gpc_line_offsets(np.array([5, 77, 5]), 9, TABLE)
    assert np.array_equal(a[0], a[2])  # one line: the same for every launch
    many = gpc_line_offsets(np.arange(10_000), 9, TABLE)
    same_across_gpcs = np.mean(many[:, 0] == many[:, 1])
    assert same_across_gpcs < 0.06  # independent draws: 1/32 on average


def test_a_line_takes_its_gpcs_offset():
    """One near L2 hit from SM 0 (GPC 3) and SM 1 (GPC 5): each takes the near latency plus its
    GPC's offset for the line."""
    offsets = np.array([[0, 0, 0, -20, 0, 25]], np.int16)  # one line, six GPCs
    mg = merge_state(False, np.zeros(2, np.int64), 4, 13, np.zeros(1, np.int64), 8, 1, 1,
                     line_off=offsets, sm_gpc=np.array([3, 5]))
    scratch = [np.zeros(8, np.int64) for _ in range(5)]
    lats = (280, 515, 540, 770, 0)
    got = []
    for sm in (0, 1):
        copy_at, back, left = np.full((1, 2), -1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64)
        one = np.zeros(1, np.int64)
        own = load_lines(0, 0, 100, sm, 0, 0, 0, one, one, np.zeros(1, np.int8), np.full(1, 1 | (1 << 4), np.int64),
                         copy_at, back, left, lats, True, True, mg, *scratch, 0.0)[0]
        got.append(int(own))
    assert got == [280 - 20, 280 + 25]
