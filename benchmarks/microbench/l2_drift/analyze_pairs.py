"""Copies reaching L2 per shared sector for window_pairs.cu (run_window_pairs.sh): TPC partners
against two SMs of one GPC in different TPCs, by the second SM's delay, light and burst, cold and
warm. 1.00: every pair merged; 2.00: none did.

    python analyze_pairs.py [RESULTS_DIR]
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

METRIC = "lts__t_sectors_srcunit_tex_op_read.sum"


def launches(path: Path) -> list[tuple[dict, float]]:
    """(RESULT record, L2 read sectors) per launch of one run, in launch order."""
    text = path.read_text().splitlines()
    results = [json.loads(line[len("RESULT "):]) for line in text if line.startswith("RESULT ")]
    table = [line for line in text if line.startswith('"')]
    rows = list(csv.reader(table))
    if not rows:
        return []
    col = rows[0].index(METRIC)
    values = [float(r[col].replace(",", "")) for r in rows[1:] if r[col] and r[col][0].isdigit()]
    return list(zip(results, values))


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "results")
    runs = sorted(folder.glob("window_pairs_*.csv"))
    table: dict[str, dict[int, float]] = {}
    for run in runs:
        tag = run.stem[len("window_pairs_"):]
        for rec, sectors in launches(run):
            if "error" in rec:
                print(tag, rec)
                continue
            table.setdefault(tag, {})[rec["delay_cycles"]] = sectors / (rec["pairs"] * rec["sectors_per_sm"])
    delays = sorted({d for row in table.values() for d in row})
    print(f"{'run (loads, pairing, cache)':28s}" + "".join(f"{d:>7d}" for d in delays))
    for tag in sorted(table):
        print(f"{tag:28s}" + "".join(f"{table[tag].get(d, float('nan')):7.2f}" for d in delays))


if __name__ == "__main__":
    main()
