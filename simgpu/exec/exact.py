"""binary64 results rounded exactly, in every PTX rounding mode, from rational arithmetic.

The float64 error-term paths in alu.py (TwoSum, TwoProd, Dekker's residual) decide a directed
rounding correctly while the result and its error are normal float64 numbers. They cannot where
the result overflows (.rz never rounds to infinity, it gives the largest finite number), lies in
the subnormal range (the error term underflows), or, for fma, where two error terms would have to
be added (double rounding). Those lanes, few in any real kernel, are recomputed here with Python's
exact fractions; the H200 agrees bit for bit (benchmarks/microbench/math_api: __dmul_rz,
__ddiv_ru, __fma_rd, ...).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

_MIN_EXP = -1074  # the smallest binary64 subnormal is 2**-1074
_MANT = 53


def round_fraction(q: Fraction, mode: str, negative_zero: bool = False) -> float:
    """The binary64 number nearest q in PTX rounding mode rn/rz/rm/rp (IEEE 754 overflow rules).
    An exact zero result is -0.0 when `negative_zero`."""
    if q == 0:
        return -0.0 if negative_zero else 0.0
    neg = q < 0
    a = -q if neg else q
    # exponent of the leading bit: 2**e <= a < 2**(e+1)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    shift = max(e - (_MANT - 1), _MIN_EXP)  # weight of the last kept bit
    scaled = a / Fraction(2) ** shift
    n = scaled.numerator // scaled.denominator
    rest = scaled - n
    if rest:
        up = {"rn": rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1),
              "rz": False, "rp": not neg, "rm": neg}[mode or "rn"]
        n += up
    if n == 0:
        return -0.0 if neg else 0.0
    if n.bit_length() + shift > 1024:  # past the largest finite number
        to_inf = {"rn": True, "rz": False, "rp": not neg, "rm": neg}[mode or "rn"]
        v = math.inf if to_inf else np.finfo(np.float64).max
    else:
        v = math.ldexp(n, shift)
    return -v if neg else v


def exact_f64(op: str, mode: str, a: float, b: float = 0.0, c: float = 0.0) -> float:
    """One lane of add/sub/mul/div/fma/sqrt on finite operands (a nonzero divisor, a non-negative
    sqrt operand), rounded once in `mode`."""
    fa, fb, fc = Fraction(a), Fraction(b), Fraction(c)
    if op == "sqrt":
        return _sqrt(fa, mode)
    q = {"add": lambda: fa + fb, "sub": lambda: fa - fb, "mul": lambda: fa * fb, "div": lambda: fa / fb,
         "fma": lambda: fa * fb + fc}[op]()
    if q == 0:  # IEEE 754's sign of an exact zero
        if op in ("mul", "div"):
            neg = math.copysign(1, a) * math.copysign(1, b) < 0
        else:
            x_sign = math.copysign(1, a) * (math.copysign(1, b) if op == "fma" else 1)
            x_zero = a == 0 or (op == "fma" and b == 0)
            y = -b if op == "sub" else (c if op == "fma" else b)
            if x_zero and y == 0 and x_sign == math.copysign(1, y):
                neg = x_sign < 0  # (+0) + (+0), (-0) + (-0)
            else:
                neg = mode == "rm"  # a cancellation (or +0 + -0): +0, but -0 rounding down
        return round_fraction(q, mode, neg)
    return round_fraction(q, mode)


def _sqrt(a: Fraction, mode: str) -> float:
    if a == 0:
        return float(a)
    # root = floor(sqrt(a) * 2**k) with k large enough that root has more than 55 bits: then no
    # binary64 rounding boundary lies strictly between root and root + 1 (in units of 2**-k), and
    # an inexact root rounds as root + 1/2 does
    k = 2 * (_MANT + 4) + max(0, a.denominator.bit_length() - a.numerator.bit_length())
    scaled = a * Fraction(2) ** (2 * k)
    root = math.isqrt(scaled.numerator // scaled.denominator)
    approx = Fraction(root, 2 ** k)
    return round_fraction(approx if approx * approx == a else approx + Fraction(1, 2 ** (k + 1)), mode)


def recompute(op: str, mode: str, out: np.ndarray, where: np.ndarray, *args: np.ndarray) -> np.ndarray:
    """out with the lanes `where` recomputed exactly (args broadcast to out's shape)."""
    if not np.any(where):
        return out
    out = np.array(out, np.float64, copy=True)
    where = np.broadcast_to(where, out.shape)
    full = [np.broadcast_to(np.asarray(x, np.float64), out.shape) for x in args]
    for idx in zip(*np.nonzero(where)):
        out[idx] = exact_f64(op, mode, *(float(x[idx]) for x in full))
    return out
