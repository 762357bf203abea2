"""pipe.cu on simgpu beside the H200 (results/ncu.csv from run.sh): the shared data pipe's total
wavefronts (l1tex__data_pipe_lsu_wavefronts_mem_shared.sum) and its bank conflicts, per launch.

    python compare.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import simgpu as sg
from simgpu.crosscheck.ncu import parse_ncu_csv

HERE = Path(__file__).parent
CTAS = 264
TOTAL = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"


def launches():
    """main()'s launches in order: (kernel, grid, block, extra args after the buffers it takes)."""
    rows = [("tid_x", 256, ()), ("tid_xy", (16, 16), ()), ("tid_xyz", (8, 8, 4), ()), ("no_tid", 256, ()),
            ("lane_id", 32, ())]
    rows += [("shuffles", 256, (n,)) for n in (0, 1, 5, 16)]
    rows += [("bars", 256, (n,)) for n in (0, 1, 8, 32)]
    rows += [("smem_bars", 256, (n,)) for n in (0, 1, 8, 32)]
    rows += [("smem_rounds", 256, (n,)) for n in (1, 8)]
    rows += [("smem_tree", 256, ()), ("smem_tree*4", 256, ())]
    for k in ("cp_async_4", "cp_async_8", "cp_async_16"):
        rows += [(k, 256, (n,)) for n in (1, 8)]
    rows += [("cp_async_rows", (16, 16), (n,)) for n in (1, 8)]
    rows += [("vote_ballot", 256, ()), ("redux_add", 256, ()), ("match_any", 256, ())]
    return rows


def measured() -> list[dict[str, float]]:
    return [{m: float(launch[m]) for m in (TOTAL, CONFLICTS)}
            for launch in parse_ncu_csv((HERE / "results" / "ncu.csv").read_text())]


def main() -> None:
    mod = sg.RawModule(code=(HERE / "pipe.cu").read_text())
    out = sg.zeros(1 << 24, dtype=np.float32)
    src = sg.zeros(1 << 24, dtype=np.float32)
    print(f"{'launch':18s} {'wavefronts simgpu':>18s} {'H200':>9s} {'error':>7s}   {'conflicts simgpu':>16s} {'H200':>8s}")
    for (name, block, extra), real in zip(launches(), measured()):
        kernel = name.split("*")[0]
        grid = CTAS * (4 if name.endswith("*4") else 1)
        args = (out, src) + tuple(np.int32(x) for x in extra) if kernel.startswith("cp_") else \
            (out,) + tuple(np.int32(x) for x in extra)
        r = mod.get_function(kernel)((grid,), block if isinstance(block, tuple) else (block,), args)
        sim, h = r.metrics[TOTAL], real[TOTAL]
        err = f"{100 * (sim - h) / h:+6.1f}%" if h else ("   0  " if sim == 0 else "  new ")
        label = f"{name}({', '.join(map(str, extra))})"
        print(f"{label:18s} {sim:18,.0f} {h:9,.0f} {err:>7s}   {r.metrics[CONFLICTS]:16,.0f} {real[CONFLICTS]:8,.0f}")


if __name__ == "__main__":
    main()
