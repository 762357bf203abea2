"""shfl_chain: cycles a step of a dependent shuffle chain costs a warp, on the GPU and in simgpu
(`python run.py gpu|sim OUT.json`, `python run.py table GPU.json SIM.json`). Each case is (kernel,
shape): one warp, and 4 warps of one CTA (one a sub-partition)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from side_by_side import cycles_table, gpu_cycles_per_step, sim_cycles_per_step  # noqa: E402

SRC = (HERE / "kernels.cu").read_text()
ITERS = 64
STEPS = ITERS * 8
KERNELS = {"int_shfl": np.int32, "int_shfl_add": np.int32, "float_shfl": np.float32,
           "float_shfl_add": np.float32, "float_fma": np.float32}
SHAPES = {"1warp": (1, 32), "4warps": (1, 128)}


def _args(xp, kernel, grid, block):
    out = xp.zeros(grid * block // 32, dtype=np.int64)
    io = xp.asarray((np.arange(grid * block) % 7).astype(KERNELS[kernel]))
    return out, (out, io, np.int32(ITERS))


def gpu(path: str) -> None:
    res = gpu_cycles_per_step(SRC, KERNELS, SHAPES, _args, STEPS)
    Path(path).write_text(json.dumps(res, indent=1))


def sim(path: str) -> None:
    res = sim_cycles_per_step(SRC, KERNELS, SHAPES, _args, STEPS)
    Path(path).write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    {"gpu": gpu, "sim": sim, "table": cycles_table}[sys.argv[1]](*sys.argv[2:])
