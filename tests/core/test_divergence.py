"""SIMT divergence: results against NumPy, and instruction counters where the answer is known."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg

THREAD_INST = "smsp__thread_inst_executed.sum"
WARP_INST = "simgpu__ptx_inst_executed.sum"  # the engine's count; smsp__ is the SASS estimate


def kernel(src: str, name: str):
    return sg.RawModule(code=src).get_function(name)


def test_even_odd_if_else():
    k = kernel(r'''
    extern "C" __global__ void evenodd(const float* x, float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            if (i % 2 == 0) y[i] = x[i] * 2.0f;
            else            y[i] = x[i] + 100.0f;
        }
    }''', "evenodd")
    n = 200
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    y = sg.zeros(n, np.float32)
    k((4,), (64,), (sg.asarray(x), y, np.int32(n)))
    want = np.where(np.arange(n) % 2 == 0, x * 2, x + 100).astype(np.float32)
    np.testing.assert_array_equal(y.get(), want)


def test_nested_divergence():
    k = kernel(r'''
    extern "C" __global__ void nested(int* out) {
        int t = threadIdx.x;
        int v;
        if (t & 1) {
            if (t & 2) { v = 3; if (t & 4) v += 40; else v += 50; }
            else v = 1;
        } else {
            if (t < 16) v = -t; else { v = 2 * t; if (t > 28) v = 7; }
        }
        out[t] = v;
    }''', "nested")
    out = sg.zeros(64, np.int32)
    k((1,), (64,), (out,))
    want = []
    for t in range(64):
        if t & 1:
            v = (3 + (40 if t & 4 else 50)) if t & 2 else 1
        else:
            v = -t if t < 16 else (7 if t > 28 else 2 * t)
        want.append(v)
    np.testing.assert_array_equal(out.get(), want)


def test_per_lane_trip_counts_break_continue():
    k = kernel(r'''
    extern "C" __global__ void loops(const int* trips, int* out) {
        int t = blockIdx.x * blockDim.x + threadIdx.x;
        int acc = 0;
        for (int j = 0; j < trips[t]; ++j) {
            if (j % 3 == 1) continue;
            if (acc > 50 + t) break;
            acc += j;
        }
        int w = 0;
        while (w * w < t) ++w;
        out[t] = acc * 1000 + w;
    }''', "loops")
    n = 96
    trips = np.random.default_rng(1).integers(0, 40, n).astype(np.int32)
    out = sg.zeros(n, np.int32)
    k((3,), (32,), (sg.asarray(trips), out))
    want = []
    for t in range(n):
        acc = 0
        for j in range(int(trips[t])):
            if j % 3 == 1:
                continue
            if acc > 50 + t:
                break
            acc += j
        w = 0
        while w * w < t:
            w += 1
        want.append(acc * 1000 + w)
    np.testing.assert_array_equal(out.get(), want)


def test_early_return():
    k = kernel(r'''
    extern "C" __global__ void early(int* out, int n) {
        int t = threadIdx.x;
        out[t] = -1;
        if (t % 5 == 0) return;
        if (t >= n) return;
        out[t] = t * t;
    }''', "early")
    out = sg.zeros(64, np.int32)
    k((1,), (64,), (out, np.int32(50)))
    t = np.arange(64)
    np.testing.assert_array_equal(out.get(), np.where((t % 5 == 0) | (t >= 50), -1, t * t))


def test_grid_stride_loop_divergent():
    k = kernel(r'''
    extern "C" __global__ void gs(const float* x, float* y, int n) {
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
            float v = x[i];
            if (v > 0.0f) y[i] = sqrtf(v); else y[i] = -v;
        }
    }''', "gs")
    n = 1000
    x = np.random.default_rng(2).standard_normal(n).astype(np.float32)
    y = sg.zeros(n, np.float32)
    k((3,), (64,), (sg.asarray(x), y, np.int32(n)))
    np.testing.assert_allclose(y.get(), np.where(x > 0, np.sqrt(np.abs(x)), -x), rtol=1e-6)


def test_noinline_function_from_divergent_code():
    k = kernel(r'''
    __device__ __noinline__ int collatz_steps(int v, int limit) {
        int s = 0;
        while (v != 1 && s < limit) { v = (v & 1) ? 3 * v + 1 : v / 2; ++s; }
        return s;
    }
    __device__ __noinline__ float scale(float a, int k) { return k > 2 ? a * k : a - k; }
    extern "C" __global__ void calls(const int* x, int* out, float* fout) {
        int t = blockIdx.x * blockDim.x + threadIdx.x;
        int r = 0;
        if (t % 3 != 0) r = collatz_steps(x[t], 200);
        else if (t % 2) r = -collatz_steps(x[t] + 1, 10);
        out[t] = r;
        fout[t] = (t & 4) ? scale((float)t, t % 7) : 0.5f;
    }''', "calls")
    n = 64
    xs = np.random.default_rng(3).integers(1, 500, n).astype(np.int32)
    out, fout = sg.zeros(n, np.int32), sg.zeros(n, np.float32)
    k((2,), (32,), (sg.asarray(xs), out, fout))

    def steps(v, limit):
        s = 0
        while v != 1 and s < limit:
            v = 3 * v + 1 if v & 1 else v // 2
            s += 1
        return s

    want = [steps(int(xs[t]), 200) if t % 3 else (-steps(int(xs[t]) + 1, 10) if t % 2 else 0) for t in range(n)]
    np.testing.assert_array_equal(out.get(), want)
    fw = [((t * (t % 7)) if t % 7 > 2 else t - t % 7) if t & 4 else 0.5 for t in range(n)]
    np.testing.assert_array_equal(fout.get(), np.array(fw, np.float32))


STRAIGHT = r'''
.version 8.0
.target sm_90
.address_size 64
.visible .entry straight(.param .u64 p)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    .reg .pred %p;
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p, %r1, 20;
    @%p bra DONE;
    add.u32 %r2, %r1, 1;
    mul.lo.u32 %r3, %r2, %r2;
    xor.b32 %r4, %r3, 5;
    ld.param.u64 %rd1, [p];
    cvta.to.global.u64 %rd1, %rd1;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r4;
DONE:
    ret;
}
'''


def test_thread_instruction_counts_known_analytically():
    """20 of 32 lanes run 8 straight-line instructions: the counters follow exactly."""
    k = sg.RawModule(ptx=STRAIGHT).get_function("straight")
    out = sg.zeros(32, np.uint32)
    r = k((1,), (32,), (out,))
    t = np.arange(20, dtype=np.uint64)
    np.testing.assert_array_equal(out.get()[:20], (((t + 1) ** 2) ^ 5).astype(np.uint32))
    # mov, setp, @p bra: 32 lanes each; 8 body instructions: 20 lanes; ret: 32 lanes after reconvergence
    # (the branch target DONE is the reconvergence point of the branch)
    warp = r.metrics[WARP_INST]
    thread = r.metrics[THREAD_INST]
    assert warp == 3 + 8 + 1
    assert thread == 3 * 32 + 8 * 20 + 32


def test_thread_instruction_counts_partial_warp_and_if_else():
    """A block of 40 threads: warp 1 has 8 live lanes; every count scales with live lanes."""
    k = sg.RawModule(ptx=STRAIGHT.replace("setp.ge.u32 %p, %r1, 20", "setp.ge.u32 %p, %r1, 1000")
                     ).get_function("straight")
    out = sg.zeros(40, np.uint32)
    r = k((1,), (40,), (out,))
    assert r.metrics[WARP_INST] == 2 * 12
    assert r.metrics[THREAD_INST] == 12 * (32 + 8)


@pytest.mark.parametrize("active", [1, 7, 32])
def test_simt_efficiency_of_guarded_kernel(active):
    k = sg.RawModule(ptx=STRAIGHT.replace("setp.ge.u32 %p, %r1, 20", f"setp.ge.u32 %p, %r1, {active}")
                     ).get_function("straight")
    out = sg.zeros(32, np.uint32)
    r = k((1,), (32,), (out,))
    assert r.metrics[THREAD_INST] == 4 * 32 + 8 * active
