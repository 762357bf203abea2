"""Thread-block clusters (__cluster_dims__) and launch bounds: the cluster registers follow the
kernel's declared cluster shape in both engines, a launch the driver would refuse is refused, and
what simgpu does not run (cluster barriers, distributed shared memory) is named, never skipped."""

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


def test_cluster_barriers_and_distributed_shared_memory_are_named():
    src = r'''#include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    extern "C" __global__ void __cluster_dims__(2, 1, 1) swap(int* out) {
        __shared__ int s;
        cg::cluster_group cl = cg::this_cluster();
        if (threadIdx.x == 0) s = blockIdx.x;
        cl.sync();
        if (threadIdx.x == 0) out[blockIdx.x] = *cl.map_shared_rank(&s, cl.block_rank() ^ 1);
        cl.sync();
    }'''
    with pytest.raises(sg.UnsupportedInstructionError, match="thread-block clusters' barriers and distributed "
                                                             r"shared memory .*kernel swap"):
        sg.RawKernel(src, "swap")((2,), (32,), (sg.zeros(2, np.int32),))


def test_launch_bounds_are_enforced():
    src = r'''extern "C" __global__ void __launch_bounds__(128) small(float* y) { y[threadIdx.x] = 1.f; }'''
    k = sg.RawKernel(src, "small")
    y = sg.zeros(256, np.float32)
    k((1,), (128,), (y,))
    with pytest.raises(sg.LaunchError, match=r"256 threads, more than its __launch_bounds__ allow \(128"):
        k((1,), (256,), (y,))
