"""The multiply-add contraction ptxas does: a `mul.f32` / `mul.f64` and the `add` / `sub` that
alone reads its product, neither with a rounding modifier, become one FFMA / DFMA (the PTX ISA
allows it for exactly those: "mul/add sequences with no rounding modifiers may be optimized to use
fused-multiply-add instructions on the target device"). The sum is then rounded once, not twice,
which is what the H200 computes: without it jnf's recurrence J(k+1) = (2k/x) J(k) - J(k-1) was
1-2 ulp off the H200 in 64 of 512 arguments (benchmarks/microbench/math_api).

Only the straightforward case is taken, within one basic block: the product has a single reader,
and nothing between the two instructions writes the multiply's operands. The multiply itself still
executes (PTX instruction counts stay PTX counts); its result is simply not read any more.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from simgpu.frontend.ptx.ast import Function, Imm, Instruction, Reg

_ROUNDING = {"rn", "rz", "rm", "rp"}


def _plain(ins: Instruction, opcode: tuple[str, ...]) -> str | None:
    """The float type of an unguarded, unrounded, unsaturated f32/f64 `opcode`, else None."""
    if ins.opcode not in opcode or ins.guard is not None:
        return None
    mods = set(ins.mods)
    if mods & _ROUNDING or "sat" in mods:
        return None
    t = "f32" if "f32" in mods else "f64" if "f64" in mods else None
    if t is None or not all(isinstance(x, (Reg, Imm)) for x in ins.operands) or len(ins.operands) != 3:
        return None
    return t


def find_contractions(fn: Function, defs_uses: Callable) -> dict[int, tuple[int, int]]:
    """{index of the add/sub: (index of its mul, position of the product among the add's sources)}."""
    uses = Counter(name for ins in fn.body for name in defs_uses(ins)[1])
    label_at = set(fn.labels.values())
    last_mul: dict[str, int] = {}  # product register -> index of the mul that wrote it, in this block
    out: dict[int, tuple[int, int]] = {}
    for i, ins in enumerate(fn.body):
        if i in label_at:
            last_mul.clear()
        t = _plain(ins, ("add", "sub"))
        if t is not None:
            for pos in (1, 2):
                src = ins.operands[pos]
                j = last_mul.get(src.name) if isinstance(src, Reg) else None
                if j is None or uses[src.name] != 1:
                    continue
                mul = fn.body[j]
                if _plain(mul, ("mul",)) == t and ("ftz" in mul.mods) == ("ftz" in ins.mods):
                    out[i] = (j, pos)
                    break
        defs, _ = defs_uses(ins)
        for name in defs:  # a write ends every pending product that reads or is this register
            for r, j in list(last_mul.items()):
                m = fn.body[j]
                if r == name or any(isinstance(x, Reg) and x.name == name for x in m.operands[1:]):
                    del last_mul[r]
        if _plain(ins, ("mul",)) is not None and isinstance(ins.operands[0], Reg):
            last_mul[ins.operands[0].name] = i
        if ins.opcode in ("bra", "call", "ret", "exit", "bar", "barrier"):
            last_mul.clear()
    return out
