"""rsqrt / ex2 / lg2 / sqrt / rcp .approx.f32 without .ftz: ptxas guards the MUFU against subnormal
inputs with a predicate and two scaling FMULs, so a dependent chain of them runs at the measured
rsqrtf latency (config lat_mufu_guarded), not the bare MUFU's (benchmarks/microbench/warp_issue)."""

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


@pytest.mark.parametrize("op", ["rsqrt", "ex2", "lg2", "sqrt", "rcp"])
def test_guarded_ops_take_the_guarded_latency(op):
    assert _lat(f"{op}.approx.f32") == CFG.lat_mufu_guarded
    assert _lat(f"{op}.approx.ftz.f32") == CFG.lat_mufu
    assert CFG.lat_mufu_guarded > CFG.lat_mufu + 2 * CFG.lat_fp32  # FSETP, two FMULs around it


@pytest.mark.parametrize("text", ["tanh.approx.f32", "ex2.approx.f16", "ex2.approx.ftz.bf16"])
def test_unguarded_forms_take_the_mufu_latency(text):
    assert _lat(text) == CFG.lat_mufu


CHAIN = r"""
extern "C" __global__ void chain(float* out, float b, int trips)
{
    float x = threadIdx.x + 1.f;
    for (int t = 0; t < trips; ++t) {
#pragma unroll
        for (int u = 0; u < 16; ++u) x = rsqrtf(x) + b;
    }
    out[threadIdx.x] = x;
}
"""


@pytest.mark.parametrize("options,per_op", [((), CFG.lat_mufu_guarded + CFG.lat_fp32),
                                            (("-ftz=true",), CFG.lat_mufu + CFG.lat_fp32)])
def test_a_dependent_rsqrtf_chain_runs_at_its_latency(options, per_op):
    """One warp per sub-partition; the cycles 32 more trips of 16 (rsqrtf + add) take, per op.
    The H200: 43.25 cycles without -ftz, 23.1 with it (warp_issue rsqrtf_chain)."""
    k = sg.RawModule(code=CHAIN, options=options).get_function("chain")
    out = sg.zeros(128, np.float32)
    cycles = [k((1,), (128,), (out, np.float32(0.5), np.int32(t))).metrics["sm__cycles_elapsed.max"]
              for t in (32, 64)]
    assert (cycles[1] - cycles[0]) / (32 * 16) == pytest.approx(per_op, abs=0.5)
