"""Frontend: NVRTC output of real programs parses and links; errors name what and where; language
features that change the PTX shape (module variables, dynamic shared memory, local arrays, structs
by value, half precision, libdevice math) run correctly."""

from __future__ import annotations

import glob
import os

import numpy as np
import pytest

import simgpu as sg
from simgpu.frontend.nvrtc import compile_to_ptx
from simgpu.frontend.ptx.parser import parse_ptx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CALIB = "/work/shared/calibration/kernels.cu"
SOURCES = ([CALIB] if os.path.exists(CALIB) else []) + sorted(glob.glob(os.path.join(ROOT, "programs", "*.cu")))
HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n"


@pytest.mark.parametrize("path", SOURCES, ids=os.path.basename)
def test_real_sources_parse_and_link(path):
    with open(path) as f:
        src = f.read()
    ptx = compile_to_ptx(src)
    module = parse_ptx(ptx)
    entries = [fn for fn in module.functions.values() if fn.is_entry] if isinstance(module.functions, dict) else \
        [fn for fn in module.functions if fn.is_entry]
    assert entries, path
    mod = sg.RawModule(ptx=ptx)
    for fn in entries:
        mod.linked(fn.name)  # every instruction has a builder


def test_parse_error_names_line():
    ptx = HEADER + ".visible .entry k()\n{\n  .reg .b32 %r1;\n  mov.u32 %r1, 1\n  ret;\n}\n"
    with pytest.raises(sg.PTXParseError, match=r"line \d+"):
        sg.RawModule(ptx=ptx)
    with pytest.raises(sg.PTXParseError, match="line 4"):
        sg.RawModule(ptx=HEADER + "bogus_directive_here\n")


@pytest.mark.parametrize("instr,opcode", [
    ("frobnicate.b32 %r1, %r1;", "frobnicate"),
    # a valid PTX form simgpu does not run (1-bit matrices: wmma.load's .b1 fragments)
    ("wmma.load.a.sync.aligned.row.m8n8k128.global.b1 {%r1}, [%rd1];", "wmma.load"),
])
def test_unsupported_instruction_names_opcode_kernel_line(instr, opcode):
    ptx = (HEADER + ".visible .entry mykern(.param .u64 p)\n{\n  .reg .b32 %r1;\n  .reg .b64 %rd1;\n"
           "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 0;\n  " + instr + "\n  ret;\n}\n")
    line = ptx.splitlines().index("  " + instr) + 1
    with pytest.raises(sg.UnsupportedInstructionError) as exc:
        k = sg.RawModule(ptx=ptx).get_function("mykern")
        k((1,), (32,), (sg.zeros(1, np.int32),))
    msg = str(exc.value)
    assert opcode in msg and "mykern" in msg and f"line {line}" in msg, msg


def test_compile_error_carries_nvrtc_log():
    src = 'extern "C" __global__ void bad(int* x) {\n  x[0] = undefined_name;\n}\n'
    with pytest.raises(sg.CompileError) as exc:
        sg.RawModule(code=src)
    assert "undefined_name" in exc.value.log
    assert "(2)" in exc.value.log or ":2" in exc.value.log  # file:line of the error


def test_module_scope_device_variables():
    mod = sg.RawModule(code=r'''
    __device__ int counter;
    __device__ int table[3] = {10, 20, 30};
    __device__ float scale;
    extern "C" __global__ void usevars(const float* x, float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            y[i] = x[i] * scale + table[i % 3];
            atomicAdd(&counter, 1);
        }
    }''')
    np.testing.assert_array_equal(mod.get_global("table").view(np.int32).get(), [10, 20, 30])
    mod.get_global("scale").view(np.float32).set(np.array([2.5], np.float32))
    n = 50
    x = np.linspace(-2, 2, n).astype(np.float32)
    y = sg.zeros(n, np.float32)
    mod.get_function("usevars")((1,), (64,), (sg.asarray(x), y, np.int32(n)))
    np.testing.assert_allclose(y.get(), x * 2.5 + np.array([10, 20, 30])[np.arange(n) % 3], rtol=1e-6)
    assert int(mod.get_global("counter").view(np.int32).get()[0]) == n
    with pytest.raises(KeyError):
        mod.get_global("no_such_variable")


def test_module_scope_constant_variables():
    mod = sg.RawModule(code=r'''
    __constant__ float coeffs[4];
    extern "C" __global__ void poly(const float* x, float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) { float v = x[i]; y[i] = coeffs[0] + v * (coeffs[1] + v * (coeffs[2] + v * coeffs[3])); }
    }''')
    c = np.array([1.0, -2.0, 0.5, 0.25], np.float32)
    mod.get_global("coeffs").view(np.float32).set(c)  # the variable's bytes, viewed as float32
    n = 50
    x = np.linspace(-2, 2, n).astype(np.float32)
    y = sg.zeros(n, np.float32)
    mod.get_function("poly")((1,), (64,), (sg.asarray(x), y, np.int32(n)))
    np.testing.assert_allclose(y.get(), c[0] + x * (c[1] + x * (c[2] + x * c[3])), rtol=1e-5)


def test_extern_shared_dynamic():
    k = sg.RawModule(code=r'''
    extern "C" __global__ void rev(const int* x, int* y) {
        extern __shared__ int buf[];
        int t = threadIdx.x;
        buf[t] = x[blockIdx.x * blockDim.x + t];
        __syncthreads();
        y[blockIdx.x * blockDim.x + t] = buf[blockDim.x - 1 - t];
    }''').get_function("rev")
    x = np.arange(256, dtype=np.int32)
    y = sg.zeros(256, np.int32)
    k((2,), (128,), (sg.asarray(x), y), shared_mem=128 * 4)
    np.testing.assert_array_equal(y.get(), x.reshape(2, 128)[:, ::-1].reshape(-1))


def test_local_array_dynamic_index_and_struct_by_value():
    k = sg.RawModule(code=r'''
    struct Params { int a; float b; int idx[4]; };
    extern "C" __global__ void loc(const int* sel, int* out, float* fout, Params p) {
        int t = threadIdx.x;
        int arr[16];
        for (int j = 0; j < 16; ++j) arr[j] = j * j + t;
        out[t] = arr[sel[t] & 15] + p.idx[t & 3] * p.a;
        fout[t] = p.b * t;
    }''').get_function("loc")
    sel = np.random.default_rng(0).integers(0, 100, 32).astype(np.int32)
    out, fout = sg.zeros(32, np.int32), sg.zeros(32, np.float32)
    params = np.zeros(1, dtype=[("a", np.int32), ("b", np.float32), ("idx", np.int32, 4)])
    params["a"], params["b"], params["idx"] = 3, 0.5, [1, 2, 3, 4]
    k((1,), (32,), (sg.asarray(sel), out, fout, params[0]))
    t = np.arange(32)
    np.testing.assert_array_equal(out.get(), (sel & 15) ** 2 + t + np.array([1, 2, 3, 4])[t & 3] * 3)
    np.testing.assert_array_equal(fout.get(), 0.5 * t)


def test_cuda_fp16_header_or_raw_half():
    """cuda_fp16.h needs the CUDA headers, which plain NVRTC does not ship: check which case we are in."""
    src = r'''
    #include <cuda_fp16.h>
    extern "C" __global__ void h(const __half* x, __half* y) {
        int t = threadIdx.x; y[t] = __hadd(x[t], __hmul(x[t], x[t]));
    }'''
    try:
        mod = sg.RawModule(code=src)
    except sg.CompileError as e:
        assert "cuda_fp16.h" in e.log
        return
    x = np.linspace(-2, 2, 32).astype(np.float16)
    y = sg.zeros(32, np.float16)
    mod.get_function("h")((1,), (32,), (sg.asarray(x), y))
    np.testing.assert_array_equal(y.get(), x + x * x)


MATH = r'''
extern "C" __global__ void m(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    out[0 * n + i] = expf(v);
    out[1 * n + i] = logf(fabsf(v) + 1e-3f);
    out[2 * n + i] = sinf(v);
    out[3 * n + i] = powf(fabsf(v), 1.7f);
    out[4 * n + i] = sqrtf(fabsf(v));
    out[5 * n + i] = erff(v);
    out[6 * n + i] = tanhf(v);
    out[7 * n + i] = fmodf(v * 7.0f, 1.3f);
    out[8 * n + i] = cosf(v * 100.0f);
    out[9 * n + i] = (float)exp((double)v) ;
}
'''


def test_libdevice_math_functions():
    from math import erf
    n = 200
    x = np.concatenate([np.linspace(-10, 10, n - 8), [0.0, -0.0, 1e-7, 88.0, -87.0, 3.14159, 0.5, -0.5]]
                       ).astype(np.float32)
    out = sg.zeros(10 * n, np.float32)
    sg.RawModule(code=MATH).get_function("m")((4,), (64,), (sg.asarray(x), out, np.int32(n)))
    got = out.get().reshape(10, n).astype(np.float64)
    xd = x.astype(np.float64)
    with np.errstate(all="ignore"):
        refs = [np.exp(xd), np.log(np.abs(xd) + np.float32(1e-3)), np.sin(xd), np.abs(xd) ** np.float32(1.7),
                np.sqrt(np.abs(xd)), np.array([erf(v) for v in xd]), np.tanh(xd),
                np.fmod(x * np.float32(7), np.float32(1.3)).astype(np.float64), np.cos(x * np.float32(100)),
                np.exp(xd).astype(np.float32)]
    for j, ref in enumerate(refs):
        np.testing.assert_allclose(got[j], ref, rtol=4e-6, atol=1e-6 if j != 9 else 0, err_msg=f"function {j}")


def test_register_named_like_a_special_register_is_rejected():
    ptx = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b32 %tid;
  mov.u32 %tid, %tid.x;
  ret;
}
"""
    with pytest.raises(sg.PTXParseError, match=r"PTX line 7: register %tid has the name of a special register"):
        parse_ptx(ptx)


def test_function_pointer_tables_are_filled_in_by_the_loader():
    """A __device__ table of function pointers is a global initialised with function symbols: the
    parser records them (Variable.relocations) and loading the module writes their addresses."""
    src = r'''
__device__ float twice(float x) { return 2 * x; }
__device__ float square(float x) { return x * x; }
typedef float (*fn_t)(float);
__device__ fn_t table[2] = {twice, square};
extern "C" __global__ void k(float* o) { o[threadIdx.x] = table[threadIdx.x & 1]((float)threadIdx.x); }'''
    mod = sg.RawModule(code=src)
    table = next(v for v in mod.module.variables if v.name == "table")
    assert table.relocations == ((0, "_Z5twicef"), (8, "_Z6squaref"))
    o = sg.zeros(32, np.float32)
    mod.get_function("k")((1,), (32,), (o,), timing=False)
    assert o.get().tolist() == [t * t if t % 2 else 2.0 * t for t in range(32)]


def test_an_address_in_a_narrow_initializer_is_refused():
    ptx = HEADER + ".global .align 4 .u32 g;\n.global .align 4 .u32 t[2] = {0, g};\n"
    with pytest.raises(sg.PTXParseError, match=r"PTX line 5: unsupported initializer 'g': only a 64-bit element"):
        parse_ptx(ptx)


FUNCTION_POINTERS = r'''
__device__ float twice(float x) { return 2 * x; }
__device__ float plus1(float x) { return x + 1; }
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
extern "C" __global__ void through_pointer(const int* sel, float* o) {
    float (*fs[2])(float) = {twice, plus1};
    o[threadIdx.x] = fs[sel[threadIdx.x] & 1]((float)threadIdx.x);
}
extern "C" __global__ void recursive(int* o) { o[threadIdx.x] = fib(threadIdx.x % 8); }
extern "C" __global__ void plain(float* o) { o[threadIdx.x] = twice(threadIdx.x); }
'''


def test_direct_indirect_and_recursive_calls_in_one_module():
    """An indirect call's `.callprototype` parses; a module with a plain call, a call through a
    pointer and a recursive function links and runs each kernel (tests/exec/test_indirect_calls.py,
    test_recursion.py for the semantics)."""
    mod = sg.RawModule(code=FUNCTION_POINTERS)
    o = sg.zeros(32, np.float32)
    mod.get_function("plain")((1,), (32,), (o,), timing=False)
    assert o.get().tolist() == [2.0 * t for t in range(32)]
    mod.get_function("through_pointer")((1,), (32,), (sg.asarray(np.arange(32, dtype=np.int32)), o), timing=False)
    assert o.get().tolist() == [2.0 * t if t % 2 == 0 else t + 1.0 for t in range(32)]
    fib = sg.zeros(32, np.int32)
    mod.get_function("recursive")((1,), (32,), (fib,), timing=False)
    assert fib.get().tolist() == [[0, 1, 1, 2, 3, 5, 8, 13][t % 8] for t in range(32)]


def test_textures_are_refused_by_name():
    src = 'extern "C" __global__ void k(cudaTextureObject_t t, float* o) { o[threadIdx.x] = tex1Dfetch<float>(t, 1); }'
    with pytest.raises(sg.UnsupportedInstructionError, match=r"PTX line \d+: tex\.1d\.v4\.f32\.s32: textures and "
                       r"surfaces .* are not supported by simgpu"):
        sg.RawModule(code=src)
