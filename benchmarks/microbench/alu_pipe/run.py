"""alu_pipe: warp instructions an SM sub-partition issues a cycle to the FMA pipe and to the ALU
(`python run.py gpu|sim OUT.json`, `python run.py table GPU.json SIM.json`; `run.sh` on the device).
Each case's number is cycles a loop step; a step is 16 ops a thread (fsetp_fsel: 8 pairs), 32 warps
on one SM, so a sub-partition's 8 warps issue 128 warp instructions a step: 128 cycles a step is
one a cycle, 256 one every two."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from side_by_side import cycles_per_step_main  # noqa: E402

SRC = (HERE / "kernels.cu").read_text()
STEPS = 64
KERNELS = {"ffma": None, "fmnmx": None, "fsetp_fsel": None, "lop3": None, "shf": None, "iadd": None,
           "ffma_fmnmx": None}
SHAPES = {"32warps": (1, 1024)}
INTS = ("lop3", "shf", "iadd")


def _args(xp, kernel, grid, block):
    out = xp.zeros(grid * block // 32, dtype=np.int64)
    dtype = np.uint32 if kernel in INTS else np.float32
    io = xp.asarray((np.arange(grid * block) % 7 + 1).astype(dtype))
    return out, (out, io, np.int32(STEPS))


if __name__ == "__main__":
    cycles_per_step_main(SRC, KERNELS, SHAPES, _args, STEPS, sys.argv[1:])
