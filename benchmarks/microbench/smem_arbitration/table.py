"""Print results/ (the H200's ncu counters of every arb.cu launch) as a table: per launch the shared
load and store wavefronts ncu attributes to the SASS instructions, the hardware counters' extra
wavefronts beyond them and the bank conflicts ncu reports (all accesses here are conflict-free
except lds_2way's own 2-way loads), the other pipe traffic and the duration.

    python table.py [results/]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/microbench
from ncu_table import launch_rows  # noqa: E402

COLUMNS = {  # short name -> ncu metric
    "ld sass": "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "ld extra": None, "ld confl": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "st sass": "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "st extra": None, "st confl": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "misc": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_misc.sum",
    "lgds": "l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum", "us": "gpu__time_duration.sum",
}
HW = {"ld extra": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "ld sass"),
      "st extra": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "st sass")}


def rows(folder: Path) -> list[tuple[str, dict[str, float]]]:
    """(launch description, {short name: value}) per profiled launch, in launch order."""
    metrics = tuple(m for m in COLUMNS.values() if m) + tuple(hw for hw, _ in HW.values())
    out = []
    for words, raw in launch_rows(folder, metrics):
        v = {k: raw[m] for k, m in COLUMNS.items() if m}
        for k, (hw, sass) in HW.items():
            v[k] = raw[hw] - v[sass]
        v["us"] /= 1000.0
        out.append((" ".join(words[2:]), v))
    return out


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "results"
    print(f"{'launch':52s}" + "".join(f"{k:>11s}" for k in COLUMNS))
    for name, v in rows(folder):
        print(f"{name[:52]:52s}" + "".join(f"{v[k]:11,.0f}" if k != "us" else f"{v[k]:11.1f}" for k in COLUMNS))


if __name__ == "__main__":
    main()
