"""fences: cycles a loop step of a store and / or a memory fence costs one warp, on the GPU and in
simgpu (`python run.py gpu|sim OUT.json`, `python run.py table GPU.json SIM.json`). Each case is
(kernel, grid, block): one warp alone, 8 warps of one CTA, and 8 warps on each of 132 SMs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from side_by_side import clock_cycles_per_step, cycles_table  # noqa: E402

SRC = (HERE / "kernels.cu").read_text()
ITERS = 256
KERNELS = ["none", "block_fence", "gpu_fence", "acq_rel_gpu", "system_fence", "store_only", "store_gpu_fence",
           "store_block_fence"]
SHAPES = {"1warp": (1, 32), "8warps": (1, 256), "8warps_132sms": (132, 256),
          # how the 8-warp contention grows: one CTA of 2 to 32 warps (added 2026-12-07)
          "2warps": (1, 64), "4warps": (1, 128), "16warps": (1, 512), "32warps": (1, 1024)}


def _args(xp, grid, block):
    warps = grid * block // 32
    out = xp.zeros(warps, dtype=np.int64)
    return out, (out, xp.zeros(warps * 32, dtype=np.int32), np.int32(ITERS))


def gpu(path: str) -> None:
    import cupy as cp

    mod = cp.RawModule(code=SRC)
    res = {}
    for k in KERNELS:
        for shape, (grid, block) in SHAPES.items():
            out, args = _args(cp, grid, block)
            f = mod.get_function(k)
            f((grid,), (block,), args)
            f((grid,), (block,), args)
            cp.cuda.Device().synchronize()
            res[f"{k}/{shape}"] = float(np.median(out.get())) / ITERS
    Path(path).write_text(json.dumps(res, indent=1))


def sim(path: str) -> None:
    sys.path.insert(0, str(HERE.parents[2]))
    import simgpu as sg

    mod = sg.RawModule(code=SRC)
    res = {}
    for k in KERNELS:
        for shape, (grid, block) in SHAPES.items():
            if grid > 1:
                continue
            _, args = _args(sg, grid, block)
            rep = mod.get_function(k)((grid,), (block,), args)
            res[f"{k}/{shape}"] = clock_cycles_per_step(rep, ITERS)
    Path(path).write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    {"gpu": gpu, "sim": sim, "table": cycles_table}[sys.argv[1]](*sys.argv[2:])
