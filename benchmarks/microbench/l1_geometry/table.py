"""Print results/ (the H200's counters of every geometry.cu launch): per launch what it swept, the
carveout the driver chose, the L1 it leaves (256 KB - carveout), and the load sectors' L1 hit rate
against the most a sweep of `rounds` rounds can hit (every round after the first).

    python table.py [results/]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/microbench
from ncu_table import launch_fields, launch_rows  # noqa: E402

SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
HITS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
CARVEOUT = "launch__shared_mem_config_size"
ROUNDS = 4  # geometry.cu


def rows(folder: Path) -> list[dict]:
    """One dict per launch: its launches.txt fields and the three counters."""
    return [{**launch_fields(words, "what"), **values}
            for words, values in launch_rows(folder, (SECTORS, HITS, CARVEOUT))]


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "results"
    best = 100.0 * (ROUNDS - 1) / ROUNDS
    print(f"{'sweep':9s} {'carveout KB':>11s} {'L1 KB':>6s} {'base':>6s} {'KB':>4s} {'stride':>7s} "
          f"{'sectors':>10s} {'hit %':>7s} {'lost %':>7s}")
    for d in rows(folder):
        carve = d[CARVEOUT] / 1024
        hit = 100.0 * d[HITS] / d[SECTORS]
        lost = 100.0 * (best - hit) / best  # share of the re-reads that missed
        print(f"{d['what']:9s} {carve:11.0f} {256 - carve:6.0f} {d['base']:6d} {d['lines'] // 8:4d} "
              f"{d['stride']:7d} {d[SECTORS]:10,.0f} {hit:7.2f} {lost:7.2f}")


if __name__ == "__main__":
    main()
