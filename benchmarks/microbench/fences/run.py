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
from side_by_side import cycles_table, gpu_cycles_per_step, sim_cycles_per_step  # noqa: E402

SRC = (HERE / "kernels.cu").read_text()
ITERS = 256
KERNELS = ["none", "block_fence", "gpu_fence", "acq_rel_gpu", "system_fence", "store_only", "store_gpu_fence",
           "store_block_fence"]
SHAPES = {"1warp": (1, 32), "8warps": (1, 256), "8warps_132sms": (132, 256),
          # how the 8-warp contention grows: one CTA of 2 to 32 warps (added 2026-12-07)
          "2warps": (1, 64), "4warps": (1, 128), "16warps": (1, 512), "32warps": (1, 1024)}


def _args(xp, _kernel, grid, block):
    warps = grid * block // 32
    out = xp.zeros(warps, dtype=np.int64)
    return out, (out, xp.zeros(warps * 32, dtype=np.int32), np.int32(ITERS))


def gpu(path: str) -> None:
    res = gpu_cycles_per_step(SRC, KERNELS, SHAPES, _args, ITERS)
    Path(path).write_text(json.dumps(res, indent=1))


def sim(path: str) -> None:
    one_cta = {s: gb for s, gb in SHAPES.items() if gb[0] == 1}  # the 132-SM shape on the GPU only
    res = sim_cycles_per_step(SRC, KERNELS, one_cta, _args, ITERS)
    Path(path).write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    {"gpu": gpu, "sim": sim, "table": cycles_table}[sys.argv[1]](*sys.argv[2:])
