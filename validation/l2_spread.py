"""How reproducible is the H200's own L2 read count? Profile chosen recorded launches several times
under ncu (one process, cold caches between launches as ncu does by default) and print, per launch,
the spread of lts__t_sectors_srcunit_tex_op_read.sum beside the value the suite's recording holds.

The L2 read sectors of kernels whose CTAs share sectors across SMs depend on how far apart the SMs
run (cross-SM merging, benchmarks/microbench/l2_order), so they vary from launch to launch and chip
to chip; a model error smaller than that spread cannot be told from noise.

    python validation/l2_spread.py [--repeat 7] [--json OUT.json] [SUITE:SPEC ...]    # on a GPU host
    python validation/l2_spread.py --show OUT.json                                    # anywhere

SUITE is typical, typical2, typical3, typical4, cal (../shared/calibration) or a specs.py path
(nothing recorded to compare with then); without SPECs the
launches that validation/l2_reads.py finds outside 2 % are profiled, with two exact controls.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from pathlib import Path

from l2_reads import READ, SUITES  # this folder: the same suites and counter

HERE = Path(__file__).resolve().parent
METRICS = [READ, "l1tex__t_sector_hit_rate.pct", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
           "gpu__time_duration.sum"]
DEFAULT = ["cal:gemm_naive", "cal:gemm_tiled", "typical:gemm_cp_async", "typical:col_major_read",
           "typical2:stencil3d", "typical2:gather_int64", "typical3:dgemm_naive", "typical3:sgemm_tile32",
           "typical3:nbody_forces", "typical3:ell_spmv", "typical3:mlp_relu", "typical3:life_step",
           "typical4:batched_vecmat", "typical4:qk_scores", "typical4:spmv_banded_csr",
           "cal:vector_add", "typical:spmv_csr"]


def suite_file(suite: str) -> Path:
    """A suite's specs.py: a name of SUITES, or a path."""
    return SUITES[suite][0] if suite in SUITES else Path(suite)


def recorded_read(suite: str, spec: str) -> float | None:
    """The L2 read sectors the suite's recording holds for the spec's first launch (None: none)."""
    if suite not in SUITES:
        return None
    data = json.loads(SUITES[suite][1].read_text())
    for case in data.get("cases", []):
        if case.get("name") == spec and case.get("kind") != "program":
            for m in case["launches"][0]["metrics"]:
                if m["metric"] == READ:
                    return m.get("real")
    return None


def profile(targets: list[str], repeat: int) -> list[dict]:
    """Per target, every profiled launch's metrics (ncu), and the recorded L2 read sectors."""
    from simgpu.crosscheck.cases import load_suite
    from simgpu.crosscheck.gpu import profile_with_ncu

    cases, where = [], []
    for t in targets:
        suite, spec = t.rsplit(":", 1)
        cases += load_suite(suite_file(suite), [spec])
        where.append((suite, spec))
    rows, status = profile_with_ncu(cases, METRICS, repeat=repeat, timeout=900)
    if rows is None:
        raise SystemExit(f"ncu failed: {status}")
    out = []
    for (suite, spec), per_launch in zip(where, rows):
        runs = [r.metrics for r in per_launch[0]] if per_launch else []
        out.append({"suite": suite, "spec": spec, "recorded": recorded_read(suite, spec),
                    "runs": [{k: v for k, v in m.items() if k in METRICS} for m in runs]})
    return out


def show(result: dict) -> None:
    print(f"GPU: {result.get('gpu', '?')}; {result.get('repeat')} launches each under ncu")
    print(f"{'launch':28s} {'min':>11s} {'median':>11s} {'max':>11s} {'spread':>8s} {'recorded':>11s} {'rec-med':>8s}")
    for t in result["targets"]:
        vals = [float(r[READ]) for r in t["runs"] if isinstance(r.get(READ), (int, float))]
        if not vals:
            print(f"{t['suite'] + ':' + t['spec']:28s} no rows")
            continue
        med = statistics.median(vals)
        spread = 100.0 * (max(vals) - min(vals)) / med if med else 0.0
        rec = t.get("recorded")
        dev = f"{100.0 * (rec - med) / med:+7.2f}%" if rec and med else "       -"
        print(f"{t['suite'] + ':' + t['spec']:28s} {min(vals):11,.0f} {med:11,.0f} {max(vals):11,.0f} "
              f"{spread:7.2f}% {rec or 0:11,.0f} {dev}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("targets", nargs="*", help="SUITE:SPEC (default: the launches outside 2 %% and controls)")
    ap.add_argument("--repeat", type=int, default=7, help="launches of each under ncu (default 7)")
    ap.add_argument("--json", type=Path, help="write the measurements here")
    ap.add_argument("--show", type=Path, help="print a JSON this script wrote, profile nothing")
    a = ap.parse_args()
    if a.show:
        show(json.loads(a.show.read_text()))
        return
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    result = {"gpu": gpu, "repeat": a.repeat, "targets": profile(a.targets or DEFAULT, a.repeat)}
    if a.json:
        a.json.write_text(json.dumps(result, indent=1))
    show(result)


if __name__ == "__main__":
    main()
