#!/usr/bin/env python3
"""Build and run the L2 request-merge microbenchmarks (l2_merge.cu) on the local GPU; stdlib only.

    python3 benchmarks/microbench/l2_merge/run_l2_merge.py --out OUTDIR

Steps (each one may fail without stopping the rest; errors go into results.json):
  1. nvcc -O3 -arch=sm_90 l2_merge.cu
  2. ncu --query-metrics (which of the wanted metric names exist on this chip)
  3. topo: cluster launches of 2/4/8/16 CTAs, one CTA per SM -> TPC pairs (size 2) and GPCs (union of
     the SMs that ever shared a cluster)
  4. dispatch: %smid per CTA for the calibration launch shapes and the two calibration gemms
  5. share (cold caches, ncu default --cache-control all): one launch per placement config, each SM
     reading the 64 KB buffer of its group; groups chosen from the topology
  6. share (warm L2: --cache-control none, every buffer read into L2 with ld.cg just before)
  7. the two calibration gemms under ncu (same metrics)
Writes OUTDIR/results.json (+ raw ncu CSVs, log) and prints a summary.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "l2_merge.cu")
NSM = 132
SMS = list(range(NSM))  # the %smid values seen (set by topology())
SECTORS_PER_CTA = 2048

WANTED = [
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_requests_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
    "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
    "l1tex__t_sector_hit_rate.pct",
    "l1tex__m_xbar2l1tex_read_sectors.sum",
    "l1tex__m_l1tex2xbar_req.sum",
    "lts__t_sectors_srcunit_ltcfabric.sum",
    "lts__t_sectors_op_read.sum",
    "lts__t_requests_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_atom.sum",
    "lts__t_sectors_srcnode_gpc_op_read.sum",
    "lts__t_sector_hit_rate.pct",
    "dram__bytes_read.sum",
    "gpu__time_duration.sum",
]
CORE = ["lts__t_sectors_srcunit_tex_op_read.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sector_hit_rate.pct", "dram__bytes_read.sum"]

LOG: list[str] = []


def log(msg):
    line = f"[{time.strftime('%H:%M:%S')}] {msg}"
    LOG.append(line)
    print(line, flush=True)


def sh(cmd, timeout=300):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, text=True)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        return 124, (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    except Exception as e:  # noqa: BLE001
        return 127, repr(e)


def results_of(text):
    out = []
    for line in text.splitlines():
        if line.startswith("RESULT "):
            try:
                out.append(json.loads(line[7:]))
            except json.JSONDecodeError as e:
                out.append({"bad_json": line[:200], "error": str(e)})
    return out


def find_ncu():
    c = shutil.which("ncu")
    if c:
        return c
    import glob
    for pat in ("/usr/local/cuda*/bin/ncu", "/opt/nvidia/nsight-compute/*/ncu"):
        g = sorted(glob.glob(pat))
        if g:
            return g[-1]
    return None


def parse_ncu_csv(text):
    """Rows (dicts) of ncu --csv --page raw output; app lines are skipped."""
    lines = [l for l in text.splitlines() if l.startswith('"')]
    if not lines:
        return []
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    header = rows[0]
    out = []
    for r in rows[1:]:
        if len(r) != len(header):
            continue
        d = dict(zip(header, r))
        if d.get("ID", "").strip().isdigit():
            out.append(d)
    return out


def num(s):
    try:
        return float(str(s).replace(",", ""))
    except ValueError:
        return None


# ------------------------------------------------------------------------------------------------ topology
def union_find_groups(clusters, n):
    parent = list(range(n))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a
    seen = set()
    for c in clusters:
        c = [s for s in c if 0 <= s < n]
        seen.update(c)
        for s in c[1:]:
            ra, rb = find(c[0]), find(s)
            if ra != rb:
                parent[rb] = ra
    groups = {}
    for s in sorted(seen):
        groups.setdefault(find(s), []).append(s)
    return sorted(groups.values(), key=lambda g: g[0])


def topology(topo_results, dispatch_results=()):
    global NSM, SMS
    seen = set()
    for r in list(topo_results) + list(dispatch_results):
        if not r.get("err"):
            seen.update(s for s in r.get("smid", []) if s >= 0)
    if len(seen) >= 100:
        SMS = sorted(seen)
        NSM = len(SMS)
    pairs, big = [], []
    for r in topo_results:
        if r.get("exp") != "topo" or r.get("err"):
            continue
        cs, sm = r["cluster"], r["smid"]
        cl = [sm[i:i + cs] for i in range(0, len(sm), cs)]
        cl = [c for c in cl if all(s >= 0 for s in c)]
        if cs == 2:
            pairs += [tuple(sorted(c)) for c in cl]
        big += cl
    tpcs = sorted(set(pairs))
    ok_tpc = len(tpcs) == NSM // 2 and sorted(s for p in tpcs for s in p) == SMS
    if not ok_tpc:
        tpcs = [(SMS[2 * k], SMS[2 * k + 1]) for k in range(NSM // 2)]
    gpcs = union_find_groups(big + [list(p) for p in pairs if ok_tpc], max(SMS) + 1)
    ok_gpc = sum(len(g) for g in gpcs) == NSM and 4 <= len(gpcs) <= 12
    return {"sms": SMS, "tpcs": [list(p) for p in tpcs], "tpc_from_clusters": ok_tpc, "gpcs": gpcs, "gpc_ok": ok_gpc}


# ------------------------------------------------------------------------------------------------ configs
def make_config(name, groups, delays=None):
    """groups: list of SM lists that share one buffer; every other SM gets a private buffer."""
    n = max(SMS) + 1
    g = [-1] * n
    nxt = 0
    for grp in groups:
        for s in grp:
            g[s] = nxt
        nxt += 1
    for s in SMS:
        if g[s] < 0:
            g[s] = nxt
            nxt += 1
    g = [max(0, x) for x in g]
    d = [0] * n
    for s, c in (delays or {}).items():
        d[s] = int(c)
    return {"name": name, "groups": g, "delays": d, "shared_groups": [list(x) for x in groups],
            "expected_no_merge": NSM * SECTORS_PER_CTA,
            "expected_full_merge": (nxt) * SECTORS_PER_CTA}


def build_configs(topo):
    tpcs = topo["tpcs"]
    tpc_of = {s: i for i, p in enumerate(tpcs) for s in p}
    gpcs = topo["gpcs"] if topo["gpc_ok"] else [SMS[i:i + 16] for i in range(0, NSM, 16)]
    cfgs = []
    A = cfgs.append
    A(make_config("private", []))
    A(make_config("all_same", [list(SMS)]))
    A(make_config("pair_tpc", [list(p) for p in tpcs]))
    A(make_config("pair_2k_2k1", [[SMS[2 * k], SMS[2 * k + 1]] for k in range(NSM // 2)]))
    A(make_config("pair_2k1_2k2", [[SMS[2 * k + 1], SMS[(2 * k + 2) % NSM]] for k in range(NSM // 2)]))
    A(make_config("pair_k_k66", [[SMS[k], SMS[k + NSM // 2]] for k in range(NSM // 2)]))
    # same GPC, different TPC: in each GPC pair first SMs of TPC 2j and 2j+1, and their second SMs
    same_gpc = []
    for gp in gpcs:
        tl = sorted({tpc_of[s] for s in gp if s in tpc_of})
        for j in range(0, len(tl) - 1, 2):
            a, b = tpcs[tl[j]], tpcs[tl[j + 1]]
            same_gpc += [[a[0], b[0]], [a[1], b[1]]]
    A(make_config("pair_same_gpc_diff_tpc", same_gpc))
    # different GPCs
    diff = []
    used = set()
    order = sorted(range(len(gpcs)), key=lambda i: -len(gpcs[i]))
    lists = [list(gpcs[i]) for i in order]
    while True:
        avail = [l for l in lists if any(s not in used for s in l)]
        if len(avail) < 2:
            break
        a = next(s for s in avail[0] if s not in used)
        b = next(s for s in avail[1] if s not in used)
        used.update((a, b))
        diff.append([a, b])
        lists = lists[1:] + lists[:1]
    A(make_config("pair_diff_gpc", diff))
    quad, octo = [], []
    for gp in gpcs:
        tl = sorted({tpc_of[s] for s in gp if s in tpc_of})
        for j in range(0, len(tl) - 1, 2):
            quad.append(list(tpcs[tl[j]]) + list(tpcs[tl[j + 1]]))
        for j in range(0, len(tl) - 3, 4):
            octo.append([s for t in tl[j:j + 4] for s in tpcs[t]])
    A(make_config("quad_same_gpc_2tpc", quad))
    A(make_config("oct_same_gpc_4tpc", octo))
    A(make_config("gpc_whole", [list(g) for g in gpcs]))
    # k SMs from k different GPCs (first SMs of TPCs, round-robin over GPCs)
    for k in (4, 8):
        if len(gpcs) >= k:
            grp, pos = [], [0] * len(gpcs)
            for _ in range(min(len(g) for g in gpcs[:k]) // 1):
                grp.append([gpcs[i][pos[i]] for i in range(k)])
                pos = [p + 1 for p in pos]
                if any(p >= len(gpcs[i]) for i, p in enumerate(pos[:k])):
                    break
            A(make_config(f"x{k}_diff_gpc", grp))
    # concurrency: delay the second member of each TPC pair
    for cyc in (500, 2000, 8000, 200000):
        A(make_config(f"pair_tpc_delay{cyc}", [list(p) for p in tpcs], {p[1]: cyc for p in tpcs}))
    A(make_config("pair_diff_gpc_delay200000", diff, {p[1]: 200000 for p in diff}))
    A(make_config("all_same_half_delay200000", [list(SMS)], {s: 200000 for s in SMS[1::2]}))
    A(make_config("gpc_whole_half_delay200000", [list(g) for g in gpcs],
                  {s: 200000 for g in gpcs for s in g[len(g) // 2:]}))
    A(make_config("all_same_staggered2000", [list(SMS)], {s: 2000 * i for i, s in enumerate(SMS)}))
    A(make_config("private_again", []))
    return cfgs


def write_cfg_file(path, cfgs):
    with open(path, "w") as f:
        for c in cfgs:
            f.write(c["name"] + f" {len(c['groups'])} " + " ".join(map(str, c["groups"])) + " " + " ".join(map(str, c["delays"])) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--only-gemmv", action="store_true",
                    help="only the gemm variants (A or B private per CTA column/row; grid 16x8)")
    args = ap.parse_args()
    out = args.out
    os.makedirs(out, exist_ok=True)
    work = "/tmp/l2m_work"
    os.makedirs(work, exist_ok=True)
    R = {"errors": [], "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}

    def save():
        R["log"] = LOG
        with open(os.path.join(out, "results.json"), "w") as f:
            json.dump(R, f, indent=1)

    rc, o = sh(["nvidia-smi", "--query-gpu=name,driver_version,clocks.sm,clocks.mem", "--format=csv"], 30)
    R["nvidia_smi"] = o.strip()
    binary = os.path.join(work, "l2_merge")
    rc, o = sh([args.nvcc, "-O3", "-arch=sm_90", "-lineinfo", "-o", binary, SRC], 300)
    log(f"build rc={rc} {o[-2000:]}")
    if rc != 0:
        R["errors"].append("build failed: " + o[-3000:])
        save()
        return
    rc, o = sh(["cuobjdump", "-sass", "-fun", "share_read", binary], 60)
    with open(os.path.join(out, "sass_share_read.txt"), "w") as f:
        f.write(o[-60000:])

    ncu = find_ncu()
    R["ncu"] = ncu
    metrics = list(CORE)
    if ncu and args.only_gemmv:
        metrics = [m for m in WANTED if "ltcfabric" not in m and "srcnode" not in m]
        cmd = [ncu, "--clock-control", "none", "--csv", "--page", "raw", "--print-units", "base",
               "--metrics", ",".join(metrics), "-k", "regex:gemm", binary, "gemmv"]
        rc, o = sh(cmd, 240)
        with open(os.path.join(out, "ncu_gemmv.csv"), "w") as f:
            f.write(o)
        rows, app = parse_ncu_csv(o), [x for x in results_of(o) if x.get("exp") == "gemmv"]
        R["gemmv"] = []
        for i, r in enumerate(rows):
            d = {"kernel": r.get("Kernel Name"), **({"name": app[i]["name"], "rep": app[i]["rep"],
                                                    "smid": app[i]["smid"]} if i < len(app) else {}),
                 **{m: num(r.get(m)) for m in metrics if m in r}}
            R["gemmv"].append(d)
            log(f"gemmv {d.get('name')} rep{d.get('rep')}: L2rd={r.get('lts__t_sectors_srcunit_tex_op_read.sum')} "
                f"hit={r.get('lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum')} "
                f"miss={r.get('lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum')} "
                f"L1miss={r.get('l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum')} "
                f"L1hit%={r.get('l1tex__t_sector_hit_rate.pct')} t={r.get('gpu__time_duration.sum')}")
        if rc != 0 or not rows:
            R["errors"].append(f"gemmv rc={rc}: {o[-2000:]}")
        save()
        return
    if ncu:
        rc, o = sh([ncu, "--query-metrics", "--chip", "gh100"], 60)
        names = set()
        for line in o.splitlines():
            t = line.split()
            if t:
                names.add(t[0])
        keep = sorted(n for n in names if any(k in n for k in ("srcunit", "xbar", "lrc", "ltcfabric", "srcnode")))
        with open(os.path.join(out, "metrics_avail.txt"), "w") as f:
            f.write("\n".join(keep) + "\n")
        if len(names) > 100:
            metrics = [m for m in WANTED if m.rsplit(".", 1)[0] in names]
            lrc = sorted(n for n in names if n.startswith("lrc__t_sectors") or n.startswith("lrc__t_requests"))[:6]
            metrics += [n + ".sum" for n in lrc]
        log(f"query-metrics rc={rc}, {len(names)} names; using {metrics}")
    R["metrics"] = metrics
    save()

    # ---- topology and dispatch (no profiler)
    rc, o = sh([binary, "topo"], 60)
    R["topo_raw"] = results_of(o)
    if rc != 0:
        R["errors"].append(f"topo rc={rc}: {o[-1500:]}")
    rc, o = sh([binary, "dispatch"], 60)
    R["dispatch"] = results_of(o)
    if rc != 0:
        R["errors"].append(f"dispatch rc={rc}: {o[-1500:]}")
    topo = topology(R["topo_raw"], [r for r in R["dispatch"] if r.get("name") == "1d_132"])
    R["topology"] = topo
    log(f"topology: tpc_from_clusters={topo['tpc_from_clusters']} gpcs={[len(g) for g in topo['gpcs']]} "
        f"gpc_ok={topo['gpc_ok']}")
    log("gpcs: " + json.dumps(topo["gpcs"]))
    log("tpcs[:12]: " + json.dumps(topo["tpcs"][:12]) + f" nsm={NSM} max smid={max(SMS)}")
    for r in R["dispatch"]:
        if "smid" in r:
            log(f"dispatch {r.get('name')} rep{r.get('rep')}: first 40 smids {r['smid'][:40]}")
    save()

    # ---- share configs
    cfgs = build_configs(topo)
    R["configs"] = [{k: v for k, v in c.items()} for c in cfgs]
    cold = os.path.join(work, "cfg_cold.txt")
    write_cfg_file(cold, cfgs)
    warm_names = ["private", "all_same", "pair_tpc", "pair_diff_gpc", "gpc_whole", "pair_tpc_delay200000"]
    warm_cfgs = [c for c in cfgs if c["name"] in warm_names]
    warmf = os.path.join(work, "cfg_warm.txt")
    write_cfg_file(warmf, warm_cfgs)

    def run_ncu(tag, extra, app, cfg_list, timeout=240):
        if not ncu:
            R["errors"].append(f"{tag}: no ncu")
            return
        for attempt, mets in enumerate((metrics, CORE)):
            cmd = [ncu, "--clock-control", "none", "--csv", "--page", "raw", "--print-units", "base",
                   "--metrics", ",".join(mets)] + extra + app
            t0 = time.time()
            rc, o = sh(cmd, timeout)
            log(f"{tag} attempt {attempt}: rc={rc} {time.time() - t0:.1f}s")
            with open(os.path.join(out, f"ncu_{tag}.csv"), "w") as f:
                f.write(o)
            rows = parse_ncu_csv(o)
            res = results_of(o)
            if rows:
                R[f"ncu_{tag}"] = {"rows": [{k: v for k, v in r.items() if "__" in k or k in ("ID", "Kernel Name")}
                                            for r in rows], "app": res, "rc": rc}
                summarize(tag, rows, res, cfg_list)
                return
            R["errors"].append(f"{tag} attempt {attempt}: no rows, rc={rc}: {o[-1500:]}")
            if rc == 124:
                return

    def summarize(tag, rows, res, cfg_list):
        summ = []
        if cfg_list is None:
            for r in rows:
                summ.append({"kernel": r.get("Kernel Name"), **{m: num(r.get(m)) for m in metrics if m in r}})
                log(f"{tag} {r.get('Kernel Name')}: " + ", ".join(f"{m}={r.get(m)}" for m in metrics if m in r))
        else:
            share_rows = [r for r in rows if "share_read" in r.get("Kernel Name", "")]
            app = [x for x in res if x.get("exp") == "share"]
            for i, r in enumerate(share_rows):
                c = cfg_list[i] if i < len(cfg_list) else {"name": f"?{i}", "expected_no_merge": 0, "expected_full_merge": 0}
                l2 = num(r.get("lts__t_sectors_srcunit_tex_op_read.sum"))
                d = {"config": c["name"], "expected_no_merge": c["expected_no_merge"],
                     "expected_full_merge": c["expected_full_merge"],
                     **{m: num(r.get(m)) for m in metrics if m in r}}
                if i < len(app):
                    d.update({k: app[i].get(k) for k in ("dup_smids", "barrier_skew_ns", "read_start_skew_ns", "total_ns")})
                    rn = app[i].get("read_ns") or [0]
                    d["read_ns_median"] = sorted(rn)[len(rn) // 2]
                summ.append(d)
                log(f"{tag} {c['name']:32s} L2rd={l2} nomerge={c['expected_no_merge']} fullmerge={c['expected_full_merge']} "
                    f"L1miss={r.get('l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum')} "
                    f"L2req={r.get('lts__t_requests_srcunit_tex_op_read.sum')} "
                    f"xbar2l1={r.get('l1tex__m_xbar2l1tex_read_sectors.sum')} dup={d.get('dup_smids')} "
                    f"skew={d.get('read_start_skew_ns')} read_ns={d.get('read_ns_median')}")
        R[f"summary_{tag}"] = summ
        save()

    run_ncu("share_cold", ["-k", "regex:share_read"], [binary, "share", cold], cfgs, 150)
    run_ncu("share_warm", ["-k", "regex:share_read", "--cache-control", "none"], [binary, "share", warmf, "warm"],
            warm_cfgs, 80)
    run_ncu("gemm", ["-k", "regex:gemm"], [binary, "gemm"], None, 60)
    save()
    log("done")
    save()


if __name__ == "__main__":
    main()
