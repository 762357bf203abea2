"""Print results/drift.json (H200) beside results/sim_drift_*.json (simgpu) as a table."""
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
runs = {"H200": json.loads((HERE / "results" / "drift.json").read_text())}
for p in sorted((HERE / "results").glob("sim_drift_*.json")):
    d = json.loads(p.read_text())
    runs[f"simgpu {d['policy']}"] = d
for kernel in ("wmma_drift", "rows_drift"):
    steps = runs["H200"][kernel]["steps"]
    print(f"\n{kernel}: spread of an SM's warps (and of a CTA's) at step s, in median step durations")
    print("| run | step cycles | L1 hit % | " + " | ".join(f"SM s={s}" for s in steps) + " | "
          + " | ".join(f"CTA s={s}" for s in steps) + " |")
    print("|---" * (3 + 2 * len(steps)) + "|")
    for name, d in runs.items():
        r = d[kernel]
        hit = r.get("l1_hit_rate_pct")
        print(f"| {name} | {r['step_cycles_median']:.0f} | {'' if hit is None else f'{hit:.2f}'} | "
              + " | ".join(f"{v:.1f}" for v in r["sm_spread_median"]) + " | "
              + " | ".join(f"{v:.1f}" for v in r["cta_spread_median"]) + " |")
