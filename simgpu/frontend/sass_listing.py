"""A kernel's SASS with each instruction's scheduling control bits decoded: what ptxas tells the warp
scheduler that the PTX does not show.

Since Volta every 128-bit SASS instruction carries its own control field in the top 23 bits
(Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking", 2018; the same
layout in the sm_90 cubins NVRTC makes): stall cycles before the next instruction, a yield flag,
the scoreboard (0-5) a variable-latency result sets when it lands (loads, shared memory, MUFU),
the scoreboard a source register's read releases, and the scoreboards the instruction waits on.
A consumer waits until *every* instruction on its scoreboard is done, so which loads share one is
part of how many stay in flight (benchmarks/microbench/naive_latency, section 4). `simgpu sass`
prints it; the timing model reads only the loops (frontend/sass.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from simgpu.frontend.sass import nvdisasm_lines

_NO_BARRIER = 7


@dataclass(frozen=True)
class SassInstruction:
    """One SASS instruction and its control field (the high 64-bit word's bits 41-62)."""

    address: int
    text: str  # as nvdisasm prints it, without the ';'
    high_word: int
    labels: tuple[str, ...] = ()  # the branch labels nvdisasm puts before it

    @property
    def stall(self) -> int:
        """Cycles the scheduler waits before this warp's next instruction."""
        return (self.high_word >> 41) & 0xF

    @property
    def yield_bit(self) -> bool:
        """The yield bit as encoded (a hint to the scheduler about switching warps)."""
        return bool((self.high_word >> 45) & 1)

    @property
    def write_barrier(self) -> int | None:
        """The scoreboard this instruction's result releases when it lands (None: fixed latency)."""
        b = (self.high_word >> 46) & 7
        return None if b == _NO_BARRIER else b

    @property
    def read_barrier(self) -> int | None:
        """The scoreboard released once this instruction has read its source registers."""
        b = (self.high_word >> 49) & 7
        return None if b == _NO_BARRIER else b

    @property
    def waits_on(self) -> tuple[int, ...]:
        """The scoreboards this instruction waits on before it issues."""
        mask = (self.high_word >> 52) & 0x3F
        return tuple(b for b in range(6) if mask >> b & 1)


def sass_listing(text: str) -> dict[str, list[SassInstruction]]:
    """`nvdisasm -c -hex` output as kernel name -> its instructions with control fields."""
    funcs: dict[str, list[SassInstruction]] = {}
    pending: tuple[int, str, tuple[str, ...]] | None = None  # an instruction waiting for its high word
    for kernel, labels, line in nvdisasm_lines(text):
        body = funcs.setdefault(kernel, [])
        ins = re.match(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;\s*/\* 0x[0-9a-f]{16} \*/\s*$", line)
        if ins:
            pending = (int(ins.group(1), 16), ins.group(2), labels)
            continue
        high = re.match(r"^\s*/\* (0x[0-9a-f]{16}) \*/\s*$", line)
        if high and pending is not None:
            body.append(SassInstruction(pending[0], pending[1], int(high.group(1), 16), pending[2]))
            pending = None
    return funcs


def without_subroutines(text: str) -> str:
    """nvdisasm's text without the slow-path subroutines ptxas appends to a kernel (the IEEE
    division's, the square root's, ...: `.type $__internal_...` up to the next kernel's section)."""
    out, skip = [], False
    for line in text.splitlines():
        if re.match(r"//-+ \.text\.", line):
            skip = False
        if re.match(r"^\s*\.type\s+\$__internal", line):
            skip = True
        if not skip:
            out.append(line)
    return "\n".join(out)


def convergence_regions(code: list[SassInstruction]) -> int:
    """BSSYs of a kernel's listing, less those whose region is one slow-path call's alone (a CALL
    and no inner BSSY: ptxas's own fast-path test, which the timing model counts in the op's
    slots): the convergence barriers the PTX's branches account for (timing/convergence.py)."""
    n = 0
    for q, ins in enumerate(code):
        if not re.search(r"\bBSSY\b", ins.text):
            continue
        label = re.search(r"\((\.L_x_\d+)\)", ins.text)
        end = next((z for z in range(q, len(code)) if label and label.group(1) in code[z].labels), len(code))
        region = code[q + 1:end]
        n += not (any("CALL" in x.text for x in region) and not any("BSSY" in x.text for x in region))
    return n


def format_listing(instructions: list[SassInstruction]) -> str:
    """One line per instruction: address, text, stall cycles, the raw yield bit, and the scoreboards
    it sets, releases on reading its sources and waits on."""
    lines = [f"{'addr':>6s}  {'instruction':52s} {'stall':>5s} {'ybit':>5s} {'sets':>4s} {'reads':>5s}  waits on"]
    for i in instructions:
        for label in i.labels:
            lines.append(f"{label}:")
        wb = "-" if i.write_barrier is None else f"SB{i.write_barrier}"
        rb = "-" if i.read_barrier is None else f"SB{i.read_barrier}"
        waits = " ".join(f"SB{b}" for b in i.waits_on) or "-"
        ybit = "1" if i.yield_bit else "0"
        lines.append(f"{i.address:06x}  {i.text:52s} {i.stall:5d} {ybit:>5s} {wb:>4s} {rb:>5s}  {waits}")
    return "\n".join(lines)
