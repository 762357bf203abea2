"""Speed of the timing replay: simulated warp instructions per second of host time, per program.

    python benchmarks/bench_timing.py [--calibration DIR] [--repeat 2]

Runs each calibration spec once through the functional engine (trace=True), then replays the
trace `repeat` times through simulate_timing (the first replay of a session includes numba's
compile or cache load) and prints functional and replay speeds. A number to beat, not a test.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import simgpu as sg
from simgpu.arch import get_preset
from simgpu.timing.model import simulate_timing
from simgpu.timing.validate import DEFAULT_DIR, _load_specs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calibration", default=str(DEFAULT_DIR))
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    gpu = get_preset("h200")
    mod = sg.RawModule(code=open(f"{a.calibration}/kernels.cu").read())
    print(f"{'program':18s} {'warp inst':>10s} {'functional s':>12s} {'replay s':>9s} {'core s':>7s} "
          f"{'Minst/s':>8s}")
    tot_n = tot_t = tot_f = 0.0
    for s in _load_specs(a.calibration):
        f = mod.get_function(s["kernel"])
        args = tuple(sg.asarray(x) if isinstance(x, np.ndarray) else x for x in s["args"])
        t0 = time.perf_counter()
        rep = f(s["grid"], s["block"], args, trace=True, progress=False)
        tf = time.perf_counter() - t0
        best = None
        for _ in range(max(1, a.repeat)):
            res = simulate_timing(rep.linked, rep.trace, gpu, grid=rep.grid, block=rep.block,
                                  ctas_per_sm=rep.ctas_per_sm, registers_per_thread=rep.registers_per_thread,
                                  per_pc=rep.per_pc)
            if best is None or res.host_seconds < best.host_seconds:
                best = res
        n = best.extra["warp_instructions"]
        tot_n += n
        tot_t += best.host_seconds
        tot_f += tf
        print(f"{s['name']:18s} {n:10d} {tf:12.2f} {best.host_seconds:9.2f} {best.extra['replay_s']:7.2f} "
              f"{n / best.host_seconds / 1e6:8.2f}")
    print(f"{'total':18s} {int(tot_n):10d} {tot_f:12.2f} {tot_t:9.2f} {'':7s} {tot_n / tot_t / 1e6:8.2f}")


if __name__ == "__main__":
    main()
