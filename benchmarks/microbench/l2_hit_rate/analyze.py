#!/usr/bin/env python3
"""Print the tables of README.md from results/: what lts__t_sector_hit_rate.pct is made of on the H200
(L2 sectors by source unit and operation, profile.py), simgpu's partition model beside it, and the
L1 size sweep (l1_size.cu).

    python analyze.py [--sim]      # --sim: also simgpu's counters for the same launches (~1 min)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "validation"))
sys.path.insert(0, str(HERE.parents[2]))
from simgpu.crosscheck.ncu import parse_ncu_csv  # noqa: E402

P = "lts__t_sectors_"


def num(m: dict, key: str) -> float:
    try:
        return float(str(m.get(key)).replace(",", ""))
    except ValueError:
        return float("nan")


def composition(sim: dict | None) -> None:
    data = json.loads((HERE / "results" / "l2_units.json").read_text())
    print(f"H200: {data['gpu']}")
    print(f"{'launch':18s} {'hit %':>6s} | {'tex':>9s} {'hit':>9s} | {'fabric rd':>9s} {'hit':>7s} {'fab wr':>7s} "
          f"{'hit':>7s} {'fab membar':>10s} | {'other':>7s} {'gcc':>5s} | {'rd hit %':>8s} {'simgpu':>7s} "
          f"{'hit %':>6s} {'simgpu':>6s}")
    for launch in data["launches"]:
        m = launch["metrics"]

        def g(k, m=m):
            return num(m, P + k + ".sum")
        fab, f_rd, f_wr = g("srcunit_ltcfabric"), g("srcunit_ltcfabric_op_read"), g("srcunit_ltcfabric_op_write")
        other = num(m, "lts__t_sectors.sum") - g("srcunit_tex") - fab - g("srcunit_gcc")
        rd_hit = 100 * (g("srcunit_tex_op_read_lookup_hit") + g("srcunit_ltcfabric_op_read_lookup_hit")) / max(
            1.0, g("srcunit_tex_op_read") + f_rd)
        s = (sim or {}).get(launch["spec"], {})
        print(f"{launch['spec']:18s} {num(m, 'lts__t_sector_hit_rate.pct'):6.2f} | {g('srcunit_tex'):9.0f} "
              f"{g('srcunit_tex_lookup_hit'):9.0f} | {f_rd:9.0f} {g('srcunit_ltcfabric_op_read_lookup_hit'):7.0f} "
              f"{f_wr:7.0f} {g('srcunit_ltcfabric_op_write_lookup_hit'):7.0f} {fab - f_rd - f_wr:10.0f} | "
              f"{other:7.0f} {g('srcunit_gcc'):5.0f} | {rd_hit:8.2f} "
              f"{s.get('lts__t_sector_op_read_hit_rate.pct', float('nan')):7.2f} "
              f"{num(m, 'lts__t_sector_hit_rate.pct'):6.2f} {s.get('lts__t_sector_hit_rate.pct', float('nan')):6.2f}")


def simulate() -> dict:
    """simgpu's L2 counters for the profiled launches (first launch of each spec)."""
    sys.path.insert(0, str(HERE.parents[2] / "validation"))
    sys.path.insert(0, str(HERE.parents[2]))
    from profile import TARGETS

    from l2_reads import SUITES

    from simgpu.crosscheck import crosscheck

    out = {}
    for suite, names in TARGETS.items():
        rep = crosscheck(suite=SUITES[suite][0], specs=names, real=False, all_metrics=True, echo=None)
        for case in rep.cases:
            out[case.name] = {x.metric: x.simulated for x in case.launches[0].metrics}
    return out


def ncu_rows(name: str) -> list[dict]:
    """The metrics of each launch in results/NAME (ncu --csv --page raw), in launch order."""
    return [launch.metrics for launch in parse_ncu_csv((HERE / "results" / name).read_text())]


def l1_sweep() -> None:
    rows = ncu_rows("l1_size_ncu.csv")
    launches = [ln.split() for ln in (HERE / "results" / "l1_size_launches.txt").read_text().splitlines()
                if ln[:1].isdigit()]
    table: dict[tuple, dict] = {}
    for r, (lines, stride, _, smem) in zip(rows, launches):
        key = (int(stride), int(smem), int(r["launch__shared_mem_config_size"]))
        table.setdefault(key, {})[int(lines) * 128 // 1024] = float(r["l1tex__t_sector_hit_rate.pct"])
    sizes = sorted({k for v in table.values() for k in v})
    print("\nL1 hit % of a 132-SM sweep, 8 rounds (87.5 = every round after the first hits)")
    print(f"{'stride B':>8s} {'dyn smem':>8s} {'carve-out':>9s} | " + " ".join(f"{s:>5d}K" for s in sizes))
    for (stride, smem, cfg), v in table.items():
        print(f"{stride:8d} {smem:8d} {int(cfg) // 1024:8d}K | " + " ".join(f"{v.get(s, float('nan')):6.2f}" for s in sizes))


def carveouts() -> None:
    """carveout.cu: the driver's carveout per launch beside results/carveout_predicted.txt (the first
    rule, written before the run) and simgpu's driver_carveout now."""
    from simgpu.memory.config import MemoryConfig

    rows = ncu_rows("carveout_ncu.csv")
    launches = [ln.split() for ln in (HERE / "results" / "carveout_launches.txt").read_text().splitlines()
                if ln[:1].isdigit()]
    before = {(int(a), int(b)): int(c) for a, b, c in
              (ln.split() for ln in (HERE / "results" / "carveout_predicted.txt").read_text().splitlines()
               if ln[:1].isdigit())}
    cfg = MemoryConfig()
    hits_before = hits_now = 0
    print("\ncarveout.cu: threads, dynamic shared bytes -> H200 / predicted before the run / simgpu now (KB)")
    for r, (t, sh) in zip(rows, launches):
        t, sh = int(t), int(sh)
        ctas = min(int(r[f"launch__occupancy_limit_{k}"]) for k in ("registers", "warps", "blocks"))
        real = int(r["launch__shared_mem_config_size"]) // 1024
        now = cfg.driver_carveout(sh, t, ctas, 2048, 32) // 1024
        hits_before += before[(t, sh)] == real
        hits_now += now == real
        if now != real:
            print(f"  {t:5d} {sh:6d} -> {real:4d} / {before[(t, sh)]:4d} / {now:4d}")
    print(f"  reproduced: {hits_before} of {len(rows)} before the run, {hits_now} now")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", action="store_true", help="simulate the launches too")
    a = ap.parse_args()
    composition(simulate() if a.sim else None)
    l1_sweep()
    carveouts()
