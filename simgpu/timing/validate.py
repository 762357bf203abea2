"""Validate simulated kernel durations against the H200 calibration measurements.

    python -m simgpu.timing.validate [--calibration DIR] [--policy gto|lrr] [--json out.json]

Runs every spec of calibration/specs.py (kernels.cu) with trace=True, replays it through
simulate_timing, and compares with gpu_time_ns_median of h200_metrics.json: per kernel simulated
vs measured ns and error, MAPE, the worst case, and whether each ordering of variants holds.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

import numpy as np

DEFAULT_DIR = Path("/work/shared/calibration")
if not DEFAULT_DIR.exists():
    DEFAULT_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "calibration"


def _load_specs(cal_dir):
    cal_dir = Path(cal_dir)
    spec = importlib.util.spec_from_file_location("_simgpu_cal_specs", cal_dir / "specs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod.specs()


ORDERINGS = [
    ("transpose_padded < transpose_naive", [("transpose_padded", "transpose_naive")]),
    ("gemm_tiled < gemm_naive", [("gemm_tiled", "gemm_naive")]),
    ("strided_copy non-decreasing in stride",
     [("strided_copy_s1", "strided_copy_s2"), ("strided_copy_s2", "strided_copy_s4"),
      ("strided_copy_s4", "strided_copy_s8"), ("strided_copy_s8", "strided_copy_s32")]),
]


def run_validation(cal_dir: str | Path = DEFAULT_DIR, *, policy: str = "gto", config=None,
                   only: list[str] | None = None, verbose: bool = False) -> dict:
    import simgpu as sg
    from simgpu.arch import get_preset
    from simgpu.timing.model import simulate_timing

    cal_dir = Path(cal_dir)
    measured = {e["name"]: e for e in json.loads((cal_dir / "h200_metrics.json").read_text())}
    mod = sg.RawModule(code=(cal_dir / "kernels.cu").read_text())
    gpu = get_preset("h200")
    rows = []
    for s in _load_specs(cal_dir):
        if only and s["name"] not in only:
            continue
        f = mod.get_function(s["kernel"])
        args = tuple(sg.asarray(a) if isinstance(a, np.ndarray) else a for a in s["args"])
        t0 = time.perf_counter()
        rep = f(s["grid"], s["block"], args, trace=True, progress=False)
        t_func = time.perf_counter() - t0
        res = simulate_timing(rep.linked, rep.trace, gpu, grid=rep.grid, block=rep.block,
                              ctas_per_sm=rep.ctas_per_sm, registers_per_thread=rep.registers_per_thread,
                              policy=policy, config=config, per_pc=rep.per_pc, sass_loops=rep.sass_loops)
        meas = measured[s["name"]]
        sim = res.metrics["gpu__time_duration.sum"]
        real = float(meas["gpu_time_ns_median"])
        mm = meas["metrics"]
        row = dict(name=s["name"], sim_ns=sim, measured_ns=real, error_pct=100.0 * (sim - real) / real,
                   sim_occupancy_pct=res.metrics["sm__warps_active.avg.pct_of_peak_sustained_active"],
                   measured_occupancy_pct=float(mm.get("sm__warps_active.avg.pct_of_peak_sustained_active", "nan")),
                   sim_long_sb_pct=res.metrics["smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"],
                   measured_long_sb_pct=float(mm.get("smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
                                                     "nan")),
                   warp_instructions=res.extra["warp_instructions"], functional_s=t_func,
                   replay_s=res.host_seconds, replay_core_s=res.extra["replay_s"],
                   ctas_per_sm=rep.ctas_per_sm)
        rows.append(row)
        if verbose:
            print(f"{row['name']:18s} sim {sim:9.0f} ns  H200 {real:9.0f} ns  err {row['error_pct']:+6.1f} %  "
                  f"(replay {res.host_seconds:.2f} s)", flush=True)
    by = {r["name"]: r for r in rows}
    orderings = []
    for label, pairs in ORDERINGS:
        if not all(a in by and b in by for a, b in pairs):
            continue
        ok = all(by[a]["sim_ns"] <= by[b]["sim_ns"] for a, b in pairs)
        orderings.append(dict(ordering=label, holds=bool(ok)))
    errs = np.array([abs(r["error_pct"]) for r in rows]) if rows else np.zeros(0)
    worst = max(rows, key=lambda r: abs(r["error_pct"])) if rows else None
    return dict(rows=rows, mape_pct=float(errs.mean()) if len(errs) else float("nan"),
                worst=dict(name=worst["name"], error_pct=worst["error_pct"]) if worst else None,
                orderings=orderings, all_orderings_hold=all(o["holds"] for o in orderings),
                policy=policy)


def format_table(result: dict) -> str:
    lines = [f"{'kernel':18s} {'simulated ns':>12s} {'H200 ns':>10s} {'error':>8s} {'occ sim/H200':>14s} "
             f"{'long_sb% sim/H200':>18s}"]
    for r in result["rows"]:
        lines.append(f"{r['name']:18s} {r['sim_ns']:12.0f} {r['measured_ns']:10.0f} {r['error_pct']:+7.1f}% "
                     f"{r['sim_occupancy_pct']:6.1f}/{r['measured_occupancy_pct']:5.1f}  "
                     f"{r['sim_long_sb_pct']:8.1f}/{r['measured_long_sb_pct']:5.1f}")
    lines.append(f"MAPE {result['mape_pct']:.1f} %; worst {result['worst']['name']} "
                 f"{result['worst']['error_pct']:+.1f} %")
    for o in result["orderings"]:
        lines.append(f"  {'OK  ' if o['holds'] else 'FAIL'} {o['ordering']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--calibration", default=str(DEFAULT_DIR))
    ap.add_argument("--policy", default="gto", choices=["gto", "lrr"])
    ap.add_argument("--json", default=None)
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args(argv)
    res = run_validation(a.calibration, policy=a.policy, only=a.only, verbose=True)
    print(format_table(res))
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
