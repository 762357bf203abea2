"""The loop-invariant load hoisting ptxas does: a plain load inside a loop, from an address
register the loop never writes, with nothing in the loop that may write that memory or order it,
and in a block every iteration runs, is issued once, before the loop; each iteration reads the
register it loaded.

Where it matters: NVVM leaves such a load in the loop when the loop holds a warp shuffle, a ballot
or another intrinsic LLVM treats as touching memory (`s += __shfl_xor_sync(v, 1) * scale[0]`:
`ld.global.f32 [scale]` in every iteration of NVRTC's PTX, once before the loop in ptxas's SASS,
also before its remainder loop; tests/exec/test_hoist_loads.py compiles such kernels and checks
this module against nvdisasm's listing).

The rules are exec/reuse_loads.py's (what may write or order memory; .nc loads cross everything),
over the whole loop: the loop is NVVM's layout, a contiguous run of blocks from a header to a
block that branches back to it, entered only by falling into the header from the block before it
(the preheader, where the load goes). The load's block must run in every iteration and before
every way out of the loop (it dominates the back branch and each exit), so the hoisted load runs
exactly when the loop is entered, as the first iteration's would. A load leaves only the
innermost loop around it, and only once: ptxas's SASS of a load invariant in two nested loops
loads it before the inner loop, inside the outer one (tests/exec/test_hoist_loads.py inv_nested).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from simgpu.exec.reuse_loads import basic_blocks, killed_spaces, load_key, show, space_of
from simgpu.exec.values import type_bits
from simgpu.frontend.ptx.ast import Function, Instruction, Reg, Vec

_MAX_ROUNDS = 64  # hoists per function (each round hoists one load out of one loop)


def _dominators(blocks, members: list[int], head: int) -> dict[int, set[int]]:
    """Dominator sets of the loop's blocks over the edges between them (the back edges left out)."""
    inside = set(members)
    preds = {b: [p for p in members if b in blocks[p].succs and not (b == head and p >= head)] for b in members}
    dom = {b: set(inside) for b in members}
    dom[head] = {head}
    changed = True
    while changed:
        changed = False
        for b in members:
            if b == head:
                continue
            ps = [dom[p] for p in preds[b]]
            new = ({b} | set.intersection(*ps)) if ps else {b}
            if new != dom[b]:
                dom[b], changed = new, True
    return dom


def _loops(fn: Function, blocks) -> list[tuple[int, int]]:
    """(header block, latch block) of each contiguous loop of fn (its basic blocks `blocks`) with a
    fall-through preheader, innermost (shortest) first."""
    out = []
    for latch, blk in enumerate(blocks):
        for head in blk.succs:
            if head > latch or head == 0:
                continue
            members = range(head, latch + 1)
            entries = [p for p, q in enumerate(blocks) if head in q.succs and p not in members]
            last = fn.body[blocks[head - 1].end - 1]
            if entries != [head - 1] or (last.opcode == "bra" and last.guard is None):
                continue  # the preheader must fall into the header (the hoisted load goes between)
            if any(b in members for p, q in enumerate(blocks) if p not in members
                   for b in q.succs if b != head):
                continue  # entered in the middle
            out.append((head, latch))
    return sorted(out, key=lambda hl: hl[1] - hl[0])


def _hoistable(fn: Function, blocks, head: int, latch: int, inner: list[tuple[int, int]], done: set[int],
               defs_uses: Callable) -> int | None:
    """Index of the first load of the loop head..latch, outside its `inner` loops and not one
    hoisted before (`done`: their ids), that ptxas hoists, or None."""
    members = list(range(head, latch + 1))
    lo, hi = blocks[head].start, blocks[latch].end
    written: set[str] = set()
    spaces: set[str] = set()
    for i in range(lo, hi):
        written.update(defs_uses(fn.body[i])[0])
        spaces |= killed_spaces(fn.body[i]) or set()
    dom = _dominators(blocks, members, head)
    exits = [b for b in members if b == latch or not blocks[b].succs or any(s not in members for s in blocks[b].succs)]
    for b in members:
        if not all(b in dom[x] for x in exits) or any(h <= b <= lt for h, lt in inner):
            continue  # not run in every iteration, or not before every way out; or an inner loop's
        for i in range(blocks[b].start, blocks[b].end):
            if id(fn.body[i]) in done:
                continue
            key = load_key(fn.body[i], fn.registers)
            if key is None or key[1] in written:
                continue
            if "nc" not in key[0] and space_of(key[0]) in spaces:
                continue
            return i
    return None


def hoist_invariant_loads(fn: Function, defs_uses: Callable) -> tuple[Function, dict[int, int]]:
    """fn with its loop-invariant loads hoisted (a copy; fn itself if there are none), and for each
    load left in a loop as a register copy, the index of the load that now runs before its loop."""
    copies: dict[int, int] = {}
    done: set[int] = set()  # ids of the loads already hoisted: they stay where they went
    for _ in range(_MAX_ROUNDS):
        moved = False
        blocks = basic_blocks(fn.body, fn.labels)
        loops = _loops(fn, blocks)
        for head, latch in loops:
            inner = [(h, lt) for h, lt in loops if head <= h and lt <= latch and (h, lt) != (head, latch)]
            i = _hoistable(fn, blocks, head, latch, inner, done, defs_uses)
            if i is not None:
                fn, copies = _hoist(fn, i, blocks[head].start, blocks[latch].end, copies)
                done.add(id(fn.body[blocks[head].start]))
                moved = True
                break
        if not moved:
            break
    return fn, copies


def _hoist(fn: Function, i: int, at: int, end: int, copies: dict[int, int]) -> tuple[Function, dict[int, int]]:
    """Put a copy of load i, into fresh registers, at index `at` (the loop header's first
    instruction, before its label), and turn load i and the loop's (at..end-1) other loads of its
    address into register copies of them."""
    load = fn.body[i]
    registers = dict(fn.registers)
    dst = load.operands[0]
    elems = dst.elems if isinstance(dst, Vec) else (dst,)
    fresh = []
    for e in elems:
        name = f"{e.name}$hoisted"
        while name in registers:
            name += "'"
        registers[name] = registers[e.name]
        fresh.append(Reg(name))
    src = Vec(tuple(fresh)) if isinstance(dst, Vec) else fresh[0]
    addr = load.operands[1]
    where = f"[{addr.base.name}{f'+{addr.offset}' if addr.offset else ''}]"
    hoisted = replace(load, operands=[src, addr], nounroll=False,
                      text=f"{'.'.join((load.opcode,) + load.mods)} {show(src)}, {where};  // line {load.line}'s "
                           "load, hoisted out of its loop by ptxas")
    key = load_key(load, fn.registers)
    body = list(fn.body)
    for j in range(at, end):
        if load_key(body[j], fn.registers) == key:
            body[j] = _register_copy(body[j], src, registers)
    body.insert(at, hoisted)
    labels = {name: (k + 1 if k >= at else k) for name, k in fn.labels.items()}
    shift = {old: (old + 1 if old >= at else old) for old in range(len(fn.body))}
    copies = {shift[k]: shift[v] for k, v in copies.items()}
    for j in range(at + 1, len(body)):
        if body[j].opcode == "mov" and body[j].operands[1] == src:
            copies[j] = at
    return replace(fn, body=body, labels=labels, registers=registers), copies


def _register_copy(load: Instruction, src: Reg | Vec, registers: dict[str, str]) -> Instruction:
    """The `mov` a hoisted load's in-loop copy executes as (raw, the registers' width)."""
    dst = load.operands[0]
    width = type_bits(registers[(dst.elems[0] if isinstance(dst, Vec) else dst).name])
    text = load.text.strip().rstrip(";")
    return Instruction(opcode="mov", mods=(f"b{width}",), operands=[dst, src], line=load.line,
                       text=f"mov.b{width} {show(dst)}, {show(src)};  // {text}: ptxas loads it before the loop",
                       nounroll=load.nounroll)
