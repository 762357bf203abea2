"""CUDA C features users write, run on both engines against NumPy: structs with methods, templates,
switch, break, 64-bit integer math, double-precision sin (its argument reduction links in
mad.lo.cc / madc, the extended-precision carry chain), half arithmetic, __syncthreads_count and, where
a CUDA toolkit provides the headers, cooperative groups (CUDA 13 keeps libcu++ in include/cccl)."""

import os
from math import erf

import numpy as np
import pytest

import simgpu as sg
from simgpu.frontend.nvrtc import default_include_dirs

BASIC = r"""
#include <cuda_fp16.h>
struct Acc { float s; int n; __device__ void add(float v) { s += v; n++; } };

template <int K>
__device__ int twice(int v) { return K * v; }

extern "C" __global__ void features(const float* a, float* o, int* io, double* d)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[t];
    Acc acc = {0.f, 0};
    for (int k = 0; k < (t % 5); ++k) { if (k == 3) break; acc.add(x * k); }
    o[t] = acc.s + acc.n;
    o[512 + t] = sinf(x) + expf(-x) + logf(1.f + x) + powf(x, 1.5f) + erff(x) + tanhf(x);
    d[t] = sin((double)x) + exp((double)x) + sqrt((double)x);
    int q = (t * 7919) / (1 + (t & 7)), r = (t * 7919) % (1 + (t & 15));
    long long big = (long long)t * 1000000007LL;
    io[t] = q ^ r ^ (int)(big >> 17) ^ twice<3>(t);
    switch (t & 3) { case 0: io[512 + t] = 1; break; case 1: io[512 + t] = 2; break; default: io[512 + t] = -t; }
    __half h = __float2half(x);
    o[1024 + t] = __half2float(__hadd(h, __hmul(h, h)));
    io[1024 + t] = __syncthreads_count(x > 0.5f);
}

extern "C" __global__ void mad_carry(const unsigned* x, const unsigned* y, const unsigned* z,
                                     unsigned long long* out)
{   // x * y + z in 64 bits from 32-bit halves: mad.lo.cc then madc.hi
    int t = threadIdx.x;
    unsigned lo, hi;
    asm("mad.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.u32 %1, %2, %3, 0;"
        : "=r"(lo), "=r"(hi) : "r"(x[t]), "r"(y[t]), "r"(z[t]));
    out[t] = ((unsigned long long)hi << 32) | lo;
}
"""

GROUPS = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void group_sums(const float* a, float* o)
{
    __shared__ float sh[128];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(b);
    float v = a[t];
    for (int off = 16; off > 0; off >>= 1) v += tile.shfl_down(v, off);
    if (tile.thread_rank() == 0) o[t / 32] = v;
    sh[b.thread_rank()] = a[t];
    b.sync();
    for (int s = 64; s > 0; s >>= 1) {
        if (b.thread_rank() < s) sh[b.thread_rank()] += sh[b.thread_rank() + s];
        b.sync();
    }
    if (b.thread_rank() == 0) o[64 + blockIdx.x] = sh[0];
}
"""

ENGINES = ["fast", "reference"]


@pytest.mark.parametrize("engine", ENGINES)
def test_language_features(engine):
    a = np.random.default_rng(1).random(512).astype(np.float32)
    o, io, d = sg.zeros(1536, dtype=np.float32), sg.zeros(1536, dtype=np.int32), sg.zeros(512, dtype=np.float64)
    sg.RawModule(code=BASIC).get_function("features")((4,), (128,), (sg.asarray(a), o, io, d), engine=engine)
    o, io, d = o.get(), io.get(), d.get()
    t = np.arange(512)
    acc = np.array([sum(a[i] * k for k in range(min(i % 5, 3))) + min(i % 5, 3) for i in t], np.float32)
    np.testing.assert_allclose(o[:512], acc, rtol=1e-5)
    x = a.astype(np.float64)
    ref = np.sin(x) + np.exp(-x) + np.log1p(x) + x ** 1.5 + np.array([erf(v) for v in x]) + np.tanh(x)
    np.testing.assert_allclose(o[512:1024], ref, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(d, np.sin(x) + np.exp(x) + np.sqrt(x), rtol=1e-14)
    q, r, big = (t * 7919) // (1 + (t & 7)), (t * 7919) % (1 + (t & 15)), t.astype(np.int64) * 1000000007
    np.testing.assert_array_equal(io[:512], (q ^ r ^ (big >> 17).astype(np.int32) ^ (3 * t)).astype(np.int32))
    np.testing.assert_array_equal(io[512:1024], np.where(t % 4 == 0, 1, np.where(t % 4 == 1, 2, -t)))
    h = a.astype(np.float16)
    np.testing.assert_allclose(o[1024:1536], (h + h * h).astype(np.float32), rtol=2e-3)
    np.testing.assert_array_equal(io[1024:1536], np.repeat((a.reshape(4, 128) > 0.5).sum(1), 128))


@pytest.mark.parametrize("engine", ENGINES)
def test_mad_carry_chain(engine):
    r = np.random.default_rng(2)
    x, y, z = (r.integers(0, 1 << 32, 32, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    x[0] = y[0] = z[0] = 0xFFFFFFFF  # every carry set
    out = sg.zeros(32, dtype=np.uint64)
    sg.RawModule(code=BASIC).get_function("mad_carry")((1,), (32,), (sg.asarray(x), sg.asarray(y), sg.asarray(z), out),
                                                        engine=engine)
    want = x.astype(np.uint64) * y.astype(np.uint64) + z.astype(np.uint64)
    np.testing.assert_array_equal(out.get(), want)


@pytest.mark.skipif(not any(os.path.isfile(os.path.join(p, "cooperative_groups.h")) for p in default_include_dirs()),
                    reason="no CUDA toolkit headers (cooperative_groups.h) on this machine")
@pytest.mark.parametrize("engine", ENGINES)
def test_cooperative_groups(engine):
    a = np.random.default_rng(3).random(512).astype(np.float32)
    o = sg.zeros(128, dtype=np.float32)
    sg.RawModule(code=GROUPS).get_function("group_sums")((4,), (128,), (sg.asarray(a), o), engine=engine)
    np.testing.assert_allclose(o.get()[:16], a.reshape(16, 32).sum(1), rtol=1e-5)
    np.testing.assert_allclose(o.get()[64:68], a.reshape(4, 128).sum(1), rtol=1e-5)


DYN = r"""
extern "C" __global__ void dyn_after_static(const int* in, int* out)
{   // 12 B of static shared memory, then the dynamic array: it starts at byte 16, not 12
    extern __shared__ int dyn[];
    __shared__ double total;
    __shared__ int top;
    int t = threadIdx.x;
    if (t == 0) { total = 0.0; top = -1; }
    __syncthreads();
    dyn[t] = in[t];
    atomicAdd(&total, (double)in[t]);
    atomicMax(&top, in[t]);
    __syncthreads();
    out[t] = dyn[127 - t] + (t == 0 ? (int)total + top : 0);
}
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_dynamic_shared_memory_after_static_variables(engine):
    x = np.arange(128, dtype=np.int32) * 3
    out = sg.zeros(128, dtype=np.int32)
    sg.RawModule(code=DYN).get_function("dyn_after_static")((1,), (128,), (sg.asarray(x), out), shared_mem=128 * 4,
                                                             engine=engine)
    want = x[::-1].copy()
    want[0] += int(x.sum()) + int(x.max())
    np.testing.assert_array_equal(out.get(), want)


MORE = r"""struct Params { float w[16]; int n; float bias; };

__device__ unsigned int retire_count = 0;
__device__ float partial[64];

extern "C" __global__ void fence_reduce(const float* in, float* out, int n)
{   // the threadFenceReduction pattern: per-block partial sums, the last block to finish adds them
    __shared__ float s[256];
    __shared__ bool last;
    int t = threadIdx.x;
    float v = 0.f;
    for (int i = blockIdx.x * 256 + t; i < n; i += gridDim.x * 256) v += in[i];
    s[t] = v;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(&retire_count, gridDim.x);
        last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (last && t == 0) {
        float tot = 0.f;
        for (int b = 0; b < gridDim.x; ++b) tot += partial[b];
        out[0] = tot;
        retire_count = 0;
    }
}

extern "C" __global__ void struct_param(Params p, const float* x, float* y)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < p.n) y[t] = p.w[t & 15] * x[t] + p.bias;
}

extern "C" __global__ void bytes_shared(const unsigned char* in, unsigned char* out)
{   // 1024 threads, byte-wide shared memory
    __shared__ unsigned char s[1024];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 1024 + t];
    __syncthreads();
    out[blockIdx.x * 1024 + t] = s[1023 - t] ^ s[t];
}

extern "C" __global__ void partial_mask_shfl(const int* in, int* out)
{   // lanes 0..15 take a branch and shuffle among themselves with a 16-lane mask
    int l = threadIdx.x & 31, v = in[threadIdx.x];
    if (l < 16) v += __shfl_xor_sync(0x0000ffffu, v, 1);
    out[threadIdx.x] = v;
}

extern "C" __global__ void big_grid_y(int* out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(out, (int)blockIdx.y + 1);
}
"""


@pytest.fixture(scope="module")
def more():
    return sg.RawModule(code=MORE)


@pytest.mark.parametrize("engine", ENGINES)
def test_last_block_reduction_with_device_globals(more, engine):
    """CUDA's threadFenceReduction sample: __device__ variables, __threadfence, atomicInc; the last
    block to retire adds the partial sums."""
    x = np.random.default_rng(7).random(100_000).astype(np.float32)
    out = sg.zeros(1, dtype=np.float32)
    more.get_function("fence_reduce")((64,), (256,), (sg.asarray(x), out, np.int32(len(x))), engine=engine)
    assert np.isclose(out.get()[0], x.astype(np.float64).sum(), rtol=1e-4)


@pytest.mark.parametrize("engine", ENGINES)
def test_struct_by_value_bytes_and_partial_mask_shuffles(more, engine):
    r = np.random.default_rng(8)
    params = np.zeros(1, dtype=[("w", "<f4", 16), ("n", "<i4"), ("bias", "<f4")])
    params["w"], params["n"], params["bias"] = np.arange(16), 1000, 0.5
    xs = r.random(1000).astype(np.float32)
    y = sg.zeros(1000, dtype=np.float32)
    more.get_function("struct_param")((4,), (256,), (params[0], sg.asarray(xs), y), engine=engine)
    np.testing.assert_allclose(y.get(), params["w"][0][np.arange(1000) & 15] * xs + 0.5, rtol=1e-6)
    with pytest.raises(sg.LaunchError, match="structured scalar"):
        more.get_function("struct_param")((4,), (256,), (params, sg.asarray(xs), y), engine=engine)
    b = r.integers(0, 256, 4096, dtype=np.uint8)
    ob = sg.zeros(4096, dtype=np.uint8)
    more.get_function("bytes_shared")((4,), (1024,), (sg.asarray(b), ob), engine=engine)
    bb = b.reshape(4, 1024)
    np.testing.assert_array_equal(ob.get().reshape(4, 1024), bb[:, ::-1] ^ bb)
    iv = np.arange(32, dtype=np.int32) * 5
    oi = sg.zeros(32, dtype=np.int32)
    more.get_function("partial_mask_shfl")((1,), (32,), (sg.asarray(iv), oi), engine=engine)
    lane = np.arange(32)
    np.testing.assert_array_equal(oi.get(), np.where(lane < 16, iv + iv[lane ^ 1], iv))
