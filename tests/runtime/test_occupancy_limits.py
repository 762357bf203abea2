"""ncu's four occupancy limits (launch__occupancy_limit_{blocks,warps,registers,shared_mem}), each on
its own, against what the H200 reported (benchmarks/microbench/{l2_capacity,l1_launch,l2_merge,
sass_probes}/results): (threads, registers, shared bytes per CTA, the configured carveout) ->
(blocks, warps, registers, shared memory)."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg
from simgpu.arch import get_preset
from simgpu.runtime.launch import occupancy_limits, shared_mem_limit

H200_REPORTED = [
    (1024, 16, 0, 8192, (32, 2, 4, 8)),
    (1024, 32, 0, 8192, (32, 2, 2, 8)),
    (256, 16, 0, 32768, (32, 8, 16, 32)),
    (256, 32, 2048, 65536, (32, 8, 8, 21)),
    (256, 18, 204800, 233472, (32, 8, 10, 1)),
    (256, 30, 0, 32768, (32, 8, 8, 32)),
    (128, 16, 2048, 102400, (32, 16, 32, 33)),
    (128, 18, 32, 32768, (32, 16, 21, 28)),
    (128, 16, 2064, 102400, (32, 16, 32, 32)),
    (128, 16, 8192, 167936, (32, 16, 32, 18)),
    (128, 16, 512, 65536, (32, 16, 32, 42)),
    (128, 27, 512, 65536, (32, 16, 16, 42)),
    (128, 22, 0, 32768, (32, 16, 21, 32)),
    (32, 32, 0, 32768, (32, 64, 64, 32)),
    (1024, 16, 102400, 233472, (32, 2, 4, 2)),
    (512, 24, 0, 16384, (32, 4, 5, 16)),
]


@pytest.mark.parametrize("threads,regs,smem,carveout,expected", H200_REPORTED)
def test_limits_as_ncu_reports_them(threads, regs, smem, carveout, expected):
    gpu = get_preset("h200")
    by = occupancy_limits(gpu, threads, regs, smem)
    got = (by["blocks"], by["warps"], by["registers"], shared_mem_limit(gpu, carveout, smem))
    assert got == expected


def test_a_launch_reports_all_four():
    k = sg.RawKernel('extern "C" __global__ void k(float* y) { __shared__ float s[8]; s[threadIdx.x & 7] = 1.f;'
                     ' __syncthreads(); y[threadIdx.x] = s[threadIdx.x & 7]; }', "k")
    y = sg.zeros(256, np.float32)
    m = k((1,), (256,), (y,), timing=False).metrics
    assert m["launch__occupancy_limit_blocks"] == 32 and m["launch__occupancy_limit_warps"] == 8
    per_cta = -(-(32 + 1024) // 128) * 128
    assert m["launch__occupancy_limit_shared_mem"] == m["launch__shared_mem_config_size"] // per_cta


SWEEP = r"""
extern "C" __global__ void touch(const int *__restrict__ buf, int *out) {
    if (buf[threadIdx.x] == 0x7fffffff) out[blockIdx.x] = 1;
}
"""


@pytest.mark.parametrize("percent, carveout_kb", [(-1, 32), (0, 32), (3, 32), (7, 32), (14, 32), (28, 64), (57, 132)])
def test_preferred_carveout_is_a_floor_on_the_drivers_choice(percent, carveout_kb):
    """kernel.preferred_shared_memory_carveout (CuPy's cudaFuncAttributePreferredSharedMemoryCarveout)
    on 132 CTAs of 32 threads without shared memory: the H200's driver kept its default 32 KB at 0-14 %
    and gave 64 KB at 28 %, 132 KB at 57 % (benchmarks/microbench/l1_geometry); the L1 gets the rest."""
    kernel = sg.RawModule(code=SWEEP).get_function("touch")
    kernel.preferred_shared_memory_carveout = percent
    r = kernel((132,), (32,), (sg.zeros(32, np.int32), sg.zeros(132, np.int32)))
    assert r.metrics["launch__shared_mem_config_size"] == carveout_kb * 1024
    assert kernel.attributes["preferred_shared_memory_carveout"] == percent


@pytest.mark.parametrize("bad", [101, -2, 2.5, True])
def test_preferred_carveout_out_of_range_is_refused_by_name(bad):
    kernel = sg.RawModule(code=SWEEP).get_function("touch")
    kernel.preferred_shared_memory_carveout = bad
    with pytest.raises(sg.LaunchError, match="touch: preferred_shared_memory_carveout must be"):
        kernel((1,), (32,), (sg.zeros(32, np.int32), sg.zeros(1, np.int32)))
