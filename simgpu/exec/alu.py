"""Lane semantics of PTX arithmetic, logic and conversion, as NumPy functions of typed arrays.

Every function here is pure: typed inputs (arrays over lanes) in, typed result out. The
instruction builders in `ops.py` fetch operands, call these and write results under the mask,
so the meaning of an opcode lives in exactly one place.
"""

from __future__ import annotations

import numpy as np

from simgpu.exec.values import TYPE_INFO, bf16_bits_to_f32, f32_to_bf16_bits, is_float, is_signed, type_bits

F32_TINY = np.float32(1.1754944e-38)


# ----------------------------------------------------------------------------- float helpers
def ftz(x: np.ndarray) -> np.ndarray:
    """Flush f32 subnormals to sign-preserving zero (the .ftz modifier)."""
    x = np.asarray(x)
    if x.dtype != np.float32:
        return x
    return np.where(np.abs(x) < F32_TINY, np.copysign(np.float32(0), x), x).astype(np.float32)


def saturate_float(x: np.ndarray) -> np.ndarray:
    """Clamp to [0, 1]; NaN becomes 0 (the .sat modifier on floats)."""
    x = np.asarray(x)
    return np.where(np.isnan(x), x.dtype.type(0), np.clip(x, 0, 1)).astype(x.dtype)


def round_to(x64: np.ndarray, dtype: np.dtype, mode: str) -> np.ndarray:
    """Round float64 values to `dtype` (float32/float16) with a PTX rounding mode rn/rz/rm/rp."""
    x64 = np.asarray(x64, dtype=np.float64)
    r = x64.astype(dtype)
    if mode in ("rn", "", None):
        return r
    back = r.astype(np.float64)
    if mode == "rz":
        fix = np.abs(back) > np.abs(x64)
        toward = np.zeros_like(r)
    elif mode == "rm":
        fix = back > x64
        toward = np.full_like(r, -np.inf)
    elif mode == "rp":
        fix = back < x64
        toward = np.full_like(r, np.inf)
    else:
        return r
    return np.where(fix & np.isfinite(x64), np.nextafter(r, toward), r).astype(dtype)


def float_binary(op: str, a: np.ndarray, b: np.ndarray, dtype: np.dtype, mode: str) -> np.ndarray:
    if dtype == np.float64 or mode in ("rn", "", None):
        a, b = np.asarray(a, dtype), np.asarray(b, dtype)
        return {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}[op](a, b).astype(dtype)
    a64, b64 = np.asarray(a, np.float64), np.asarray(b, np.float64)
    r = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}[op](a64, b64)
    return round_to(r, dtype, mode)


def float_fma(a, b, c, dtype: np.dtype, mode: str) -> np.ndarray:
    """a*b+c with one rounding for f32 (the f64 product of two f32 is exact); f64 uses NumPy's
    double arithmetic (two roundings: may differ from the hardware FMA in the last bit)."""
    if dtype == np.float64:
        return (np.asarray(a, np.float64) * np.asarray(b, np.float64) + np.asarray(c, np.float64))
    r = np.asarray(a, np.float64) * np.asarray(b, np.float64) + np.asarray(c, np.float64)
    return round_to(r, dtype, mode or "rn")


# ----------------------------------------------------------------------------- integer helpers
def wide_dtype(t: str) -> np.dtype:
    return {8: np.int16, 16: np.int32, 32: np.int64, 64: np.int64}[type_bits(t)] if is_signed(t) else \
        {8: np.uint16, 16: np.uint32, 32: np.uint64, 64: np.uint64}[type_bits(t)]


def mul_hi(a: np.ndarray, b: np.ndarray, t: str) -> np.ndarray:
    """High half of the double-width product."""
    bits = type_bits(t)
    dt = TYPE_INFO[t][0]
    if bits < 64:
        w = wide_dtype(t)
        p = np.asarray(a).astype(w) * np.asarray(b).astype(w)
        return (p >> bits).astype(dt)
    # 64-bit: split into 32-bit halves (unsigned), then correct for signs
    ua = np.asarray(a).astype(np.int64).view(np.uint64) if is_signed(t) else np.asarray(a, np.uint64)
    ub = np.asarray(b).astype(np.int64).view(np.uint64) if is_signed(t) else np.asarray(b, np.uint64)
    m32 = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    a_lo, a_hi = ua & m32, ua >> s32
    b_lo, b_hi = ub & m32, ub >> s32
    lo_lo = a_lo * b_lo
    hi_lo = a_hi * b_lo
    lo_hi = a_lo * b_hi
    hi_hi = a_hi * b_hi
    cross = (lo_lo >> s32) + (hi_lo & m32) + lo_hi
    hi = hi_hi + (hi_lo >> s32) + (cross >> s32)
    if is_signed(t):
        sa = np.asarray(a).astype(np.int64) < 0
        sb = np.asarray(b).astype(np.int64) < 0
        hi = hi - np.where(sa, ub, np.uint64(0)) - np.where(sb, ua, np.uint64(0))
        return hi.view(np.int64)
    return hi


def int_div(a, b, t: str) -> np.ndarray:
    """Truncating division; division by zero gives all ones (what the hardware returns for u32)."""
    dt = TYPE_INFO[t][0]
    a = np.asarray(a, dt)
    b = np.asarray(b, dt)
    a, b = np.broadcast_arrays(a, b)
    zero = b == 0
    safe_b = np.where(zero, dt.type(1), b)
    if is_signed(t):
        q = np.abs(a.astype(np.int64)) // np.abs(safe_b.astype(np.int64)) if type_bits(t) < 64 else None
        if q is None:
            q = np.fix(a.astype(np.float64) / safe_b.astype(np.float64))  # exactness guard below
            q = _exact_signed_div64(a, safe_b)
            return np.where(zero, dt.type(-1), q).astype(dt)
        sign = np.where((a < 0) ^ (safe_b < 0), -1, 1)
        return np.where(zero, dt.type(-1), (q * sign).astype(dt)).astype(dt)
    return np.where(zero, np.iinfo(dt).max, a // safe_b).astype(dt)


def _exact_signed_div64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    q = np.floor_divide(a, b)
    r = a - q * b
    fix = (r != 0) & ((a < 0) ^ (b < 0))
    return np.where(fix, q + 1, q)


def int_rem(a, b, t: str) -> np.ndarray:
    """Remainder with the sign of the dividend; remainder by zero returns the dividend."""
    dt = TYPE_INFO[t][0]
    a = np.asarray(a, dt)
    b = np.asarray(b, dt)
    a, b = np.broadcast_arrays(a, b)
    zero = b == 0
    safe_b = np.where(zero, dt.type(1), b)
    if is_signed(t):
        r = np.fmod(a, safe_b)
    else:
        r = a % safe_b
    return np.where(zero, a, r).astype(dt)


def saturate_int(x: np.ndarray, t: str) -> np.ndarray:
    info = np.iinfo(TYPE_INFO[t][0])
    return np.clip(x, info.min, info.max).astype(TYPE_INFO[t][0])


def shift(op: str, a: np.ndarray, amount: np.ndarray, t: str) -> np.ndarray:
    """shl / shr with PTX's clamping: shift amounts >= width give 0 (or the sign fill for shr.s)."""
    bits = type_bits(t)
    dt = TYPE_INFO[t][0]
    a = np.asarray(a, dt)
    amt = np.asarray(amount).astype(np.uint64) & np.uint64(0xFFFFFFFF)
    big = amt >= bits
    s = np.where(big, 0, amt).astype(dt if not is_signed(t) else np.int64)
    if op == "shl":
        if is_signed(t):
            r = (a.astype(np.int64) << s.astype(np.int64)).astype(dt) if bits < 64 else \
                (a.view(np.uint64) << s.astype(np.uint64)).view(np.int64)
        else:
            r = (a << s.astype(dt)).astype(dt)
        return np.where(big, dt.type(0), r).astype(dt)
    if is_signed(t):
        r = a >> s.astype(dt)
        return np.where(big, np.where(a < 0, dt.type(-1), dt.type(0)), r).astype(dt)
    r = a >> s.astype(dt)
    return np.where(big, dt.type(0), r).astype(dt)


def bfe(a, pos, length, t: str) -> np.ndarray:
    bits = type_bits(t)
    dt = TYPE_INFO[t][0]
    ua = np.asarray(a).astype(dt).view(np.uint64 if bits == 64 else np.uint32).astype(np.uint64)
    p = np.asarray(pos).astype(np.uint64) & np.uint64(0xFF)
    n = np.asarray(length).astype(np.uint64) & np.uint64(0xFF)
    p, n, ua = np.broadcast_arrays(p, n, ua)
    pc = np.minimum(p, np.uint64(bits))
    shifted = np.where(p >= bits, np.uint64(0), ua >> np.minimum(p, np.uint64(bits - 1)))
    n_eff = np.minimum(n, np.uint64(bits) - pc)
    mask = np.where(n_eff >= 64, np.uint64(0xFFFFFFFFFFFFFFFF), (np.uint64(1) << np.minimum(n_eff, 63)) - np.uint64(1))
    field = shifted & mask
    if is_signed(t):
        top = np.minimum(p + n - np.uint64(1), np.uint64(bits - 1))
        sbit = np.where(n == 0, np.uint64(0), (ua >> np.where(n == 0, 0, top)) & np.uint64(1))
        ext = np.where(sbit == 1, ~mask, np.uint64(0))
        field = np.where(n == 0, np.uint64(0), field | ext)
    out = field & np.uint64((1 << bits) - 1)
    return out.astype(np.uint64 if bits == 64 else np.uint32).view(dt) if bits in (32, 64) else out.astype(dt)


def bfi(f, b, pos, length, t: str) -> np.ndarray:
    bits = type_bits(t)
    udt = np.uint64 if bits == 64 else np.uint32
    uf = np.asarray(f).astype(udt).astype(np.uint64)
    ub = np.asarray(b).astype(udt).astype(np.uint64)
    p = np.asarray(pos).astype(np.uint64) & np.uint64(0xFF)
    n = np.asarray(length).astype(np.uint64) & np.uint64(0xFF)
    uf, ub, p, n = np.broadcast_arrays(uf, ub, p, n)
    n_eff = np.where(p >= bits, np.uint64(0), np.minimum(n, np.uint64(bits) - np.minimum(p, np.uint64(bits))))
    mask = np.where(n_eff >= 64, np.uint64(0xFFFFFFFFFFFFFFFF), (np.uint64(1) << np.minimum(n_eff, 63)) - np.uint64(1))
    ps = np.minimum(p, np.uint64(bits - 1))
    out = (ub & ~(mask << ps)) | ((uf & mask) << ps)
    out = np.where(n_eff == 0, ub, out) & np.uint64((1 << bits) - 1)
    return out.astype(udt)


def popc(a, bits: int) -> np.ndarray:
    u = np.asarray(a).astype(np.uint64 if bits == 64 else np.uint32).astype(np.uint64)
    return np.bitwise_count(u).astype(np.uint32) if hasattr(np, "bitwise_count") else _popc_slow(u)


def _popc_slow(u: np.ndarray) -> np.ndarray:  # pragma: no cover - numpy < 2.0
    c = np.zeros(u.shape, np.uint32)
    for i in range(64):
        c += ((u >> np.uint64(i)) & np.uint64(1)).astype(np.uint32)
    return c


def clz(a, bits: int) -> np.ndarray:
    u = np.asarray(a).astype(np.uint64 if bits == 64 else np.uint32).astype(np.uint64)
    n = np.full(u.shape, bits, dtype=np.uint32)
    for i in range(bits):
        hit = ((u >> np.uint64(bits - 1 - i)) & np.uint64(1)).astype(bool) & (n == bits)
        n = np.where(hit, np.uint32(i), n)
    return n


def brev(a, bits: int) -> np.ndarray:
    udt = np.uint64 if bits == 64 else np.uint32
    u = np.asarray(a).astype(udt).astype(np.uint64)
    r = np.zeros(u.shape, np.uint64)
    for i in range(bits):
        r |= ((u >> np.uint64(i)) & np.uint64(1)) << np.uint64(bits - 1 - i)
    return r.astype(udt)


def bfind(a, t: str, shiftamt: bool) -> np.ndarray:
    bits = type_bits(t)
    dt = TYPE_INFO[t][0]
    v = np.asarray(a).astype(dt)
    if is_signed(t):
        v = np.where(v < 0, ~v, v)
    u = v.astype(np.uint64) if not is_signed(t) else v.astype(np.int64).view(np.uint64)
    lz = clz(u, 64).astype(np.int64) - (64 - bits)
    pos = (bits - 1 - lz)
    none = u == 0
    if shiftamt:
        pos = bits - 1 - pos
    return np.where(none, np.uint32(0xFFFFFFFF), pos.astype(np.uint32)).astype(np.uint32)


def prmt(a, b, c, mode: str = "") -> np.ndarray:
    """Byte permute of the 8 bytes {b, a} selected by the nibbles of c (default mode)."""
    ua = np.asarray(a).astype(np.uint32).astype(np.uint64)
    ub = np.asarray(b).astype(np.uint32).astype(np.uint64)
    uc = np.asarray(c).astype(np.uint32).astype(np.uint64)
    ua, ub, uc = np.broadcast_arrays(ua, ub, uc)
    src = ua | (ub << np.uint64(32))
    out = np.zeros(ua.shape, np.uint64)
    if mode:
        sel_table = {
            "f4e": lambda s, i: (s + i) & 7, "b4e": lambda s, i: (s - i) & 7,
            "rc8": lambda s, i: s & 3, "ecl": lambda s, i: np.maximum(s & 3, i) if True else 0,
            "ecr": lambda s, i: np.minimum(s & 3, i), "rc16": lambda s, i: (s & 1) * 2 + (i & 1),
        }
        if mode not in sel_table:
            raise ValueError(f"prmt mode .{mode}")
        s = uc & np.uint64(3)
        for i in range(4):
            idx = sel_table[mode](s, np.uint64(i)).astype(np.uint64)
            byte = (src >> (idx * np.uint64(8))) & np.uint64(0xFF)
            out |= byte << np.uint64(8 * i)
        return out.astype(np.uint32)
    for i in range(4):
        sel = (uc >> np.uint64(4 * i)) & np.uint64(0xF)
        idx = sel & np.uint64(7)
        byte = (src >> (idx * np.uint64(8))) & np.uint64(0xFF)
        sign = np.where((byte & np.uint64(0x80)) != 0, np.uint64(0xFF), np.uint64(0))
        byte = np.where((sel & np.uint64(8)) != 0, sign, byte)
        out |= byte << np.uint64(8 * i)
    return out.astype(np.uint32)


def lop3(a, b, c, lut: int, bits: int = 32) -> np.ndarray:
    udt = np.uint64 if bits == 64 else np.uint32
    a, b, c = (np.asarray(x).astype(udt) for x in (a, b, c))
    out = np.zeros(np.broadcast(a, b, c).shape, udt)
    for i in range(8):
        if (lut >> i) & 1:
            out |= (a if i & 4 else ~a) & (b if i & 2 else ~b) & (c if i & 1 else ~c)
    return out


def funnel_shift(a, b, c, left: bool, clamp: bool) -> np.ndarray:
    lo = np.asarray(a).astype(np.uint32).astype(np.uint64)
    hi = np.asarray(b).astype(np.uint32).astype(np.uint64)
    n = np.asarray(c).astype(np.uint32).astype(np.uint64)
    n = np.minimum(n, np.uint64(32)) if clamp else n & np.uint64(31)
    both = lo | (hi << np.uint64(32))
    if left:
        return ((both << n) >> np.uint64(32)).astype(np.uint32) if True else None
    return (both >> n).astype(np.uint32)


def compare(cmp: str, a, b, t: str) -> np.ndarray:
    """setp/set comparison; unsigned forms lo/ls/hi/hs; float forms with u = unordered (NaN true)."""
    if is_float(t):
        a = np.asarray(a)
        b = np.asarray(b)
        nan = np.isnan(a) | np.isnan(b)
        base = cmp[:-1] if cmp.endswith("u") and cmp not in ("num", "nan") and len(cmp) == 3 else cmp
        if cmp == "num":
            return ~nan
        if cmp == "nan":
            return nan
        r = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
             "gt": np.greater, "ge": np.greater_equal}[base](a, b)
        if base != cmp:  # unordered variant
            return r | nan
        return r & ~nan
    fn = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
          "ge": np.greater_equal, "lo": np.less, "ls": np.less_equal, "hi": np.greater, "hs": np.greater_equal}
    return fn[cmp](a, b)


# ----------------------------------------------------------------------------- conversion
def convert(x: np.ndarray, dst: str, src: str, rnd: str, sat: bool, ftz_: bool) -> np.ndarray:
    """cvt: every integer/float width, with PTX's rounding, saturation and NaN rules."""
    ddt = TYPE_INFO[dst][0]
    if is_float(src) and ftz_:
        x = ftz(x)
    if is_float(dst) and is_float(src):
        x64 = np.asarray(x, np.float64)
        if rnd in ("rni", "rzi", "rmi", "rpi"):
            x64 = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}[rnd](x64)
            r = x64.astype(ddt) if dst != "bf16" else x64.astype(np.float32)
        elif dst == "bf16":
            r = bf16_bits_to_f32(f32_to_bf16_bits(round_to(x64, np.float32, rnd or "rn")))
        elif dst in ("f32", "f16", "tf32"):
            r = round_to(x64, np.float16 if dst == "f16" else np.float32, rnd or "rn")
        else:
            r = x64
        if sat:
            r = saturate_float(r)
        if ftz_ and dst == "f32":
            r = ftz(r)
        return r
    if is_float(src) and not is_float(dst):
        x64 = np.asarray(x, np.float64)
        fn = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}.get(rnd, np.trunc)
        v = fn(x64)
        info = np.iinfo(ddt)
        nan = np.isnan(v)
        v = np.clip(np.where(nan, 0, v), float(info.min), float(info.max))
        # float(info.max) rounds up for 64-bit types: clamp in integer space
        big = v >= float(info.max)
        out = np.where(big, info.max, v.astype(ddt) if not np.any(big) else np.where(big, 0, v).astype(ddt))
        return np.asarray(out).astype(ddt)
    if not is_float(src) and is_float(dst):
        xi = np.asarray(x)
        if dst == "f64":
            return xi.astype(np.float64)
        if dst == "bf16":
            return bf16_bits_to_f32(f32_to_bf16_bits(xi.astype(np.float64).astype(np.float32)))
        tgt = np.float16 if dst == "f16" else np.float32
        if rnd in ("rz", "rm", "rp") and TYPE_INFO[src][1] <= 32:
            return round_to(xi.astype(np.float64), tgt, rnd)
        return xi.astype(np.float64).astype(tgt) if TYPE_INFO[src][1] <= 32 else xi.astype(tgt)
    # integer -> integer
    xi = np.asarray(x)
    if sat:
        info = np.iinfo(ddt)
        wide = xi.astype(np.int64) if xi.dtype != np.uint64 else xi
        if xi.dtype == np.uint64:
            return np.minimum(wide, np.uint64(info.max)).astype(ddt)
        return np.clip(wide, info.min, info.max).astype(ddt)
    return xi.astype(ddt)


def f16x2_split(u: np.ndarray, bf: bool = False) -> tuple[np.ndarray, np.ndarray]:
    u = np.asarray(u).astype(np.uint32)
    lo = (u & np.uint32(0xFFFF)).astype(np.uint16)
    hi = (u >> np.uint32(16)).astype(np.uint16)
    if bf:
        return bf16_bits_to_f32(lo), bf16_bits_to_f32(hi)
    return lo.view(np.float16).astype(np.float32), hi.view(np.float16).astype(np.float32)


def f16x2_join(lo: np.ndarray, hi: np.ndarray, bf: bool = False) -> np.ndarray:
    if bf:
        lb, hb = f32_to_bf16_bits(lo), f32_to_bf16_bits(hi)
    else:
        lb = np.asarray(lo, np.float32).astype(np.float16).view(np.uint16)
        hb = np.asarray(hi, np.float32).astype(np.float16).view(np.uint16)
    return lb.astype(np.uint32) | (hb.astype(np.uint32) << np.uint32(16))
