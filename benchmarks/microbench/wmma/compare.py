"""The counter kernels of wmma.cu on simgpu, beside what the H200 measured (results/ncu.csv).

    python benchmarks/microbench/wmma/compare.py [--engine fast|reference] [--grid 1|132]

Each kernel runs as run.sh launches it (<<<1, 32>>> and <<<132, 128>>>) on the default H200
preset; the table lists the H200 / simgpu value of every counter where either is nonzero.
smsp__sass_inst_executed_op_ldsm is simgpu's "ldsm" instruction class (ncu's own op for LDSM,
not requested in run.sh; the shared-load instruction counter leaves LDSM out on both).
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
METRICS = {
    "I_gld": "smsp__sass_inst_executed_op_global_ld.sum",
    "I_gst": "smsp__sass_inst_executed_op_global_st.sum",
    "I_sld": "smsp__sass_inst_executed_op_shared_ld.sum",
    "I_sst": "smsp__sass_inst_executed_op_shared_st.sum",
    "R_gld": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "S_gld": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "R_gst": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "S_gst": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "W_sld": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "W_sst": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "BC_sld": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
}
LOADS = [f"ld{u}_{lay}_{sp}{ldm}" for sp in ("g", "s") for u in ("a", "b") for lay in ("row", "col")
         for ldm in (16, 24)]
KERNELS = LOADS + ["ldc_f32_row_g16", "ldc_f32_col_g16", "ldc_f16_row_g16", "ldc_f16_col_g16"] + [
    f"st_{t}_{lay}_{sp}16" for sp in ("g", "s") for t in ("f32", "f16") for lay in ("row", "col")] + ["mma_f32", "mma_f16"]


def h200(path: Path = HERE / "results" / "ncu.csv") -> dict[tuple[str, int], dict[str, float]]:
    """(kernel, grid) -> {short name: value} from ncu's raw CSV."""
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    rows = list(csv.reader(lines[start:]))
    idx = {n: i for i, n in enumerate(rows[0])}
    out = {}
    for r in rows[2:]:
        grid = int(r[idx["Grid Size"]].strip("()").split(",")[0])
        out[(r[idx["Kernel Name"]], grid)] = {k: float(r[idx[m]].replace(",", "")) for k, m in METRICS.items()
                                               if m in idx}
    return out


def simulate(name: str, grid: int, engine: str = "fast", module=None):
    """The LaunchReport of one counter kernel, launched as wmma.cu's counters() does."""
    import simgpu as sg

    mod = module or sg.RawModule(code=(HERE / "wmma.cu").read_text())
    block = 32 if grid == 1 else 128
    big = 132 * 4 * 16 * 24 * 4
    k = mod.get_function(name)
    src = sg.zeros(big // 2, dtype=np.float16)
    out = sg.zeros(1024, dtype=np.float32)
    if name.startswith(("lda", "ldb")):
        args = (src, out)
    elif name.startswith("ldc"):
        args = (sg.zeros(big // 4, dtype=np.float32) if "f32" in name else src, out)
    elif name.startswith("st"):
        dst = sg.zeros(big // 4, dtype=np.float32) if "f32" in name else sg.zeros(big // 2, dtype=np.float16)
        args = (dst, np.float32(1.0))
    else:
        d = sg.zeros(big // 4, dtype=np.float32) if "f32" in name else sg.zeros(big // 2, dtype=np.float16)
        args = (src, sg.zeros(big // 2, dtype=np.float16), d)
    return k((grid,), (block,), args, engine=engine)


def main() -> None:
    import simgpu as sg

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="fast")
    ap.add_argument("--grid", type=int, choices=(1, 132), nargs="*", default=[1, 132])
    a = ap.parse_args()
    hw = h200()
    mod = sg.RawModule(code=(HERE / "wmma.cu").read_text())
    for grid in a.grid:
        for name in KERNELS:
            rep = simulate(name, grid, a.engine, mod)
            sim = {k: rep.metrics.get(m, 0.0) for k, m in METRICS.items()}
            ref = hw.get((name, grid), {})
            cells = [f"{k} {ref.get(k, float('nan')):g}/{sim[k]:g}" + ("" if ref.get(k) == sim[k] else " *")
                     for k in METRICS if sim[k] or ref.get(k)]
            print(f"{name:16s} <<<{grid},{32 if grid == 1 else 128}>>>  " + "  ".join(cells))


if __name__ == "__main__":
    main()
