#!/usr/bin/env python3
"""simgpu beside the H200 (results/lines_*.jsonl from lines.py) for lines.py's kernel: cycles per warp
load instruction per SM, from the difference of two launches with 16 and 48 loop trips (which leaves
out the warm pass and the cold misses), one CTA of W warps.

    python compare.py [--results results/lines_GPU-641f4934.jsonl]
"""

from __future__ import annotations

import argparse
import json
import sys
import types
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE))


def simulated(warps: int, stride: int) -> float:
    sys.modules.setdefault("cupy", types.ModuleType("cupy"))  # lines.py imports CuPy for the device run
    import lines

    import simgpu as sg

    kernel = sg.RawModule(code=lines.SRC).get_function("l1_lines")
    buf = sg.asarray(np.ones(warps * 2304, np.float32))

    def cycles(iters: int) -> int:
        out, cyc = sg.zeros(warps * 32, np.float32), sg.zeros(1, np.int64)
        rep = kernel((1,), (32 * warps,), (buf, out, cyc, np.int32(stride), np.int32(iters)))
        return rep.timing.cycles

    return (cycles(48) - cycles(16)) / (2 * 32 * 8 * warps)  # two passes of 32 more trips, 8 loads each


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", type=Path, default=HERE / "results" / "lines_GPU-641f4934.jsonl")
    a = ap.parse_args()
    rows = [json.loads(line) for line in a.results.read_text().splitlines() if line.strip()]
    print(f"{'warps':>5s} {'stride':>6s} {'lines':>5s} {'H200':>7s} {'simgpu':>7s}   cycles per warp load per SM")
    for r in rows:
        print(f"{r['warps']:5d} {r['stride']:6d} {r['lines']:5d} {r['cycles_per_load_per_sm']:7.2f} "
              f"{simulated(r['warps'], r['stride']):7.2f}")


if __name__ == "__main__":
    main()
