"""multiline.cu's launches as a table: per stride S (lines per store), stores N back to back, warps
per CTA W and CTAs per SM C, the store sectors, their L1 hits and the L2 write sectors per store
sector (1.00: every sector written as often as stored; 1/N: once).

    python multiline_table.py [RESULTS_DIR]
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

ST = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
HIT = "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum"
WR = "lts__t_sectors_srcunit_tex_op_write.sum"


def rows(folder: Path) -> list[tuple[dict, dict]]:
    text = (folder / "multiline_ncu.csv").read_text().splitlines()
    results = [json.loads(line[len("RESULT "):]) for line in text if line.startswith("RESULT ")]
    table = list(csv.reader([line for line in text if line.startswith('"')]))
    head = table[0]
    values = [r for r in table[1:] if r[head.index(ST)][:1].isdigit()]
    out = []
    for rec, r in zip(results, values):
        out.append((rec, {m: float(r[head.index(m)].replace(",", "")) for m in (ST, HIT, WR)}))
    return out


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "results")
    print(f"{'C':>2s} {'W':>2s} {'S':>3s} {'N':>2s} {'store sectors':>14s} {'L1 hits':>10s} {'L2 writes':>10s} {'writes/stored':>14s}")
    for rec, m in rows(folder):
        print(f"{rec['C']:2d} {rec['W']:2d} {rec['S']:3d} {rec['N']:2d} {m[ST]:14,.0f} {m[HIT]:10,.0f} {m[WR]:10,.0f} "
              f"{m[WR] / m[ST]:14.3f}")


if __name__ == "__main__":
    main()
