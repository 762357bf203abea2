"""l1_recency's launches on the device (results/ from run.sh), and simgpu's L1 on the same kernels:
per (reads of A, stream size) the share of A's and of B's last re-reads that hit. simgpu runs each
launch's per-SM share (one CTA) on a one-SM H200, so the numbers are per SM as on the device.

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
FIELDS = ("a", "a_reps", "b", "s", "last")


def rows(folder: Path) -> list[dict]:
    """One dict per launch: its launches.txt fields and the counters, the hits per SM."""
    out = []
    for words, values in launch_rows(folder, (SECTORS, HITS)):
        d = launch_fields(words)  # kernel: phases, or phases_stored (run_store.sh: `a_reps` counts A's stores)
        d["hits"] = values[HITS] / d["grid"]
        out.append(d)
    return out


def planned() -> list[dict]:
    """main.cu's launches."""
    return [{"a": 512, "a_reps": reps, "b": 512, "s": kb * 8, "last": last}
            for reps in (1, 4) for kb in (32, 64, 80, 96, 112, 128, 160) for last in range(3)]


def simulated_hits(d: dict, pool: int) -> float:
    """simgpu's L1 load hit sectors for one SM's share (one CTA) of the launch."""
    import simgpu as sg
    from simgpu.memory.config import overridden, victim_rule_fields

    gpu = dataclasses.replace(sg.get_preset("h200"), num_sms=1)
    fn = sg.RawModule(code=(HERE / "kernels.cu").read_text()).get_function(d.get("kernel", "phases"))
    buf = sg.asarray(np.ones((d["a"] + d["b"] + d["s"]) * 32, np.int32))
    with overridden(**victim_rule_fields(pool)):
        report = fn((1,), (32,), (buf, *(np.int32(d[k]) for k in FIELDS), sg.zeros(32, np.int32)), gpu=gpu)
    return float(report.metrics[HITS])


def last_phase(launches: list[dict], key: str) -> dict[tuple[int, int], tuple[float, float]]:
    """Per (a_reps, s): percent of A's and of B's last re-reads that hit, from the launch's `key`
    hits less those of the same launch without the last phase."""
    by = {(d["a_reps"], d["s"], d["last"]): d for d in launches}
    out = {}
    for (reps, s, last), d in by.items():
        if last == 0:
            base = d[key]
            out[(reps, s)] = tuple(100.0 * (by[(reps, s, k)][key] - base) / by[(reps, s, k)][n]
                                   for k, n in ((1, "a"), (2, "b")))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path, default=HERE / "results")
    ap.add_argument("--sim", action="store_true", help="also simulate each launch")
    ap.add_argument("--predict", action="store_true", help="simulate main.cu's launches, no device results")
    ap.add_argument("--pool", type=int, nargs="+", default=[-11],
                    help="victim rules to simulate: N draws among the N least recently used ways (1: LRU), "
                    "-N the same with a second chance for ways a load hit (the default, -11)")
    opts = ap.parse_args()
    launches = planned() if opts.predict else rows(opts.folder)
    cols = [] if opts.predict else [("device", "hits")]
    for p in opts.pool if opts.sim or opts.predict else []:
        for d in launches:
            d[f"pool {p}"] = simulated_hits(d, p)
        cols.append((f"pool {p}", f"pool {p}"))
    tables = {name: last_phase(launches, key) for name, key in cols}
    print(f"{'A reads':>7s} {'S KB':>5s} {'A+B+S KB':>8s}"
          + "".join(f" {name + ' A %':>13s} {'B %':>6s}" for name, _ in cols))
    for reps, s in sorted(next(iter(tables.values()))):
        d = next(x for x in launches if x["a_reps"] == reps and x["s"] == s)
        line = f"{reps:7d} {s // 8:5d} {(d['a'] + d['b'] + s) // 8:8d}"
        for name, _ in cols:
            a_hit, b_hit = tables[name][(reps, s)]
            line += f" {a_hit:13.2f} {b_hit:6.2f}"
        print(line, flush=True)
    if cols and cols[0][0] == "device":
        dev = tables["device"]
        for name, _ in cols[1:]:
            err = [abs(x - y) for k in dev for x, y in zip(tables[name][k], dev[k])]
            print(f"{name}: mean |simgpu - device| {np.mean(err):.2f} points over {len(err)} re-reads")


if __name__ == "__main__":
    main()
