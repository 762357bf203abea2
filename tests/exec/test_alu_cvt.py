"""cvt between every integer and float width, against exact Python references.

float -> int: rni (nearest even) / rzi / rmi / rpi, saturating to the destination range, NaN -> 0.
int -> float and float -> float: rn / rz / rm / rp (exact rounding from fpref), f16 and bf16 included.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from fpref import round_fraction, same_float
from hypothesis import given, settings
from hypothesis import strategies as st
from ptxharness import run_op

from simgpu.exec import alu

INT_T = {"s8": (np.int8, 8), "u8": (np.uint8, 8), "s16": (np.int16, 16), "u16": (np.uint16, 16),
         "s32": (np.int32, 32), "u32": (np.uint32, 32), "s64": (np.int64, 64), "u64": (np.uint64, 64)}
FLT_T = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def int_range(t):
    bits = INT_T[t][1]
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if t.startswith("s") else (0, (1 << bits) - 1)


def lo_of_sign(t: str) -> int:
    """The integer whose bits are the sign bit alone: INT_MIN for signed types, 2**(n-1) unsigned."""
    bits = int(t[1:])
    return -(1 << (bits - 1)) if t[0] == "s" else 1 << (bits - 1)


def f2i_ref(x: float, t: str, rnd: str, src: str = "f32") -> int:
    if math.isnan(x):
        # the H200: 0 from f16 / f32 to 32 bits, the sign bit alone (INT_MIN, 2**(n-1) unsigned) when
        # source or destination is 64-bit (benchmarks/microbench/math_api: __double2int_rn(NaN) is
        # INT_MIN, __float2ll_rn(NaN) INT64_MIN, __double2ull_rn(NaN) 2**63); 16-bit destinations 0
        bits = int(t[1:])
        return (lo_of_sign(t) if (bits == 64 or src == "f64") and bits >= 32 else 0)
    lo, hi = int_range(t)
    if math.isinf(x):
        return hi if x > 0 else lo
    fx = Fraction(x)
    v = {"rni": round(fx), "rzi": math.trunc(fx), "rmi": math.floor(fx), "rpi": math.ceil(fx)}[rnd]
    return min(max(v, lo), hi)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(list(INT_T)), st.sampled_from(["f16", "f32", "f64"]),
       st.sampled_from(["rni", "rzi", "rmi", "rpi"]), st.data())
def test_float_to_int(dst, src, rnd, data):
    width = {"f16": 16, "f32": 32, "f64": 64}[src]
    x = data.draw(st.one_of(st.floats(width=width), st.sampled_from([0.5, 1.5, 2.5, -0.5, -1.5, 2.0**31, -2.0**31,
                                                                      2.0**63, 2.0**64, 255.5, -128.5, 65535.5])))
    xv = FLT_T[src](x)
    with np.errstate(all="ignore"):
        got = alu.convert(np.array([xv]), dst, src, rnd, False, False)
    assert got.dtype == INT_T[dst][0]
    assert int(got[0]) == f2i_ref(float(xv), dst, rnd, src), (dst, src, rnd, xv)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["s16", "u16", "s32", "u32", "s64", "u64"]), st.sampled_from(["f16", "f32", "f64", "bf16"]),
       st.sampled_from(["rn", "rz", "rm", "rp"]), st.data())
def test_int_to_float(src, dst, rnd, data):
    lo, hi = int_range(src)
    v = data.draw(st.one_of(st.integers(lo, hi), st.sampled_from([lo, hi, 0, 1, (1 << 24) + 1, (1 << 53) + 1])
                            .filter(lambda z: lo <= z <= hi)))
    got = alu.convert(np.array([v], INT_T[src][0]), dst, src, rnd, False, False)
    want = round_fraction(Fraction(v), dst, rnd)
    if dst == "f16":
        assert got.dtype == np.float16
    assert same_float(np.asarray(got[0], np.float64), np.float64(want)), (src, dst, rnd, v, got[0], want)


FLOAT_PAIRS = [("f64", "f32"), ("f32", "f16"), ("f64", "f16"), ("f32", "bf16"), ("f64", "bf16")]


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(FLOAT_PAIRS), st.sampled_from(["rn", "rz", "rm", "rp"]), st.data())
def test_float_narrowing(pair, rnd, data):
    src, dst = pair
    x = data.draw(st.floats(width=64 if src == "f64" else 32, allow_nan=False))
    xv = FLT_T[src](x)
    with np.errstate(all="ignore"):
        got = alu.convert(np.array([xv]), dst, src, rnd, False, False)
    if np.isinf(xv):
        want = xv
    else:
        want = round_fraction(Fraction(float(xv)), dst, rnd, zero_negative=bool(np.signbit(xv)))
    assert same_float(np.asarray(got[0], np.float64), np.float64(want)), (src, dst, rnd, xv, got[0], want)


@pytest.mark.parametrize("src,dst", [("f16", "f32"), ("f32", "f64"), ("f16", "f64"), ("bf16", "f32")])
def test_float_widening_is_exact(src, dst):
    vals = np.array([0.0, -0.0, 1.0, -2.5, 65504.0, 6e-8, np.inf, -np.inf], np.float32)
    x = vals.astype(np.float16) if src == "f16" else vals
    got = alu.convert(x, dst, src, "", False, False)
    np.testing.assert_array_equal(got.astype(np.float64), x.astype(np.float64))
    assert np.isnan(alu.convert(np.array([np.nan], FLT_T.get(src, np.float32)), dst, src, "", False, False)[0])


def test_float_to_int_saturation_and_nan():
    """Saturation as PTX says; NaN as the H200 converts it (f2i_ref's rule, measured)."""
    x = np.array([np.nan, np.inf, -np.inf, 3e9, -3e9, 1e20, -1e20, -0.7, 0.7], np.float32)
    assert list(alu.convert(x, "s32", "f32", "rzi", False, False)) == \
        [0, 2**31 - 1, -2**31, 2**31 - 1, -2**31, 2**31 - 1, -2**31, 0, 0]
    assert list(alu.convert(x, "u32", "f32", "rni", False, False)) == \
        [0, 2**32 - 1, 0, 3000000000, 0, 2**32 - 1, 0, 0, 1]
    assert list(alu.convert(x, "s64", "f32", "rzi", False, False)) == \
        [-2**63, 2**63 - 1, -2**63, 3000000000, -3000000000, 2**63 - 1, -2**63, 0, 0]
    assert list(alu.convert(x, "u64", "f32", "rpi", False, False)) == \
        [2**63, 2**64 - 1, 0, 3000000000, 0, 2**64 - 1, 0, 0, 1]


@pytest.mark.parametrize("dst,src,vals,want", [
    ("s8", "s32", [300, -300, 127, -128], [44, -44, 127, -128]),
    ("u16", "s32", [-1, 65536, 65535], [65535, 0, 65535]),
    ("s64", "s32", [-1, 2**31 - 1], [-1, 2**31 - 1]),
    ("u64", "s32", [-1], [2**64 - 1]),
    ("u64", "u32", [2**32 - 1], [2**32 - 1]),
    ("s32", "u64", [2**63 + 5], [5]),
])
def test_int_to_int_wraps_and_extends(dst, src, vals, want):
    x = np.array([v & (2**64 - 1) for v in vals], dtype=np.uint64).view(np.int64).astype(INT_T[src][0])
    got = alu.convert(x, dst, src, "", False, False)
    assert [int(v) for v in got] == want


@pytest.mark.parametrize("dst,src,vals,want", [
    ("s8", "s32", [300, -300, 5], [127, -128, 5]),
    ("u8", "s32", [-5, 256, 200], [0, 255, 200]),
    ("u32", "s64", [-1, 2**40, 7], [0, 2**32 - 1, 7]),
    ("s32", "u32", [2**32 - 1, 5], [2**31 - 1, 5]),
    ("u64", "s64", [-5, 2**62], [0, 2**62]),
    ("s64", "u64", [2**64 - 1, 9], [2**63 - 1, 9]),
    ("s16", "u64", [2**64 - 1], [2**15 - 1]),
])
def test_int_to_int_saturate(dst, src, vals, want):
    x = np.array([v & (2**64 - 1) for v in vals], dtype=np.uint64).view(np.int64).astype(INT_T[src][0])
    got = alu.convert(x, dst, src, "", True, False)
    assert [int(v) for v in got] == want


def test_float_to_float_integer_rounding_and_sat():
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.7, -2.7, np.nan], np.float32)
    for rnd, fn in [("rni", np.rint), ("rzi", np.trunc), ("rmi", np.floor), ("rpi", np.ceil)]:
        got = alu.convert(x, "f32", "f32", rnd, False, False)
        np.testing.assert_array_equal(got, fn(x))
    got = alu.convert(np.array([-0.5, 0.5, 2.0, np.nan, np.inf], np.float32), "f32", "f32", "", True, False)
    np.testing.assert_array_equal(got, np.array([0.0, 0.5, 1.0, 0.0, 1.0], np.float32))
    got = alu.convert(np.array([1e-40, -1e-40], np.float32), "f32", "f32", "", False, True)
    assert list(got) == [0.0, 0.0] and np.signbit(got[1])


@pytest.mark.parametrize("instr,src_t,dst_t,x,want", [
    ("cvt.rni.s32.f32", "f32", "s32", [2.5, 3.5, -2.5, 1e10, np.nan], [2, 4, -2, 2**31 - 1, 0]),
    ("cvt.rzi.u32.f64", "f64", "u32", [3.99, -1.0, 5e9], [3, 0, 2**32 - 1]),
    ("cvt.rmi.s64.f32", "f32", "s64", [-0.5, 1e19], [-1, 2**63 - 1]),
    ("cvt.rpi.s16.f32", "f32", "s16", [0.1, 40000.0], [1, 32767]),
    ("cvt.rn.f32.s32", "s32", "f32", [16777217, -3], [16777216.0, -3.0]),
    ("cvt.rz.f32.u32", "u32", "f32", [16777219], [16777218.0]),
    ("cvt.rp.f32.s64", "s64", "f32", [2**60 + 1], [float(2**60 + 2**37)]),
    ("cvt.rn.f32.f64", "f64", "f32", [0.1], [float(np.float32(0.1))]),
    ("cvt.f64.f32", "f32", "f64", [0.1], [float(np.float32(0.1))]),
    ("cvt.s64.s32", "s32", "s64", [-7], [-7]),
    ("cvt.u32.u64", "u64", "u32", [2**40 + 9], [9]),
    ("cvt.sat.s32.s64", "s64", "s32", [-2**40], [-2**31]),
])
def test_cvt_ptx(instr, src_t, dst_t, x, want):
    got = run_op(f"{instr} %d, %a;", [(src_t, np.array(x))], dst_t)
    assert [float(v) if dst_t.startswith("f") else int(v) for v in got] == want


def test_cvt_half_ptx():
    x = np.array([1.0, 0.1, 70000.0, -2.0**-30, 1.0 + 2.0**-11], np.float32)
    got = run_op("cvt.rn.f16.f32 %d, %a;", [("f32", x)], "f16").view(np.float16)
    np.testing.assert_array_equal(got, x.astype(np.float16))
    got = run_op("cvt.rz.f16.f32 %d, %a;", [("f32", x)], "f16").view(np.float16)
    want = [round_fraction(Fraction(float(v)), "f16", "rz", zero_negative=bool(v < 0)) for v in x]
    np.testing.assert_array_equal(got, np.array(want, np.float16))
    back = run_op("cvt.f32.f16 %d, %a;", [("f16", got.view(np.uint16))], "f32")
    np.testing.assert_array_equal(back, got.astype(np.float32))
    got = run_op("cvt.rn.bf16.f32 %d, %a;", [("f32", x)], "bf16")
    want = [round_fraction(Fraction(float(v)), "bf16", "rn", zero_negative=bool(v < 0)) for v in x]
    np.testing.assert_array_equal((got.astype(np.uint32) << 16).view(np.float32), np.array(want, np.float32))
    got = run_op("cvt.rz.bf16.f32 %d, %a;", [("f32", x)], "bf16")
    want = [round_fraction(Fraction(float(v)), "bf16", "rz", zero_negative=bool(v < 0)) for v in x]
    np.testing.assert_array_equal((got.astype(np.uint32) << 16).view(np.float32), np.array(want, np.float32))
    got = run_op("cvt.rzi.s32.f16 %d, %a;", [("f16", np.array([2.75, -2.75], np.float16).view(np.uint16))], "s32")
    assert list(got) == [2, -2]


_HALF_EDGES = np.array([-1.0, 1e6, -1e6, np.nan, -0.0, 0.5, 65519.0, 65520.0, np.inf, -np.inf, 3e38, -1e-30],
                       np.float32)


@pytest.mark.parametrize("mods", ["relu", "satfinite", "satfinite.relu"])
def test_cvt_f16_relu_and_satfinite(mods):
    """.relu: negatives (and -0) become +0, NaN stays NaN; .satfinite: what would round to +-inf
    becomes +-65504 (they used to be ignored: relu of -1 gave -1, satfinite of 1e6 gave inf)."""
    got = run_op(f"cvt.rn.{mods}.f16.f32 %d, %a;", [("f32", _HALF_EDGES)], "f16").view(np.float16).astype(np.float64)
    want = _HALF_EDGES.astype(np.float16).astype(np.float64)  # round to nearest even
    if "satfinite" in mods:
        want = np.where(np.isnan(want), want, np.clip(np.where(np.isinf(want), np.sign(want) * 65504, want),
                                                      -65504, 65504))
    if "relu" in mods:
        want = np.where(want < 0, 0.0, want)
    np.testing.assert_array_equal(got, want)
    if "relu" in mods:
        assert not np.signbit(got[~np.isnan(got)]).any()


def test_cvt_bf16_satfinite_clamps_to_the_largest_finite():
    got = run_op("cvt.rn.satfinite.bf16.f32 %d, %a;", [("f32", np.array([np.inf, -np.inf, 3.4e38], np.float32))],
                 "b16")
    assert [hex(int(v)) for v in got] == ["0x7f7f", "0xff7f", "0x7f7f"]
