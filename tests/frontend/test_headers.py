"""CUDA headers under NVRTC (frontend/nvrtc.default_include_dirs) and the inline PTX they carry:
`#include <cuda_fp16.h>` compiles without a CUDA toolkit (numba ships the header), and the `{ .reg
.f16 low; ... }` blocks of its inline asm, registers without a % in a nested scope, parse as
registers (frontend/ptx/parser.py)."""

import numpy as np

import simgpu as sg
from simgpu.frontend.nvrtc import default_include_dirs
from simgpu.frontend.ptx import parse_ptx
from simgpu.frontend.ptx.ast import Reg

HALF = r"""
#include <cuda_fp16.h>
extern "C" __global__ void half2_axpy(const __half2* __restrict__ x, __half2* y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __hfma2(__float2half2_rn(a), x[i], y[i]);
}
"""


def test_cuda_fp16_header_is_found_and_half2_runs():
    assert default_include_dirs(), "no directory with cuda_fp16.h (numba ships one)"
    rng = np.random.default_rng(1)
    n = 300
    x = rng.standard_normal(2 * n).astype(np.float16)
    y = rng.standard_normal(2 * n).astype(np.float16)
    dy = sg.asarray(y.view(np.uint32))
    k = sg.RawModule(code=HALF).get_function("half2_axpy")
    k((3,), (128,), (sg.asarray(x.view(np.uint32)), dy, np.float32(0.5), np.int32(n)), timing=False)
    want = (np.float16(0.5) * x + y).astype(np.float32)
    np.testing.assert_allclose(dy.get().view(np.float16).astype(np.float32), want, atol=2e-3, rtol=2e-3)


def test_registers_without_percent_in_a_nested_scope():
    ptx = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<2>;
    .reg .f32 %f<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    mov.f32 %f1, 0f3F800000;
    { .reg .f16 low;
      cvt.rn.f16.f32 low, %f1;
      mov.b32 %r1, {low, low}; }
    st.global.u32 [%rd1], %r1;
    ret;
}
"""
    fn = parse_ptx(ptx).functions["k"]
    cvt = next(ins for ins in fn.body if ins.opcode == "cvt")
    assert isinstance(cvt.operands[0], Reg) and cvt.operands[0].name in fn.registers
    out = sg.zeros(1, dtype=np.uint32)
    sg.RawModule(ptx=ptx).get_function("k")((1,), (1,), (out,), timing=False)
    assert out.get()[0] == 0x3C003C00  # two halves of 1.0


HSQRT = r"""
#include <cuda_fp16.h>
extern "C" __global__ void half_sqrt(const float* x, float* y, int n)
{   // hsqrt's inline asm declares `{.reg.b32 f; .reg.b16 r; ...}`: no space after .reg
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __half2float(hsqrt(__float2half(x[i])));
}
"""


def test_glued_register_declarations_parse():
    text = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n{.reg.b32 f;\n.reg.pred p;\n" \
           "mov.b32 f, 1;\nsetp.eq.u32 p, f, 1;\n}\nret;\n}\n"
    fn = parse_ptx(text).functions["k"]
    assert {"b32", "pred"} <= set(fn.registers.values())
    x = np.linspace(0.0, 9.0, 64, dtype=np.float32)
    y = sg.zeros(64, np.float32)
    sg.RawModule(code=HSQRT).get_function("half_sqrt")((1,), (64,), (sg.asarray(x), y, np.int32(64)))
    want = np.sqrt(x.astype(np.float16).astype(np.float32)).astype(np.float16).astype(np.float32)
    np.testing.assert_allclose(y.get(), want, rtol=1e-3)
