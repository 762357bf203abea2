"""The L1TEX tag stage looks up two lines a cycle (benchmarks/microbench/l1_lines): L1-resident
loads whose 32 lanes touch 32 lines take 16 cycles each, four times the 4 of loads touching 8 lines,
although both touch 32 sectors."""

import numpy as np

import simgpu as sg

SRC = r"""
#define LD(j) asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p + ((i + j) & 7) * 32)); s += v;
extern "C" __global__ void spread(const float* buf, float* out, int stride, int iters)
{   // 8 loads a trip, each shifted by whole lines (so as many lines as the first), none folded away
    const float* p = buf + (threadIdx.x / 32) * 2304 + (threadIdx.x % 32) * stride;
    float s = 0.f, v;
    for (int i = 0; i < iters; ++i) { LD(0) LD(1) LD(2) LD(3) LD(4) LD(5) LD(6) LD(7) }
    out[threadIdx.x] = s;
}
"""


def _cycles(stride: int, iters: int) -> int:
    kernel = sg.RawModule(code=SRC).get_function("spread")
    buf = sg.asarray(np.ones(16 * 2304, np.float32))
    out = sg.zeros(512, np.float32)
    return kernel((1,), (512,), (buf, out, np.int32(stride), np.int32(iters))).timing.cycles


def test_thirty_two_lines_cost_four_times_eight():
    # the difference between two trip counts leaves out the cold misses of the first trips
    per_load = {s: (_cycles(s, 48) - _cycles(s, 16)) / (32 * 8 * 16) for s in (8, 32)}
    assert 3.5 <= per_load[8] <= 4.6, per_load
    assert 15.0 <= per_load[32] <= 17.5, per_load
