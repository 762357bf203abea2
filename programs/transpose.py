"""Matrix transpose through a 32x32 shared-memory tile, unpadded (bank conflicts) and padded."""

from __future__ import annotations

from functools import partial

import numpy as np

from .base import Launches, Program, ProgramRun, backend, cdiv, load_module

SOURCE = "transpose.cu"
TILE_DIM, BLOCK_ROWS = 32, 8


def run_transpose(kernel: str, size: dict[str, int], rng: np.random.Generator) -> ProgramRun:
    sg = backend()
    rows, cols = size["rows"], size["cols"]
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    mod = load_module(SOURCE)
    d_x = sg.asarray(x)
    out_shape = (rows, cols) if kernel == "copy2d" else (cols, rows)
    d_out = sg.zeros(out_shape, dtype=np.float32)
    launches = Launches()
    launches(mod, kernel, (cdiv(cols, TILE_DIM), cdiv(rows, TILE_DIM)), (TILE_DIM, BLOCK_ROWS),
             (d_x, d_out, np.int32(rows), np.int32(cols)))
    expected = x.copy() if kernel == "copy2d" else np.ascontiguousarray(x.T)
    return ProgramRun(kernel, dict(size), launches, {"out": d_out.get()}, {"out": expected},
                      rtol=0.0, atol=0.0)          # moving data must be exact


_DESCRIPTIONS = {
    "transpose_naive": "Transpose via a 32x32 shared-memory tile without padding (32-way bank conflicts)",
    "transpose_padded": "Transpose via a 32x33 padded shared-memory tile (no bank conflicts)",
    "copy2d": "Plain 2-D copy with the transpose's access pattern: the bandwidth baseline",
}

PROGRAMS = [
    Program(
        name=kernel, description=description, source_file=SOURCE,
        default_size={"rows": 256, "cols": 256},
        test_sizes=({"rows": 32, "cols": 32}, {"rows": 45, "cols": 70}, {"rows": 64, "cols": 33},
                    {"rows": 1, "cols": 7}),
        large_size={"rows": 4096, "cols": 4096},
        runner=partial(run_transpose, kernel),
    )
    for kernel, description in _DESCRIPTIONS.items()
]
