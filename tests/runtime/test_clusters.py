"""Thread-block clusters (__cluster_dims__) and launch bounds: the cluster registers follow the
kernel's declared cluster shape in both engines, a launch the driver would refuse is refused, and
cluster barriers and distributed shared memory work as on the GPU."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg

CLUSTER_REGS = r'''
__device__ unsigned sreg_rank() { unsigned r; asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ unsigned sreg_nrank() { unsigned r; asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(r)); return r; }
__device__ unsigned sreg_cid_x() { unsigned r; asm("mov.u32 %0, %%clusterid.x;" : "=r"(r)); return r; }
__device__ unsigned sreg_cid_y() { unsigned r; asm("mov.u32 %0, %%clusterid.y;" : "=r"(r)); return r; }
__device__ unsigned sreg_cta_x() { unsigned r; asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(r)); return r; }
__device__ unsigned sreg_cta_y() { unsigned r; asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(r)); return r; }
__device__ unsigned sreg_ncl_y() { unsigned r; asm("mov.u32 %0, %%nclusterid.y;" : "=r"(r)); return r; }
__device__ unsigned sreg_explicit() { unsigned r; asm("mov.u32 %0, %%is_explicit_cluster;" : "=r"(r)); return r; }
__device__ void record(unsigned* out) {
    if (threadIdx.x != 0) return;
    unsigned* o = out + 8 * (blockIdx.y * gridDim.x + blockIdx.x);
    o[0] = sreg_rank(); o[1] = sreg_nrank(); o[2] = sreg_cid_x(); o[3] = sreg_cid_y();
    o[4] = sreg_cta_x(); o[5] = sreg_cta_y(); o[6] = sreg_ncl_y(); o[7] = sreg_explicit();
}
extern "C" __global__ void __cluster_dims__(2, 2, 1) in_clusters(unsigned* out) { record(out); }
extern "C" __global__ void no_clusters(unsigned* out) { record(out); }
'''


def _registers(kernel: str, engine: str) -> np.ndarray:
    k = sg.RawModule(code=CLUSTER_REGS).get_function(kernel)
    out = sg.zeros(4 * 6 * 8, np.uint32)
    with sg.use_engine(engine):
        k((4, 6), (32,), (out,), timing=False)
    return out.get().reshape(6, 4, 8)  # [blockIdx.y, blockIdx.x, register]


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_cluster_registers_follow_the_declared_shape(engine):
    got = _registers("in_clusters", engine)
    for y in range(6):
        for x in range(4):
            cx, cy = x % 2, y % 2
            assert list(got[y, x]) == [cx + 2 * cy, 4, x // 2, y // 2, cx, cy, 3, 1], (x, y)


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_without_clusters_every_cta_is_a_cluster_of_one(engine):
    got = _registers("no_clusters", engine)
    for y in range(6):
        for x in range(4):
            assert list(got[y, x]) == [0, 1, x, y, 0, 0, 6, 0], (x, y)


def test_a_grid_that_clusters_do_not_tile_is_refused():
    k = sg.RawModule(code=CLUSTER_REGS).get_function("in_clusters")
    with pytest.raises(sg.LaunchError, match=r"grid \(3, 6, 1\) is not a whole number of clusters \(2, 2, 1\)"):
        k((3, 6), (32,), (sg.zeros(3 * 6 * 8, np.uint32),))


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_distributed_shared_memory_swap(engine):
    """cl.sync() (barrier.cluster.arrive.release + wait.acquire) and map_shared_rank (mapa.u64 on a
    generic address): each CTA reads its partner's shared variable."""
    src = r'''#include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    extern "C" __global__ void __cluster_dims__(2, 1, 1) swap(int* out) {
        __shared__ int s;
        cg::cluster_group cl = cg::this_cluster();
        if (threadIdx.x == 0) s = blockIdx.x * 10 + 1;
        cl.sync();
        if (threadIdx.x == 0) out[blockIdx.x] = *cl.map_shared_rank(&s, cl.block_rank() ^ 1);
        cl.sync();  // the partner's shared memory lives until both are done
    }'''
    out = sg.zeros(8, np.int32)
    with sg.use_engine(engine):
        sg.RawKernel(src, "swap")((8,), (32,), (out,))
    assert out.get().tolist() == [(b ^ 1) * 10 + 1 for b in range(8)]


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_getctarank_names_the_cta_that_owns_a_shared_address(engine):
    """getctarank (generic: __cluster_query_shared_rank; .shared::cluster: inline PTX) gives back
    the rank mapa was given, and the CTA's own rank for its own shared memory."""
    src = r'''#include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    extern "C" __global__ void __cluster_dims__(4, 1, 1) ranks(unsigned* out) {
        __shared__ int s;
        cg::cluster_group cl = cg::this_cluster();
        unsigned me = cl.block_rank(), peer = (me + threadIdx.x) % 4;
        unsigned own = __cluster_query_shared_rank(&s);
        unsigned mapped = __cluster_query_shared_rank(cl.map_shared_rank(&s, peer));
        unsigned sa = (unsigned)__cvta_generic_to_shared(&s), remote, r;
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(sa), "r"(peer));
        asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(r) : "r"(remote));
        unsigned* o = out + 3 * (blockIdx.x * 4 + threadIdx.x);
        o[0] = own; o[1] = mapped; o[2] = r;
    }'''
    out = sg.zeros(8 * 4 * 3, np.uint32)
    with sg.use_engine(engine):
        sg.RawKernel(src, "ranks")((8,), (4,), (out,), timing=False)
    got = out.get().reshape(8, 4, 3)
    for b in range(8):
        for t in range(4):
            assert got[b, t].tolist() == [b % 4, (b % 4 + t) % 4, (b % 4 + t) % 4], (b, t)


CLUSTER_SUM = r'''#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(4, 1, 1) csum(const int* x, int* out, int* ranks) {
    __shared__ int s[96];
    cg::cluster_group cl = cg::this_cluster();
    s[threadIdx.x] = x[blockIdx.x * 96 + threadIdx.x];
    cl.sync();
    int acc = 0;
    for (unsigned q = 0; q < cl.num_blocks(); ++q) acc += cl.map_shared_rank(s, q)[threadIdx.x];
    if (threadIdx.x < 32) atomicAdd(cl.map_shared_rank(&s[threadIdx.x], 0), 1);  // DSMEM atomics to rank 0
    cl.sync();
    out[blockIdx.x * 96 + threadIdx.x] = acc;
    if (threadIdx.x < 32 && cl.block_rank() == 0) ranks[(blockIdx.x / 4) * 32 + threadIdx.x] = s[threadIdx.x];
}'''


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_cluster_reduction_through_distributed_shared_memory(engine):
    """Every CTA sums one element over its cluster of 4 from the others' shared memory; 4 x 32 lanes
    add 1 to rank 0's first 32 words (atomics on another CTA's shared memory). 2,800 CTAs of 3 warps
    take two waves, and the engine's 8,192-warp wave (2,730 CTAs) would split a cluster were the
    waves not rounded to whole clusters."""
    blocks = 700 * 4
    x = np.random.default_rng(1).integers(0, 100, blocks * 96).astype(np.int32)
    out, ranks = sg.zeros(blocks * 96, np.int32), sg.zeros(blocks // 4 * 32, np.int32)
    with sg.use_engine(engine):
        rep = sg.RawKernel(CLUSTER_SUM, "csum")((blocks,), (96,), (sg.asarray(x), out, ranks))
    sums = x.reshape(-1, 4, 96).sum(1)
    np.testing.assert_array_equal(out.get().reshape(-1, 4, 96), np.repeat(sums[:, None, :], 4, 1))
    np.testing.assert_array_equal(ranks.get().reshape(-1, 32), x.reshape(-1, 4, 96)[:, 0, :32] + 4)
    assert rep.metrics["launch__waves_per_multiprocessor"] > 1


def test_cluster_barrier_waits_for_every_cta_of_the_cluster():
    """Rank 1 publishes only after a long loop; rank 0 reads it after cl.sync(): without the wait it
    would read 0."""
    src = r'''#include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    extern "C" __global__ void __cluster_dims__(2, 1, 1) late(const int* n, int* out) {
        __shared__ int s;
        cg::cluster_group cl = cg::this_cluster();
        if (cl.block_rank() == 1 && threadIdx.x == 0) { int a = 0; for (int i = 0; i < n[0]; ++i) a += i; s = a; }
        cl.sync();
        if (cl.block_rank() == 0 && threadIdx.x == 0) out[blockIdx.x / 2] = *cl.map_shared_rank(&s, 1);
        cl.sync();
    }'''
    out = sg.zeros(2, np.int32)
    sg.RawKernel(src, "late")((4,), (64,), (sg.asarray(np.array([300], np.int32)), out))
    assert out.get().tolist() == [sum(range(300))] * 2


def test_a_rank_past_the_cluster_is_a_clear_error():
    src = r'''#include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    extern "C" __global__ void __cluster_dims__(2, 1, 1) bad(int* out, int r) {
        __shared__ int s;
        cg::cluster_group cl = cg::this_cluster();
        s = 1;
        cl.sync();
        out[blockIdx.x] = *cl.map_shared_rank(&s, r);
    }'''
    with pytest.raises(sg.KernelRuntimeError, match=r"names a CTA rank past the cluster's 2 .*kernel bad"):
        sg.RawKernel(src, "bad")((2,), (32,), (sg.zeros(2, np.int32), np.int32(5)))


def test_launch_bounds_are_enforced():
    src = r'''extern "C" __global__ void __launch_bounds__(128) small(float* y) { y[threadIdx.x] = 1.f; }'''
    k = sg.RawKernel(src, "small")
    y = sg.zeros(256, np.float32)
    k((1,), (128,), (y,))
    with pytest.raises(sg.LaunchError, match=r"256 threads, more than its __launch_bounds__ allow \(128"):
        k((1,), (256,), (y,))
