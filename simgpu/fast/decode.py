"""Decode a linked kernel into the flat integer arrays the fast engine runs on.

Each pc gets a native operation code (`nat`, 0 = none) and its operands: destination registers,
up to four sources as (kind, value) with kind register / raw immediate / special register, the
operand types as (bits, signed), and for memory instructions the space, element size, vector
count and address (base register + offset). An instruction gets a native code only when its
meaning is one of the few primitive forms below (wrap-around integer arithmetic, IEEE binary32
arithmetic with round-to-nearest, comparisons, moves, plain loads and stores, branches, bar.sync,
exit); everything else keeps nat = 0 and the fast engine hands that step to the reference
engine's closure, so there is exactly one implementation of every other instruction.

Immediates are turned into raw register bits here with the reference engine's own helpers
(`imm_value`, `to_raw`), so both engines see identical constants.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simgpu.exec import ops
from simgpu.exec.lanes import CMP_CODES
from simgpu.exec.memory import CONST_WINDOW, LOCAL_WINDOW, SHARED_WINDOW
from simgpu.exec.program import ALU, BAR, BRA, EXIT, LinkedKernel
from simgpu.exec.values import TYPE_INFO, imm_value, is_float, is_signed, to_raw, type_bits, type_bytes
from simgpu.frontend.ptx.ast import Addr, Imm, Instruction, Reg, Special, Sym, Vec

# native operation codes
(N_NONE, N_MOV, N_MOVP, N_IADD, N_ISUB, N_IMUL, N_IMULW, N_IMAD, N_IMADW, N_SHL, N_SHR, N_AND, N_OR, N_XOR,
 N_NOT, N_IMIN, N_IMAX, N_INEG, N_PAND, N_POR, N_PXOR, N_PNOT, N_SETPI, N_SETPF, N_SELP, N_CVTA_ID, N_CVTA_TO,
 N_CVTA_FROM, N_CVTII, N_FADD, N_FSUB, N_FMUL, N_FFMA, N_FNEG, N_FABS, N_LD, N_ST, N_BRA, N_BAR, N_EXIT,
 N_SHFL, N_FMIN, N_FMAX) = range(43)
SHFL_MODE = {"up": 0, "down": 1, "bfly": 2, "idx": 3}

# source kinds
S_REG, S_IMM, S_SPECIAL = 0, 1, 2

# special registers the fast engine reads itself (others: reference step)
SPECIALS = {"%tid.x": 0, "%tid.y": 1, "%tid.z": 2, "%ntid.x": 3, "%ntid.y": 4, "%ntid.z": 5,
            "%ctaid.x": 6, "%ctaid.y": 7, "%ctaid.z": 8, "%nctaid.x": 9, "%nctaid.y": 10, "%nctaid.z": 11,
            "%laneid": 12, "%warpid": 13, "%nwarpid": 14, "%smid": 15, "%nsmid": 16}

BOOLOP = {None: 0, "and": 1, "or": 2, "xor": 3}

# memory spaces handled natively
SP_GLOBAL, SP_SHARED, SP_PARAM, SP_CONST = 0, 1, 2, 3
_SPACE = {"global": SP_GLOBAL, "shared": SP_SHARED, "param": SP_PARAM, "const": SP_CONST}
_INT_TYPES = {"b8", "u8", "s8", "b16", "u16", "s16", "b32", "u32", "s32", "b64", "u64", "s64"}
_WIDE = {"s16": "s32", "u16": "u32", "s32": "s64", "u32": "u64"}


@dataclass
class Decoded:
    """Per-pc arrays (length n = number of instructions)."""

    nat: np.ndarray  # int32 native op, 0 = reference step
    d0: np.ndarray  # int32 destination register (-1 none)
    d1: np.ndarray  # int32 second destination (setp q) (-1 none)
    sk: np.ndarray  # int8 [n, 4] source kind
    sv: np.ndarray  # uint64 [n, 4] register index / raw immediate / special id
    sneg: np.ndarray  # bool [n, 4] predicate source read negated (!p)
    abits: np.ndarray  # int32 operand type bits
    asign: np.ndarray  # bool operand type signed
    bbits: np.ndarray  # int32 second type bits (cvt source, wide result, cvta width)
    bsign: np.ndarray  # bool
    cmp: np.ndarray  # int8 comparison / boolean-op code
    bop: np.ndarray  # int8
    space: np.ndarray  # int8 memory space
    msize: np.ndarray  # int32 element bytes
    mvec: np.ndarray  # int32 elements per lane
    mreg: np.ndarray  # int32 address base register (-1 = absolute)
    moff: np.ndarray  # uint64 address offset (or absolute address); cvta window base
    mwrap: np.ndarray  # uint64 mask of base + offset: 32 bits for a 32-bit base register (PTX wraps it)
    vreg: np.ndarray  # int32 [n, 4] load destinations (-1 = sink)
    vg_size: np.ndarray  # int32 LDS.64/128 group width in bytes (0 = not a member)
    vg_delta: np.ndarray  # int64 offset of this load in its group
    vg_leader: np.ndarray  # bool the group's first load (the one that is counted)
    native_control: bool  # branches, barriers and exits run natively (no calls, no bar.red)


class _NotNative(Exception):
    pass


def _type(ins: Instruction) -> str:
    types = [m for m in ins.mods if m in TYPE_INFO]
    if not types:
        raise _NotNative
    return types[-1]


def decode(lk: LinkedKernel) -> Decoded:
    n = len(lk.instructions)
    d = Decoded(
        nat=np.zeros(n, np.int32), d0=np.full(n, -1, np.int32), d1=np.full(n, -1, np.int32),
        sk=np.zeros((n, 4), np.int8), sv=np.zeros((n, 4), np.uint64), sneg=np.zeros((n, 4), np.bool_),
        abits=np.zeros(n, np.int32), asign=np.zeros(n, np.bool_), bbits=np.zeros(n, np.int32),
        bsign=np.zeros(n, np.bool_), cmp=np.zeros(n, np.int8), bop=np.zeros(n, np.int8),
        space=np.zeros(n, np.int8), msize=np.zeros(n, np.int32), mvec=np.zeros(n, np.int32),
        mreg=np.full(n, -1, np.int32), moff=np.zeros(n, np.uint64),
        mwrap=np.full(n, np.uint64(0xFFFFFFFFFFFFFFFF), np.uint64), vreg=np.full((n, 4), -1, np.int32),
        vg_size=np.zeros(n, np.int32), vg_delta=np.zeros(n, np.int64), vg_leader=np.zeros(n, np.bool_),
        native_control=not lk.call_sites and all(b.kind != "red" for b in lk.barriers.values()),
    )
    for pc, vm in lk.vector_groups.items():
        d.vg_size[pc], d.vg_delta[pc], d.vg_leader[pc] = vm.size, vm.delta, vm.leader == pc
    if lk.call_sites:
        return d  # device-function calls: every step on the reference engine (frames, copy-out)
    for pc, ins in enumerate(lk.instructions):
        if pc in lk.contracted:  # an add fused with its mul (exec/contract.py): the reference closure
            d.nat[pc] = N_NONE
            continue
        try:
            _decode_one(d, pc, ins, lk)
        except _NotNative:
            d.nat[pc] = N_NONE
    return d


class _Ops:
    """Operand helpers bound to one instruction."""

    def __init__(self, d: Decoded, pc: int, ins: Instruction, lk: LinkedKernel):
        self.d, self.pc, self.ins, self.lk = d, pc, ins, lk

    def lk_reg(self, op) -> int:
        if not isinstance(op, Reg):
            raise _NotNative
        return self.lk.link.reg(op.name.lstrip("!"), self.ins)

    def dst(self, op, slot: str = "d0") -> None:
        if op is None:
            return  # sink: nothing written
        if not isinstance(op, Reg) or op.name.startswith("!"):
            raise _NotNative
        getattr(self.d, slot)[self.pc] = self.lk_reg(op)

    def src(self, i: int, op, t: str | None) -> None:
        """Source slot i: a register, a typed immediate (raw bits of imm_value(op, t)), or a special."""
        d, pc = self.d, self.pc
        if isinstance(op, Reg):
            d.sk[pc, i] = S_REG
            d.sv[pc, i] = self.lk_reg(op)
            d.sneg[pc, i] = op.name.startswith("!")
            return
        if isinstance(op, Imm):
            d.sk[pc, i] = S_IMM
            if t is None:  # raw form (mov/cvta/st): the bits as written
                v = op.float_bits if op.float_bits is not None else int(op.value) & 0xFFFFFFFFFFFFFFFF
                d.sv[pc, i] = np.uint64(v)
            else:
                d.sv[pc, i] = np.uint64(to_raw(np.asarray(imm_value(op, t)), t))
            return
        if isinstance(op, Special) and op.name in SPECIALS:
            d.sk[pc, i] = S_SPECIAL
            d.sv[pc, i] = SPECIALS[op.name]
            return
        raise _NotNative


def _set_type(d: Decoded, pc: int, t: str, slot: str = "a") -> None:
    getattr(d, slot + "bits")[pc] = type_bits(t)
    getattr(d, slot + "sign")[pc] = is_signed(t)


def _decode_one(d: Decoded, pc: int, ins: Instruction, lk: LinkedKernel) -> None:
    kind = lk.kinds[pc]
    o = _Ops(d, pc, ins, lk)
    op, mods, ops_ = ins.opcode, set(ins.mods), ins.operands
    if kind == BRA:
        if d.native_control and op == "bra":
            d.nat[pc] = N_BRA
        return
    if kind == EXIT:
        if d.native_control:
            d.nat[pc] = N_EXIT
        return
    if kind == BAR:
        info = lk.barriers[pc]
        if (d.native_control and info.kind == "sync" and info.count is None and len(ops_) == 1
                and isinstance(ops_[0], Imm)):
            d.nat[pc] = N_BAR
            d.sv[pc, 0] = np.uint64(int(ops_[0].value))
        return
    if kind != ALU:
        return
    if op in ("ld", "st") and not mods & {"v8", "volatile", "relaxed", "acquire", "release", "weak", "mmio"}:
        _decode_mem(d, o, pc, ins, lk)
        return
    t = _type(ins)
    if op == "mov":
        if isinstance(ops_[0], Vec) or isinstance(ops_[1], Vec) or isinstance(ops_[1], Addr):
            raise _NotNative
        o.dst(ops_[0])
        src = ops_[1]
        if t == "pred":
            if not isinstance(src, (Reg, Imm)):
                raise _NotNative
            d.nat[pc] = N_MOVP
            o.src(0, src, "pred")
            return
        if isinstance(src, Sym):
            d.sk[pc, 0] = S_IMM
            d.sv[pc, 0] = np.uint64(lk.link.symbol_value(src.name, ins) & 0xFFFFFFFFFFFFFFFF)
        elif isinstance(src, Imm) and not src.is_float and is_float(t):
            o.src(0, src, t)  # typed conversion of an integer literal
        else:
            o.src(0, src, None)
        d.nat[pc] = N_MOV
        _set_type(d, pc, t)
        return
    if op == "shfl" and "sync" in mods:
        # shfl.sync.mode.b32 d{|p}, a, b, c, membermask (the parser lists p after d)
        has_p = len(ops_) == 6
        o.dst(ops_[0])
        if has_p:
            o.dst(ops_[1], "d1")
        rest = ops_[2:] if has_p else ops_[1:]
        o.src(0, rest[0], None)
        o.src(1, rest[1], "u32")
        o.src(2, rest[2], "u32")
        if len(rest) > 3:  # the member mask: kernel.py checks each lane names itself
            o.src(3, rest[3], "b32")
        else:
            d.sk[pc, 3], d.sv[pc, 3] = S_IMM, np.uint64(0xFFFFFFFF)
        d.cmp[pc] = SHFL_MODE[next(x for x in ins.mods if x in SHFL_MODE)]
        d.nat[pc] = N_SHFL
        return
    if op == "cvta":
        space = next((x for x in mods if x in ("global", "shared", "local", "const", "param")), None)
        base = {"shared": SHARED_WINDOW, "local": LOCAL_WINDOW, "const": CONST_WINDOW}.get(space, 0)
        o.dst(ops_[0])
        o.src(0, ops_[1], None)
        if isinstance(ops_[1], Special):
            raise _NotNative
        _set_type(d, pc, t if t in TYPE_INFO else "u64")
        d.moff[pc] = np.uint64(base)
        d.nat[pc] = N_CVTA_ID if base == 0 else (N_CVTA_TO if "to" in mods else N_CVTA_FROM)
        return
    if t not in _INT_TYPES and t not in ("f32", "pred"):
        raise _NotNative
    if op in ("add", "sub", "mul", "mad", "and", "or", "xor", "min", "max", "shl", "shr", "not", "neg", "abs",
              "fma"):
        _decode_arith(d, o, pc, ins, t)
        return
    if op == "setp":
        _decode_setp(d, o, pc, ins, t)
        return
    if op == "selp":
        if t not in _INT_TYPES and t != "f32":
            raise _NotNative
        o.dst(ops_[0])
        o.src(0, ops_[1], t)
        o.src(1, ops_[2], t)
        o.src(2, ops_[3], "pred")
        _set_type(d, pc, t)
        d.nat[pc] = N_SELP
        return
    if op == "cvt":
        types = [m for m in ins.mods if m in TYPE_INFO]
        if len(types) != 2 or not {types[0], types[1]} <= _INT_TYPES or mods & {"sat", "ftz"} or \
                any(m in ("rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi") for m in mods):
            raise _NotNative
        o.dst(ops_[0])
        o.src(0, ops_[1], types[1])
        _set_type(d, pc, types[0], "a")
        _set_type(d, pc, types[1], "b")
        d.nat[pc] = N_CVTII
        return
    raise _NotNative


def _decode_arith(d: Decoded, o: _Ops, pc: int, ins: Instruction, t: str) -> None:
    op, mods, ops_ = ins.opcode, set(ins.mods), ins.operands
    if mods & {"sat", "cc", "hi", "ftz", "approx", "full", "rz", "rm", "rp", "NaN", "xorsign", "relu"}:
        raise _NotNative
    if t == "pred":
        code = {"and": N_PAND, "or": N_POR, "xor": N_PXOR, "not": N_PNOT}.get(op)
        if code is None:
            raise _NotNative
        o.dst(ops_[0])
        for i, x in enumerate(ops_[1:]):
            o.src(i, x, "pred")
        d.nat[pc] = code
        return
    if t == "f32":
        code = {"add": N_FADD, "sub": N_FSUB, "mul": N_FMUL, "fma": N_FFMA, "mad": N_FFMA, "neg": N_FNEG,
                "abs": N_FABS, "min": N_FMIN, "max": N_FMAX}.get(op)
        if code is None:
            raise _NotNative
        o.dst(ops_[0])
        for i, x in enumerate(ops_[1:]):
            o.src(i, x, "f32")
        _set_type(d, pc, t)
        d.nat[pc] = code
        return
    wide = "wide" in mods
    if op in ("mul", "mad"):
        if wide:
            if t not in _WIDE:
                raise _NotNative
            _set_type(d, pc, t)
            _set_type(d, pc, _WIDE[t], "b")
            o.dst(ops_[0])
            o.src(0, ops_[1], t)
            o.src(1, ops_[2], t)
            if op == "mad":
                o.src(2, ops_[3], _WIDE[t])
            d.nat[pc] = N_IMULW if op == "mul" else N_IMADW
            return
        if op == "mul" and "lo" not in mods:
            raise _NotNative
        _set_type(d, pc, t)
        o.dst(ops_[0])
        o.src(0, ops_[1], t)
        o.src(1, ops_[2], t)
        if op == "mad":
            o.src(2, ops_[3], t)
        d.nat[pc] = N_IMUL if op == "mul" else N_IMAD
        return
    if op in ("fma", "abs"):
        raise _NotNative
    code = {"add": N_IADD, "sub": N_ISUB, "and": N_AND, "or": N_OR, "xor": N_XOR, "min": N_IMIN, "max": N_IMAX,
            "shl": N_SHL, "shr": N_SHR, "not": N_NOT, "neg": N_INEG}[op]
    if code in (N_AND, N_OR, N_XOR, N_NOT) and t not in ("b16", "b32", "b64", "u32", "u64", "s32", "s64", "b8",
                                                         "u8", "s8", "u16", "s16"):
        raise _NotNative
    _set_type(d, pc, t)
    o.dst(ops_[0])
    o.src(0, ops_[1], t)
    if len(ops_) > 2:
        o.src(1, ops_[2], "u32" if code in (N_SHL, N_SHR) else t)
    d.nat[pc] = code


def _decode_setp(d: Decoded, o: _Ops, pc: int, ins: Instruction, t: str) -> None:
    mods = ins.mods
    if t not in _INT_TYPES and t != "f32":
        raise _NotNative
    if "ftz" in mods:
        raise _NotNative  # flushed comparisons: reference step
    cmp = next(x for x in mods if x not in TYPE_INFO and x not in ("and", "or", "xor"))
    boolop = next((x for x in mods if x in ("and", "or", "xor")), None)
    # unordered forms natively for f32 only; integer forms compare by the operand signedness
    if cmp not in CMP_CODES or (t != "f32" and CMP_CODES[cmp] >= 6):
        raise _NotNative
    ops_ = ins.operands
    has_q = len(ops_) >= 4 and (boolop is None or len(ops_) == 5)
    rest = ops_[2:] if has_q else ops_[1:]
    o.dst(ops_[0])
    if has_q:
        o.dst(ops_[1], "d1")
    o.src(0, rest[0], t)
    o.src(1, rest[1], t)
    if boolop:
        o.src(2, rest[2], "pred")
    d.cmp[pc] = CMP_CODES[cmp]
    d.bop[pc] = BOOLOP[boolop]
    _set_type(d, pc, t)
    d.nat[pc] = N_SETPF if t == "f32" else N_SETPI


def _decode_mem(d: Decoded, o: _Ops, pc: int, ins: Instruction, lk: LinkedKernel) -> None:
    is_ld = ins.opcode == "ld"
    t = _type(ins)
    if t in ("f16x2", "bf16x2", "pred") or t not in TYPE_INFO:
        raise _NotNative
    mods = ins.mods
    vec = 4 if "v4" in mods else 2 if "v2" in mods else 1
    addr_op = ins.operands[1] if is_ld else ins.operands[0]
    val_op = ins.operands[0] if is_ld else ins.operands[1]
    if not isinstance(addr_op, Addr):
        raise _NotNative
    implied = None
    if addr_op.base is None:
        d.moff[pc] = np.uint64(addr_op.offset & 0xFFFFFFFFFFFFFFFF)
    elif isinstance(addr_op.base, Reg):
        d.mreg[pc] = o.lk_reg(addr_op.base)
        d.moff[pc] = np.uint64(addr_op.offset & 0xFFFFFFFFFFFFFFFF)
        d.mwrap[pc] = np.uint64(ops.address_mask(lk.reg_types[d.mreg[pc]]))
    else:
        value, implied = lk.link.symbol_address(addr_op.base.name, ins)
        d.moff[pc] = np.uint64((value + addr_op.offset) & 0xFFFFFFFFFFFFFFFF)
    space = ops._space_of(mods, implied)
    if space not in _SPACE or (not is_ld and space not in ("global", "shared")) or pc in lk.l1_policy:
        raise _NotNative  # (a load with an L1 cache policy: the reference step, memory/l1.py)
    elems = list(val_op.elems) if isinstance(val_op, Vec) else [val_op]
    if len(elems) != vec:
        raise _NotNative
    d.space[pc] = _SPACE[space]
    d.msize[pc] = type_bytes(t)
    d.mvec[pc] = vec
    _set_type(d, pc, t)
    d.asign[pc] = is_signed(t) and type_bytes(t) < 8
    if is_ld:
        for i, e in enumerate(elems):
            if e is None:
                continue
            d.vreg[pc, i] = o.lk_reg(e)
        d.nat[pc] = N_LD
        return
    for i, e in enumerate(elems):
        if isinstance(e, Imm) and is_float(t) and not e.is_float:
            o.src(i, e, t)
        else:
            if isinstance(e, (Special, Sym)):
                raise _NotNative
            o.src(i, e, None)
    d.nat[pc] = N_ST
