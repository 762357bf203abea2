"""Print results/ (the H200's counters of every l1_policy.cu launch): load sectors, their L1 hits and
ncu's L1 hit rate.

    python table.py [results/]
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
HITS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
RATE = "l1tex__t_sector_hit_rate.pct"


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "results"
    lines = [line for line in (folder / "ncu.csv").read_text().splitlines() if line.startswith('"')]
    table = list(csv.reader(lines))
    header, data = table[0], [r for r in table[1:] if r[0].isdigit()]
    names = [line.strip() for line in (folder / "launches.txt").read_text().splitlines()]
    print(f"{'launch':26s} {'load sectors':>13s} {'L1 hits':>12s} {'hit %':>7s}")
    for name, row in zip(names, data, strict=True):
        v = {m: float(row[header.index(m)].replace(",", "")) for m in (SECTORS, HITS, RATE)}
        print(f"{name:26s} {v[SECTORS]:13,.0f} {v[HITS]:12,.0f} {v[RATE]:7.2f}")


if __name__ == "__main__":
    main()
