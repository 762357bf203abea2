"""Print results/ (the H200's counters of every pending.cu launch): store sectors and their L1
lookup hits, load sectors and theirs, L2 write sectors, kernel time.

    python table.py [results/]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/microbench
from ncu_table import launch_rows  # noqa: E402

ST = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
ST_HIT = "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum"
LD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
LD_HIT = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
WRITES = "lts__t_sectors_srcunit_tex_op_write.sum"
TIME = "gpu__time_duration.sum"


def rows(folder: Path) -> list[dict]:
    """One dict per launch: mode, delay and the counters."""
    return [{"mode": int(words[1]), "delay": int(words[3]), **values}
            for words, values in launch_rows(folder, (ST, ST_HIT, LD, LD_HIT, WRITES, TIME))]


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "results"
    print(f"{'mode':>4s} {'delay':>6s} {'st sectors':>11s} {'st hits':>8s} {'ld sectors':>11s} {'ld hits':>8s} "
          f"{'L2 writes':>10s} {'time ns':>8s}")
    for d in rows(folder):
        print(f"{d['mode']:4d} {d['delay']:6d} {d[ST]:11,.0f} {d[ST_HIT]:8,.0f} {d[LD]:11,.0f} {d[LD_HIT]:8,.0f} "
              f"{d[WRITES]:10,.0f} {d[TIME]:8,.0f}")


if __name__ == "__main__":
    main()
