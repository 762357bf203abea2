"""The H200's special-function unit (MUFU) and ptxas's code around it.

Bit for bit for reciprocal, reciprocal square root, square root and 2**x: MUFU.RCP, MUFU.RSQ and
MUFU.SQRT measured over every float32 mantissa (benchmarks/microbench/math_api/mufu_tables.py,
data/mufu_h200.npz), MUFU.EX2 over every point of its operand grid (ex2_probe.py,
data/mufu_ex2_h200.npz). Modelled from measurements, not tabulated: MUFU.SIN / COS (the argument
reduction exact, the unit's own approximation not) and the f64 MUFU.RCP64H / RSQ64H (20-bit words).

Each unit's result is the exact value rounded toward zero, or the float above it, as one
measured bit per operand mantissa (per mantissa and exponent parity for the square roots), and for
79,748 of MUFU.RSQ's 16,777,216 operands a float one below or two above (listed with their
offsets). The bits did not change with the exponent (checked at a second exponent on the device),
so a table of mantissas decides every normal operand. The units flush subnormal operands and
results to zero; the non-.ftz PTX forms wrap them in ptxas's scaling, modelled here as its SASS does
it (benchmarks/microbench/math_api/results/primitives_sass.txt).
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from simgpu.exec import alu

_DATA = Path(__file__).with_name("data") / "mufu_h200.npz"
_TINY = 2.0 ** -126


@functools.cache
def _tables() -> dict[str, np.ndarray]:
    """op -> the result's offset in ulp from the exact value rounded toward zero, per index: 0 or 1
    from the measured bit, else the measured -1 / +2."""
    raw = np.load(_DATA)
    out = {}
    for op in ("rcp", "rsqrt", "sqrt"):
        up = np.unpackbits(raw[op], bitorder="little").astype(np.int8)
        up[raw[f"{op}_other_index"]] = raw[f"{op}_other_ulps"]
        out[op] = up
    return out


def _toward_zero_f32(exact: np.ndarray) -> np.ndarray:
    """exact (positive float64) rounded toward zero to float32, as the measurement defined it."""
    lo = exact.astype(np.float32)
    return np.where(lo.astype(np.float64) > exact, np.nextafter(lo, np.float32(0)), lo)


def unit(op: str, x) -> np.ndarray:
    """MUFU.RCP / RSQ / SQRT of float32 x: subnormal operands and results flushed to zero, NaN out
    as 0x7FFFFFFF, every normal operand from the measured table."""
    x = np.asarray(x, np.float32)
    with np.errstate(all="ignore"):
        a = np.abs(x).astype(np.float64)
        a = np.where(a < _TINY, 0.0, a)  # the unit flushes subnormal operands
        bits = x.view(np.uint32)
        mant = (bits & np.uint32(0x7FFFFF)).astype(np.int64)
        if op == "rcp":
            exact, index = 1.0 / a, mant
        else:
            parity = (((bits >> np.uint32(23)) & np.uint32(0xFF)).astype(np.int64) - 127) & 1
            exact = 1.0 / np.sqrt(a) if op == "rsqrt" else np.sqrt(a)
            index = (parity << 23) | mant
        normal = (a >= _TINY) & np.isfinite(a) & np.isfinite(exact) & (exact >= _TINY)
        lo = _toward_zero_f32(np.where(normal, exact, 1.0))
        offset = _tables()[op][np.where(normal, index, 0)]
        r = (lo.view(np.int32) + offset.astype(np.int32)).view(np.float32)
        r = np.where(normal, r, np.where(exact < _TINY, np.float32(0), exact.astype(np.float32)))
        neg = np.signbit(x)
        r = np.where(neg, -r, r)  # rcp(-x) = -rcp(x); rsqrt(-0) = -inf, sqrt(-0) = -0
        if op != "rcp":
            r = np.where(neg & (a != 0), np.float32(np.nan), r)  # a root of a negative number
        return alu.canonical_nan(r.astype(np.float32))  # a NaN operand gives a NaN exact value


def approx(op: str, x, ftz: bool) -> np.ndarray:
    """rcp/rsqrt/sqrt.approx{.ftz}.f32 as ptxas lowers them for sm_90: .ftz is the unit alone;
    without it a subnormal operand is scaled by 2**24 first (and the result back: by 2**24,
    2**12, 2**-12), and rcp of a huge operand (> 2**126) by 1/4 around the unit."""
    x = np.asarray(x, np.float32)
    if ftz:
        return unit(op, x)
    with np.errstate(all="ignore"):
        sub = np.abs(x) < np.float32(_TINY)
        if op == "rcp":
            scale = np.where(np.abs(x) > np.float32(2.0 ** 126), np.float32(0.25),
                             np.where(sub, np.float32(2.0 ** 24), np.float32(1)))
            return (scale * unit(op, x * scale)).astype(np.float32)
        back = np.float32(2.0 ** 12 if op == "rsqrt" else 2.0 ** -12)
        r = unit(op, np.where(sub, x * np.float32(2.0 ** 24), x))
        return np.where(sub, r * back, r).astype(np.float32)


def div_approx(x, y, ftz: bool) -> np.ndarray:
    """div.approx{.ftz}.f32 (__fdividef, fast-math '/'): x times MUFU.RCP(y); without .ftz a
    subnormal divisor and the dividend are both scaled by 2**24 first (the H200's SASS)."""
    x, y = np.asarray(x, np.float32), np.asarray(y, np.float32)
    with np.errstate(all="ignore"):
        if not ftz:
            sub = np.abs(y) < np.float32(_TINY)
            x = np.where(sub, x * np.float32(2.0 ** 24), x)
            y = np.where(sub, y * np.float32(2.0 ** 24), y)
        r = (x * unit("rcp", y)).astype(np.float32)
        return alu.canonical_nan(alu.ftz(r) if ftz else r)


@functools.cache
def _ex2_tables() -> tuple[np.ndarray, np.ndarray]:
    raw = np.load(_DATA.with_name("mufu_ex2_h200.npz"))
    return raw["offsets"], raw["neg_offsets"]


_EX2_GRID = 1 << 24


def ex2_unit(x) -> np.ndarray:
    """MUFU.EX2 (ex2.approx.ftz.f32), as measured: the operand's magnitude truncated to a multiple of
    2**-24, split into a whole part i and a fraction f; the result is 2**i (2**-i for a negative
    operand) times the unit's 2**f (2**-f), a measured table over the 2**24 fractions: the exact
    value rounded toward zero plus -1..2 ulp. Results past the float range are infinity or (flushed)
    zero; subnormal operands are zero, so 2**x is 1."""
    x = np.asarray(x, np.float32)
    pos_t, neg_t = _ex2_tables()
    with np.errstate(all="ignore"):
        a = np.abs(x).astype(np.float64)
        a = np.where(a < _TINY, 0.0, a)
        big = a >= 256.0
        q = np.floor(np.where(big, 0.0, a) * _EX2_GRID).astype(np.int64)
        whole, frac = q >> 24, q & (_EX2_GRID - 1)
        neg = np.signbit(x) & (a != 0)
        g = frac / _EX2_GRID
        exact = np.exp2(np.where(neg, -g, g))
        lo = _toward_zero_f32(exact)
        off = np.where(neg, neg_t[frac], pos_t[frac]).astype(np.int32)
        m = (lo.view(np.int32) + off).view(np.float32).astype(np.float64)
        r = np.ldexp(m, np.where(neg, -whole, whole).astype(np.int32))
        r = np.where(big, np.where(neg, 0.0, np.inf), r)
        r = np.where(np.abs(r) < _TINY, 0.0, r)  # flushed
        return alu.canonical_nan(np.where(np.isnan(x), np.nan, r).astype(np.float32))


def ex2_approx(x, ftz: bool) -> np.ndarray:
    """ex2.approx{.ftz}.f32 as ptxas lowers it for sm_90: .ftz is the unit alone; without it an
    operand below -126 is halved first and the result squared (so 2**x can be subnormal)."""
    x = np.asarray(x, np.float32)
    if ftz:
        return ex2_unit(x)
    with np.errstate(all="ignore"):
        low = x < np.float32(-126)
        r = ex2_unit(np.where(low, x * np.float32(0.5), x))
        return np.where(low, r * r, r).astype(np.float32)


_INV_2PI_F32 = float(np.float32(1 / (2 * np.pi)))  # 0x3E22F983, the constant ptxas multiplies by


def sincos_approx_f32(x, op: str) -> np.ndarray:
    """sin.approx.f32 / cos.approx.f32 as the H200 computes them: ptxas scales the argument by
    1/(2 pi) in float32 rounding toward zero, the MUFU flushes a subnormal argument to zero and
    works on the fraction of turns that is left; modelled as a fixed-point number of 24 fractional
    bits (rounded to nearest even: sin(float(pi)) is 0, sin(1e-7) is 0, sin(-7.58e-6) is -7.49e-6 on
    the H200), which is not exactly how the unit reads it (sincos_probe.py: cells of that grid see
    different results), hence not bit for bit. A huge argument gives sin 0 / cos 1 (its float32
    turns are a whole number), not the libm value; what is left is the MUFU's own approximation
    (measured: at most 4.6e-7 absolute over 509 arguments, benchmarks/microbench/math_api)."""
    with np.errstate(all="ignore"):
        x32 = alu.ftz(np.asarray(x, np.float32))
        turns = alu.ftz(alu.round_to(x32.astype(np.float64) * _INV_2PI_F32, np.float32, "rz")).astype(np.float64)
        frac = turns - np.rint(turns)  # exact
        frac = np.rint(frac * 2.0 ** 24) / 2.0 ** 24  # the MUFU's fixed-point turns (small-argument sines)
        angle = 2 * np.pi * frac
        r = np.sin(angle) if op == "sin" else np.cos(angle)
        # whole quarter turns give exact zeros (float64's pi leaves ~1e-16; the smallest true value
        # on the 2**-24 grid is 3.7e-7); sin(-0) = -0
        r = np.where(np.abs(r) < 2.0 ** -40, 0.0, r)
        r = np.where((r == 0) & (op == "sin"), np.copysign(0.0, turns), r)
        return alu.canonical_nan(r.astype(np.float32))


_HI_WORD = np.uint64(0xFFFFFFFF00000000)
_MUFU64_NAN = np.uint64(0x7FFFFFFF00000000)  # the MUFU's canonical NaN in the high word


def mufu64(op: str, x) -> np.ndarray:
    """MUFU.RCP64H / MUFU.RSQ64H, which rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 are on the
    H200 (nothing else: benchmarks/microbench/math_api/results/primitives_sass.txt): they read only
    the high 32 bits of x (sign, exponent, 20 mantissa bits; a subnormal is zero) and write only
    the high 32 bits of the result (the low word is 0). Modelled as the exact reciprocal (square
    root) of that truncated operand, truncated to 20 mantissa bits: the H200's word, or one unit of
    the 20th bit above it (7 % / 6 % of 16,384 probes; the truncation is what keeps rsqrt.approx.f64's
    refinement bit-exact)."""
    with np.errstate(all="ignore"):
        xh = (np.asarray(x, np.float64).view(np.uint64) & _HI_WORD).view(np.float64)
        xh = np.where(np.abs(xh) < 2.0 ** -1022, np.copysign(0.0, xh), xh)
        r = 1.0 / xh if op == "rcp" else 1.0 / np.sqrt(xh)
        r = np.where(np.abs(r) < 2.0 ** -1022, np.copysign(0.0, r), r)
        bits = np.where(np.isnan(r), _MUFU64_NAN, r.view(np.uint64) & _HI_WORD)
        return bits.view(np.float64)


def rsqrt_approx_f64(x) -> np.ndarray:
    """rsqrt.approx.f64 as ptxas lowers it for sm_90: MUFU.RSQ64H, then one refinement
    y = y0 + (y0 e)(0.5 + 0.375 e) with e = 1 - x y0^2 in DFMA / DMUL; zero, infinity, NaN,
    negative and subnormal operands take the slow path (a subnormal is scaled by 2**54 first).
    Matches the H200 on 16,382 of 16,384 probes (benchmarks/microbench/math_api)."""
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        sub = (x > 0) & (x < 2.0 ** -1022)
        xs = np.where(sub, x * 2.0 ** 54, x)
        y0 = mufu64("rsqrt", xs)
        e = alu.float_fma(xs, -(y0 * y0), np.ones_like(xs), np.float64, "rn")
        h = alu.float_fma(e, np.full_like(xs, 0.375), np.full_like(xs, 0.5), np.float64, "rn")
        y = alu.float_fma(h, y0 * e, y0, np.float64, "rn")
        y = np.where(sub, y * 2.0 ** 27, y)
        special = np.where(x == 0, np.copysign(np.inf, x), np.where(np.isnan(x), x + x, np.where(
            x < 0, np.uint64(0xFFF8000000000000).view(np.float64), 0.0)))
        return np.where((x > 0) & np.isfinite(x), y, special)
