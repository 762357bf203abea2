"""IEEE-rounded div / sqrt / rcp (ptxas's MUFU + Newton steps + a range check) take the latencies
benchmarks/microbench/sass_ops measured on the H200 (config lat_div_rn_f32 ... lat_rcp_rn_f64); the
approximate forms stay a MUFU (and an FMUL for a division)."""

import numpy as np
import pytest

import simgpu as sg
from simgpu.frontend.ptx.ast import Instruction
from simgpu.timing.config import default_config
from simgpu.timing.isa import classify

CFG = default_config()


def _lat(text: str) -> int:
    op, *mods = text.split(".")
    ins = Instruction(opcode=op, mods=tuple(mods), operands=(), guard=None, line=1, text=text)
    return classify(ins, 0, None, CFG)[2]


@pytest.mark.parametrize("text,field", [
    ("div.rn.f32", "lat_div_rn_f32"), ("div.rz.ftz.f32", "lat_div_rn_f32"), ("sqrt.rn.f32", "lat_sqrt_rn_f32"),
    ("rcp.rn.ftz.f32", "lat_rcp_rn_f32"), ("div.rn.f64", "lat_div_rn_f64"), ("sqrt.rn.f64", "lat_sqrt_rn_f64"),
    ("rcp.rn.f64", "lat_rcp_rn_f64"), ("rcp.approx.ftz.f64", "lat_mufu_f64_approx"),
])
def test_each_form_takes_its_measured_latency(text, field):
    assert _lat(text) == getattr(CFG, field)


def test_approximate_divisions_are_a_mufu_and_a_multiply():
    assert _lat("div.approx.f32") == _lat("div.full.f32") == CFG.lat_mufu + CFG.lat_fp32
    assert CFG.lat_div_rn_f32 > CFG.lat_mufu + CFG.lat_fp32


CHAIN = r"""
extern "C" __global__ void chain(T* out, T b, T c, int trips)
{
    T x = 1.5;
    for (int t = 0; t < trips; ++t) {
#pragma unroll
        for (int u = 0; u < 16; ++u) x = STEP;
    }
    out[threadIdx.x] = x;
}
"""


@pytest.mark.parametrize("t,step,field", [
    ("float", "x / b + c", "lat_div_rn_f32"), ("float", "sqrtf(x) + c", "lat_sqrt_rn_f32"),
    ("double", "x / b + c", "lat_div_rn_f64"), ("double", "1.0 / x + c", "lat_rcp_rn_f64"),
])
def test_a_dependent_chain_runs_at_the_measured_latency(t, step, field):
    """sass_ops' chains (one warp, b = 1.7, c = 0.5): the cycles 32 more trips of 16 steps take, per
    step, are the op's latency and the add's. The H200: 57.9 (div.rn.f32), 60.5 (sqrt.rn.f32),
    123.7 (div.rn.f64), 79.5 (rcp.rn.f64)."""
    src = CHAIN.replace("STEP", step).replace("T ", f"{t} ").replace("T*", f"{t}*")
    k = sg.RawModule(code=src).get_function("chain")
    dt = np.float32 if t == "float" else np.float64
    add = CFG.lat_fp32 if t == "float" else CFG.lat_fp64
    out = sg.zeros(32, dt)
    cycles = [k((1,), (32,), (out, dt(1.7), dt(0.5), np.int32(n))).metrics["sm__cycles_elapsed.max"]
              for n in (32, 64)]
    # the loop's taken back edge (lat_branch_taken, once in 16 steps) adds up to 14 / 16 a step
    assert (cycles[1] - cycles[0]) / (32 * 16) == pytest.approx(getattr(CFG, field) + add + 0.4, abs=0.5)
