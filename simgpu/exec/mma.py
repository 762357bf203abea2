"""Hand-written tensor-core PTX: `mma.sync`, `ldmatrix`, `stmatrix`.

Everything that is not specific to these instructions lives in exec/wmma.py and is reused here:

* **Fragment layouts**: mma.sync's per-lane layouts are the PTX ISA's ("Matrix Fragments for
  mma.m16n8k16 / m16n8k8 / m16n8k32", lane L: g = L // 4, t = L % 4), written once as
  `wmma.mma_tile_a / mma_tile_b / mma_tile_c` (wmma's fragments are tiles of them). Checked on the
  H200 (benchmarks/microbench/wmma, `./mma_sync layouts`, results/mma_sync/mma_layouts.txt):
  m16n8k16 f16 A, B and C/D, f32 and f16 accumulate, element by element. Other shapes and types:
  the ISA's formulas (the same generator), not probed.
* **The arithmetic**: `wmma.mma_closure`: every product exact, summed in double in k order onto C,
  one rounding (to nearest even) to D's type; s32 wraps, .satfinite clamps.
* **ldmatrix** (`ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16`): lane
  8*i + r gives the 16-byte row r of matrix i (x1: lanes 0..7, x2: 0..15, x4: all); lane L's
  register i receives matrix i's elements (L // 4, 2*(L % 4) + {0, 1}), the C/D layout of an 8 x 8
  tile (`wmma.mma_tile_c(8, ..)`), transposed with .trans. One LDSM: a single 16-byte-per-lane shared
  access of the addressing lanes, through the shared-memory bank model like wmma's LDSM loads, and
  counted as class "ldsm" (smsp__sass_inst_executed_op_ldsm), not as a shared-load instruction.
  H200 (ncu, results/mma_sync/mma_ncu.csv): rows 16 bytes apart: 1 / 2 / 4 wavefronts for
  x1 / x2 / x4, no conflict; rows 128 bytes apart (a matrix's 8 rows on the same 4 banks): 8 / 16 /
  32 wavefronts, 7 / 14 / 28 conflicts; .trans the same; op_ldsm 1, op_shared_ld 0.
* **stmatrix** (sm_90): the inverse; one STSM (class "stsm"): the H200 counts its wavefronts in
  the shared stores' (x4: 4 at 16-byte rows, 32 with 28 conflicts at 128-byte rows, as the LDSM of
  the same rows) but the instruction in neither op_shared_st nor op_ldsm (ncu has no op_stsm).

Row addresses must be 16-byte aligned (PTX ISA, ldmatrix: each row is 16 bytes): a misaligned one
raises KernelRuntimeError naming kernel, block and thread. Forms not listed in MMA_FORMS, other
ldmatrix shapes (.m16n16, .m8n16, .b8) and m8n8k4 f16 raise UnsupportedInstructionError. m8n8k4
f64 (DMMA, sm_80+) is wmma's f64 fragment (exec/wmma.py: one .f64 register per element, the ISA's
layout), its arithmetic the same.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from simgpu.errors import KernelRuntimeError
from simgpu.exec import wmma
from simgpu.frontend.ptx.ast import Addr

SHAPES = {"m16n8k16": (16, 8, 16), "m16n8k8": (16, 8, 8), "m16n8k32": (16, 8, 32), "m16n8k4": (16, 8, 4),
          "m8n8k16": (8, 8, 16), "m8n8k4": (8, 8, 4)}
# multiplicand type -> the shapes mma.sync has for it and the accumulator types (dtype, ctype) it
# allows (PTX ISA 8.x, mma: half precision, alternate floating point and integer forms, sm_80+)
_FLOAT_ACC = {("f16", "f16"), ("f16", "f32"), ("f32", "f16"), ("f32", "f32")}
MMA_FORMS = {
    "f16": (("m16n8k8", "m16n8k16"), _FLOAT_ACC),
    "bf16": (("m16n8k8", "m16n8k16"), {("f32", "f32")}),
    "tf32": (("m16n8k4", "m16n8k8"), {("f32", "f32")}),
    "s8": (("m8n8k16", "m16n8k16", "m16n8k32"), {("s32", "s32")}),
    "u8": (("m8n8k16", "m16n8k16", "m16n8k32"), {("s32", "s32")}),
    "f64": (("m8n8k4",), {("f64", "f64")}),
}
LDSM_ROW_BYTES = 16  # one 8 x 8 .b16 matrix row; also the row-address alignment
_LDSM_COUNT = {"x1": 1, "x2": 2, "x4": 4}


# ------------------------------------------------------------------------------------------------
# fragments
# ------------------------------------------------------------------------------------------------
@cache
def fragment(use: str, shape: str, etype: str) -> wmma.Fragment:
    """mma.sync's fragment of one operand ("a": M x K, "b": K x N, "c": C/D, M x N) of a shape and
    element type: the ISA's layout (wmma.mma_tile_*), every slot a distinct element, packed 32 bits
    to a register in slot order (a0 in the low half of the first register)."""
    if etype == "f64":  # DMMA: the same fragment as wmma's m8n8k4 (64-bit registers)
        return wmma.fragment(use, shape, etype)
    m, n, k = SHAPES[shape]
    rows, cols = {"a": (m, k), "b": (k, n)}.get(use, (m, n))
    coords = np.zeros((32, rows * cols // 32, 2), np.int64)
    for lane in range(32):
        g, t = lane // 4, lane % 4
        if use == "a":
            el = wmma.mma_tile_a(etype, m, k, g, t)
        elif use == "b":
            el = wmma.mma_tile_b(etype, k, g, t)
        else:
            el = wmma.mma_tile_c(m, g, t)
        coords[lane] = el
    cover = np.zeros((rows, cols), np.int64)
    np.add.at(cover, (coords[:, :, 0].ravel(), coords[:, :, 1].ravel()), 1)
    assert (cover == 1).all(), (use, shape, etype)
    regs = coords.shape[1] * wmma.ELEM_BYTES[etype] // 4
    return wmma.Fragment(use, shape, etype, rows, cols, regs, coords)


def parse_mma_sync(mods: tuple[str, ...]):
    """(shape, dtype, atype, btype, ctype, satfinite) of an mma.sync this file implements, else None."""
    rest = [x for x in mods if x not in ("sync", "aligned")]
    satfinite = "satfinite" in rest
    rest = [x for x in rest if x not in ("satfinite", "rn")]  # .rn: f64's only modelled rounding
    if len(rest) != 7 or rest[0] not in SHAPES or rest[1:3] != ["row", "col"]:
        return None
    shape, (dtype, atype, btype, ctype) = rest[0], rest[3:]
    if atype not in MMA_FORMS or btype not in MMA_FORMS:
        return None
    integer = atype in wmma.INTEGER_TYPES
    if (btype in wmma.INTEGER_TYPES) != integer or (not integer and btype != atype) or (satfinite and not integer):
        return None
    shapes, accs = MMA_FORMS[atype]
    if shape not in shapes or (dtype, ctype) not in accs:
        return None
    return shape, dtype, atype, btype, ctype, satfinite


def mma_class(mods: tuple[str, ...]) -> str | None:
    """"full" for an mma.sync whose A row slice is 32 bytes (m16n8k16 16-bit, m16n8k8 tf32, m16n8k32
    8-bit: one HMMA.16816 / HMMA.1688 TF32 / IMMA.16832), "half" for 16 bytes (m16n8k8 16-bit,
    m16n8k4 tf32, m16n8k16 and m8n8k16 8-bit), "dmma" for m8n8k4 f64, None if not an implemented
    form (timing/isa.py)."""
    spec = parse_mma_sync(mods)
    if spec is None:
        return None
    shape, _, atype, _, _, _ = spec
    if atype == "f64":
        return "dmma"
    return "full" if SHAPES[shape][2] * wmma.ELEM_BYTES[atype] == 32 else "half"


# ------------------------------------------------------------------------------------------------
# instructions
# ------------------------------------------------------------------------------------------------
def build_mma(ins, link, o):
    """The closure of mma.sync (ops.BUILDERS["mma"])."""
    spec = parse_mma_sync(ins.mods)
    if spec is None:
        raise o.error(f"unsupported PTX instruction '{ins.full_opcode}'")
    shape, dtype, atype, btype, ctype, satfinite = spec
    frags = (fragment("c", shape, dtype), fragment("a", shape, atype), fragment("b", shape, btype),
             fragment("c", shape, ctype))
    if len(ins.operands) != 4:
        raise o.error(f"{ins.full_opcode} takes four vector operands")
    regs = tuple(wmma.regs_of(x, o, ins.full_opcode) for x in ins.operands)
    for rs, fr, name in zip(regs, frags, "dabc"):
        if len(rs) != fr.regs:
            raise o.error(f"{ins.full_opcode}: operand {name} takes {fr.regs} registers, got {len(rs)}")
    return wmma.mma_closure(o, regs, frags, atype in wmma.INTEGER_TYPES, satfinite)


def parse_matrix_ldst(mods: tuple[str, ...]):
    """(matrices, trans, space) of ldmatrix / stmatrix .m8n8 .b16, else None."""
    rest = [x for x in mods if x not in ("sync", "aligned")]
    if "m8n8" not in rest or "b16" not in rest:
        return None
    num = [x for x in rest if x in _LDSM_COUNT]
    spaces = [x for x in rest if x in ("shared", "shared::cta")]
    known = {"m8n8", "b16", "trans", "shared", "shared::cta"} | set(_LDSM_COUNT)
    if len(num) != 1 or len(spaces) > 1 or any(x not in known for x in rest):
        return None
    return _LDSM_COUNT[num[0]], "trans" in rest, "shared" if spaces else "generic"


@cache
def lane_sources(matrices: int, trans: bool) -> np.ndarray:
    """int64 [matrices, 2, 32, 2]: for register i, half e, lane L: (lane whose row address holds the
    element, element index in that 16-byte row). Lane L's register i holds matrix i's elements at
    mma_tile_c(8, L // 4, L % 4) (row L // 4, cols 2*(L % 4) + e), transposed with .trans; row r of
    matrix i is the row lane 8*i + r addressed."""
    out = np.zeros((matrices, 2, 32, 2), np.int64)
    for i in range(matrices):
        for lane in range(32):
            for e, (r, c) in enumerate(wmma.mma_tile_c(8, lane // 4, lane % 4)):
                if trans:
                    r, c = c, r
                out[i, e, lane] = (8 * i + r, c)
    return out


def _matrix_operands(ins, o):
    """(address getter, space, address lanes, the registers, lane_sources) of an ldmatrix (registers
    first, then the address) or stmatrix (address first)."""
    spec = parse_matrix_ldst(ins.mods)
    if spec is None:
        raise o.error(f"unsupported PTX instruction '{ins.full_opcode}'")
    matrices, trans, space = spec
    addr_op, reg_op = ins.operands[::-1] if ins.opcode == "ldmatrix" else ins.operands[:2]
    if not isinstance(addr_op, Addr):
        raise o.error(f"{ins.full_opcode}: expected an address operand [..], got {addr_op!r}")
    addr, implied = o.address(addr_op)
    if space == "generic" and implied:
        space = implied
    regs = wmma.regs_of(reg_op, o, ins.full_opcode)
    if len(regs) != matrices:
        raise o.error(f"{ins.full_opcode} takes {matrices} registers, got {len(regs)}")
    return addr, space, np.arange(32) < 8 * matrices, regs, lane_sources(matrices, trans)


def _checked(ins, addr, lanes, ctx, ws, m):
    """The row addresses [k, 32] and the lanes that give one; KernelRuntimeError if misaligned."""
    a = np.broadcast_to(np.asarray(addr(ctx, ws), np.uint64), m.shape)
    mm = m & lanes[None, :]
    bad = mm & ((a % np.uint64(LDSM_ROW_BYTES)) != 0)
    if bad.any():
        wi, li = np.argwhere(bad)[0]
        raise KernelRuntimeError(
            f"misaligned {ins.opcode} row address 0x{int(a[wi, li]):x} ({ins.full_opcode}: each row address "
            f"must be {LDSM_ROW_BYTES}-byte aligned) in {ctx.where(ws, bad)}")
    return a, mm


def build_ldmatrix(ins, link, o):
    """The closure of ldmatrix (ops.BUILDERS["ldmatrix"]): one LDSM."""
    addr, space, lanes, regs, src = _matrix_operands(ins, o)
    dsts = [o.raw_dst(r) for r in regs]

    def f(ctx, ws, m):
        a, mm = _checked(ins, addr, lanes, ctx, ws, m)
        rows = np.stack(ctx.mem_read(space, ins, ws, mm, a, 2, 8), axis=-1)  # [k, lane, element]
        for i, dst in enumerate(dsts):
            lo = rows[:, src[i, 0, :, 0], src[i, 0, :, 1]]
            hi = rows[:, src[i, 1, :, 0], src[i, 1, :, 1]]
            dst(ctx, ws, m, lo | (hi << np.uint64(16)))
    return f


def build_stmatrix(ins, link, o):
    """The closure of stmatrix (ops.BUILDERS["stmatrix"]): one STSM, ldmatrix's inverse."""
    addr, space, lanes, regs, src = _matrix_operands(ins, o)
    srcs = [o.raw_src(r) for r in regs]
    matrices = len(regs)
    # element (row lane, position) of the rows comes from register i, half e of lane `owner`
    owner = np.zeros((32, 8, 3), np.int64)  # (register, half, lane)
    for i in range(matrices):
        for e in range(2):
            for lane in range(32):
                owner[src[i, e, lane, 0], src[i, e, lane, 1]] = (i, e, lane)

    def g(ctx, ws, m):
        a, mm = _checked(ins, addr, lanes, ctx, ws, m)
        raw = np.stack([np.broadcast_to(np.asarray(s(ctx, ws), np.uint64), m.shape) for s in srcs])  # [i, k, lane]
        halves = np.stack([raw & np.uint64(0xFFFF), raw >> np.uint64(16) & np.uint64(0xFFFF)])  # [e, i, k, lane]
        sel = owner[:matrices * 8]
        vals = [np.zeros(m.shape, np.uint64) for _ in range(8)]
        for pos in range(8):
            r_i, r_e, r_l = sel[:, pos, 0], sel[:, pos, 1], sel[:, pos, 2]
            vals[pos][:, :matrices * 8] = halves[r_e, r_i, :, r_l].T
        ctx.mem_write(space, ins, ws, mm, a, 2, vals)
    return g
