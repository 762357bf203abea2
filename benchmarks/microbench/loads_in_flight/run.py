"""Device run (CuPy, run.sh's nvcc cubin): every col_stream launch on a cold L2 (a 256 MB write
before each timed launch), CUDA-event medians of 5; every burst launch on one SM, lane 0's stamps
of each warp, medians of 5 launches. `python run.py OUT CUBIN` -> OUT/stream.jsonl, OUT/burst.jsonl."""
import json
import sys
from functools import partial
from pathlib import Path

import cupy as cp
import numpy as np
from cases import BURST_BUFFER_BYTES, STREAM_SHAPES, STREAM_TYPES, UNROLLS, burst_cases, stream_shape

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from event_timing import event_times  # noqa: E402

OUT = Path(sys.argv[1])
mod = cp.RawModule(path=sys.argv[2])
flush = cp.zeros(256 << 20 >> 2, cp.float32)


def stream() -> None:
    rows_out = []
    for tag, dtype in STREAM_TYPES.items():
        for ctas, threads in STREAM_SHAPES:
            rows, cols = stream_shape(tag, ctas, threads)
            a = cp.ones(rows * cols, dtype)
            y = cp.zeros(cols, dtype)
            for u in UNROLLS:
                k = mod.get_function(f"col_stream_{tag}_{u}")
                launch = partial(k, (ctas,), (threads,), (a, y, np.int32(rows), np.int32(cols)))
                times = [ms * 1e3 for ms in event_times(launch, 5, before=partial(flush.fill, 1.0), warm=False)]
                assert float(y[0]) == rows, (tag, u, float(y[0]))
                us = float(np.median(times))
                rows_out.append({"type": tag, "ctas": ctas, "threads": threads, "unroll": u, "rows": rows,
                                 "cols": cols, "us": us, "gb_s": a.nbytes / us / 1e3, "all_us": times})
                print(json.dumps(rows_out[-1]), flush=True)
            del a
    (OUT / "stream.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows_out))


def burst() -> None:
    buf = cp.ones(BURST_BUFFER_BYTES // 4, cp.float32)
    out = cp.zeros(4, cp.float32)
    rows_out = []
    for n, mode, warps, lane in burst_cases():
        k = mod.get_function(f"burst_{n}_{mode}")
        st = cp.zeros(3 * warps, cp.int64)
        issue, done = [], []
        for _ in range(6):
            k((1,), (32 * warps,), (buf, out, st, np.int32(lane), np.int32(0)))
            s = cp.asnumpy(st).reshape(warps, 3)
            issue.append(float(np.median(s[:, 1] - s[:, 0])))
            done.append(float(np.median(s[:, 2] - s[:, 0])))
        rows_out.append({"n": n, "mode": mode, "warps": warps, "lane_bytes": lane,
                         "issue": float(np.median(issue[1:])), "done": float(np.median(done[1:])),
                         "issue_max_warp": int((s[:, 1] - s[:, 0]).max()), "done_max_warp": int((s[:, 2] - s[:, 0]).max())})
        print(json.dumps(rows_out[-1]), flush=True)
    (OUT / "burst.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows_out))


if __name__ == "__main__":
    gpu = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(gpu)
    burst()
    stream()
