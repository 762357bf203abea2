"""FP8 (E4M3 and E5M2) encoding and decoding for cvt's sm_89 / sm_90 forms, vectorised in NumPy.

The two formats (OCP FP8; PTX `.e4m3` and `.e5m2`):

- E4M3: 1 sign, 4 exponent (bias 7), 3 mantissa bits. No infinity; 0x7F / 0xFF are NaN, so the
  largest finite value is 0x7E = 448. Smallest subnormal 2^-9.
- E5M2: 1 sign, 5 exponent (bias 15), 2 mantissa bits, IEEE-like: 0x7C is +inf, 0x7D..0x7F NaN,
  largest finite 0x7B = 57344. Smallest subnormal 2^-16.

What sm_90 has (PTX ISA 7.8+; everything else FP8 is sm_100a+ and refused by ptxas for sm_90):

- `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32,f16x2}`: round to nearest even, then clamp
  anything beyond the largest finite value (infinities included) to it, keeping the sign. NaN gives
  the canonical NaN 0x7F whatever its sign and payload (as cuda_fp8.hpp's software path does too).
- `cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}`: exact (every FP8 value is an f16); NaN gives f16's
  canonical NaN 0x7FFF.
- `.relu`: a negative result becomes +0 (-0 included), a NaN result the canonical NaN.

All of the above was checked bit for bit against an H200's cvt: every float32 (both halves of the
.f32 form), every f16 pair and every FP8 pair, with and without .relu.

Values are rounded from float64: float32 and float16 inputs are exact there, and the result grid
(multiples of a power of two) makes `np.rint` of the scaled value one correctly rounded step.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simgpu.exec.alu import F16_CANONICAL_NAN_BITS, f16x2_split


@dataclass(frozen=True)
class Fp8Format:
    """One FP8 format's fields and the tables its conversions use."""

    name: str
    exp_bits: int
    man_bits: int
    bias: int
    has_inf: bool
    max_code: int  # the largest finite positive code (0x7E for E4M3, 0x7B for E5M2)

    @property
    def max_finite(self) -> float:
        return float(self.positive_values[self.max_code])

    @property
    def min_exp(self) -> int:
        """The exponent of the smallest normal value (subnormals share its quantum)."""
        return 1 - self.bias

    @property
    def positive_values(self) -> np.ndarray:
        """Float64 value of codes 0 .. max_code, increasing with the code (searchsorted's table)."""
        return _POSITIVE[self.name]


def _code_values(exp_bits: int, man_bits: int, bias: int, has_inf: bool) -> np.ndarray:
    """Value of each of the 256 codes from its bit fields (float64; NaN where the code is NaN)."""
    codes = np.arange(256)
    sign = np.where(codes & 0x80, -1.0, 1.0)
    e = (codes >> man_bits) & ((1 << exp_bits) - 1)
    m = codes & ((1 << man_bits) - 1)
    mag = np.where(e == 0, m * 2.0 ** (1 - bias - man_bits), (1 + m / (1 << man_bits)) * 2.0 ** (e - bias))
    top = e == (1 << exp_bits) - 1
    if has_inf:  # IEEE-like: all-ones exponent is inf (mantissa 0) or NaN
        mag = np.where(top & (m == 0), np.inf, np.where(top, np.nan, mag))
    else:  # E4M3 ("fn"): only all-ones exponent *and* mantissa is NaN; the rest are finite
        mag = np.where(top & (m == (1 << man_bits) - 1), np.nan, mag)
    return sign * mag


E4M3 = Fp8Format("e4m3", exp_bits=4, man_bits=3, bias=7, has_inf=False, max_code=0x7E)
E5M2 = Fp8Format("e5m2", exp_bits=5, man_bits=2, bias=15, has_inf=True, max_code=0x7B)
FORMATS: dict[str, Fp8Format] = {"e4m3": E4M3, "e5m2": E5M2, "e4m3x2": E4M3, "e5m2x2": E5M2}

_VALUES = {f.name: _code_values(f.exp_bits, f.man_bits, f.bias, f.has_inf) for f in (E4M3, E5M2)}
_POSITIVE = {f.name: _VALUES[f.name][: f.max_code + 1].copy() for f in (E4M3, E5M2)}
CANONICAL_NAN = np.uint8(0x7F)  # both formats' canonical NaN


def _f16_table(fmt: Fp8Format) -> np.ndarray:
    """f16 bits of each code (exact; NaN -> 0x7FFF), the table `decode_f16` indexes."""
    vals = _VALUES[fmt.name]
    with np.errstate(invalid="ignore"):
        bits = vals.astype(np.float16).view(np.uint16).copy()
    bits[np.isnan(vals)] = F16_CANONICAL_NAN_BITS
    return bits


_F16_BITS = {f.name: _f16_table(f) for f in (E4M3, E5M2)}


def decode(codes: np.ndarray, fmt: str | Fp8Format) -> np.ndarray:
    """FP8 codes (the low 8 bits of each element) -> their values as float64 (NaN for NaN codes)."""
    f = FORMATS[fmt] if isinstance(fmt, str) else fmt
    return _VALUES[f.name][np.asarray(codes).astype(np.uint64) & np.uint64(0xFF)]


def decode_f16(codes: np.ndarray, fmt: str | Fp8Format, relu: bool = False) -> np.ndarray:
    """FP8 codes -> f16 bits (uint16), as `cvt.rn{.relu}.f16x2.<fmt>x2` converts each byte."""
    f = FORMATS[fmt] if isinstance(fmt, str) else fmt
    c = np.asarray(codes).astype(np.uint64) & np.uint64(0xFF)
    bits = _F16_BITS[f.name][c]
    if relu:  # negative (and -0) -> +0; NaN is already canonical
        bits = np.where((bits & np.uint16(0x8000)) != 0, np.uint16(0), bits)
    return bits


def encode(x: np.ndarray, fmt: str | Fp8Format, relu: bool = False) -> np.ndarray:
    """Float values (any float dtype; float32 / float16 for PTX) -> FP8 codes (uint8), rounded to
    nearest even with .satfinite: |x| beyond the largest finite value (inf too) gives it, with x's
    sign; NaN gives the canonical NaN 0x7F; `relu` makes negatives +0."""
    f = FORMATS[fmt] if isinstance(fmt, str) else fmt
    with np.errstate(invalid="ignore"):  # a signalling NaN warns as it widens
        x64 = np.asarray(x, dtype=np.float64)
    nan = np.isnan(x64)
    neg = np.signbit(x64) & ~nan
    # |x|, with NaN and anything past twice the largest finite value (inf too) pulled in: all of
    # those saturate alike, and the rounding below then never meets an infinity
    a = np.minimum(np.where(nan, 0.0, np.abs(x64)), 2 * f.max_finite)
    # the quantum of |x|'s binade (the subnormals share the smallest normal binade's), then one
    # correctly rounded step (np.rint: to nearest, ties to even) and the .satfinite clamp
    _, e2 = np.frexp(a)
    q = np.ldexp(1.0, np.maximum(e2 - 1, f.min_exp) - f.man_bits)
    r = np.minimum(np.rint(a / q) * q, f.max_finite)
    code = np.searchsorted(f.positive_values, r).astype(np.uint8)
    if relu:
        code = np.where(neg, np.uint8(0), code)
    else:
        code = code | np.where(neg, np.uint8(0x80), np.uint8(0))
    return np.where(nan, CANONICAL_NAN, code).astype(np.uint8)


def encode_pair(hi: np.ndarray, lo: np.ndarray, fmt: str | Fp8Format, relu: bool = False) -> np.ndarray:
    """`cvt.rn.satfinite{.relu}.<fmt>x2.f32 d, a, b`: a's code in d's upper byte, b's in the lower."""
    h = encode(hi, fmt, relu).astype(np.uint16)
    lo_ = encode(lo, fmt, relu).astype(np.uint16)
    return (h << np.uint16(8)) | lo_


def encode_f16x2(packed: np.ndarray, fmt: str | Fp8Format, relu: bool = False) -> np.ndarray:
    """`cvt.rn.satfinite{.relu}.<fmt>x2.f16x2 d, a`: each f16 half of a (bits) to the matching byte."""
    lo, hi = f16x2_split(packed)  # as float32: exact
    return encode_pair(hi, lo, fmt, relu)


def decode_to_f16x2(packed: np.ndarray, fmt: str | Fp8Format, relu: bool = False) -> np.ndarray:
    """`cvt.rn{.relu}.f16x2.<fmt>x2 d, a`: a's upper byte to d's upper f16, lower to lower (uint32)."""
    u = np.asarray(packed).astype(np.uint32)
    lo = decode_f16(u & np.uint32(0xFF), fmt, relu).astype(np.uint32)
    hi = decode_f16((u >> np.uint32(8)) & np.uint32(0xFF), fmt, relu).astype(np.uint32)
    return (hi << np.uint32(16)) | lo
