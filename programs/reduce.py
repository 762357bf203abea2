"""Sum reductions (shared-memory tree, warp shuffles, atomics) and a shared-atomic histogram."""

from __future__ import annotations

from functools import partial

import numpy as np

from .base import Launches, Program, ProgramRun, backend, load_module

SOURCE = "reduce.cu"


def _check_threads(kernel: str, threads: int) -> None:
    if threads % 32 or not 32 <= threads <= 1024:
        raise ValueError(f"threads must be a multiple of 32 in 32..1024, got {threads}")
    if kernel == "reduce_shared" and threads & (threads - 1):
        raise ValueError(f"reduce_shared's tree needs a power-of-two block, got threads={threads}")


def run_reduce(name: str, kernel: str, size: dict[str, int], rng: np.random.Generator) -> ProgramRun:
    sg = backend()
    n, blocks, threads = size["n"], size["blocks"], size["threads"]
    _check_threads(kernel, threads)
    # Non-negative values: the relative error of the sum is then meaningful (no cancellation).
    x = rng.uniform(0.0, 1.0, n).astype(np.float32)

    mod = load_module(SOURCE)
    d_x = sg.asarray(x)
    d_out = sg.zeros(1, dtype=np.float32)
    launches = Launches()
    if kernel == "reduce_atomic":
        launches(mod, kernel, (blocks,), (threads,), (d_x, d_out, np.int32(n)))
    else:
        # pass 1: one partial sum per block; pass 2: one block sums the partials
        d_partial = sg.zeros(blocks, dtype=np.float32)
        smem = threads * 4 if kernel == "reduce_shared" else 0     # extern __shared__ float sdata[]
        launches(mod, kernel, (blocks,), (threads,), (d_x, d_partial, np.int32(n)), shared_mem=smem)
        launches(mod, kernel, (1,), (threads,), (d_partial, d_out, np.int32(blocks)), shared_mem=smem)

    expected = np.array([x.astype(np.float64).sum()], dtype=np.float32)
    # float32 partial sums in a tree: relative error ~ eps * (elements per thread + log2 n)
    return ProgramRun(name, dict(size), launches, {"sum": d_out.get()}, {"sum": expected},
                      rtol=1e-5, atol=1e-5)


def run_histogram(size: dict[str, int], rng: np.random.Generator) -> ProgramRun:
    sg = backend()
    n, bins, blocks, threads = size["n"], size["bins"], size["blocks"], size["threads"]
    # Skewed on purpose: half the values land in bin 0, so many threads hit one shared counter.
    values = rng.integers(0, bins, n).astype(np.int32)
    values[rng.random(n) < 0.5] = 0
    values[:: 97] = bins + 3                   # a few out-of-range values, which are ignored

    mod = load_module(SOURCE)
    d_bins = sg.zeros(bins, dtype=np.uint32)
    launches = Launches()
    launches(mod, "histogram", (blocks,), (threads,),
             (sg.asarray(values), d_bins, np.int32(n), np.int32(bins)), shared_mem=bins * 4)
    expected = np.bincount(values[values < bins], minlength=bins).astype(np.uint32)
    return ProgramRun("histogram", dict(size), launches, {"bins": d_bins.get()}, {"bins": expected},
                      rtol=0.0, atol=0.0)


_DESCRIPTIONS = {
    "reduce_shared": "Sum: grid-stride loop, tree reduction in dynamic shared memory, two launches",
    "reduce_shuffle": "Sum: grid-stride loop, __shfl_down_sync warp reductions, two launches",
    "reduce_atomic": "Sum: warp shuffles, then one float atomicAdd per warp, one launch",
}
_KERNELS = {"reduce_shared": "reduce_shared", "reduce_shuffle": "reduce_warp_shuffle",
            "reduce_atomic": "reduce_atomic"}
_TESTS = (
    {"n": 1000, "blocks": 4, "threads": 64},
    {"n": 4099, "blocks": 8, "threads": 128},
    {"n": 37, "blocks": 2, "threads": 32},            # fewer elements than threads
)

PROGRAMS = [
    Program(
        name=name, description=_DESCRIPTIONS[name], source_file=SOURCE,
        default_size={"n": 1 << 16, "blocks": 64, "threads": 256},
        test_sizes=_TESTS,
        large_size={"n": 1 << 24, "blocks": 1056, "threads": 256},
        runner=partial(run_reduce, name, kernel),
    )
    for name, kernel in _KERNELS.items()
] + [
    Program(
        name="histogram",
        description="Histogram: per-block counters with shared atomics, merged with global atomics",
        source_file=SOURCE,
        default_size={"n": 1 << 16, "bins": 64, "blocks": 32, "threads": 256},
        test_sizes=({"n": 1000, "bins": 16, "blocks": 4, "threads": 64},
                    {"n": 3001, "bins": 100, "blocks": 3, "threads": 96},
                    {"n": 50, "bins": 7, "blocks": 2, "threads": 32}),
        large_size={"n": 1 << 24, "bins": 256, "blocks": 528, "threads": 256},
        runner=run_histogram,
    )
]
