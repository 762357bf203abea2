"""drift.cu's two kernels in simgpu: the same spreads as drift.py, from the timing replay's issue
cycles of each warp's clock64 read (simgpu's replay is where its warps have a time).
`python sim_drift.py [gto|lrr]` prints the table; results/sim_drift_<policy>.json."""
import json
import sys
from pathlib import Path

import numpy as np
from drift import spreads

import simgpu as sg
import simgpu.timing.model as timing_model

HERE = Path(__file__).resolve().parent


def replay_stamps(rep, steps):
    """Per warp the issue cycle of each of its `steps` clock64 reads, and its SM (replay's)."""
    reads = rep.timing.clock_reads()
    stamps = np.zeros((len(reads), steps), np.int64)
    for w, t in enumerate(reads):
        stamps[w] = t
    return stamps, rep.timing.timeline["warp_sm"]


def main():
    policy = sys.argv[1] if len(sys.argv) > 1 else "gto"
    timing_model.RECORD_AUTO_LIMIT = 10**9  # keep the per-entry record of these large launches
    mod = sg.RawModule(code=(HERE / "drift.cu").read_text())
    res = {"policy": policy}
    n = 1024
    r = np.random.default_rng(1)
    A = sg.asarray((r.random(n * n) - 0.5).astype(np.float16))
    B = sg.asarray((r.random(n * n) - 0.5).astype(np.float16))
    warps = n * n // 256
    rep = mod.get_function("wmma_drift")((warps // 4,), (128,), (A, B, sg.zeros(n * n, np.float32), np.int32(n),
                                                             sg.zeros(warps * (n // 16), np.int64),
                                                             sg.zeros(warps, np.int32)), scheduler=policy)
    res["wmma_drift"] = spreads(*replay_stamps(rep, n // 16), 4)
    res["wmma_drift"]["l1_hit_rate_pct"] = rep.metrics["l1tex__t_sector_hit_rate.pct"]
    rows = 132 * 64
    x = sg.asarray(r.standard_normal(rows * 1024, dtype=np.float32))
    rep = mod.get_function("rows_drift")((rows // 8,), (256,), (x, sg.zeros(rows, np.float32), np.int32(1024),
                                                                sg.zeros(rows * 64, np.int64), sg.zeros(rows, np.int32)),
                                         scheduler=policy)
    res["rows_drift"] = spreads(*replay_stamps(rep, 64), 8)
    res["rows_drift"]["l1_hit_rate_pct"] = rep.metrics["l1tex__t_sector_hit_rate.pct"]
    out = HERE / "results"
    out.mkdir(exist_ok=True)
    (out / f"sim_drift_{policy}.json").write_text(json.dumps(res, indent=1))
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
