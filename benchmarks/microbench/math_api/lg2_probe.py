"""On the H200: MUFU.LG2 (lg2.approx.ftz.f32) over every float32 mantissa at the exponent 0, and
whether the result at other exponents e is float32(e + that result), i.e. whether one table of the
mantissa's logarithm decides the unit. Saves the table as offsets in ulp from log2(m) rounded
toward zero.

    python3 lg2_probe.py OUT.npz
"""

from __future__ import annotations

import json
import sys

import cupy as cp
import numpy as np

SRC = r"""
extern "C" __global__ void lg2(const float* a, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float r; asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a[i])); out[i] = r; }
}
"""


def run(kernel, x):
    out = cp.empty_like(x)
    kernel(((x.size + 255) // 256,), (256,), (x, out, np.int32(x.size)))
    return out


def main() -> None:
    k = cp.RawKernel(SRC, "lg2")
    m = cp.arange(1 << 23, dtype=cp.uint32)
    x0 = ((cp.uint32(127) << 23) | m).view(cp.float32)
    t = run(k, x0)  # log2 of the mantissa, as the unit gives it
    stats = {}
    for e in (1, -1, 2, -2, 10, -10, 100, -100, 127, -126):
        xe = ((cp.uint32(127 + e) << 23) | m).view(cp.float32)
        r = run(k, xe)
        model = (cp.float32(e) + t).astype(cp.float32)  # float32 add, rounded to nearest
        d = r.view(cp.int32).astype(cp.int64) - model.view(cp.int32).astype(cp.int64)
        vals, counts = cp.unique(d, return_counts=True)
        stats[f"e{e:+d}"] = {int(v): int(c) for v, c in zip(cp.asnumpy(vals), cp.asnumpy(counts))}
        # also: the exact e + log2(m) rounded to nearest, for comparison
        ex = (e + cp.log2(x0.astype(cp.float64))).astype(cp.float32)
        stats[f"e{e:+d}_vs_correctly_rounded_equal"] = int((ex == r).sum())
    exact = cp.log2(x0.astype(cp.float64))
    lo = exact.astype(cp.float32)
    lo = cp.where(lo.astype(cp.float64) > exact, cp.nextafter(lo, cp.float32(0)), lo)
    off = t.view(cp.int32).astype(cp.int64) - lo.view(cp.int32).astype(cp.int64)
    vals, counts = cp.unique(off, return_counts=True)
    stats["table_offsets_range"] = [int(vals.min()), int(vals.max())]
    stats["table_offsets_top"] = {int(v): int(c) for v, c in sorted(zip(cp.asnumpy(vals), cp.asnumpy(counts)),
                                                                   key=lambda p: -p[1])[:12]}
    np.savez_compressed(sys.argv[1], offsets=cp.asnumpy(off).astype(np.int32), table_bits=cp.asnumpy(t.view(cp.uint32)))
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
