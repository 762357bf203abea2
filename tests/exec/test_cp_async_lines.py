"""A cp.async's shared write takes at least one wavefront per global line it copies from
(benchmarks/microbench/data_pipe); exec/ops._lines_per_warp counts those lines per warp."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from simgpu.exec.ops import _lines_per_warp


@settings(max_examples=200, deadline=None)
@given(addr=arrays(np.uint64, (3, 32), elements=st.integers(0, 1 << 20)),
       m=arrays(np.bool_, (3, 32)))
def test_lines_per_warp_equals_a_brute_force_count(addr, m):
    want = [len({int(a) >> 7 for a, on in zip(addr[r], m[r]) if on}) for r in range(3)]
    assert list(_lines_per_warp(addr, m)) == want


def test_a_coalesced_warp_and_two_rows():
    lane = np.arange(32, dtype=np.uint64)
    full = np.ones((1, 32), bool)
    assert _lines_per_warp(4096 + 4 * lane[None], full)[0] == 1
    rows = np.where(lane < 16, 4 * lane, 1024 + 4 * (lane - 16))[None]  # 16 floats of two rows 1 KB apart
    assert _lines_per_warp(rows, full)[0] == 2
    assert _lines_per_warp(rows, np.zeros((1, 32), bool))[0] == 0
