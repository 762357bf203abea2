"""The L1TEX takes an SM's sub-partitions' requests in turn and a scheduler issues first the warp
the LSU queue held back longest ago (config fair_lsu_arbitration, off by default): on the H200 sixteen warps that
each issue 32 loads of 32 lines, all on one bank (32 cycles each at the L1), all finish within a
few percent of each other (benchmarks/microbench/loads_in_flight burst: 15.3-16.7 thousand
cycles). Without it the first scheduler's greedy warp took every freed slot."""

import numpy as np

import simgpu as sg
from simgpu.timing.config import overridden

SRC = r"""
extern "C" __global__ void burst(const float* a, float* out)
{   // 32 independent loads a warp, the lanes 128 bytes apart: 32 lines on one bank
    const float* p = a + (threadIdx.x % 32) * 32;
    float v[32];
#pragma unroll
    for (int k = 0; k < 32; ++k) v[k] = __ldca(p + k * 1024);
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < 32; ++k) s += v[k];
    out[threadIdx.x] = s;
}
"""


def _warp_ends(fair: bool) -> np.ndarray:
    kernel = sg.RawModule(code=SRC).get_function("burst")
    a = sg.asarray(np.ones(32 * 1024, np.float32))
    out = sg.zeros(512, np.float32)
    with overridden(fair_lsu_arbitration=fair):
        rep = kernel((1,), (512,), (a, out))
    assert np.all(out.get() == 32.0)
    return rep.timing.timeline["warp_end"] - rep.timing.timeline["warp_start"]


def test_warps_held_back_by_the_lsu_queue_take_turns():
    fair, greedy = _warp_ends(True), _warp_ends(False)
    # the same L1TEX work (16 warps x 32 loads x 32 wavefronts) ends at about the same time ...
    assert abs(fair.max() - greedy.max()) < 0.05 * greedy.max()
    assert fair.max() >= 16 * 32 * 32
    # ... but in turn every warp is served to the end, where greedily the first ones ran alone
    assert fair.min() > 0.85 * fair.max(), (fair.min(), fair.max())
    assert greedy.min() < 0.3 * greedy.max(), (greedy.min(), greedy.max())
