"""A probe's launches on simgpu beside the GPU that ran them (a results folder from run.sh, its chip
in gpu.txt): store sectors and their L1 hits, simulated | measured.

    python compare.py [results/]             pending.cu
    python compare.py results_sectors/       sectors.cu
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from table import ST, ST_HIT, rows

import simgpu as sg

HERE = Path(__file__).resolve().parent


def launcher(probe: str):
    """A function (mode, delay) -> LaunchReport of the probe's kernel on its launch shape."""
    kernel = sg.RawModule(code=(HERE / f"{probe}.cu").read_text()).get_function(probe)
    if probe == "pending":
        a, out = sg.zeros(132 * 64 * 32, np.float32), sg.zeros(132 * 32, np.float32)
        return lambda mode, delay: kernel((132,), (32,), (a, np.int32(mode), np.int64(delay), out))

    def run(mode: int, delay: int):  # fresh arrays: the zero data keeps the second address in place
        a, b = sg.zeros(132 * 64 * 32, np.float32), sg.zeros(132 * 64 * 32, np.float32)
        out = sg.zeros(132 * 64, np.float32)
        return kernel((132,), (64,), (a, b, np.int32(mode), np.int64(delay), np.int32(0), out))
    return run


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "results"
    probe = "sectors" if folder.name.endswith("_sectors") else "pending"
    run = launcher(probe)
    chip = (folder / "gpu.txt").read_text().split("(")[0].strip() if (folder / "gpu.txt").exists() else "GPU"
    print(f"{probe}.cu: simgpu | {chip}")
    print(f"{'mode':>4s} {'delay':>6s} {'st sectors':>17s} {'st hits':>17s}")
    for d in rows(folder):
        r = run(d["mode"], d["delay"])
        sim = (r.metrics[ST], r.metrics[ST_HIT])
        cells = [f"{s:,.0f}" if s == h else f"{s:,.0f}|{h:,.0f}" for s, h in zip(sim, (d[ST], d[ST_HIT]))]
        print(f"{d['mode']:4d} {d['delay']:6d} {cells[0]:>17s} {cells[1]:>17s}")


if __name__ == "__main__":
    main()
