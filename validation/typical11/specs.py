"""Launch specs for kernels.cu (eleventh batch, written 2026-12-02 after the call support and used to
set nothing): inputs, launch shape and a NumPy reference for each."""

import numpy as np


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _fib(n, out, count):
    f = [0, 1]
    while len(f) < 64:
        f.append(f[-1] + f[-2])
    return [np.array(f, np.int64)[n].astype(np.int32)]


def _fptr(x, sel, out, n):
    x = x.astype(np.float32)
    r = np.choose(sel & 3, [np.float32(1.5) * x, x - np.float32(2), x * x, np.float32(0.5) * x + np.float32(1)])
    return [r.astype(np.float32)]


def _area(a, b, kind, out, n):
    circle = np.float32(3.14159265) * a * a
    return [np.where(kind != 0, a * b, circle).astype(np.float32)]


def _malloc(x, out, n):
    return [(x.astype(np.int64) * sum(range(0, 16, 3))).astype(np.int32)]


def _fns(masks, k, out, n):
    r = np.full(n, 0xFFFFFFFF, np.uint32)
    for i in range(n):
        bits = [b for b in range(32) if (int(masks[i]) >> b) & 1]
        if k[i] == 0:  # offset 0: is bit `base` (0) set
            r[i] = 0 if int(masks[i]) & 1 else 0xFFFFFFFF
        elif k[i] <= len(bits):
            r[i] = bits[k[i] - 1]
    return [r]


def _poly(x, out, n):
    x = x.astype(np.float64)
    return [((0.25 * x - 1.0) * x + 1.0).astype(np.float32)]


def specs():
    out = []
    count = 16384
    out.append(dict(name="fib_lanes", kernel="fib_lanes", grid=(count // 128,), block=(128,),
                    args=[_rng(1).integers(0, 12, count, dtype=np.int32), np.zeros(count, np.int32),
                          np.int32(count)], outputs=[1], reference=_fib))
    n = 1 << 18
    out.append(dict(name="fptr_table", kernel="fptr_table", grid=(n // 256,), block=(256,),
                    args=[_rng(2).standard_normal(n, dtype=np.float32), _rng(3).integers(0, 4, n, dtype=np.int32),
                          np.zeros(n, np.float32), np.int32(n)], outputs=[2], reference=_fptr, rtol=1e-6))
    out.append(dict(name="virtual_area", kernel="virtual_area", grid=(n // 256,), block=(256,),
                    args=[_rng(4).random(n, dtype=np.float32), _rng(5).random(n, dtype=np.float32),
                          _rng(6).integers(0, 2, n, dtype=np.int32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[3], reference=_area, rtol=1e-6))
    m = 8192
    out.append(dict(name="malloc_scratch", kernel="malloc_scratch", grid=(m // 128,), block=(128,),
                    args=[_rng(7).integers(-1000, 1000, m, dtype=np.int32), np.zeros(m, np.int32), np.int32(m)],
                    outputs=[1], reference=_malloc))
    out.append(dict(name="nth_set_bit", kernel="nth_set_bit", grid=(n // 256,), block=(256,),
                    args=[_rng(8).integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32),
                          _rng(9).integers(0, 20, n, dtype=np.int32), np.zeros(n, np.uint32), np.int32(n)],
                    outputs=[2], reference=_fns))
    out.append(dict(name="noinline_call", kernel="noinline_call", grid=(n // 256,), block=(256,),
                    args=[_rng(10).standard_normal(n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[1], reference=_poly, rtol=1e-5, atol=1e-6))
    return out
