"""PTX instructions -> executable closures over a batch of warps.

`build(ins, link)` turns one parsed instruction into `fn(ctx, ws, m)`: `ws` selects the warps that
execute it together, `m` is their [k, 32] mask of lanes that are active and whose guard predicate
holds. Operands are resolved once, at build time, so execution is a handful of NumPy operations
over k*32 lanes. Control flow (bra, call, ret, exit, bar) is the engine's business, not this file's.

Notes on what some instructions mean here:
- `membar` / `fence.*`: the simulator executes each instruction for all its warps before the
  next one issues, so memory is sequentially consistent and fences have nothing to order; but
  those at GPU or system scope (and acquire loads and atomics there) empty the SM's L1, as the
  CCTL.IVALL that ptxas puts after them does (`invalidates_l1`).
- `rcp/rsqrt/sqrt/ex2.approx.f32` and `div.approx.f32` give the H200's bits (exec/mufu.py, its
  measured tables); `lg2/tanh.approx` are computed correctly rounded and can differ from the hardware
  by a few ulp; `sin/cos.approx` reduce their argument as the H200 does (mufu.sincos_approx_f32), within
  its accuracy everywhere (benchmarks/microbench/math_api).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from simgpu.errors import KernelRuntimeError, UnsupportedInstructionError, warn_once
from simgpu.exec import alu, mbarrier, mma, mufu, wmma
from simgpu.exec.values import TYPE_INFO, from_raw, imm_value, is_float, is_signed, to_raw, type_bits, type_bytes
from simgpu.frontend.ptx.ast import Addr, Imm, Instruction, Reg, Special, Sym, Vec
from simgpu.frontend.ptx.cas_loops import spinning_cas
from simgpu.memory.banks import spin_lanes

Exec = Callable[..., None]
_TYPES = set(TYPE_INFO)
_ROUND = {"rn", "rz", "rm", "rp"}
_IROUND = {"rni", "rzi", "rmi", "rpi"}
_SPACES = {"global", "shared", "local", "param", "const", "generic"}


class Operands:
    """Build-time operand resolution: registers to indices, immediates to constants."""

    def __init__(self, ins: Instruction, link) -> None:
        self.ins = ins
        self.link = link

    def src(self, op, t: str):
        """A getter fn(ctx, ws) -> typed value (array [k,32] or a scalar)."""
        link = self.link
        if isinstance(op, Reg):
            neg = op.name.startswith("!")
            r = link.reg(op.name.lstrip("!"), self.ins)
            if neg:
                return lambda ctx, ws: ctx.regs[ws, r] == 0
            if t == "pred":
                return lambda ctx, ws: ctx.regs[ws, r] != 0
            return lambda ctx, ws: from_raw(ctx.regs[ws, r], t)
        if isinstance(op, Imm):
            v = imm_value(op, t)
            return lambda ctx, ws: v
        if isinstance(op, Special):
            name = op.name
            return lambda ctx, ws: from_raw(ctx.special(name, ws), t)
        if isinstance(op, Sym):
            value = link.symbol_value(op.name, self.ins)
            v = imm_value(Imm(value), t) if not is_float(t) else np.float32(value)
            return lambda ctx, ws: v
        if op is None:
            raise self.error("a sink '_' cannot be read")
        raise self.error(f"operand {op!r} cannot be used as a value")

    def dst(self, op, t: str):
        """A setter fn(ctx, ws, m, value)."""
        if op is None:
            return lambda ctx, ws, m, v: None
        if not isinstance(op, Reg):
            raise self.error(f"destination {op!r} is not a register")
        r = self.link.reg(op.name, self.ins)

        def write(ctx, ws, m, v):
            ctx.write_reg(ws, r, m, to_raw(v, t))

        return write

    def raw_dst(self, op):
        if op is None:
            return lambda ctx, ws, m, raw: None
        r = self.link.reg(op.name, self.ins)
        return lambda ctx, ws, m, raw: ctx.write_reg(ws, r, m, raw)

    def raw_src(self, op):
        if isinstance(op, Reg):
            r = self.link.reg(op.name, self.ins)
            return lambda ctx, ws: ctx.regs[ws, r]
        if isinstance(op, Imm):
            v = np.uint64(op.float_bits if op.float_bits is not None else int(op.value) & 0xFFFFFFFFFFFFFFFF)
            return lambda ctx, ws: v
        if isinstance(op, Special):
            name = op.name
            return lambda ctx, ws: ctx.special(name, ws)
        if isinstance(op, Sym):
            v = np.uint64(self.link.symbol_value(op.name, self.ins))
            return lambda ctx, ws: v
        raise self.error(f"operand {op!r} cannot be used as a value")

    def address(self, op):
        """A getter fn(ctx, ws) -> uint64 [k,32] addresses of a `[base+off]` operand, plus the space
        the symbol base implies (or None)."""
        if not isinstance(op, Addr):
            raise self.error(f"expected an address operand [..], got {op!r}")
        off = np.uint64(op.offset & 0xFFFFFFFFFFFFFFFF)
        if op.base is None:
            return (lambda ctx, ws: off), None
        if isinstance(op.base, Reg):
            r = self.link.reg(op.base.name, self.ins)
            wrap = np.uint64(address_mask(self.link.reg_types[r]))
            return (lambda ctx, ws: (ctx.regs[ws, r] + off) & wrap), None
        value, space = self.link.symbol_address(op.base.name, self.ins)
        v = np.uint64((value + op.offset) & 0xFFFFFFFFFFFFFFFF)
        return (lambda ctx, ws: v), space

    def error(self, msg: str) -> UnsupportedInstructionError:
        return self.link.error(msg, self.ins)


def address_mask(reg_type: str) -> int:
    """`[%r+off]` with a 32-bit base register is a 32-bit address: the sum wraps modulo 2^32 (NVVM
    writes shared addresses as `[%r - 512 + 512]`-style pairs in unrolled loops)."""
    return 0xFFFFFFFF if reg_type != "pred" and type_bits(reg_type) <= 32 else 0xFFFFFFFFFFFFFFFF


def _type_of(mods: tuple[str, ...], ins: Instruction, link, default: str | None = None) -> str:
    types = [m for m in mods if m in _TYPES]
    if not types:
        if default:
            return default
        raise link.error(f"instruction {ins.full_opcode} has no type", ins)
    return types[-1]


def _types(mods) -> list[str]:
    return [m for m in mods if m in _TYPES]


def _apply_float_mods(v, mods, t):
    if "ftz" in mods and t == "f32":
        v = alu.ftz(v)
    if "sat" in mods and is_float(t):
        v = alu.saturate_float(v)
    return v


def _rounding(mods) -> str:
    for m in mods:
        if m in _ROUND:
            return m
    return "rn"


# --------------------------------------------------------------------------- arithmetic builders
def _split_lanes(v, bits: int, signed: bool) -> np.ndarray:
    """32-bit words as their 32 / bits lanes (low lane first, last axis), sign-extended if signed."""
    shifts = np.arange(32 // bits, dtype=np.int64) * bits
    x = (np.asarray(v).astype(np.int64)[..., None] >> shifts) & ((1 << bits) - 1)
    return np.where(x >= 1 << (bits - 1), x - (1 << bits), x) if signed else x


def _join_lanes(r: np.ndarray, bits: int) -> np.ndarray:
    """_split_lanes undone: each lane's low `bits` bits back into one 32-bit word."""
    shifts = np.arange(r.shape[-1], dtype=np.int64) * bits
    return ((r & ((1 << bits) - 1)) << shifts).sum(axis=-1).astype(np.uint32)


def _build_packed_int16(ins, link, o: Operands, signed: bool):
    """add / sub / min / max on .u16x2 / .s16x2 (sm_90: what CUDA's __vadd2, __vmaxs2 ... compile to):
    the two half-words of a and b side by side, add and sub wrapping, min / max (.relu: at least 0)."""
    op = ins.opcode
    if op not in ("add", "sub", "min", "max"):
        raise link.error(f"'{ins.full_opcode}' is not supported on packed 16-bit integers", ins)
    a, b = o.src(ins.operands[1], "u32"), o.src(ins.operands[2], "u32")
    d = o.dst(ins.operands[0], "u32")
    relu = "relu" in ins.mods
    fn = {"add": np.add, "sub": np.subtract, "min": np.minimum, "max": np.maximum}[op]

    def f(ctx, ws, m):
        r = fn(_split_lanes(a(ctx, ws), 16, signed), _split_lanes(b(ctx, ws), 16, signed))
        if relu:
            r = np.maximum(r, 0)
        d(ctx, ws, m, np.broadcast_to(_join_lanes(r, 16), m.shape))
    return f


def _build_binary(ins, link, o: Operands):
    op = ins.opcode
    mods = ins.mods
    if "u16x2" in mods or "s16x2" in mods:
        return _build_packed_int16(ins, link, o, "s16x2" in mods)
    t = _type_of(mods, ins, link)
    if t in ("f16x2", "bf16x2") or (t == "bf16" and op in ("add", "sub", "mul", "min", "max")):
        return _build_packed_half(ins, link, o, t)
    wide = "wide" in mods
    dt_out = t
    if wide:
        dt_out = {"s16": "s32", "u16": "u32", "s32": "s64", "u32": "u64"}[t]
    a = o.src(ins.operands[1], t)
    b = o.src(ins.operands[2], "u32" if op in ("shl", "shr") else t)
    d = o.dst(ins.operands[0], dt_out)
    rnd = _rounding(mods)
    ftz_ = "ftz" in mods and t == "f32"

    if is_float(t):
        npdt = TYPE_INFO[t][0]
        if op == "div" and "approx" in mods and t == "f32":
            def f(ctx, ws, m):
                x, y = a(ctx, ws), b(ctx, ws)
                if ftz_:
                    x, y = alu.ftz(x), alu.ftz(y)
                d(ctx, ws, m, _apply_float_mods(mufu.div_approx(x, y, ftz_), mods, t))
            return f
        if op in ("add", "sub", "mul", "div"):
            def f(ctx, ws, m):
                x, y = a(ctx, ws), b(ctx, ws)
                if ftz_:
                    x, y = alu.ftz(x), alu.ftz(y)
                r = alu.float_binary(op, x, y, npdt if t != "bf16" else np.float32, rnd)
                d(ctx, ws, m, _apply_float_mods(r, mods, t))
            return f
        if op in ("min", "max"):
            nan_prop = "NaN" in mods
            def f(ctx, ws, m):
                x, y = a(ctx, ws), b(ctx, ws)
                if ftz_:
                    x, y = alu.ftz(x), alu.ftz(y)
                r = alu.canonical_nan((np.minimum if op == "min" else np.maximum)(x, y)) if nan_prop else \
                    alu.float_minmax(op, x, y)
                d(ctx, ws, m, _apply_float_mods(r, mods, t))
            return f
        if op == "copysign":
            return lambda ctx, ws, m: d(ctx, ws, m, np.copysign(b(ctx, ws), a(ctx, ws)))
        raise o.error(f"{ins.full_opcode} is not supported on float types")

    bits = type_bits(t)
    npdt = TYPE_INFO[t][0]
    if op in ("add", "sub"):
        sat = "sat" in mods
        cc = "cc" in mods

        def f(ctx, ws, m):
            x = np.asarray(a(ctx, ws), npdt)
            y = np.asarray(b(ctx, ws), npdt)
            if sat:
                w = np.int64
                r = x.astype(w) + y.astype(w) if op == "add" else x.astype(w) - y.astype(w)
                r = alu.saturate_int(r, t)
            else:
                r = x + y if op == "add" else x - y
            if cc:
                ux = x.astype(np.uint64) & np.uint64((1 << bits) - 1) if bits < 64 else x.view(np.uint64)
                uy = y.astype(np.uint64) & np.uint64((1 << bits) - 1) if bits < 64 else np.asarray(y).view(np.uint64)
                if op == "add":
                    carry = (ux + uy) > np.uint64((1 << bits) - 1) if bits < 64 else (ux + uy) < ux
                else:  # the carry out of x + ~y + 1, as the hardware keeps it: 1 = no borrow
                    carry = ux >= uy
                ctx.set_carry(ws, m, carry)
            d(ctx, ws, m, np.broadcast_to(r, m.shape))
        return f
    if op in ("addc", "subc"):
        cc = "cc" in mods

        def f(ctx, ws, m):
            x = np.asarray(a(ctx, ws), npdt).astype(np.uint64) & np.uint64((1 << bits) - 1) if bits < 64 else \
                np.asarray(a(ctx, ws), npdt).view(np.uint64)
            y = np.asarray(b(ctx, ws), npdt).astype(np.uint64) & np.uint64((1 << bits) - 1) if bits < 64 else \
                np.asarray(b(ctx, ws), npdt).view(np.uint64)
            cin = ctx.get_carry(ws).astype(np.uint64)
            x, y = np.broadcast_arrays(x, y)
            if op == "addc":
                r = x + y + cin
                carry = (r > np.uint64((1 << bits) - 1)) if bits < 64 else \
                    ((r < x) | ((r == x) & (cin == 1) & (y != 0)))
            else:  # x + ~y + CF: the flag is a carry (1 = no borrow), measured on the H200 (tests/exec)
                r = x - y - (np.uint64(1) - cin)
                carry = (x > y) | ((x == y) & (cin == 1))
            if cc:
                ctx.set_carry(ws, m, carry)
            out = (r & np.uint64((1 << bits) - 1)).astype(npdt) if bits < 64 else r.view(npdt)
            d(ctx, ws, m, out)
        return f
    if op == "mul" or op == "mul24":
        if wide:
            wdt = TYPE_INFO[dt_out][0]
            return lambda ctx, ws, m: d(ctx, ws, m,
                                        np.asarray(a(ctx, ws)).astype(wdt) * np.asarray(b(ctx, ws)).astype(wdt))
        if "hi" in mods and op == "mul":
            return lambda ctx, ws, m: d(ctx, ws, m, alu.mul_hi(a(ctx, ws), b(ctx, ws), t))
        if op == "mul24":
            def f(ctx, ws, m):
                x = np.asarray(a(ctx, ws)).astype(np.int64)
                y = np.asarray(b(ctx, ws)).astype(np.int64)
                x = ((x & 0xFFFFFF) ^ 0x800000) - 0x800000 if is_signed(t) else x & 0xFFFFFF
                y = ((y & 0xFFFFFF) ^ 0x800000) - 0x800000 if is_signed(t) else y & 0xFFFFFF
                p = x * y
                r = (p >> 16) if "hi" in mods else p
                d(ctx, ws, m, (r & 0xFFFFFFFF).astype(np.uint32).view(npdt) if bits == 32 else r.astype(npdt))
            return f
        return lambda ctx, ws, m: d(ctx, ws, m, np.asarray(a(ctx, ws), npdt) * np.asarray(b(ctx, ws), npdt))
    if op == "div":
        return lambda ctx, ws, m: d(ctx, ws, m, alu.int_div(a(ctx, ws), b(ctx, ws), t))
    if op == "rem":
        return lambda ctx, ws, m: d(ctx, ws, m, alu.int_rem(a(ctx, ws), b(ctx, ws), t))
    if op in ("min", "max"):
        fn = np.minimum if op == "min" else np.maximum
        if "relu" in mods:  # max.relu.s32 (__vimax_s32_relu, the DPX three-way forms): at least 0
            return lambda ctx, ws, m: d(ctx, ws, m, np.maximum(fn(np.asarray(a(ctx, ws), npdt),
                                                                  np.asarray(b(ctx, ws), npdt)), npdt.type(0)))
        return lambda ctx, ws, m: d(ctx, ws, m, fn(np.asarray(a(ctx, ws), npdt), np.asarray(b(ctx, ws), npdt)))
    if op in ("and", "or", "xor"):
        if t == "pred":
            fn = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}[op]
        else:
            fn = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
        return lambda ctx, ws, m: d(ctx, ws, m, fn(a(ctx, ws), b(ctx, ws)))
    if op in ("shl", "shr"):
        return lambda ctx, ws, m: d(ctx, ws, m, alu.shift(op, a(ctx, ws), b(ctx, ws), t))
    raise o.error(f"{ins.full_opcode} is not supported")


def _build_packed_half(ins, link, o: Operands, t: str):
    """f16 / bf16 arithmetic, scalar or packed pairs: computed exactly in float64 (a product of two
    halves is exact, TwoSum keeps an fma's sum exact) and rounded once to the half type, as the
    hardware does; .sat clamps to [+0, 1], .relu makes negatives +0, and a NaN result is the
    canonical NaN 0x7FFF (all three as the H200 computes them: benchmarks/microbench/math_api)."""
    op = ins.opcode
    bf = t.startswith("bf16")
    packed = t.endswith("x2")
    srcs = [o.src(x, "b32" if packed else "b16") for x in ins.operands[1:]]
    d = o.dst(ins.operands[0], "b32" if packed else "b16")
    fns = {
        "add": lambda x, y: (x + y, None), "sub": lambda x, y: (x - y, None), "mul": lambda x, y: (x * y, None),
        "min": lambda x, y: (np.fmin(x, y), None), "max": lambda x, y: (np.fmax(x, y), None),
        "fma": lambda x, y, z: alu.two_sum(x * y, z), "neg": lambda x: (-x, None), "abs": lambda x: (np.abs(x), None),
    }
    if op not in fns:
        raise o.error(f"{ins.full_opcode} is not supported")
    fn = fns[op]
    sat, relu = "sat" in ins.mods, "relu" in ins.mods
    nan_prop = "NaN" in ins.mods and op in ("min", "max")

    def halves(v):
        if packed:
            lo, hi = alu.f16x2_split(v, bf)
            return lo.astype(np.float64), hi.astype(np.float64)
        u = np.asarray(v).astype(np.uint16)
        return (alu.bf16_bits_to_f32(u) if bf else u.view(np.float16)).astype(np.float64), None

    def one(args) -> np.ndarray:
        with np.errstate(all="ignore"):
            r, err = fn(*args)
            if nan_prop:
                r = np.where(np.isnan(args[0]) | np.isnan(args[1]), np.nan, r)
            if op in ("min", "max"):  # -0 < +0, as float_minmax orders them
                both_zero = (args[0] == 0) & (args[1] == 0)
                neg = np.signbit(args[0]) | np.signbit(args[1]) if op == "min" else \
                    np.signbit(args[0]) & np.signbit(args[1])
                r = np.where(both_zero, np.where(neg, -0.0, 0.0), r)
            return alu.round_to_half_bits(r, bf, err, sat=sat, relu=relu)

    def f(ctx, ws, m):
        vals = [halves(s(ctx, ws)) for s in srcs]
        lo = one([v[0] for v in vals])
        if packed:
            hi = one([v[1] for v in vals])
            d(ctx, ws, m, lo.astype(np.uint32) | (hi.astype(np.uint32) << np.uint32(16)))
        else:
            d(ctx, ws, m, lo)
    return f


def _build_mad(ins, link, o: Operands):
    mods = ins.mods
    t = _type_of(mods, ins, link)
    if t in ("f16x2", "bf16x2", "f16", "bf16") and ins.opcode == "fma" and t != "f16":
        return _build_packed_half(ins, link, o, t)
    if t == "f16":
        return _build_packed_half(ins, link, o, t)
    wide = "wide" in mods
    dt_out = {"s16": "s32", "u16": "u32", "s32": "s64", "u32": "u64"}[t] if wide else t
    a = o.src(ins.operands[1], t)
    b = o.src(ins.operands[2], t)
    c = o.src(ins.operands[3], dt_out)
    d = o.dst(ins.operands[0], dt_out)
    if is_float(t):
        npdt = TYPE_INFO[t][0]
        rnd = _rounding(mods)
        ftz_ = "ftz" in mods and t == "f32"

        def f(ctx, ws, m):
            x, y, z = a(ctx, ws), b(ctx, ws), c(ctx, ws)
            if ftz_:
                x, y, z = alu.ftz(x), alu.ftz(y), alu.ftz(z)
            r = alu.float_fma(x, y, z, npdt, rnd)
            d(ctx, ws, m, _apply_float_mods(r, mods, t))
        return f
    npdt = TYPE_INFO[t][0]
    if wide:
        wdt = TYPE_INFO[dt_out][0]
        return lambda ctx, ws, m: d(ctx, ws, m, np.asarray(a(ctx, ws)).astype(wdt) * np.asarray(b(ctx, ws)).astype(wdt)
                                   + np.asarray(c(ctx, ws), wdt))
    if ins.opcode == "mad24":
        hi24 = "hi" in mods

        def f24(ctx, ws, m):
            # 24-bit operands (sign-extended for .s32), 48-bit product; .lo keeps bits 0..31, .hi 16..47
            x = np.asarray(a(ctx, ws)).astype(np.int64) & 0xFFFFFF
            y = np.asarray(b(ctx, ws)).astype(np.int64) & 0xFFFFFF
            if is_signed(t):
                x, y = (x ^ 0x800000) - 0x800000, (y ^ 0x800000) - 0x800000
            p = x * y
            p = p >> 16 if hi24 else p
            r = (p + np.asarray(c(ctx, ws)).astype(np.int64)) & 0xFFFFFFFF
            d(ctx, ws, m, np.asarray(r).astype(np.uint32).view(npdt))
        return f24
    if "cc" in mods or ins.opcode == "madc":
        return _mad_carry(ins, a, b, c, d, t, o)
    if "hi" in mods:
        return lambda ctx, ws, m: d(ctx, ws, m, alu.mul_hi(a(ctx, ws), b(ctx, ws), t) + np.asarray(c(ctx, ws), npdt))
    if "sat" in mods:
        raise o.error(f"{ins.full_opcode} is not supported")
    return lambda ctx, ws, m: d(ctx, ws, m, np.asarray(a(ctx, ws), npdt) * np.asarray(b(ctx, ws), npdt)
                               + np.asarray(c(ctx, ws), npdt))


def _mad_carry(ins, a, b, c, d, t: str, o: Operands):
    """mad{.lo,.hi}.cc and madc{.lo,.hi}{.cc} on integers: the low or high half of a * b, plus c,
    plus the carry flag for madc; .cc writes the carry out (extended-precision multiplication:
    CUDA's double-precision sin/cos argument reduction uses them)."""
    mods = ins.mods
    if is_float(t) or "sat" in mods:
        raise o.error(f"{ins.full_opcode} is not supported")
    bits = type_bits(t)
    npdt = TYPE_INFO[t][0]
    mask = (1 << bits) - 1
    hi = "hi" in mods
    carry_in = ins.opcode == "madc"
    carry_out = "cc" in mods

    def f(ctx, ws, m):
        x = np.broadcast_to(np.asarray(a(ctx, ws), npdt), m.shape)
        y = np.broadcast_to(np.asarray(b(ctx, ws), npdt), m.shape)
        z = np.broadcast_to(np.asarray(c(ctx, ws), npdt), m.shape)
        cin = np.broadcast_to(ctx.get_carry(ws), m.shape) if carry_in else np.zeros(m.shape, np.uint8)
        out = np.zeros(m.shape, np.uint64)
        cout = np.zeros(m.shape, bool)
        for idx in zip(*np.nonzero(m)):  # Python integers: exact 128-bit products for 64-bit types
            p = int(x[idx]) * int(y[idx])
            half = (p >> bits) & mask if hi else p & mask
            r = half + (int(z[idx]) & mask) + int(cin[idx])
            out[idx] = r & mask
            cout[idx] = r > mask
        if carry_out:
            ctx.set_carry(ws, m, cout)
        d(ctx, ws, m, out.astype(np.uint64).view(np.int64).astype(npdt) if is_signed(t) else out.astype(npdt))
    return f


def _build_unary(ins, link, o: Operands):
    op = ins.opcode
    mods = ins.mods
    t = _type_of(mods, ins, link)
    if t in ("f16x2", "bf16x2", "bf16", "f16") and op in ("neg", "abs"):
        return _build_packed_half(ins, link, o, t)
    a = o.src(ins.operands[1], t)
    d = o.dst(ins.operands[0], t)
    npdt = TYPE_INFO[t][0]
    ftz_ = "ftz" in mods and t == "f32"
    if op == "neg" and t == "f64":  # the H200 leaves a NaN's sign alone (benchmarks/microbench/math_api)
        return lambda ctx, ws, m: d(ctx, ws, m, alu.negate_f64(a(ctx, ws)))
    if op == "neg":  # ptxas lowers binary32 neg/abs to FADD: a NaN comes out canonical (alu.canonical_nan)
        return lambda ctx, ws, m: d(ctx, ws, m, alu.canonical_nan(
            _apply_float_mods(-np.asarray(a(ctx, ws), npdt), mods, t)))
    if op == "abs":
        return lambda ctx, ws, m: d(ctx, ws, m, alu.canonical_nan(
            _apply_float_mods(np.abs(np.asarray(a(ctx, ws), npdt)), mods, t)))
    if op == "not":
        if t == "pred":
            return lambda ctx, ws, m: d(ctx, ws, m, np.logical_not(a(ctx, ws)))
        return lambda ctx, ws, m: d(ctx, ws, m, np.invert(np.asarray(a(ctx, ws), npdt)))
    if op == "cnot":
        return lambda ctx, ws, m: d(ctx, ws, m, (np.asarray(a(ctx, ws), npdt) == 0).astype(npdt))
    if op == "popc":
        d32 = o.dst(ins.operands[0], "u32")
        return lambda ctx, ws, m: d32(ctx, ws, m, alu.popc(a(ctx, ws), type_bits(t)))
    if op == "clz":
        d32 = o.dst(ins.operands[0], "u32")
        return lambda ctx, ws, m: d32(ctx, ws, m, alu.clz(a(ctx, ws), type_bits(t)))
    if op == "brev":
        return lambda ctx, ws, m: d(ctx, ws, m, alu.brev(a(ctx, ws), type_bits(t)))
    if op == "bfind":
        d32 = o.dst(ins.operands[0], "u32")
        sa = "shiftamt" in mods
        return lambda ctx, ws, m: d32(ctx, ws, m, alu.bfind(a(ctx, ws), t, sa))
    if op in ("rcp", "sqrt") and "approx" not in mods:  # IEEE-rounded .rn/.rz/.rm/.rp forms
        rnd_ = _rounding(mods)
        fn_ = alu.float_rcp if op == "rcp" else alu.float_sqrt

        def f(ctx, ws, m):
            x = a(ctx, ws)
            if ftz_:
                x = alu.ftz(x)
            d(ctx, ws, m, _apply_float_mods(fn_(x, npdt, rnd_), mods, t))
        return f
    if op in ("rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh"):
        f64 = t == "f64"

        def fn(x):
            if not f64 and t == "f32" and op in ("rcp", "rsqrt", "sqrt"):  # the measured unit (exec/mufu.py)
                return mufu.approx(op, x, "ftz" in mods)
            if t == "f32" and op == "ex2":
                return mufu.ex2_approx(x, "ftz" in mods)
            x = np.asarray(x, np.float64)
            if f64 and op == "rcp":  # rcp.approx.ftz.f64: the MUFU alone
                return mufu.mufu64("rcp", x)
            if f64 and op == "rsqrt":
                return mufu.mufu64("rsqrt", x) if "ftz" in mods else mufu.rsqrt_approx_f64(x)
            with np.errstate(all="ignore"):
                if op == "rcp":
                    return 1.0 / x
                if op == "sqrt":
                    return np.sqrt(x)
                if op == "rsqrt":
                    return 1.0 / np.sqrt(x)
                if op == "ex2":
                    return np.exp2(x)
                if op == "lg2":
                    return np.log2(x)
                if op in ("sin", "cos") and not f64:
                    return mufu.sincos_approx_f32(x, op)
                if op == "sin":
                    return np.sin(x)
                if op == "cos":
                    return np.cos(x)
                return np.tanh(x)

        def f(ctx, ws, m):
            x = a(ctx, ws)
            if ftz_:
                x = alu.ftz(x)
            r = fn(x)
            r = r if f64 else alu.canonical_nan(np.asarray(r).astype(np.float16 if t == "f16" else np.float32))
            d(ctx, ws, m, _apply_float_mods(r, mods, t))
        return f
    if op == "testp":
        kind = [m for m in mods if m in ("finite", "infinite", "number", "notanumber", "normal", "subnormal")][0]
        dp = o.dst(ins.operands[0], "pred")

        def f(ctx, ws, m):
            x = np.asarray(a(ctx, ws))
            tiny = np.finfo(x.dtype).tiny
            r = {"finite": np.isfinite, "infinite": np.isinf, "number": lambda v: ~np.isnan(v),
                 "notanumber": np.isnan, "normal": lambda v: np.isfinite(v) & (np.abs(v) >= tiny),
                 "subnormal": lambda v: (np.abs(v) < tiny) & (v != 0)}[kind](x)
            dp(ctx, ws, m, r)
        return f
    raise o.error(f"{ins.full_opcode} is not supported")


def _build_setp(ins, link, o: Operands):
    mods = ins.mods
    t = _type_of(mods, ins, link)
    cmp = next(x for x in mods if x not in _TYPES and x != "ftz" and x not in ("and", "or", "xor"))
    boolop = next((x for x in mods if x in ("and", "or", "xor")), None)
    ops = ins.operands
    dst_p = ops[0]
    # setp d|p, a, b[, c]: the parser lists p after d
    has_q = len(ops) >= 4 and (boolop is None or len(ops) == 5)
    q_op = ops[1] if has_q else None
    rest = ops[2:] if has_q else ops[1:]
    a = o.src(rest[0], t)
    b = o.src(rest[1], t)
    c = o.src(rest[2], "pred") if boolop else None
    if ins.opcode == "setp":
        dp = o.dst(dst_p, "pred")
        dq = o.dst(q_op, "pred") if q_op is not None else None
    else:  # set.<cmp>.<dtype>.<stype>
        types = _types(mods)
        dtype, stype = types[0], types[-1]
        t = stype
        a = o.src(rest[0], t)
        b = o.src(rest[1], t)
        dp = o.dst(dst_p, dtype)
        dq = None
    bfn = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}.get(boolop)

    def f(ctx, ws, m):
        r = alu.compare(cmp, a(ctx, ws), b(ctx, ws), t)
        r = np.broadcast_to(r, m.shape)
        if bfn is not None:
            cv = c(ctx, ws)
            r1, r2 = bfn(r, cv), bfn(~r, cv)
        else:
            r1, r2 = r, ~r
        if ins.opcode == "setp":
            dp(ctx, ws, m, r1)
            if dq is not None:
                dq(ctx, ws, m, r2)
        else:
            dtype = _types(mods)[0]
            if is_float(dtype):
                dp(ctx, ws, m, np.where(r1, np.float32(1.0), np.float32(0.0)))
            else:
                dp(ctx, ws, m, np.where(r1, TYPE_INFO[dtype][0].type(-1 if is_signed(dtype) else
                                                                     np.iinfo(TYPE_INFO[dtype][0]).max), 0))
    return f


def _build_selp(ins, link, o: Operands):
    t = _type_of(ins.mods, ins, link)
    d = o.dst(ins.operands[0], t)
    a = o.src(ins.operands[1], t)
    b = o.src(ins.operands[2], t)
    if ins.opcode == "selp":
        c = o.src(ins.operands[3], "pred")
        return lambda ctx, ws, m: d(ctx, ws, m, np.where(c(ctx, ws), a(ctx, ws), b(ctx, ws)))
    ct = _types(ins.mods)[-1]
    c = o.src(ins.operands[3], ct)
    return lambda ctx, ws, m: d(ctx, ws, m, np.where(np.asarray(c(ctx, ws)) >= 0, a(ctx, ws), b(ctx, ws)))


def _build_mov(ins, link, o: Operands):
    t = _type_of(ins.mods, ins, link)
    dst, src = ins.operands[0], ins.operands[1]
    if isinstance(src, Vec) and isinstance(dst, Vec):  # element by element: a reused vector load's copy
        pairs = [(o.raw_dst(d), o.raw_src(e)) for d, e in zip(dst.elems, src.elems, strict=True)]

        def f(ctx, ws, m):
            values = [np.asarray(s(ctx, ws), np.uint64) for _, s in pairs]  # all read before any write
            for (d, _), v in zip(pairs, values):
                d(ctx, ws, m, v)
        return f
    if isinstance(src, Vec):  # pack {a, b} into a wider register
        parts = [o.raw_src(e) for e in src.elems]
        w = type_bits(t) // len(parts)
        d = o.raw_dst(dst)
        mask = np.uint64((1 << w) - 1)

        def f(ctx, ws, m):
            r = np.zeros(m.shape, np.uint64)
            for i, p in enumerate(parts):
                r |= (np.asarray(p(ctx, ws), np.uint64) & mask) << np.uint64(i * w)
            d(ctx, ws, m, r)
        return f
    if isinstance(dst, Vec):  # unpack a wide register into parts
        s = o.raw_src(src)
        outs = [o.raw_dst(e) for e in dst.elems]
        w = type_bits(t) // len(outs)
        mask = np.uint64((1 << w) - 1)

        def f(ctx, ws, m):
            v = np.broadcast_to(np.asarray(s(ctx, ws), np.uint64), m.shape)
            for i, out in enumerate(outs):
                out(ctx, ws, m, (v >> np.uint64(i * w)) & mask)
        return f
    if t == "pred":
        s = o.src(src, "pred")
        d = o.dst(dst, "pred")
        return lambda ctx, ws, m: d(ctx, ws, m, s(ctx, ws))
    if isinstance(src, Imm) and not src.is_float and is_float(t):
        s = o.src(src, t)
        d = o.dst(dst, t)
        return lambda ctx, ws, m: d(ctx, ws, m, s(ctx, ws))
    s = o.raw_src(src)
    d = o.raw_dst(dst)
    mask = np.uint64((1 << type_bits(t)) - 1) if type_bits(t) < 64 else None

    def f(ctx, ws, m):
        v = np.asarray(s(ctx, ws), np.uint64)
        d(ctx, ws, m, v & mask if mask is not None else v)
    return f


def _build_cvt(ins, link, o: Operands):
    mods = ins.mods
    if any(m in _NARROW_FLOAT_TYPES for m in mods):
        return _build_cvt_fp8(ins, o)
    types = _types(mods)
    if len(types) < 2:
        raise o.error(f"{ins.full_opcode} needs a destination and a source type")
    dst_t, src_t = types[0], types[1]
    if dst_t in ("f16x2", "bf16x2"):  # cvt.rn{.relu}{.satfinite}.f16x2.f32 d, hi, lo
        hi = _half_cvt_source(o.src(ins.operands[1], "f32"), mods, dst_t)
        lo = _half_cvt_source(o.src(ins.operands[2], "f32"), mods, dst_t)
        d = o.dst(ins.operands[0], "b32")
        bf = dst_t == "bf16x2"
        return lambda ctx, ws, m: d(ctx, ws, m, alu.f16x2_join(np.broadcast_to(lo(ctx, ws), m.shape),
                                                               np.broadcast_to(hi(ctx, ws), m.shape), bf))
    rnd = next((x for x in mods if x in _ROUND or x in _IROUND), "")
    sat = "sat" in mods
    ftz_ = "ftz" in mods
    a = o.src(ins.operands[1], src_t)
    if dst_t in ("f16", "bf16") and src_t == "f32":
        a = _half_cvt_source(a, mods, dst_t)
    d = o.dst(ins.operands[0], dst_t)

    def f(ctx, ws, m):
        with np.errstate(all="ignore"):
            d(ctx, ws, m, alu.convert(a(ctx, ws), dst_t, src_t, rnd, sat, ftz_))
    return f


_HALF_MAX = {"f16": 65504.0, "f16x2": 65504.0, "bf16": 3.3895313892515355e38, "bf16x2": 3.3895313892515355e38}


def _half_cvt_source(src, mods, dst_t: str):
    """cvt.rn{.relu}{.satfinite}.{f16,bf16}{x2}.f32: .relu makes negatives +0 (NaN stays NaN, made
    canonical by the conversion), .satfinite clamps what would round past the largest finite value
    to it. Both act on the f32 source here: clamping first rounds to the same value, and rounding
    keeps the sign."""
    relu, satfinite = "relu" in mods, "satfinite" in mods
    if not (relu or satfinite):
        return src
    top = np.float32(_HALF_MAX[dst_t])

    def f(ctx, ws):
        v = np.asarray(src(ctx, ws), np.float32)
        if satfinite:
            v = np.where(np.isnan(v), v, np.clip(v, -top, top))
        if relu:
            v = np.where(v <= 0, np.float32(0), v)  # -0 too; NaN compares false and stays
        return v
    return f


# cvt's packed narrow float types. sm_89 / sm_90 convert only .e4m3x2 / .e5m2x2, to and from .f32
# (pairs) and .f16x2 (exec/fp8.py); the FP6 / FP4 / UE8M0 types, the x4 stochastic-rounding forms and
# .bf16x2 <-> FP8 are sm_100a+ (ptxas refuses them for sm_90), so they are refused by name here.
_FP8_TYPES = ("e4m3x2", "e5m2x2")
_NARROW_FLOAT_TYPES = {*_FP8_TYPES, "e2m1x2", "e2m3x2", "e3m2x2", "ue8m0x2", "s2f6x2",
                       "e4m3x4", "e5m2x4", "e2m1x4", "e2m3x4", "e3m2x4"}


def _build_cvt_fp8(ins, o: Operands):
    """cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32,f16x2} and cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}."""
    from simgpu.exec import fp8

    mods = ins.mods
    named = [m for m in mods if m in _TYPES or m in _NARROW_FLOAT_TYPES]
    other = [m for m in named if m in _NARROW_FLOAT_TYPES and m not in _FP8_TYPES]
    if other:
        raise o.error(f"{ins.full_opcode}: .{other[0]} conversions are sm_100a+ instructions; sm_90 (H200) "
                      "converts only .e4m3x2 / .e5m2x2, to and from .f32 and .f16x2")
    if len(named) != 2:
        raise o.error(f"{ins.full_opcode} needs a destination and a source type")
    dst_t, src_t = named
    relu = "relu" in mods
    extra = [m for m in mods if m not in named and m not in ("rn", "satfinite", "relu")]
    if "rn" not in mods or extra:
        raise o.error(f"{ins.full_opcode}: sm_90's FP8 conversions round to nearest even only "
                      "(cvt.rn{.satfinite}{.relu})")
    if dst_t in _FP8_TYPES and src_t in ("f32", "f16x2"):
        if "satfinite" not in mods:
            raise o.error(f"{ins.full_opcode}: the .satfinite modifier is required for a conversion to "
                          f".{dst_t} (ptxas refuses the instruction without it)")
        d = o.dst(ins.operands[0], "b16")
        if src_t == "f32":  # d = a's code in the upper byte, b's in the lower
            if len(ins.operands) != 3:
                raise o.error(f"{ins.full_opcode} takes d, a, b")
            hi, lo = o.src(ins.operands[1], "f32"), o.src(ins.operands[2], "f32")
            return lambda ctx, ws, m: d(ctx, ws, m, fp8.encode_pair(
                np.broadcast_to(hi(ctx, ws), m.shape), np.broadcast_to(lo(ctx, ws), m.shape), dst_t, relu))
        if len(ins.operands) != 2:
            raise o.error(f"{ins.full_opcode} takes d, a")
        a = o.src(ins.operands[1], "b32")
        return lambda ctx, ws, m: d(ctx, ws, m, fp8.encode_f16x2(np.broadcast_to(a(ctx, ws), m.shape),
                                                                 dst_t, relu))
    if dst_t == "f16x2" and src_t in _FP8_TYPES:
        if "satfinite" in mods or len(ins.operands) != 2:
            raise o.error(f"{ins.full_opcode}: the form is cvt.rn{{.relu}}.f16x2.{src_t} d, a")
        a = o.src(ins.operands[1], "b16")
        d = o.dst(ins.operands[0], "b32")
        return lambda ctx, ws, m: d(ctx, ws, m, fp8.decode_to_f16x2(np.broadcast_to(a(ctx, ws), m.shape),
                                                                    src_t, relu))
    raise o.error(f"{ins.full_opcode}: sm_90 converts .e4m3x2 / .e5m2x2 only to and from .f32 (pairs) and "
                  f".f16x2, not .{src_t if dst_t in _FP8_TYPES else dst_t}")


def _build_cvta(ins, link, o: Operands):
    space = next((x.split("::")[0] for x in ins.mods if x.split("::")[0] in ("global", "shared", "local", "const",
                                                                                  "param")), None)
    to = "to" in ins.mods
    t = _type_of(ins.mods, ins, link, "u64")
    s = o.raw_src(ins.operands[1])
    d = o.raw_dst(ins.operands[0])
    width_mask = np.uint64((1 << type_bits(t)) - 1) if type_bits(t) < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
    from simgpu.exec.memory import CONST_WINDOW, LOCAL_WINDOW, SHARED_WINDOW, WINDOW_SIZE
    base = {"shared": SHARED_WINDOW, "local": LOCAL_WINDOW, "const": CONST_WINDOW}.get(space, 0)
    if space in ("global", None) or space == "param":
        return lambda ctx, ws, m: d(ctx, ws, m, np.broadcast_to(np.asarray(s(ctx, ws), np.uint64), m.shape))
    b = np.uint64(base)
    if to:
        return lambda ctx, ws, m: d(ctx, ws, m, (np.asarray(s(ctx, ws), np.uint64) - b) & np.uint64(WINDOW_SIZE - 1)
                                    & width_mask)
    return lambda ctx, ws, m: d(ctx, ws, m, (np.asarray(s(ctx, ws), np.uint64) + b))


def _build_bit(ins, link, o: Operands):
    op = ins.opcode
    t = _type_of(ins.mods, ins, link)
    d = o.dst(ins.operands[0], t)
    if op == "bfe":
        a = o.src(ins.operands[1], t)
        b = o.src(ins.operands[2], "u32")
        c = o.src(ins.operands[3], "u32")
        return lambda ctx, ws, m: d(ctx, ws, m, alu.bfe(a(ctx, ws), b(ctx, ws), c(ctx, ws), t))
    if op == "bfi":
        a = o.src(ins.operands[1], t)
        b = o.src(ins.operands[2], t)
        c = o.src(ins.operands[3], "u32")
        e = o.src(ins.operands[4], "u32")
        return lambda ctx, ws, m: d(ctx, ws, m, alu.bfi(a(ctx, ws), b(ctx, ws), c(ctx, ws), e(ctx, ws), t))
    if op == "prmt":
        mode = next((x for x in ins.mods if x not in _TYPES), "")
        a, b, c = (o.src(x, "b32") for x in ins.operands[1:4])
        return lambda ctx, ws, m: d(ctx, ws, m, alu.prmt(a(ctx, ws), b(ctx, ws), c(ctx, ws), mode))
    if op == "lop3":
        a, b, c = (o.src(x, t) for x in ins.operands[1:4])
        lut_op = ins.operands[4]
        if not isinstance(lut_op, Imm):
            raise o.error("lop3 needs an immediate lookup table")
        lut = int(lut_op.value)
        return lambda ctx, ws, m: d(ctx, ws, m, alu.lop3(a(ctx, ws), b(ctx, ws), c(ctx, ws), lut, type_bits(t)))
    if op == "shf":
        a, b, c = (o.src(x, "b32") for x in ins.operands[1:4])
        left = "l" in ins.mods
        clamp = "clamp" in ins.mods
        return lambda ctx, ws, m: d(ctx, ws, m, alu.funnel_shift(a(ctx, ws), b(ctx, ws), c(ctx, ws), left, clamp))
    if op == "sad":
        a, b, c = (o.src(x, t) for x in ins.operands[1:4])
        npdt = TYPE_INFO[t][0]

        def f(ctx, ws, m):
            x = np.asarray(a(ctx, ws)).astype(np.int64)
            y = np.asarray(b(ctx, ws)).astype(np.int64)
            d(ctx, ws, m, (np.abs(x - y) + np.asarray(c(ctx, ws)).astype(np.int64)).astype(npdt))
        return f
    if op in ("dp4a", "dp2a"):
        ta, tb = _types(ins.mods)[:2]
        a = o.src(ins.operands[1], "b32")
        b = o.src(ins.operands[2], "b32")
        c = o.src(ins.operands[3], "s32" if ta.startswith("s") or tb.startswith("s") else "u32")

        def bytes_of(v, signed, n, width):
            v = np.asarray(v).astype(np.uint32).astype(np.int64)
            parts = []
            for i in range(n):
                x = (v >> (width * i)) & ((1 << width) - 1)
                if signed:
                    x = np.where(x >= 1 << (width - 1), x - (1 << width), x)
                parts.append(x)
            return parts

        def f(ctx, ws, m):
            if op == "dp4a":
                xa = bytes_of(a(ctx, ws), ta.startswith("s"), 4, 8)
                xb = bytes_of(b(ctx, ws), tb.startswith("s"), 4, 8)
            else:
                xa = bytes_of(a(ctx, ws), ta.startswith("s"), 2, 16)
                sh = 16 if "hi" in ins.mods else 0
                xb = [x for x in bytes_of(np.asarray(b(ctx, ws)).astype(np.uint32) >> np.uint32(sh),
                                          tb.startswith("s"), 2, 8)]
            r = np.asarray(c(ctx, ws)).astype(np.int64) + sum(x * y for x, y in zip(xa, xb))
            d(ctx, ws, m, (r & 0xFFFFFFFF).astype(np.uint32))
        return f
    if op == "fns":
        mask, base, off = o.src(ins.operands[1], "b32"), o.src(ins.operands[2], "u32"), o.src(ins.operands[3], "s32")
        return lambda ctx, ws, m: d(ctx, ws, m, alu.fns(mask(ctx, ws), base(ctx, ws), off(ctx, ws)))
    if op in ("szext", "bmsk"):
        a, b = o.src(ins.operands[1], "u32"), o.src(ins.operands[2], "u32")
        clamp = "clamp" in ins.mods
        if op == "bmsk":
            return lambda ctx, ws, m: d(ctx, ws, m, alu.bmsk(a(ctx, ws), b(ctx, ws), clamp))
        signed = t == "s32"
        return lambda ctx, ws, m: d(ctx, ws, m, alu.szext(a(ctx, ws), b(ctx, ws), signed, clamp))
    raise o.error(f"{ins.full_opcode} is not supported")


# --------------------------------------------------------------------------- memory builders
def _space_of(mods, implied) -> str:
    for s in mods:
        if s in _SPACES:
            return s
        if s.startswith("shared"):
            return "shared"
    return implied or "generic"


def _build_ld_st(ins, link, o: Operands):
    mods = ins.mods
    is_ld = ins.opcode in ("ld", "ldu")
    t = _type_of(mods, ins, link)
    vec = 4 if "v4" in mods else 2 if "v2" in mods else 8 if "v8" in mods else 1
    addr_op = ins.operands[1] if is_ld else ins.operands[0]
    val_op = ins.operands[0] if is_ld else ins.operands[1]
    addr, implied = o.address(addr_op)
    space = _space_of(mods, implied)
    size = type_bytes(t)
    elems = list(val_op.elems) if isinstance(val_op, Vec) else [val_op]
    if len(elems) != vec:
        raise o.error(f"{ins.full_opcode} expects {vec} value(s), got {len(elems)}")
    signed = is_signed(t) and size < 8
    sign_bit = np.uint64(1 << (8 * size - 1))
    ext = np.uint64(((1 << 64) - 1) ^ ((1 << (8 * size)) - 1))
    if is_ld:
        dsts = [o.raw_dst(e) for e in elems]

        def f(ctx, ws, m):
            a = np.broadcast_to(np.asarray(addr(ctx, ws), np.uint64), m.shape)
            vals = ctx.mem_read(space, ins, ws, m, a, size, vec, vector=True)
            for dst, v in zip(dsts, vals):
                if signed:
                    v = np.where((v & sign_bit) != 0, v | ext, v)
                dst(ctx, ws, m, v)
        return f
    srcs = []
    for e in elems:
        if isinstance(e, Imm) and is_float(t) and not e.is_float:
            s_typed = o.src(e, t)
            srcs.append(lambda ctx, ws, s_typed=s_typed: to_raw(s_typed(ctx, ws), t))
        else:
            srcs.append(o.raw_src(e))
    vmask = np.uint64((1 << (8 * size)) - 1) if size < 8 else np.uint64(0xFFFFFFFFFFFFFFFF)

    def f(ctx, ws, m):
        a = np.broadcast_to(np.asarray(addr(ctx, ws), np.uint64), m.shape)
        vals = [np.broadcast_to(np.asarray(s(ctx, ws), np.uint64) & vmask, m.shape) for s in srcs]
        ctx.mem_write(space, ins, ws, m, a, size, vals, vector=True)
    return f


_ATOMIC_OPS = {"add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec"}


def atomic_apply(op: str, t: str, old: np.ndarray, b: np.ndarray, c: np.ndarray | None) -> np.ndarray:
    """The new value an atomic writes, given the old value (typed arrays)."""
    dt = TYPE_INFO[t][0] if t not in ("f16x2", "bf16x2") else np.dtype(np.uint32)
    if op == "add":
        if t in ("f16x2", "bf16x2"):
            bf = t == "bf16x2"
            ol, oh = alu.f16x2_split(old, bf)
            bl, bh = alu.f16x2_split(b, bf)
            return alu.f16x2_join(ol + bl, oh + bh, bf)
        if t == "f32":
            return (old.astype(np.float32) + np.asarray(b, np.float32)).astype(np.float32)
        return (old + np.asarray(b, dt)).astype(dt)
    if op == "min":
        return np.minimum(old, np.asarray(b, dt)) if not is_float(t) else np.fmin(old, b)
    if op == "max":
        return np.maximum(old, np.asarray(b, dt)) if not is_float(t) else np.fmax(old, b)
    if op == "exch":
        return np.broadcast_to(np.asarray(b, dt), np.shape(old)).copy()  # bits as given (-0.0 stays -0.0)
    if op == "cas":
        return np.where(old == np.asarray(b, dt), np.asarray(c, dt), old).astype(dt)
    if op == "and":
        return old & np.asarray(b, dt)
    if op == "or":
        return old | np.asarray(b, dt)
    if op == "xor":
        return old ^ np.asarray(b, dt)
    if op == "inc":
        bb = np.asarray(b, dt)
        return np.where(old >= bb, dt.type(0), old + dt.type(1)).astype(dt)
    if op == "dec":
        bb = np.asarray(b, dt)
        return np.where((old == 0) | (old > bb), bb, old - dt.type(1)).astype(dt)
    raise ValueError(op)


def _build_atom(ins, link, o: Operands):
    mods = ins.mods
    is_red = ins.opcode == "red"
    op = next((x for x in mods if x in _ATOMIC_OPS), None)
    if op is None:
        raise o.error(f"{ins.full_opcode}: unknown atomic operation")
    t = _type_of(mods, ins, link)
    if t.startswith("b") and op in ("add", "min", "max") and t not in ("bf16", "bf16x2"):
        t = "u" + t[1:]
    ops = ins.operands
    if is_red:
        addr_op, b_op, c_op, d_op = ops[0], ops[1], None, None
    else:
        d_op, addr_op, b_op = ops[0], ops[1], ops[2]
        c_op = ops[3] if op == "cas" else None
    addr, implied = o.address(addr_op)
    space = _space_of(mods, implied)
    packed = t in ("f16x2", "bf16x2")  # a packed pair is one 32-bit word in memory
    size = 4 if packed else type_bytes(t)
    raw_t = "b32" if packed else t
    if isinstance(b_op, Vec):
        return _build_vector_atom(ins, o, t, op, is_red, addr, space, d_op, b_op, size, raw_t)
    b = o.src(b_op, t)
    c = o.src(c_op, t) if c_op is not None else None
    d = o.dst(d_op, t) if d_op is not None else None

    # ATOMS.CAST.SPIN, the CAS of ptxas's shared atomic-add loop (frontend/ptx/cas_loops.py marks
    # it "spin"): only the first lane of each bank tries; the others fail (their result differs from
    # the value they compare with) and go round the loop again (memory/banks.spin_lanes)
    spin = spinning_cas(ins)

    def f(ctx, ws, m):
        a = np.broadcast_to(np.asarray(addr(ctx, ws), np.uint64), m.shape)
        bv = np.broadcast_to(np.asarray(b(ctx, ws)), m.shape)
        cv = np.broadcast_to(np.asarray(c(ctx, ws)), m.shape) if c is not None else None
        tried = spin_lanes(a.astype(np.int64), m, size) if spin else m
        old = ctx.mem_atomic(space, ins, ws, tried, a, size, t, op, bv, cv, is_red)
        if spin:
            old = np.where(m & ~tried, np.asarray(bv, np.uint64) ^ np.uint64(1), old)
        if d is not None:
            d(ctx, ws, m, from_raw(old, raw_t))
    return f


# sm_90 vector atomics (PTX ISA, atom / red: .vec_32_bit .v2/.v4 of .f32 (add), .vec_16_bit
# .v2/.v4/.v8 of .f16/.bf16 and .v2/.v4 of .f16x2/.bf16x2 (add, min, max), .global only)
_VECTOR_ATOM_OPS = {"f32": ("add",), "f16": ("add", "min", "max"), "bf16": ("add", "min", "max"),
                    "f16x2": ("add", "min", "max"), "bf16x2": ("add", "min", "max")}


def _build_vector_atom(ins, o: Operands, t: str, op: str, is_red: bool, addr, space: str, d_op, b_op,
                       size: int, raw_t: str):
    """`atom{.red}.global.op.vN.type`: N element-wise atomics in one request (AtomicAdd(float2*) /
    (float4*) on sm_90); the destination, if any, is a vector of the N old values. size / raw_t:
    each element's bytes and raw type, as _build_atom found them."""
    vec = 8 if "v8" in ins.mods else 4 if "v4" in ins.mods else 2 if "v2" in ins.mods else 0
    if op not in _VECTOR_ATOM_OPS.get(t, ()) or vec == 0 or (vec == 8 and t not in ("f16", "bf16")):
        raise o.error(f"{ins.full_opcode}: vector atomics are .add .v2/.v4 .f32, or .add/.min/.max "
                      ".v2/.v4/.v8 .f16/.bf16 and .v2/.v4 .f16x2/.bf16x2 (PTX ISA, sm_90)")
    if space not in ("global", "generic"):
        raise o.error(f"{ins.full_opcode}: vector atomics exist on global memory only")
    if len(b_op.elems) != vec or (d_op is not None and (not isinstance(d_op, Vec) or len(d_op.elems) != vec)):
        raise o.error(f"{ins.full_opcode} expects {vec} values in each vector operand")
    srcs = [o.src(e, t) for e in b_op.elems]
    dsts = [o.dst(e, t) if e is not None else None for e in d_op.elems] if d_op is not None else []

    def f(ctx, ws, m):
        a = np.broadcast_to(np.asarray(addr(ctx, ws), np.uint64), m.shape)
        bv = np.stack([np.broadcast_to(np.asarray(s(ctx, ws)), m.shape) for s in srcs])
        old = ctx.mem_atomic(space, ins, ws, m, a, size, t, op, bv, None, is_red, vec=vec)
        for k, d in enumerate(dsts):
            if d is not None:
                d(ctx, ws, m, from_raw(old[k], raw_t))
    return f


# --------------------------------------------------------------------------- warp-wide builders
def _membermask(ins, o: Operands, idx: int):
    if len(ins.operands) > idx:
        return o.src(ins.operands[idx], "b32")
    return lambda ctx, ws: np.uint32(0xFFFFFFFF)


_LANE_BIT = np.uint32(1) << np.arange(32, dtype=np.uint32)


def require_own_lane(ctx, ws, m: np.ndarray, mask, ins) -> None:
    """A warp-synchronous op (shfl / vote / match / redux / elect .sync, bar.warp.sync) whose
    member mask leaves out a lane that executes it is undefined on the GPU (PTX ISA; the real
    result depends on the chip: a mask of 0xd on a full warp still shuffles among all 32 lanes on
    a V100). Report the first such lane rather than invent an answer; warn of named lanes that do
    not take part (_warn_absent_members)."""
    _warn_absent_members(ctx, ws, m, _require_names_itself(ctx, ws, m, mask, ins), ins)


def _require_names_itself(ctx, ws, m: np.ndarray, mask, ins) -> np.ndarray:
    """require_own_lane's error alone (no warning); the mask as [k, 32] uint32."""
    mk = np.broadcast_to(np.asarray(mask).astype(np.uint32), m.shape)
    bad = m & ((mk & _LANE_BIT) == 0)
    if bad.any():
        wi, li = np.argwhere(bad)[0]
        raise KernelRuntimeError(
            f"{ins.full_opcode}: the member mask 0x{int(mk[wi, li]):08x} of lane {li} leaves out lane {li}, "
            f"which executes it (undefined behaviour on the GPU: a lane must name itself) in {ctx.where(ws, bad)}")
    return mk


def _warn_absent_members(ctx, ws, m: np.ndarray, mk: np.ndarray, ins) -> None:
    """A .sync op whose member mask names lanes that are alive but do not execute it with it. On
    sm_70+ the GPU holds the executing lanes until every named lane that has not exited reaches a
    .sync op with the same mask -- ptxas's slow path (BRA.DIV -> WARPSYNC.COLLECTIVE) pairs even
    the shuffles or ballots of the two arms of an if (an H100: benchmarks/microbench/sync_pairing),
    and so does simgpu (core/engine.py pair_sync) -- and where they never come the result is
    undefined (CUDA C Programming Guide, warp shuffle and vote functions): the lanes skip the op, an
    arm reaches a .sync op of another kind (or elect, which simgpu does not pair),
    or the lanes are predicated off. Warned once per kernel (a FidelityWarning; simgpu runs the op
    without them). Lanes waiting to run only on to their exit count as exited: ptxas exits them
    where they branch away."""
    exited = getattr(ctx, "exited_lanes", None)
    if exited is None:
        return
    executing = (m.astype(np.uint32) << np.arange(32, dtype=np.uint32)).sum(axis=1, dtype=np.uint32)
    named = np.bitwise_or.reduce(np.where(m, mk, np.uint32(0)), axis=1)
    absent = named & ~np.asarray(exited[ws], np.uint32) & ~executing
    if absent.any():  # lanes that only run on to exit are as good as exited (ptxas exits them there)
        absent &= ~ctx.exiting_lanes(ws)
    if not absent.any():
        return
    wi = int(np.flatnonzero(absent)[0])
    lanes = [lane for lane in range(32) if int(absent[wi]) >> lane & 1]
    shown = ", ".join(map(str, lanes[:8])) + (", ..." if len(lanes) > 8 else "")
    first = np.zeros_like(m)
    first[wi] = m[wi]
    warn_once(ctx.lk.warned, "absent_members", (
        f"{ins.full_opcode} in {ctx.where(ws, first)}: its member mask names lanes {shown} of the warp, "
        f"which have not exited but do not execute it with it (they skip it, wait at a .sync op of another "
        f"kind or are predicated off). On the GPU (sm_70+) the lanes that execute it wait for the named lanes "
        f"to reach a .sync op with the same mask (simgpu pairs the shuffles, votes, match, redux and "
        f"__syncwarp of the two arms of an if, as the GPU does) and the result is undefined where they "
        f"never come; simgpu runs it without them, so what it exchanges with those lanes may differ from "
        f"the GPU's. Reconverge the warp before it, or name only the lanes that execute it "
        f"(__activemask())."))


class SyncParts(NamedTuple):
    """A warp-synchronous op cut in three, so that the engine can run the lanes of two such
    instructions (the two arms of a divergent branch) as one op, each lane with its own
    instruction's operands and destinations (core/engine.py, pairing): fetch(ctx, ws) -> the
    operand arrays [k, 32]; compute(values, m, mask) -> what the op gives each lane; write(ctx, ws, m,
    result); mask(ctx, ws) -> the member mask."""

    ins: object
    fetch: Callable
    compute: Callable
    write: Callable
    mask: Callable


def run_paired(ctx, ws, first: SyncParts, m1: np.ndarray, second: SyncParts, m2: np.ndarray) -> None:
    """Two instructions of one .sync kind (same opcode and qualifiers) as one op of the warps `ws`:
    lanes m1 run `first`, lanes m2 `second`, each lane contributing its own instruction's operands
    (what the GPU's WARPSYNC.COLLECTIVE does with the two arms of an if: benchmarks/microbench/
    sync_pairing). Each instruction's lanes must name themselves; lanes named by neither arm warn."""
    mk1 = _require_names_itself(ctx, ws, m1, first.mask(ctx, ws), first.ins)
    mk2 = _require_names_itself(ctx, ws, m2, second.mask(ctx, ws), second.ins)
    m = m1 | m2
    mk = np.where(m1, mk1, mk2)
    _warn_absent_members(ctx, ws, m, mk, first.ins)
    v1, v2 = first.fetch(ctx, ws), second.fetch(ctx, ws)
    values = tuple(np.where(m1, np.broadcast_to(x1, m.shape), np.broadcast_to(x2, m.shape)) for x1, x2 in zip(v1, v2))
    out = first.compute(values, m, mk)
    first.write(ctx, ws, m1, out)
    second.write(ctx, ws, m2, out)


def _sync_op(parts: SyncParts, checked: bool = True):
    """The closure of an unpaired op from its parts. A .sync form (`checked`) has its member mask
    checked first and may pair with its twin in the other arm of an if (core/engine.py); the old
    forms without .sync (shfl, vote) take only the lanes that run them, as before sm_70."""
    def f(ctx, ws, m):
        mask = parts.mask(ctx, ws)
        if checked:
            require_own_lane(ctx, ws, m, mask, parts.ins)
        parts.write(ctx, ws, m, parts.compute(parts.fetch(ctx, ws), m, mask))
    if checked:
        f.sync_parts = parts
    return f


def _build_shfl(ins, link, o: Operands):
    mode = next(x for x in ins.mods if x in ("up", "down", "bfly", "idx"))
    ops = ins.operands
    # parser: shfl.sync.mode.b32 d|p, a, b, c, membermask -> [d, p, a, b, c, mm] or [d, a, b, c, mm]
    has_p = len(ops) == 6 or (len(ops) == 5 and "sync" not in ins.mods)
    d = o.raw_dst(ops[0])
    p = o.dst(ops[1], "pred") if has_p else None
    rest = ops[2:] if has_p else ops[1:]
    a = o.raw_src(rest[0])
    b = o.src(rest[1], "u32")
    c = o.src(rest[2], "u32")
    mm = o.src(rest[3], "b32") if "sync" in ins.mods and len(rest) > 3 else None
    lane = np.arange(32, dtype=np.int64)

    def fetch(ctx, ws):
        return (np.asarray(a(ctx, ws), np.uint64), np.asarray(b(ctx, ws)).astype(np.int64) & 0x1F,
                np.asarray(c(ctx, ws)).astype(np.int64))

    def compute(values, m, mask):
        av, bv, cv = (np.broadcast_to(x, m.shape) for x in values)
        segmask = (cv >> 8) & 0x1F
        cval = cv & 0x1F
        max_lane = (lane & segmask) | (cval & ~segmask)
        min_lane = lane & segmask
        if mode == "up":
            j = lane - bv
            pval = j >= max_lane
        elif mode == "down":
            j = lane + bv
            pval = j <= max_lane
        elif mode == "bfly":
            j = lane ^ bv
            pval = j <= max_lane
        else:
            j = min_lane | (bv & ~segmask)
            pval = j <= max_lane
        j = np.where(pval, j, lane) & 31
        return np.take_along_axis(av, j, axis=1), pval

    def write(ctx, ws, m, out):
        d(ctx, ws, m, out[0])
        if p is not None:
            p(ctx, ws, m, out[1])

    parts = SyncParts(ins, fetch, compute, write, mm if mm is not None else (lambda ctx, ws: np.uint32(0xFFFFFFFF)))
    return _sync_op(parts, checked=mm is not None)


def _lane_members(mask, m: np.ndarray) -> np.ndarray:
    """[k, 32, 32]: row l holds the active lanes that lane l's membermask names. Lanes may name
    different groups in one instruction (a cooperative-groups tile of 16 passes 0x0000ffff in its
    low lanes and 0xffff0000 in its high ones); each lane's result covers its own group only."""
    mk = np.broadcast_to(np.asarray(mask).astype(np.uint64), m.shape)
    named = ((mk[:, :, None] >> np.arange(32, dtype=np.uint64)) & np.uint64(1)).astype(bool)
    return named & m[:, None, :]


def _checked_members(ctx, ws, m: np.ndarray, mm, ins) -> np.ndarray:
    """_lane_members of the op's member mask `mm`, once require_own_lane has checked it."""
    mask = mm(ctx, ws)
    require_own_lane(ctx, ws, m, mask, ins)
    return _lane_members(mask, m)


_LANE_WEIGHTS = np.uint64(1) << np.arange(32, dtype=np.uint64)


def _lane_bits(rows: np.ndarray) -> np.ndarray:
    """A [k, 32, 32] lane-set array as [k, 32] 32-bit masks."""
    return (rows.astype(np.uint64) * _LANE_WEIGHTS).sum(axis=2).astype(np.uint32)


def _build_vote(ins, link, o: Operands):
    mode = next(x for x in ins.mods if x in ("all", "any", "uni", "ballot"))
    ops = ins.operands
    src = o.src(ops[1], "pred")
    mm = _membermask(ins, o, 2)
    d = o.dst(ops[0], "b32" if mode == "ballot" else "pred")

    def fetch(ctx, ws):
        return (np.asarray(src(ctx, ws), bool),)

    def compute(values, m, mask):
        v = np.broadcast_to(values[0], m.shape)[:, None, :]
        members = _lane_members(mask, m)
        if mode == "ballot":
            return _lane_bits(v & members)
        every = np.all(v | ~members, axis=2)
        some = np.any(v & members, axis=2)
        return every if mode == "all" else some if mode == "any" else every | ~some

    return _sync_op(SyncParts(ins, fetch, compute, lambda ctx, ws, m, out: d(ctx, ws, m, out), mm),
                    checked="sync" in ins.mods)


def _build_elect(ins, link, o: Operands):
    """`elect.sync d|p, membermask` (sm_90): the leader is the lowest active lane the membermask
    names; every lane gets its lane id in d (the sink `_` allowed), p is true in the leader only."""
    ops = ins.operands
    if len(ops) != 3:
        raise o.error(f"{ins.full_opcode} expects d|p, membermask")
    d = o.dst(ops[0], "b32") if ops[0] is not None else None
    p = o.dst(ops[1], "pred")
    mm = _membermask(ins, o, 2)
    lanes = np.arange(32, dtype=np.int64)

    def f(ctx, ws, m):
        members = _checked_members(ctx, ws, m, mm, ins)  # [k, 32 (lane), 32 (member)]
        has = members.any(axis=2)
        leader = np.where(has, members.argmax(axis=2), 0)
        if d is not None:
            d(ctx, ws, m, leader.astype(np.uint32))
        p(ctx, ws, m, has & (leader == lanes))
    return f


def _build_match(ins, link, o: Operands):
    mode = next(x for x in ins.mods if x in ("any", "all"))
    _type_of(ins.mods, ins, link)  # match needs .b32/.b64; raw bits are compared either way
    ops = ins.operands
    has_p = mode == "all" and len(ops) == 4
    d = o.dst(ops[0], "b32")
    p = o.dst(ops[1], "pred") if has_p else None
    rest = ops[2:] if has_p else ops[1:]
    a = o.raw_src(rest[0])
    mm = _membermask(ins, o, 3 if has_p else 2)

    def fetch(ctx, ws):
        return (np.asarray(a(ctx, ws), np.uint64),)

    def compute(values, m, mask):
        v = np.broadcast_to(values[0], m.shape)
        members = _lane_members(mask, m)
        same = (v[:, :, None] == v[:, None, :]) & members
        if mode == "any":
            return _lane_bits(same), None
        allsame = np.all(same | ~members, axis=2)
        return np.where(allsame, _lane_bits(members), np.uint32(0)), allsame

    def write(ctx, ws, m, out):
        d(ctx, ws, m, out[0])
        if p is not None:
            p(ctx, ws, m, out[1])

    return _sync_op(SyncParts(ins, fetch, compute, write, mm))


def _build_redux(ins, link, o: Operands):
    op = next(x for x in ins.mods if x in ("add", "min", "max", "and", "or", "xor"))
    t = _type_of(ins.mods, ins, link)
    d = o.dst(ins.operands[0], t)
    a = o.src(ins.operands[1], t)
    mm = _membermask(ins, o, 2)
    npdt = TYPE_INFO[t][0]

    def fetch(ctx, ws):
        return (np.asarray(a(ctx, ws), npdt),)

    def compute(values, m, mask):
        v = np.broadcast_to(values[0], m.shape)[:, None, :]
        members = _lane_members(mask, m)
        if op == "add":
            r = np.where(members, v, 0).astype(np.int64 if is_signed(t) else np.uint64).sum(axis=2).astype(npdt)
        elif op in ("min", "max"):
            info = np.iinfo(npdt)
            fill = info.max if op == "min" else info.min
            r = (np.min if op == "min" else np.max)(np.where(members, v, fill), axis=2)
        else:
            fill = np.array(-1).astype(npdt) if op == "and" else npdt.type(0)  # all ones, any width
            fn = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
            r = fn.reduce(np.where(members, v, fill), axis=2)
        return np.asarray(r, npdt)

    return _sync_op(SyncParts(ins, fetch, compute, lambda ctx, ws, m, out: d(ctx, ws, m, out), mm))


# PTX's SIMD video opcodes (timing/isa.py counts them as integer ALU instructions)
SIMD_VIDEO_OPCODES = tuple(f"{v}{n}" for v in ("vadd", "vsub", "vmin", "vmax", "vabsdiff", "vavrg", "vset")
                           for n in (2, 4))
_VIDEO_OPS = {"vadd": np.add, "vsub": np.subtract, "vmin": np.minimum, "vmax": np.maximum,
              "vabsdiff": lambda a, b: np.abs(a - b), "vavrg": lambda a, b: (a + b + 1) >> 1}
_VIDEO_CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
              "ge": np.greater_equal}


def _build_simd_video(ins, link, o: Operands):
    """PTX's SIMD video instructions (vadd4 ... vabsdiff4, vset4, and their 2-way forms), which CUDA's
    __vabsdiffu4 / __vsadu4 compile to: per byte (per half-word) the operation on a's and b's lanes,
    saturated with .sat, then merged into c (default mask: every lane) or, with .add, summed onto c.
    The operand selectors and masks other than the defaults are not supported."""
    name = ins.opcode[:-1]
    bits = 8 if ins.opcode.endswith("4") else 16
    ops = ins.operands
    if any("." in getattr(x, "name", "") for x in ops):
        raise link.error(f"'{ins.opcode}' with byte or half-word selectors or a mask is not supported", ins)
    types = [m for m in ins.mods if m in ("u32", "s32")]
    a_signed = types[-2] == "s32" if len(types) >= 2 else False
    b_signed = types[-1] == "s32" if types else False
    d_signed = types[0] == "s32" and name != "vset"
    if name == "vset":
        cmp = _VIDEO_CMP[next(m for m in ins.mods if m in _VIDEO_CMP)]
    else:
        fn = _VIDEO_OPS[name]
    sat, acc = "sat" in ins.mods, "add" in ins.mods
    d = o.dst(ops[0], "u32")
    a, b, c = (o.src(x, "u32") for x in ops[1:4])

    def f(ctx, ws, m):
        va, vb = _split_lanes(a(ctx, ws), bits, a_signed), _split_lanes(b(ctx, ws), bits, b_signed)
        r = cmp(va, vb).astype(np.int64) if name == "vset" else fn(va, vb)
        if sat:
            lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if d_signed else (0, (1 << bits) - 1)
            r = np.clip(r, lo, hi)
        if acc:
            out = ((np.asarray(c(ctx, ws)).astype(np.int64) + r.sum(axis=-1)) & 0xFFFFFFFF).astype(np.uint32)
        else:
            out = _join_lanes(r, bits)
        d(ctx, ws, m, np.broadcast_to(out, m.shape))
    return f


def _build_activemask(ins, link, o: Operands):
    d = o.dst(ins.operands[0], "b32")
    weights = (np.uint64(1) << np.arange(32, dtype=np.uint64))

    def f(ctx, ws, m):
        bits = (m.astype(np.uint64) * weights).sum(axis=1).astype(np.uint32)
        d(ctx, ws, m, np.broadcast_to(bits[:, None], m.shape))
    return f


def _build_isspacep(ins, link, o: Operands):
    from simgpu.exec.memory import LOCAL_WINDOW, SHARED_WINDOW, WINDOW_SIZE
    space = next(x for x in ins.mods if x in ("global", "shared", "local", "const", "param"))
    d = o.dst(ins.operands[0], "pred")
    a = o.raw_src(ins.operands[1])

    def f(ctx, ws, m):
        v = np.asarray(a(ctx, ws), np.uint64)
        in_sh = (v >= np.uint64(SHARED_WINDOW)) & (v < np.uint64(SHARED_WINDOW + WINDOW_SIZE))
        in_lo = (v >= np.uint64(LOCAL_WINDOW)) & (v < np.uint64(LOCAL_WINDOW + WINDOW_SIZE))
        r = {"shared": in_sh, "local": in_lo, "global": ~in_sh & ~in_lo}.get(space, np.zeros_like(in_sh))
        d(ctx, ws, m, np.broadcast_to(r, m.shape))
    return f


def _lines_per_warp(addr: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Per warp row, the distinct 128-byte lines its active lanes address."""
    addr, m = np.atleast_2d(addr), np.atleast_2d(m)
    lines = np.sort(np.where(m, addr >> np.uint64(7), np.uint64(2**64 - 1)), axis=1)  # inactive lanes last
    first = np.ones(lines.shape, bool)
    first[:, 1:] = lines[:, 1:] != lines[:, :-1]
    active = np.arange(lines.shape[1]) < m.sum(axis=1)[:, None]
    return (first & active).sum(axis=1).astype(np.int64)


def _build_cp_async(ins, link, o: Operands):
    """cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size}: copied at once here."""
    dst_addr, _ = o.address(ins.operands[0])
    src_addr, _ = o.address(ins.operands[1])
    size_op = ins.operands[2]
    if not isinstance(size_op, Imm):
        raise o.error("cp.async needs an immediate copy size")
    nbytes = int(size_op.value)
    if len(ins.operands) > 3 and not isinstance(ins.operands[3], Imm):
        src_size = o.src(ins.operands[3], "u32")
    else:
        fixed = np.uint32(int(ins.operands[3].value) if len(ins.operands) > 3 else nbytes)
        src_size = lambda ctx, ws: fixed  # noqa: E731
    chunk = 4 if nbytes >= 4 else nbytes
    n = nbytes // chunk

    def f(ctx, ws, m):
        sa = np.broadcast_to(np.asarray(src_addr(ctx, ws), np.uint64), m.shape)
        da = np.broadcast_to(np.asarray(dst_addr(ctx, ws), np.uint64), m.shape)
        valid_bytes = np.broadcast_to(np.asarray(src_size(ctx, ws)).astype(np.int64), m.shape)
        vals = ctx.mem_read("global", ins, ws, m, sa, chunk, n, valid_bytes=valid_bytes)
        # the copy reaches shared memory a source line at a time (memory/system.shared_access)
        ctx.mem_write("shared", ins, ws, m, da, chunk, vals, op="ldgsts", min_wavefronts=_lines_per_warp(sa, m))
    return f


def _build_mapa(ins, link, o: Operands):
    """mapa{.shared::cluster}.{u32,u64} d, a, rank: the address of a's location in the shared memory of
    the cluster's CTA `rank` (exec/memory.CLUSTER_RANK_SHIFT; without .shared::cluster, generic)."""
    from simgpu.exec.memory import CLUSTER_RANK_SHIFT, SHARED_WINDOW

    t = "u64" if "u64" in ins.mods else "u32"
    a = o.src(ins.operands[1], t)
    rank = o.src(ins.operands[2], "u32")
    d = o.dst(ins.operands[0], t)
    low = np.uint64((1 << CLUSTER_RANK_SHIFT) - 1)
    generic = not any(m.startswith("shared") for m in ins.mods)
    base = np.uint64(SHARED_WINDOW if generic else 0)

    def f(ctx, ws, m):
        # compilers compute a mapa they may not use (a neighbour's address at the cluster's edge), so
        # a bad rank is kept (as 254) and faults only when the address is used (core/wave.py)
        src = np.broadcast_to(np.asarray(a(ctx, ws), np.uint64), m.shape)
        r = np.minimum(np.broadcast_to(np.asarray(rank(ctx, ws), np.uint64), m.shape), np.uint64(254))
        d(ctx, ws, m, base + ((r + np.uint64(1)) << np.uint64(CLUSTER_RANK_SHIFT)) + ((src - base) & low))
    return f


def _build_getctarank(ins, link, o: Operands):
    """getctarank{.shared::cluster}.u32 d, a: the cluster rank of the CTA whose shared memory a
    names (the rank mapa put above CLUSTER_RANK_SHIFT, or the CTA's own for its own addresses;
    without .shared::cluster, a generic address in the shared window)."""
    from simgpu.exec.memory import CLUSTER_RANK_SHIFT, SHARED_WINDOW

    generic = not any(m.startswith("shared") for m in ins.mods)
    a = o.src(ins.operands[1], "u64")
    d = o.dst(ins.operands[0], "u32")
    base = np.uint64(SHARED_WINDOW if generic else 0)

    def f(ctx, ws, m):
        tagged = (np.broadcast_to(np.asarray(a(ctx, ws), np.uint64), m.shape) - base) >> np.uint64(CLUSTER_RANK_SHIFT)
        own = ctx.cluster_rank_of_cta[ctx.cta_of_warp[ws]].astype(np.uint64)[:, None]
        d(ctx, ws, m, np.where(tagged == 0, own, tagged - np.uint64(1)).astype(np.uint32))
    return f


# --------------------------------------------------------------------------- the table
_NOOPS = {"nop", "membar", "fence", "nanosleep", "prefetch", "prefetchu", "pmevent", "griddepcontrol",
          "setmaxnreg", "discard", "applypriority", "createpolicy"}

BUILDERS: dict[str, Callable] = {}
for _n in ("add", "sub", "mul", "div", "rem", "min", "max", "and", "or", "xor", "shl", "shr", "copysign",
           "addc", "subc", "mul24"):
    BUILDERS[_n] = _build_binary
for _n in ("mad", "madc", "fma", "mad24"):
    BUILDERS[_n] = _build_mad
for _n in ("neg", "abs", "not", "cnot", "popc", "clz", "brev", "bfind", "rcp", "sqrt", "rsqrt", "ex2", "lg2",
           "sin", "cos", "tanh", "testp"):
    BUILDERS[_n] = _build_unary
for _n in ("bfe", "bfi", "prmt", "lop3", "shf", "sad", "dp4a", "dp2a", "fns", "szext", "bmsk"):
    BUILDERS[_n] = _build_bit
BUILDERS.update({
    "setp": _build_setp, "set": _build_setp, "selp": _build_selp, "slct": _build_selp, "mov": _build_mov,
    "cvt": _build_cvt, "cvta": _build_cvta, "ld": _build_ld_st, "ldu": _build_ld_st, "st": _build_ld_st,
    "atom": _build_atom, "red": _build_atom, "shfl": _build_shfl, "vote": _build_vote, "match": _build_match,
    "elect": _build_elect, "redux": _build_redux, "activemask": _build_activemask, "isspacep": _build_isspacep,
    **dict.fromkeys(SIMD_VIDEO_OPCODES, _build_simd_video),
    "wmma": wmma.build,  # wmma.load / wmma.store / wmma.mma (exec/wmma.py)
    "mma": mma.build_mma, "ldmatrix": mma.build_ldmatrix, "stmatrix": mma.build_stmatrix,  # exec/mma.py
    "mbarrier": mbarrier.build,  # mbarrier objects and cp.async.bulk (exec/mbarrier.py, dispatched by build)
    "mapa": _build_mapa, "getctarank": _build_getctarank,  # distributed shared memory addresses
})


CLUSTER_UNSUPPORTED = ("this thread-block cluster operation is not supported by simgpu (cluster barriers, mapa "
                       "and ld/st/atom/red .shared::cluster are; multicast and asynchronous cluster copies "
                       "and reductions are not)")


def invalidates_l1(ins: Instruction) -> bool:
    """An acquire (ld, atom) or a sequentially consistent / acq_rel fence at GPU or system scope:
    ptxas follows it with CCTL.IVALL, which empties the SM's L1 (validation/typical8's SASS:
    ld.acquire.gpu -> LD.E.STRONG.GPU + CCTL.IVALL, __threadfence -> MEMBAR.SC.GPU + CCTL.IVALL; the
    H200 then read grid_sync_normalize's second pass from L2: L1 hit rate 14 %, not 42 %)."""
    mods = ins.mods
    wide = any(m in ("gpu", "sys") for m in mods)
    if ins.opcode == "membar":
        return any(m in ("gl", "sys") for m in mods)
    if ins.opcode == "fence":
        return wide and any(m in ("sc", "acq_rel") for m in mods)
    if ins.opcode in ("ld", "atom"):
        return wide and any(m in ("acquire", "acq_rel") for m in mods)
    return False


def _then_invalidate_l1(f: Exec) -> Exec:
    def g(ctx, ws, m):
        f(ctx, ws, m)
        ctx.invalidate_l1(ws, m)
    return g


# Modifiers that change an instruction's result, and the opcodes whose builders honour them. A
# modifier outside this table would be silently ignored (as .relu on max.s32 and on fma.f16 once
# were), so it is refused instead. Modifiers that change nothing a simulation computes (cache
# hints, .sync / .aligned, .approx on an instruction modelled exactly, ...) are not listed.
_RESULT_MODIFIERS = {
    "relu": {"fma", "max", "min", "cvt"},
    "sat": {"add", "sub", "mul", "mad", "fma", "cvt", "vadd", "vsub", "vabsdiff", "vmin", "vmax", "vadd2", "vsub2",
            "vavrg2", "vabsdiff2", "vmin2", "vmax2", "vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4",
            "vshl", "vshr", "vmad", "vset", "vset2", "vset4"},
    "satfinite": {"cvt", "mma", "wmma"},
    "NaN": {"max", "min"},
    "xorsign": set(),
    "oob": set(),
}


def _check_result_modifiers(ins: Instruction, link) -> None:
    for m in ins.mods:
        allowed = _RESULT_MODIFIERS.get(m)
        if allowed is not None and ins.opcode not in allowed:
            raise link.error(f"'{ins.full_opcode}': the .{m} modifier is not supported on {ins.opcode}", ins)


def build_contracted(mul: Instruction, add: Instruction, pos: int, link) -> Exec:
    """`add`/`sub` fused with the `mul` whose product is its source `pos` (exec/contract.py): one
    fma, rounded once to nearest; -(a*b) + c for a product subtracted, a*b - c for one minus c."""
    t = _type_of(add.mods, add, link)
    o = Operands(add, link)
    a, b = o.src(mul.operands[1], t), o.src(mul.operands[2], t)
    c = o.src(add.operands[3 - pos], t)
    d = o.dst(add.operands[0], t)
    npdt = TYPE_INFO[t][0]
    neg_product = add.opcode == "sub" and pos == 2
    neg_addend = add.opcode == "sub" and pos == 1
    ftz_ = "ftz" in add.mods and t == "f32"

    def f(ctx, ws, m):
        x, y, z = (np.asarray(v(ctx, ws), npdt) for v in (a, b, c))
        if ftz_:
            x, y, z = alu.ftz(x), alu.ftz(y), alu.ftz(z)
        neg = alu.negate_f64 if t == "f64" else np.negative  # a NaN's sign as the H200 keeps it
        r = alu.float_fma(neg(x) if neg_product else x, y, neg(z) if neg_addend else z, npdt, "rn")
        d(ctx, ws, m, _apply_float_mods(r, add.mods, t))
    return f


def build(ins: Instruction, link) -> Exec:
    """The closure that executes `ins`, or UnsupportedInstructionError naming opcode, kernel, line."""
    f = _build(ins, link)
    return _then_invalidate_l1(f) if invalidates_l1(ins) else f


def _build(ins: Instruction, link) -> Exec:
    if ins.opcode == "bar" and "warp" in ins.mods:
        # bar.warp.sync (__syncwarp): the lanes of a warp that reach it run together here already,
        # and memory is sequentially consistent, so it has nothing left to do but check its mask
        mm = _membermask(ins, Operands(ins, link), 0)
        return _sync_op(SyncParts(ins, lambda ctx, ws: (), lambda values, m, mask: None,
                                  lambda ctx, ws, m, out: None, mm))
    if ins.opcode in _NOOPS or (ins.opcode == "cp" and ins.mods[:1] == ("async",) and len(ins.mods) > 1
                                and ins.mods[1] in ("commit_group", "wait_group", "wait_all")):
        return lambda ctx, ws, m: None
    own_cta = mbarrier.handles(ins)  # mbarrier.*, cp.async.mbarrier.arrive, cp.async.bulk.* (exec/mbarrier.py)
    if ins.opcode == "cp" and ins.mods[:1] == ("async",) and not own_cta:
        return _build_cp_async(ins, link, Operands(ins, link))
    dsmem = ins.opcode in ("mapa", "getctarank") or (ins.opcode in ("ld", "st", "atom", "red", "cvta", "isspacep")
                                     and "shared::cluster" in ins.mods
                                     and not any(m in ("async", "multimem") for m in ins.mods))
    if not own_cta and not dsmem and any(m.endswith("::cluster") for m in ins.mods):
        raise link.error(CLUSTER_UNSUPPORTED, ins)
    builder = mbarrier.build if own_cta else BUILDERS.get(ins.opcode)
    if builder is None:
        raise link.error(f"unsupported PTX instruction '{ins.full_opcode}'", ins)
    _check_result_modifiers(ins, link)
    try:
        return builder(ins, link, Operands(ins, link))
    except UnsupportedInstructionError:
        raise
    except (KeyError, IndexError, StopIteration, ValueError) as exc:
        raise link.error(f"cannot decode '{ins.text}' ({type(exc).__name__}: {exc})", ins) from None
