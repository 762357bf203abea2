"""Print cas.cu's counters per case (ncu CSVs from run.sh): shared atomics (ATOMS), shared loads
(LDS) and instructions per warp-level atomic, wavefronts per ATOMS / LDS, time.

    python analyze.py results/ncu_1.csv [results/ncu_2.csv]
"""

import csv
import sys

ITERS = 16
# name, kernel, grid, block, (bins): in cas.cu's launch order
CASES = [
    ("f32_bins1", "hist_f32", 264, 256, 1), ("f32_bins8", "hist_f32", 264, 256, 8),
    ("f32_bins64", "hist_f32", 264, 256, 64), ("f32_bins1024", "hist_f32", 264, 256, 1024),
    ("f32_bins64_2warps", "hist_f32", 264, 64, 64), ("f32_bins64_32warps", "hist_f32", 132, 1024, 64),
    ("f64_bins64", "hist_f64", 264, 256, 64), ("f64_bins8", "hist_f64", 264, 256, 8),
    ("f32_warp_bins", "warp_bins_f32", 264, 256, None), ("f32_own_word", "own_word_f32", 264, 256, None),
    ("u32_bins64", "hist_u32", 264, 256, 64), ("f32_bins16_8ctas", "hist_f32", 1056, 128, 16),
]
SASS_WF_ATOM, SASS_WF_LD = ("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
                            "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
ATOMS, LDS, WF_ATOM, WF_LD, INST, TIME = (
    "smsp__sass_inst_executed_op_shared_atom.sum", "smsp__sass_inst_executed_op_shared_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__inst_executed.sum", "gpu__time_duration.sum")


def warp_atomics(grid: int, block: int) -> int:
    """Warp-level atomics a case's loop issues (the PTX's count)."""
    return grid * (block // 32) * ITERS


def rows(path):
    with open(path) as f:
        lines = [ln for ln in f if ln.startswith('"')]
    r = list(csv.DictReader(lines))
    return [x for x in r if x.get("ID", "").isdigit()]


def values(r) -> dict:
    return {k: float(r[k].replace(",", "")) for k in (ATOMS, LDS, WF_ATOM, WF_LD, INST, TIME, SASS_WF_ATOM, SASS_WF_LD)
            if r.get(k) not in (None, "", "n/a")}


def main() -> None:
    if sys.argv[1:2] == ["--sass"]:  # run_sass.sh: wavefronts per instruction, hardware and SASS-attributed
        for path in sys.argv[2:]:
            print(path)
            print(f"{'case':20s} {'ATOMS/op':>9s} {'wf/ATOMS hw':>11s} {'SASS':>6s} {'wf/LDS hw':>9s} {'SASS':>6s}")
            for (name, _, grid, block, _), r in zip(CASES, rows(path)):
                v = values(r)
                a, ld = max(v[ATOMS], 1), max(v[LDS], 1)
                print(f"{name:20s} {v[ATOMS] / warp_atomics(grid, block):9.3f} {v[WF_ATOM] / a:11.3f} "
                      f"{v[SASS_WF_ATOM] / a:6.3f} {v[WF_LD] / ld:9.3f} {v[SASS_WF_LD] / ld:6.3f}")
        return
    for path in sys.argv[1:]:
        print(path)
        print(f"{'case':20s} {'ATOMS/op':>9s} {'LDS/op':>7s} {'inst/op':>8s} {'wf/ATOMS':>9s} {'wf/LDS':>7s} {'us':>7s}")
        for (name, _, grid, block, _), r in zip(CASES, rows(path)):
            v = values(r)
            ops = warp_atomics(grid, block)
            print(f"{name:20s} {v[ATOMS] / ops:9.3f} {v[LDS] / ops:7.3f} {v[INST] / ops:8.2f} "
                  f"{v[WF_ATOM] / max(v[ATOMS], 1):9.3f} {v[WF_LD] / max(v[LDS], 1):7.3f} {v[TIME] / 1000:7.2f}")


if __name__ == "__main__":
    main()
