"""CUDA features a kernel author reaches for, each against what CUDA defines: the atomics' wrap-around
and 16/64-bit forms, shared atomics, cooperative groups (memcpy_async, coalesced_threads),
cuda::atomic_ref, 64-bit shuffles, __syncthreads_or/and, __mul24, cache-hinted loads and stores,
recursion and a local array indexed at run time (a sweep on 2026-12-01 found none of these wrong;
these keep it so)."""

import numpy as np

import simgpu as sg

ATOMICS = r'''
extern "C" __global__ void atomics(unsigned* u, unsigned long long* ull, long long* ll, unsigned short* us,
                                   double* d, int* out)
{
    __shared__ unsigned su[3];
    __shared__ float sf;
    int t = threadIdx.x;
    if (t < 3) su[t] = 0;
    if (t == 0) sf = 0.f;
    __syncthreads();
    atomicInc(&u[0], 9u);                      // 0..9 then back to 0
    atomicDec(&u[1], 5u);                      // 0 -> 5, then down
    atomicAnd(&u[2], ~(1u << (t % 32)));
    atomicOr(&u[3], 1u << (t % 32));
    atomicXor(&u[4], (unsigned)t * 2654435761u);
    atomicMin(&ull[0], 1000ull + (unsigned long long)((t * 37) % 64));
    atomicAdd(&ull[1], 1ull << 33);
    atomicMax(&ll[0], (long long)t * -3 + 50);
    atomicCAS(&us[t], (unsigned short)t, (unsigned short)(t + 100));
    atomicAdd(&d[0], 0.125 * t);
    atomicInc(&su[0], 7u);
    atomicOr(&su[1], 1u << (t % 32));
    atomicMax(&su[2], (unsigned)(t * 7 % 50));
    atomicAdd(&sf, 0.5f);
    __syncthreads();
    if (t == 0) { out[0] = su[0]; out[1] = su[1]; out[2] = su[2]; out[3] = (int)sf; }
}
'''


def test_atomics_wrap_and_widths():
    n = 64
    u0 = np.zeros(5, np.uint32)
    u0[2] = 0xFFFFFFFF
    u, ull = sg.asarray(u0), sg.asarray(np.array([2**40, 7], np.uint64))
    ll = sg.asarray(np.array([-(2**40)], np.int64))
    us0 = (np.arange(n) * (np.arange(n) % 3 != 0)).astype(np.uint16)
    us, d, out = sg.asarray(us0), sg.zeros(1, np.float64), sg.zeros(4, np.int32)
    sg.RawModule(code=ATOMICS).get_function("atomics")((1,), (n,), (u, ull, ll, us, d, out))
    dec = 0
    for _ in range(n):
        dec = 5 if dec == 0 or dec > 5 else dec - 1
    xor = 0
    for t in range(n):
        xor ^= (t * 2654435761) & 0xFFFFFFFF
    assert list(u.get()) == [n % 10, dec, 0, 0xFFFFFFFF, xor]
    assert list(ull.get()) == [1000, 7 + n * 2**33]
    assert ll.get()[0] == 50
    np.testing.assert_array_equal(us.get(), np.where(us0 == np.arange(n), np.arange(n) + 100, us0))
    assert d.get()[0] == 0.125 * sum(range(n))
    assert list(out.get()) == [n % 8, -1, 49, 32]


GROUPS = r'''
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/atomic>
namespace cg = cooperative_groups;
__device__ int counter = 5;
__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
extern "C" __global__ void groups(const float4* x, const double* dd, float* out, double* dout, int* iout)
{
    int t = threadIdx.x;
    __shared__ float buf[64];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, buf, (const float*)x, sizeof(float) * 64);
    cg::wait(block);
    float4 v = __ldg(&x[t % 16]);
    out[t] = v.x + v.y + buf[63 - t] + __ldcs((const float*)x + t) + __ldlu((const float*)x + (t ^ 1));
    dout[t] = __shfl_xor_sync(0xffffffffu, dd[t], 1);
    iout[t] = (int)(__shfl_down_sync(0xffffffffu, (long long)t << 40, 2) >> 40);
    if (t % 3 == 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        iout[64 + t] = g.size() * 100 + g.thread_rank();
    } else {
        iout[64 + t] = -1;
    }
    iout[128 + t] = __syncthreads_or(t == 17) * 2 + __syncthreads_and(t >= 0);
    cuda::atomic_ref<int, cuda::thread_scope_device> r(counter);
    r.fetch_add(1, cuda::std::memory_order_relaxed);
    double loc[16];
    for (int i = 0; i < 16; ++i) loc[i] = 0.5 * i + t;
    dout[64 + t] = loc[(t * 5) % 16] + fact(t % 8);
    __syncthreads();
    if (t == 0) iout[192] = counter;
    iout[193 + t] = __mul24(t - 32, 1000) + __umul24(t, 3);
    __stwt(&out[64 + t], (float)t * 0.5f);
    __stcs(&out[128 + t], 1.0f);
}
'''


def test_cooperative_groups_shuffles_and_hints():
    n = 64
    t = np.arange(n)
    x = np.arange(4 * n, dtype=np.float32) * 0.5
    dd = t * 1.5
    out, dout, iout = sg.zeros(3 * n, np.float32), sg.zeros(2 * n, np.float64), sg.zeros(193 + n, np.int32)
    sg.RawModule(code=GROUPS).get_function("groups")((1,), (n,), (sg.asarray(x), sg.asarray(dd), out, dout, iout))
    xv = x.reshape(n, 4)
    o, do, io = out.get(), dout.get(), iout.get()
    np.testing.assert_array_equal(o[:n], xv[t % 16, 0] + xv[t % 16, 1] + x[63 - t] + x[t] + x[t ^ 1])
    np.testing.assert_array_equal(do[:n], dd[t ^ 1])
    np.testing.assert_array_equal(io[:n], np.where(t % 32 + 2 < 32, t + 2, t))
    rank = {u: r for w in range(2) for r, u in enumerate(v for v in range(32 * w, 32 * w + 32) if v % 3 == 0)}
    size = {w: sum(1 for v in range(32 * w, 32 * w + 32) if v % 3 == 0) for w in range(2)}
    np.testing.assert_array_equal(io[64:128], [size[u // 32] * 100 + rank[u] if u % 3 == 0 else -1 for u in t])
    assert (io[128:192] == 3).all()
    assert io[192] == 5 + n
    np.testing.assert_array_equal(io[193:], (t - 32) * 1000 + t * 3)
    fact = np.array([1, 1, 2, 6, 24, 120, 720, 5040])
    np.testing.assert_array_equal(do[64:], 0.5 * ((t * 5) % 16) + t + fact[t % 8])
    np.testing.assert_array_equal(o[64:128], t * 0.5)
    assert (o[128:] == 1.0).all()
