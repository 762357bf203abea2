"""gpc_inflight: cycles a trip of walk_<U> for every case of cases.py, on the device or in simgpu.

    python run.py device OUT CUBIN    # device (CuPy): OUT/gpc_inflight.jsonl, 3 launches a case
    python run.py sim [OUT]           # anywhere: OUT/simgpu.jsonl (default results/)
    python run.py table [RESULTS]     # both side by side
"""
from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parents[3]), str(Path(__file__).resolve().parents[1])]
from cases import GRID, cases, rank_table, shape  # noqa: E402
from side_by_side import main, read_jsonl, write_jsonl  # noqa: E402

HERE = Path(__file__).resolve().parent
REPS = 3


def _trips(stamps: np.ndarray, n_warps: int, rows: int, u: int) -> list[float]:
    st = stamps[: 2 * n_warps].reshape(n_warps, 2)
    return [float(x) for x in (st[:, 1] - st[:, 0]) / (rows // u)]


def _row(name, sms, threads, lanes, u, warm, rows, pitch, per_rep):
    med = [float(np.median(t)) for t in per_rep]
    best = int(np.argsort(med)[len(med) // 2])
    t = per_rep[best]
    return {"case": name, "sms": len(sms), "threads": threads, "lanes": lanes, "unroll": u, "warm": warm,
            "rows": rows, "pitch": pitch, "cyc_trip": med[best], "min": min(t), "max": max(t), "reps": med}


def _launch(k, threads, head, st, tail, zeros, **kw):
    """One 132-CTA launch with a fresh claim table (a CTA claims its SM once)."""
    return k((GRID,), (threads,), (*head, zeros(GRID, np.int32), st, *tail), **kw)


def run_device(out: Path, cubin: str) -> None:
    import cupy as cp
    mod = cp.RawModule(path=cubin)
    flush = cp.zeros(256 << 20 >> 2, cp.float32)
    rows_out = []
    for name, sms, threads, lanes, u, warm, wide in cases():
        rows, pitch = shape(len(sms), threads, wide)
        n_warps = len(sms) * threads // 32
        a, y = cp.ones(rows * pitch, cp.float32), cp.zeros(pitch, cp.float32)
        rank = cp.asarray(np.array(rank_table(sms), np.int32))
        st = cp.zeros(2 * n_warps, cp.int64)
        k = mod.get_function(f"walk_{u}")

        tail = (np.int32(rows), np.int32(pitch), np.int32(lanes))
        launch = partial(_launch, k, threads, (a, y, rank), st, tail, cp.zeros)
        per_rep = []
        for _ in range(REPS):
            if warm:
                launch()
            else:
                flush.fill(1.0)
            st.fill(0)
            launch()
            cp.cuda.Device().synchronize()
            stamps = cp.asnumpy(st)
            assert (stamps[1::2] > 0).all(), (name, "a CTA did not work: two CTAs on one SM?")
            per_rep.append(_trips(stamps, n_warps, rows, u))
        want = rows if lanes == 32 else None
        if want is not None:
            assert float(y[0]) == want, (name, u, float(y[0]))
        rows_out.append(_row(name, sms, threads, lanes, u, warm, rows, pitch, per_rep))
        print(json.dumps({k2: v for k2, v in rows_out[-1].items() if k2 != "reps"}), flush=True)
    write_jsonl(out / "gpc_inflight.jsonl", rows_out)


def _sim_trips(rep, rows: int, u: int) -> list[float]:
    """Cycles a trip of every working warp from the replay's issue cycles of its two clock64 reads
    (simgpu's functional %clock64 leaves out the waits for memory)."""
    return [float(t[1] - t[0]) / (rows // u) for t in rep.timing.clock_reads() if len(t) == 2]


def run_sim(out: Path) -> None:
    import simgpu as sg
    import simgpu.timing.model as timing_model
    timing_model.RECORD_AUTO_LIMIT = 10**9  # keep the per-entry record
    mod = sg.RawModule(code=(HERE / "kernels.cu").read_text())
    rows_out = []
    for name, sms, threads, lanes, u, warm, wide in cases():
        rows, pitch = shape(len(sms), threads, wide)
        n_warps = len(sms) * threads // 32
        a, y = sg.asarray(np.ones(rows * pitch, np.float32)), sg.zeros(pitch, np.float32)
        rank = sg.asarray(np.array(rank_table(sms), np.int32))
        st = sg.zeros(2 * n_warps, np.int64)
        k = mod.get_function(f"walk_{u}")

        tail = (np.int32(rows), np.int32(pitch), np.int32(lanes))
        launch = partial(_launch, k, threads, (a, y, rank), st, tail, sg.zeros)
        if warm:
            launch()
        rep = launch(warm_caches=warm)
        rows_out.append(_row(name, sms, threads, lanes, u, warm, rows, pitch, [_sim_trips(rep, rows, u)]))
        print(json.dumps({k2: v for k2, v in rows_out[-1].items() if k2 != "reps"}), flush=True)
    write_jsonl(out / "simgpu.jsonl", rows_out)


def _load(path: Path) -> dict:
    return {(r["case"], r["threads"], r["lanes"], r["unroll"], r["warm"], r["pitch"]): r for r in read_jsonl(path)}


def table(res: Path) -> None:
    real, sim = _load(res / "gpc_inflight.jsonl"), _load(res / "simgpu.jsonl")
    print(f"{'case':>13s} {'SMs':>4s} {'thr':>4s} {'ln':>3s} {'U':>3s} {'L2':>5s} {'pitch':>6s} {'device':>7s} {'min-max':>11s} "
          f"{'simgpu':>7s} {'min-max':>11s} {'sim/dev':>8s}")
    for key in real or sim:
        r, s = real.get(key), sim.get(key)
        any_ = r or s
        h = r["cyc_trip"] if r else float("nan")
        m = s["cyc_trip"] if s else float("nan")
        hr = f"{r['min']:.0f}-{r['max']:.0f}" if r else ""
        sr = f"{s['min']:.0f}-{s['max']:.0f}" if s else ""
        print(f"{key[0]:>13s} {any_['sms']:4d} {key[1]:4d} {key[2]:3d} {key[3]:3d} {'warm' if key[4] else 'cold':>5s} {key[5]:6d} "
              f"{h:7.0f} {hr:>11s} {m:7.0f} {sr:>11s} {m / h:8.2f}")


if __name__ == "__main__":
    main(run_device, run_sim, table, HERE / "results", __doc__)
