"""Tables of the l1_hits device runs (results/): which store sectors ncu counts as L1 hits, the
programs' L1 hits by operation, and the DRAM sectors a launch reads beyond its data (its code).

    python analyze.py [results]
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

ST = "l1tex__t_sectors_pipe_lsu_mem_global_op_st"
LD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld"


def ncu_rows(path: Path) -> list[dict[str, str]]:
    """The launches of an ncu --csv --page raw file, as dicts (numbers without thousands commas)."""
    rows = [r for r in csv.reader(path.open()) if r]
    head = next(i for i, r in enumerate(rows) if r[0] == "ID")
    def num(v: str) -> str:
        bare = v.replace(",", "")
        return bare if re.fullmatch(r"[\d.]+", bare) else v

    return [{k: num(v) for k, v in zip(rows[head], r)} for r in rows[head + 1:] if r[0].isdigit()]


def labels(path: Path) -> list[str]:
    return [line.split()[1] for line in path.open() if line.startswith("LAUNCH")]


def store_table(folder: Path) -> None:
    print(f"store hits ({folder.name}: {(folder / 'gpu.txt').read_text().strip()})")
    print(f"  {'launch':18} {'grid':>5} {'st sectors':>10} {'st hits':>8} {'st misses':>9} {'ld':>6} {'ld hits':>7}")
    for lab, r in zip(labels(folder / "store_hits_plain.txt"), ncu_rows(folder / "store_hits.csv")):
        grid = r["Grid Size"].strip("()").split(",")[0]
        print(f"  {lab:18} {grid:>5} {r[ST + '.sum']:>10} {r[ST + '_lookup_hit.sum']:>8} "
              f"{r[ST + '_lookup_miss.sum']:>9} {r[LD + '.sum']:>6} {r[LD + '_lookup_hit.sum']:>7}")


def sass_sizes(path: Path) -> dict[str, int]:
    """kernel (mangled name) -> SASS bytes, from run.sh's sass_sizes.txt."""
    out = {}
    for line in path.open():
        parts = line.split()
        out[parts[1]] = int(parts[2])
    return out


def program_table(folder: Path) -> None:
    sizes = sass_sizes(folder / "sass_sizes.txt")
    print(f"\nprograms ({(folder / 'gpu.txt').read_text().strip()}); launches in programs_ncu.py's order")
    print(f"  {'kernel':24} {'grid':>10} {'L1 %':>6} {'ld hit':>7} {'ld miss':>7} {'st hit':>7} {'st miss':>7}"
          f" {'L2 rd':>6} {'DRAM rd':>7} {'code sectors':>12}")
    for r in ncu_rows(folder / "programs.csv"):
        name = r["Kernel Name"]
        code = sizes.get(name, 0) // 32
        print(f"  {name[:24]:24} {r['Grid Size'].replace(' ', ''):>10} {r['l1tex__t_sector_hit_rate.pct']:>6} "
              f"{r[LD + '_lookup_hit.sum']:>7} {r[LD + '_lookup_miss.sum']:>7} {r[ST + '_lookup_hit.sum']:>7} "
              f"{r[ST + '_lookup_miss.sum']:>7} {r['lts__t_sectors_srcunit_tex_op_read.sum']:>6} "
              f"{r['dram__sectors_read.sum']:>7} {code:>12}")


def code_fetch_table(folder: Path) -> None:
    sizes = sass_sizes(folder / "sass_sizes.txt")
    print("\ncode_fetch.cu: kernels that read no data (DRAM sectors read vs SASS size)")
    print(f"  {'kernel':14} {'grid':>5} {'SASS B':>7} {'code sectors':>12} {'DRAM rd':>7} {'DRAM - code':>11}"
          f" {'L2 from GCC':>11}")
    for r in ncu_rows(folder / "code_fetch.csv"):
        n = re.search(r"chain<(\d+)>", r["Kernel Name"]).group(1)
        sass = sizes[f"_Z5chainILi{n}EEvPfff"]
        dram = int(r["dram__sectors_read.sum"])
        grid = r["Grid Size"].strip("()").split(",")[0]
        print(f"  chain<{n}>{'':{7 - len(n)}} {grid:>5} {sass:>7} {sass // 32:>12} {dram:>7} {dram - sass // 32:>11}"
              f" {r.get('lts__t_sectors_srcunit_gcc.sum', '-'):>11}")


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "results"
    store_table(root / "stores2")
    program_table(root / "run1")
    code_fetch_table(root / "run1")
