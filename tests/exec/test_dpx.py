"""Hopper's DPX intrinsics (__vimax3_s32, __viaddmax_s32_relu, __vibmax_s32, ...), which NVRTC
compiles to min / max with .relu and packed 16-bit forms: each against its documented meaning, and
a modifier simgpu does not implement is refused rather than ignored."""

import numpy as np
import pytest

import simgpu as sg
from simgpu.errors import UnsupportedInstructionError

SRC = r"""
extern "C" __global__ void dpx(const int* a, const int* b, const int* c, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i], z = c[i];
    unsigned ux = x, uy = y, uz = z;
    bool p;
    out[0 * n + i] = __vimax3_s32(x, y, z);
    out[1 * n + i] = __vimax3_s32_relu(x, y, z);
    out[2 * n + i] = __viaddmax_s32(x, y, z);
    out[3 * n + i] = __viaddmax_s32_relu(x, y, z);
    out[4 * n + i] = __vimin3_s32_relu(x, y, z);
    out[5 * n + i] = __vibmax_s32(x, y, &p) + (p ? 1 : 0) * 0;
    out[6 * n + i] = p;
    out[7 * n + i] = __vimax_s32_relu(x, y);
    out[8 * n + i] = (int)__vimax3_s16x2_relu(ux, uy, uz);
    out[9 * n + i] = (int)__viaddmin_u16x2(ux, uy, uz);
}
"""


def _wrap32(v):
    return ((np.asarray(v, np.int64) + 2**31) % 2**32 - 2**31).astype(np.int64)


def _halves(v, signed):
    u = np.asarray(v, np.int64) & 0xFFFFFFFF
    lo, hi = u & 0xFFFF, u >> 16
    return [(h - 0x10000 * (h >= 0x8000)) if signed else h for h in (lo, hi)]


def _join(lo, hi):
    return _wrap32((np.asarray(lo) & 0xFFFF) | ((np.asarray(hi) & 0xFFFF) << 16))


def test_dpx_intrinsics_match_their_meaning():
    n = 256
    rng = np.random.default_rng(5)
    a, b, c = (rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32) for _ in range(3))
    a[:8] = [0, -1, 5, -5, 2**31 - 1, -2**31, 100, -100]
    b[:8] = [0, -2, -7, 3, 1, -1, 100, -300]
    out = sg.zeros(10 * n, np.int32)
    sg.RawModule(code=SRC).get_function("dpx")((2,), (128,), (sg.asarray(a), sg.asarray(b), sg.asarray(c),
                                                               out, np.int32(n)))
    o = out.get().reshape(10, n).astype(np.int64)
    A, B, C = (v.astype(np.int64) for v in (a, b, c))
    s = _wrap32(A + B)
    want = [np.maximum(np.maximum(A, B), C), np.maximum(np.maximum(np.maximum(A, B), C), 0),
            np.maximum(s, C), np.maximum(np.maximum(s, C), 0), np.maximum(np.minimum(np.minimum(A, B), C), 0),
            np.maximum(A, B), (A >= B).astype(np.int64), np.maximum(np.maximum(A, B), 0)]
    for row, w in enumerate(want):
        np.testing.assert_array_equal(o[row], _wrap32(w), err_msg=f"row {row}")
    (al, ah), (bl, bh), (cl, ch) = (_halves(v, True) for v in (a, b, c))
    np.testing.assert_array_equal(o[8], _join(*(np.maximum(np.maximum(np.maximum(x, y), z), 0)
                                                for x, y, z in ((al, bl, cl), (ah, bh, ch)))))
    (al, ah), (bl, bh), (cl, ch) = (_halves(v, False) for v in (a, b, c))
    pairs = ((al, bl, cl), (ah, bh, ch))
    np.testing.assert_array_equal(o[9], _join(*(np.minimum((x + y) & 0xFFFF, z) for x, y, z in pairs)))


def test_unimplemented_result_modifier_is_refused():
    ptx = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .f32 %f<4>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.global.f32 %f1, [%rd1];
    max.xorsign.abs.f32 %f2, %f1, %f1;
    st.global.f32 [%rd1], %f2;
    ret;
}
"""
    with pytest.raises(UnsupportedInstructionError, match=r"\.xorsign modifier is not supported"):
        sg.RawModule(ptx=ptx).get_function("k")((1,), (1,), (sg.zeros(1, np.float32),))
