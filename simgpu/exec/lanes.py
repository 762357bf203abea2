"""Scalar lane semantics shared by both engines (numba-compiled).

The fast engine calls these per lane; the reference engine calls the same functions through NumPy
ufuncs built from them (`fma_rn_f32_ufunc`, `minmax_f32_bits_ufunc`, `compare_truth_ufunc`,
`shift_bits_ufunc`), so the algorithm exists once. Registers hold raw
uint64 bits (exec/values.py): a typed value is read by truncating to the type's width (and
sign-extending for signed integer types) and written back zero-extended, as `from_raw` / `to_raw`
do for whole arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit, vectorize

_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def mask_bits(bits):
    """The low `bits` bits set (bits in 1..64)."""
    if bits >= 64:
        return _ALL
    return (np.uint64(1) << np.uint64(bits)) - np.uint64(1)


@njit(cache=True)
def sext(raw, bits):
    """The low `bits` bits of raw, sign-extended to 64 bits (as uint64)."""
    if bits >= 64:
        return raw
    m = mask_bits(bits)
    v = raw & m
    if (v >> np.uint64(bits - 1)) & np.uint64(1):
        v |= ~m
    return v


@njit(cache=True)
def _next_f32(r, up):
    """The float32 neighbour of r toward +inf (up) or -inf (NumPy's nextafter for finite r)."""
    if r == 0:
        tiny = np.float32(1.4e-45)
        return tiny if up else -tiny
    b = np.float32(r).view(np.uint32)
    b = b + np.uint32(1) if (r > 0) == up else b - np.uint32(1)
    return np.uint32(b).view(np.float32)


F32_CANONICAL_NAN = np.uint32(0x7FFFFFFF).view(np.float32)  # the GPU's binary32 NaN result (alu.py)
_TIE29 = np.uint64(1 << 28)
_LOW29 = np.uint64((1 << 29) - 1)


@njit(cache=True)
def fma_sum_near_tie(s):
    """Whether the float64 sum s of an f32 fma may round differently from the exact sum: it sits
    exactly halfway between two float32 numbers (low 29 mantissa bits = 1 << 28), or is subnormal."""
    return (np.float64(s).view(np.uint64) & _LOW29) == _TIE29 or (abs(s) < 2.0 ** -125 and s != 0)


@njit(cache=True)
def fma_rn_f32(a, b, c):
    """a*b+c rounded once to float32 (round to nearest even); the same algorithm as
    exec/alu.float_fma for float32 .rn: the float64 product is exact, the float64 sum rounds to the
    right float32 unless it sits exactly on a float32 tie (low 29 mantissa bits = 1 << 28) or in the
    subnormal range, where the exact TwoSum error decides the direction."""
    p = np.float64(a) * np.float64(b)
    c64 = np.float64(c)
    s = p + c64
    r = np.float32(s)
    if s != s:
        return F32_CANONICAL_NAN
    if not fma_sum_near_tie(s):
        return r
    return _fma_tie(p, c64, s, r)


@njit(cache=True)
def _fma_tie(p, c64, s, r):
    bb = s - p
    e = (p - (s - bb)) + (c64 - bb)
    if not np.isfinite(e):
        e = 0.0
    if e == 0 or not np.isfinite(s):
        return r
    back = np.float64(r)
    other = _next_f32(r, back < s)
    mid = (back + np.float64(other)) / 2
    if back != s and mid == s:  # s is a tie of float32 while the exact value is off it
        hi, lo = (r, other) if back > np.float64(other) else (other, r)
        return hi if e > 0 else lo
    return r


@vectorize(["float32(float32, float32, float32)"], cache=True)
def fma_rn_f32_ufunc(a, b, c):
    """fma_rn_f32 as a NumPy ufunc (the reference engine's fma.rn.f32)."""
    return fma_rn_f32(a, b, c)


_F32_CANONICAL_NAN_BITS = np.uint32(0x7FFFFFFF)


@njit(cache=True)
def minmax_f32_bits(is_max, a, b):
    """min/max.f32 on the bits of two binary32 values (uint32), as the H200 computes them
    (benchmarks/microbench/nan/minmax_results_h200.json): a NaN operand yields the other operand,
    two NaNs the canonical NaN, and -0.0 < +0.0. Returns the result's bits."""
    a = np.uint32(a)
    b = np.uint32(b)
    x = a.view(np.float32)
    y = b.view(np.float32)
    if x != x:
        return _F32_CANONICAL_NAN_BITS if y != y else b
    if y != y:
        return a
    neg_a = (a >> np.uint32(31)) != 0
    if is_max:
        return a if (x > y or (x == y and not neg_a)) else b
    return a if (x < y or (x == y and neg_a)) else b


@vectorize(["uint32(boolean, uint32, uint32)"], cache=True)
def minmax_f32_bits_ufunc(is_max, a, b):
    """minmax_f32_bits as a NumPy ufunc (the reference engine's min/max.f32)."""
    return minmax_f32_bits(is_max, a, b)


# setp / set comparison codes: lo/ls/hi/hs are the unsigned spellings of lt/le/gt/ge; the float
# forms ending in u are unordered (true when an operand is NaN); num / nan test for NaN
CMP_CODES = {"eq": 0, "ne": 1, "lt": 2, "le": 3, "gt": 4, "ge": 5, "lo": 2, "ls": 3, "hi": 4, "hs": 5,
             "equ": 6, "neu": 7, "ltu": 8, "leu": 9, "gtu": 10, "geu": 11, "num": 12, "nan": 13}


@njit(cache=True)
def compare_truth(code, lt, eq, nan):
    """A comparison's result (code: CMP_CODES) from a < b, a == b and whether an operand is NaN:
    ordered forms are false and unordered forms true on NaN."""
    if code == 12:
        return not nan
    if code == 13:
        return nan
    if nan:
        return code >= 6
    base = code - 6 if code >= 6 else code
    if base == 0:
        return eq
    if base == 1:
        return not eq
    if base == 2:
        return lt
    if base == 3:
        return lt or eq
    if base == 4:
        return not (lt or eq)
    return not lt


@vectorize(["boolean(int64, boolean, boolean, boolean)"], cache=True)
def compare_truth_ufunc(code, lt, eq, nan):
    """compare_truth as a NumPy ufunc (the reference engine's setp / set)."""
    return compare_truth(code, lt, eq, nan)


@njit(cache=True)
def shift_bits(is_left, signed, a, amt, bits):
    """shl / shr of the low `bits` bits of raw a by amt (the low 32 bits of the amount operand),
    with PTX's clamp: an amount >= the width gives 0, or the sign fill for shr.s. Result raw, masked."""
    m = mask_bits(bits)
    if amt >= np.uint64(bits):
        if not is_left and signed and np.int64(sext(a, bits)) < 0:
            return m
        return np.uint64(0)
    if is_left:
        return (a << amt) & m
    if signed:
        return np.uint64(np.int64(sext(a, bits)) >> np.int64(amt)) & m
    return ((a & m) >> amt) & m


@vectorize(["uint64(boolean, boolean, uint64, uint64, int64)"], cache=True)
def shift_bits_ufunc(is_left, signed, a, amt, bits):
    """shift_bits as a NumPy ufunc (the reference engine's shl / shr)."""
    return shift_bits(is_left, signed, a, amt, bits)


@njit(cache=True)
def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@njit(cache=True)
def _split(x):
    c = 134217729.0 * x  # 2**27 + 1
    hi = c - (c - x)
    return hi, x - hi


@njit(cache=True)
def fma_rn_f64_or_flag(a, b, c):
    """a*b+c rounded once to nearest even in float64 from TwoProd / TwoSum error terms, or NaN
    (from finite operands: the caller's flag for exec/exact.py) where those cannot decide: operands or
    result near overflow or the subnormal range, a product that underflows, a result exactly
    halfway once the last error term is dropped, or an exact zero whose sign needs IEEE's rule."""
    if not (np.isfinite(a) and np.isfinite(b) and np.isfinite(c)):
        return a * b + c
    if max(abs(a), abs(b), abs(c)) > 2.0 ** 990:
        return np.nan
    p = a * b
    if p != 0 and abs(p) < 2.0 ** -969 or (p == 0 and a != 0 and b != 0):
        return np.nan
    ah, al = _split(a)
    bh, bl = _split(b)
    pe = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s, se = _two_sum(p, c)
    t, te = _two_sum(se, pe)
    r, re = _two_sum(s, t)
    if r == 0:
        if pe == 0 and se == 0:
            return p + c  # an exact zero: IEEE's sign for round-to-nearest, as the FPU gives it
        return np.nan
    ar = abs(r)
    if ar < 2.0 ** -960 or ar > 2.0 ** 990:
        return np.nan
    if te != 0 and re != 0:
        exp_field = (np.float64(r).view(np.uint64) >> np.uint64(52)) & np.uint64(0x7FF)
        half_ulp = np.uint64((exp_field - np.uint64(53)) << np.uint64(52)).view(np.float64)  # r is normal here
        if abs(re) == half_ulp:  # exactly halfway: te decides, and was dropped
            return np.nan
    return r


@vectorize(["float64(float64, float64, float64)"], cache=True)
def fma_rn_f64_ufunc(a, b, c):
    """fma_rn_f64_or_flag as a NumPy ufunc: NaN where the lane needs exact arithmetic (a NaN
    result from NaN operands is told apart by the operands)."""
    return fma_rn_f64_or_flag(a, b, c)
