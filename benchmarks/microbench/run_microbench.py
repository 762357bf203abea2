#!/usr/bin/env python3
"""Build and run the simgpu microbenchmark suite on the local NVIDIA GPU.

    python benchmarks/microbench/run_microbench.py --out results.json

Needs only the CUDA toolkit (nvcc; ncu for the launch-overhead section) and the standard library.
Builds microbench.cu with `nvcc -O3 -arch=sm_90 -lineinfo` (override with --arch), runs every
benchmark group in its own process (a group that fails or hangs is recorded and the rest go on),
runs ncu over empty kernels for the launch overhead, then writes

  * --out FILE            everything: raw results per group, errors, environment, derived numbers;
  * --measurements FILE   (optional) the derived numbers in the simgpu format
                          {"device", "date", ..., "measurements": {key: {value, unit, method}}};

and prints a table.  Partial results are written after every group.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import datetime as _dt
import glob
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "microbench.cu")

# (name, argument, timeout seconds)
GROUPS = [
    ("info", None, 60),
    ("clock", "3000", 90),
    ("smem_lat", None, 60),
    ("local_lat", None, 60),
    ("chase", "l1", 120),
    ("chase", "l2", 180),
    ("chase", "hbm", 180),
    ("pipe_lat", None, 120),
    ("pipe_tput", None, 120),
    ("bar", None, 60),
    ("bw_dram", None, 180),
    ("bw_l2", None, 180),
    ("bw_l1smem", None, 120),
    ("atomics", None, 120),
    ("launch_events", None, 180),
]

NCU_METRICS = "gpu__time_duration.sum,sm__cycles_elapsed.avg,gpc__cycles_elapsed.max"


def log(msg: str) -> None:
    print(msg, flush=True)


def sh(cmd: list[str], timeout: float = 60) -> tuple[int, str]:
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, text=True)
        return p.returncode, p.stdout
    except Exception as e:  # noqa: BLE001
        return -1, f"{type(e).__name__}: {e}"


def build(binary: str, arch: str, nvcc: str) -> str:
    os.makedirs(os.path.dirname(binary), exist_ok=True)
    cmd = [nvcc, "-O3", f"-arch={arch}", "-lineinfo", "-o", binary, SRC]
    log("build: " + " ".join(cmd))
    rc, out = sh(cmd, timeout=600)
    if rc != 0:
        raise RuntimeError(f"nvcc failed ({rc}):\n{out}")
    return " ".join(cmd)


def parse_results(text: str) -> list[dict]:
    res = []
    for line in text.splitlines():
        if line.startswith("RESULT "):
            try:
                res.append(json.loads(line[7:]))
            except json.JSONDecodeError as e:
                res.append({"bench": "parse_error", "key": "parse_error", "error": str(e), "line": line[:500]})
    return res


def run_group(binary: str, name: str, arg: str | None, timeout: float) -> dict:
    cmd = [binary, name] + ([arg] if arg else [])
    t0 = time.time()
    rc, out = sh(cmd, timeout=timeout)
    dt = time.time() - t0
    results = parse_results(out)
    errors = [line for line in out.splitlines() if line.startswith("ERROR") or "Error" in line]
    ok = rc == 0 and f"DONE {name}" in out
    return {"cmd": " ".join(cmd), "rc": rc, "ok": ok, "seconds": round(dt, 2), "results": results,
            "errors": errors, "tail": "" if ok else out[-3000:]}


def run_clock(binary: str, spin_ms: str, timeout: float) -> dict:
    """clock64/globaltimer under an FMA load, with nvidia-smi sampled while the load runs."""
    cmd = [binary, "clock", spin_ms]
    t0 = time.time()
    samples: list[str] = []
    smi_q = ""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    started = threading.Event()

    def reader() -> None:
        for line in p.stdout:  # type: ignore[union-attr]
            lines.append(line.rstrip("\n"))
            if line.startswith("CLOCK_LOAD_START"):
                started.set()

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    if started.wait(timeout=30):
        time.sleep(0.8)
        for _ in range(3):
            rc, o = sh(["nvidia-smi", "--query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu",
                        "--format=csv,noheader"], timeout=20)
            samples.append(o.strip())
            time.sleep(0.3)
        rc, smi_q = sh(["nvidia-smi", "-q", "-d", "CLOCK,PERFORMANCE"], timeout=20)
    try:
        p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
    th.join(timeout=5)
    out = "\n".join(lines)
    ok = p.returncode == 0 and "DONE clock" in out
    return {"cmd": " ".join(cmd), "rc": p.returncode, "ok": ok, "seconds": round(time.time() - t0, 2),
            "results": parse_results(out), "errors": [], "tail": "" if ok else out[-3000:],
            "nvidia_smi_during_load": samples, "nvidia_smi_q_during_load": smi_q}


def find_ncu() -> str | None:
    c = shutil.which("ncu")
    if c:
        return c
    for pat in ("/usr/local/cuda*/bin/ncu", "/opt/nvidia/nsight-compute/*/ncu", "/usr/local/NVIDIA-Nsight-Compute*/ncu"):
        hits = sorted(glob.glob(pat))
        if hits:
            return hits[-1]
    return None


def _num(s: str) -> float | None:
    try:
        return float(s.replace(",", ""))
    except (ValueError, AttributeError):
        return None


def run_ncu(binary: str, raw_dir: str | None, timeout: float = 300) -> dict:
    ncu = find_ncu()
    if not ncu:
        return {"ok": False, "error": "ncu not found"}
    cmd = [ncu, "--clock-control", "none", "--csv", "--page", "raw", "--print-units", "base",
           "--metrics", NCU_METRICS, binary, "empty", "5"]
    t0 = time.time()
    rc, out = sh(cmd, timeout=timeout)
    if raw_dir:
        with open(os.path.join(raw_dir, "ncu_empty_raw.csv"), "w") as f:
            f.write(out)
    rows = []
    csv_lines = [ln for ln in out.splitlines() if ln.startswith('"')]
    if csv_lines:
        rdr = csv.DictReader(io.StringIO("\n".join(csv_lines)))
        for r in rdr:
            if not (r.get("ID") or "").strip().isdigit():
                continue
            rows.append({
                "grid": (r.get("Grid Size") or "").strip(),
                "block": (r.get("Block Size") or "").strip(),
                "gpu_time_ns": _num(r.get("gpu__time_duration.sum", "")),
                "sm_cycles_avg": _num(r.get("sm__cycles_elapsed.avg", "")),
                "gpc_cycles_max": _num(r.get("gpc__cycles_elapsed.max", "")),
            })
    by_cfg: dict[str, dict] = {}
    for r in rows:
        k = f"{r['grid']} x {r['block']}"
        by_cfg.setdefault(k, {"grid": r["grid"], "block": r["block"], "gpu_time_ns": [], "sm_cycles_avg": [],
                              "gpc_cycles_max": []})
        for m in ("gpu_time_ns", "sm_cycles_avg", "gpc_cycles_max"):
            if r[m] is not None:
                by_cfg[k][m].append(r[m])
    summary = []
    for v in by_cfg.values():
        summary.append({
            "grid": v["grid"], "block": v["block"], "n": len(v["gpu_time_ns"]),
            "gpu_time_ns_median": statistics.median(v["gpu_time_ns"]) if v["gpu_time_ns"] else None,
            "gpu_time_ns_all": v["gpu_time_ns"],
            "sm_cycles_avg_median": statistics.median(v["sm_cycles_avg"]) if v["sm_cycles_avg"] else None,
            "gpc_cycles_max_median": statistics.median(v["gpc_cycles_max"]) if v["gpc_cycles_max"] else None,
        })
    ok = rc == 0 and len(rows) > 0
    return {"cmd": " ".join(cmd), "rc": rc, "ok": ok, "seconds": round(time.time() - t0, 2), "summary": summary,
            "tail": "" if ok else out[-3000:]}


# ----------------------------------------------------------------------------------------------
# derived numbers
# ----------------------------------------------------------------------------------------------

def _index(groups: dict) -> dict[str, dict]:
    idx: dict[str, dict] = {}
    for g in groups.values():
        for r in g.get("results", []):
            idx[r["key"]] = r
    return idx


def _two_clusters(xs: list[float]) -> tuple[float, float, float, float] | None:
    """1-D k-means with k=2; returns (low mean, high mean, fraction high, gap between clusters)."""
    if len(xs) < 20:
        return None
    xs = sorted(xs)
    lo, hi = xs[len(xs) // 10], xs[(9 * len(xs)) // 10]
    if hi <= lo:
        return None
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        a = [x for x in xs if x <= mid]
        b = [x for x in xs if x > mid]
        if not a or not b:
            return None
        nlo, nhi = statistics.fmean(a), statistics.fmean(b)
        if abs(nlo - lo) < 1e-6 and abs(nhi - hi) < 1e-6:
            break
        lo, hi = nlo, nhi
    gap = min(b) - max(a)
    return lo, hi, len(b) / len(xs), gap


def derive(groups: dict, ncu: dict, env: dict) -> tuple[dict, dict]:
    idx = _index(groups)
    M: dict[str, dict] = {}
    sweeps: dict[str, list] = {}

    errors: list[str] = []

    @contextlib.contextmanager
    def guard(name: str):
        try:
            yield
        except Exception as e:  # noqa: BLE001
            errors.append(f"{name}: {type(e).__name__}: {e}")

    def put(key: str, value, unit: str, method: str, **extra) -> None:
        if value is None:
            return
        d = {"value": round(value, 4) if isinstance(value, float) else value, "unit": unit, "method": method}
        d.update(extra)
        M[key] = d

    def val(k: str):
        r = idx.get(k)
        return None if r is None else r.get("value")

    with guard("clock"):
        mhz = val("sm_clock_under_fma_load_mhz")
        if mhz:
            r = idx["sm_clock_under_fma_load_mhz"]
            put("sm_clock_under_load_mhz", mhz, "MHz",
                f"k_clock: {r.get('blocks')} CTAs x 1024 threads spinning on FFMA for {r.get('spin_ms')} ms; per CTA "
                "clock64 delta / %globaltimer delta; median over CTAs "
                f"(min {r.get('min')}, max {r.get('max')}). nvidia-smi during the load: "
                f"{'; '.join(env.get('nvidia_smi_during_load', []))}")

    with guard("small_lat"):
        CH = "1 thread, 1 CTA; random cyclic permutation of 64-bit pointers (one per node, nodes `stride` apart) "
        if val("latency_shared_cycles") is not None:
            put("latency_shared_cycles", val("latency_shared_cycles"), "cycles",
                "k_smem_lat: 1 thread chases a random cycle of 32-bit shared addresses over 4 KB of shared "
                "memory (ld.shared.u32 r,[r] -> dependent LDS, no address arithmetic); 8192 loads after one warm "
                "pass, clock64 delta / loads; median of 5 launches")
        if val("latency_local_cycles") is not None:
            put("latency_local_cycles", val("latency_local_cycles"), "cycles",
                "k_local_lat: 1 thread chases a random cycle over a 1 KB local array (ld.local.u32 r,[r] -> "
                "dependent LDL, L1-resident after a warm pass); clock64 delta / 8192 loads; median of 5")

        def chase(key_out, k, what):
            r = idx.get(k)
            if r is None:
                return
            put(key_out, r["value"], "cycles",
                CH + f"over a {r['ws_bytes']} B working set (stride {r['stride_bytes']} B, {r['nodes']} nodes), "
                f"{r['ld']} ({what}); {r['warm']} warm-up loads then {r['iters']} timed dependent loads; clock64 "
                f"delta / loads. ns/load {r['ns_per_load']}, effective SM clock {r['mhz']} MHz"
                + ("; L2 flushed (2x256 MB memset) before the chase" if r.get("l2_flushed") else ""),
                ns=r["ns_per_load"])

    with guard("chase"):
        KB, MB = 1024, 1024 * 1024
        chase("latency_l1_hit_cycles", f"chase_ca_ws{8 * KB}B", "default caching, weak LDG.E.64, L1 hit")
        chase("latency_l2_hit_via_l1_miss_cycles", f"chase_ca_ws{4 * MB}B",
              "default caching, LDG.E.64 misses L1 (4 MB > L1) and hits L2")
        chase("latency_l2_hit_cycles", f"chase_cg_ws{4 * MB}B",
              "ld.global.cg = LDG.E.64.STRONG.GPU in SASS, bypasses L1; L2 hit (4 MB << 60 MB L2)")
        chase("latency_hbm_cycles", f"chase_hbm_ws{128 * MB}B",
              "ld.global.cg; 128 MB = 2x L2, 64 2-MB pages if cudaMalloc uses 2 MB pages, all touched by the warm-up: DRAM latency with "
              "little TLB cost")
        chase("latency_hbm_2GB_cycles", f"chase_hbm_ws{2048 * MB}B",
              "ld.global.cg; 2 GB with 4 KB stride = 1024 2-MB pages: DRAM latency plus TLB misses")

    with guard("sweeps"):
        # sweeps
        for sweep in ("ca", "cg", "hbm", "hbm_s64k"):
            pts = [r for r in idx.values() if r.get("bench") == "chase" and r.get("sweep") == sweep]
            pts.sort(key=lambda r: r["ws_bytes"])
            if pts:
                sweeps[f"chase_{sweep}"] = [{"ws_bytes": r["ws_bytes"], "stride_bytes": r["stride_bytes"],
                                             "cycles": r["value"], "ns": r["ns_per_load"], "mhz": r["mhz"]}
                                            for r in pts]

    with guard("nearfar"):
        # near/far L2: the loop-based cg chase shows ~280 cycles up to ~24 MB, ~510 for 40-58 MB.
        chase("latency_l2_far_cycles", f"chase_cg_ws{48 * MB}B",
              "ld.global.cg; 48 MB working set (between half of the L2 and the whole L2): in the loop-based "
              "sweep (sweeps.chase_cg) working sets <= 24 MB take ~280 cycles, 32 MB ~390 (a mix), 40-58 MB "
              "~510: data beyond what the near L2 partition holds is served by the far partition")
        # per-load latency histograms
        ov = None
        h_l1 = idx.get(f"chasehist_ca_ws{8 * KB}B")
        if h_l1 and val(f"chase_ca_ws{8 * KB}B"):
            ov = h_l1["value"] - val(f"chase_ca_ws{8 * KB}B")
            put("chase_hist_overhead_cycles", ov, "cycles",
                "constant overhead of the per-load timing loop (clock read + dependent shared store): median "
                "per-load sample at 8 KB (L1 hits) minus the loop-based L1 latency")
        hists = [r for r in idx.values() if r.get("bench") == "chase_hist"]
        for h in sorted(hists, key=lambda r: (r.get("sweep", ""), r["ws_bytes"])):
            xs = [x - (ov or 0.0) for x in h["samples"]]
            xs_sorted = sorted(xs)
            pct = {p: xs_sorted[int(p / 100 * (len(xs) - 1))] for p in (1, 5, 10, 25, 50, 75, 90, 95, 99)}
            cl = _two_clusters(xs)
            entry = {"ws_bytes": h["ws_bytes"], "sweep": h.get("sweep"), "overhead_subtracted": ov,
                     "mean_cycles": round(statistics.fmean(xs), 1),
                     "percentiles_cycles": {str(k): round(v, 1) for k, v in pct.items()}}
            if cl:
                entry.update({"cluster_low_mean": round(cl[0], 1), "cluster_high_mean": round(cl[1], 1),
                              "fraction_high": round(cl[2], 3), "gap_between_clusters": round(cl[3], 1)})
            hist: dict[int, int] = {}
            for x in xs:
                bn = int(x // 10) * 10
                hist[bn] = hist.get(bn, 0) + 1
            entry["histogram_10cycle_bins"] = {str(k): hist[k] for k in sorted(hist)}
            sweeps[f"per_load_latency_{h.get('sweep')}_ws{h['ws_bytes']}B"] = entry
            if h.get("sweep") == "cg" and h["ws_bytes"] == 4 * MB and cl:
                m = ("4096 dependent ld.global.cg loads over a 4 MB random chain (1 thread), each timed with "
                     "clock()/dependent STS/clock(), minus the loop overhead calibrated at 8 KB; 1-D 2-means. "
                     "Both clusters are L2 hits in the near regime (the far regime is latency_l2_far_cycles)")
                put("latency_l2_hit_4MB_cluster_low_cycles", cl[0], "cycles", m, fraction=round(1 - cl[2], 3))
                put("latency_l2_hit_4MB_cluster_high_cycles", cl[1], "cycles", m, fraction=round(cl[2], 3))

    with guard("pipelines"):
        # pipelines
        pipe_notes = {
            "ffma": "fma.rn.f32 -> FFMA", "fadd": "add.rn.f32 -> FADD", "fmul": "mul.rn.f32 -> FMUL",
            "iadd_xor_alternating": "add.u32/xor.b32 alternating -> VIADD/LOP3.LUT (a pure add or xor chain is "
                                    "folded by ptxas); per instruction",
            "imad": "mad.lo.u32 -> IMAD", "dfma": "fma.rn.f64 -> DFMA", "dadd": "add.rn.f64 -> DADD",
            "mufu_ex2": "ex2.approx.ftz.f32 -> MUFU.EX2", "mufu_rsq": "rsqrt.approx.ftz.f32 -> MUFU.RSQ",
            "sin_approx": "sin.approx.ftz.f32 -> FMUL.RZ + MUFU.SIN (2 dependent SASS instructions)",
            "expf_intrinsic": "x = __expf(-x) -> FMUL, FSETP, @P FMUL, MUFU.EX2, @P FMUL (dependent sequence)",
            "rsqrtf_intrinsic": "x = rsqrtf(x) -> FSETP, @P FMUL, MUFU.RSQ, @P FMUL (denormal guard)",
            "sinf_intrinsic": "x = __sinf(x) -> FMUL.RZ + MUFU.SIN",
            "shfl_bfly": "shfl.sync.bfly.b32 -> SHFL.BFLY",
        }
        for op, note in pipe_notes.items():
            k = f"latency_{op}_cycles"
            r = idx.get(k)
            if r:
                put(k, r["value"], "cycles",
                    f"k_lat: 1 warp, 1 CTA, dependent chain of {r['ops']} ops ({note}) via inline PTX, 256 unrolled "
                    "per loop trip; clock64 delta / ops; median of 3")
            k = f"throughput_{op}_per_sm_per_cycle"
            r = idx.get(k)
            if r:
                put(k, r["value"], "ops/cycle/SM",
                    f"k_tput: {r['blocks']} CTAs x {r['threads']} threads (120 KB dyn smem forces 1 CTA/SM), 8 "
                    f"independent chains per thread, {r['ops_per_thread']} ops/thread ({note}); thread-ops / thread 0's "
                    f"clock64 interval around the chains (closed by __syncthreads), median over SMs; clock {r['mhz']} "
                    "MHz", per_cta_min=r.get("per_block_min"), per_cta_max=r.get("per_block_max"),
                    event_ops_per_ns_per_sm=r.get("event_ops_per_ns_per_sm"))
        # FFMA: the clock64 numbers of the first FFMA runs are unusable (per-CTA spread 126-565, implied
        # clock > 2.4 GHz: warp 0 read its start stamp late). The event-timed FFMA and FADD long runs have
        # the same device-wide rate, so FFMA = FADD's clock64 rate scaled by the event ratio.
        fl, al = idx.get("throughput_ffma_long_per_sm_per_cycle"), idx.get("throughput_fadd_long_per_sm_per_cycle")
        f0 = idx.get("throughput_ffma_per_sm_per_cycle")
        if fl and al and f0 and f0.get("per_block_max", 0) > 1.15 * f0.get("per_block_min", 1e9):
            v = fl["event_ops_per_ns_per_sm"] / al["event_ops_per_ns_per_sm"] * al["value"]
            put("throughput_ffma_per_sm_per_cycle", v, "ops/cycle/SM",
                "k_tput<FFMA>, 132 CTAs x 1024 threads, 8 independent FFMA chains per thread, 131072 FFMA per thread. "
                "The in-kernel clock64 number was unusable (per-CTA values "
                f"{f0['per_block_min']}-{f0['per_block_max']}, median {f0['value']}: the start stamp was read after a "
                "barrier by a starved warp), so: FFMA rate = (FFMA event rate / FADD event rate) x FADD clock64 rate = "
                f"({fl['event_ops_per_ns_per_sm']} / {al['event_ops_per_ns_per_sm']} ops/ns/SM) x {al['value']} "
                "ops/cycle/SM. Theoretical 128 (4 SMSPs x 32 lanes)", raw_clock64_value=f0["value"])
    with guard("barrier"):
        for t in (32, 256, 1024):
            k = f"latency_barsync_{t}threads_cycles"
            r = idx.get(k)
            if r:
                put(k, r["value"], "cycles",
                    f"k_bar: 1 CTA of {t} threads executes {r['iters']} back-to-back __syncthreads() (BAR.SYNC); "
                    "thread 0's clock64 delta / barriers; median of 3")

    with guard("bandwidths"):
        # bandwidths
        def best(prefix):
            rs = [r for r in idx.values() if r["key"].startswith(prefix)]
            return max(rs, key=lambda r: r["value"]) if rs else None

        for kind, what in (("read", "read-only (xor of all 4 words of ld.global.v4.u32 = LDG.E.128)"),
                           ("write", "write-only (st.global.v4 of a constant float4 = STG.E.128)"),
                           ("copy", "copy b[i]=a[i] (LDG.E.128.CONSTANT + STG.E.128), bytes read + written")):
            r = best(f"bw_dram_{kind}_")
            if r:
                allc = {x["key"].replace(f"bw_dram_{kind}_", ""): x["value"] for x in idx.values()
                        if x["key"].startswith(f"bw_dram_{kind}_")}
                put(f"bw_dram_{kind}_GBps", r["value"], "GB/s",
                    f"2 GiB float4 array(s) (>> 60 MB L2), {what}; cudaEvent time of one launch, median of 10 after "
                    f"a warm-up; best of launch configs {allc} (GB/s); best = {r['key']}")
        r = idx.get("bw_dram_cudaMemcpyD2D")
        if r:
            put("bw_dram_memcpy_d2d_GBps", r["value"], "GB/s",
                "cudaMemcpyAsync device-to-device of 2 GiB; (read + written bytes) / event time, median of 10")
        l2pts = sorted([r for r in idx.values() if r.get("bench") == "bw_l2"], key=lambda r: r["ws_bytes"])
        if l2pts:
            for var in sorted({r.get("variant", "cg") for r in l2pts}):
                sweeps[f"bw_l2_read_{var}"] = [{"ws_bytes": r["ws_bytes"], "GBps": r["value"]}
                                               for r in l2pts if r.get("variant", "cg") == var]
            small = [r for r in l2pts if r["ws_bytes"] <= 48 * MB]
            b = max(small or l2pts, key=lambda r: r["value"])
            put("bw_l2_read_GBps", b["value"], "GB/s",
                f"{b['blocks']} CTAs x {b['threads']} threads re-read a {b['ws_bytes'] // MB} MB buffer "
                f"{b['reps']} times with 16-B loads ({b.get('ld')}); bytes / event time, median of 5; best over "
                "working sets <= 48 MB and two variants: k_read<cg> (ld.global.cg = LDG.E.128.STRONG.GPU, L1 "
                "bypassed) and k_read_rot (weak LDG.E.128, CTA-to-data assignment rotated each rep so L1 cannot "
                "serve re-reads); full curves in sweeps.bw_l2_read_*")
            cg48 = [r for r in l2pts if r.get("variant", "cg") == "cg" and 2 * MB < r["ws_bytes"] <= 48 * MB]
            if cg48:
                put("bw_l2_read_cg_median_4_to_48MB_GBps", statistics.median([r["value"] for r in cg48]), "GB/s",
                    "median of the k_read<cg> points with 4 MB <= working set <= 48 MB (see bw_l2_read_GBps)")
        r = idx.get("bw_l1_bytes_per_cycle_per_sm")
        if r:
            put("bw_l1_bytes_per_cycle_per_sm", r["value"], "B/cycle/SM",
                "k_l1_read: 1 CTA of 1024 threads per SM (120 KB dyn smem) re-reads its own 48 KB, 2 x 16 B per thread "
                "per rep x 512 reps, with ld.global.v4.u32 (LDG.E.128, L1 hits after a warm pass; the offset rotates "
                "by a run-time step so ptxas cannot merge loads of successive reps); bytes / clock64 cycles between "
                "__syncthreads; median over SMs "
                f"({r.get('warp_instr_per_cycle')} warp-LDG.128/cycle)")
        for r in sorted([r for r in idx.values() if r.get("bench") == "bw_l1smem" and r["key"].startswith("smem_")],
                        key=lambda r: r["key"]):
            put(r["key"], r["value"], r["unit"],
                "k_smem_bw: 1 CTA of 1024 threads per SM, 8 independent shared loads per loop trip x 512 trips "
                "(inline PTX, all loaded words consumed, base offset rotating by a run-time 4 KB step so ptxas cannot merge "
                "loads of successive trips); warp-instructions / clock64 cycles, median over SMs; "
                f"{r['bytes_per_cycle_per_sm']} useful B/cycle/SM; at the expected {r['expected_wavefronts_per_instr']} "
                f"wavefronts per instruction that is {r['wavefronts_per_cycle']} wavefronts/cycle/SM")

    with guard("atomics"):
        # atomics
        for r in [r for r in idx.values() if r.get("bench") == "atomics"]:
            if r["key"].startswith("atomic_global"):
                put(r["key"], r["value"], r["unit"],
                    f"k_gatom: {r['blocks']} CTAs x {r['threads']} threads x {r['iters']} atomicAdd(u32) each; total "
                    "atomics / event time (median of 5), device-wide. same_address_compiled: ptxas turns a warp's "
                    "adds to a uniform address into REDUX.SUM + one RED; same_address_ptx_red: one RED per thread")
            else:
                put(r["key"], r["value"], r["unit"],
                    f"k_satom: 1 CTA of 1024 threads per SM, {r['iters']} shared atomicAdd(u32) per thread (ATOMS.ADD); "
                    "atomics / clock64 cycles between __syncthreads, median over SMs")

    with guard("launch"):
        # launch overhead
        for s in (ncu.get("summary") or []):
            g = s["grid"].strip("()").split(",")[0].strip()
            b = s["block"].strip("()").split(",")[0].strip()
            put(f"launch_empty_kernel_gpu_time_grid{g}x{b}_ns", s["gpu_time_ns_median"], "ns",
                f"ncu --clock-control none --metrics {NCU_METRICS} on an empty __global__ kernel <<<{g},{b}>>>; "
                f"gpu__time_duration.sum median of {s['n']} profiled launches (all: {s['gpu_time_ns_all']}); "
                f"sm__cycles_elapsed.avg {s['sm_cycles_avg_median']}, gpc__cycles_elapsed.max {s['gpc_cycles_max_median']}",
                sm_cycles_elapsed_avg=s["sm_cycles_avg_median"], gpc_cycles_elapsed_max=s["gpc_cycles_max_median"])
        pts = []
        for s_ in (ncu.get("summary") or []):
            g = int(s_["grid"].strip("()").split(",")[0])
            b = int(s_["block"].strip("()").split(",")[0])
            if b == 256 and g >= 1320 and s_["gpu_time_ns_median"] is not None:
                pts.append((g, s_["gpu_time_ns_median"]))
        if len(pts) >= 2:
            mx = statistics.fmean([p[0] for p in pts])
            my = statistics.fmean([p[1] for p in pts])
            slope = sum((p[0] - mx) * (p[1] - my) for p in pts) / sum((p[0] - mx) ** 2 for p in pts)
            put("launch_empty_kernel_ns_per_cta_256threads", slope, "ns/CTA",
                "least-squares slope of the ncu gpu__time_duration.sum of the empty <<<G,256>>> kernel over "
                f"G in {[p[0] for p in pts]}: device-wide cost per extra CTA once all SMs are busy "
                f"(x {env.get('num_sms', 132)} SMs = time per CTA per SM); intercept "
                f"{my - slope * mx:.0f} ns")
        for r in [r for r in idx.values() if r.get("bench") == "launch_events"]:
            if "single" in r["key"]:
                m = (f"empty kernel <<<{r['grid']},256>>>: cudaEventRecord, launch, cudaEventRecord; event delta, "
                     f"median of 100 after 20 warm-ups (min {r.get('min')})")
            elif "graph" in r["key"]:
                m = f"empty kernel <<<{r['grid']},256>>>: CUDA graph of 200 launches; event delta / 200, median of 5"
            else:
                m = (f"empty kernel <<<{r['grid']},256>>>: 1000 back-to-back launches between two events; delta / "
                     "1000, median of 5")
            put(r["key"], r["value"], "us", m)
    if errors:
        M["_derive_errors"] = {"value": len(errors), "unit": "", "method": "; ".join(errors)}
    return M, sweeps


def print_table(M: dict) -> None:
    w = max((len(k) for k in M), default=10)
    log("")
    log(f"{'measurement'.ljust(w)}  {'value':>12}  unit")
    log("-" * (w + 30))
    for k, v in M.items():
        x = v["value"]
        xs = f"{x:12.2f}" if isinstance(x, (int, float)) else str(x).rjust(12)
        log(f"{k.ljust(w)}  {xs}  {v['unit']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="microbench_results.json")
    ap.add_argument("--measurements", default=None, help="also write the simgpu-format measurements JSON here")
    ap.add_argument("--bin", default=os.path.join(HERE, "build", "microbench"))
    ap.add_argument("--rebuild", action="store_true")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--groups", default=None, help="comma-separated subset, e.g. chase,bw_dram")
    ap.add_argument("--no-ncu", action="store_true")
    ap.add_argument("--raw-dir", default=None, help="directory for raw logs (ncu CSV, nvidia-smi)")
    ap.add_argument("--rederive", action="store_true",
                    help="with --reuse: run nothing, only recompute the derived numbers from that file")
    ap.add_argument("--reuse", default=None,
                    help="results JSON of an earlier run: its groups (and ncu data) are kept unless run again")
    args = ap.parse_args()

    out: dict = {"date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"), "groups": {}, "env": {}}
    if args.raw_dir:
        os.makedirs(args.raw_dir, exist_ok=True)
    prev: dict = {}
    if args.reuse:
        with open(args.reuse) as f:
            prev = json.load(f)
        out["groups"] = dict(prev.get("groups", {}))
        out["reused_from"] = {"file": args.reuse, "date": prev.get("date")}
        for k in ("nvidia_smi_during_load", "nvidia_smi_q_during_load"):
            if k in prev.get("env", {}):
                out["env"][k] = prev["env"][k]

    def save() -> None:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)

    if args.rederive:
        if not prev:
            ap.error("--rederive needs --reuse FILE")
        out = prev
        out["rederived"] = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        ncu = prev.get("ncu_launch", {})
        return finish(args, out, ncu, save)

    # environment
    rc, o = sh(["nvidia-smi", "--query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,"
                "power.draw,power.limit,temperature.gpu,pstate", "--format=csv"], timeout=30)
    out["env"]["nvidia_smi_idle"] = o.strip()
    rc, o = sh(["nvidia-smi", "-q", "-d", "CLOCK"], timeout=30)
    out["env"]["nvidia_smi_q_clock_idle"] = o
    rc, o = sh([args.nvcc, "--version"], timeout=30)
    out["env"]["nvcc_version"] = o.strip().splitlines()[-1] if o.strip() else o
    log("nvidia-smi: " + out["env"]["nvidia_smi_idle"].replace("\n", " | "))

    # build (a prebuilt binary is used if it runs)
    binary = args.bin
    need = args.rebuild or not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(SRC)
    if not need:
        rc, o = sh([binary, "info"], timeout=60)
        need = rc != 0
        if need:
            log(f"prebuilt binary failed ({rc}): {o[-500:]}; rebuilding")
    if need:
        out["env"]["build"] = build(binary, args.arch, args.nvcc)
    else:
        out["env"]["build"] = f"prebuilt {binary} (nvcc -O3 -arch={args.arch} -lineinfo)"
    save()

    wanted = set(args.groups.split(",")) if args.groups else None
    for name, arg, tmo in GROUPS:
        if wanted and name not in wanted and f"{name}:{arg}" not in wanted:
            continue
        gkey = name if arg is None or name == "clock" else f"{name}:{arg}"
        log(f"== {gkey}")
        try:
            g = run_clock(binary, arg or "3000", tmo) if name == "clock" else run_group(binary, name, arg, tmo)
        except Exception as e:  # noqa: BLE001
            g = {"ok": False, "error": f"{type(e).__name__}: {e}", "results": []}
        out["groups"][gkey] = g
        if name == "clock":
            out["env"]["nvidia_smi_during_load"] = g.get("nvidia_smi_during_load", [])
            if args.raw_dir:
                with open(os.path.join(args.raw_dir, "nvidia_smi_q_during_load.txt"), "w") as f:
                    f.write(g.get("nvidia_smi_q_during_load", ""))
        for r in g.get("results", []):
            if r.get("bench") == "chase_hist":
                continue
            extra = {k: v for k, v in r.items() if k not in ("bench", "key", "value", "unit", "samples")}
            log(f"   {r['key']:<58} {r['value']:>12.4g} {r['unit']:<22} {json.dumps(extra)[:150]}")
        if not g.get("ok"):
            log(f"   !! group {gkey} failed: rc={g.get('rc')} {g.get('error', '')}\n{g.get('tail', '')[-1500:]}")
        save()

    if not args.no_ncu and (not wanted or "ncu" in wanted):
        log("== ncu launch overhead")
        try:
            ncu = run_ncu(binary, args.raw_dir)
        except Exception as e:  # noqa: BLE001
            ncu = {"ok": False, "error": f"{type(e).__name__}: {e}"}
        out["ncu_launch"] = ncu
        for s in ncu.get("summary", []):
            log(f"   grid {s['grid']} block {s['block']}: gpu_time {s['gpu_time_ns_median']} ns, "
                f"sm_cycles {s['sm_cycles_avg_median']}, gpc_cycles {s['gpc_cycles_max_median']} (n={s['n']})")
        if not ncu.get("ok"):
            log(f"   !! ncu failed: {ncu.get('error', '')} {ncu.get('tail', '')[-1500:]}")
        save()
    else:
        ncu = prev.get("ncu_launch", {})
        if ncu:
            out["ncu_launch"] = ncu

    return finish(args, out, ncu, save)


def finish(args, out: dict, ncu: dict, save) -> int:
    info = next((r for r in out["groups"].get("info", {}).get("results", []) if r["key"] == "device"), {})
    M, sweeps = derive(out["groups"], ncu, out["env"])
    out["measurements"] = M
    out["sweeps"] = sweeps
    save()
    if args.measurements:
        smi = out["env"]["nvidia_smi_idle"].splitlines()
        fields = dict(zip([h.strip() for h in smi[0].split(",")], [x.strip() for x in smi[1].split(",")])) \
            if len(smi) >= 2 else {}
        doc = {
            "device": info.get("name") or fields.get("name"),
            "date": out["date"],
            "driver": fields.get("driver_version"),
            "cuda_runtime": info.get("runtime"),
            "nvcc": out["env"].get("nvcc_version"),
            "build": out["env"].get("build"),
            "sms": info.get("sms"),
            "l2_bytes": info.get("l2_bytes"),
            "clocks": {
                "nvidia_smi_idle": fields,
                "nvidia_smi_during_fma_load": out["env"].get("nvidia_smi_during_load"),
                "sm_clock_under_load_mhz_clock64_vs_globaltimer": M.get("sm_clock_under_load_mhz", {}).get("value"),
                "note": "all *_cycles numbers are SM cycles read with clock64() on the SM running the benchmark",
            },
            "source": "benchmarks/microbench (microbench.cu + run_microbench.py)",
            "combined_with_earlier_run": out.get("reused_from"),
            "measurements": M,
            "sweeps": sweeps,
            "raw_results": [{k: v for k, v in r.items() if k != "samples"}
                            for g in out["groups"].values() for r in g.get("results", [])
                            if r.get("bench") != "chase_hist"],
            "failed_groups": [k for k, g in out["groups"].items() if not g.get("ok")]
                             + ([] if ncu.get("ok") or args.no_ncu else ["ncu_launch"]),
        }
        with open(args.measurements, "w") as f:
            json.dump(doc, f, indent=1)
    print_table(M)
    failed = [k for k, g in out["groups"].items() if not g.get("ok")]
    log(f"\nfailed groups: {failed or 'none'}; ncu: {'ok' if ncu.get('ok') else 'not ok/skipped'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
