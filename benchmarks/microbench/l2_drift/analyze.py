#!/usr/bin/env python3
"""Analysis of the l2_drift H200 runs (results/); numpy + simgpu.memory.topology. Prints:

1. L2 read sectors per launch variant (ncu), and the run-to-run spread of the exact calibration gemms;
2. drift: median / p90 |time difference| at k checkpoints 1, 4, 8, 12, 16 between pairs of CTAs, by
   relation (same SM, same TPC, same merge domain sharing A / sharing B, same or other dispatch round);
3. replay: the merge rule (domain, sector, at most 4 SMs per L2 request) applied to the H200's own
   per-warp timelines, a miss joining an in-flight request issued less than W ns earlier, vs ncu;
4. the merge window of window.cu (TPC pairs, one burst of loads, second SM delayed).

    python benchmarks/microbench/l2_drift/analyze.py [--replay]
"""
from __future__ import annotations

import gzip
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..", "..")))
from simgpu.memory.topology import H200_MERGE_DOMAINS  # noqa: E402

RES = os.path.join(HERE, "results")
L2 = "lts__t_sectors_srcunit_tex_op_read.sum"
DOM = np.zeros(132, int)
for _i, _d in enumerate(H200_MERGE_DOMAINS):
    DOM[list(_d)] = _i
CAP = 4


def load():
    R = json.load(open(os.path.join(RES, "results.json")))
    T = json.load(gzip.open(os.path.join(RES, "timelines.json.gz"), "rt"))
    W = json.load(open(os.path.join(RES, "window_results.json")))
    return R, T, W


def timeline(R, T, tag, idx):
    r = [x for x in R[tag] if x["idx"] == idx][0]
    return r, np.array(T[f"{tag}_{idx}"], dtype=np.int64)  # [cta, warp, point, (globaltimer ns, clock64)]


def counts(R, W):
    print("1. L2 read sectors (ncu lts__t_sectors_srcunit_tex_op_read.sum)")
    by = {}
    for r in R["ncu"]:
        by.setdefault(r["name"], []).append(int(r["ncu"][L2]))
    for k, v in by.items():
        print(f"   {k:18s} {v}")
    for k in ("gemm_naive", "gemm_tiled"):
        v = np.array([r["ncu"][L2] for r in W["cal_repeat"] if r["kernel"] == k])
        print(f"   {k} as calibrated (CuPy/NVRTC), {len(v)} launches: min {v.min():.0f} median {np.median(v):.0f} "
              f"max {v.max():.0f} (spread {100 * (v.max() - v.min()) / np.median(v):.1f} % of the median)")


def drift(R, T, idxs, tag="ncu"):
    print("2. |dt| between CTA pairs at checkpoints 1,4,8,12,16 (ns; median / p90); dt = first warp to reach it")
    tpc = np.arange(132) // 2
    for idx in idxs:
        r, a = timeline(R, T, tag, idx)
        sm = np.array(r["smid"])
        n = len(sm)
        gt = a[..., 0].astype(float)
        t = gt[:, :, 1:17].min(1)
        bx, by = np.arange(n) % 16, np.arange(n) // 16
        rnd = np.zeros(n, int)  # dispatch round on its SM (order of start)
        for s in range(132):
            cs = np.where(sm == s)[0]
            rnd[cs[np.argsort(gt[cs, :, 0].min(1))]] = np.arange(len(cs))
        cats: dict[str, list] = {}
        for i in range(n):
            for j in range(i + 1, n):
                if sm[i] == sm[j]:
                    c = "same SM"
                elif tpc[sm[i]] == tpc[sm[j]]:
                    c = "same TPC"
                elif DOM[sm[i]] != DOM[sm[j]]:
                    c = "other domain"
                elif by[i] == by[j]:
                    c = "domain, share A, " + ("same round" if rnd[i] == rnd[j] else "other round")
                elif bx[i] == bx[j]:
                    c = "domain, share B, " + ("same round" if rnd[i] == rnd[j] else "other round")
                else:
                    c = "domain, share nothing"
                cats.setdefault(c, []).append(np.abs(t[i] - t[j]))
        print(f"   {tag} {idx} {r['name']} (L2 {r.get('ncu', {}).get(L2)})")
        for c, v in sorted(cats.items()):
            v = np.array(v)
            pick = [0, 3, 7, 11, 15]
            print(f"      {c:32s} n={len(v):6d} median {np.median(v, 0)[pick].astype(int).tolist()} "
                  f"p90 {np.percentile(v, 90, 0)[pick].astype(int).tolist()}")


def events(r, a):
    """(time ns, SM, sector) of every warp-level sector access of the launch, times from its timeline."""
    sm = np.array(r["smid"])
    M, N, K = 16 * r["grid"][1], 256, 256
    gt = a[..., 0].astype(float)
    ev = []
    for c in range(len(sm)):
        bx, by = c % 16, c // 16
        ab = M * K if c >= r["gsplit"] else 0
        bb = (1 << 40) + (K * N if c >= r["gsplit"] else 0)
        for w in range(8):
            tw = gt[c, w, 1:17]
            rows = (by * 16 + 2 * w, by * 16 + 2 * w + 1)
            if r["tiled"]:
                for t in range(16):
                    for rr in rows:
                        e = (ab + rr * K + t * 16) // 8
                        ev += [(tw[t], sm[c], e), (tw[t], sm[c], e + 1)]
                    for kk in (t * 16 + 2 * w, t * 16 + 2 * w + 1):
                        e = (bb + kk * N + bx * 16) // 8
                        ev += [(tw[t], sm[c], e), (tw[t], sm[c], e + 1)]
            else:  # naive: checkpoints every 16 k; interpolate the time of iteration k
                tk = np.interp(np.arange(256), np.r_[np.arange(0, 256, 16), 256], np.r_[tw, gt[c, w, 17]])
                for rr in rows:
                    for j in range(32):
                        ev.append((tk[8 * j], sm[c], (ab + rr * K + 8 * j) // 8))
                for k in range(256):
                    e = (bb + k * N + bx * 16) // 8
                    ev += [(tk[k], sm[c], e), (tk[k], sm[c], e + 1)]
    ev.sort(key=lambda x: x[0])
    return ev


def replay(ev, W):
    seen, inflight, l2 = set(), {}, 0
    for t, s, sec in ev:
        if (s, sec) in seen:  # L1 hit (the SM already asked for it)
            continue
        seen.add((s, sec))
        q = inflight.get((DOM[s], sec))
        if q is not None and t - q[0] < W and q[1] < CAP:
            q[1] += 1
        else:
            inflight[(DOM[s], sec)] = [t, 1]
            l2 += 1
    return l2


def replay_scan(R, T, idxs, Ws=(1, 33, 65, 200, 1e12)):
    print(f"3. replay on the H200 timelines (globaltimer ticks are 32 ns), L2 sectors for W (ns) = {list(Ws)}")
    for idx in idxs:
        r, a = timeline(R, T, "ncu", idx)
        ev = events(r, a)
        hw = r["ncu"][L2]
        res = [replay(ev, W) for W in Ws]
        print(f"   {idx} {r['name']:18s} H200 {hw:8.0f} | " + " ".join(f"{x}({100 * (x / hw - 1):+.0f}%)" for x in res))


def window(W):
    print("4. merge window (window.cu): copies of each TPC pair's 1024 sectors reaching L2 vs delay of the odd SM")
    for tag in ("cold", "warm"):
        rows = [(r["delay_cycles"], r["ncu"][L2] / 67584, int(np.median(r["pair_dt_ns"]))) for r in W[f"window_{tag}"]]
        print(f"   {tag}: " + ", ".join(f"{d}cy/{dt}ns:{c:.2f}" for d, c, dt in rows))


if __name__ == "__main__":
    R, T, Wd = load()
    counts(R, Wd)
    drift(R, T, [24, 26, 30, 31, 32, 33])
    if "--replay" in sys.argv:
        replay_scan(R, T, [26, 27, 29, 31, 33, 35, 24, 25, 28, 30, 32, 34])
    window(Wd)
