"""ptxas-like facts the replay relies on: predicated-off shadows still issue, and a read-only load
may move above a store (SASS of programs/paged.cu and transpose.cu, nvcc 13.0 -arch=sm_90)."""

import numpy as np

from simgpu.timing.prepare import _fill_shadows


def test_fill_shadows_puts_skipped_predicated_instructions_back():
    # warp 0 ran pcs 0, 1 (branch over 2..3, taken), 4; warp 1 ran 0, 1, 2, 3, 4 (not taken)
    warps = np.array([0, 0, 0, 1, 1, 1, 1, 1], np.int64)
    pcs = np.array([0, 1, 4, 0, 1, 2, 3, 4], np.int64)
    lat = np.array([-1, -1, 300, -1, -1, 32, -1, 300], np.int64)
    wf = np.arange(8, dtype=np.float64)
    z = np.zeros(8)
    w2, p2, l2, wf2, *_ = _fill_shadows({1: 4}, 5, warps, pcs, lat, wf, z, z, z)
    assert p2.tolist() == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]
    assert w2.tolist() == [0] * 5 + [1] * 5
    assert l2.tolist() == [-1, -1, -1, -1, 300, -1, -1, 32, -1, 300]  # inserted entries: no memory work
    assert wf2.tolist() == [0, 1, 0, 0, 2, 3, 4, 5, 6, 7]


def test_fill_shadows_leaves_traces_without_jumps_alone():
    warps = np.zeros(3, np.int64)
    pcs = np.array([0, 1, 2], np.int64)
    z = np.zeros(3)
    out = _fill_shadows({1: 3}, 3, warps, pcs, np.full(3, -1, np.int64), z, z, z, z)
    assert out[1].tolist() == [0, 1, 2]
