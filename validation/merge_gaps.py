"""How far apart in time the SMs of one merge domain ask for the same sectors, in simgpu's replay,
beside the L2 read sectors simulated and measured on the H200.

Cross-SM merging of L1 misses (memory/topology.py, timing/l2_merge.py) is the one part of the L2
read count that depends on timing: a miss joins another SM's request only while that request is
open (a few to a few hundred cycles). This prints, for chosen recorded launches, the gaps between
consecutive requests of one merge domain for one line and set of missed sectors (the replay's
record, config l2_request_log_groups), so a change to the merge model can be read against where
the sharers actually are: all within a cycle or two means the replay's SMs run in lock step; gaps
of hundreds of cycles mean the windows decide.

    python validation/merge_gaps.py                       # the GEMM and streaming launches below
    python validation/merge_gaps.py typical3:mlp_relu cal:gemm_tiled
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from validation.l2_reads import READ, SUITES  # noqa: E402

DEFAULT = ("cal:gemm_naive", "cal:gemm_tiled", "typical3:mlp_relu", "typical5:sgemm_regblock4x4",
           "typical9:mma_ldmatrix_gemm", "typical10:gemm_tile32_2x2", "typical:col_major_read")
LOG_GROUPS = 8_000_000
CUTS = (13, 60, 160, 500)  # cycles: the least window, ~an L2 hit under load, the longest hit window, a fetch


def request_gaps(log: np.ndarray) -> np.ndarray:
    """Per recorded L1-miss group after the first of its (line, missed sectors, domain): the cycles
    since the previous one (load_lines.REQUEST_LOG_COLUMNS)."""
    cycle, line, _sm, dom, missed = (log[:, i] for i in range(5))
    key = (line * 16 + missed) * 1024 + dom
    order = np.lexsort((cycle, key))
    k, t = key[order], cycle[order]
    same = k[1:] == k[:-1]
    return (t[1:] - t[:-1])[same]


def launch_gaps(target: str) -> list[tuple]:
    """(launch, simulated and H200 L2 read sectors, missed sectors, joined sectors, gaps) per launch."""
    from simgpu.crosscheck import crosscheck
    from simgpu.timing.config import overridden

    suite, spec = target.split(":", 1)
    if suite not in SUITES:
        raise SystemExit(f"merge_gaps: no recorded suite {suite!r} (known: {', '.join(SUITES)})")
    specs, recorded = SUITES[suite]
    import simgpu.timing.model as model

    logs = []  # per simulated launch, in order (the launch path imports simulate_timing per call)
    original = model.simulate_timing

    def keep(*a, **k):
        result = original(*a, **k)
        logs.append(None if result.l2_merging is None else result.l2_merging.requests)
        return result

    model.simulate_timing = keep
    try:
        with overridden(l2_request_log_groups=LOG_GROUPS):
            report = crosscheck(suite=specs, recorded=recorded, specs=[spec], echo=None)
    finally:
        model.simulate_timing = original
    rows = []
    launches = [(case.name, i, launch) for case in report.cases for i, launch in enumerate(case.launches)]
    for (name, i, launch), log in zip(launches, logs):
        real = next((m for m in launch.metrics if m.metric == READ and m.real), None)
        if real is None or log is None:
            continue
        missed = sum(int(((log[:, 4] >> b) & 1).sum()) for b in range(4))
        joined = sum(int(((log[:, 5] >> b) & 1).sum()) for b in range(4))
        rows.append((f"{suite}:{name}#{i}", float(real.simulated), float(real.real), missed, joined,
                     request_gaps(log)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("launches", nargs="*", default=list(DEFAULT), help="suite:spec (suites as in l2_reads.py)")
    ap.add_argument("--jobs", type=int, default=2, help="launches simulated side by side (default 2)")
    opts = ap.parse_args()
    with ProcessPoolExecutor(max_workers=opts.jobs) as pool:
        results = [row for rows in pool.map(launch_gaps, opts.launches) for row in rows]
    cuts = "".join(f" {'<=' + str(c):>6s}" for c in CUTS)
    print(f"{'launch':34s} {'simgpu':>10s} {'H200':>10s} {'error':>8s} {'joined':>7s} "
          f"{'H200':>5s} {'gap p25':>7s} {'p50':>5s} {'p75':>5s}{cuts}")
    for name, sim, real, missed, joined, gaps in results:
        q = np.percentile(gaps, [25, 50, 75]) if len(gaps) else (np.nan,) * 3
        shares = "".join(f" {(gaps <= c).mean() if len(gaps) else np.nan:6.2f}" for c in CUTS)
        print(f"{name:34s} {sim:10,.0f} {real:10,.0f} {100 * (sim - real) / real:+7.2f}% "
              f"{joined / max(missed, 1):7.2f} {1 - real / max(missed, 1):5.2f} "
              f"{q[0]:7.0f} {q[1]:5.0f} {q[2]:5.0f}{shares}")
    print("joined: share of the L1-miss sectors that joined another SM's request in the replay (H200: "
          "1 - its L2 read sectors / simgpu's L1-miss sectors, what it must have merged); gap: "
          "cycles between consecutive requests of one merge domain for one line and set of missed "
          "sectors; <=N: share of those gaps within N cycles")


if __name__ == "__main__":
    main()
