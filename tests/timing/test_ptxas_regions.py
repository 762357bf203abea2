"""ptxas-like facts the replay relies on: predicated-off shadows still issue, and a read-only load
may move above a store (SASS of programs/paged.cu and transpose.cu, nvcc 13.0 -arch=sm_90)."""

import numpy as np

from simgpu.timing.prepare import _fill_shadows


def test_fill_shadows_puts_skipped_predicated_instructions_back():
    # warp 0 ran pcs 0, 1 (branch over 2..3, taken), 4; warp 1 ran 0, 1, 2, 3, 4 (not taken)
    bucket_off = np.array([0, 3, 8], np.int64)
    pcs = np.array([0, 1, 4, 0, 1, 2, 3, 4], np.int32)
    mem = np.array([-1, -1, 0, -1, -1, 1, -1, 2], np.int32)  # memory rows
    off2, p2, m2 = _fill_shadows({1: 4}, 5, bucket_off, pcs, mem)
    assert p2.tolist() == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]
    assert off2.tolist() == [0, 5, 10]
    assert m2.tolist() == [-1, -1, -1, -1, 0, -1, -1, 1, -1, 2]  # inserted entries: no memory work


def test_fill_shadows_leaves_traces_without_jumps_alone():
    pcs = np.array([0, 1, 2], np.int32)
    out = _fill_shadows({1: 3}, 3, np.array([0, 3], np.int64), pcs, np.full(3, -1, np.int32))
    assert out[1] is pcs
