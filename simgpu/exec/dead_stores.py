"""The dead-store elimination ptxas does: a plain store that a later store of the same block
overwrites (same address operand, type, width and cache operator), with nothing between that may
read that memory or order it, is not issued.

Where it matters: NVVM keeps a global accumulation across warp shuffles, ballots and the like as
a load and a store per step (`c[i] += __shfl_xor_sync(...)` five times: 6 loads and 5 stores in
the PTX); ptxas forwards each stored value to the next load (exec/reuse_loads.py) and drops every
store but the last: one LDG of c and one STG in the SASS (tests/exec/test_dead_stores.py).

What ptxas drops and what stops it, from NVRTC's cubins of hand-written PTX (two stores to one
address with one instruction between; checked against nvdisasm's listing by the tests):
- dropped: across arithmetic, shuffles, a load of another state space, a load of the same
  address that ptxas forwards (it reads no memory); global, shared and generic stores alike;
- kept: across a load that may read it (another address of the space, generic, volatile), a
  store to another address of the space, an atomic or reduction, bar.warp.sync (and any barrier
  or fence); where the second store is wider, narrower, or has another cache operator; volatile,
  relaxed and release stores.
Within one basic block only (ptxas's reach across blocks is not measured).
"""

from __future__ import annotations

from collections.abc import Callable

from simgpu.exec.reuse_loads import basic_blocks, killed_spaces, space_of
from simgpu.frontend.ptx.ast import Addr, Instruction, Reg

_ORDERED = {"volatile", "relaxed", "release", "mmio"}


def _key(ins: Instruction) -> tuple | None:
    """(mods, base register, offset) of a store ptxas may drop, or None."""
    if ins.opcode != "st" or ins.guard is not None or len(ins.operands) != 2 or _ORDERED & set(ins.mods):
        return None
    addr = ins.operands[0]
    if not isinstance(addr, Addr) or not isinstance(addr.base, Reg) or space_of(ins.mods) in ("param", "const"):
        return None
    return (ins.mods, addr.base.name, addr.offset)


def _read_spaces(ins: Instruction) -> set[str] | None:
    """The state spaces a memory-reading instruction may read (loads; atomics and reductions are
    killed_spaces' writes)."""
    if ins.opcode in ("ld", "ldu", "cp", "tex", "tld4", "suld", "ldmatrix", "prefetch", "prefetchu"):
        s = space_of(ins.mods)
        return {"global", "shared", "local", "generic"} if s == "generic" else {s, "generic"}
    return None


def find_dead_stores(body: list[Instruction], labels: dict[str, int], defs_uses: Callable) -> set[int]:
    """Indices of the stores of `body` (loads already rewritten as copies where ptxas reuses or
    forwards them) that a later store overwrites before anything may read them."""
    dead: set[int] = set()
    for blk in basic_blocks(body, labels):
        pending: dict[tuple, int] = {}  # store key -> the last store with it, not yet read
        for i in range(blk.start, blk.end):
            ins = body[i]
            key = _key(ins)
            if key is not None and key in pending:
                dead.add(pending.pop(key))
            spaces = killed_spaces(ins) or _read_spaces(ins)
            if spaces:  # may read (or write over, in unknown order) a pending store's memory
                for k in [k for k in pending if space_of(k[0]) in spaces]:
                    del pending[k]
            written = set(defs_uses(ins)[0])
            for k in [k for k in pending if k[1] in written]:
                del pending[k]
            if key is not None and key[1] not in written:
                pending[key] = i
    return dead


def dropped_store(store: Instruction) -> Instruction:
    """What a dead store executes as: nothing (a `nop` the timing model folds away), its line kept
    for the report."""
    text = store.text.strip().rstrip(";")
    return Instruction(opcode="nop", mods=(), operands=[], line=store.line,
                       text=f"nop;  // {text}: ptxas drops it, a later store overwrites it", nounroll=store.nounroll)
