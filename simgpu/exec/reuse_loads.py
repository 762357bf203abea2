"""The redundant-load elimination ptxas does: a plain load from the same address operand as an
earlier one that reaches it on every path, with nothing between that may write that memory or
order it, is not issued again; the SASS reuses the first load's register.

Found on validation/typical21 paged_attn_decode: NVVM unrolls the token loop by two and loads the
block-table entry twice from one address register (`ld.global.u32 %r26, [%rd24]` ... `%r44,
[%rd24]`, K/V loads, arithmetic and shuffles between); its SASS loop has five LDGs, not six, and
the H100 counted 99,072 global load requests where the PTX issues 118,712.

What ptxas merges and what stops it, from NVRTC's cubins of hand-written PTX (two identical loads
with one instruction between; tests/exec/test_reuse_loads.py compiles them and checks this module
against nvdisasm's listing):
- merged: global (any cache operator), .nc, generic and shared loads, scalar and vector; across
  arithmetic, shuffles, other loads (plain, volatile, relaxed or acquire), stores to another state
  space (st.shared between two global loads), and across basic blocks when the first load reaches
  the second on every path;
- not merged across: a store, atomic or reduction that may alias (global ones end global and
  generic loads, shared ones shared and generic), bar.sync, bar.warp.sync, membar, fence,
  nanosleep; .nc loads are merged across all of these (their data is read-only for the kernel);
- never merged: volatile, relaxed and acquire loads (and .cv, .lu, .mmio ones, not measured).

The PTX memory model allows it: a plain (weak) load may return what an earlier one of the same
thread did when no write of that thread and no synchronisation lies between them; a store by
another thread meanwhile is a data race. So the later load executes as a register copy: it returns
the first load's value, as on the GPU, and makes no request, sector or L1 lookup.

Not taken: loads whose first destination is written again before the second (ptxas keeps the
value in another register; NVVM's PTX defines a register once in a block, so this is rare), a
guarded load, loads from symbols or absolute addresses, and .const / .param loads (no counter).
"""

from __future__ import annotations

from collections.abc import Callable

from simgpu.exec.values import type_bits
from simgpu.frontend.ptx.ast import Addr, Function, Instruction, Reg, Vec

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


def _space(mods: tuple[str, ...]) -> str:
    for m in mods:
        base = m.split("::")[0]
        if base in _SPACES or base in ("const", "param"):
            return base
    return "generic"


def _key(ins: Instruction, registers: dict[str, str]) -> tuple | None:
    """(mods, base register, offset, destination width) a later load must share to reuse this one,
    or None if it is not a plain load ptxas would merge. The width: a narrow load sign- or
    zero-extended into a 16-bit register is not the same bits as into a 32-bit one."""
    if ins.opcode != "ld" or ins.guard is not None or len(ins.operands) != 2:
        return None
    mods = ins.mods
    if _ORDERED & set(mods) or _space(mods) in ("const", "param") or "shared::cluster" in mods:
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


def _killed_spaces(ins: Instruction) -> set[str] | None:
    """The state spaces whose loads `ins` ends (None: none; "generic" stands for generic loads)."""
    op = ins.opcode
    if op in _BARRIERS:
        return {"global", "shared", "local", "generic"}
    if op in _WRITES:
        s = _space(ins.mods)
        return {"global", "shared", "local", "generic"} if s == "generic" else {s, "generic"}
    return None


class _Block:
    __slots__ = ("start", "end", "succs")

    def __init__(self, start: int, end: int, succs: list[int]):
        self.start, self.end, self.succs = start, end, succs


def _blocks(fn: Function) -> list[_Block]:
    """Basic blocks of fn.body (leaders: the first instruction, branch targets, what follows a
    branch or an exit) and their successors, as block indices."""
    n = len(fn.body)
    leaders = {0} | {i for i in fn.labels.values() if i < n}
    for i, ins in enumerate(fn.body):
        if ins.opcode in _ENDS and i + 1 < n:
            leaders.add(i + 1)
    starts = sorted(leaders)
    block_at = {s: b for b, s in enumerate(starts)}
    out = []
    for b, s in enumerate(starts):
        e = starts[b + 1] if b + 1 < len(starts) else n
        last = fn.body[e - 1]
        succs = []
        falls = last.opcode not in _ENDS or last.guard is not None
        if last.opcode == "bra":
            lab = last.operands[0]
            t = fn.labels.get(getattr(lab, "name", None))
            if t is not None and t in block_at:
                succs.append(block_at[t])
        if falls and b + 1 < len(starts):
            succs.append(b + 1)
        out.append(_Block(s, e, succs))
    return out


def _step(fn: Function, i: int, avail: dict, defs_uses: Callable) -> None:
    """Apply instruction i to the available loads {key: index of the load that holds its value}."""
    ins = fn.body[i]
    spaces = _killed_spaces(ins)
    if spaces:
        for k in [k for k in avail if "nc" not in k[0] and _space(k[0]) in spaces]:
            del avail[k]
    written = set(defs_uses(ins)[0])
    if written:
        for k, j in list(avail.items()):
            if k[1] in written or written.intersection(_dest_names(fn.body[j])):
                del avail[k]
    key = _key(ins, fn.registers)
    if key is not None and key not in avail and key[1] not in written:
        avail[key] = i


def find_reused_loads(fn: Function, defs_uses: Callable) -> dict[int, int]:
    """{index of a load: index of the earlier load whose register it reuses} for fn's body."""
    if not fn.body:
        return {}
    blocks = _blocks(fn)
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
    while changed:  # forward "available loads" to a fixed point (meet: intersection)
        changed = False
        for b, blk in enumerate(blocks):
            avail = entry(b)
            for i in range(blk.start, blk.end):
                _step(fn, i, avail, defs_uses)
            if avail != out_sets[b]:
                out_sets[b], changed = avail, True
    out: dict[int, int] = {}
    for b, blk in enumerate(blocks):
        avail = entry(b)
        for i in range(blk.start, blk.end):
            key = _key(fn.body[i], fn.registers)
            if key is not None and key in avail and avail[key] != i:
                out[i] = avail[key]
            _step(fn, i, avail, defs_uses)
    return out


def copy_instruction(load: Instruction, first: Instruction, reg_type: str) -> Instruction:
    """The `mov` a reused load executes as: its destination(s) get the first load's, raw copies of
    the register type (a zero- or sign-extended narrow load's register is already extended)."""
    dst, src = load.operands[0], first.operands[0]
    text = load.text.strip().rstrip(";")
    return Instruction(opcode="mov", mods=(reg_type,), operands=[dst, src], line=load.line,
                       text=f"mov.{reg_type} {_show(dst)}, {_show(src)};  // {text}: ptxas reuses the load "
                            f"of line {first.line}", nounroll=load.nounroll)


def _show(op: Reg | Vec) -> str:
    return "{" + ", ".join(e.name for e in op.elems) + "}" if isinstance(op, Vec) else op.name
