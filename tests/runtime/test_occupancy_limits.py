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
