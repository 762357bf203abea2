"""Exact floating-point references: round a real number (given exactly, as a Fraction or through a
comparison function) to f16 / bf16 / f32 / f64 with an IEEE rounding mode rn / rz / rm / rp.

Nothing here uses hardware floating point for the answer; candidates are found from a float guess
and then checked with exact rational comparisons.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

# format -> (bits, emax, numpy dtype of the value we return (bf16 as float32))
FMT = {"f16": (16, 15, np.float16), "bf16": (16, 127, np.float32), "f32": (32, 127, np.float32),
       "f64": (64, 1023, np.float64)}
_UINT = {16: np.uint16, 32: np.uint32, 64: np.uint64}
_EXP_BITS = {"f16": 5, "bf16": 8, "f32": 8, "f64": 11}


def inf_code(fmt: str) -> int:
    bits = FMT[fmt][0]
    e = _EXP_BITS[fmt]
    return ((1 << e) - 1) << (bits - 1 - e)


def code_value(code: int, fmt: str) -> Fraction:
    """Magnitude of a non-negative code; the infinity code counts as 2**(emax+1)."""
    if code >= inf_code(fmt):
        return Fraction(2) ** (FMT[fmt][1] + 1)
    return Fraction(float(from_bits(code, fmt)))


def from_bits(bits: int, fmt: str):
    if fmt == "bf16":
        return np.array([bits << 16], np.uint32).view(np.float32)[0]
    b = FMT[fmt][0]
    dt = {16: np.float16, 32: np.float32, 64: np.float64}[b]
    return np.array([bits], _UINT[b]).view(dt)[0]


def to_bits(x, fmt: str) -> int:
    if fmt == "bf16":
        return int(np.array([x], np.float32).view(np.uint32)[0]) >> 16
    b = FMT[fmt][0]
    dt = {16: np.float16, 32: np.float32, 64: np.float64}[b]
    return int(np.array([x], dt).view(_UINT[b])[0])


def _guess_code(g: float, fmt: str) -> int:
    with np.errstate(all="ignore"):
        if fmt == "bf16":
            return min(to_bits(np.float32(g), "f32") >> 16, inf_code(fmt))
        dt = FMT[fmt][2]
        return min(to_bits(dt(g), fmt), inf_code(fmt))


def round_magnitude(cmp: Callable[[Fraction], int], guess: float, negative: bool, fmt: str, mode: str):
    """Round a positive real |t| (described by cmp(q) = sign(q - |t|)) to `fmt`; apply the sign."""
    ic = inf_code(fmt)
    k = _guess_code(abs(guess), fmt)
    k = min(k, ic - 1)
    while k > 0 and cmp(code_value(k, fmt)) > 0:
        k -= 1
    while k + 1 < ic and cmp(code_value(k + 1, fmt)) <= 0:
        k += 1
    c = cmp(code_value(k, fmt))
    if c == 0:
        code = k
    else:
        lo, hi = k, k + 1
        if mode == "rz":
            code = lo
        elif mode == "rp":
            code = lo if negative else hi
        elif mode == "rm":
            code = hi if negative else lo
        else:
            mid = (code_value(lo, fmt) + code_value(hi, fmt)) / 2
            cm = cmp(mid)
            code = lo if cm > 0 else hi if cm < 0 else (lo if lo % 2 == 0 else hi)
    bits = FMT[fmt][0]
    sign = (1 << (bits - 1)) if negative else 0
    return from_bits(sign | code, fmt)


def round_fraction(x: Fraction, fmt: str, mode: str, zero_negative: bool = False):
    """Round an exact rational to `fmt`; a zero takes the sign given by `zero_negative`."""
    if x == 0:
        z = from_bits((1 << (FMT[fmt][0] - 1)) if zero_negative else 0, fmt)
        return z
    ax = abs(x)
    return round_magnitude(lambda q: (q > ax) - (q < ax), float(ax) if ax < 2**1024 else float("inf"),
                           x < 0, fmt, mode)


def round_sqrt(x: Fraction, fmt: str, mode: str):
    """Correctly rounded sqrt of a non-negative rational."""
    if x == 0:
        return from_bits(0, fmt)  # the caller keeps the sign of a zero input (sqrt(-0) = -0)
    return round_magnitude(lambda q: (q * q > x) - (q * q < x), float(x) ** 0.5, False, fmt, mode)


def exact_zero_sign(mode: str, both_zero_same_sign_negative: bool | None) -> bool:
    """IEEE 754 sign of an exact zero sum: the common sign when both addends are zeros of one sign,
    otherwise +0, except -0 when rounding toward -inf."""
    if both_zero_same_sign_negative is not None:
        return both_zero_same_sign_negative
    return mode == "rm"


def same_float(a, b) -> bool:
    """Bitwise equality, any NaN equal to any NaN."""
    a = np.asarray(a)
    b = np.asarray(b, dtype=a.dtype)
    if np.isnan(a) and np.isnan(b):
        return True
    return a.tobytes() == b.tobytes()


def ulp_diff32(a: float, b: float) -> int:
    """Distance in units of the last place between two float32 values (ordered bit patterns)."""
    def key(v):
        i = int(np.array([v], np.float32).view(np.int32)[0])
        return i if i >= 0 else -(i & 0x7FFFFFFF)
    return abs(key(a) - key(b))
