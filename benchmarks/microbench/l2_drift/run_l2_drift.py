#!/usr/bin/env python3
"""Build and run l2_drift.cu on the local GPU (stdlib only); see README.md.

    python3 benchmarks/microbench/l2_drift/run_l2_drift.py --out OUTDIR

1. nvcc -O3 -arch=sm_90 l2_drift.cu
2. under ncu (--clock-control none, default --cache-control all; kernels matching 'gemm'):
   every launch of the plan (l2_drift.cu main), L2 read sectors + L1 counters + duration per launch,
   %smid per CTA and, for the _t launches, the per-warp timelines of that same profiled launch
3. the same plan without ncu, the L2 flushed by a 256 MB memset before each launch
Writes OUTDIR/results.json (launches with their ncu metrics and %smid) and OUTDIR/timelines.json.gz
(per _t launch: [cta][warp][point] = [globaltimer ns, clock64]), OUTDIR/ncu.csv, OUTDIR/log.txt.
"""
from __future__ import annotations

import argparse
import array
import gzip
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "l2_merge"))
from run_l2_merge import find_ncu, num, parse_ncu_csv, results_of, sh  # noqa: E402  (the L2 merge study's helpers)

METRICS = [
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
    "l1tex__m_xbar2l1tex_read_sectors.sum",
    "gpu__time_duration.sum",
    "sm__cycles_elapsed.avg",
]
NPT = 18
LOG = []


def log(m):
    line = f"[{time.strftime('%H:%M:%S')}] {m}"
    LOG.append(line)
    print(line, flush=True)


def read_tl(path, ncta):
    a = array.array("Q")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    n = ncta * 8 * NPT
    g0 = min(a[2 * i] for i in range(n) if a[2 * i])
    out = []
    for c in range(ncta):
        cw = []
        for w in range(8):
            base = (c * 8 + w) * NPT * 2
            cw.append([[int(a[base + 2 * j]) - g0 if a[base + 2 * j] else -1, int(a[base + 2 * j + 1])]
                       for j in range(NPT)])
        out.append(cw)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    work = "/tmp/l2_drift_work"
    os.makedirs(work, exist_ok=True)
    R = {"date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "errors": [], "metrics": METRICS}
    tls = {}

    def save():
        R["log"] = LOG
        with open(os.path.join(out, "results.json"), "w") as f:
            json.dump(R, f, indent=1)
        with gzip.open(os.path.join(out, "timelines.json.gz"), "wt") as f:
            json.dump(tls, f)
        with open(os.path.join(out, "log.txt"), "w") as f:
            f.write("\n".join(LOG) + "\n")

    rc, o = sh(["nvidia-smi", "--query-gpu=name,driver_version,clocks.current.sm,clocks.current.memory",
                "--format=csv"], 30)
    R["nvidia_smi"] = o.strip()
    binary = os.path.join(work, "l2_drift")
    rc, o = sh(["nvcc", "-O3", "-arch=sm_90", "-o", binary, os.path.join(HERE, "l2_drift.cu")], 300)
    log(f"nvcc rc={rc} {o[-2000:]}")
    if rc:
        R["errors"].append("nvcc failed")
        save()
        return
    ncu = find_ncu()
    R["ncu"] = ncu
    for tag, use_ncu in (("ncu", True), ("plain", False)):
        wd = os.path.join(work, tag)
        os.makedirs(wd, exist_ok=True)
        if use_ncu:
            if not ncu:
                R["errors"].append("no ncu")
                continue
            cmd = [ncu, "--clock-control", "none", "--csv", "--page", "raw", "--print-units", "base",
                   "-k", "regex:gemm", "--metrics", ",".join(METRICS), binary, "all", wd]
        else:
            cmd = [binary, "all", wd, "flush"]
        t0 = time.time()
        rc, o = sh(cmd, 400)
        log(f"{tag}: rc={rc} {time.time() - t0:.1f}s")
        if use_ncu:
            with open(os.path.join(out, "ncu.csv"), "w") as f:
                f.write(o)
        res = results_of(o)
        rows = parse_ncu_csv(o) if use_ncu else []
        if use_ncu and len(rows) != len(res):
            R["errors"].append(f"{tag}: {len(rows)} ncu rows vs {len(res)} launches")
        for i, r in enumerate(res):
            if i < len(rows):
                r["ncu"] = {m: num(rows[i].get(m)) for m in METRICS}
            if r.get("tl_file"):
                try:
                    tls[f"{tag}_{r['idx']}"] = read_tl(r["tl_file"], len(r["smid"]))
                except Exception as e:  # noqa: BLE001
                    R["errors"].append(f"{tag} tl {r['idx']}: {e!r}")
        R[tag] = res
        for r in res:
            m = r.get("ncu", {})
            log(f"{tag} {r.get('idx')} {r.get('name')} rep{r.get('rep')} L2rd={m.get(METRICS[0])} "
                f"L1hit={m.get(METRICS[3])} t={m.get('gpu__time_duration.sum')} c00={r.get('c00')}/{r.get('c00_ref')}")
        if rc:
            log(o[-3000:])
        save()
    save()


if __name__ == "__main__":
    main()
