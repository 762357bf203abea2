"""On the H200: how MUFU.EX2 (ex2.approx.ftz.f32) reads its operand. Is 2**x a function of x on a
fixed-point grid (which spacing, which rounding onto it), and is the result's mantissa that of
2**frac(x) whatever the integer part? If so, one table over the grid decides it.

    python3 ex2_probe.py OUT.npz
"""

from __future__ import annotations

import json
import sys

import cupy as cp
import numpy as np

SRC = r"""
extern "C" __global__ void ex2(const float* a, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float r; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a[i])); out[i] = r; }
}
"""
Q = 24


def run(kernel, x: cp.ndarray) -> cp.ndarray:
    out = cp.empty_like(x)
    kernel(((x.size + 255) // 256,), (256,), (x, out, np.int32(x.size)))
    return out


def main() -> None:
    k = cp.ex2 = cp.RawKernel(SRC, "ex2")
    grid = cp.arange(1 << Q, dtype=cp.float64) / (1 << Q)  # frac in [0, 1)
    x0 = grid.astype(cp.float32)
    r0 = run(k, x0)
    stats = {}
    # exponent independence: 2**(frac + j) for j = 1, -1, 5, -20 has the same mantissa?
    for j in (1, -1, 5, -20):
        xj = (grid + j).astype(cp.float32)
        on_grid = (xj.astype(cp.float64) - j) == grid  # x = frac + j exactly representable
        rj = run(k, xj)
        same = (rj.view(cp.uint32) & 0x7FFFFF) == (r0.view(cp.uint32) & 0x7FFFFF)
        stats[f"mantissa_same_at_{j:+d}"] = [int((same & on_grid).sum()), int(on_grid.sum())]
    # the grid: does an operand between grid points give its neighbour's result, and which?
    small = cp.arange(1, 1 << 16, dtype=cp.float64) / (1 << Q)  # grid points below 2**-8
    for d in (2, 4, 8, 64):  # offsets of 1/d of a grid step
        lo, mid, hi = (small.astype(cp.float32), (small + 1 / (d << Q)).astype(cp.float32),
                       (small + 1.0 / (1 << Q) - 1 / (d << Q)).astype(cp.float32))
        rl, rm, rh = run(k, lo), run(k, mid), run(k, hi)
        rnext = run(k, (small + 1.0 / (1 << Q)).astype(cp.float32))
        stats[f"offset_1/{d}_above_equals_point"] = int((rm == rl).sum())
        stats[f"offset_1/{d}_below_next_equals_next"] = int((rh == rnext).sum())
        stats[f"offset_1/{d}_below_next_equals_point"] = int((rh == rl).sum())
    stats["points"] = int(small.size)
    # negative operands: the same questions with -frac - j (sign and magnitude?)
    rn0 = run(k, (-grid).astype(cp.float32))
    for j in (1, 5, 20):
        xj = (-grid - j).astype(cp.float32)
        on_grid = (-(xj.astype(cp.float64)) - j) == grid
        rj = run(k, xj)
        same = (rj.view(cp.uint32) & 0x7FFFFF) == (rn0.view(cp.uint32) & 0x7FFFFF)
        stats[f"neg_mantissa_same_at_-{j}"] = [int((same & on_grid).sum()), int(on_grid.sum())]
    for d in (2, 64):
        pt = (-small).astype(cp.float32)
        rp = run(k, pt)
        toward0 = run(k, (-small + 1 / (d << Q)).astype(cp.float32))  # between -small and the point above it
        away = run(k, (-small - 1 / (d << Q)).astype(cp.float32))
        stats[f"neg_offset_1/{d}_toward_zero_equals_point"] = int((toward0 == rp).sum())
        stats[f"neg_offset_1/{d}_away_equals_point"] = int((away == rp).sum())
    exn = cp.exp2(-grid)
    lon = exn.astype(cp.float32)
    lon = cp.where(lon.astype(cp.float64) > exn, cp.nextafter(lon, cp.float32(0)), lon)
    offn = rn0.view(cp.int32).astype(cp.int64) - lon.view(cp.int32).astype(cp.int64)
    vals, counts = cp.unique(offn, return_counts=True)
    stats["neg_offsets_from_toward_zero"] = {int(v): int(c) for v, c in zip(cp.asnumpy(vals), cp.asnumpy(counts))}
    exact = cp.exp2(grid)
    lo = exact.astype(cp.float32)
    lo = cp.where(lo.astype(cp.float64) > exact, cp.nextafter(lo, cp.float32(0)), lo)
    off = r0.view(cp.int32).astype(cp.int64) - lo.view(cp.int32).astype(cp.int64)
    vals, counts = cp.unique(off, return_counts=True)
    stats["offsets_from_toward_zero"] = {int(v): int(c) for v, c in zip(cp.asnumpy(vals), cp.asnumpy(counts))}
    np.savez_compressed(sys.argv[1], offsets=cp.asnumpy(off).astype(np.int8), neg_offsets=cp.asnumpy(offn).astype(np.int8))
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
