"""Kernel time (gpu__time_duration.sum) of every recorded launch, simulated again now against what
the H200 measured: validation/typical to typical10, typical12 to typical15, clusters and the
calibration suite (the suites of l2_reads.py). Prints each launch's error, the mean absolute error
per suite and over all.

    python validation/kernel_times.py [--jobs N] [--worst K]
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from l2_reads import SUITES, suite_metric

TIME = "gpu__time_duration.sum"


def suite_times(name: str) -> list[tuple[str, str, float, float]]:
    """(suite, launch, simulated ns, H200 ns) for every timed launch of one recorded suite."""
    return [(name, *row) for row in suite_metric(*SUITES[name], TIME)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2, help="suites simulated side by side (default 2)")
    ap.add_argument("--worst", type=int, default=0, help="list only the K largest errors")
    opts = ap.parse_args()
    names = [n for n, (s, r) in SUITES.items() if s.exists() and r.exists()]
    with ProcessPoolExecutor(max_workers=opts.jobs) as pool:
        rows = [row for suite in pool.map(suite_times, names) for row in suite]
    err = {(s, n): 100.0 * (sim - real) / real for s, n, sim, real in rows}
    shown = sorted(rows, key=lambda r: -abs(err[r[0], r[1]]))[:opts.worst] if opts.worst else rows
    print(f"{'suite':9s} {'launch':28s} {'simgpu ns':>11s} {'H200 ns':>11s} {'error':>8s}")
    for s, n, sim, real in shown:
        print(f"{s:9s} {n:28s} {sim:11,.0f} {real:11,.0f} {err[s, n]:+7.1f}%")
    print()
    for name in names:
        e = [abs(v) for (s, _), v in err.items() if s == name]
        print(f"{name:9s} {len(e):3d} launches, mean |error| {sum(e) / len(e):5.1f} %")
    print(f"all       {len(err):3d} launches, mean |error| {sum(abs(v) for v in err.values()) / len(err):5.1f} %")


if __name__ == "__main__":
    main()
