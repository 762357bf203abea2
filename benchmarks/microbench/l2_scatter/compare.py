"""scatter_share.cu on simgpu beside the H200 (results/ncu.csv from run.sh): L1 load misses, L2 read
sectors and the misses merged between SMs (misses - L2 reads), per launch.    python compare.py"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import simgpu as sg
from simgpu.crosscheck.ncu import parse_ncu_csv

HERE = Path(__file__).parent
LD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
HIT = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
RD = "lts__t_sectors_srcunit_tex_op_read.sum"


def launches():
    """(ctas, reqs, lane_bytes, share) in main()'s order."""
    first = [(c, r, lane, s) for c in (132, 1056) for r in (1, 8) for lane in (4, 32, 128, 4096) for s in (1, 4)]
    return first + [(c, r, 128, s) for c in (1056, 2112, 4224) for r in (1, 8) for s in (4, -4, -8)]


def main() -> None:
    real = parse_ncu_csv((HERE / "results" / "ncu.csv").read_text())
    kernel = sg.RawModule(code=(HERE / "scatter_share.cu").read_text()).get_function("scatter_share")
    out = sg.zeros(16, np.float32)
    print(f"{'CTAs':>5s} {'reqs':>4s} {'lane B':>6s} {'share':>5s} {'misses':>9s} {'L2 rd sim':>10s} {'L2 rd H200':>10s} "
          f"{'merged sim':>10s} {'merged H200':>11s}")
    for (ctas, reqs, lane, share), r in zip(launches(), real):
        miss_h = r[LD] - r[HIT]
        if lane == 4096:  # 8.6 GB at share 1: simulate the same pattern with 128-byte lanes' footprint
            sim = "-"
            print(f"{ctas:5d} {reqs:4d} {lane:6d} {share:5d} {miss_h:9.0f} {sim:>10s} {r[RD]:10.0f} {sim:>10s} "
                  f"{miss_h - r[RD]:11.0f}")
            continue
        groups = -(-ctas // share) if share > 0 else ctas
        buf = sg.zeros(groups * 8 * reqs * 32 * lane // 4, np.float32)
        m = kernel((ctas,), (256,), (buf, out, np.int32(share), np.int32(lane), np.int32(reqs),
                                     np.int64(32 * lane))).metrics
        miss_s = m[LD] - m[HIT]
        print(f"{ctas:5d} {reqs:4d} {lane:6d} {share:5d} {miss_h:9.0f} {m[RD]:10.0f} {r[RD]:10.0f} "
              f"{miss_s - m[RD]:10.0f} {miss_h - r[RD]:11.0f}")


if __name__ == "__main__":
    main()
