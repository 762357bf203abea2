"""Floating-point lane semantics against exact rational references (fpref.py).

f32 add/sub/mul/div/fma in every IEEE rounding mode, .ftz, .sat, comparisons (ordered and
unordered, NaN), min/max, and the approximate functions within a stated ulp tolerance, both on the
`alu` functions and through hand-written PTX kernels.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from fpref import round_fraction, round_sqrt, same_float, ulp_diff32
from hypothesis import example, given, settings
from hypothesis import strategies as st
from ptxharness import run_op

from simgpu.exec import alu

MODES = ["rn", "rz", "rm", "rp"]
f32s = st.floats(width=32, allow_nan=False, allow_infinity=False)
f64s = st.floats(allow_nan=False, allow_infinity=False)
TINY32 = float(np.finfo(np.float32).tiny)


def signbit(x) -> bool:
    return bool(np.signbit(x))


def ref_binary(op: str, a, b, mode: str, fmt: str = "f32"):
    fa, fb = Fraction(float(a)), Fraction(float(b))
    if op == "add":
        r = fa + fb
        zneg = (signbit(a) and signbit(b)) if (fa == 0 and fb == 0 and signbit(a) == signbit(b)) else None
    elif op == "sub":
        r = fa - fb
        zneg = signbit(a) if (fa == 0 and fb == 0 and signbit(a) != signbit(b)) else None
    elif op == "mul":
        r = fa * fb
        zneg = signbit(a) != signbit(b)
    else:
        r = fa / fb
        zneg = signbit(a) != signbit(b)
    if r == 0 and zneg is None:
        zneg = mode == "rm"
    return round_fraction(r, fmt, mode, zero_negative=bool(zneg))


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(["add", "sub", "mul", "div"]), st.sampled_from(MODES), f32s, f32s)
def test_f32_binary_rounding_modes(op, mode, a, b):
    if op == "div" and b == 0:
        return
    a, b = np.float32(a), np.float32(b)
    got = alu.float_binary(op, np.array([a]), np.array([b]), np.float32, mode)[0]
    want = ref_binary(op, a, b, mode)
    assert same_float(got, want), f"{op}.{mode}.f32 {a!r} {b!r}: got {got!r}, want {want!r}"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op,a,b", [
    ("add", 1.0, 1e-30), ("add", 1.0, -1e-30), ("add", -1.0, 1e-30), ("sub", 1.0, 1e-30),
    ("add", 3.4e38, 3.4e38), ("mul", 3e38, -10.0), ("mul", 1e-30, 1e-30), ("mul", -1e-30, 1e-30),
    ("add", 1.0, -1.0), ("sub", 0.0, 0.0), ("add", -0.0, -0.0), ("div", 1.0, 3.0), ("div", -2.0, 3.0),
    ("add", 16777216.0, 1.0), ("add", 16777216.0, 3.0),
])
def test_f32_binary_edge_cases(op, a, b, mode):
    a, b = np.float32(a), np.float32(b)
    got = alu.float_binary(op, np.array([a]), np.array([b]), np.float32, mode)[0]
    assert same_float(got, ref_binary(op, a, b, mode)), (op, a, b, mode, got)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["add", "sub", "mul", "div"]), st.sampled_from(MODES), f64s, f64s)
@example("div", "rp", -2.2250738585072014e-308, -5.203145591796789e-161)  # tiny dividend: scaled residual
@example("mul", "rz", -746.0, 1.7976931348623157e308)  # H200: -DBL_MAX (rz never reaches infinity)
@example("mul", "rm", 709.78, 5e-324)  # H200: 3.502925429014438e-321 (a subnormal product)
@example("div", "rz", 1.7976931348623157e308, -1e-45)
def test_f64_binary_rounding_modes(op, mode, a, b):
    """Every mode, every range: overflow and subnormal results included (exec/exact.py)."""
    if op == "div" and b == 0:
        return
    got = alu.float_binary(op, np.array([a]), np.array([b]), np.float64, mode)[0]
    want = ref_binary(op, a, b, mode, "f64")
    assert same_float(got, want), f"{op}.{mode}.f64 {a!r} {b!r}: got {got!r}, want {want!r}"


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(MODES), f32s, f32s, f32s)
def test_f32_fma_single_rounding(mode, a, b, c):
    a, b, c = np.float32(a), np.float32(b), np.float32(c)
    got = alu.float_fma(np.array([a]), np.array([b]), np.array([c]), np.float32, mode)[0]
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    prod_zero = a == 0 or b == 0
    if exact == 0:
        pneg = signbit(a) != signbit(b)
        zneg = pneg if (prod_zero and c == 0 and pneg == signbit(c)) else mode == "rm"
    else:
        zneg = False
    want = round_fraction(exact, "f32", mode, zero_negative=zneg)
    assert same_float(got, want), f"fma.{mode}.f32 {a!r} {b!r} {c!r}: got {got!r}, want {want!r}"


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(MODES), f64s, f64s, f64s)
@example("rz", 1e-300, 1.1754944000000001e-38, -0.5)  # H200: -0.49999999999999994 (the product underflows)
@example("rz", -746.0, 1.7976931348623157e308, -1e-45)  # H200: -DBL_MAX
@example("rn", -0.0, 3.0, -0.0)  # (-0) + (-0) = -0: sin(-0) is -0 on the H200
@example("rn", 1.0 + 2.0**-52, 1.0 - 2.0**-53, -(2.0**-105))  # a near-tie of the two error terms
@example("rm", 1.3527614438552447e-69, 2.2250738585e-313, -0.0)  # a positive product below every subnormal: +0
@example("rm", -1.3527614438552447e-69, 2.2250738585e-313, 0.0)  # a negative one: -(smallest subnormal)
def test_f64_fma_single_rounding(mode, a, b, c):
    got = alu.float_fma(np.array([a]), np.array([b]), np.array([c]), np.float64, mode)[0]
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        pneg = signbit(a) != signbit(b)
        zneg = pneg if ((a == 0 or b == 0) and c == 0 and pneg == signbit(c)) else mode == "rm"
    else:
        zneg = False
    want = round_fraction(exact, "f64", mode, zero_negative=zneg)
    assert same_float(got, want), f"fma.{mode}.f64 {a!r} {b!r} {c!r}: got {got!r}, want {want!r}"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("x", [1e-320, 5e-324, 2.2250738585072014e-308, 3.0, 1.7976931348623157e308, 1e300])
def test_f64_sqrt_every_range(mode, x):
    got = alu.float_sqrt(np.array([x]), np.float64, mode)[0]
    assert same_float(got, round_sqrt(Fraction(x), "f64", mode)), (x, mode, got)


def test_f32_fma_double_rounding_case():
    # a*b + c lies just above a tie of f32 after rounding to f64: one rounding must give the upper value
    a = np.float32(1 + 2**-23)
    b = np.float32(1 + 2**-23)
    c = np.float32(-(2**-23))
    exact = Fraction(float(a)) ** 2 + Fraction(float(c))
    got = alu.float_fma(np.array([a]), np.array([b]), np.array([c]), np.float32, "rn")[0]
    assert same_float(got, round_fraction(exact, "f32", "rn"))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(MODES), f32s.filter(lambda v: v >= 0))
def test_f32_sqrt_ref(mode, x):
    x = np.float32(x)
    got = run_op(f"sqrt.{mode}.f32 %d, %a;", [("f32", np.array([x]))], "f32")[0]
    want = x if x == 0 else round_sqrt(Fraction(float(x)), "f32", mode)
    assert same_float(got, want), (mode, x, got)


@pytest.mark.parametrize("mode", MODES)
def test_f32_rcp_and_div_ptx(mode):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(64) * 10.0 ** rng.integers(-30, 30, 64)).astype(np.float32)
    y = rng.standard_normal(64).astype(np.float32)
    got = run_op(f"rcp.{mode}.f32 %d, %a;", [("f32", x)], "f32")
    for g, v in zip(got, x):
        assert same_float(g, round_fraction(1 / Fraction(float(v)), "f32", mode)), (mode, v, g)
    got = run_op(f"div.{mode}.f32 %d, %a, %b;", [("f32", y), ("f32", x)], "f32")
    for g, u, v in zip(got, y, x):
        assert same_float(g, ref_binary("div", u, v, mode)), (mode, u, v, g)


@pytest.mark.parametrize("op", ["add", "sub", "mul"])
@pytest.mark.parametrize("mode", MODES)
def test_f32_binary_ptx(op, mode):
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(96) * 10.0 ** rng.integers(-6, 6, 96)).astype(np.float32)
    y = (rng.standard_normal(96) * 10.0 ** rng.integers(-6, 6, 96)).astype(np.float32)
    got = run_op(f"{op}.{mode}.f32 %d, %a, %b;", [("f32", x), ("f32", y)], "f32")
    for g, u, v in zip(got, x, y):
        assert same_float(g, ref_binary(op, u, v, mode)), (op, mode, u, v, g)


def test_fma_ptx():
    rng = np.random.default_rng(5)
    x, y, z = (rng.standard_normal(64).astype(np.float32) for _ in range(3))
    got = run_op("fma.rn.f32 %d, %a, %b, %c;", [("f32", x), ("f32", y), ("f32", z)], "f32")
    want = [round_fraction(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)), "f32", "rn")
            for a, b, c in zip(x, y, z)]
    assert all(same_float(g, w) for g, w in zip(got, want))
    got = run_op("fma.rn.f64 %d, %a, %b, %c;", [("f64", x), ("f64", y), ("f64", z)], "f64")
    np.testing.assert_allclose(got, x.astype(np.float64) * y + z, rtol=1e-15)


# ------------------------------------------------------------------------------ ftz and sat
SUB = np.float32(1e-40)  # a subnormal f32


@pytest.mark.parametrize("instr,inputs,want", [
    ("add.ftz.f32 %d, %a, %b;", [SUB, np.float32(0)], 0.0),
    ("add.f32 %d, %a, %b;", [SUB, np.float32(0)], SUB),
    ("add.ftz.f32 %d, %a, %b;", [-SUB, np.float32(-0.0)], -0.0),
    ("add.ftz.f32 %d, %a, %b;", [-SUB, np.float32(0)], 0.0),
    ("mul.ftz.f32 %d, %a, %b;", [np.float32(1e-20), np.float32(1e-20)], 0.0),
    ("mul.rn.f32 %d, %a, %b;", [np.float32(1e-20), np.float32(1e-20)], np.float32(1e-40)),
    ("mul.ftz.f32 %d, %a, %b;", [SUB, np.float32(1e30)], 0.0),
    ("mul.f32 %d, %a, %b;", [SUB, np.float32(1e30)], np.float32(SUB * np.float32(1e30))),
    ("add.sat.f32 %d, %a, %b;", [np.float32(0.75), np.float32(0.75)], 1.0),
    ("add.sat.f32 %d, %a, %b;", [np.float32(-0.75), np.float32(0.25)], 0.0),
    ("mul.sat.f32 %d, %a, %b;", [np.float32(0.5), np.float32(0.5)], 0.25),
    ("add.sat.f32 %d, %a, %b;", [np.float32(np.inf), np.float32(-np.inf)], 0.0),  # NaN -> 0
    ("max.f32 %d, %a, %b;", [np.float32(np.nan), np.float32(2)], 2.0),
    ("min.f32 %d, %a, %b;", [np.float32(3), np.float32(np.nan)], 3.0),
    ("max.NaN.f32 %d, %a, %b;", [np.float32(np.nan), np.float32(2)], np.nan),
    ("min.f32 %d, %a, %b;", [np.float32(-1), np.float32(2)], -1.0),
    ("abs.f32 %d, %a;", [np.float32(-0.0)], 0.0),
    ("neg.f32 %d, %a;", [np.float32(0.0)], -0.0),
    ("copysign.f32 %d, %a, %b;", [np.float32(-1), np.float32(5)], -5.0),
])
def test_float_modifiers_ptx(instr, inputs, want):
    got = run_op(instr, [("f32", np.array([v], np.float32)) for v in inputs], "f32")[0]
    assert same_float(got, np.float32(want)), (instr, inputs, got)


def test_fma_sat_and_ftz_ptx():
    got = run_op("fma.rn.sat.f32 %d, %a, %b, %c;", [("f32", np.array([2.0, -1.0, 0.25], np.float32))] * 3, "f32")
    np.testing.assert_array_equal(got, np.array([1.0, 0.0, 0.3125], np.float32))
    got = run_op("fma.rn.ftz.f32 %d, %a, %b, %c;", [("f32", np.array([SUB], np.float32)),
                                                     ("f32", np.array([1e30], np.float32)),
                                                     ("f32", np.array([1.0], np.float32))], "f32")
    assert got[0] == np.float32(1.0)


# ------------------------------------------------------------------------------ comparisons
FLOAT_CMPS = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b and not (np.isnan(a) or np.isnan(b)),
    "lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
    "num": lambda a, b: not (np.isnan(a) or np.isnan(b)), "nan": lambda a, b: bool(np.isnan(a) or np.isnan(b)),
}
for _c in ["eq", "ne", "lt", "le", "gt", "ge"]:
    FLOAT_CMPS[_c + "u"] = (lambda c: lambda a, b: bool(np.isnan(a) or np.isnan(b)) or FLOAT_CMPS[c](a, b))(_c)
SPECIALS = [0.0, -0.0, 1.0, -1.0, 2.5, np.inf, -np.inf, np.nan, 1e-40, -3.0e38]


@pytest.mark.parametrize("t", ["f32", "f64"])
@pytest.mark.parametrize("cmp", list(FLOAT_CMPS))
def test_setp_float_ptx(t, cmp):
    xs = np.array([x for x in SPECIALS for _ in SPECIALS], dtype=np.float32 if t == "f32" else np.float64)
    ys = np.array([y for _ in SPECIALS for y in SPECIALS], dtype=xs.dtype)
    got = run_op(f"setp.{cmp}.{t} %d, %a, %b;", [(t, xs), (t, ys)], "pred")
    want = [int(bool(FLOAT_CMPS[cmp](x, y))) for x, y in zip(xs, ys)]
    assert list(got) == want


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(FLOAT_CMPS)), st.floats(width=32), st.floats(width=32))
def test_compare_alu(cmp, a, b):
    a, b = np.float32(a), np.float32(b)
    got = bool(alu.compare(cmp, np.array([a]), np.array([b]), "f32")[0])
    assert got == bool(FLOAT_CMPS[cmp](a, b))


def test_set_instruction_ptx():
    x = np.array([1.0, 2.0, np.nan], np.float32)
    y = np.array([2.0, 2.0, 0.0], np.float32)
    assert list(run_op("set.lt.u32.f32 %d, %a, %b;", [("f32", x), ("f32", y)], "u32")) == [0xFFFFFFFF, 0, 0]
    assert list(run_op("set.ltu.f32.f32 %d, %a, %b;", [("f32", x), ("f32", y)], "f32")) == [1.0, 0.0, 1.0]


def test_testp_ptx():
    x = np.array([1.0, np.inf, np.nan, 1e-40, 0.0, -np.inf], np.float32)
    for kind, fn in [("finite", np.isfinite), ("infinite", np.isinf), ("notanumber", np.isnan),
                     ("number", lambda v: ~np.isnan(v)),
                     ("normal", lambda v: np.isfinite(v) & (np.abs(v) >= TINY32)),
                     ("subnormal", lambda v: (np.abs(v) < TINY32) & (v != 0))]:
        got = run_op(f"testp.{kind}.f32 %d, %a;", [("f32", x)], "pred")
        assert list(got) == list(fn(x).astype(int)), kind


# ------------------------------------------------------------------------------ approximate math
# The simulator computes most of these correctly rounded; the hardware's .approx results differ by
# a few ulp, so we state the tolerance the PTX ISA guarantees (or 2 ulp where it gives an absolute
# bound). sin/cos reduce their argument as the H200 does (the ISA's bound holds in [-pi, pi]) and
# the f64 ones are the MUFU's 20-bit words: both have tests of their own below.
APPROX = {
    "ex2.approx.f32": (np.exp2, np.linspace(-100, 100, 97), 2),
    "ex2.approx.ftz.f32": (np.exp2, np.linspace(-20, 20, 41), 2),
    "lg2.approx.f32": (np.log2, np.geomspace(1e-30, 1e30, 61), 2),
    "rcp.approx.f32": (lambda x: 1 / x, np.geomspace(1e-30, 1e30, 61), 1),
    "sqrt.approx.f32": (np.sqrt, np.geomspace(1e-30, 1e30, 61), 1),
    "rsqrt.approx.f32": (lambda x: 1 / np.sqrt(x), np.geomspace(1e-30, 1e30, 61), 2),
    "sin.approx.f32": (np.sin, np.linspace(-np.pi, np.pi, 101), 2),
    "cos.approx.f32": (np.cos, np.linspace(-np.pi, np.pi, 101), 2),
    "tanh.approx.f32": (np.tanh, np.linspace(-10, 10, 81), 2),
}


@pytest.mark.parametrize("name", list(APPROX))
def test_approx_math_ptx(name):
    fn, xs, ulps = APPROX[name]
    t = name.rsplit(".", 1)[1]
    x = np.asarray(xs, np.float32 if t == "f32" else np.float64)
    got = run_op(f"{name} %d, %a;", [(t, x)], t)
    want = fn(x.astype(np.float64))
    if t == "f64":
        np.testing.assert_allclose(got, want, rtol=1e-15)
        return
    for g, w, v in zip(got, want, x):
        if name.startswith(("sin", "cos")):  # absolute error bound near zeros of sin/cos
            assert abs(float(g) - w) <= 2**-20.9, (name, v, g, w)
        else:
            assert ulp_diff32(g, np.float32(w)) <= ulps, (name, v, g, w)


@pytest.mark.parametrize("name,bits,want", [
    # (instruction, operand bits, result bits) measured on the H200 (benchmarks/microbench/math_api)
    ("sin.approx.f32", 0x501502F9, 0x00000000), ("cos.approx.f32", 0x501502F9, 0x3F800000),  # 1e10: whole turns
    ("sin.approx.f32", 0x7149F2CA, 0x00000000), ("cos.approx.f32", 0x7149F2CA, 0x3F800000),  # 1e30
    ("sin.approx.f32", 0x40490FDB, 0x00000000), ("cos.approx.f32", 0x40490FDB, 0xBF800000),  # float(pi)
    ("cos.approx.f32", 0x42FC0000, 0x3F71A94D), ("cos.approx.f32", 0xB6FE8055, 0x3F800000),  # 126, -7.58e-6
    ("sin.approx.f32", 0x00000001, 0x00000000), ("sin.approx.f32", 0x80000001, 0x80000000),  # subnormals flushed
])
def test_sincos_approx_reduce_as_the_h200(name, bits, want):
    x = np.array([bits], np.uint32).view(np.float32)
    got = run_op(f"{name} %d, %a;", [("f32", x)], "f32")
    assert int(np.asarray(got, np.float32).view(np.uint32)[0]) == want, (name, hex(bits), got)


def test_sin_approx_small_arguments_are_fixed_point_turns():
    """-7.58e-6 rad is 1.207e-6 turns, 20.25 units of 2**-24: the H200 answers -7.4905e-6, sin of 20
    units (2**-24 turns each); 1e-7 rad is 0.27 units and gives 0."""
    x = np.array([-7.5847297e-06, 1e-7, -3.0084544e-05], np.float32)
    got = run_op("sin.approx.f32 %d, %a;", [("f32", x)], "f32")
    want = np.sin(2 * np.pi * np.array([-20, 0, -80]) / 2.0**24)
    np.testing.assert_allclose(np.asarray(got, np.float64), want, rtol=2**-20, atol=0)


def test_f64_approx_are_mufu_high_words():
    """rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64 are MUFU.RCP64H / RSQ64H: the operand's high word
    in, a high word out (low word 0), within one unit of the 20th mantissa bit of the exact value;
    rsqrt.approx.f64 refines that once and lands within an ulp."""
    x = np.geomspace(1e-300, 1e300, 301)
    hi = (x.view(np.uint64) & np.uint64(0xFFFFFFFF00000000)).view(np.float64)
    for name, fn in (("rcp.approx.ftz.f64", lambda v: 1 / v), ("rsqrt.approx.ftz.f64", lambda v: 1 / np.sqrt(v))):
        got = np.asarray(run_op(f"{name} %d, %a;", [("f64", x)], "f64"), np.float64)
        assert not (got.view(np.uint64) & np.uint64(0xFFFFFFFF)).any(), name
        np.testing.assert_allclose(got, fn(hi), rtol=2.0**-19, err_msg=name)
    got = np.asarray(run_op("rsqrt.approx.f64 %d, %a;", [("f64", x)], "f64"), np.float64)
    np.testing.assert_allclose(got, 1 / np.sqrt(x), rtol=2.0**-51)
    special = np.array([0.0, -0.0, np.inf, -1.0, 1e-310])
    got = np.asarray(run_op("rsqrt.approx.f64 %d, %a;", [("f64", special)], "f64"), np.float64)
    assert list(got[:3]) == [np.inf, -np.inf, 0.0] and np.isnan(got[3])
    np.testing.assert_allclose(got[4], 1 / np.sqrt(1e-310), rtol=2.0**-51)  # subnormal: scaled by 2**54


@pytest.mark.parametrize("name,x,want", [
    ("lg2.approx.f32", 0.0, -np.inf), ("lg2.approx.f32", -1.0, np.nan), ("lg2.approx.f32", np.inf, np.inf),
    ("ex2.approx.f32", -np.inf, 0.0), ("ex2.approx.f32", np.inf, np.inf), ("ex2.approx.f32", 200.0, np.inf),
    ("rcp.approx.f32", 0.0, np.inf), ("rcp.approx.f32", -0.0, -np.inf), ("rsqrt.approx.f32", 0.0, np.inf),
    ("sqrt.approx.f32", -1.0, np.nan), ("sin.approx.f32", np.inf, np.nan), ("tanh.approx.f32", np.inf, 1.0),
])
def test_approx_math_special_values(name, x, want):
    got = run_op(f"{name} %d, %a;", [("f32", np.array([x], np.float32))], "f32")[0]
    assert same_float(got, np.float32(want)), (name, x, got)


# ------------------------------------------------------------------------------ half precision
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_f16_and_bf16_arithmetic_ptx():
    x = np.array([1.0, 0.1, 65504.0, -3.5, 1e-7], np.float16)
    y = np.array([2.0, 0.2, 65504.0, 0.25, 1e-7], np.float16)
    xb, yb = x.view(np.uint16), y.view(np.uint16)
    got = run_op("add.f16 %d, %a, %b;", [("f16", xb), ("f16", yb)], "f16").view(np.float16)
    np.testing.assert_array_equal(got, (x + y))
    got = run_op("mul.rn.f16 %d, %a, %b;", [("f16", xb), ("f16", yb)], "f16").view(np.float16)
    np.testing.assert_array_equal(got, (x * y))
    got = run_op("fma.rn.f16 %d, %a, %b, %c;", [("f16", xb), ("f16", yb), ("f16", xb)], "f16").view(np.float16)
    want = [round_fraction(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(a)), "f16", "rn")
            for a, b in zip(x, y)]
    np.testing.assert_array_equal(got, np.array(want, np.float16))
    # packed f16x2: lanes {lo, hi}
    packed_x = (xb.astype(np.uint32) | (yb.astype(np.uint32) << 16))
    got = run_op("add.f16x2 %d, %a, %b;", [("b32", packed_x), ("b32", packed_x)], "b32")
    lo = (got & 0xFFFF).astype(np.uint16).view(np.float16)
    hi = (got >> 16).astype(np.uint16).view(np.float16)
    np.testing.assert_array_equal(lo, x + x)
    np.testing.assert_array_equal(hi, y + y)
    # bf16 add: bits are the top half of a float32
    fx = np.array([1.0, 3.0, -2.5, 1e30], np.float32)
    fy = np.array([2.0**-8, 2.0**-7, 0.5, 1e30], np.float32)
    bx, by = (fx.view(np.uint32) >> 16).astype(np.uint16), (fy.view(np.uint32) >> 16).astype(np.uint16)
    got = run_op("add.rn.bf16 %d, %a, %b;", [("bf16", bx), ("bf16", by)], "bf16")
    want = [round_fraction(Fraction(float(a)) + Fraction(float(b)), "bf16", "rn") for a, b in zip(
        (bx.astype(np.uint32) << 16).view(np.float32), (by.astype(np.uint32) << 16).view(np.float32))]
    assert list((got.astype(np.uint32) << 16).view(np.float32)) == [float(w) for w in want]


def _bf16_value(bits) -> float:
    return float(np.array([int(bits) << 16], np.uint32).view(np.float32)[0])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["f16", "bf16"]), st.integers(0, 0xFFFF), st.integers(0, 0xFFFF), st.integers(0, 0xFFFF),
       st.sampled_from(["", ".relu", ".sat"]))
@example("bf16", 0xBEAC, 0xB2E0, 0x19A4, "")  # H200: 0x3217 (rounding through f32 first gave 0x3216)
@example("f16", 0x3C00, 0xE653, 0xB868, ".relu")  # H200: 0x0000
@example("f16", 0x0C57, 0x8622, 0x46C9, ".sat")  # -0 saturates to +0 on the H200
def test_half_fma_rounds_once(t, a, b, c, mod):
    """fma.rn{.relu,.sat}.{f16,bf16}: the exact a*b+c rounded once; .relu makes negatives +0, .sat
    clamps to [+0, 1]; a NaN result is 0x7FFF (what the H200 returns: benchmarks/microbench/math_api)."""
    if mod == ".sat" and t == "bf16":
        return  # fma.sat has no bf16 form
    got = int(run_op(f"fma.rn{mod}.{t} %d, %a, %b, %c;", [(t, np.array([a], np.uint16)), (t, np.array([b], np.uint16)),
                                                          (t, np.array([c], np.uint16))], t)[0])
    val = _bf16_value if t == "bf16" else (lambda v: float(np.array([v], np.uint16).view(np.float16)[0]))
    va, vb, vc = val(a), val(b), val(c)
    if any(np.isnan(v) for v in (va, vb, vc)) or (np.isinf(va) or np.isinf(vb) or np.isinf(vc)):
        exact_nan = np.isnan(va * vb + vc) if not np.isnan(va) and not np.isnan(vb) and not np.isnan(vc) else True
        if exact_nan:
            assert got == (0 if mod == ".sat" else 0x7FFF), (t, hex(a), hex(b), hex(c), hex(got))
        return
    exact = Fraction(va) * Fraction(vb) + Fraction(vc)
    if exact == 0:
        pneg = (va < 0 or (va == 0 and np.signbit(va))) != (vb < 0 or (vb == 0 and np.signbit(vb)))
        zneg = pneg if ((va == 0 or vb == 0) and vc == 0 and pneg == bool(np.signbit(vc))) else False
    else:
        zneg = False
    want = float(round_fraction(exact, t, "rn", zero_negative=zneg))
    if mod == ".relu" and want <= 0:
        want = 0.0
    if mod == ".sat":
        want = 0.0 if want <= 0 else min(want, 1.0)
    assert val(got) == want and np.signbit(val(got)) == np.signbit(want), (t, hex(a), hex(b), hex(c), hex(got), want)


def test_half_and_single_nan_results_are_canonical():
    """The H200's NaN results: 0x7FFF for f16 / bf16 arithmetic and conversions to them, 0x7FFFFFFF
    for f32 division, square root and conversions from f16 (benchmarks/microbench/math_api)."""
    nan16 = np.array([0x7E01], np.uint16)  # a quiet NaN with a payload
    assert run_op("add.f16 %d, %a, %b;", [("f16", nan16), ("f16", nan16)], "f16")[0] == 0x7FFF
    one = np.array([0x3C00], np.uint16)
    assert run_op("max.NaN.f16 %d, %a, %b;", [("f16", nan16), ("f16", one)], "f16")[0] == 0x7FFF
    f = np.array([np.nan, -1.0], np.float32)
    for instr in ("div.rn.f32 %d, %a, %a;", "sqrt.rn.f32 %d, %a;", "sqrt.approx.f32 %d, %a;"):
        got = np.asarray(run_op(instr, [("f32", f)], "f32"), np.float32).view(np.uint32)
        assert got[0] == 0x7FFFFFFF, instr
    got = run_op("cvt.rn.f16.f32 %d, %a;", [("f32", f)], "f16")
    assert int(got[0]) == 0x7FFF
    got = np.asarray(run_op("cvt.f32.f16 %d, %a;", [("f16", nan16)], "f32"), np.float32).view(np.uint32)
    assert got[0] == 0x7FFFFFFF
    snan_bf16 = np.array([0x7F81], np.uint16)  # bf16 -> f32 is a shift: even a signalling NaN stays
    got = np.asarray(run_op("cvt.f32.bf16 %d, %a;", [("bf16", snan_bf16)], "f32"), np.float32).view(np.uint32)
    assert got[0] == 0x7F810000
