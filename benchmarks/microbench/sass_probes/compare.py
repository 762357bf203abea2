"""probes.cu on simgpu against the H200 (results/ncu.csv from run.sh): instruction, wavefront,
request and sector counts side by side, the ones that differ marked.

    python compare.py
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np

import simgpu as sg

HERE = Path(__file__).parent
N = 128
METRICS = [  # (column, ncu metric)
    ("sh ld inst", "smsp__sass_inst_executed_op_shared_ld.sum"),
    ("sh ld wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("sh st inst", "smsp__sass_inst_executed_op_shared_st.sum"),
    ("sh st wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("sh atom inst", "smsp__sass_inst_executed_op_shared_atom.sum"),
    ("sh atom wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"),
    ("gl ld inst", "smsp__sass_inst_executed_op_global_ld.sum"),
    ("gl ld sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("gl st inst", "smsp__sass_inst_executed_op_global_st.sum"),
    ("gl st sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("loc ld inst", "smsp__sass_inst_executed_op_local_ld.sum"),
    ("loc st inst", "smsp__sass_inst_executed_op_local_st.sum"),
    ("L1 hit %", "l1tex__t_sector_hit_rate.pct"),
    ("regs", "launch__registers_per_thread"),
]


def launches():
    """The launches of probes.cu's main(), in order: (kernel, args)."""
    f = sg.zeros(1 << 18, dtype=np.float32)
    g = sg.zeros(1 << 18, dtype=np.float32)
    d = sg.zeros(1 << 17, dtype=np.float64)
    ia = sg.zeros(1 << 18, dtype=np.int32)
    ib = sg.zeros(1 << 18, dtype=np.int32)
    one = np.float32(1.0)
    return [("st_shared_4", (g, one)), ("st_shared_2", (g, one)), ("ld_shared_sym", (g, one)),
            ("ld_shared_unaligned", (g, one)), ("ld_global_4", (f, g)), ("st_global_4", (g, one)),
            ("ld_shared_bytes", (g, np.int32(1))), ("ld_shared_bytes", (g, np.int32(4))),
            ("ld_shared_bytes", (g, np.int32(5))), ("ld_shared_double", (d, np.int32(1))),
            ("ld_shared_double", (d, np.int32(2))), ("ld_shared_double", (d, np.int32(16))),
            ("warp_reduce_volatile", (g, f)), ("shared_atomics", (ib, ia, np.int32(7))),
            ("local_array", (g, ia)), ("ld_shared_loop", (g, np.int32(64))), ("ld_shared_2d", (g, one))]


def measured(path: Path) -> list[dict[str, str]]:
    rows = [r for r in csv.reader(path.open()) if r]
    head = next(i for i, r in enumerate(rows) if r[0] == "ID")
    return [dict(zip(rows[head], r)) for r in rows[head + 1:] if r[0].isdigit()]


def main() -> int:
    mod = sg.RawModule(code=(HERE / "probes.cu").read_text())
    real = measured(HERE / "results" / "ncu.csv")
    differ = 0
    print(f"{'kernel':22} " + " ".join(f"{c:>12}" for c, _ in METRICS))
    for (name, args), r in zip(launches(), real):
        rep = mod.get_function(name)((1,), (N,), args, timing=False)
        cells = []
        for _, m in METRICS:
            sim, h200 = rep.metrics.get(m, 0.0), float(r[m].replace(",", ""))
            same = abs(sim - h200) < 0.5 if m.endswith(".sum") else abs(sim - h200) < 1.0
            differ += m.endswith(".sum") and not same
            cells.append(f"{sim:g}" if same else f"{sim:g}|{h200:g}")
        print(f"{name:22} " + " ".join(f"{c:>12}" for c in cells))
    print(f"\nsimulated|H200 where they differ; {differ} counter(s) differ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
