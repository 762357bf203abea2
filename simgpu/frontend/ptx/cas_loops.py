"""Shared-memory atomic adds as ptxas compiles them for sm_90: a compare-and-swap loop.

The H200 has no shared-memory atomic add for f32, f64 or 64-bit integers: ptxas turns
`atom.shared.add.f32` / `.f64` / `.u64` into a loop that loads the word (LDS), adds (FADD / DADD /
IADD), swaps it in if nobody changed it meanwhile (ATOMS.CAST.SPIN, .64) and branches back for the
lanes whose swap failed: four SASS instructions a trip, the CAS setting the predicate the branch
tests (PTX's CAS returns the old value, so the loop here tests it with a setp: five instructions a
trip, one more than the SASS in simgpu's instruction counts). Measured:
benchmarks/microbench/sass_probes (32 lanes of 4 warps on one float: 771 LDS, 779 ATOMS for 8
warps), validation/typical15 smem_double_atomic (64 random double bins, 8 warps a CTA: 770,135
ATOMS and as many LDS for 131,072 warp atomics, 5.9 trips each) and benchmarks/microbench/shared_cas
(the SASS of each kind, and the trip counts against the contention: 1.0 a warp atomic where every
lane has its own word, 6.4 for 8 warps on 64 random bins, 151 for 8 warps on one word). 32-bit
integer adds, min/max, exchanges and compare-and-swaps stay single ATOMS instructions.

`lower_shared_cas_loops` rewrites each such atomic into that loop in PTX, so both engines run
it as the hardware does: every trip is a shared load, an add and a shared CAS, counted as such
(`smsp__sass_inst_executed_op_shared_ld/atom`, their wavefronts) and timed as such. The CAS is
marked "spin" (an internal modifier, exec/ops._build_atom): as ATOMS.CAST.SPIN it tries only the
first lane of each bank (memory/banks.spin_lanes), and of lanes on one word only the first can
succeed, so the trips per warp follow from how the warp's lanes fall on banks and words, and from
the other warps at the loop together, whose swaps change the words under it: the contention is not
a parameter, it is what the engine's warps do (core/engine.py issues the warps waiting at one pc
together, as the H200's warps of a CTA meet at the loop). The lowered instructions keep the
atomic's PTX line, so the per-instruction breakdown puts the loop's counts on the line of the
`atomicAdd`.

Not lowered: atomics on generic addresses that land in shared memory (CUDA's `__half2` /
`__nv_bfloat162` atomicAdd are generic: ptxas tries a global ATOM first and loops with
ATOMS.CAST.SPIN for the lanes it reports as shared, shared_cas results/sass_loops.txt), 16-bit
atomics, and distributed shared memory (`.shared::cluster`), whose SASS is not measured.
"""

from __future__ import annotations

import dataclasses

from simgpu.frontend.ptx.ast import Function, Instruction, Module, Reg, Sym

_WIDTH = {"f32": "b32", "f64": "b64", "u64": "b64", "s64": "b64"}  # the CAS swaps raw bits of the width
_SHARED = {"shared", "shared::cta"}
SPIN = "spin"  # the internal modifier that marks the loop's CAS as ATOMS.CAST.SPIN


def spinning_cas(ins: Instruction) -> bool:
    """Whether `ins` is the CAS of a lowered loop (the one place the marker is read: exec/ops's
    lanes that try, core/wave's wavefronts, timing/isa's latency)."""
    return ins.opcode == "atom" and "cas" in ins.mods and SPIN in ins.mods and bool(_SHARED & set(ins.mods))


def lowered_atomic(ins: Instruction) -> bool:
    """Whether ptxas makes this instruction a CAS loop (module docstring)."""
    if ins.opcode not in ("atom", "red") or not _SHARED & set(ins.mods) or "add" not in ins.mods:
        return False
    width = next((m for m in ins.mods if m in _WIDTH), None)
    n_ops = 2 if ins.opcode == "red" else 3
    return width is not None and len(ins.operands) == n_ops


def lower_shared_cas_loops(module: Module) -> Module:
    """A copy of `module` with every shared f32/f64/64-bit integer atomic add replaced by its CAS
    loop (the module itself is left as it was); the module itself when it has none."""
    functions = {}
    changed = False
    for name, fn in module.functions.items():
        if any(lowered_atomic(ins) for ins in fn.body):
            functions[name] = _lower_function(fn)
            changed = True
        else:
            functions[name] = fn
    return dataclasses.replace(module, functions=functions) if changed else module


def _lower_function(fn: Function) -> Function:
    """fn with its shared atomic adds as CAS loops (module docstring): new registers and labels are spelled
    with '#', which PTX names cannot hold, so they cannot clash with the kernel's own."""
    body: list[Instruction] = []
    registers = dict(fn.registers)
    labels_at: dict[int, list[str]] = {}
    for label, at in fn.labels.items():
        labels_at.setdefault(at, []).append(label)
    labels: dict[str, int] = {}
    n = 0
    for i, ins in enumerate(fn.body):
        for label in labels_at.get(i, ()):
            labels[label] = len(body)
        if not lowered_atomic(ins):
            body.append(ins)
            continue
        n += 1
        body.extend(_cas_loop(ins, n, registers, labels, len(body)))
    for label in labels_at.get(len(fn.body), ()):
        labels[label] = len(body)
    return dataclasses.replace(fn, body=body, labels=labels, registers=registers)


def _cas_loop(ins: Instruction, n: int, registers: dict[str, str], labels: dict[str, int],
              start: int) -> list[Instruction]:
    """The loop for atomic `ins` (the n-th of its function), its first instruction at body index
    `start`; declares its registers and labels in `registers` / `labels`."""
    t = next(m for m in ins.mods if m in _WIDTH)
    w = _WIDTH[t]
    space = next(m for m in ins.mods if m in _SHARED)
    if ins.opcode == "red":
        dest, addr, value = None, ins.operands[0], ins.operands[1]
    else:
        dest, addr, value = ins.operands
    old, new, got = (Reg(f"%cas#{n}.{x}") for x in ("old", "new", "got"))
    pred = Reg(f"%cas#{n}.retry")
    for r in (old, new, got):
        registers[r.name] = w
    registers[pred.name] = "pred"
    retry, done = f"$cas#{n}.loop", f"$cas#{n}.done"

    def make(opcode: str, mods: tuple[str, ...], operands: list, text: str, guard: Reg | None = None,
             negated: bool = False) -> Instruction:
        return Instruction(opcode, mods, operands, guard, negated, ins.line,
                           f"{text}  // {ins.full_opcode} as ptxas emits it: a CAS loop")

    out = []
    if ins.guard is not None:  # the atomic's guard skips the whole loop
        g = f"@{'' if ins.guard_negated else '!'}{ins.guard.name} "
        out.append(make("bra", (), [Sym(done)], f"{g}bra {done}", ins.guard, not ins.guard_negated))
    labels[retry] = start + len(out)
    a = f"[{_addr_text(addr)}]"
    out += [
        make("ld", (space, t), [old, addr], f"ld.{space}.{t} {old.name}, {a}"),
        make("add", (t,), [new, old, value], f"add.{t} {new.name}, {old.name}, {_text(value)}"),
        make("atom", (space, "cas", SPIN, w), [got, addr, old, new],
             f"atom.{space}.cas.{w} {got.name}, {a}, {old.name}, {new.name}  (ATOMS.CAST.SPIN)"),
        make("setp", ("ne", w), [pred, got, old], f"setp.ne.{w} {pred.name}, {got.name}, {old.name}"),
        make("bra", (), [Sym(retry)], f"@{pred.name} bra {retry}", pred),
    ]
    if dest is not None:
        out.append(make("mov", (w,), [dest, old], f"mov.{w} {_text(dest)}, {old.name}"))
    labels[done] = start + len(out)
    return out


def _addr_text(addr) -> str:
    base = getattr(addr, "base", None)
    name = getattr(base, "name", "")
    off = getattr(addr, "offset", 0)
    return f"{name}+{off}" if off else name


def _text(op) -> str:
    if isinstance(op, (Reg, Sym)):
        return op.name
    return str(getattr(op, "value", op))
