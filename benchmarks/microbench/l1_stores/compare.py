"""stores.cu on simgpu against the H200 (results/ncu_*.csv from run.sh): store sectors, store L1
lookup hits and L2 write sectors, side by side.    python compare.py"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import simgpu as sg
from simgpu.crosscheck.ncu import parse_ncu_csv

HERE = Path(__file__).parent
CTAS, THREADS = 1024, 256
COLS = [("st sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
        ("st hit", "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum"),
        ("L2 wr", "lts__t_sectors_srcunit_tex_op_write.sum"),
        ("L1 hit %", "l1tex__t_sector_hit_rate.pct")]


def launches():
    """(label, kernel, grid, args) in main()'s order."""
    buf = sg.zeros(CTAS * THREADS * 4, dtype=np.float32)
    out = [("rmw_short", "rmw_short", CTAS, (buf,)), ("rmw_float", "rmw_float", CTAS, (buf,)),
           ("rmw_short2", "rmw_short2", CTAS, (buf,)), ("rmw_short_apart", "rmw_short_apart", CTAS, (buf,))]
    for where, name in enumerate(["same sector", "own sector", "own line", "same sector, in turn"]):
        out.append((f"one_lane {name}", "one_lane", CTAS, (buf, np.int32(where))))
    out += [("four_stores", "four_stores", CTAS // 4, (buf, np.int32(0))),
            ("four_stores spin", "four_stores", CTAS // 4, (buf, np.int32(2000)))]
    return out


def main() -> None:
    runs = [parse_ncu_csv((HERE / "results" / f"ncu_{r}.csv").read_text()) for r in (1, 2)]
    mod = sg.RawModule(code=(HERE / "stores.cu").read_text())
    print(f"{'launch':24s}" + "".join(f"{c:>26s}" for c, _ in COLS) + "   (simgpu | H200 run 1, run 2)")
    for i, (label, kernel, grid, args) in enumerate(launches()):
        m = mod.get_function(kernel)((grid,), (THREADS,), args).metrics
        cells = []
        for _, metric in COLS:
            real = [r[i][metric] for r in runs]
            cells.append(f"{m[metric]:g} | {real[0]:g}, {real[1]:g}")
        print(f"{label:24s}" + "".join(f"{c:>26s}" for c in cells))


if __name__ == "__main__":
    main()
