"""A CTA's global stores leave on its own write path, a sector a cycle and a line at least two
(benchmarks/microbench/l2_writes): one CTA storing whole lines takes ~4 cycles per warp store, 32
one-sector lines ~64; with the path switched off the L1 data path alone would allow ~1."""

import numpy as np

import simgpu as sg

SRC = r"""
#define ST(k) asm volatile("st.global.f32 [%0], %1;" :: "l"(p + (size_t)(8 * i + k) * 32 * stride), "f"(v));
extern "C" __global__ void fresh(float* buf, int stride, int iters, int span)
{   // every warp its own region, 8 stores a trip, each to new lines
    float* p = buf + (size_t)(threadIdx.x / 32) * span + (threadIdx.x % 32) * stride;
    float v = (float)threadIdx.x;
    for (int i = 0; i < iters; ++i) { ST(0) ST(1) ST(2) ST(3) ST(4) ST(5) ST(6) ST(7) }
}
"""
WARPS = 8


def _per_store(stride: int) -> float:
    kernel = sg.RawModule(code=SRC).get_function("fresh")

    def cycles(iters: int) -> int:
        span = 8 * iters * 32 * stride + 64
        buf = sg.zeros(WARPS * span, np.float32)
        return kernel((1,), (32 * WARPS,), (buf, np.int32(stride), np.int32(iters), np.int32(span))).timing.cycles

    return (cycles(24) - cycles(8)) / (16 * 8 * WARPS)


def test_one_cta_stores_a_sector_a_cycle():
    whole, spread = _per_store(1), _per_store(32)
    assert 3.5 <= whole <= 4.6, whole
    assert 56.0 <= spread <= 70.0, spread


def test_without_the_write_path_stores_run_at_the_l1_rate(timing_override):
    timing_override(cta_store_queue_cycles=0)
    assert _per_store(1) <= 2.0
