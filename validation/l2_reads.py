"""L2 read sectors (lts__t_sectors_srcunit_tex_op_read.sum) of every recorded launch, simulated
again now against what the H200 measured: validation/typical to typical10, typical12 to typical19,
validation/clusters and the calibration suite. The one counter that depends on how far apart the
SMs run (cross-SM merging of L1 misses, benchmarks/microbench/l2_order), so the one to watch when
the merge model changes.

    python validation/l2_reads.py [--jobs N]
"""

from __future__ import annotations

import argparse
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
READ = "lts__t_sectors_srcunit_tex_op_read.sum"
# every recorded suite by name: its specs.py and the recording (also validation/l2_spread.py's)
SUITES = {name: (HERE / name / "specs.py", HERE / name / "results" / "typical.json")
          for name in ("typical", "typical2", "typical3", "typical4", "typical5", "typical6",
                       "typical7", "typical8", "typical9", "typical10", "typical12", "typical13", "typical14",
                       "typical15", "typical16", "typical17", "typical18", "typical19", "typical20", "typical21",
                       "typical22", "clusters")}
# the calibration suite beside the checkout, or where SIMGPU_CALIBRATION points
SUITES["cal"] = (Path(os.environ.get("SIMGPU_CALIBRATION", HERE.parent.parent / "shared" / "calibration"))
                 / "specs.py", HERE / "h200_2026-11-29.json")


def suite_metric(suite: Path, recorded: Path, metric: str) -> list[tuple[str, float, float]]:
    """(launch, simulated, H200) of `metric` for every launch of one recorded suite that the H200
    measured it for (also validation/kernel_times.py's)."""
    from simgpu.crosscheck import crosscheck

    report = crosscheck(suite=suite, recorded=recorded, echo=None)
    rows = []
    for case in report.cases:
        for i, launch in enumerate(case.launches):
            for m in launch.metrics:
                if m.metric == metric and m.real:
                    rows.append((f"{case.name}#{i}", float(m.simulated), float(m.real)))
    return rows


def suite_reads(suite: Path, recorded: Path) -> list[tuple[str, float, float]]:
    """(launch, simulated, H200) L2 read sectors for every launch of one recorded suite."""
    return suite_metric(suite, recorded, READ)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2, help="suites simulated side by side (default 2)")
    opts = ap.parse_args()
    suites = [(s, r) for s, r in SUITES.values() if s.exists() and r.exists()]
    with ProcessPoolExecutor(max_workers=opts.jobs) as pool:
        results = list(pool.map(suite_reads, *zip(*suites)))
    rows = [row for suite in results for row in suite]
    errors = [100.0 * (sim - real) / real for _, sim, real in rows]
    print(f"{'launch':28s} {'simgpu':>12s} {'H200':>12s} {'error':>8s}")
    for (name, sim, real), err in zip(rows, errors):
        flag = "" if abs(err) <= 2.0 else "  outside 2 %"
        print(f"{name:28s} {sim:12,.0f} {real:12,.0f} {err:+7.2f}%{flag}")
    within = sum(abs(e) <= 2.0 for e in errors)
    mean = sum(abs(e) for e in errors) / max(1, len(errors))
    print(f"\n{len(rows)} launches: {within} within 2 %, mean |error| {mean:.2f} %")


if __name__ == "__main__":
    main()
