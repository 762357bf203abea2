#!/usr/bin/env python3
"""simgpu beside the H200 for stores.py's kernels (one CTA, W warps, lane stride S: cycles per warp
store, from the difference of two launches with 8 and 24 loop trips, which leaves out the first pass
and the ramp) and stores2.py's st_grid (1, 2 and 4 CTAs of 512 threads, one per SM on both: cycles per
warp store per CTA).

    python compare.py
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE))
RESULTS = HERE / "results"


def _module(name: str):
    sys.modules.setdefault("cupy", types.ModuleType("cupy"))  # the device scripts import CuPy
    import importlib

    import simgpu as sg
    return sg, sg.RawModule(code=importlib.import_module(name).SRC)


def per_store(kernel: str, warps: int, stride: int) -> float:
    """stores.py: cycles per warp store of one CTA of `warps` warps."""
    sg, mod = _module("stores")
    k = mod.get_function(kernel)

    def cycles(iters: int) -> int:
        span = (8 * iters + 8) * 32 * stride + 64
        buf, cyc = sg.zeros(warps * span, np.float32), sg.zeros(1, np.int64)
        rep = k((1,), (32 * warps,), (buf, cyc, np.int32(stride), np.int32(iters), np.int32(span)))
        return rep.timing.cycles

    return (cycles(24) - cycles(8)) / (2 * 16 * 8 * warps)  # two passes of 16 more trips, 8 stores each


def per_cta_grid(ctas: int) -> float:
    """stores2.py st_grid: cycles per warp store per CTA, `ctas` CTAs of 512 threads."""
    sg, mod = _module("stores2")
    k = mod.get_function("st_grid")

    def cycles(n: int) -> int:
        buf, cyc = sg.zeros(n, np.float32), sg.zeros(2 * ctas, np.int64)
        return k((ctas,), (512,), (buf, np.int64(n), cyc)).timing.cycles

    n0, n1 = ctas * 8192, ctas * 24576
    return (cycles(n1) - cycles(n0)) / (2 * (n1 - n0) / 32 / ctas)


def main() -> None:
    h200 = {}
    for path in RESULTS.glob("stores_GPU-*.jsonl"):
        for r in map(json.loads, path.read_text().splitlines()):
            if r["sms"] == 1:
                h200[(r["kernel"], r["warps"], r["stride"])] = r["per_store_per_sm"]
    print(f"{'kernel':10s} {'warps':>5s} {'stride':>6s} {'H200':>7s} {'simgpu':>7s}   cycles per warp store, one CTA")
    for kernel in ("st_fresh", "st_rep"):
        for warps in (4, 16):
            for stride in (1, 8, 32):
                print(f"{kernel:10s} {warps:5d} {stride:6d} {h200.get((kernel, warps, stride), float('nan')):7.2f} "
                      f"{per_store(kernel, warps, stride):7.2f}")
    grid = {}
    for path in RESULTS.glob("stores2_GPU-*.jsonl"):
        for r in map(json.loads, path.read_text().splitlines()):
            if r["kernel"] == "st_grid" and r["sms"] == 1 and r["threads"] == 512 and r["pass_"] == 1:
                grid[r["ctas_per_sm"]] = r["per_store_per_sm"] * r["ctas_per_sm"]
    print(f"\n{'st_grid CTAs':>12s} {'H200':>7s} {'simgpu':>7s}   cycles per warp store per CTA (a CTA per SM)")
    for ctas in (1, 4):
        print(f"{ctas:12d} {grid.get(ctas, float('nan')):7.2f} {per_cta_grid(ctas):7.2f}")


if __name__ == "__main__":
    main()
