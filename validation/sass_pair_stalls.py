"""ptxas's stall counts between a producer and the adjacent instruction that reads its result, over
the SASS (cuobjdump, sm_90) nvcc made of the recorded suites' kernels: the latency ptxas schedules
for each (producer, reader) pair of opcodes. Where the reader is the very next instruction, the
stall count is that latency (4 within the FMA pipe or within the ALU, 5 across: config
lat_cross_pipe).

    python validation/sass_pair_stalls.py [--min N] [SASS.txt.gz ...]
"""

from __future__ import annotations

import argparse
import collections
import gzip
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks" / "microbench" / "branch_regions"))
from stall_sums import instructions  # noqa: E402

_OP = re.compile(r"(@!?U?P\w+ )?([A-Z0-9.]+) ?(.*)")
_STORES = ("STG", "STS", "ST", "STL", "RED", "ATOMS")


def pair_stalls(text: str) -> collections.Counter:
    """(producer opcode, reader opcode, stall count) -> pairs, for each instruction writing a
    register (its first operand) followed by one that reads it."""
    out: collections.Counter = collections.Counter()
    for kernel in re.findall(r"Function : (\S+)", text):
        code = instructions(text, kernel)
        for (_, stall, first), (_, _, second) in zip(code, code[1:]):
            a, b = _OP.match(first), _OP.match(second)
            if not a or not b:
                continue
            dest = a.group(3).split(",")[0].strip()
            if not re.fullmatch(r"R\d+", dest):
                continue
            op_b = b.group(2).split(".")[0]
            operands = b.group(3).split(",")
            read = operands if op_b in _STORES else operands[1:]
            if any(re.search(rf"\b{dest}\b", x) for x in read):
                out[(a.group(2).split(".")[0], op_b, stall)] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sass", nargs="*", help="cuobjdump SASS files (default: validation/typical*/results/sass.txt.gz)")
    ap.add_argument("--min", type=int, default=8, help="show pairs seen at least this often")
    args = ap.parse_args()
    paths = args.sass or sorted(str(p) for p in ROOT.glob("validation/typical*/results/sass.txt.gz"))
    total: collections.Counter = collections.Counter()
    for p in paths:
        total += pair_stalls(gzip.open(p, "rt").read())
    print(f"{len(paths)} SASS files\n| producer | reader | stall | pairs |\n|---|---|---|---|")
    for (a, b, stall), n in sorted(total.items(), key=lambda kv: -kv[1]):
        if n >= args.min:
            print(f"| {a} | {b} | {stall} | {n} |")


if __name__ == "__main__":
    main()
