"""branch_regions: cycles a loop step behind a branch costs one warp, on the GPU and in simgpu
(`python run.py gpu|sim OUT.json`, `python run.py table GPU.json SIM.json`): what ptxas's BRA and
its BSSY / BSYNC add to 12 dependent FFMAs (timing/convergence.py convergence_barriers). Each case
is (kernel, shape): one warp, and 4 warps of one CTA (one a sub-partition)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from side_by_side import cycles_per_step_main  # noqa: E402

SRC = (HERE / "kernels.cu").read_text()
STEPS = 256
KERNELS = {"straight": None, "uniform_if": None, "lane_if_all": None, "lane_if_half": None,
           "lane_ifelse_half": None, "straight_r1": None, "lane_if_all_r1": None, "lane_if_half_r1": None,
           "lane_ifelse_half_r1": None, "mulmax_r1": None}
SHAPES = {"1warp": (1, 32), "4warps": (1, 128)}


def _args(xp, kernel, grid, block):
    out = xp.zeros(grid * block // 32, dtype=np.int64)
    io = xp.asarray((np.arange(grid * block) % 7).astype(np.float32))
    return out, (out, io, np.int32(STEPS), np.int32(32))


if __name__ == "__main__":
    cycles_per_step_main(SRC, KERNELS, SHAPES, _args, STEPS, sys.argv[1:])
