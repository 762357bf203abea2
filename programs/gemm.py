"""GEMM, C = A @ B in float32: naive, shared-memory tiled, and register-blocked (see gemm.cu)."""

from __future__ import annotations

from functools import partial

import numpy as np

from .base import Launches, Program, ProgramRun, backend, cdiv, load_module

SOURCE = "gemm.cu"
TILE = 16                   # gemm_naive / gemm_tiled: 16 x 16 threads, one output each
REG_TILE, REG_THREADS = 64, (16, 16)   # gemm_regblock: 64 x 64 outputs per CTA, 4 x 4 per thread


def reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A @ B computed in float64, rounded to float32 once at the end."""
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)


def run_gemm(kernel: str, size: dict[str, int], rng: np.random.Generator) -> ProgramRun:
    sg = backend()
    M, N, K = size["M"], size["N"], size["K"]
    a = rng.uniform(-1.0, 1.0, (M, K)).astype(np.float32)
    b = rng.uniform(-1.0, 1.0, (K, N)).astype(np.float32)

    mod = load_module(SOURCE)
    d_a, d_b = sg.asarray(a), sg.asarray(b)
    d_c = sg.zeros((M, N), dtype=np.float32)
    if kernel == "gemm_regblock":
        grid, block = (cdiv(N, REG_TILE), cdiv(M, REG_TILE)), REG_THREADS
    else:
        grid, block = (cdiv(N, TILE), cdiv(M, TILE)), (TILE, TILE)
    launches = Launches()
    launches(mod, kernel, grid, block, (d_a, d_b, d_c, np.int32(M), np.int32(N), np.int32(K)))

    # float32 sums of K products of numbers in [-1, 1): the rounding error grows about like K * eps
    return ProgramRun(kernel, dict(size), launches, {"C": d_c.get()}, {"C": reference(a, b)},
                      rtol=1e-4, atol=2e-6 * K)


_TEST_SIZES = (
    {"M": 16, "N": 16, "K": 16},
    {"M": 33, "N": 47, "K": 29},      # nothing a multiple of the tile
    {"M": 70, "N": 65, "K": 40},      # several CTAs per dimension, ragged edges
    {"M": 1, "N": 5, "K": 3},         # smaller than one tile
)

_DESCRIPTIONS = {
    "gemm_naive": "GEMM, one thread per output reading A and B from global memory",
    "gemm_tiled": "GEMM with 16x16 shared-memory tiles of A and B",
    "gemm_regblock": "GEMM with 64x64 shared-memory CTA tiles and a 4x4 register block per thread",
}

PROGRAMS = [
    Program(
        name=kernel,
        description=description,
        source_file=SOURCE,
        default_size={"M": 128, "N": 128, "K": 64},
        test_sizes=_TEST_SIZES,
        large_size={"M": 1024, "N": 1024, "K": 1024},
        runner=partial(run_gemm, kernel),
    )
    for kernel, description in _DESCRIPTIONS.items()
]
