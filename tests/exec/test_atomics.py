"""Atomics on global and shared memory.

Order observed (and documented in WaveContext.mem_atomic): atomics of one instruction are applied
warp by warp in issue order and, within a warp, lane by lane in lane order; so the old values that
atomicAdd returns on one address are the prefix sums in (block, warp, lane) order within a wave.
"""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg

OPS = r'''
template <typename T> __device__ void run_ops(T* g, T* old, T v, int t) {
    old[0 * 64 + t] = atomicAdd(&g[0], v);
    old[1 * 64 + t] = atomicMin(&g[1], v);
    old[2 * 64 + t] = atomicMax(&g[2], v);
    old[3 * 64 + t] = atomicExch(&g[3], v);
    old[4 * 64 + t] = atomicAnd(&g[4], v);
    old[5 * 64 + t] = atomicOr(&g[5], v);
    old[6 * 64 + t] = atomicXor(&g[6], v);
    old[7 * 64 + t] = atomicCAS(&g[7], (T)t, v);
}
extern "C" __global__ void ops_global_int(int* g, int* old, const int* vals) {
    int t = threadIdx.x; run_ops<int>(g, old, vals[t], t);
}
extern "C" __global__ void ops_global_uint(unsigned* g, unsigned* old, const unsigned* vals) {
    int t = threadIdx.x; run_ops<unsigned>(g, old, vals[t], t);
    old[8 * 64 + t] = atomicInc(&g[8], 17u);
    old[9 * 64 + t] = atomicDec(&g[9], 17u);
}
extern "C" __global__ void ops_shared_int(int* g, int* old, const int* vals) {
    __shared__ int s[10];
    int t = threadIdx.x;
    if (t < 10) s[t] = g[t];
    __syncthreads();
    run_ops<int>(s, old, vals[t], t);
    __syncthreads();
    if (t < 10) g[t] = s[t];
}
'''


def reference(init, vals, kind):
    """Sequential replay in (warp, lane) order = thread order for a single block."""
    g = [int(v) for v in init]
    old = np.zeros((10, 64), dtype=np.int64)
    bits = 32
    mask = (1 << bits) - 1
    signed = kind == "int"

    def norm(v):
        v &= mask
        return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v

    for t, v in enumerate(int(x) for x in vals):
        ops = [lambda a, v=v: a + v, lambda a, v=v: min(a, v), lambda a, v=v: max(a, v), lambda a, v=v: v,
               lambda a, v=v: a & v, lambda a, v=v: a | v, lambda a, v=v: a ^ v,
               lambda a, v=v, t=t: v if a == t else a]
        if kind == "uint":
            ops += [lambda a: 0 if a >= 17 else a + 1, lambda a: 17 if (a == 0 or a > 17) else a - 1]
        for j, fn in enumerate(ops):
            old[j, t] = g[j]
            g[j] = norm(fn(g[j]))
    return g, old


@pytest.mark.parametrize("kind,name", [("int", "ops_global_int"), ("uint", "ops_global_uint"),
                                       ("int", "ops_shared_int")])
def test_atomic_ops_and_old_values(kind, name):
    mod = sg.RawModule(code=OPS)
    k = mod.get_function(name)
    rng = np.random.default_rng(4)
    dt = np.int32 if kind == "int" else np.uint32
    vals = rng.integers(-50 if kind == "int" else 0, 60, 64).astype(dt)
    vals[5] = 3  # CAS by thread 3 (after init 3) etc.
    init = np.array([0, 1000, -1000 if kind == "int" else 0, 7, -1 if kind == "int" else 0xFFFFFFFF,
                     0, 0x5555, 3, 5, 2], dtype=np.int64).astype(dt)
    g = sg.asarray(init.copy())
    old = sg.zeros(10 * 64, dt)
    k((1,), (64,), (g, old, sg.asarray(vals)))
    want_g, want_old = reference(init, vals, kind)
    nops = 10 if kind == "uint" else 8
    got_g = g.get().astype(np.int64)
    assert list(got_g[:nops]) == [int(np.array(w).astype(dt)) for w in want_g[:nops]]
    got_old = old.get().reshape(10, 64).astype(np.int64)
    np.testing.assert_array_equal(got_old[:nops], want_old[:nops].astype(dt).astype(np.int64))


def test_histogram_many_lanes_one_address():
    k = sg.RawModule(code=r'''
    extern "C" __global__ void hist(const int* x, unsigned* bins, int n) {
        __shared__ unsigned sb[16];
        if (threadIdx.x < 16) sb[threadIdx.x] = 0;
        __syncthreads();
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
            atomicAdd(&sb[x[i] & 15], 1u);
        __syncthreads();
        if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], sb[threadIdx.x]);
        atomicAdd(&bins[16], 1u);     // every thread of every block hits one address
    }''').get_function("hist")
    n = 3000
    x = np.random.default_rng(5).integers(0, 1000, n).astype(np.int32)
    x[:500] = 7  # a hot bin
    bins = sg.zeros(17, np.uint32)
    k((4,), (128,), (sg.asarray(x), bins, np.int32(n)))
    want = np.bincount(x & 15, minlength=16)
    np.testing.assert_array_equal(bins.get()[:16], want)
    assert bins.get()[16] == 4 * 128


def test_atomic_add_returns_prefix_sums_in_issue_order():
    k = sg.RawModule(code=r'''
    extern "C" __global__ void ticket(int* counter, int* old) {
        int t = blockIdx.x * blockDim.x + threadIdx.x;
        old[t] = atomicAdd(counter, t + 1);
    }''').get_function("ticket")
    counter, old = sg.zeros(1, np.int32), sg.zeros(128, np.int32)
    k((2,), (64,), (counter, old))
    inc = np.arange(1, 129)
    # observed order: warps in issue order (block 0 warp 0, warp 1, block 1 warp 0, ...), lanes in lane order
    np.testing.assert_array_equal(old.get(), np.concatenate([[0], np.cumsum(inc)[:-1]]))
    assert counter.get()[0] == inc.sum()


@pytest.mark.parametrize("dtype,ctype", [(np.float32, "float"), (np.float64, "double")])
def test_float_atomic_add_sum(dtype, ctype):
    k = sg.RawModule(code=rf'''
    extern "C" __global__ void fsum(const {ctype}* x, {ctype}* out, int n) {{
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) atomicAdd(out, x[i]);
        __shared__ {ctype} s;
        if (threadIdx.x == 0) s = 0;
        __syncthreads();
        if (i < n) atomicAdd(&s, x[i]);
        __syncthreads();
        if (threadIdx.x == 0) atomicAdd(out + 1, s);
    }}''').get_function("fsum")
    n = 1000
    x = np.random.default_rng(6).random(n).astype(dtype)
    out = sg.zeros(2, dtype)
    k((8,), (128,), (sg.asarray(x), out, np.int32(n)))
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(out.get(), [x.astype(np.float64).sum()] * 2, rtol=rtol)


def test_atomic_64bit_and_float_minmax():
    k = sg.RawModule(code=r'''
    extern "C" __global__ void a64(unsigned long long* u, long long* s, int* fbits) {
        int t = threadIdx.x;
        atomicAdd(&u[0], 1ull << 40);
        atomicMax(&u[1], (unsigned long long)t * 1000000000000ull);
        atomicMin(&s[0], (long long)(t - 20) * 1000000000000ll);
        atomicCAS(&u[2], 0ull, (unsigned long long)(t + 1));
        atomicExch(&u[3], (unsigned long long)t);
        atomicMax(&fbits[0], t * 3);
    }''').get_function("a64")
    u = sg.zeros(4, np.uint64)
    s = sg.asarray(np.array([0, 0], np.int64))
    f = sg.zeros(1, np.int32)
    k((1,), (64,), (u, s, f))
    assert list(u.get()) == [64 << 40, 63 * 10**12, 1, 63]
    assert list(s.get()) == [-20 * 10**12, 0]
    assert f.get()[0] == 189


def test_atomic_exch_preserves_negative_zero():
    from simgpu.exec.ops import atomic_apply
    got = atomic_apply("exch", "f32", np.array([1.0], np.float32), np.array([-0.0], np.float32), None)
    assert np.signbit(got[0])


VECTOR = r'''
#include <cuda_fp16.h>
extern "C" __global__ void vec_f32(float* acc, float2* old2, float* acc4) {
    int t = threadIdx.x;
    old2[t] = atomicAdd(reinterpret_cast<float2*>(acc) + (t & 15), make_float2(1.0f, float(t)));
    atomicAdd(reinterpret_cast<float4*>(acc4) + (t & 7), make_float4(1.0f, 2.0f, 3.0f, 4.0f));
}
extern "C" __global__ void vec_bad(float* acc) {   // a float2 atomic 4 bytes off its alignment
    atomicAdd(reinterpret_cast<float2*>(acc + 1), make_float2(1.0f, 1.0f));
}
extern "C" __global__ void vec_f16(__half* h) {    // .v8.f16 add through inline PTX
    unsigned short one = 0x3C00;
    asm volatile("red.global.add.noftz.v8.f16 [%0], {%1, %1, %1, %1, %1, %1, %1, %1};"
                 :: "l"(h + 8 * (threadIdx.x & 1)), "h"(one) : "memory");
}
'''


def test_vector_atomics_are_elementwise_and_one_request():
    """sm_90's atomicAdd(float2*) / (float4*): one request per warp of 8 / 16 bytes per lane, each
    element added atomically; the old values come back in (warp, lane) order as for scalars."""
    mod = sg.RawModule(code=VECTOR)
    acc, old2, acc4 = sg.zeros(32, np.float32), sg.zeros(64 * 2, np.float32), sg.zeros(32, np.float32)
    rep = mod.get_function("vec_f32")((1,), (64,), (acc, old2, acc4))
    t = np.arange(64)
    want = np.zeros((16, 2))
    want[:, 0] = 4.0
    want[:, 1] = [t[t % 16 == j].sum() for j in range(16)]
    np.testing.assert_array_equal(acc.get().reshape(16, 2), want)
    np.testing.assert_array_equal(acc4.get().reshape(8, 4), np.tile([8.0, 16.0, 24.0, 32.0], (8, 1)))
    old = old2.get().reshape(64, 2)
    np.testing.assert_array_equal(old[:, 0], t // 16)  # the earlier lanes on the same float2
    np.testing.assert_array_equal(old[:, 1], [t[(t % 16 == i % 16) & (t < i)].sum() for i in t])
    # two warps x two instructions (the float4 one, whose old values nobody reads, a RED); lanes on
    # one address take a pass each (as for scalars, tests/memory/test_atomic_passes.py): float2, 16
    # addresses twice = 2 passes of 128 bytes, 8 sectors; float4, 8 addresses 4 times = 4 x 4
    assert rep.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"] == 2
    assert rep.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"] == 2
    assert rep.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"] == 2 * 8
    assert rep.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"] == 2 * 16
    h = sg.zeros(16, np.float16)
    mod.get_function("vec_f16")((1,), (32,), (h,))
    np.testing.assert_array_equal(h.get(), np.full(16, 16.0, np.float16))
    with pytest.raises(sg.KernelRuntimeError, match="misaligned global address"):
        mod.get_function("vec_bad")((1,), (32,), (sg.zeros(4, np.float32),))
