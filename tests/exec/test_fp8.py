"""FP8 (E4M3 / E5M2) cvt: exec/fp8.py and the sm_90 cvt forms, against references built here.

The references read the formats off their bit fields (sign, exponent, mantissa; E4M3 has no
infinity and NaN only at S.1111.111, E5M2 is IEEE-like) and encode by picking, among the finite
values, the nearest one with exact Fractions (ties: the even code, i.e. the even mantissa), then
apply .satfinite (beyond the largest finite value: it, with the sign), NaN -> 0x7F and .relu
(negative -> +0). Nothing here calls exec/fp8.py to make an expected value.
"""

from __future__ import annotations

import bisect
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ptxharness import run_op

import simgpu as sg
from simgpu.errors import UnsupportedInstructionError
from simgpu.exec import fp8

# name -> (exponent bits, mantissa bits, bias, has infinity)
FIELDS = {"e4m3": (4, 3, 7, False), "e5m2": (5, 2, 15, True)}
MAX_FINITE = {"e4m3": 448.0, "e5m2": 57344.0}


def ref_value(code: int, fmt: str) -> float:
    """The value of an FP8 code, from its bit fields (NaN / +-inf as floats)."""
    eb, mb, bias, has_inf = FIELDS[fmt]
    sign = -1.0 if code & 0x80 else 1.0
    e = (code >> mb) & ((1 << eb) - 1)
    m = code & ((1 << mb) - 1)
    if e == (1 << eb) - 1:
        if has_inf:
            return sign * math.inf if m == 0 else math.nan
        if m == (1 << mb) - 1:
            return math.nan
    if e == 0:
        return sign * math.ldexp(m, 1 - bias - mb)
    return sign * math.ldexp((1 << mb) + m, e - bias - mb)


def finite_positive(fmt: str) -> list[tuple[Fraction, int]]:
    """(value, code) of every finite non-negative code, increasing."""
    out = [(Fraction(ref_value(c, fmt)), c) for c in range(0x80) if math.isfinite(ref_value(c, fmt))]
    return sorted(out)


TABLE = {f: finite_positive(f) for f in FIELDS}
VALUES = {f: [v for v, _ in TABLE[f]] for f in FIELDS}


def ref_encode(x: float, fmt: str, relu: bool = False) -> int:
    """cvt.rn.satfinite{.relu} of one value to an FP8 code."""
    if math.isnan(x):
        return 0x7F
    neg = math.copysign(1.0, x) < 0
    if relu and neg:
        return 0x00
    a = abs(x)
    table = TABLE[fmt]
    if a >= table[-1][0]:  # inf included
        code = table[-1][1]
    else:
        fa = Fraction(a)
        hi = bisect.bisect_left(VALUES[fmt], fa)  # the first finite value >= |x|
        (v_lo, c_lo), (v_hi, c_hi) = table[max(hi - 1, 0)], table[hi]
        d_lo, d_hi = fa - v_lo, v_hi - fa
        code = c_lo if d_lo < d_hi or (d_lo == d_hi and c_lo % 2 == 0) else c_hi
    return code | (0x80 if neg else 0)


def ref_f16_bits(code: int, fmt: str, relu: bool = False) -> int:
    """cvt.rn{.relu}.f16x2.<fmt>x2 of one byte: the f16 bits of its value (NaN -> 0x7FFF)."""
    v = ref_value(code, fmt)
    if math.isnan(v):
        return 0x7FFF
    if relu and math.copysign(1.0, v) < 0:
        return 0x0000
    return int(np.array([v], np.float16).view(np.uint16)[0])


def same(a: float, b: float) -> bool:
    """Equal as values and signs (NaN equals NaN)."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


# ---------------------------------------------------------------------------------------- decoding
@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
def test_decode_all_codes(fmt):
    got = fp8.decode(np.arange(256), fmt)
    for c in range(256):
        assert same(float(got[c]), ref_value(c, fmt)), (fmt, hex(c), got[c], ref_value(c, fmt))


def test_format_landmarks():
    """The values the formats are known by (OCP FP8 spec)."""
    assert ref_value(0x7E, "e4m3") == 448 and math.isnan(ref_value(0x7F, "e4m3"))
    assert ref_value(0x01, "e4m3") == 2.0 ** -9 and ref_value(0x08, "e4m3") == 2.0 ** -6
    assert ref_value(0x7B, "e5m2") == 57344 and ref_value(0x7C, "e5m2") == math.inf
    assert ref_value(0x01, "e5m2") == 2.0 ** -16 and ref_value(0x04, "e5m2") == 2.0 ** -14
    assert sum(math.isnan(ref_value(c, "e4m3")) for c in range(256)) == 2
    assert sum(math.isnan(ref_value(c, "e5m2")) for c in range(256)) == 6
    assert fp8.E4M3.max_finite == MAX_FINITE["e4m3"] and fp8.E5M2.max_finite == MAX_FINITE["e5m2"]


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
@pytest.mark.parametrize("relu", [False, True])
def test_decode_f16_all_codes(fmt, relu):
    got = fp8.decode_f16(np.arange(256), fmt, relu)
    want = np.array([ref_f16_bits(c, fmt, relu) for c in range(256)], np.uint16)
    assert got.dtype == np.uint16
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
@pytest.mark.parametrize("relu", [False, True])
def test_cvt_f16x2_from_fp8x2_every_pair(fmt, relu):
    """cvt.rn{.relu}.f16x2.<fmt>x2 on all 65536 byte pairs through the simulator: upper byte to the
    upper half, lower byte to the lower half."""
    a = np.arange(1 << 16, dtype=np.uint16)
    instr = f"cvt.rn{'.relu' if relu else ''}.f16x2.{fmt}x2 %d, %a;"
    got = run_op(instr, [("b16", a)], "b32")
    table = np.array([ref_f16_bits(c, fmt, relu) for c in range(256)], np.uint32)
    want = (table[a >> 8] << np.uint32(16)) | table[a & 0xFF]
    np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------------------------------- encoding
def boundary_values(fmt: str) -> np.ndarray:
    """Every representable value, every midpoint between neighbours (a tie) and the float32 next to
    each midpoint on both sides, the overflow region and the specials, with both signs."""
    vals = [float(v) for v, _ in TABLE[fmt]]
    mids = [(vals[i] + vals[i + 1]) / 2 for i in range(len(vals) - 1)]
    top = MAX_FINITE[fmt]
    ulp_top = top - vals[-2]
    mids += [top + ulp_top / 2, top + ulp_top, 2 * top, 1e30, vals[1] / 2, vals[1] / 4]
    xs = np.array(vals + mids, np.float32)
    around = np.concatenate([np.nextafter(xs, np.float32(np.inf)), np.nextafter(xs, np.float32(0))])
    xs = np.concatenate([xs, around, np.array([np.inf, np.nan, 3.4e38, 1e-45], np.float32)])
    return np.concatenate([xs, -xs])


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
@pytest.mark.parametrize("relu", [False, True])
def test_encode_boundaries(fmt, relu):
    xs = boundary_values(fmt)
    got = fp8.encode(xs, fmt, relu)
    want = np.array([ref_encode(float(x), fmt, relu) for x in xs], np.uint8)
    bad = np.nonzero(got != want)[0]
    assert bad.size == 0, [(float(xs[i]), hex(got[i]), hex(want[i])) for i in bad[:8]]


def test_encode_known_answers():
    """A few answers worked out by hand."""
    x = np.array([1.0625, 1.1875, 464.0, 464.0001, -500.0, 2.0 ** -10, 3 * 2.0 ** -10, -0.0, 61440.0,
                  -np.inf, np.nan], np.float32)
    # e4m3: 1.0625 ties between 1 (0x38) and 1.125 (0x39) -> even 0x38; 1.1875 -> 1.25 (0x3A);
    # 464 is the tie 448 | 480 (480 not finite): 448; beyond -> 448; 2^-10 ties 0 | 2^-9 -> 0;
    # 3 * 2^-10 ties 2^-9 | 2^-8 -> 2^-8 (0x02); -0 keeps its sign; NaN -> 0x7F
    assert [int(c) for c in fp8.encode(x, "e4m3")] == [0x38, 0x3A, 0x7E, 0x7E, 0xFE, 0x00, 0x02, 0x80, 0x7E,
                                                      0xFE, 0x7F]
    # e5m2: 1.0625 and 1.1875 round to 1 (0x3C) and 1.25 (0x3D); 464 -> 448 (0x5F); 500 -> 512 (0xE0);
    # 2^-10 is the normal 0x14 and 3 * 2^-10 = 1.5 * 2^-9 the normal 0x1A; 61440 (the tie 57344 | inf)
    # saturates to 0x7B
    assert [int(c) for c in fp8.encode(x, "e5m2")] == [0x3C, 0x3D, 0x5F, 0x5F, 0xE0, 0x14, 0x1A, 0x80, 0x7B,
                                                      0xFB, 0x7F]
    assert [int(c) for c in fp8.encode(x, "e4m3", relu=True)] == [0x38, 0x3A, 0x7E, 0x7E, 0x00, 0x00, 0x02,
                                                                 0x00, 0x7E, 0x00, 0x7F]


ENC = settings(max_examples=400, deadline=None)


@ENC
@given(st.lists(st.floats(width=32), min_size=1, max_size=64), st.sampled_from(["e4m3", "e5m2"]), st.booleans())
def test_encode_float32(xs, fmt, relu):
    x = np.array(xs, np.float32)
    got = fp8.encode(x, fmt, relu)
    assert got.dtype == np.uint8
    assert [int(c) for c in got] == [ref_encode(float(v), fmt, relu) for v in x]


@ENC
@given(st.lists(st.floats(width=16), min_size=1, max_size=64), st.sampled_from(["e4m3", "e5m2"]), st.booleans())
def test_encode_float16(xs, fmt, relu):
    x = np.array(xs, np.float16)
    assert [int(c) for c in fp8.encode(x, fmt, relu)] == [ref_encode(float(v), fmt, relu) for v in x]


@ENC
@given(st.floats(width=32, allow_nan=False), st.sampled_from(["e4m3", "e5m2"]))
def test_encode_is_nearest(x, fmt):
    """The code's value is a finite value of the format no farther from x than any other (within
    range), and the clamp when x is beyond the largest finite value."""
    x32 = float(np.float32(x))
    v = ref_value(int(fp8.encode(np.array([x32], np.float32), fmt)[0]), fmt)
    assert math.isfinite(v)
    if abs(x32) >= MAX_FINITE[fmt]:
        assert v == math.copysign(MAX_FINITE[fmt], x32)
        return
    err = abs(Fraction(v) - Fraction(x32))
    assert all(err <= abs(val - Fraction(abs(x32))) for val, _ in TABLE[fmt])
    assert math.copysign(1.0, v) == math.copysign(1.0, x32)


# ----------------------------------------------------------------------------- PTX through the simulator
@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
@pytest.mark.parametrize("relu", [False, True])
def test_cvt_fp8x2_from_f32(fmt, relu):
    """cvt.rn.satfinite{.relu}.<fmt>x2.f32 d, a, b: a's code in the upper byte, b's in the lower."""
    xs = boundary_values(fmt)
    rng = np.random.default_rng(7)
    ys = np.concatenate([rng.permutation(xs), rng.standard_normal(64).astype(np.float32) * 100])
    xs = np.concatenate([xs, rng.standard_normal(64).astype(np.float32) * 300])
    instr = f"cvt.rn.satfinite{'.relu' if relu else ''}.{fmt}x2.f32 %d, %a, %b;"
    got = run_op(instr, [("f32", xs), ("f32", ys)], "b16")
    want = np.array([ref_encode(float(a), fmt, relu) << 8 | ref_encode(float(b), fmt, relu)
                     for a, b in zip(xs, ys)], np.uint16)
    bad = np.nonzero(got != want)[0]
    assert bad.size == 0, [(float(xs[i]), float(ys[i]), hex(got[i]), hex(want[i])) for i in bad[:8]]


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
@pytest.mark.parametrize("relu", [False, True])
def test_cvt_fp8x2_from_f16x2_every_half(fmt, relu):
    """cvt.rn.satfinite{.relu}.<fmt>x2.f16x2 d, a: every f16 in both halves, through the simulator."""
    i = np.arange(1 << 16, dtype=np.uint32)
    a = i | (((i * np.uint32(40503)) & np.uint32(0xFFFF)) << np.uint32(16))  # a permutation for the upper half
    instr = f"cvt.rn.satfinite{'.relu' if relu else ''}.{fmt}x2.f16x2 %d, %a;"
    got = run_op(instr, [("b32", a)], "b16")
    f16 = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    table = np.array([ref_encode(float(v), fmt, relu) for v in f16], np.uint16)
    want = (table[a >> 16] << np.uint16(8)) | table[a & 0xFFFF]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("instr,needle", [
    ("cvt.rn.e4m3x2.f32 %d, %a, %b;", ".satfinite modifier is required"),
    ("cvt.rz.satfinite.e5m2x2.f32 %d, %a, %b;", "round to nearest even only"),
    ("cvt.rn.satfinite.e2m3x2.f32 %d, %a, %b;", "sm_100a+"),
    ("cvt.rn.satfinite.e4m3x2.bf16x2 %d, %a, %b;", "not .bf16x2"),
])
def test_forms_sm90_lacks_are_refused(instr, needle):
    with pytest.raises(UnsupportedInstructionError, match=needle.replace(".", r"\.").replace("+", r"\+")):
        run_op(instr, [("f32", np.zeros(1, np.float32)), ("f32", np.zeros(1, np.float32))], "b16")


# ---------------------------------------------------------------------------------- CUDA C, both engines
def _both_engines(fn):
    out = {}
    for engine in ("reference", "fast"):
        with sg.use_engine(engine):
            out[engine] = fn()
    return out["reference"], out["fast"]


SCALAR_SRC = r'''
#include <cuda_fp8.h>
extern "C" __global__ void k(const float* x, float* y, float* z) {
  int i = threadIdx.x;
  __nv_fp8_e4m3 a(x[i]); __nv_fp8_e5m2 b(x[i]);
  y[i] = float(a); z[i] = float(b);
}
'''


def test_cuda_fp8_scalar_types():
    xs = np.linspace(-500, 500, 256, dtype=np.float32)

    def run():
        f = sg.RawModule(code=SCALAR_SRC).get_function("k")
        dx, dy, dz = sg.asarray(xs), sg.zeros(256, np.float32), sg.zeros(256, np.float32)
        f((1,), (256,), (dx, dy, dz))
        return dy.get(), dz.get()

    (y_ref, z_ref), (y_fast, z_fast) = _both_engines(run)
    want_y = np.array([ref_value(ref_encode(float(v), "e4m3"), "e4m3") for v in xs], np.float32)
    want_z = np.array([ref_value(ref_encode(float(v), "e5m2"), "e5m2") for v in xs], np.float32)
    np.testing.assert_array_equal(y_ref, want_y)
    np.testing.assert_array_equal(z_ref, want_z)
    assert y_ref[0] == -448 and z_ref[0] == -512  # -500: saturated in e4m3, representable-ish in e5m2
    assert np.array_equal(y_ref.view(np.uint32), y_fast.view(np.uint32))
    assert np.array_equal(z_ref.view(np.uint32), z_fast.view(np.uint32))


VECTOR_SRC = r'''
#include <cuda_fp8.h>
#include <cuda_fp16.h>
extern "C" __global__ void k(const float4* x, float4* y, unsigned short* s, unsigned* h) {
  int i = threadIdx.x;
  __nv_fp8x4_e4m3 q(x[i]);                      // four cvt.rn.satfinite.e4m3x2.f32 halves
  y[i] = float4(q);                             // back through cvt.rn.f16x2.e4m3x2
  s[2 * i] = __nv_cvt_float2_to_fp8x2(make_float2(x[i].x, x[i].y), __NV_SATFINITE, __NV_E5M2);
  __half2 hv = __floats2half2_rn(x[i].z, x[i].w);
  __half2_raw raw = *reinterpret_cast<__half2_raw*>(&hv);
  __nv_fp8x2_storage_t p = __nv_cvt_halfraw2_to_fp8x2(raw, __NV_SATFINITE, __NV_E4M3);  // .f16x2 source
  s[2 * i + 1] = p;
  __half2_raw back = __nv_cvt_fp8x2_to_halfraw2(p, __NV_E4M3);
  h[i] = (unsigned)back.x | ((unsigned)back.y << 16);
}
'''


def test_cuda_fp8x4_and_x2_intrinsics():
    rng = np.random.default_rng(11)
    x = np.concatenate([rng.standard_normal(4 * 96).astype(np.float32) * 50,
                        np.array([600, -600, 1e-3, -1e-3, 0.0, -0.0, np.inf, np.nan] * 4, np.float32)])
    x = x.reshape(-1, 4)
    n = len(x)

    def run():
        f = sg.RawModule(code=VECTOR_SRC).get_function("k")
        dy, ds, dh = sg.zeros((n, 4), np.float32), sg.zeros(2 * n, np.uint16), sg.zeros(n, np.uint32)
        f((1,), (n,), (sg.asarray(x), dy, ds, dh))
        return dy.get(), ds.get(), dh.get()

    ref, fast = _both_engines(run)
    for a, b in zip(ref, fast):
        assert np.array_equal(a.view(np.uint8), b.view(np.uint8))
    y, s, h = ref
    e4 = np.vectorize(lambda v: ref_value(ref_encode(float(v), "e4m3"), "e4m3"))
    np.testing.assert_array_equal(y, e4(x).astype(np.float32))
    want_e5 = [ref_encode(float(b), "e5m2") << 8 | ref_encode(float(a), "e5m2") for a, b in x[:, :2]]
    np.testing.assert_array_equal(s[0::2], np.array(want_e5, np.uint16))
    halves = x[:, 2:].astype(np.float16)  # __floats2half2_rn rounds to nearest even, as astype does
    codes = [(ref_encode(float(b), "e4m3"), ref_encode(float(a), "e4m3")) for a, b in halves]
    np.testing.assert_array_equal(s[1::2], np.array([hi << 8 | lo for hi, lo in codes], np.uint16))
    want_h = [ref_f16_bits(lo, "e4m3") | ref_f16_bits(hi, "e4m3") << 16 for hi, lo in codes]
    np.testing.assert_array_equal(h, np.array(want_h, np.uint32))


def test_ml_dtypes_cross_check():
    """Optional: ml_dtypes' float8 types decode the same 256 codes."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    for fmt, dt in (("e4m3", ml_dtypes.float8_e4m3fn), ("e5m2", ml_dtypes.float8_e5m2)):
        theirs = np.arange(256, dtype=np.uint8).view(dt).astype(np.float64)
        ours = fp8.decode(np.arange(256), fmt)
        assert all(same(float(a), float(b)) for a, b in zip(theirs, ours)), fmt
