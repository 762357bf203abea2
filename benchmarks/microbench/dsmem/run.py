"""dsmem: distributed shared memory and cluster barriers, in cycles, on the GPU and in simgpu.

    python run.py gpu OUT.json     # device (CuPy): clock64 differences each kernel writes
    python run.py sim OUT.json     # anywhere: the same from simgpu's timing replay (its clock64 reads)
    python run.py table GPU.json SIM.json

Each case is (kernel, grid, block, scalar args, what one measured interval holds): the result is
cycles per step (chase, barriers) or per warp instruction of one SM (stream, atomics), the median
over the CTAs that measured.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SRC = (HERE / "kernels.cu").read_text()
STEPS = 1024
ITERS = 256

# name: (kernel, grid, block, scalar args, steps in one CTA's interval, which CTAs measured)
CASES = {
    "chase_lds": ("dsmem_chase_lds", 2, 32, (STEPS,), STEPS, [0]),
    "chase_own_rank": ("dsmem_chase", 2, 32, (STEPS, 0), STEPS, [0]),
    "chase_remote": ("dsmem_chase", 2, 32, (STEPS, 1), STEPS, [0]),
    "chase_generic_own": ("dsmem_chase_generic", 2, 32, (STEPS, 0), STEPS, [0]),
    "chase_generic_remote": ("dsmem_chase_generic", 2, 32, (STEPS, 1), STEPS, [0]),
    "chase_generic_global": ("dsmem_chase_generic", 2, 32, (STEPS, 2), STEPS, [0]),
    "block_sync_32": ("block_sync", 1, 32, (ITERS,), ITERS, None),
    "block_sync_256": ("block_sync", 1, 256, (ITERS,), ITERS, None),
    "cluster_sync2_32": ("cluster_sync2", 2, 32, (ITERS,), ITERS, None),
    "cluster_sync2_256": ("cluster_sync2", 2, 256, (ITERS,), ITERS, None),
    "cluster_sync4_32": ("cluster_sync4", 4, 32, (ITERS,), ITERS, None),
    "cluster_sync8_32": ("cluster_sync8", 8, 32, (ITERS,), ITERS, None),
    "cluster_sync8_256": ("cluster_sync8", 8, 256, (ITERS,), ITERS, None),
    "cluster_sync2_32_full": ("cluster_sync2", 264, 32, (ITERS,), ITERS, None),
    "stream_own": ("dsmem_stream", 2, 256, (ITERS, 0), ITERS * 8, None),
    "stream_remote": ("dsmem_stream", 2, 256, (ITERS, 1), ITERS * 8, None),
    "stream_remote_full": ("dsmem_stream", 132, 256, (ITERS, 1), ITERS * 8, None),
    "atomics_own": ("dsmem_atomics", 2, 256, (ITERS, 0), ITERS * 8, None),
    "atomics_remote": ("dsmem_atomics", 2, 256, (ITERS, 1), ITERS * 8, None),
}


def _args(xp, name):
    kernel, grid, block, scalars, _, _ = CASES[name]
    out = xp.zeros(max(2, grid), dtype=np.int64)
    extra = []
    if kernel == "dsmem_stream":
        extra = [xp.zeros(grid * block, dtype=np.float32)]
    elif kernel == "dsmem_atomics":
        extra = [xp.zeros(1, dtype=np.uint32)]
    elif kernel == "dsmem_chase_generic":  # the chain in global memory, as fill_chain writes it
        extra = [xp.asarray(((np.arange(1024) * 97 + 13) & 1023).astype(np.int32))]
    return out, extra, (out, *extra, *[np.int32(v) for v in scalars])


def _per_step(name, cycles):
    _, grid, _, _, steps, which = CASES[name]
    c = np.asarray(cycles, np.float64)[: grid][which if which is not None else slice(None)]
    return float(np.median(c)) / steps


def gpu(path: str) -> None:
    import cupy as cp

    mod = cp.RawModule(code=SRC, options=("-std=c++17",))
    res = {}
    for name, (kernel, grid, block, _, _, _) in CASES.items():
        out, extra, args = _args(cp, name)
        f = mod.get_function(kernel)
        f((grid,), (block,), args)  # warm-up
        f((grid,), (block,), args)
        cp.cuda.Device().synchronize()
        res[name] = {"per_step": _per_step(name, out.get().tolist() if not kernel.startswith("dsmem_chase") else [out.get()[0]]),
                     "check": [int(v) for v in extra[0].get()[:1]] if kernel == "dsmem_atomics" else None}
    Path(path).write_text(json.dumps(res, indent=1))


def sim(path: str) -> None:
    sys.path.insert(0, str(HERE.parents[2]))
    import simgpu as sg

    mod = sg.RawModule(code=SRC)
    res = {}
    for name, (kernel, grid, block, _, _, _) in CASES.items():
        if name.endswith("_full"):
            continue
        out, extra, args = _args(sg, name)
        rep = mod.get_function(kernel)((grid,), (block,), args)
        reads = rep.timing.clock_reads()  # per warp, the issue cycle of each clock64 read
        wpc = -(-block // 32)
        per_cta = [reads[c * wpc][1] - reads[c * wpc][0] if len(reads[c * wpc]) >= 2 else float("nan")
                   for c in range(grid)]
        res[name] = {"per_step": _per_step(name, per_cta if not kernel.startswith("dsmem_chase") else [per_cta[0]]),
                     "time_ns": rep.metrics["gpu__time_duration.sum"]}
    Path(path).write_text(json.dumps(res, indent=1))


def table(gpu_path: str, sim_path: str) -> None:
    g, s = json.loads(Path(gpu_path).read_text()), json.loads(Path(sim_path).read_text())
    print("| case | GPU cycles a step | simgpu |")
    print("|---|---|---|")
    for name in CASES:
        sv = s.get(name, {}).get("per_step")
        gv = g.get(name, {}).get("per_step")  # results recorded before a case was added lack it
        print(f"| {name} | {'-' if gv is None else f'{gv:.1f}'} | {'-' if sv is None else f'{sv:.1f}'} |")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "gpu":
        gpu(sys.argv[2])
    elif cmd == "sim":
        sim(sys.argv[2])
    elif cmd == "table":
        table(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit(__doc__)
