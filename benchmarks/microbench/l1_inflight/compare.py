"""inflight.cu on simgpu beside the H200 (results/inflight.txt): one CTA of W warps, 16 independent
L1-missing (L2-hit) loads per warp; cycles from the first load to the last answer.
simgpu's %clock64 counts issued instructions, so its cycles are the replay's makespan instead.
    python compare.py"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import simgpu as sg

HERE = Path(__file__).parent


def main() -> None:
    rows = [r.split() for r in (HERE / "results" / "inflight.txt").read_text().splitlines() if r[:1].isdigit()]
    mod = sg.RawModule(code=(HERE / "inflight.cu").read_text(), name_expressions=["inflight<16>"])
    kernel = mod.get_function("inflight<16>")
    a = sg.zeros((64 << 20) // 4, np.float32)
    out, cyc = sg.zeros(16, np.float32), sg.zeros(132, np.int64)
    print(f"{'lane B':>6s} {'warps':>5s} {'lines':>6s} {'H200 cycles':>11s} {'lines/cycle':>11s} "
          f"{'simgpu cycles':>13s} {'lines/cycle':>11s}")
    for grid, lane, warps, cycles, lines, _ in rows:
        args = (a, out, np.int32(lane), cyc)
        kernel((int(grid),), (32 * int(warps),), args, warm_caches=True)
        sim = kernel((int(grid),), (32 * int(warps),), args, warm_caches=True).timing.cycles
        print(f"{lane:>6s} {warps:>5s} {lines:>6s} {cycles:>11s} {int(lines) / int(cycles):11.2f} "
              f"{sim:13d} {int(lines) / sim:11.2f}")


if __name__ == "__main__":
    main()
