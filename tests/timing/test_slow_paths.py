"""PTX ops that ptxas compiles to a branch around a slow-path call (IEEE div / sqrt / rcp, 64-bit
integer div / rem) end a scheduling block (isa.slow_path_calls, config
schedule_slow_paths_end_blocks): a load after one cannot be hoisted above it."""

import numpy as np
import pytest

import simgpu as sg
from simgpu.timing.config import default_config, overridden
from simgpu.timing.isa import basic_blocks, slow_path_calls

CFG = default_config()

OPS = r"""
extern "C" __global__ void ops(const float* x, const double* y, float* o, double* p,
                               unsigned long long* q, unsigned* u)
{
    int t = threadIdx.x;
    o[t] = x[t] / x[t + 32];                          // div.rn.f32
    o[t + 32] = __fdividef(x[t], x[t + 64]);          // div.full.f32: a MUFU and a multiply
    o[t + 64] = sqrtf(x[t + 96]);                     // sqrt.rn.f32
    o[t + 96] = 1.0f / x[t + 128];                    // rcp.rn.f32
    o[t + 128] = __frsqrt_rn(x[t + 160]) + __expf(x[t]);  // MUFU ops, no call
    p[t] = y[t] / y[t + 32];                          // div.rn.f64
    q[t] = q[t] / q[t + 32];                          // div.u64 (behind NVVM's own 32-bit test)
    u[t] = u[t] / (u[t + 32] + 1u) + u[t + 64] % 7u;  // div / rem .u32: inline, no call
}
"""


def test_the_ops_with_a_slow_path_are_found_and_no_others():
    lk = sg.RawModule(code=OPS).get_function("ops").linked
    found = {(lk.instructions[pc].opcode, lk.instructions[pc].mods[-1]) for pc in slow_path_calls(lk)}
    assert found == {("div", "f32"), ("sqrt", "f32"), ("rcp", "f32"), ("div", "f64"), ("div", "u64")}
    for pc in slow_path_calls(lk):
        assert "approx" not in lk.instructions[pc].mods and "full" not in lk.instructions[pc].mods


def test_each_one_ends_its_block():
    lk = sg.RawModule(code=OPS).get_function("ops").linked
    ends = slow_path_calls(lk)
    blocks = basic_blocks(lk, ends=ends)
    for pc in ends:
        assert any(b == pc + 1 for _, b in blocks)
        assert not any(a <= pc < b - 1 for a, b in blocks)
    assert len(blocks) >= len(basic_blocks(lk)) + len(ends) - 1


LOADS = r"""
extern "C" __global__ void loads(const float* x, float* out)
{   // one warp: eight loads, each divided into the running value
    float s = 1.0f;
#pragma unroll
    for (int i = 0; i < 8; ++i) s = s / x[i * 4096 + threadIdx.x] + 1.0f;
    out[threadIdx.x] = s;
}
"""


@pytest.mark.parametrize("flag", [False, True])
def test_a_loop_of_loads_and_divisions_is_right_either_way(flag):
    k = sg.RawModule(code=LOADS).get_function("loads")
    x = np.random.default_rng(0).uniform(1.0, 2.0, 8 * 4096).astype(np.float32)
    out = sg.zeros(32, np.float32)
    with overridden(schedule_slow_paths_end_blocks=flag):
        k((1,), (32,), (sg.asarray(x), out))
    want = np.ones(32, np.float32)
    for i in range(8):
        want = want / x[i * 4096:i * 4096 + 32] + np.float32(1.0)
    np.testing.assert_allclose(out.get(), want, rtol=1e-6)


def test_loads_after_a_division_wait_for_it():
    """Without the rule the block scheduler issues all eight loads first and their DRAM latencies
    overlap; with it each load issues only after the division before it, so seven more DRAM round
    trips (lat_dram each, cold caches) lie on the lone warp's path."""
    k = sg.RawModule(code=LOADS).get_function("loads")
    x = sg.asarray(np.full(8 * 4096, 1.5, np.float32))
    cycles = {}
    for flag in (False, True):
        with overridden(schedule_slow_paths_end_blocks=flag):
            cycles[flag] = k((1,), (32,), (x, sg.zeros(32, np.float32))).metrics["simgpu__timing_cycles"]
    assert cycles[True] - cycles[False] >= 7 * (CFG.lat_dram - CFG.lat_div_rn_f32)
    assert cycles[True] - cycles[False] <= 8 * CFG.lat_dram
