"""How fast is the simulator? Simulated warp instructions per second of host time, per program.

    python benchmarks/bench_engine.py            # default sizes of every built-in program
    python benchmarks/bench_engine.py --large    # the programs' large sizes
    python benchmarks/bench_engine.py --calibration ../shared/calibration

Prints a table: warp instructions, host seconds of the functional engine (`sim s`) and of the
whole run (`wall s`: compilation, memory model and timing replay included), warp instructions per
second, and the peak traced memory (NumPy allocations via tracemalloc, measured in a second run
because tracing slows allocation down). All rows come from one run on one machine: compare ratios
within a table, not numbers across machines.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
import tracemalloc

import numpy as np


def _peak_mib(fn) -> float:
    """Peak traced NumPy/Python allocation of fn() in MiB (a separate run: tracing slows allocation)."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def bench_programs(large: bool, only: list[str] | None) -> list[tuple[str, int, float, float, float]]:
    from simgpu.programs import PROGRAMS

    rows = []
    for name, prog in PROGRAMS.items():
        if only and name not in only:
            continue
        size = dict(prog.large_size) if large else None
        t0 = time.perf_counter()
        run = prog.run(size=size)
        wall = time.perf_counter() - t0
        status = "ok" if run.ok else "WRONG OUTPUT"
        winst = sum(r.warp_instructions for _, r in run.launches)
        sim = sum(r.host_seconds for _, r in run.launches)
        peak = _peak_mib(lambda prog=prog, size=size: prog.run(size=size))
        rows.append((name + ("" if status == "ok" else f" ({status})"), winst, sim, wall, peak))
    return rows


def bench_calibration(path: str) -> list[tuple[str, int, float, float, float]]:
    from simgpu.validate import run_suite

    t0 = time.perf_counter()
    results = run_suite(os.path.join(path, "specs.py"))
    wall = time.perf_counter() - t0
    rows = [(r.name, r.warp_instructions, r.host_seconds, r.host_seconds, float("nan")) for r in results]
    peak = _peak_mib(lambda: run_suite(os.path.join(path, "specs.py"), only=["gemm_naive"]))
    rows.append(("calibration suite (all 10)", sum(r[1] for r in rows), sum(r[2] for r in rows), wall, float("nan")))
    rows.append(("  (peak of gemm_naive alone)", 0, 0.0, 0.0, peak))
    return rows


def print_table(rows) -> None:
    print(f"host: {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"NumPy {np.__version__}, reference engine")
    print(f"{'program':<28} {'warp instr':>12} {'sim s':>8} {'wall s':>8} {'warp instr/s':>14} {'peak MiB':>9}")
    for name, winst, sim, wall, peak in rows:
        rate = winst / sim if sim else 0.0
        peak_s = "" if peak != peak else f"{peak:.1f}"
        if not winst:
            print(f"{name:<28} {'':>12} {'':>8} {'':>8} {'':>14} {peak_s:>9}")
            continue
        print(f"{name:<28} {winst:>12,} {sim:>8.2f} {wall:>8.2f} {rate:>14,.0f} {peak_s:>9}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--large", action="store_true", help="use each program's large size")
    ap.add_argument("--only", nargs="*", help="program names to run")
    ap.add_argument("--calibration", metavar="DIR", help="also run the calibration suite in DIR")
    args = ap.parse_args()
    rows = bench_programs(args.large, args.only)
    if args.calibration:
        rows += bench_calibration(args.calibration)
    print_table(rows)


if __name__ == "__main__":
    main()
