"""The PTX `mov`s that ptxas turns into no SASS instruction at all.

NVRTC's PTX spells out register copies the SASS never has: the bit-casts around a shuffle
(`mov.b32 %r9, %f1` ... `mov.b32 %f2, %r13`), the copies ptxas's load reuse leaves where a load was
(exec/reuse_loads.py), and immediates loaded into a register for one operand (`mov.u32 %r11, 16` for
a shuffle's lane). Register allocation gives the copy and its source one register, and an
immediate becomes the consumer's operand (typical22 smem_allreduce: 22 such `mov`s a warp in the PTX,
none in the recorded SASS; SHFL.BFLY PT, R7, R2, 0x10, 0x1f). The timing model folds them: they
issue nothing, and whoever reads the copy waits for the copy's source instead.

Only where that is safe from the PTX alone: an unguarded scalar `mov` whose destination has no other
definition in the kernel, copying a register with one definition (so no redefinition of the source
can come between the copy and a read of it) or an immediate read only by ALU ops and shuffles (a
store's data needs a register: a MOV stays for it). A copy whose registers are written more than
once (a loop's accumulator) keeps its slot: ptxas coalesces most such copies too, not all."""

from __future__ import annotations

from collections.abc import Callable

from simgpu.frontend.ptx.ast import Imm, Reg

IMMEDIATE = -1  # the folded copy's source: an immediate (nothing to wait for)


def foldable_moves(instructions: list, dst_regs: list[list[int]], src_regs: list[list[int]],
                   reg_of: Callable[[int, Reg], int], consumer_ok: Callable[[int], bool]) -> dict[int, int]:
    """pc -> the register index a folded copy's readers wait for instead (IMMEDIATE for an
    immediate), for each `mov` ptxas issues no instruction for (module docstring). dst_regs /
    src_regs: per pc, the register indices it writes / reads; consumer_ok(pc): the instruction at pc
    can take an immediate operand (an ALU op or a shuffle)."""
    defs: dict[int, int] = {}
    for regs in dst_regs:
        for r in regs:
            defs[r] = defs.get(r, 0) + 1
    readers: dict[int, list[int]] = {}
    for pc, regs in enumerate(src_regs):
        for r in regs:
            readers.setdefault(r, []).append(pc)
    folded: dict[int, int] = {}
    for pc, ins in enumerate(instructions):
        ops = ins.operands
        if (ins.opcode != "mov" or ins.guard is not None or len(ops) != 2 or not isinstance(ops[0], Reg)
                or "pred" in ins.mods):
            continue
        d = reg_of(pc, ops[0])
        if d < 0 or defs.get(d) != 1:
            continue
        if isinstance(ops[1], Reg):
            s = reg_of(pc, ops[1])
            if s >= 0 and s != d and defs.get(s, 0) <= 1:
                folded[pc] = s
        elif isinstance(ops[1], Imm) and all(consumer_ok(q) for q in readers.get(d, ())):
            folded[pc] = IMMEDIATE
    return folded


def forwarded_sources(folded: dict[int, int], dst_regs: list[list[int]]) -> dict[int, int]:
    """register index -> what a read of it waits for once the copies are folded: the copy's source,
    followed through chains of copies (IMMEDIATE: nothing)."""
    alias = {dst_regs[pc][0]: s for pc, s in folded.items()}
    out: dict[int, int] = {}
    for d in alias:
        s, seen = alias[d], {d}
        while s in alias and s not in seen:
            seen.add(s)
            s = alias[s]
        out[d] = s
    return out
