"""Kernels written for nvcc compile under simgpu's NVRTC: the C and C++ standard headers device code
includes (frontend/include/), the constants nvcc's implicit includes give without an #include
(the prelude), and device assert() (exec/printf.py)."""

import numpy as np
import pytest

import simgpu as sg
from simgpu.errors import KernelRuntimeError

HEADERS = ["stdint.h", "cstdint", "limits.h", "climits", "float.h", "cfloat", "math.h", "cmath",
           "stddef.h", "cstddef", "stdio.h", "cstdio", "assert.h", "cassert", "limits"]


@pytest.mark.parametrize("header", HEADERS)
def test_every_header_compiles(header):
    src = f'#include <{header}>\nextern "C" __global__ void k(int* o) {{ o[0] = 1; }}'
    k = sg.RawModule(code=src).get_function("k")
    o = sg.zeros(1, np.int32)
    k((1,), (1,), (o,), timing=False)
    assert o.get()[0] == 1


def test_constants_without_an_include_as_with_nvcc():
    """validation/typical5's kernels used INFINITY and INT_MIN with no #include (nvcc compiled them)."""
    src = r'''
    extern "C" __global__ void k(float* f, long long* i) {
        f[0] = -INFINITY; f[1] = FLT_MAX; f[2] = FLT_EPSILON; f[3] = (float)M_PI; f[4] = NAN;
        int32_t a = INT_MIN; uint64_t b = UINT64_MAX; size_t c = SIZE_MAX;
        i[0] = a; i[1] = (long long)(b >> 1); i[2] = INT_MAX; i[3] = LLONG_MIN; i[4] = (long long)(c == b);
    }'''
    f, i = sg.zeros(5, np.float32), sg.zeros(5, np.int64)
    sg.RawModule(code=src).get_function("k")((1,), (1,), (f, i), timing=False)
    fv = f.get()
    assert fv[0] == -np.inf and fv[1] == np.finfo(np.float32).max and fv[2] == np.finfo(np.float32).eps
    assert fv[3] == np.float32(np.pi) and np.isnan(fv[4])
    assert i.get().tolist() == [-2**31, 2**63 - 1, 2**31 - 1, -2**63, 1]


def test_std_names_of_cmath_cstdint_cstddef():
    src = r'''
    #include <cmath>
    #include <cstdint>
    #include <cstddef>
    struct P { int a; double b; };
    extern "C" __global__ void k(const float* x, float* y) {
        int t = threadIdx.x;
        std::int64_t n = offsetof(P, b);
        y[t] = std::sqrt(x[t]) + std::exp(x[t]) + std::fabs(-x[t]) + std::fmax(x[t], 0.5f) + (float)n;
        if (std::isnan(x[t])) y[t] = 0.f;
    }'''
    x = np.linspace(0.1, 2.0, 32, dtype=np.float32)
    y = sg.zeros(32, np.float32)
    sg.RawModule(code=src).get_function("k")((1,), (32,), (sg.asarray(x), y), timing=False)
    want = np.sqrt(x) + np.exp(x) + x + np.maximum(x, 0.5) + 8
    np.testing.assert_allclose(y.get(), want, rtol=1e-6)


def test_numeric_limits_in_device_code():
    """std::numeric_limits, constexpr and callable from device code (max-reductions start from
    lowest() or -infinity())."""
    src = r'''
    #include <limits>
    extern "C" __global__ void k(float* f, double* d, long long* i) {
        constexpr float lo = std::numeric_limits<float>::lowest();
        f[0] = std::numeric_limits<float>::max(); f[1] = lo; f[2] = std::numeric_limits<float>::infinity();
        f[3] = std::numeric_limits<float>::quiet_NaN(); f[4] = std::numeric_limits<float>::epsilon();
        f[5] = std::numeric_limits<float>::denorm_min();
        d[0] = std::numeric_limits<double>::max(); d[1] = -std::numeric_limits<double>::infinity();
        i[0] = std::numeric_limits<int>::min(); i[1] = std::numeric_limits<unsigned>::max();
        i[2] = std::numeric_limits<long long>::max(); i[3] = std::numeric_limits<float>::digits;
        i[4] = std::numeric_limits<const short>::max(); i[5] = std::numeric_limits<unsigned char>::is_signed;
    }'''
    f, d, i = sg.zeros(6, np.float32), sg.zeros(2, np.float64), sg.zeros(6, np.int64)
    sg.RawModule(code=src).get_function("k")((1,), (1,), (f, d, i), timing=False)
    fi = np.finfo(np.float32)
    fv = f.get()
    assert fv[0] == fi.max and fv[1] == -fi.max and fv[2] == np.inf and np.isnan(fv[3])
    assert fv[4] == fi.eps and fv[5] == fi.smallest_subnormal
    assert d.get().tolist() == [np.finfo(np.float64).max, -np.inf]
    assert i.get().tolist() == [-2**31, 2**32 - 1, 2**63 - 1, 24, 32767, 0]


ASSERT = r'''
#include <cassert>
extern "C" __global__ void checked(float* o, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < n);
    o[i] = 2.f * i;
}'''


def test_device_assert_passes_silently_and_fails_naming_the_thread():
    k = sg.RawModule(code=ASSERT).get_function("checked")
    o = sg.zeros(128, np.float32)
    k((2,), (64,), (o, np.int32(128)), timing=False)
    assert np.array_equal(o.get(), 2 * np.arange(128, dtype=np.float32))
    with pytest.raises(KernelRuntimeError, match=r"Assertion `i < n` failed .*kernel checked.*block \(1, 0, 0\), "
                                                   r"thread \(36, 0, 0\)"):
        k((2,), (64,), (o, np.int32(100)), timing=False)


def test_ndebug_removes_the_assert():
    k = sg.RawModule(code=ASSERT, options=("-DNDEBUG",)).get_function("checked")
    o = sg.zeros(128, np.float32)
    k((2,), (64,), (o, np.int32(1)), timing=False)
    assert o.get()[127] == 254.0
