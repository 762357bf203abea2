#!/usr/bin/env python3
"""simgpu beside the H200 (results/hist_GPU-*.jsonl from hist.py): histogram_global's kernel, atomics
per ns for n = 262,144 keys, bins packed 32 to a line (stride 1) or one to a line (stride 32).

    python compare.py [--bins 1 8 32 64 256 1024]
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
N = 262144


def simulated(bins: int, stride: int) -> float:
    """Atomics per ns of the simulated launch."""
    sys.modules.setdefault("cupy", types.ModuleType("cupy"))  # hist.py imports CuPy for the device run
    import hist

    import simgpu as sg

    kernel = sg.RawModule(code=hist.SRC).get_function("hist")
    keys = sg.asarray(np.random.default_rng(1).integers(0, 1 << 20, N, dtype=np.int32))
    h = sg.zeros(bins * stride, np.int32)
    rep = kernel(((N + 255) // 256,), (256,), (keys, h, np.int32(N), np.int32(bins), np.int32(stride)))
    return N / rep.timing.time_ns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bins", type=int, nargs="*", default=[1, 2, 8, 32, 64, 256, 1024])
    a = ap.parse_args()
    h200 = {}
    for path in (HERE / "results").glob("hist_GPU-*.jsonl"):
        for r in map(json.loads, path.read_text().splitlines()):
            if r["n"] == N:
                h200[(r["bins"], r["stride"])] = r["atomics_per_ns"]
    print(f"{'bins':>6s} {'stride':>6s} {'lines':>5s} {'H200':>7s} {'simgpu':>7s}   atomics per ns, {N:,} keys")
    for stride in (1, 32):
        for bins in a.bins:
            lines = bins if stride == 32 else (bins + 31) // 32
            print(f"{bins:6d} {stride:6d} {lines:5d} {h200.get((bins, stride), float('nan')):7.2f} "
                  f"{simulated(bins, stride):7.2f}")


if __name__ == "__main__":
    main()
