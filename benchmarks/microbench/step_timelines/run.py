"""Device run (CuPy, nvcc's cubins from run.sh): each case of cases.py, original and instrumented,
on a cold L2 (a 256 MB write before each timed launch); writes OUT/stamps.npz (per warp clock64
stamps and SM) and OUT/times.json (CUDA-event times of both, to see what the stamps cost)."""
import json
import sys
from pathlib import Path

import cupy as cp
import numpy as np
from cases import CASES, STRIDE, suite_spec, warps_of

OUT = Path(sys.argv[1])
CUBINS = Path(sys.argv[2])
flush = cp.zeros(256 << 20 >> 2, cp.float32)


def timed(fn, args, grid, block, reps=5):
    times = []
    for _ in range(reps):
        flush.fill(1.0)
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        fn(grid, block, args)
        b.record()
        b.synchronize()
        times.append(cp.cuda.get_elapsed_time(a, b) * 1e3)
    return float(np.median(times)), times


def main():
    raw, times = {}, {"gpu": cp.cuda.runtime.getDeviceProperties(0)["name"].decode()}
    inst = cp.RawModule(path=str(CUBINS / "step_timelines.cubin"))
    for case, (folder, kname) in CASES.items():
        spec = suite_spec(folder, case)
        orig = cp.RawModule(path=str(CUBINS / f"{folder}.cubin")).get_function(spec["kernel"])
        args = [cp.asarray(a) if isinstance(a, np.ndarray) and a.ndim else a for a in spec["args"]]
        grid, block = tuple(spec["grid"]), tuple(spec["block"])
        warps = warps_of(spec)
        st = cp.zeros(warps * STRIDE, cp.int64)
        sm = cp.zeros(warps, cp.uint32)
        t_orig, all_orig = timed(orig, tuple(args), grid, block)
        t_inst, all_inst = timed(inst.get_function(kname), tuple(args) + (st, sm), grid, block)
        raw[f"{case}_stamps"] = cp.asnumpy(st).reshape(warps, STRIDE)  # the last (cold-L2) launch
        raw[f"{case}_sm"] = cp.asnumpy(sm)
        times[case] = {"orig_us": t_orig, "instrumented_us": t_inst, "orig_all": all_orig, "inst_all": all_inst}
        print(case, times[case])
    np.savez_compressed(OUT / "stamps.npz", **raw)
    (OUT / "times.json").write_text(json.dumps(times, indent=1))


if __name__ == "__main__":
    main()
