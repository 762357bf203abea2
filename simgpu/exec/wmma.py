"""Warp matrix instructions (nvcuda::wmma): `wmma.load`, `wmma.store`, `wmma.mma`.

Three things live here, each in one place:

* **Fragment layouts** (`fragment`): which matrix element each lane holds in each element slot
  of its fragment registers. The PTX ISA ("Matrix Fragments for WMMA") fixes only how many
  registers a fragment has and how many elements each register packs; *which* elements a lane
  holds it leaves unspecified ("target architecture dependent"). simgpu uses the H200's: the
  layouts the ISA specifies for `mma.sync` (m16n8k16 for f16/bf16, m16n8k8 for tf32, the 8-bit
  m16n8k32 one for s8/u8) tiled over the wmma shape, m8n32k16 as the transpose of m32n8k16, and
  an f16 multiplicand's extra slots repeating the first ones. Measured element by element on the
  H200 (benchmarks/microbench/wmma, `./wmma layouts`) for f16 A/B/C of all three shapes, bf16
  m16n16k16 and m32n8k16, tf32 m16n16k8, u8 m16n16k16 and s32 C; bf16 m8n32k16 and the 8-bit
  m32n8k16 / m8n32k16 fragments follow the same rules but were not measured. f64 m8n8k4 (DMMA,
  one .f64 register per element) takes mma.sync m8n8k4's documented layout; not measured.
* **The memory lowering** (`memory_accesses`): how one wmma.load / wmma.store becomes warp-wide
  memory instructions, for the counters and the timing, from the H200's SASS and ncu counters
  (same benchmark) where measured, the natural per-lane lowering elsewhere; see there.
* **The arithmetic** (`mma`): D = A x B + C with every product exact (f16, bf16, tf32 and 8-bit
  inputs all have products that fit a double), summed in double in k order onto C, rounded once
  (to nearest even) to the accumulator type at the end of each wmma.mma; integer accumulation
  wraps modulo 2^32 (.satfinite: clamps). Deterministic, bit for bit. (The H200 gave the
  correctly rounded f16 result on all 256 elements of the benchmark's f16-accumulate tile.)

Alignment (CUDA C Programming Guide, wmma: "mptr must be a 256-bit aligned pointer", "ldm must be
a multiple of 16 bytes"): a wmma.load / wmma.store whose address is not 32-byte aligned or whose
stride is not a multiple of 16 bytes raises KernelRuntimeError naming kernel, block and thread,
like any misaligned access.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from simgpu.errors import KernelRuntimeError
from simgpu.frontend.ptx.ast import Addr, Reg, Vec

SHAPES = {"m16n16k16": (16, 16, 16), "m32n8k16": (32, 8, 16), "m8n32k16": (8, 32, 16), "m16n16k8": (16, 16, 8),
          "m8n8k4": (8, 8, 4)}
# element type -> bytes per element in memory
ELEM_BYTES = {"f16": 2, "bf16": 2, "tf32": 4, "f32": 4, "s8": 1, "u8": 1, "s32": 4, "f64": 8}
# what a fragment of each use may hold (PTX ISA, wmma.load): multiplicands and accumulators
AB_TYPES = {"m16n16k16": ("f16", "bf16", "s8", "u8"), "m32n8k16": ("f16", "bf16", "s8", "u8"),
            "m8n32k16": ("f16", "bf16", "s8", "u8"), "m16n16k8": ("tf32",), "m8n8k4": ("f64",)}
C_TYPES = {"f16", "f32", "s32"}
INTEGER_TYPES = ("s8", "u8")  # multiplicands of the integer forms (IMMA; s32 accumulate)
WMMA_ALIGN = 32  # bytes: mptr must be 256-bit aligned
WMMA_LDM_ALIGN = 16  # bytes: ldm must be a multiple of 16 bytes
VECTOR_MAX = 16  # bytes: the widest per-lane access (LDG.128 / LDS.128)


@dataclass(frozen=True)
class Fragment:
    """One fragment kind: `coords[lane, slot] = (row, col)` of the logical matrix (A: M x K,
    B: K x N, C/D: M x N) that element slot `slot` of lane `lane` holds. Slot s lives in register
    s // per_reg, bits (s % per_reg) * 8 * ebytes upwards (low to high, as mma's a0, a1, ...)."""

    use: str  # "a", "b" or "c" (C and D share the accumulator layout)
    shape: str
    etype: str
    rows: int
    cols: int
    regs: int  # 32-bit registers in the PTX vector operand
    coords: np.ndarray  # int64 [32, slots, 2]

    @property
    def ebytes(self) -> int:
        return ELEM_BYTES[self.etype]

    @property
    def per_reg(self) -> int:
        """Elements per register: 32-bit registers pack 4 / element-bytes; an f64 has its own 64-bit one."""
        return max(1, 4 // self.ebytes)

    @property
    def slots(self) -> int:
        return self.regs * self.per_reg

    @property
    def distinct(self) -> int:
        """Slots per lane that hold distinct elements (the first ones; later slots repeat them)."""
        return self.rows * self.cols // 32


# ------------------------------------------------------------------------------------------------
# fragment layouts
# ------------------------------------------------------------------------------------------------
def mma_tile_a(etype: str, m: int, k: int, g: int, t: int) -> list[tuple[int, int]]:
    """(row, col) of slots a0, a1, ... of lane (g, t) = (L // 4, L % 4) in mma.sync's A fragment
    (M x K, M = 8 or 16; PTX ISA, "Matrix Fragments for mma.m16n8k16" and its siblings). One
    32-bit register holds `per` = 4 / element-bytes consecutive K elements, columns per*t ..
    per*t + per - 1 of a K slice 4*per wide (f16/bf16: 8, tf32: 4, s8/u8: 16); the registers walk
    rows g, g + 8 (M = 16), then the next K slice. f16 m16n8k16: row g + 8*((i//2)%2), col 2t + i%2
    + 8*(i//4); tf32 m16n8k8: row g + 8*(i%2), col t + 4*(i//2); s8 m16n8k32: row g + 8*((i//4)%2),
    col 4t + i%4 + 16*(i//8)."""
    per = 4 // ELEM_BYTES[etype]
    return [(g + 8 * h, 4 * per * q + per * t + j) for q in range(k // (4 * per)) for h in range(m // 8)
            for j in range(per)]


def mma_tile_b(etype: str, k: int, g: int, t: int) -> list[tuple[int, int]]:
    """(row, col) of slots b0, b1, ... of lane (g, t) in mma.sync's B fragment (K x 8): column g,
    one 32-bit register per K slice (f16 m16n8k16: row 2t + i%2 + 8*(i//2); tf32 m16n8k8: row
    t + 4i; s8 m16n8k32: row 4t + i%4 + 16*(i//4))."""
    per = 4 // ELEM_BYTES[etype]
    return [(4 * per * q + per * t + j, g) for q in range(k // (4 * per)) for j in range(per)]


def mma_tile_c(m: int, g: int, t: int) -> list[tuple[int, int]]:
    """(row, col) of slots c0, c1, ... of lane (g, t) in mma.sync's C/D fragment (M x 8, any
    accumulator type): row g + 8*(i//2), col 2t + i%2."""
    return [(g + 8 * h, 2 * t + j) for h in range(m // 8) for j in range(2)]


def fragment_registers(use: str, shape: str, etype: str) -> int:
    """32-bit registers of a fragment (PTX ISA, Matrix Fragments for WMMA): f16 multiplicands
    always eight .f16x2; otherwise the elements per lane, packed 32 bits to a register."""
    m, n, k = SHAPES[shape]
    if use in ("a", "b") and etype == "f16":
        return 8
    rows, cols = {"a": (m, k), "b": (k, n)}.get(use, (m, n))
    if etype == "f64":  # one .f64 register per element
        return rows * cols // 32
    return rows * cols // 32 * ELEM_BYTES[etype] // 4


@cache
def fragment(use: str, shape: str, etype: str) -> Fragment:
    """The layout of one fragment kind (see the module docstring: the PTX ISA leaves it
    unspecified; this is mma.sync's documented layout tiled over the wmma shape). With
    g = lane // 4 and t = lane % 4:

    * A (M x K): M/16 tiles of 16 rows, slot-major (tile 0's elements, then tile 1's); each tile
      is mma's A fragment (f16/bf16: row g + 8*((i//2)%2), col 2t + i%2 + 8*(i//4)).
    * B (K x N): N/8 tiles of 8 columns, each mma's B fragment (f16/bf16: row 2t + i%2 + 8*(i//2),
      col g).
    * C/D (M x N): tiles of 16 x 8, row tiles outermost, each mma's C fragment (row g + 8*(i//2),
      col 2t + i%2).
    * m8n32k16: the transpose of m32n8k16 (its A = m32n8k16's B transposed, B = A transposed,
      C = C transposed), as the H200 has it.

    Slots past the distinct elements (f16 A/B) repeat them in order. Which memory layout the
    matrix has (.row / .col) does not change the fragment (H200: the same for both)."""
    m, n, k = SHAPES[shape]
    if use == "a":
        rows, cols = m, k
    elif use == "b":
        rows, cols = k, n
    else:
        rows, cols = m, n
    regs = fragment_registers(use, shape, etype)
    per_lane: list[list[tuple[int, int]]] = []
    if shape == "m8n32k16":  # the transpose of m32n8k16: A^T is its B, B^T its A, C^T its C (H200)
        other = fragment({"a": "b", "b": "a"}.get(use, "c"), "m32n8k16", etype)
        per_lane = [[(c, r) for r, c in other.coords[lane, :other.distinct].tolist()] for lane in range(32)]
    if shape == "m8n8k4":  # DMMA: mma.sync m8n8k4 .f64's layout (PTX ISA): a0 = A[g][t], b0 = B[t][g],
        # c0, c1 = C[g][2t], C[g][2t + 1]
        per_lane = [[(L // 4, L % 4)] if use == "a" else [(L % 4, L // 4)] if use == "b"
                    else [(L // 4, 2 * (L % 4)), (L // 4, 2 * (L % 4) + 1)] for L in range(32)]
    for lane in range(32 if not per_lane else 0):
        g, t = lane // 4, lane % 4
        if use == "a":
            el = [(r + 16 * mt, c) for mt in range(m // 16) for r, c in mma_tile_a(etype, 16, k, g, t)]
        elif use == "b":
            el = [(r, c + 8 * nt) for nt in range(n // 8) for r, c in mma_tile_b(etype, k, g, t)]
        else:
            el = [(r + 16 * mt, c + 8 * nt) for mt in range(m // 16) for nt in range(n // 8)
                  for r, c in mma_tile_c(16, g, t)]
        per_lane.append(el)
    distinct = rows * cols // 32
    slots = regs * max(1, 4 // ELEM_BYTES[etype])
    coords = np.zeros((32, slots, 2), np.int64)
    for lane, el in enumerate(per_lane):
        assert len(el) == distinct, (use, shape, etype, len(el), distinct)
        for s in range(slots):
            coords[lane, s] = el[s % distinct]
    cover = np.zeros((rows, cols), np.int64)
    np.add.at(cover, (coords[:, :distinct, 0].ravel(), coords[:, :distinct, 1].ravel()), 1)
    assert (cover == 1).all(), (use, shape, etype)  # every element held by exactly one distinct slot
    return Fragment(use, shape, etype, rows, cols, regs, coords)


# ------------------------------------------------------------------------------------------------
# the memory lowering (measured on the H200 where it could be, assumed elsewhere; one place)
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Access:
    """One warp-wide memory instruction of a lowered wmma.load / wmma.store: lane L accesses
    `count` consecutive elements of memory, the matrix elements coords[L, 0..count) (row, col of
    the logical matrix, in memory order), if lanes[L]."""

    coords: np.ndarray  # int64 [32, count, 2]
    lanes: np.ndarray  # bool [32]

    @property
    def count(self) -> int:
        return int(self.coords.shape[1])


def uses_ldsm(use: str, etype: str, space: str) -> bool:
    """Whether ptxas loads this fragment with LDSM (ldmatrix): 16-bit multiplicands from .shared
    (H200 SASS: LDSM.16.M88.4 for m16n16k16 f16 A and B, row and col, ldm 16 and 24)."""
    return space == "shared" and use in ("a", "b") and ELEM_BYTES[etype] == 2


def _line_view(frag: Fragment, layout: str):
    """(lines, line length, to_rc): the matrix as memory lines along the leading dimension (rows of
    a row-major matrix, columns of a column-major one); to_rc(line, pos) -> (row, col)."""
    if layout == "row":
        return frag.rows, frag.cols, (lambda line, pos: (line, pos))
    return frag.cols, frag.rows, (lambda line, pos: (pos, line))


@cache
def memory_accesses(use: str, shape: str, etype: str, layout: str, ldsm: bool = False) -> tuple[Access, ...]:
    """How one wmma.load / wmma.store of this fragment in this memory layout ("row" or "col")
    becomes warp-wide memory instructions (ldsm: a load that uses_ldsm): the one place that says so.
    From the H200's SASS and ncu counters (benchmarks/microbench/wmma/results, 2026-12-01) where
    measured:

    * 16-bit multiplicands (f16, bf16: A, B) loaded from .shared: LDSM.16.M88.4 (ldmatrix .x4, with
      .trans for the other layout): lane L gives the address of row L % 8 of 8 x 8 block L // 8 of
      the memory lines, 16 bytes, one instruction per four blocks (fewer lanes for a last .x1 /.x2).
      ncu counts it in the shared-load wavefronts and bank conflicts but not in
      smsp__sass_inst_executed_op_shared_ld (its own op, ldsm). Measured: m16n16k16 f16, one LDSM,
      ldm 16: 8 wavefronts, 4 conflicts; ldm 24: 4 wavefronts, 0 conflicts. Other shapes: by extension.
    * other 16-bit loads and every 16-bit store (A/B from global, C, D; global or shared): one
      32-bit access per 8 x 8 block of the memory lines, lane (g, t) = (L // 4, L % 4) the two
      elements 2t, 2t+1 of the block's line g; where the fragment runs across the lines (A col,
      B row, C/D col) ptxas transposes each block in registers (MOVM.16.MT88). Measured (m16n16k16
      f16): 4 LDG/STG/STS per load or store, 32 sectors for a 16 x 16 tile at ldm 16 or 24.
    * everything else (32-bit C/D, tf32, 8-bit): each lane accesses the distinct elements of its
      own fragment, in slot order; a run of slots consecutive in memory for every lane is one
      vector access of up to VECTOR_MAX (128) bits, cut where it would not be naturally aligned
      (the 32-byte base and 16-byte stride make that a property of the layout alone). Measured for
      f32 C/D: row 4 x 64-bit, col 8 x 32-bit, loads and stores, global and shared. tf32, 8-bit and
      s32: ASSUMED (not measured).

    Each Access is one warp-wide LDG/LDS/LDSM/STG/STS with its own request and sectors (global) or
    wavefronts (shared)."""
    frag = fragment(use, shape, etype)
    n_lines, line_len, to_rc = _line_view(frag, layout)
    every = np.ones(32, bool)
    lane = np.arange(32)
    if frag.ebytes == 2:
        blocks = [(lb, pb) for lb in range(n_lines // 8) for pb in range(line_len // 8)]
        if ldsm:
            out = []
            for q in range(0, len(blocks), 4):
                group = blocks[q:q + 4]
                coords = np.zeros((32, 8, 2), np.int64)
                for L in range(32):
                    lb, pb = group[min(L // 8, len(group) - 1)]
                    coords[L] = [to_rc(8 * lb + L % 8, 8 * pb + e) for e in range(8)]
                out.append(Access(coords, lane < 8 * len(group)))
            return tuple(out)
        out = []
        for lb, pb in blocks:
            coords = np.array([[to_rc(8 * lb + L // 4, 8 * pb + 2 * (L % 4) + e) for e in range(2)] for L in range(32)],
                              np.int64)
            out.append(Access(coords, every))
        return tuple(out)
    major, minor = (0, 1) if layout == "row" else (1, 0)
    c = frag.coords
    eb = frag.ebytes
    out = []
    s = 0
    while s < frag.distinct:
        n = 1
        while (s + n < frag.distinct and (n + 1) * eb <= VECTOR_MAX
               and (c[:, s + n, major] == c[:, s, major]).all()
               and (c[:, s + n, minor] == c[:, s, minor] + n).all()):
            n += 1
        # the widest power of two whose vector starts aligned in every lane
        width = 1
        while width * 2 <= n and ((c[:, s, minor] * eb) % (width * 2 * eb) == 0).all():
            width *= 2
        out.append(Access(np.ascontiguousarray(c[:, s:s + width]), every))
        s += width
    return tuple(out)


def _lowering(ins):
    """(spec, ldsm) of a wmma.load / wmma.store this file implements, else None."""
    spec = parse_memory(ins.mods) if ins.opcode == "wmma" else None
    if spec is None or not _check_type(spec[0], spec[2], spec[4]):
        return None
    use, layout, shape, space, etype = spec
    return spec, ins.mods[0] == "load" and uses_ldsm(use, etype, space)


def memory_class(ins) -> str | None:
    """"ldsm" for a wmma.load that becomes LDSM (uses_ldsm: ncu counts those apart from the shared
    loads), else None (the class follows the state space, as for ld / st)."""
    low = _lowering(ins)
    return "ldsm" if low is not None and low[1] else None


def lowered_instructions(ins) -> int:
    """Memory instructions one wmma.load / wmma.store becomes (memory_accesses); 0 for others."""
    low = _lowering(ins)
    if low is None:
        return 0
    (use, layout, shape, _, etype), ldsm = low
    return len(memory_accesses(use, shape, etype, layout, ldsm))


# ------------------------------------------------------------------------------------------------
# element conversions
# ------------------------------------------------------------------------------------------------
def _unpack(regs: list[np.ndarray], frag: Fragment) -> np.ndarray:
    """[k, 32, slots] uint64 raw element bits from the fragment's registers ([k, 32] each)."""
    per, bits = frag.per_reg, 8 * frag.ebytes
    mask = np.uint64((1 << bits) - 1)
    out = np.empty(regs[0].shape + (frag.slots,), np.uint64)
    for s in range(frag.slots):
        out[..., s] = (regs[s // per] >> np.uint64(bits * (s % per))) & mask
    return out


def _pack(slots: np.ndarray, frag: Fragment) -> list[np.ndarray]:
    """The fragment's registers ([k, 32] uint64 each) from [k, 32, slots] raw element bits."""
    per, bits = frag.per_reg, 8 * frag.ebytes
    regs = []
    for r in range(frag.regs):
        v = np.zeros(slots.shape[:2], np.uint64)
        for j in range(per):
            v |= slots[..., r * per + j] << np.uint64(bits * j)
        regs.append(v)
    return regs


def _to_f64(raw: np.ndarray, etype: str) -> np.ndarray:
    """Raw element bits -> float64 (integer types: int64) values of the element type."""
    if etype == "f16":
        return raw.astype(np.uint16).view(np.float16).astype(np.float64)
    if etype == "bf16":
        return (raw.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    if etype == "tf32":  # the tensor core reads the upper 19 bits of the .b32 (sign, 8 + 10 bits)
        return (raw.astype(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64)
    if etype == "f32":
        return raw.astype(np.uint32).view(np.float32).astype(np.float64)
    if etype == "s8":
        return raw.astype(np.uint8).view(np.int8).astype(np.int64)
    if etype == "u8":
        return raw.astype(np.int64)
    if etype == "s32":
        return raw.astype(np.uint32).view(np.int32).astype(np.int64)
    if etype == "f64":
        return raw.astype(np.uint64).view(np.float64)
    raise ValueError(etype)


def _from_f64(v: np.ndarray, etype: str, satfinite: bool) -> np.ndarray:
    """Accumulator values (float64 or int64) -> raw bits of the accumulator type."""
    if etype == "s32":
        if satfinite:
            v = np.clip(v, -(2 ** 31), 2 ** 31 - 1)
        return (v.astype(np.int64) & 0xFFFFFFFF).astype(np.uint64)
    if etype == "f64":
        return np.ascontiguousarray(v, np.float64).view(np.uint64)
    dt = np.float16 if etype == "f16" else np.float32
    with np.errstate(over="ignore", invalid="ignore"):
        r = v.astype(dt)  # one rounding, to nearest even
    if satfinite:  # +-inf -> +-MAX_NORM, NaN -> +0 (PTX ISA, wmma.mma .satfinite)
        big = np.finfo(dt).max
        r = np.where(np.isnan(r), dt(0), np.clip(r, -big, big)).astype(dt)
    return r.view(np.uint16 if etype == "f16" else np.uint32).astype(np.uint64)


def gather_matrix(slot_vals: np.ndarray, frag: Fragment) -> np.ndarray:
    """[k, rows, cols] from [k, 32, slots] fragment values: each element from the first slot of
    the first lane that holds it (the distinct slots)."""
    d = frag.distinct
    out = np.zeros((slot_vals.shape[0], frag.rows, frag.cols), slot_vals.dtype)
    r = frag.coords[:, :d, 0]
    c = frag.coords[:, :d, 1]
    out[:, r, c] = slot_vals[:, :, :d]
    return out


def scatter_matrix(mat: np.ndarray, frag: Fragment) -> np.ndarray:
    """[k, 32, slots] fragment values from [k, rows, cols]."""
    return mat[:, frag.coords[:, :, 0], frag.coords[:, :, 1]]


def mma(a: np.ndarray, b: np.ndarray, c: np.ndarray, integer: bool) -> np.ndarray:
    """D = A x B + C over [k, M, K] x [k, K, N] + [k, M, N]: float64 (int64) with every product
    exact, summed in k order onto C (deterministic; the caller rounds once). f64 multiplicands
    (DMMA m8n8k4): each product and each sum rounded in double, in k order (not checked bit for bit
    against the H200's DMMA, which may fuse them)."""
    d = c.astype(np.int64 if integer else np.float64).copy()
    for kk in range(a.shape[2]):
        d += a[:, :, kk, None] * b[:, None, kk, :]
    return d


# ------------------------------------------------------------------------------------------------
# instruction decoding
# ------------------------------------------------------------------------------------------------
_SPACE_MODS = ("global", "shared", "generic")


def parse_memory(mods: tuple[str, ...]):
    """(use, layout, shape, space, etype) of wmma.load.{a,b,c} / wmma.store.d, or None."""
    if len(mods) < 2 or mods[0] not in ("load", "store"):
        return None
    use = mods[1]
    if (mods[0] == "load" and use not in ("a", "b", "c")) or (mods[0] == "store" and use != "d"):
        return None
    rest = [m for m in mods[2:] if m not in ("sync", "aligned")]
    layout = next((m for m in rest if m in ("row", "col")), None)
    shape = next((m for m in rest if m in SHAPES), None)
    space = next((("shared" if m.startswith("shared") else m) for m in rest
                  if m in _SPACE_MODS or m.startswith("shared")), "generic")
    etype = next((m for m in rest if m in ELEM_BYTES), None)
    known = {layout, shape, etype} | set(_SPACE_MODS)
    if None in (layout, shape, etype) or any(m not in known and not m.startswith("shared") for m in rest):
        return None
    return ("c" if use == "d" else use), layout, shape, space, etype


def _check_type(use: str, shape: str, etype: str) -> bool:
    if shape == "m8n8k4" or etype == "f64":  # DMMA: f64 everywhere
        return shape == "m8n8k4" and etype == "f64"
    if use == "c":
        return etype in C_TYPES and shape != "m16n16k8" or (shape == "m16n16k8" and etype == "f32")
    return etype in AB_TYPES[shape]


def build(ins, link, o) -> object:
    """The closure of a wmma instruction (ops.build's builder); UnsupportedInstructionError for a
    form this file does not implement."""
    mods = ins.mods
    if mods[:1] in (("load",), ("store",)):
        return _build_memory(ins, link, o)
    if mods[:1] == ("mma",):
        return _build_mma(ins, link, o)
    raise o.error(f"unsupported PTX instruction '{ins.full_opcode}'")


def regs_of(op, o, what: str) -> list:
    if not isinstance(op, Vec) or not all(isinstance(e, Reg) for e in op.elems):
        raise o.error(f"{what}: expected a vector of registers, got {op!r}")
    return list(op.elems)


def _build_memory(ins, link, o):
    low = _lowering(ins)
    if low is None:
        raise o.error(f"unsupported PTX instruction '{ins.full_opcode}'")
    (use, layout, shape, space, etype), ldsm = low
    frag = fragment(use, shape, etype)
    is_load = ins.mods[0] == "load"
    ops_ = ins.operands
    vec_op, addr_op = (ops_[0], ops_[1]) if is_load else (ops_[1], ops_[0])
    regs = regs_of(vec_op, o, ins.full_opcode)
    if len(regs) != frag.regs:
        raise o.error(f"{ins.full_opcode} takes {frag.regs} registers, got {len(regs)}")
    if not isinstance(addr_op, Addr):
        raise o.error(f"{ins.full_opcode}: expected an address operand [..], got {addr_op!r}")
    addr, implied = o.address(addr_op)
    if space == "generic" and implied:
        space = implied
    default_ldm = frag.cols if layout == "row" else frag.rows
    if len(ops_) > 2:
        stride = o.src(ops_[2], "u32")
    else:
        stride = lambda ctx, ws: np.uint32(default_ldm)  # noqa: E731
    accesses = memory_accesses(use, shape, etype, layout, ldsm)
    eb = frag.ebytes
    major, minor = (0, 1) if layout == "row" else (1, 0)
    # per access: each lane's first element as (leading-dimension index, offset along it)
    firsts = [(a.coords[:, 0, major].astype(np.uint64), a.coords[:, 0, minor].astype(np.uint64)) for a in accesses]
    if is_load:
        dsts = [o.raw_dst(r) for r in regs]
    else:
        srcs = [o.raw_src(r) for r in regs]

    def base_and_ldm(ctx, ws, m):
        base = np.broadcast_to(np.asarray(addr(ctx, ws), np.uint64), m.shape)
        ldm = np.broadcast_to(np.asarray(stride(ctx, ws)).astype(np.uint64), m.shape)
        bad = m & (((base % np.uint64(WMMA_ALIGN)) != 0) | (((ldm * np.uint64(eb)) % np.uint64(WMMA_LDM_ALIGN)) != 0))
        if bad.any():
            wi, li = np.argwhere(bad)[0]
            raise KernelRuntimeError(
                f"misaligned wmma address 0x{int(base[wi, li]):x} with stride {int(ldm[wi, li])} elements "
                f"({ins.full_opcode}: the address must be {WMMA_ALIGN}-byte aligned and the stride a multiple of "
                f"{WMMA_LDM_ALIGN} bytes) in {ctx.where(ws, bad)}")
        return base, ldm

    def lane_addr(base, ldm, i):
        maj, mnr = firsts[i]
        return base + (maj[None, :] * ldm + mnr[None, :]) * np.uint64(eb)

    if is_load:
        def f(ctx, ws, m):
            base, ldm = base_and_ldm(ctx, ws, m)
            mat = np.zeros((m.shape[0], frag.rows, frag.cols), np.uint64)
            for i, acc in enumerate(accesses):
                mm = m & acc.lanes[None, :]
                got = ctx.mem_read(space, ins, ws, mm, lane_addr(base, ldm, i), eb, acc.count)
                for j, v in enumerate(got):  # the elements reach their lanes (LDSM, MOVM: across lanes)
                    rows, cols = acc.coords[:, j, 0], acc.coords[:, j, 1]
                    mat[:, rows[acc.lanes], cols[acc.lanes]] = v[:, acc.lanes]
            for dst, v in zip(dsts, _pack(scatter_matrix(mat, frag), frag)):
                dst(ctx, ws, m, v)
        return f

    def g(ctx, ws, m):
        base, ldm = base_and_ldm(ctx, ws, m)
        raw = [np.broadcast_to(np.asarray(s(ctx, ws), np.uint64), m.shape) for s in srcs]
        mat = gather_matrix(_unpack(raw, frag), frag)
        for i, acc in enumerate(accesses):
            vals = [np.ascontiguousarray(mat[:, acc.coords[:, j, 0], acc.coords[:, j, 1]]) for j in range(acc.count)]
            ctx.mem_write(space, ins, ws, m & acc.lanes[None, :], lane_addr(base, ldm, i), eb, vals)
    return g


def parse_mma(mods: tuple[str, ...]):
    """(alayout, blayout, shape, dtype, atype, btype, ctype, satfinite) of wmma.mma, or None."""
    rest = [m for m in mods[1:] if m not in ("sync", "aligned")]
    satfinite = "satfinite" in rest
    rest = [m for m in rest if m not in ("satfinite", "rn")]  # .rn: f64's default (and only modelled) rounding
    if len(rest) < 5 or rest[0] not in ("row", "col") or rest[1] not in ("row", "col") or rest[2] not in SHAPES:
        return None
    types = rest[3:]
    if len(types) == 2:  # .dtype.ctype: f16 multiplicands
        dtype, ctype = types
        atype = btype = "f16"
    elif len(types) == 4:
        dtype, atype, btype, ctype = types
    else:
        return None
    if atype != btype or not all(t in ELEM_BYTES for t in (dtype, atype, btype, ctype)):
        return None
    return rest[0], rest[1], rest[2], dtype, atype, btype, ctype, satfinite


def _build_mma(ins, link, o):
    spec = parse_mma(ins.mods)
    if spec is None:
        raise o.error(f"unsupported PTX instruction '{ins.full_opcode}'")
    alayout, blayout, shape, dtype, atype, btype, ctype, satfinite = spec
    integer = atype in INTEGER_TYPES
    ok = (_check_type("a", shape, atype) and _check_type("b", shape, btype) and _check_type("c", shape, ctype)
          and _check_type("c", shape, dtype)
          and ((integer and dtype == ctype == "s32") or (not integer and dtype != "s32" and ctype != "s32"))
          and (atype in ("f16",) or dtype == ctype == "f32" or integer or dtype == ctype == atype == "f64"))
    if not ok:
        raise o.error(f"unsupported PTX instruction '{ins.full_opcode}'")
    fa, fb = fragment("a", shape, atype), fragment("b", shape, btype)
    fc, fd = fragment("c", shape, ctype), fragment("c", shape, dtype)
    ops_ = ins.operands
    if len(ops_) != 4:
        raise o.error(f"{ins.full_opcode} takes four vector operands")
    d_regs, a_regs, b_regs, c_regs = (regs_of(x, o, ins.full_opcode) for x in ops_)
    for regs, fr, name in ((d_regs, fd, "d"), (a_regs, fa, "a"), (b_regs, fb, "b"), (c_regs, fc, "c")):
        if len(regs) != fr.regs:
            raise o.error(f"{ins.full_opcode}: operand {name} takes {fr.regs} registers, got {len(regs)}")
    return mma_closure(o, (d_regs, a_regs, b_regs, c_regs), (fd, fa, fb, fc), integer, satfinite)


def mma_closure(o, regs, frags, integer: bool, satfinite: bool):
    """The closure of one warp matrix multiply-accumulate (wmma.mma and mma.sync alike): gather A,
    B, C from their fragment registers (frags: the (D, A, B, C) Fragments, regs: their register
    lists in that order), D = A x B + C exactly (mma), one rounding to D's type, scatter D."""
    (d_regs, a_regs, b_regs, c_regs), (fd, fa, fb, fc) = regs, frags
    dtype = fd.etype
    a_src = [o.raw_src(r) for r in a_regs]
    b_src = [o.raw_src(r) for r in b_regs]
    c_src = [o.raw_src(r) for r in c_regs]
    dsts = [o.raw_dst(r) for r in d_regs]

    def read(srcs, frag, ctx, ws, m):
        raw = [np.broadcast_to(np.asarray(s(ctx, ws), np.uint64), m.shape) for s in srcs]
        return gather_matrix(_to_f64(_unpack(raw, frag), frag.etype), frag)

    def f(ctx, ws, m):
        am = read(a_src, fa, ctx, ws, m)
        bm = read(b_src, fb, ctx, ws, m)
        cm = read(c_src, fc, ctx, ws, m)
        dm = mma(am, bm, cm, integer)
        raw = _from_f64(scatter_matrix(dm, fd), dtype, satfinite)
        for dst, v in zip(dsts, _pack(raw, fd)):
            dst(ctx, ws, m, v)
    return f

