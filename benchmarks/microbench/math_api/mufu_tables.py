"""On the H200: MUFU.RCP, MUFU.RSQ and MUFU.SQRT over every float32 mantissa, as one bit per
operand: whether the unit rounded its result up from the exact value (1 = the float above the
exact value rounded toward zero, 0 = that rounded-toward-zero float), and, for the operands whose
result is neither of those two, its distance from the rounded-toward-zero float in ulp
(`<op>_other_index`, `<op>_other_ulps`). Checked independent of the exponent (the same results at
a second exponent, a second pair for the square roots, whose result depends on the exponent's
parity).

    python3 mufu_tables.py OUT.npz      # ~2 s on the H200; simgpu/exec/data/mufu_h200.npz
"""

from __future__ import annotations

import json
import sys

import cupy as cp
import numpy as np

SRC = r"""
extern "C" __global__ void mufu(const float* a, float* out, int n, int op) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], r;
    if (op == 0) asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    else if (op == 1) asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    else asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    out[i] = r;
}
"""
OPS = {"rcp": (0, lambda x: 1.0 / x, [[127], [167]]),
       "rsqrt": (1, lambda x: 1.0 / cp.sqrt(x), [[127, 128], [87, 88]]),
       "sqrt": (2, cp.sqrt, [[127, 128], [87, 88]])}


def measure(kernel, op: int, fn, exponents: list[int]):
    m = cp.arange(1 << 23, dtype=cp.uint32)
    x = cp.concatenate([(cp.uint32(e) << 23) | m for e in exponents]).view(cp.float32)
    hw = cp.empty_like(x)
    kernel(((x.size + 255) // 256,), (256,), (x, hw, np.int32(x.size), np.int32(op)))
    exact = fn(x.astype(cp.float64))
    lo = exact.astype(cp.float32)
    lo = cp.where(lo.astype(cp.float64) > exact, cp.nextafter(lo, cp.float32(0)), lo)  # toward zero (exact > 0)
    hi = cp.nextafter(lo, cp.float32(cp.inf))
    up = hw == hi
    other = ~up & (hw != lo)
    offset = hw.view(cp.int32).astype(cp.int64) - lo.view(cp.int32).astype(cp.int64)
    exact_hit = lo.astype(cp.float64) == exact
    idx = cp.nonzero(other)[0]
    return (cp.asnumpy(up), int(other.sum()), int((exact_hit & (hw != lo)).sum()), cp.asnumpy(idx).astype(np.uint32),
            cp.asnumpy(offset[idx]).astype(np.int8), cp.asnumpy(hw.view(cp.uint32)))


def main() -> None:
    kernel = cp.RawKernel(SRC, "mufu")
    tables, stats = {}, {}
    for name, (op, fn, sets) in OPS.items():
        first, bad1, ex1, idx, off, bits1 = measure(kernel, op, fn, sets[0])
        second, bad2, ex2, idx2, off2, bits2 = measure(kernel, op, fn, sets[1])
        tables[name] = np.packbits(first, bitorder="little")
        tables[f"{name}_other_index"], tables[f"{name}_other_ulps"] = idx, off
        mant = (bits1 & 0x807FFFFF) ^ (bits2 & 0x807FFFFF)  # same result mantissas at the other exponent?
        stats[name] = {"operands": int(first.size), "rounded_up": int(first.sum()), "neither_neighbour": bad1,
                       "neither_at_other_exponent": bad2, "other_ulps": sorted(set(off.tolist())),
                       "exact_results_missed": ex1 + ex2, "differ_at_other_exponent": int((first != second).sum()),
                       "result_mantissas_differ": int((mant != 0).sum())}
    np.savez_compressed(sys.argv[1], **tables)
    print(json.dumps({"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), **stats}))


if __name__ == "__main__":
    main()
