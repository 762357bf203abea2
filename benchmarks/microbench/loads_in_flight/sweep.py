"""Which limit sets the time each further line in flight adds to a col_stream trip? The float
col_pitch kernels (U = 1, 4, 16 loads a trip) over 16 MB, on 1-132 SMs of 4 warps, on all SMs with
1-16 warps, with rows padded apart, and on a warm L2-resident matrix (cases.sweep_cases).

    python sweep.py run OUT CUBIN     # device (CuPy): OUT/sweep.jsonl, CUDA-event medians of 5
    python sweep.py compare [RESULTS] # anywhere: simgpu beside the H200's sweep.jsonl
"""
import json
import sys
from functools import partial
from pathlib import Path

import numpy as np
from cases import SWEEP_UNROLLS, sweep_cases, sweep_shape

HERE = Path(__file__).resolve().parent


def run(out: Path, cubin: str) -> None:
    import cupy as cp
    sys.path.insert(0, str(HERE.parent))
    from event_timing import event_times
    mod = cp.RawModule(path=cubin)
    flush = cp.zeros(256 << 20 >> 2, cp.float32)
    rows_out = []
    for name, ctas, threads, pad, warm in sweep_cases():
        rows, cols, pitch = sweep_shape(ctas, threads, pad)
        a, y = cp.ones(rows * pitch, cp.float32), cp.zeros(cols, cp.float32)
        for u in SWEEP_UNROLLS:
            k = mod.get_function(f"col_pitch_f_{u}")
            args = (a, y, np.int32(rows), np.int32(cols), np.int32(pitch))
            launch = partial(k, (ctas,), (threads,), args)
            # a warm L2: the same launch untimed before each; a cold one: a 256 MB write before each
            times = [ms * 1e3 for ms in event_times(launch, 5, before=launch if warm else partial(flush.fill, 1.0),
                                                    warm=False)]
            assert float(y[0]) == rows, (name, u, float(y[0]))
            rows_out.append({"case": name, "ctas": ctas, "threads": threads, "pad": pad, "warm": warm, "unroll": u,
                             "rows": rows, "cols": cols, "us": float(np.median(times)), "all_us": times})
            print(json.dumps(rows_out[-1]), flush=True)
    (out / "sweep.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows_out))


def compare(res: Path) -> None:
    import simgpu as sg
    real = {}
    path = res / "sweep.jsonl"
    if path.exists():
        for line in path.read_text().splitlines():
            r = json.loads(line)
            real[(r["case"], r["ctas"], r["threads"], r["pad"], r["unroll"])] = r["us"]
    mod = sg.RawModule(code=(HERE / "kernels.cu").read_text())
    print(f"{'case':>5s} {'CTAs x thr':>10s} {'pad':>4s} {'U':>3s} {'H200 us':>8s} {'simgpu':>8s} {'ratio':>6s} "
          f"{'H200 cyc/trip':>13s}")
    for name, ctas, threads, pad, warm in sweep_cases():
        rows, cols, pitch = sweep_shape(ctas, threads, pad)
        a, y = sg.asarray(np.ones(rows * pitch, np.float32)), sg.zeros(cols, np.float32)
        for u in SWEEP_UNROLLS:
            args = (a, y, np.int32(rows), np.int32(cols), np.int32(pitch))
            k = mod.get_function(f"col_pitch_f_{u}")
            if warm:  # a first launch fills the L2, the second keeps it (warm_caches)
                k((ctas,), (threads,), args)
            rep = k((ctas,), (threads,), args, warm_caches=warm)
            sim = rep.metrics["gpu__time_duration.sum"] / 1e3
            h = real.get((name, ctas, threads, pad, u), float("nan"))
            trip = h * 1e3 / (rows / u) * 1.98
            print(f"{name:>5s} {f'{ctas} x {threads}':>10s} {pad:4d} {u:3d} {h:8.1f} {sim:8.1f} {sim / h:6.2f} {trip:13.0f}",
                  flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "run":
        run(Path(sys.argv[2]), sys.argv[3])
    else:
        compare(Path(sys.argv[2]) if len(sys.argv) > 2 else HERE / "results")
