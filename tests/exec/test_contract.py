"""ptxas's multiply-add contraction (exec/contract.py): mul + add without rounding modifiers are
rounded once, as one FFMA / DFMA; anything else keeps its two roundings."""

from fractions import Fraction

import numpy as np
import pytest
from ptxharness import run_op

from simgpu.exec import alu

# a*b rounds to 1 + 2**-22 in float32 (exact a*b = 1 + 2**-22 + 2**-46): adding c = -(1 + 2**-22)
# leaves 0 when the product is rounded first, 2**-46 when it is not
A = np.float32(1 + 2**-23)
B = np.float32(1 + 2**-23)
C = np.float32(-(1 + 2**-22))
FUSED = np.float32(2**-46)


def _run(body: str, t: str = "f32"):
    x = np.array([A, -A], np.float32 if t == "f32" else np.float64)
    y = np.array([B, B], x.dtype)
    z = np.array([C, -C], x.dtype)
    return run_op(body, [(t, x), (t, y), (t, z)], t, extra=f"  .reg .{t} %p, %q;")


@pytest.mark.parametrize("body,want", [
    ("mul.f32 %p, %a, %b;\n  add.f32 %d, %p, %c;", [FUSED, -FUSED]),           # product first
    ("mul.f32 %p, %a, %b;\n  add.f32 %d, %c, %p;", [FUSED, -FUSED]),           # product second
    ("mul.f32 %p, %a, %b;\n  sub.f32 %d, %p, %c;", None),                       # a*b - c
    ("mul.f32 %p, %a, %b;\n  sub.f32 %d, %c, %p;", None),                       # c - a*b
    ("mul.rn.f32 %p, %a, %b;\n  add.f32 %d, %p, %c;", [0.0, 0.0]),             # .rn: no contraction
    ("mul.f32 %p, %a, %b;\n  add.rn.f32 %d, %p, %c;", [0.0, 0.0]),
    ("mul.f32 %p, %a, %b;\n  add.f32 %d, %p, %c;\n  add.f32 %d, %d, %p;", None),  # two readers
])
def test_contraction(body, want):
    got = _run(body)
    if want is None:
        return  # computed below where the expected value needs care
    np.testing.assert_array_equal(got, np.array(want, np.float32))


def _once(values) -> np.ndarray:
    """Exact rationals rounded once to float32 (through float64, exact here: 48 bits are enough)."""
    return np.array([float(v) for v in values], np.float32)


def test_sub_both_ways_and_two_readers():
    pairs = ((A, C), (-A, -C))
    got = _run("mul.f32 %p, %a, %b;\n  sub.f32 %d, %p, %c;")
    np.testing.assert_array_equal(got, _once(Fraction(float(a)) * Fraction(float(B)) - Fraction(float(c))
                                             for a, c in pairs))
    got = _run("mul.f32 %p, %a, %b;\n  sub.f32 %d, %c, %p;")
    np.testing.assert_array_equal(got, _once(Fraction(float(c)) - Fraction(float(a)) * Fraction(float(B))
                                             for a, c in pairs))
    got = _run("mul.f32 %p, %a, %b;\n  add.f32 %d, %p, %c;\n  add.f32 %d, %d, %p;")
    p = np.float32(A * B)
    assert got[0] == np.float32(np.float32(p + C) + p)  # the product read twice: rounded on its own


def test_no_contraction_across_a_redefinition_or_label():
    body = "mul.f32 %p, %a, %b;\n  mov.f32 %a, 0f00000000;\n  add.f32 %d, %p, %c;"
    np.testing.assert_array_equal(_run(body), np.array([0.0, 0.0], np.float32))  # a changed: two roundings
    body = "mul.f32 %p, %a, %b;\n  bra L1;\nL1:\n  add.f32 %d, %p, %c;"
    np.testing.assert_array_equal(_run(body), np.array([0.0, 0.0], np.float32))


def test_f64_contraction():
    a, b = 1 + 2.0**-52, 1 + 2.0**-52
    c = -(1 + 2.0**-51)
    x = np.array([a]), np.array([b]), np.array([c])
    got = run_op("mul.f64 %p, %a, %b;\n  add.f64 %d, %p, %c;", [("f64", x[0]), ("f64", x[1]), ("f64", x[2])], "f64",
                 extra="  .reg .f64 %p;")
    assert got[0] == alu.float_fma(*x, np.float64, "rn")[0] == 2.0**-104
