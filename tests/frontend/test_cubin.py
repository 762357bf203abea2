"""Registers and SASS size from NVRTC's cubin (frontend/cubin.py) and their use at launch."""

import numpy as np
import pytest

import simgpu as sg
from programs import get_program
from simgpu.frontend.cubin import read_cubin
from simgpu.frontend.nvrtc import compile_to_cubin
from simgpu.memory.config import memory_config_for

SRC = r"""
__device__ __noinline__ float helper(float x) { return x * x + 1.0f; }

extern "C" __global__ void small(float* out) { out[threadIdx.x] = threadIdx.x; }

extern "C" __global__ void unrolled(float* out, float a, float b)
{
    float x = threadIdx.x;
#pragma unroll
    for (int i = 0; i < 512; ++i) x = fmaf(x, a, b);
    out[threadIdx.x] = x;
}

extern "C" __global__ void calls(float* out) { out[threadIdx.x] = helper(out[threadIdx.x]); }
"""


def test_read_cubin_sizes_and_registers():
    facts = read_cubin(compile_to_cubin(SRC, arch="sm_90"))
    assert set(facts) == {"small", "unrolled", "calls"}
    for mc in facts.values():
        assert mc.code_bytes % 128 == 0 and mc.code_bytes > 0  # .text sections are 128-byte aligned
        assert 1 <= mc.registers <= 255
    # 512 dependent FFMAs are 512 SASS instructions of 16 bytes, more than the other kernels' code
    assert facts["unrolled"].code_bytes - facts["small"].code_bytes >= 512 * 16
    # helper is not inlined: its code counts for every kernel (a cold launch may fetch it)
    assert facts["calls"].code_bytes > 0


def test_read_cubin_refuses_what_is_not_a_cubin():
    with pytest.raises(ValueError, match="not a 64-bit"):
        read_cubin(b"not an ELF file at all")
    with pytest.raises(ValueError, match="malformed"):
        read_cubin(b"\x7fELF\x02\x01" + b"\0" * 58)


def test_launch_uses_ptxas_registers_and_code_size():
    kernel = sg.RawModule(code=SRC).get_function("unrolled")
    mc = kernel.machine_code
    out = sg.zeros(32, dtype=np.float32)
    rep = kernel((1,), (32,), (out, np.float32(1.0), np.float32(0.0)), timing=False)
    assert rep.registers_from == "ptxas" and "(ptxas, via NVRTC)" in str(rep)
    regs = max(mc.registers, sg.current_gpu().limits.min_registers_per_thread)
    assert rep.metrics["launch__registers_per_thread"] == regs == kernel.attributes["num_regs"]
    # the kernel reads no data: its DRAM reads are its code and the launch constants
    launch_sectors = memory_config_for(sg.current_gpu()).launch_fetch_sectors  # 76, measured
    assert rep.metrics["dram__sectors_read.sum"] == mc.code_bytes // 32 + launch_sectors
    rep = kernel((1,), (32,), (out, np.float32(1.0), np.float32(0.0)), timing=False, registers=40)
    assert rep.registers_from == "given" and rep.metrics["launch__registers_per_thread"] == 40


def test_a_ptx_module_estimates_registers():
    ptx = sg.RawModule(code=SRC).ptx
    kernel = sg.RawModule(ptx=ptx).get_function("small")
    assert kernel.machine_code is None
    rep = kernel((1,), (32,), (sg.zeros(32, dtype=np.float32),), timing=False)
    assert rep.registers_from == "estimated" and "estimated from the PTX" in str(rep)


@pytest.mark.parametrize("program, kernel, h200", [("gemm_regblock", "gemm_regblock", 55),
                                                   ("flash_attn", "flash_attn_fwd", 167)])
def test_program_registers_are_close_to_what_the_h200_ran(program, kernel, h200):
    """ncu's launch__registers_per_thread on the H200 (validation/h200_2026-11-29.json); the PTX
    estimate was 72 and 172. NVRTC versions differ a little, hence the margin."""
    name, rep = get_program(program).run().launches[0]
    assert name == kernel and rep.registers_from == "ptxas"
    assert abs(rep.registers_per_thread - h200) <= 4
