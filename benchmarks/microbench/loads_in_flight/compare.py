"""simgpu beside the H200 (results/): col_stream kernel times against U, and burst's issue and
completion stamps (the replay's issue cycles of lane 0's clock64 reads, as
../step_timelines/sim.py). `python compare.py [stream|burst] [RESULTS]`."""
import json
import sys
from pathlib import Path

import numpy as np
from cases import BURST_BUFFER_BYTES, STREAM_SHAPES, STREAM_TYPES, UNROLLS, burst_cases, stream_shape

import simgpu as sg
import simgpu.timing.model as timing_model

HERE = Path(__file__).resolve().parent


def load(res: Path, name: str) -> list[dict]:
    path = res / name
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def stream(mod, res: Path) -> None:
    real = {(r["type"], r["ctas"], r["threads"], r["unroll"]): r["us"] for r in load(res, "stream.jsonl")}
    print(f"{'type':>4s} {'CTAs x threads':>14s} {'U':>3s} {'H200 us':>8s} {'simgpu us':>9s} {'sim/H200':>8s}")
    for tag, dtype in STREAM_TYPES.items():
        for ctas, threads in STREAM_SHAPES:
            rows, cols = stream_shape(tag, ctas, threads)
            a, y = sg.asarray(np.ones(rows * cols, dtype)), sg.zeros(cols, dtype)
            for u in UNROLLS:
                rep = mod.get_function(f"col_stream_{tag}_{u}")((ctas,), (threads,), (a, y, np.int32(rows), np.int32(cols)))
                sim = rep.metrics["gpu__time_duration.sum"] / 1e3
                h = real.get((tag, ctas, threads, u))
                ratio = f"{sim / h:8.2f}" if h else ""
                print(f"{tag:>4s} {f'{ctas} x {threads}':>14s} {u:3d} {h or float('nan'):8.1f} {sim:9.1f} {ratio}", flush=True)


def burst(mod, res: Path) -> None:
    real = {(r["n"], r["mode"], r["warps"], r["lane_bytes"]): r for r in load(res, "burst.jsonl")}
    timing_model.RECORD_AUTO_LIMIT = 10**9  # keep the per-entry record
    buf, out = sg.asarray(np.ones(BURST_BUFFER_BYTES // 4, np.float32)), sg.zeros(4, np.float32)
    print(f"{'mode':>4s} {'lane B':>6s} {'warps':>5s} {'N':>3s} {'H200 issue':>10s} {'simgpu':>7s} "
          f"{'H200 done':>9s} {'simgpu':>7s}")
    for n, mode, warps, lane in burst_cases():
        rep = mod.get_function(f"burst_{n}_{mode}")((1,), (32 * warps,), (buf, out, sg.zeros(3 * warps, np.int64),
                                                                          np.int32(lane), np.int32(0)))
        st = np.array(rep.timing.clock_reads()[:warps])
        r = real.get((n, mode, warps, lane), {})
        print(f"{mode:>4s} {lane:6d} {warps:5d} {n:3d} {r.get('issue', float('nan')):10.0f} "
              f"{np.median(st[:, 1] - st[:, 0]):7.0f} {r.get('done', float('nan')):9.0f} {np.median(st[:, 2] - st[:, 0]):7.0f}",
              flush=True)


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else "both"
    res = Path(sys.argv[2]) if len(sys.argv) > 2 else HERE / "results"
    mod = sg.RawModule(code=(HERE / "kernels.cu").read_text())
    if what in ("burst", "both"):
        burst(mod, res)
    if what in ("stream", "both"):
        stream(mod, res)


if __name__ == "__main__":
    main()
