"""l1_replacement's launches on the device (results/ from run.sh) beside simgpu's L1 on the same
kernels: per launch the load sectors' L1 hit rate and the share of the possible re-read hits that
were lost. simgpu runs each launch's per-SM share on a one-SM H200 (one CTA for the sweeps, k for
`chunk`), so the numbers are per SM as on the device, where every SM does the same.

    python table.py [results/] [--sim] [--pool RULE ...]
    python table.py --predict [--pool RULE ...]     (main.cu's launches, simgpu only)
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/microbench
from ncu_table import launch_fields, launch_rows  # noqa: E402

HERE = Path(__file__).resolve().parent
SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
HITS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
CARVEOUT = "launch__shared_mem_config_size"


def rows(folder: Path) -> list[dict]:
    """One dict per launch: kernel, its launches.txt fields and the counters."""
    return [{**launch_fields(words), **values}
            for words, values in launch_rows(folder, (SECTORS, HITS, CARVEOUT))]


def planned() -> list[dict]:
    """main.cu's launches (the sweeps' kernels, blocks and sizes; `chunk` at 5-8 CTAs an SM)."""
    sweeps = [("lanes_nc", 32), ("lanes_ld", 32), ("rows_ld", 32), ("rows_nc", 32), ("rows_ld", 256),
              ("lanes_ld", 256)]
    out = [{"kernel": k, "block": b, "lines": kb * 8, "rounds": 4}
           for k, b in sweeps for kb in (208, 216, 220, 224, 228, 232, 240, 256, 288)]
    out += [{"kernel": "chunk", "block": 256, "lines": k * 256, "rounds": 1} for k in range(5, 9)]
    return out + [{"kernel": "cols_ld", "block": 256, "lines": rows * 8, "rounds": 4, "cols": cols}
                  for cols in (8192, 8224) for rows in (160, 192, 208, 224, 256)]


def best_hit(d: dict) -> float:
    """The most a launch can hit, in percent of its sectors: every re-read (rounds after the first;
    `chunk`'s reads of a line but the first of each of its four sectors, 28 of 32)."""
    if d["kernel"] == "chunk":
        return 100.0 * 28 / 32
    return 100.0 * (d["rounds"] - 1) / d["rounds"]


def simulated_hit(d: dict, pool: int) -> float:
    """simgpu's L1 hit rate for one SM's share of the launch, victims chosen by the rule `pool`
    (memory.config.victim_rule_fields)."""
    import simgpu as sg
    from simgpu.memory.config import overridden, victim_rule_fields

    gpu = dataclasses.replace(sg.get_preset("h200"), num_sms=1)
    fn = sg.RawModule(code=(HERE / "kernels.cu").read_text()).get_function(d["kernel"])
    if d["kernel"] == "cols_ld":  # CTA 0's share: 8 lines of each of lines / 8 rows
        rows, cols = d["lines"] // 8, d["cols"]
        buf = sg.asarray(np.ones(rows * cols, np.float32))
        out = sg.zeros(256, np.float32)
        with overridden(**victim_rule_fields(pool)):
            report = fn((1,), (256,), (buf, np.int32(rows), np.int32(cols), np.int32(d["rounds"]), out), gpu=gpu)
    elif d["kernel"] == "chunk":
        ctas = d["lines"] // 256
        buf = sg.asarray(np.ones(ctas * 256 * 32, np.int32))
        out = sg.zeros(ctas * 256, np.int32)
        with overridden(**victim_rule_fields(pool)):
            report = fn((ctas,), (256,), (buf, np.int32(d["rounds"]), out), gpu=gpu)
    else:
        buf = sg.asarray(np.ones(d["lines"] * 32, np.int32))
        out = sg.zeros(d["block"], np.int32)
        with overridden(**victim_rule_fields(pool)):
            report = fn((1,), (d["block"],), (buf, np.int32(d["lines"]), np.int32(d["rounds"]), out), gpu=gpu)
    return float(report.metrics["l1tex__t_sector_hit_rate.pct"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path, default=HERE / "results")
    ap.add_argument("--sim", action="store_true", help="also simulate each launch (a few seconds each)")
    ap.add_argument("--predict", action="store_true", help="simulate main.cu's launches, no device results")
    ap.add_argument("--pool", type=int, nargs="+", default=[1],
                    help="victim rules to simulate: N draws among the N least recently used ways (1: LRU), "
                    "-N the same with a second chance for ways a load hit (the default, -12)")
    opts = ap.parse_args()
    sim = opts.sim or opts.predict
    print(f"{'kernel':9s} {'block':>5s} {'KB an SM':>8s} {'device hit %':>12s} {'lost %':>7s}"
          + "".join(f" {f'pool {p} hit %':>12s} {'lost %':>7s}" for p in opts.pool if sim))
    for d in planned() if opts.predict else rows(opts.folder):
        best = best_hit(d)
        line = f"{d['kernel'] + ('+' if d.get('cols', 8192) != 8192 else ''):9s} {d['block']:5d} {d['lines'] // 8:8d}"
        if opts.predict:
            line += f" {'-':>12s} {'-':>7s}"
        else:
            hit = 100.0 * d[HITS] / d[SECTORS]
            line += f" {hit:12.2f} {100.0 * (best - hit) / best:7.2f}"
        for p in opts.pool if sim else []:
            s = simulated_hit(d, p)
            line += f" {s:12.2f} {100.0 * (best - s) / best:7.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
