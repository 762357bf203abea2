"""ptxas's stall counts summed over each kernel's main loop, a step: the static schedule the GPU's
cycles a step (gpu.json) are compared with in README.md.

    python stall_sums.py [results_h100/sass.txt.gz]

cuobjdump prints each sm_90 instruction as two 64-bit words; the stall count (cycles before the
warp's next issue) is bits 41-44 of the second. The main loop is the largest backward branch's
span; its steps are its FFMAs / 12 (every step has one 12-FFMA chain; the if / else's other side
is extra code in the same step)."""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_LINE = re.compile(r"\s*/\*([0-9a-f]{4})\*/\s*(.*?)\s*;\s*/\* (0x[0-9a-f]+) \*/")
_WORD = re.compile(r"/\* (0x[0-9a-f]+) \*/")


def instructions(text: str, kernel: str) -> list[tuple[int, int, str]]:
    """(address, stall cycles, instruction text) of each SASS instruction of `kernel`."""
    lines = text.splitlines()
    start = next(i for i, x in enumerate(lines) if re.search(rf"Function : {kernel}\s*$", x))
    out = []
    for first, second in zip(lines[start + 1:], lines[start + 2:]):
        if "Function :" in first:
            break
        m, w = _LINE.match(first), _WORD.search(second)
        if m and w and not _LINE.match(second):
            out.append((int(m.group(1), 16), (int(w.group(1), 16) >> 41) & 0xF, m.group(2)))
    return out


def main_loop_stalls(code: list[tuple[int, int, str]]) -> tuple[float, int]:
    """(stall cycles a step, steps an iteration) of the largest loop."""
    spans = []
    for addr, _, ins in code:
        m = re.search(r"BRA (0x[0-9a-f]+)$", ins)
        if m and int(m.group(1), 16) < addr:
            spans.append((addr - int(m.group(1), 16), int(m.group(1), 16), addr))
    _, lo, hi = max(spans)
    body = [(st, ins) for addr, st, ins in code if lo <= addr <= hi]
    steps = sum(ins.split()[0] == "FFMA" for _, ins in body) // 12
    return sum(st for st, _ in body) / steps, steps


def main(path: str = str(HERE / "results_h100" / "sass.txt.gz")) -> None:
    text = gzip.open(path, "rt").read()
    print("| kernel | SASS stall sum a step | steps an iteration |\n|---|---|---|")
    for kernel in re.findall(r"Function : (\w+)", text):
        per_step, steps = main_loop_stalls(instructions(text, kernel))
        print(f"| {kernel} | {per_step:.2f} | {steps} |")


if __name__ == "__main__":
    main(*sys.argv[1:])
