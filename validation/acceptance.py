"""Issue 3's acceptance checks on every recorded launch: the calibration suite and validation/typical
to typical10, typical12 to typical20 and clusters, simulated again now and compared with what the H200 measured.

Checks (the memory-system issue's): global load/store/atomic requests and sectors exactly equal,
shared-memory wavefronts exactly equal, `lts__t_sectors_srcunit_tex_op_read.sum` within 2 %,
`l1tex__t_sector_hit_rate.pct` within 3 points, `dram__bytes_read.sum` within 5 %. Prints each
launch that misses a check and a count per check.

    python validation/acceptance.py [--jobs N] [--suite NAME ...]
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor

from l2_reads import SUITES
from shared_sass import DEFAULT_RECORD as SHARED_SASS
from shared_sass import hw_metric, sass_metric

# the H200's shared wavefronts as ncu attributes them to SASS instructions, recorded apart
# (validation/shared_sass.py): what the bank model computes, without the arbitration wavefronts the
# hardware counters add (benchmarks/microbench/smem_arbitration)
SASS = [sass_metric(op) for op in ("ld", "st")]

EXACT = [f"l1tex__t_{kind}_pipe_lsu_mem_global_op_{op}.sum"
         for kind in ("requests", "sectors") for op in ("ld", "st", "atom", "red")
         if not (kind == "sectors" and op in ("atom", "red"))]
SHARED_HW = [hw_metric(op) for op in ("ld", "st")]
EXACT += SHARED_HW
# metric -> (kind of tolerance, tolerance): "rel" in percent, "abs" in points
TOLERANT = {"lts__t_sectors_srcunit_tex_op_read.sum": ("rel", 2.0),
            "l1tex__t_sector_hit_rate.pct": ("abs", 3.0),
            "dram__bytes_read.sum": ("rel", 5.0)}


def check(sim: float, real: float, metric: str) -> tuple[bool, str]:
    """Whether one metric passes, and its error as text."""
    if metric in TOLERANT:
        kind, tol = TOLERANT[metric]
        if kind == "abs":
            return abs(sim - real) <= tol, f"{sim - real:+.2f} pt"
        err = 100.0 * (sim - real) / real if real else (0.0 if sim == 0 else float("inf"))
        return abs(err) <= tol, f"{err:+.2f} %"
    return sim == real, f"{sim - real:+,.0f}"


def suite_checks(name: str) -> list[tuple[str, str, float, float, bool, str]]:
    """(launch, metric, simulated, H200, passes, error) for every check of one recorded suite."""
    from simgpu.crosscheck import crosscheck

    suite, recorded = SUITES[name]
    report = crosscheck(suite=suite, recorded=recorded, echo=None)
    sass = json.loads(SHARED_SASS.read_text()).get(name, {}) if SHARED_SASS.exists() else {}
    rows = []
    for case in report.cases:
        for i, launch in enumerate(case.launches):
            for m in launch.metrics:
                if (m.metric in EXACT or m.metric in TOLERANT) and m.real is not None and m.status != "n/a":
                    ok, err = check(float(m.simulated), float(m.real), m.metric)
                    rows.append((f"{name}:{case.name}#{i}", m.metric, float(m.simulated), float(m.real), ok, err))
            runs = sass.get(case.name, [])[i:i + 1]
            if runs and runs[0]:
                sim = {m.metric: m.simulated for m in launch.metrics}
                for metric in SASS:
                    real = runs[0][0].get(metric)
                    if real is not None and sim.get(metric) is not None:
                        ok, err = check(float(sim[metric]), float(real), metric)
                        rows.append((f"{name}:{case.name}#{i}", metric, float(sim[metric]), float(real), ok, err))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2, help="suites simulated side by side (default 2)")
    ap.add_argument("--suite", nargs="+", action="extend", choices=list(SUITES), metavar="NAME",
                    help=f"only these suites (names: {', '.join(SUITES)})")
    opts = ap.parse_args()
    names = [n for n in (opts.suite or SUITES) if all(p.exists() for p in SUITES[n])]
    with ProcessPoolExecutor(max_workers=opts.jobs) as pool:
        rows = [row for suite in pool.map(suite_checks, names) for row in suite]
    print(f"{'launch':34s} {'metric':58s} {'simgpu':>14s} {'H200':>14s}  error")
    for launch, metric, sim, real, ok, err in rows:
        if not ok:
            print(f"{launch:34s} {metric:58s} {sim:14,.2f} {real:14,.2f}  {err}")
    launches = sorted({r[0] for r in rows})
    failing = {r[0] for r in rows if not r[4] and r[1] not in SASS}
    print(f"\n{len(launches)} launches, {len(launches) - len(failing)} pass every check")
    # the same with the H200's SASS-attributed shared wavefronts in place of its hardware counters
    # where they were recorded
    def op(metric: str) -> str:
        return metric.rsplit("_op_", 1)[1]

    has_sass = {(r[0], op(r[1])) for r in rows if r[1] in SASS}
    failing_sass = {r[0] for r in rows if not r[4] and not (r[1] in SHARED_HW and (r[0], op(r[1])) in has_sass)}
    print(f"{len(launches) - len(failing_sass)} with the SASS-attributed shared wavefronts where recorded "
          f"(validation/shared_sass) in place of the hardware counters")
    for metric in EXACT + SASS + list(TOLERANT):
        mine = [r for r in rows if r[1] == metric]
        if mine:
            print(f"  {metric:58s} {sum(r[4] for r in mine):4d} of {len(mine):4d} pass")


if __name__ == "__main__":
    main()
