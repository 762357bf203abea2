"""mbarrier objects and the 1-D bulk copy (exec/mbarrier.py): cuda::barrier and cuda::memcpy_async on
sm_90, the hand-written PTX forms CUTLASS-like code uses, their errors and counters, both engines."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
from simgpu.errors import KernelRuntimeError, UnsupportedInstructionError
from simgpu.exec import mbarrier as mb

# ------------------------------------------------------------------------------------------ kernels
BARRIER_MEMCPY = r'''
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void k(const float* x, float* y) {
  __shared__ float s[256];
  #pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, s, x + blockIdx.x * 256, sizeof(float) * 256, bar);
  bar.arrive_and_wait();
  y[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x] + 1.f;
}
'''

BARRIER_BULK = r'''
#include <cuda/barrier>
#include <cuda/ptx>
extern "C" __global__ void k(const float* x, float* y) {
  __shared__ alignas(128) float s[256];
  #pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) { init(&bar, blockDim.x); cuda::device::experimental::fence_proxy_async_shared_cta(); }
  __syncthreads();
  cuda::barrier<cuda::thread_scope_block>::arrival_token tok;
  if (threadIdx.x == 0) cuda::memcpy_async(s, x + blockIdx.x * 256, cuda::aligned_size_t<16>(sizeof(float) * 256), bar);
  tok = bar.arrive();
  bar.wait(std::move(tok));
  y[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x] * 3.f;
}
'''

# the PTX forms by hand (inline asm), as CUTLASS-like code writes them
HELPERS = r'''
typedef unsigned long long u64;
__device__ __forceinline__ unsigned sa(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(u64* b, unsigned n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(n) : "memory"); }
__device__ __forceinline__ void mb_inval(u64* b) {
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(sa(b)) : "memory"); }
__device__ __forceinline__ u64 mb_arrive(u64* b, unsigned c) { u64 s;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(sa(b)), "r"(c) : "memory"); return s; }
__device__ __forceinline__ u64 mb_arrive_nc(u64* b, unsigned c) { u64 s;
  asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(sa(b)), "r"(c) : "memory");
  return s; }
__device__ __forceinline__ u64 mb_arrive_drop(u64* b) { u64 s;
  asm volatile("mbarrier.arrive_drop.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(sa(b)) : "memory"); return s; }
__device__ __forceinline__ u64 mb_arrive_tx(u64* b, unsigned tx) { u64 s;
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(sa(b)), "r"(tx) : "memory");
  return s; }
__device__ __forceinline__ void mb_arrive_cluster(u64* b) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0], 1;" :: "r"(sa(b)) : "memory"); }
__device__ __forceinline__ void mb_expect_tx(u64* b, unsigned tx) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(tx) : "memory"); }
__device__ __forceinline__ void mb_complete_tx(u64* b, unsigned tx) {
  asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(tx) : "memory"); }
__device__ __forceinline__ unsigned mb_test_parity(u64* b, unsigned par) { unsigned r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(sa(b)), "r"(par) : "memory"); return r; }
__device__ __forceinline__ unsigned mb_try_parity(u64* b, unsigned par) { unsigned r;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(sa(b)), "r"(par) : "memory"); return r; }
__device__ __forceinline__ unsigned mb_test(u64* b, u64 s) { unsigned r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(sa(b)), "l"(s) : "memory"); return r; }
__device__ __forceinline__ unsigned mb_try(u64* b, u64 s) { unsigned r;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2, 1000; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(sa(b)), "l"(s) : "memory"); return r; }
__device__ __forceinline__ unsigned mb_pending(u64 s) { unsigned r;
  asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(r) : "l"(s)); return r; }
__device__ __forceinline__ void mb_wait_parity(u64* b, unsigned par) { while (!mb_try_parity(b, par)) {} }
__device__ __forceinline__ void bulk_g2s(void* dst, const void* src, unsigned n, u64* b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(sa(dst)), "l"(src), "r"(n), "r"(sa(b)) : "memory"); }
__device__ __forceinline__ void bulk_s2g(void* dst, const void* src, unsigned n) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" :: "l"(dst), "r"(sa(src)), "r"(n)
               : "memory"); }
__device__ __forceinline__ void bulk_commit_wait() {
  asm volatile("cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group.read 0;" ::: "memory"); }
__device__ __forceinline__ void fence_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
'''

PIPELINE = HELPERS + r'''
// Two stages, every thread arrives on the stage's barrier and waits on its phase parity; the
// parity of a barrier flips each time its stage comes round again.
extern "C" __global__ void pipe(const int* x, int* acc, unsigned* flags, int iters) {
  __shared__ int buf[2][128];
  __shared__ u64 bar[2];
  int t = threadIdx.x, n = blockDim.x;
  if (t == 0) { mb_init(&bar[0], n); mb_init(&bar[1], n); }
  __syncthreads();
  int sum = 0;
  for (int it = 0; it < iters; ++it) {
    int st = it & 1;
    unsigned par = (it >> 1) & 1;
    buf[st][t] = x[it * n + t];
    mb_arrive(&bar[st], 1);
    mb_wait_parity(&bar[st], par);
    unsigned old_done = mb_test_parity(&bar[st], par);       // the phase just completed: true
    unsigned new_done = mb_test_parity(&bar[st], par ^ 1u);  // the next one: nobody can be in it yet
    flags[it * n + t] = old_done | (new_done << 1);
    sum += buf[st][(t + 1) % n];
  }
  acc[t] = sum;
}
'''

EXPECT_TX = HELPERS + r'''
// One thread arrives with expect_tx of 1024 bytes; two bulk copies of 512 bytes complete the phase.
extern "C" __global__ void etx(const float* x, float* y, unsigned* rec) {
  __shared__ alignas(128) float s[256];
  __shared__ u64 bar;
  int t = threadIdx.x;
  if (t == 0) { mb_init(&bar, 1); fence_async(); }
  __syncthreads();
  if (t == 0) {
    u64 st = mb_arrive_tx(&bar, 1024);
    rec[0] = mb_test(&bar, st);                      // bytes outstanding: false
    rec[1] = mb_pending(st);                         // the pending count before the arrive: 1
    bulk_g2s(s, x + blockIdx.x * 256, 512, &bar);
    rec[2] = mb_try(&bar, st);                       // half the bytes: false
    bulk_g2s(s + 128, x + blockIdx.x * 256 + 128, 512, &bar);
    rec[3] = mb_test(&bar, st);                      // all bytes: true
    rec[4] = mb_test_parity(&bar, 0) | (mb_test_parity(&bar, 1) << 1);
  }
  mb_wait_parity(&bar, 0);
  y[blockIdx.x * 256 + t] = s[t] * 2.f;
}
'''

EARLY = HELPERS + r'''
// Warp 0 arrives first and asks; __syncthreads orders warp 1's arrivals after that question.
extern "C" __global__ void early(unsigned* rec) {
  __shared__ u64 bar;
  int t = threadIdx.x;
  if (t == 0) mb_init(&bar, blockDim.x);
  __syncthreads();
  u64 st = 0;
  if (t < 32) {
    st = mb_arrive(&bar, 1);
    rec[t] = mb_try(&bar, st) | (mb_test_parity(&bar, 0) << 1) | (mb_pending(st) << 8);
  }
  __syncthreads();
  if (t >= 32) rec[t] = (mb_pending(mb_arrive(&bar, 1)) << 8);
  __syncthreads();
  if (t < 32) rec[blockDim.x + t] = mb_try(&bar, st) | (mb_test_parity(&bar, 0) << 1) | (mb_test_parity(&bar, 1) << 2);
}
'''

PENDING = HELPERS + r'''
extern "C" __global__ void pend(unsigned* rec) {
  __shared__ u64 bar, b2;
  if (threadIdx.x == 0) {
    mb_init(&bar, 100);
    rec[0] = mb_pending(mb_arrive_nc(&bar, 30));   // 100
    rec[1] = mb_pending(mb_arrive_nc(&bar, 20));   // 70
    rec[2] = mb_test_parity(&bar, 0);              // 0
    u64 st = mb_arrive(&bar, 50);                  // completes phase 0
    rec[3] = mb_pending(st);                       // 50
    rec[4] = mb_test(&bar, st) | (mb_test_parity(&bar, 0) << 1) | (mb_test_parity(&bar, 1) << 2);  // 1 | 2
    rec[5] = mb_pending(mb_arrive_nc(&bar, 1));    // 100: phase 1 starts full
    mb_init(&b2, 2);
    rec[6] = mb_pending(mb_arrive_drop(&b2));      // 2; expects 1 from now on
    st = mb_arrive(&b2, 1);                        // completes phase 0
    rec[7] = mb_pending(st) | (mb_test(&b2, st) << 4);       // 1 | 16
    st = mb_arrive(&b2, 1);                        // phase 1 needs one arrival
    rec[8] = mb_pending(st) | (mb_test_parity(&b2, 1) << 4);  // 1 | 16
    mb_expect_tx(&b2, 64);                         // phase 2 waits for 64 bytes as well
    mb_arrive_cluster(&b2);                        // .shared::cluster: the CTA's own object
    rec[9] = mb_test_parity(&b2, 0);               // 0: phase 2 is the current one
    mb_complete_tx(&b2, 64);
    rec[10] = mb_test_parity(&b2, 0);              // 1
    mb_inval(&b2);
  }
}
'''

CP_NOINC = HELPERS + r'''
// The cp.async path of memcpy_async on a barrier: each thread's copy arrives for it (.noinc).
extern "C" __global__ void noinc(const int* x, int* y, unsigned* rec) {
  __shared__ int s[64];
  __shared__ u64 bar;
  int t = threadIdx.x;
  if (t == 0) mb_init(&bar, blockDim.x);
  __syncthreads();
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(sa(&s[t])), "l"(x + t) : "memory");
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(sa(&bar)) : "memory");
  mb_wait_parity(&bar, 0);
  y[t] = s[blockDim.x - 1 - t];
  if (t == 0) rec[0] = mb_test_parity(&bar, 1);
}
'''

BULK_STORE = HELPERS + r'''
extern "C" __global__ void bstore(float* y) {
  __shared__ alignas(128) float s[256];
  int t = threadIdx.x;
  s[t] = t * 0.5f + blockIdx.x;
  fence_async();
  __syncthreads();
  if (t == 0) { bulk_s2g(y + blockIdx.x * 256, s, 1024); bulk_commit_wait(); }
}
'''

BAD_BULK = HELPERS + r'''
extern "C" __global__ void bad(const float* x, float* y, int shift, unsigned nbytes) {
  __shared__ alignas(128) float s[256];
  __shared__ u64 bar;
  int t = threadIdx.x;
  if (t == 0) { mb_init(&bar, 1); fence_async(); }
  __syncthreads();
  if (t == 32) {
    int sh = blockIdx.x == 1 ? shift : 0;
    unsigned n = blockIdx.x == 1 ? nbytes : 1024u;
    mb_arrive_tx(&bar, n);
    bulk_g2s(s, x + sh, n, &bar);
  }
  mb_wait_parity(&bar, 0);
  y[blockIdx.x * 64 + t] = s[t];
}
'''

MISUSE = HELPERS + r'''
extern "C" __global__ void misuse(int what, unsigned* rec) {
  __shared__ u64 bar;
  if (threadIdx.x == 3) {
    if (what == 0) rec[0] = (unsigned)mb_arrive(&bar, 1);          // never initialized
    if (what == 1) { mb_init(&bar, 2); rec[0] = (unsigned)mb_arrive_nc(&bar, 2); }  // .noComplete completes
    if (what == 2) { mb_init(&bar, 2); mb_arrive(&bar, 3); }       // more arrivals than pending
    if (what == 3) { mb_init(&bar, 1); mb_inval(&bar); rec[0] = mb_test_parity(&bar, 0); }
  }
}
'''

MAPA = HELPERS + r'''
// A cluster of 2: each CTA's thread 0 arrives on its partner's mbarrier (mapa), then every thread
// of the CTA waits on its own one, which only the partner completes.
extern "C" __global__ void __cluster_dims__(2, 1, 1) remote(unsigned* rec) {
  __shared__ u64 bar;
  __shared__ unsigned value;
  if (threadIdx.x == 0) { mb_init(&bar, 1); value = 0; }
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (threadIdx.x == 0) {
    unsigned peer_bar, peer_val, rank;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(peer_bar) : "r"(sa(&bar)), "r"(rank ^ 1u));
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(peer_val) : "r"(sa(&value)), "r"(rank ^ 1u));
    asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(peer_val), "r"(100u + blockIdx.x) : "memory");
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0], 1;" :: "r"(peer_bar) : "memory");
  }
  while (!mb_test_parity(&bar, 0)) { }
  rec[blockIdx.x * blockDim.x + threadIdx.x] = value;
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
'''

SPLIT = HELPERS + r'''
// Thread t arrives c[t] times in round r[t] (rounds separated by __syncthreads); the counts add up
// to the barrier's expected count.
extern "C" __global__ void split(const unsigned* c, const unsigned* r, unsigned n, unsigned* rec) {
  __shared__ u64 bar;
  int t = threadIdx.x;
  if (t == 0) mb_init(&bar, n);
  __syncthreads();
  for (unsigned round = 0; round < 3; ++round) {
    if (r[t] == round && c[t] > 0) rec[8 + t] = mb_pending(mb_arrive(&bar, c[t]));
    __syncthreads();
  }
  if (t == 0) {
    rec[0] = mb_test_parity(&bar, 0);
    rec[1] = mb_test_parity(&bar, 1);
    rec[2] = n > 1 ? mb_pending(mb_arrive_nc(&bar, 1)) : n;
  }
}
'''

_modules: dict[str, object] = {}


def _fn(src: str, name: str):
    if src not in _modules:
        _modules[src] = sg.RawModule(code=src)
    return _modules[src].get_function(name)


def _both(run):
    """run() under each engine: [(reference result), (fast result)]."""
    out = []
    for engine in ("reference", "fast"):
        with sg.use_engine(engine):
            out.append(run())
    return out


def _same_report(a, b) -> None:
    keys = set(a.metrics) | set(b.metrics)
    bad = [k for k in keys if not (a.metrics.get(k) == b.metrics.get(k)
                                   or (a.metrics.get(k) != a.metrics.get(k) and b.metrics.get(k) != b.metrics.get(k)))]
    assert not bad, f"metrics differ between the engines: {sorted(bad)[:5]}"
    assert a.per_pc == b.per_pc


# ------------------------------------------------------------------------------------------ cuda::barrier
@pytest.mark.parametrize("src,want", [
    (BARRIER_MEMCPY, lambda x: x.reshape(4, 256)[:, ::-1].ravel() + 1),
    (BARRIER_BULK, lambda x: x * 3),
], ids=["cooperative_memcpy_async", "bulk_copy"])
def test_cuda_barrier_kernels(src, want):
    f = _fn(src, "k")
    x = np.arange(1024, dtype=np.float32)

    def run():
        dy = sg.zeros(1024, np.float32)
        report = f((4,), (256,), (sg.asarray(x), dy))
        return dy.get(), report

    (y_ref, r_ref), (y_fast, r_fast) = _both(run)
    assert np.array_equal(y_ref, want(x))
    assert np.array_equal(y_fast, want(x))
    _same_report(r_ref, r_fast)


def test_bulk_copy_counters():
    """As the H200 counted them (validation/typical8's tma_bulk_scale): the bulk copy's reads are L2
    tex reads but no L1TEX requests, sectors or lookups, and mbarrier operations add no shared
    wavefronts and are outside the SASS instruction classes."""
    f = _fn(BARRIER_BULK, "k")
    x = np.arange(1024, dtype=np.float32)
    dy = sg.zeros(1024, np.float32)
    m = f((4,), (256,), (sg.asarray(x), dy)).metrics
    assert m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 0
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 0
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"] == 0
    assert m["lts__t_sectors_srcunit_tex_op_read.sum"] == 4 * 1024 / 32
    assert m["dram__bytes_read.sum"] >= 1024 * 4  # x came from DRAM
    assert m["smsp__sass_inst_executed_op_global_ld.sum"] == 0
    assert m["smsp__sass_inst_executed_op_ldgsts.sum"] == 0
    assert m["smsp__sass_inst_executed_op_shared_atom.sum"] == 0
    assert m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"] == 0


# ------------------------------------------------------------------------------------------ hand-written PTX
def test_two_stage_pipeline_phase_parity():
    f = _fn(PIPELINE, "pipe")
    n, iters = 128, 7
    x = (np.arange(iters * n, dtype=np.int32) * 7) % 1000

    def run():
        acc, flags = sg.zeros(n, np.int32), sg.zeros(iters * n, np.uint32)
        report = f((1,), (n,), (sg.asarray(x), acc, flags, np.int32(iters)))
        return acc.get(), flags.get(), report

    results = _both(run)
    for acc, flags, _ in results:
        xs = x.reshape(iters, n)
        assert np.array_equal(acc, np.roll(xs, -1, axis=1).sum(axis=0))
        assert np.all(flags == 1)  # old parity complete, new parity not yet
    _same_report(results[0][2], results[1][2])


def test_expect_tx_and_bulk_bytes_complete_the_phase():
    f = _fn(EXPECT_TX, "etx")
    x = np.arange(512, dtype=np.float32) - 100

    def run():
        y, rec = sg.zeros(512, np.float32), sg.zeros(8, np.uint32)
        report = f((2,), (256,), (sg.asarray(x), y, rec))
        return y.get(), rec.get(), report

    (y1, rec1, r1), (y2, rec2, r2) = _both(run)
    for y, rec in ((y1, rec1), (y2, rec2)):
        assert np.array_equal(y, x * 2)
        assert list(rec[:5]) == [0, 1, 0, 1, 1]  # parity 0 complete, parity 1 not
    _same_report(r1, r2)


def test_try_wait_is_false_before_the_last_arrival():
    f = _fn(EARLY, "early")
    n = 64

    def run():
        rec = sg.zeros(2 * n, np.uint32)
        f((1,), (n,), (rec,))
        return rec.get()

    for rec in _both(run):
        # warp 0's lanes arrive in lane order: pending before each is 64 - lane; not complete yet
        assert list(rec[:32]) == [(64 - t) << 8 for t in range(32)]
        assert list(rec[32:64]) == [(32 - t) << 8 for t in range(32)]
        assert np.all(rec[n:n + 32] == 1 | 2)  # then complete: the state's phase and parity 0; parity 1 not


def test_pending_count_arrive_drop_expect_and_complete_tx():
    f = _fn(PENDING, "pend")

    def run():
        rec = sg.zeros(16, np.uint32)
        f((1,), (32,), (rec,))
        return rec.get()

    for rec in _both(run):
        assert list(rec[:11]) == [100, 70, 0, 50, 3, 100, 2, 1 | 16, 1 | 16, 0, 1]


def test_cp_async_mbarrier_arrive_noinc():
    f = _fn(CP_NOINC, "noinc")
    x = np.arange(64, dtype=np.int32) * 3

    def run():
        y, rec = sg.zeros(64, np.int32), sg.zeros(1, np.uint32)
        f((1,), (64,), (sg.asarray(x), y, rec))
        return y.get(), rec.get()

    for y, rec in _both(run):
        assert np.array_equal(y, x[::-1])
        assert rec[0] == 0  # exactly one phase: the 64 copies' arrivals


def test_bulk_group_store():
    f = _fn(BULK_STORE, "bstore")

    def run():
        y = sg.zeros(3 * 256, np.float32)
        report = f((3,), (256,), (y,))
        return y.get(), report

    (y1, r1), (y2, r2) = _both(run)
    want = (np.arange(256, dtype=np.float32)[None, :] * 0.5 + np.arange(3)[:, None]).ravel()
    assert np.array_equal(y1, want) and np.array_equal(y2, want)
    assert r1.metrics["lts__t_sectors_srcunit_tex_op_write.sum"] == 3 * 1024 / 32
    _same_report(r1, r2)


@pytest.mark.parametrize("shift,nbytes,what", [
    (1, 1024, "global source address 0x[0-9a-f]+ is not 16-byte aligned"),
    (0, 100, "size 100 is not a multiple of 16 bytes"),
    (0, 2048, "shared destination 0x[0-9a-f]+ \\+ 2048 bytes is past the block's"),
    (1020, 1024, "out-of-bounds bulk copy"),
])
def test_bad_bulk_copy_names_kernel_line_block_and_thread(shift, nbytes, what):
    f = _fn(BAD_BULK, "bad")
    x, y = sg.asarray(np.zeros(1024, np.float32)), sg.zeros(256, np.float32)
    with pytest.raises(KernelRuntimeError, match=what) as e:
        f((2,), (64,), (x, y, np.int32(shift), np.uint32(nbytes)))
    msg = str(e.value)
    assert "kernel bad" in msg and "PTX line" in msg and "cp.async.bulk" in msg
    assert "block (1, 0, 0), thread (32, 0, 0)" in msg


@pytest.mark.parametrize("what,match", [
    (0, "not initialized"), (1, ".noComplete arrive would complete the phase"),
    (2, "more arrivals than the mbarrier expects"), (3, "not initialized .* or was invalidated"),
])
def test_undefined_mbarrier_use_is_an_error(what, match):
    f = _fn(MISUSE, "misuse")
    with pytest.raises(KernelRuntimeError, match=match) as e:
        f((1,), (32,), (np.int32(what), sg.zeros(4, np.uint32)))
    assert "kernel misuse" in str(e.value) and "thread (3, 0, 0)" in str(e.value)


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_an_arrive_on_another_ctas_barrier(engine):
    """Distributed shared memory: a store and an mbarrier arrive on the partner CTA's shared memory."""
    rec = sg.zeros(4 * 64, np.uint32)
    with sg.use_engine(engine):
        _fn(MAPA, "remote")((4,), (64,), (rec,))
    assert rec.get().reshape(4, 64).tolist() == [[100 + (b ^ 1)] * 64 for b in range(4)]


def test_refused_forms_say_why():
    hdr = ".version 8.0\n.target sm_90\n.address_size 64\n"
    body = ("{\n .reg .b32 %r<4>; .reg .b64 %rd<4>;\n .shared .align 16 .b8 s[256];\n .shared .align 8 .b64 bar;\n"
            " mov.u32 %r1, s; mov.u32 %r2, bar; mov.u64 %rd1, 0;\n {ins}\n ret;\n}\n")
    cases = {
        "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [%r1], 16, %r3;": "cp_mask",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1], 16, "
        "[%r2], 3;": "distributed shared memory",
        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r1], [%r1], 16, [%r2];":
            "distributed shared memory",
    }
    for ins, match in cases.items():
        src = hdr + ".visible .entry t()\n" + body.replace("{ins}", ins)
        with pytest.raises(UnsupportedInstructionError, match=match):
            sg.RawModule(ptx=src).get_function("t")((1,), (32,), ())


# ------------------------------------------------------------------------------------------ properties
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_n_arrivals_in_any_split_complete_exactly_one_phase(data):
    threads = data.draw(st.sampled_from([32, 64, 96]))
    counts = data.draw(st.lists(st.integers(0, 5), min_size=threads, max_size=threads))
    if sum(counts) == 0:
        counts[0] = 1
    rounds = data.draw(st.lists(st.integers(0, 2), min_size=threads, max_size=threads))
    n = sum(counts)
    f = _fn(SPLIT, "split")
    rec = sg.zeros(8 + threads, np.uint32)
    f((1,), (threads,), (sg.asarray(np.array(counts, np.uint32)), sg.asarray(np.array(rounds, np.uint32)),
                         np.uint32(n), rec))
    got = rec.get()
    assert list(got[:3]) == [1, 0, n]  # phase 0 complete, phase 1 not, and it starts with all n pending
    # each arrival saw the pending count left by those before it: rounds in order, lanes in order
    pending = n
    for t in sorted(range(threads), key=lambda t: (rounds[t], t)):
        if counts[t]:
            assert got[8 + t] == pending
            pending -= counts[t]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_vectorised_arrivals_equal_one_at_a_time(data):
    n_obj = data.draw(st.integers(1, 3))
    objs = []
    for _ in range(n_obj):
        e = data.draw(st.integers(1, 40))
        p = data.draw(st.integers(1, e))
        tx = data.draw(st.sampled_from([0, 0, 0, 16, -32]))
        objs.append(int(mb.encode(p, e, tx, data.draw(st.integers(0, 1)))))
    keys = np.array(data.draw(st.lists(st.integers(0, n_obj - 1), min_size=1, max_size=60)), np.int64)
    counts = np.array(data.draw(st.lists(st.integers(1, 6), min_size=len(keys), max_size=len(keys))), np.int64)
    words = np.array(objs, np.uint64)
    states, completes, bad = mb.arrive_all(words, keys, counts)
    seq, want_states, want_completes, first_bad = list(objs), [], [], -1
    for i, (k, c) in enumerate(zip(keys, counts)):
        try:
            w, s = mb.apply_op(seq[k], "arrive", int(c))
        except mb.MbarrierFault:
            first_bad = i
            break
        want_states.append(s)
        want_completes.append(mb.decode(np.uint64(w))[3] != mb.decode(np.uint64(seq[k]))[3])
        seq[k] = w
    assert bad == first_bad
    if bad >= 0:  # the first undefined arrival: the objects are left as they were
        assert [int(w) for w in words] == objs
        return
    assert [int(s) for s in states] == want_states
    assert list(completes) == want_completes
    assert [int(w) for w in words] == seq


def test_tensor_map_tma_is_named_not_a_parse_error():
    """cp.async.bulk.tensor's [tensorMap, {coords}] operand used to stop the parser with
    "unexpected ',' in an address"."""
    ptx = (".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry t(.param .u64 tm)\n{\n"
           " .reg .b32 %r<4>; .reg .b64 %rd<4>;\n .shared .align 128 .b8 s[4096];\n .shared .align 8 .b64 bar;\n"
           " ld.param.u64 %rd1, [tm];\n mov.u32 %r1, s; mov.u32 %r2, bar; mov.u32 %r3, 0;\n"
           " cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r3, %r3}],"
           " [%r2];\n ret;\n}\n")
    with pytest.raises(UnsupportedInstructionError, match=r"PTX line 11: cp.async.bulk.tensor.*tensor-map TMA"):
        sg.RawModule(ptx=ptx)
