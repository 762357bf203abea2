"""Kernels of the kinds users bring (tests/runtime/typical_kernels.cu: a row softmax, a warp scan,
dp4a arithmetic, a double stencil, a bitonic sort in shared memory, a 3x3 convolution,
stream compaction with a global atomic counter, a byte histogram with shared atomics): each runs on
simgpu and matches NumPy. Written after a 32-bit shared address that wrapped crashed simgpu
(sass_probes); half2 is in tests/frontend/test_headers.py."""

from pathlib import Path

import numpy as np
import pytest

import simgpu as sg

SRC = (Path(__file__).parent / "typical_kernels.cu").read_text()


@pytest.fixture(scope="module")
def mod():
    return sg.RawModule(code=SRC)


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def launch(mod, name, grid, block, args):
    return mod.get_function(name)(grid, block, args, timing=False)


def test_softmax_rows(mod, rng):
    x = rng.standard_normal((8, 300)).astype(np.float32)
    y = sg.zeros(x.size, dtype=np.float32)
    launch(mod, "softmax_rows", (8,), (128,), (sg.asarray(x.ravel()), y, np.int32(300)))
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(y.get().reshape(8, 300), e / e.sum(1, keepdims=True), rtol=1e-4, atol=1e-6)


def test_warp_scan(mod, rng):
    a = rng.integers(0, 10, 256).astype(np.int32)
    o = sg.zeros(256, dtype=np.int32)
    launch(mod, "warp_scan", (2,), (128,), (sg.asarray(a), o))
    assert np.array_equal(o.get(), np.concatenate([np.cumsum(a[i:i + 32]) for i in range(0, 256, 32)]))


def test_dp4a(mod, rng):
    n = 512
    a = rng.integers(-128, 127, (n, 4)).astype(np.int8)
    b = rng.integers(-128, 127, (n, 4)).astype(np.int8)
    o = sg.zeros(n, dtype=np.int32)
    launch(mod, "dp4a_dot", (4,), (128,), (sg.asarray(a.view(np.int32).ravel()), sg.asarray(b.view(np.int32).ravel()),
                                            o, np.int32(n)))
    assert np.array_equal(o.get(), (a.astype(np.int32) * b.astype(np.int32)).sum(1))


def test_double_stencil(mod, rng):
    n = 1000
    x = rng.standard_normal(n)
    o = sg.zeros(n, dtype=np.float64)
    launch(mod, "double_stencil", (8,), (128,), (sg.asarray(x), o, np.int32(n)))
    ref = np.zeros(n)
    ref[1:-1] = 0.25 * x[:-2] + 0.5 * x[1:-1] + 0.25 * x[2:]
    np.testing.assert_allclose(o.get(), ref)


def test_bitonic_sort_in_shared_memory(mod, rng):
    a = rng.integers(0, 1000, 256).astype(np.int32)
    d = sg.asarray(a)
    launch(mod, "bitonic_shared", (1,), (256,), (d,))
    assert np.array_equal(d.get(), np.sort(a))


def test_conv2d_3x3(mod, rng):
    h, w = 64, 96
    x = rng.standard_normal((h, w)).astype(np.float32)
    k = rng.standard_normal(9).astype(np.float32)
    o = sg.zeros(h * w, dtype=np.float32)
    launch(mod, "conv2d_3x3", (6, 8), (16, 8), (sg.asarray(x.ravel()), sg.asarray(k), o, np.int32(h), np.int32(w)))
    ref = np.zeros((h, w), np.float32)
    for dy in range(3):
        for dx in range(3):
            ref[1:-1, 1:-1] += k[dy * 3 + dx] * x[dy:h - 2 + dy, dx:w - 2 + dx]
    np.testing.assert_allclose(o.get().reshape(h, w), ref, atol=1e-4)


def test_stream_compaction_counts_one_atomic_lane_per_warp(mod, rng):
    n = 2000
    x = rng.random(n).astype(np.float32)
    o = sg.zeros(n, dtype=np.float32)
    c = sg.zeros(1, dtype=np.int32)
    rep = launch(mod, "compact", (16,), (128,), (sg.asarray(x), o, c, np.int32(n)))
    k = int(c.get()[0])
    assert k == (x > 0.5).sum()
    np.testing.assert_array_equal(np.sort(o.get()[:k]), np.sort(x[x > 0.5]))
    m = rep.metrics  # atomicAdd(count, 1) on one address: ptxas aggregates it (sass_probes)
    sectors = m["l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"]
    assert sectors == m["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"] > 0


def test_byte_histogram(mod, rng):
    n = 10000
    s = rng.integers(0, 256, n).astype(np.uint8)
    h = sg.zeros(256, dtype=np.uint32)
    launch(mod, "char_count", (8,), (256,), (sg.asarray(s), h, np.int32(n)))
    assert np.array_equal(h.get(), np.bincount(s, minlength=256))
