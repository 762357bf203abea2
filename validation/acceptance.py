"""Issue 3's acceptance checks on every recorded launch: the calibration suite and validation/typical
to typical10, typical12 to typical20 and clusters, simulated again now (or read from a snapshot of
validation/snapshot.py) and compared with what the H200 measured.

Checks (the memory-system issue's): global load/store/atomic requests and sectors exactly equal,
shared-memory wavefronts exactly equal, `lts__t_sectors_srcunit_tex_op_read.sum` within 2 %,
`l1tex__t_sector_hit_rate.pct` within 3 points, `dram__bytes_read.sum` within 5 %. Prints each
launch that misses a check and a count per check.

    python validation/acceptance.py [--jobs N] [--suite NAME ...] [--snapshot FILE]
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from l2_reads import SUITES
from shared_sass import hw_metric
from snapshot import SASS_METRICS as SASS
from snapshot import suite_launches

EXACT = [f"l1tex__t_{kind}_pipe_lsu_mem_global_op_{op}.sum"
         for kind in ("requests", "sectors") for op in ("ld", "st", "atom", "red")
         if not (kind == "sectors" and op in ("atom", "red"))]
SHARED_HW = [hw_metric(op) for op in ("ld", "st")]
EXACT += SHARED_HW
# metric -> (kind of tolerance, tolerance): "rel" in percent, "abs" in points
TOLERANT = {"lts__t_sectors_srcunit_tex_op_read.sum": ("rel", 2.0),
            "l1tex__t_sector_hit_rate.pct": ("abs", 3.0),
            "dram__bytes_read.sum": ("rel", 5.0)}
Row = tuple[str, str, float, float, bool, str]  # launch, metric, simulated, H200, passes, error


def check(sim: float, real: float, metric: str) -> tuple[bool, str]:
    """Whether one metric passes, and its error as text."""
    if metric in TOLERANT:
        kind, tol = TOLERANT[metric]
        if kind == "abs":
            return abs(sim - real) <= tol, f"{sim - real:+.2f} pt"
        err = 100.0 * (sim - real) / real if real else (0.0 if sim == 0 else float("inf"))
        return abs(err) <= tol, f"{err:+.2f} %"
    return sim == real, f"{sim - real:+,.0f}"


def checks(launches: dict[str, dict[str, list[float]]]) -> list[Row]:
    """Every check of every launch of a snapshot ({launch: {metric: [simulated, H200]}})."""
    return [(launch, metric, sim, real, *check(sim, real, metric))
            for launch, row in launches.items() for metric, (sim, real) in row.items()
            if metric in EXACT or metric in TOLERANT or metric in SASS]


def totals(rows: list[Row]) -> dict[str, object]:
    """Launches that pass every check, also with the SASS-attributed shared wavefronts in place of
    the hardware counters where those were recorded, and passes per metric."""
    launches = {r[0] for r in rows}
    failing = {r[0] for r in rows if not r[4] and r[1] not in SASS}

    def op(metric: str) -> str:
        return metric.rsplit("_op_", 1)[1]

    has_sass = {(r[0], op(r[1])) for r in rows if r[1] in SASS}
    failing_sass = {r[0] for r in rows if not r[4] and not (r[1] in SHARED_HW and (r[0], op(r[1])) in has_sass)}
    per_metric = {m: (sum(r[4] for r in rows if r[1] == m), sum(r[1] == m for r in rows))
                  for m in EXACT + SASS + list(TOLERANT)}
    return {"launches": len(launches), "pass_all": len(launches - failing),
            "pass_all_sass": len(launches - failing_sass),
            "per_metric": {m: v for m, v in per_metric.items() if v[1]}}


def print_totals(t: dict[str, object]) -> None:
    print(f"\n{t['launches']} launches, {t['pass_all']} pass every check")
    print(f"{t['pass_all_sass']} with the SASS-attributed shared wavefronts where recorded "
          f"(validation/shared_sass) in place of the hardware counters")
    for metric, (passed, of) in t["per_metric"].items():
        print(f"  {metric:58s} {passed:4d} of {of:4d} pass")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2, help="suites simulated side by side (default 2)")
    ap.add_argument("--suite", nargs="+", action="extend", choices=list(SUITES), metavar="NAME",
                    help=f"only these suites (names: {', '.join(SUITES)})")
    ap.add_argument("--snapshot", type=Path, help="read the launches from this snapshot instead of simulating")
    opts = ap.parse_args()
    if opts.snapshot:
        launches = json.loads(opts.snapshot.read_text())["launches"]
        if opts.suite:
            launches = {k: v for k, v in launches.items() if k.split(":", 1)[0] in opts.suite}
    else:
        names = [n for n in (opts.suite or SUITES) if all(p.exists() for p in SUITES[n])]
        with ProcessPoolExecutor(max_workers=opts.jobs) as pool:
            launches = {k: v for suite in pool.map(suite_launches, names) for k, v in suite.items()}
    rows = checks(launches)
    print(f"{'launch':34s} {'metric':58s} {'simgpu':>14s} {'H200':>14s}  error")
    for launch, metric, sim, real, ok, err in rows:
        if not ok:
            print(f"{launch:34s} {metric:58s} {sim:14,.2f} {real:14,.2f}  {err}")
    print_totals(totals(rows))


if __name__ == "__main__":
    main()
