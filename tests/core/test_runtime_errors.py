"""Faults while a kernel runs (KernelRuntimeError) and launches CuPy/CUDA would refuse (LaunchError)."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg

SRC = r'''
extern "C" __global__ void oob(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i + n];
}
extern "C" __global__ void misaligned(const char* p, int* y) {
    y[threadIdx.x] = *(const int*)(p + 1 + 4 * threadIdx.x);
}
extern "C" __global__ void misaligned_vector(const float* x, float* o, int shift) {
    int t = threadIdx.x;                                   // ld.global.v2.f32 at x + shift + 2t
    const float2* p = (const float2*)(x + shift + 2 * t);
    float2 v = *p;
    o[t] = v.x + v.y;
}
extern "C" __global__ void misaligned_vector_store(float* o, int shift) {
    int t = threadIdx.x;
    *(float4*)(o + shift + 4 * t) = make_float4(1.f, 2.f, 3.f, 4.f);   // st.global.v4.f32
}
extern "C" __global__ void scale(float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] *= a;
}
'''


@pytest.fixture(scope="module")
def mod():
    return sg.RawModule(code=SRC)


def test_out_of_bounds_read_names_kernel_block_thread(mod):
    x, y = sg.zeros(64, np.float32), sg.zeros(64, np.float32)
    with pytest.raises(sg.KernelRuntimeError) as exc:
        mod.get_function("oob")((2,), (32,), (x, y, np.int32(1 << 24)))
    msg = str(exc.value)
    assert "oob" in msg and "block (0, 0, 0)" in msg and "thread (0, 0, 0)" in msg, msg


def test_misaligned_access(mod):
    p, y = sg.zeros(256, np.uint8), sg.zeros(32, np.int32)
    with pytest.raises(sg.KernelRuntimeError, match="(?i)misaligned"):
        mod.get_function("misaligned")((1,), (32,), (p, y))


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_misaligned_vector_access_faults_as_one_access(mod, engine):
    """A vector load or store is one access of its whole size: 8 / 16 bytes at a 4-byte boundary
    fault (the robustness sweep of 2026-12-04 found the float2 load reading its two floats); aligned,
    the same kernels run."""
    x = sg.asarray(np.arange(200, dtype=np.float32))
    o = sg.zeros(200, np.float32)
    load, store = mod.get_function("misaligned_vector"), mod.get_function("misaligned_vector_store")
    load((1,), (32,), (x, o, np.int32(2)), engine=engine)
    assert np.array_equal(o.get()[:32], 4 * np.arange(32, dtype=np.float32) + 5)
    with pytest.raises(sg.KernelRuntimeError, match=r"misaligned global address .* 8-byte.*thread \(0, 0, 0\)"):
        load((1,), (32,), (x, o, np.int32(1)), engine=engine)
    store((1,), (32,), (o, np.int32(4)), engine=engine)
    with pytest.raises(sg.KernelRuntimeError, match=r"misaligned global address .* 16-byte"):
        store((1,), (32,), (o, np.int32(2)), engine=engine)


@pytest.mark.parametrize("args,pattern", [
    (lambda y: (y, np.float32(2)), "takes 3 argument"),
    (lambda y: (y, np.float32(2), np.int32(4), np.int32(1)), "takes 3 argument"),
    (lambda y: (np.zeros(4, np.float32), np.float32(2), np.int32(4)), "NumPy array"),
    (lambda y: (y, 2.0, np.int32(4)), "Python float"),
    (lambda y: (y, np.float32(2), np.float32(4)), "integer parameter"),
])
def test_bad_arguments(mod, args, pattern):
    y = sg.zeros(4, np.float32)
    with pytest.raises(sg.LaunchError, match=pattern):
        mod.get_function("scale")((1,), (32,), args(y))


def test_block_too_large(mod):
    y = sg.zeros(4, np.float32)
    with pytest.raises(sg.LaunchError, match="2048 threads"):
        mod.get_function("scale")((1,), (2048,), (y, np.float32(1), np.int32(4)))


def test_too_much_shared_memory(mod):
    y = sg.zeros(64, np.float32)
    with pytest.raises(sg.LaunchError, match="shared memory"):
        mod.get_function("scale")((1,), (32,), (y, np.float32(1), np.int32(4)), shared_mem=300 * 1024)


def test_bad_grid(mod):
    y = sg.zeros(4, np.float32)
    with pytest.raises(sg.LaunchError):
        mod.get_function("scale")((0,), (32,), (y, np.float32(1), np.int32(4)))
    with pytest.raises(sg.LaunchError, match="no kernel named"):
        mod.get_function("nope")
