"""Cooperative launches (CuPy's enable_cooperative_groups): cooperative groups' grid.sync() finds
its workspace through %envreg1/%envreg2, every CTA is resident at once, and a grid too big to be
resident is refused as CUDA refuses it."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg
from simgpu.errors import KernelRuntimeError, LaunchError
from simgpu.runtime.device import current_gpu

GRID_SYNC = r'''
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void k(int* count, int* seen) {
  auto g = cg::this_grid();
  for (int r = 0; r < 3; ++r) {
    if (threadIdx.x == 0) atomicAdd(count + r, 1);
    g.sync();  // every block's add of round r is visible after it
    if (threadIdx.x == 0) seen[r * gridDim.x + blockIdx.x] = *(volatile int*)(count + r);
  }
}'''


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_grid_sync_orders_every_round(engine):
    blocks = 200
    count, seen = sg.zeros(3, np.int32), sg.zeros(3 * blocks, np.int32)
    with sg.use_engine(engine):
        sg.RawModule(code=GRID_SYNC, enable_cooperative_groups=True).get_function("k")((blocks,), (128,),
                                                                                       (count, seen))
    assert count.get().tolist() == [blocks] * 3
    assert (seen.get() == blocks).all()


def test_a_full_gpu_of_warps_runs_as_one_wave():
    """2 blocks of 1,024 threads per SM x 132 SMs = 8,448 warps, past the engine's usual wave."""
    kernel = sg.RawKernel(GRID_SYNC, "k", enable_cooperative_groups=True)
    blocks = 2 * current_gpu().num_sms
    count, seen = sg.zeros(3, np.int32), sg.zeros(3 * blocks, np.int32)
    rep = kernel((blocks,), (1024,), (count, seen))
    assert (seen.get() == blocks).all()
    assert rep.metrics["launch__waves_per_multiprocessor"] == 1.0


def test_grid_sync_without_a_cooperative_launch_says_so():
    with pytest.raises(KernelRuntimeError, match="needs a cooperative launch"):
        sg.RawModule(code=GRID_SYNC).get_function("k")((4,), (32,), (sg.zeros(3, np.int32), sg.zeros(12, np.int32)))


def test_cooperative_launch_too_large_is_refused():
    with pytest.raises(LaunchError, match="cooperative launch of 1000 blocks.*cudaErrorCooperativeLaunchTooLarge"):
        sg.RawModule(code=GRID_SYNC, enable_cooperative_groups=True).get_function("k")(
            (1000,), (1024,), (sg.zeros(3, np.int32), sg.zeros(3000, np.int32)))
