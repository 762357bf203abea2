"""Print results/ (the H200's counters of every l1_policy.cu launch): load sectors, their L1 hits and
ncu's L1 hit rate.

    python table.py [results/]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/microbench
from ncu_table import launch_rows  # noqa: E402

SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
HITS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
RATE = "l1tex__t_sector_hit_rate.pct"


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "results"
    print(f"{'launch':26s} {'load sectors':>13s} {'L1 hits':>12s} {'hit %':>7s}")
    for words, v in launch_rows(folder, (SECTORS, HITS, RATE)):
        print(f"{' '.join(words):26s} {v[SECTORS]:13,.0f} {v[HITS]:12,.0f} {v[RATE]:7.2f}")


if __name__ == "__main__":
    main()
