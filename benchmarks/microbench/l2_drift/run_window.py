#!/usr/bin/env python3
"""Second device run for issue 3 (stdlib + the run_l2_drift helpers); see README.md.

    python3 benchmarks/microbench/l2_drift/run_window.py --out OUTDIR --kernels PATH/TO/calibration/kernels.cu

1. window.cu under ncu, cold caches (ncu flushes) and warm L2 (--cache-control none, buffers pre-read
   with ld.cg): L2 read sectors for a sweep of delays of the odd SM of every TPC pair
2. cal_repeat.py (CuPy/NVRTC, the calibration gemms as calibrated) under ncu: REPS launches each
Writes OUTDIR/window_results.json, OUTDIR/ncu_window.csv, OUTDIR/ncu_cal_repeat.csv, OUTDIR/window_log.txt.
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_l2_drift import LOG, find_ncu, log, num, parse_ncu_csv, results_of, sh  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
M = ["lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
     "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", "l1tex__m_xbar2l1tex_read_sectors.sum",
     "gpu__time_duration.sum"]
DELAYS = [0, 0, 25, 50, 75, 100, 150, 200, 300, 400, 600, 800, 1200, 1600, 3200, 6400, 0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--reps", type=int, default=8)
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    R = {"date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "metrics": M, "errors": []}
    ncu = find_ncu()
    binary = "/tmp/l2_window"
    rc, o = sh(["nvcc", "-O3", "-arch=sm_90", "-o", binary, os.path.join(HERE, "window.cu")], 300)
    log(f"nvcc rc={rc} {o[-1500:]}")
    csvs = []
    for tag, extra, args in (("cold", [], []), ("warm", ["--cache-control", "none"], ["warm"])):
        cmd = [ncu, "--clock-control", "none", "--csv", "--page", "raw", "--print-units", "base", "-k", "regex:window_k",
               "--metrics", ",".join(M), binary, ",".join(map(str, DELAYS))] + args
        cmd[1:1] = extra
        rc, o = sh(cmd, 200)
        csvs.append(o)
        res, rows = results_of(o), parse_ncu_csv(o)
        for i, r in enumerate(res):
            if i < len(rows):
                r["ncu"] = {m: num(rows[i].get(m)) for m in M}
            d = sorted(r.get("pair_dt_ns", [0]))
            l2 = r.get("ncu", {}).get(M[0])
            log(f"window {tag} delay={r.get('delay_cycles')} L2rd={l2} copies={(l2 or 0) / 67584:.3f} "
                f"pair dt ns median={d[len(d) // 2]} min={d[0]} max={d[-1]}")
        R[f"window_{tag}"] = res
        if rc:
            log(f"rc={rc} {o[-2000:]}")
    with open(os.path.join(out, "ncu_window.csv"), "w") as f:
        f.write("\n".join(csvs))
    cmd = [ncu, "--clock-control", "none", "--csv", "--page", "raw", "--print-units", "base", "-k", "regex:gemm",
           "--metrics", ",".join(M + ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"]),
           "python3", os.path.join(HERE, "cal_repeat.py"), a.kernels, str(a.reps)]
    rc, o = sh(cmd, 300)
    with open(os.path.join(out, "ncu_cal_repeat.csv"), "w") as f:
        f.write(o)
    res, rows = results_of(o), parse_ncu_csv(o)
    for i, r in enumerate(res):
        if i < len(rows):
            r["ncu"] = {m: num(rows[i].get(m)) for m in M}
        log(f"cal {r.get('kernel')} rep{r.get('rep')} L2rd={r.get('ncu', {}).get(M[0])} t={r.get('ncu', {}).get(M[-1])}")
    R["cal_repeat"] = res
    if rc:
        log(f"rc={rc} {o[-2000:]}")
    R["log"] = LOG
    with open(os.path.join(out, "window_results.json"), "w") as f:
        json.dump(R, f, indent=1)
    with open(os.path.join(out, "window_log.txt"), "w") as f:
        f.write("\n".join(LOG) + "\n")


if __name__ == "__main__":
    main()
