"""The redundant-load elimination and store-to-load forwarding ptxas does: a plain load from the
same address operand as an earlier load, or as an earlier store, that reaches it on every path,
with nothing between that may write that memory or order it, is not issued; the SASS reuses the
first load's register, or the stored one.

Found on validation/typical21 paged_attn_decode: NVVM unrolls the token loop by two and loads the
block-table entry twice from one address register (`ld.global.u32 %r26, [%rd24]` ... `%r44,
[%rd24]`, K/V loads, arithmetic and shuffles between); its SASS loop has five LDGs, not six, and
the H100 counted 99,072 global load requests where the PTX issues 118,712. Forwarding: NVVM keeps
`c[i] += __shfl_xor_sync(...)` as a load and a store per step; ptxas loads c once
(tests/exec/test_dead_stores.py, with exec/dead_stores.py dropping all stores but the last).

What ptxas merges and what stops it, from NVRTC's cubins of hand-written PTX (two identical loads,
or a store and a load, with one instruction between; tests/exec/test_reuse_loads.py and
test_dead_stores.py compile them and check these modules against nvdisasm's listing):
- merged: global (any cache operator), .nc, generic and shared loads, scalar and vector; across
  arithmetic, shuffles, other loads (plain, volatile, relaxed or acquire), stores to another state
  space (st.shared between two global loads), and across basic blocks when the first load reaches
  the second on every path;
- not merged across: a store, atomic or reduction that may alias (global ones end global and
  generic loads, shared ones shared and generic), bar.sync, bar.warp.sync, membar, fence,
  nanosleep; .nc loads are merged across all of these (their data is read-only for the kernel);
- never merged: volatile, relaxed and acquire loads (and .cv, .lu, .mmio ones, not measured);
- forwarded: a plain store's value (register or constant) to a plain load of the same state space,
  address and width (a vector store's element to a scalar load of it, a u8 or u16 store to a load
  of that width: extended as the load would), across what a merge crosses; not to a load with a
  cache operator or .nc, nor from an st.cs, nor from a global store to a generic load, nor to a
  narrower or wider load.

The PTX memory model allows it: a plain (weak) load may return what an earlier access of the same
thread did when no write of that thread and no synchronisation lies between them; a store by
another thread meanwhile is a data race. So the later load executes as a register copy (a `cvt`
where a narrow value is extended): it returns what the GPU's does, and makes no request, sector or
L1 lookup.

Not taken: loads whose first destination is written again before the second (ptxas keeps the
value in another register; NVVM's PTX defines a register once in a block, so this is rare), a
guarded load, loads from symbols or absolute addresses, and .const / .param loads (no counter).
"""

from __future__ import annotations

from collections.abc import Callable

from simgpu.exec.values import type_bits
from simgpu.frontend.cfg import build_cfg
from simgpu.frontend.ptx.ast import Addr, Function, Imm, Instruction, Reg, Vec

# loads whose ordering or caching the program asked for: never merged
_ORDERED = {"volatile", "relaxed", "acquire", "cv", "lu", "mmio"}
_SPACES = ("global", "shared", "local")  # none of these: a generic load
# instructions after which no earlier load is reused, except .nc ones (measured: bar.sync,
# bar.warp.sync, membar, fence, nanosleep; the rest conservatively)
_BARRIERS = {"bar", "barrier", "membar", "fence", "nanosleep", "call", "griddepcontrol", "mbarrier", "cp",
             "wmma", "stmatrix", "sust", "sured", "multimem", "tcgen05", "tensormap", "applypriority",
             "discard", "trap", "brkpt"}
_WRITES = {"st", "atom", "red"}  # end loads of the state space they write (and generic ones)
_ENDS = {"bra", "brx", "ret", "exit", "trap", "brkpt"}
# modifiers a plain access may carry besides its type (the default .weak, a state space, a width)
_PLAIN_MODS = {"global", "shared", "shared::cta", "local", "weak", "v2", "v4"}
TYPE_BITS = {f"{k}{b}": b for k in "bsuf" for b in (8, 16, 32, 64) if not (k == "f" and b == 8)}


def space_of(mods: tuple[str, ...]) -> str:
    """The state space an access's modifiers name: global, shared, local, const, param or generic."""
    for m in mods:
        base = m.split("::")[0]
        if base in _SPACES or base in ("const", "param"):
            return base
    return "generic"


def load_key(ins: Instruction, registers: dict[str, str]) -> tuple | None:
    """(mods, base register, offset, destination width) a later load must share to reuse this one,
    or None if it is not a plain load ptxas would merge. The width: a narrow load sign- or
    zero-extended into a 16-bit register is not the same bits as into a 32-bit one."""
    if ins.opcode != "ld" or ins.guard is not None or len(ins.operands) != 2:
        return None
    mods = ins.mods
    if _ORDERED & set(mods) or space_of(mods) in ("const", "param") or "shared::cluster" in mods:
        return None
    dst, addr = ins.operands
    if not isinstance(addr, Addr) or not isinstance(addr.base, Reg):
        return None
    if isinstance(dst, Vec):
        if not all(isinstance(e, Reg) for e in dst.elems):
            return None
        dst = dst.elems[0]
    elif not isinstance(dst, Reg):
        return None
    t = registers.get(dst.name)
    if t is None or t == "pred":
        return None
    return (mods, addr.base.name, addr.offset, type_bits(t))


def _dest_names(ins: Instruction) -> list[str]:
    d = ins.operands[0]
    return [e.name for e in d.elems] if isinstance(d, Vec) else [d.name]


def killed_spaces(ins: Instruction) -> set[str] | None:
    """The state spaces whose loads `ins` ends (None: none; "generic" stands for generic loads)."""
    op = ins.opcode
    if op in _BARRIERS:
        return {"global", "shared", "local", "generic"}
    if op in _WRITES:
        s = space_of(ins.mods)
        return {"global", "shared", "local", "generic"} if s == "generic" else {s, "generic"}
    return None


class _Block:
    __slots__ = ("start", "end", "succs")

    def __init__(self, start: int, end: int, succs: list[int]):
        self.start, self.end, self.succs = start, end, succs


def basic_blocks(body: list[Instruction], labels: dict[str, int]) -> list[_Block]:
    """Basic blocks of a function body and their successors, as block indices (frontend/cfg.py, as
    the linker builds them, except that a guarded ret / exit also ends a block, falling through: a
    store before `@p exit` may be read after the exit, dead_stores.py must not look past it)."""
    n = len(body)
    if not n:
        return []
    targets, ends, conditional, falls = {}, set(), set(), set()
    for i, ins in enumerate(body):
        if ins.opcode not in _ENDS:
            continue
        t = labels.get(getattr(ins.operands[0], "name", None)) if ins.opcode == "bra" and ins.operands else None
        if t is not None and t < n:
            targets[i] = t
            if ins.guard is not None:
                conditional.add(i)
        elif ins.guard is None:
            ends.add(i)  # ret, exit, trap, an indirect or unresolved branch: no successor here
        else:
            falls.add(i)
    cfg = build_cfg(0, n, targets, ends, conditional, falls)
    return [_Block(s, e, succs) for s, e, succs in zip(cfg.starts, cfg.ends, cfg.succs)]


def _plain_access(mods: tuple[str, ...]) -> bool:
    """No cache operator, eviction hint, .nc or ordering: the loads and stores ptxas forwards
    between (a .cs / .cg / .nc load, or a load after an st.cs, still reads memory: probes)."""
    return all(m in _PLAIN_MODS or m in TYPE_BITS for m in mods)


def _plain_slots(ins: Instruction, opcode: str) -> tuple[str, str, int, int, object] | None:
    """(space, base register, offset, element bits, value operand) of a plain `opcode` (ld or st) to
    `[register + offset]`, or None: the accesses forwarding pairs up, element by element."""
    if ins.opcode != opcode or ins.guard is not None or len(ins.operands) != 2 or not _plain_access(ins.mods):
        return None
    value, addr = ins.operands if opcode == "ld" else ins.operands[::-1]
    bits = next((TYPE_BITS[m] for m in ins.mods if m in TYPE_BITS), 0)
    if not isinstance(addr, Addr) or not isinstance(addr.base, Reg) or not bits:
        return None
    return space_of(ins.mods), addr.base.name, addr.offset, bits, value


def _store_elements(ins: Instruction) -> list[tuple[tuple, object]] | None:
    """(key, source operand) of each element a plain store writes, key = ("S", space, base,
    byte offset, bits); None if it is not a plain store to `[register + offset]`."""
    slots = _plain_slots(ins, "st")
    if slots is None:
        return None
    space, base, offset, bits, src = slots
    elems = src.elems if isinstance(src, Vec) else (src,)
    if not all(isinstance(e, (Reg, Imm)) for e in elems):
        return None
    return [(("S", space, base, offset + k * bits // 8, bits), e) for k, e in enumerate(elems)]


def _load_elements(ins: Instruction) -> list[tuple] | None:
    """The store-element keys a plain load reads, in order, or None."""
    slots = _plain_slots(ins, "ld")
    if slots is None:
        return None
    space, base, offset, bits, dst = slots
    n = len(dst.elems) if isinstance(dst, Vec) else 1
    return [("S", space, base, offset + k * bits // 8, bits) for k in range(n)]


def _step(fn: Function, i: int, avail: dict, defs_uses: Callable) -> None:
    """Apply instruction i to what is available: {load key: index of the load that holds its value}
    and {store-element key: (index of the store, its source operand)}."""
    ins = fn.body[i]
    spaces = killed_spaces(ins)
    if spaces:
        for k in [k for k in avail if (k[1] in spaces if k[0] == "S" else
                                       "nc" not in k[0] and space_of(k[0]) in spaces)]:
            del avail[k]
    written = set(defs_uses(ins)[0])
    if written:
        for k, v in list(avail.items()):
            if k[0] == "S":
                gone = k[2] in written or (isinstance(v[1], Reg) and v[1].name in written)
            else:
                gone = k[1] in written or bool(written.intersection(_dest_names(fn.body[v])))
            if gone:
                del avail[k]
    key = load_key(ins, fn.registers)
    if key is not None and key not in avail and key[1] not in written:
        avail[key] = i
    stored = _store_elements(ins)
    if stored:
        for k, src in stored:
            avail[k] = (i, src)


def _forwarded(fn: Function, ins: Instruction, avail: dict) -> tuple | None:
    """The stored operands a load returns, one per element, if every element of it is available
    from stores of the same width (a copy needs no more than an extension: registers as wide as
    the data, or one scalar extended per the load's type), else None."""
    keys = _load_elements(ins)
    if not keys or not all(k in avail for k in keys):
        return None
    found = tuple(avail[k] for k in keys)
    srcs = [src for _, src in found]
    dst = ins.operands[0]
    if isinstance(dst, Vec):  # a vector: element by element, raw copies of full-width registers
        bits = keys[0][4]
        if not all(isinstance(e, Reg) and type_bits(fn.registers[e.name]) == bits for e in dst.elems):
            return None
        if not all(isinstance(s, Imm) or type_bits(fn.registers.get(s.name, "pred")) == bits for s in srcs):
            return None
    return found


def find_reused_loads(fn: Function, defs_uses: Callable) -> dict[int, int | tuple]:
    """{index of a load: the index of the earlier load whose register it reuses, or the (store
    index, stored operand) of each of its elements (a tuple) where it returns stored values}."""
    if not fn.body:
        return {}
    blocks = basic_blocks(fn.body, fn.labels)
    preds: list[list[int]] = [[] for _ in blocks]
    for b, blk in enumerate(blocks):
        for s in blk.succs:
            preds[s].append(b)
    out_sets: list[dict | None] = [None] * len(blocks)  # None: not reached yet (the meet's identity)

    def entry(b: int) -> dict:
        """What is available on entry to block b: on every path from the kernel's start, so the
        meet of its predecessors' exits (a predecessor not reached yet does not count)."""
        reached = [out_sets[p] for p in preds[b] if out_sets[p] is not None]
        if b == 0 or not reached:
            return {}
        return dict(set.intersection(*(set(d.items()) for d in reached)))

    changed = True
    while changed:  # forward "available loads and stores" to a fixed point (meet: intersection)
        changed = False
        for b, blk in enumerate(blocks):
            avail = entry(b)
            for i in range(blk.start, blk.end):
                _step(fn, i, avail, defs_uses)
            if avail != out_sets[b]:
                out_sets[b], changed = avail, True
    out: dict[int, int | tuple] = {}
    for b, blk in enumerate(blocks):
        avail = entry(b)
        for i in range(blk.start, blk.end):
            ins = fn.body[i]
            srcs = _forwarded(fn, ins, avail) if ins.opcode == "ld" else None
            key = load_key(ins, fn.registers) if srcs is None else None
            if srcs is not None:
                out[i] = srcs
            elif key is not None and key in avail and avail[key] != i:
                out[i] = avail[key]
            _step(fn, i, avail, defs_uses)
    return out


def copy_instruction(fn: Function, i: int, source: int | tuple) -> Instruction:
    """What the load fn.body[i] executes as: a `mov` of the earlier load's registers, or of the
    stored operands; a narrow scalar whose register is wider than its data is a `cvt` that extends
    it as the load would (ld.s8 sign-extends the byte st.u8 wrote)."""
    load = fn.body[i]
    dst = load.operands[0]
    text = load.text.strip().rstrip(";")
    if isinstance(source, int):
        src = fn.body[source].operands[0]
        why = f"ptxas reuses the load of line {fn.body[source].line}"
    else:
        stored = tuple(src for _, src in source)
        src = Vec(stored) if isinstance(dst, Vec) else stored[0]
        why = f"ptxas forwards the value stored at line {fn.body[source[0][0]].line}"
    first = dst.elems[0] if isinstance(dst, Vec) else dst
    width = type_bits(fn.registers[first.name])
    opcode, mods = "mov", (f"b{width}",)
    if not isinstance(dst, Vec) and not isinstance(source, int):
        t = next(m for m in load.mods if m in TYPE_BITS)
        bits = TYPE_BITS[t]
        src_width = type_bits(fn.registers[src.name]) if isinstance(src, Reg) else width
        if isinstance(src, Imm):  # extend the stored constant's low bits here
            v = int(src.float_bits if src.float_bits is not None else src.value) & ((1 << bits) - 1)
            if t.startswith("s") and v >> (bits - 1):
                v -= 1 << bits
            src = Imm(v & ((1 << width) - 1))
        elif bits < width or src_width != width:
            sign = "s" if t.startswith("s") else "u"
            opcode, mods = "cvt", (f"{sign}{width}", f"{sign}{bits}")
    shown = ".".join((opcode,) + mods)
    return Instruction(opcode=opcode, mods=mods, operands=[dst, src], line=load.line,
                       text=f"{shown} {show(dst)}, {show(src)};  // {text}: {why}", nounroll=load.nounroll)


def show(op) -> str:
    """An operand as PTX writes it (a register, a constant, a vector of them)."""
    if isinstance(op, Vec):
        return "{" + ", ".join(show(e) for e in op.elems) + "}"
    return op.name if isinstance(op, Reg) else str(op.value)
