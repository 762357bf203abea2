"""pending.cu's launches on simgpu beside the H200 (results/ from run.sh): store sectors and their L1
hits, simulated | measured.

    python compare.py [results/]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from table import ST, ST_HIT, rows

import simgpu as sg

HERE = Path(__file__).resolve().parent


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "results"
    kernel = sg.RawModule(code=(HERE / "pending.cu").read_text()).get_function("pending")
    a = sg.zeros(132 * 64 * 32, np.float32)
    out = sg.zeros(132 * 32, np.float32)
    print(f"{'mode':>4s} {'delay':>6s} {'st sectors':>17s} {'st hits':>17s}")
    for d in rows(folder):
        r = kernel((132,), (32,), (a, np.int32(d["mode"]), np.int64(d["delay"]), out))
        sim = (r.metrics[ST], r.metrics[ST_HIT])
        cells = [f"{s:,.0f}" if s == h else f"{s:,.0f}|{h:,.0f}" for s, h in zip(sim, (d[ST], d[ST_HIT]))]
        print(f"{d['mode']:4d} {d['delay']:6d} {cells[0]:>17s} {cells[1]:>17s}")


if __name__ == "__main__":
    main()
