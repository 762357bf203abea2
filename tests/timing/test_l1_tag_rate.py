"""An L1-resident warp load costs the L1TEX its bank wavefronts or a quarter of its lines, whichever is
more (benchmarks/microbench/l1_pending_hits): 32 lanes on rows 128 bytes apart all read one bank and
take 32 cycles a load on the H200, rows 132 bytes apart spread over the 32 banks and take 8.7 (their
32 lines, four a cycle at the tags), although both touch 32 lines of one sector."""

import numpy as np

import simgpu as sg

SRC = r"""
#define LD(j) asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p + ((i + j) & 7))); s += v;
extern "C" __global__ void rows(const float* buf, float* out, int pitch, int iters)
{   // 8 loads a trip, each a word further along every lane's own row (as many lines as the first)
    const float* p = buf + (threadIdx.x / 32) * 1280 + (threadIdx.x % 32) * pitch;
    float s = 0.f, v;
    // not unrolled: two trips would repeat one address register eight times, and ptxas loads each once
#pragma unroll 1
    for (int i = 0; i < iters; ++i) { LD(0) LD(1) LD(2) LD(3) LD(4) LD(5) LD(6) LD(7) }
    out[threadIdx.x] = s;
}
"""


def _cycles(pitch: int, iters: int) -> int:
    kernel = sg.RawModule(code=SRC).get_function("rows")
    buf = sg.asarray(np.ones(16 * 1280, np.float32))
    out = sg.zeros(512, np.float32)
    return kernel((1,), (512,), (buf, out, np.int32(pitch), np.int32(iters))).timing.cycles


def test_one_bank_costs_four_times_thirty_two_banks():
    # the difference between two trip counts leaves out the cold misses of the first trips
    per_load = {p: (_cycles(p, 48) - _cycles(p, 16)) / (32 * 8 * 16) for p in (32, 33)}
    assert 30.0 <= per_load[32] <= 34.0, per_load
    assert 7.5 <= per_load[33] <= 10.0, per_load
