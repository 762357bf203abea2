#!/usr/bin/env python3
"""Copies of a buffer reaching L2 when K SMs of one merge domain read it, member j delayed j*d cycles
(results/ from run.sh, l2_group.cu on the H200). Prints one table per load and cache state.

    python benchmarks/microbench/l2_group/analyze.py
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
READ = "lts__t_sectors_srcunit_tex_op_read.sum"
LOADS = (("1_32", "light: 32 sectors per SM"), ("1_128", "medium: 128 sectors per SM"),
         ("4_256", "burst: 1,024 sectors per SM"))


def load(tag: str, k: int, mode: str) -> list[tuple[int, float]]:
    """[(d, copies per group)] for one run: (L2 read sectors - the grp/lag reads - the single SMs'
    own buffers) / (groups x sectors per buffer)."""
    path = HERE / "results" / f"group_{tag}_K{k}_{mode}.csv"
    text = path.read_text()
    res = [json.loads(line[7:]) for line in text.splitlines() if line.startswith("RESULT ")]
    rows = [r for r in csv.DictReader(io.StringIO("\n".join(x for x in text.splitlines() if x.startswith('"'))))
            if r.get("Kernel Name", "").startswith("group_k")]
    out = []
    for r, row in zip(res, rows):
        l2 = float(row[READ].replace(",", ""))
        spb = r["sectors_per_buffer"]
        # every SM also read its grp and lag entries (2 sectors, before the start)
        out.append((r["delay_cycles"], (l2 - 2 * 132 - r["singles"] * spb) / (r["groups"] * spb)))
    return out


def spec_copies(name: str, mode: str) -> list[float]:
    """Copies per group, per launch, of run_specs.sh's groups specs/NAME.txt (d = 0, medium load)."""
    text = (HERE / "results" / f"spec_{name}_{mode}.csv").read_text()
    res = [json.loads(line[7:]) for line in text.splitlines() if line.startswith("RESULT ")]
    rows = [r for r in csv.DictReader(io.StringIO("\n".join(x for x in text.splitlines() if x.startswith('"'))))
            if r.get("Kernel Name", "").startswith("group_k")]
    return [(float(row[READ].replace(",", "")) - 2 * 132 - r["singles"] * r["sectors_per_buffer"])
            / (r["groups"] * r["sectors_per_buffer"]) for r, row in zip(res, rows)]


def main() -> None:
    for tag, title in LOADS:
        for mode in ("cold", "warm"):
            print(f"\n{title}, {mode} ({'DRAM' if mode == 'cold' else 'L2 hits'}): copies per group of K "
                  "(1 = fully merged, K = none)")
            table = {k: load(tag, k, mode) for k in (2, 4, 8, 16)}
            ds = [d for d, _ in table[2]]
            print("| K \\\\ d | " + " | ".join(str(d) for d in ds) + " |")
            print("| --- " * (len(ds) + 1) + "|")
            for k, row in table.items():
                print(f"| {k} | " + " | ".join(f"{c:.2f}" for _, c in row) + " |")
    print("\nSM pairs of specs/*.txt, all starting together (run_specs.sh): copies per pair, 3 launches")
    for path in sorted((HERE / "specs").glob("*.txt")):
        if (HERE / "results" / f"spec_{path.stem}_cold.csv").exists():
            cold, warm = (" ".join(f"{c:.2f}" for c in spec_copies(path.stem, m)) for m in ("cold", "warm"))
            print(f"  {path.stem:12s} cold {cold}   warm {warm}")


if __name__ == "__main__":
    main()
