"""What ptxas can prove about an address register's alignment, from the PTX that computes it.

ptxas fuses neighbouring 32-bit shared loads and stores into LDS.64/LDS.128 and STS.64/STS.128
only where it can prove the wide access aligned; whether the lanes' addresses happen to be aligned
at run time does not matter. `reduce_tree_atomic` (validation/typical) reads s[t] and s[t + 1] with
only t = 0 active: the address is 8-byte aligned at run time, but s + 4t is not provably so, and
the H200 ran two LDS, not one LDS.64. The bitonic sort's s[2t] and s[2t + 1] (s + 8t) became one
STS.64.

`known_alignment` gives, per register, a power of two that its value is known to be a multiple of
(as trailing zero bits, at most 32), from every instruction that writes it: the greatest fixpoint
of the rules below over all definitions, so a loop-carried register takes the weakest of its
initial value and its updates. The address of a variable is taken as 16-byte aligned: ptxas places
shared variables itself and knows their offsets (the bitonic sort's `.align 4` array got STS.64).
"""

from __future__ import annotations

from simgpu.frontend.ptx.ast import Imm, Instruction, Reg, Sym

MAX_BITS = 32
SYMBOL_BITS = 4  # a variable's address: 16-byte aligned (see the module docstring)


def _imm_bits(v: int) -> int:
    v = int(v) & 0xFFFFFFFFFFFFFFFF
    if v == 0:
        return MAX_BITS
    return min(MAX_BITS, (v & -v).bit_length() - 1)


def known_alignment(instrs: list[Instruction], lo: int, hi: int) -> dict[str, int]:
    """Trailing zero bits known for each register written in instrs[lo:hi] (0 where nothing is known)."""
    defs: dict[str, list[Instruction]] = {}
    for ins in instrs[lo:hi]:
        if ins.opcode in ("st", "red", "bra", "bar", "barrier", "ret", "exit") or not ins.operands:
            continue
        d = ins.operands[0]
        if isinstance(d, Reg):
            defs.setdefault(d.name, []).append(ins)
    bits = {r: MAX_BITS for r in defs}

    def of(op) -> int:
        if isinstance(op, Reg):
            return bits.get(op.name, 0)
        if isinstance(op, Imm) and isinstance(op.value, int):
            return _imm_bits(op.value)
        if isinstance(op, Sym):
            return SYMBOL_BITS
        return 0

    def rule(ins: Instruction) -> int:
        op, src = ins.opcode, ins.operands[1:]  # a guarded write keeps the other definitions' value
        if op in ("mov", "cvta", "cvt") and len(src) == 1:
            return of(src[0])
        if op in ("add", "sub", "or", "xor") and len(src) == 2:
            return min(of(src[0]), of(src[1]))
        if op == "and" and len(src) == 2:
            return max(of(src[0]), of(src[1]))
        if op == "shl" and len(src) == 2 and isinstance(src[1], Imm):
            return min(MAX_BITS, of(src[0]) + int(src[1].value))
        if op == "mul" and len(src) == 2 and ("lo" in ins.mods or "wide" in ins.mods):
            return min(MAX_BITS, of(src[0]) + of(src[1]))
        if op == "mad" and len(src) == 3 and ("lo" in ins.mods or "wide" in ins.mods):
            return min(MAX_BITS, of(src[0]) + of(src[1]), of(src[2]))
        if op == "selp" and len(src) == 3:
            return min(of(src[0]), of(src[1]))
        return 0

    changed = True
    while changed:
        changed = False
        for r, ds in defs.items():
            b = min(rule(ins) for ins in ds)
            if b < bits[r]:
                bits[r] = b
                changed = True
    return bits
