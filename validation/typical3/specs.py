"""Launch specs for kernels.cu (third batch): inputs, launch shape and a NumPy reference for each."""

import numpy as np

SMS = 132


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _f32(r: np.random.Generator, n: int) -> np.ndarray:
    return r.random(n, dtype=np.float32)


def _gemm(A, B, C, n):
    return [(A.reshape(n, n).astype(np.float64) @ B.reshape(n, n)).astype(A.dtype).ravel()]


def _scan(i, o):
    b = i.reshape(-1, 512)
    return [(np.cumsum(b, axis=1, dtype=np.int32) - b).ravel()]


def _nbody(pos, acc, n):
    p = pos.reshape(-1, 4).astype(np.float64)
    d = p[None, :, :3] - p[:, None, :3]
    inv = 1.0 / np.sqrt((d * d).sum(2) + 1e-2)
    a = (d * (p[None, :, 3] * inv ** 3)[:, :, None]).sum(1)
    out = np.zeros((len(p), 4))
    out[:, :3] = a
    return [out.astype(np.float32).ravel()]


def _blur(i, o, w, h):
    a = np.pad(i.reshape(h, w).astype(np.float64), 2, mode="edge")
    s = sum(a[dy:dy + h, dx:dx + w] for dy in range(5) for dx in range(5))
    return [(s / 25.0).astype(np.float32).ravel()]


def _ell(cols, vals, x, y, rows, width):
    c = cols.reshape(width, rows)
    v = vals.reshape(width, rows).astype(np.float64)
    return [np.where(c >= 0, v * x[np.maximum(c, 0)], 0.0).sum(0).astype(np.float32)]


def _softmax(x, y, cols):
    a = x.reshape(-1, cols).astype(np.float64)
    e = np.exp(a - a.max(1, keepdims=True))
    return [(e / e.sum(1, keepdims=True)).astype(np.float32).ravel()]


def _mlp(W, x, b, y, ind, outd):
    r = x.reshape(-1, ind).astype(np.float64) @ W.reshape(outd, ind).T.astype(np.float64) + b
    return [np.maximum(r, 0).astype(np.float32).ravel()]


def _life(g, o, w, h):
    a = g.reshape(h, w).astype(np.int32)
    n = sum(np.roll(np.roll(a, dy, 0), dx, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
    return [((n == 3) | ((a == 1) & (n == 2))).astype(np.uint8).ravel()]


def _radix(k, c, n, shift):
    d = ((k >> shift) & 15).reshape(-1, 256)
    counts = np.stack([(d == v).sum(1) for v in range(16)]).astype(np.uint32)
    return [counts.ravel()]


def specs():
    out = []
    r = _rng(31)
    n = 128
    out.append(dict(name="dgemm_naive", kernel="dgemm_naive", grid=(n // 16, n // 16), block=(16, 16),
                    args=[r.random(n * n), r.random(n * n), np.zeros(n * n), np.int32(n)], outputs=[2],
                    reference=_gemm, rtol=1e-12))
    n = 256
    out.append(dict(name="sgemm_tile32", kernel="sgemm_tile32", grid=(n // 32, n // 32), block=(32, 32),
                    args=[_f32(r, n * n), _f32(r, n * n), np.zeros(n * n, np.float32), np.int32(n)], outputs=[2],
                    reference=_gemm, rtol=1e-4))
    out.append(dict(name="blelloch_scan", kernel="blelloch_scan", grid=(256,), block=(256,),
                    args=[r.integers(-50, 50, 256 * 512, dtype=np.int32), np.zeros(256 * 512, np.int32)],
                    outputs=[1], reference=_scan))
    m = 1 << 20
    out.append(dict(name="reduce6", kernel="reduce6", grid=(256,), block=(256,),
                    args=[_f32(r, m), np.zeros(256, np.float32), np.int32(m)], outputs=[1],
                    reference=lambda i, o, n: [i.reshape(-1, 256, 512).astype(np.float64).sum(axis=(0, 2))
                                               .astype(np.float32)], rtol=1e-4))
    nb = 2048
    pos = _f32(r, 4 * nb)
    out.append(dict(name="nbody_forces", kernel="nbody_forces", grid=(nb // 128,), block=(128,),
                    args=[pos, np.zeros(4 * nb, np.float32), np.int32(nb)], outputs=[1], reference=_nbody,
                    rtol=2e-3, atol=2e-2))
    data = r.integers(0, 256, m, dtype=np.uint8)
    out.append(dict(name="hist_warp_private", kernel="hist_warp_private", grid=(2 * SMS,), block=(256,),
                    args=[data, np.zeros(64, np.uint32), np.int32(m)], outputs=[1],
                    reference=lambda d, h, n: [np.bincount(d & 63, minlength=64).astype(np.uint32)]))
    w = h = 512
    out.append(dict(name="blur5x5", kernel="blur5x5", grid=(w // 16, h // 16), block=(16, 16),
                    args=[_f32(r, w * h), np.zeros(w * h, np.float32), np.int32(w), np.int32(h)], outputs=[1],
                    reference=_blur, rtol=1e-5))
    rows, width = 16384, 12
    cols = r.integers(0, rows, rows * width, dtype=np.int32)
    cols[r.random(rows * width) < 0.2] = -1
    out.append(dict(name="ell_spmv", kernel="ell_spmv", grid=(rows // 256,), block=(256,),
                    args=[cols, _f32(r, rows * width), _f32(r, rows), np.zeros(rows, np.float32), np.int32(rows),
                          np.int32(width)], outputs=[3], reference=_ell, rtol=1e-5))
    srows, scols = 2048, 256
    out.append(dict(name="online_softmax", kernel="online_softmax", grid=(srows // 8,), block=(256,),
                    args=[_f32(r, srows * scols), np.zeros(srows * scols, np.float32), np.int32(scols)],
                    outputs=[1], reference=_softmax, rtol=1e-4, atol=1e-7))
    ind, outd, batch = 256, 512, 128
    out.append(dict(name="mlp_relu", kernel="mlp_relu", grid=(batch,), block=(128,), shared_mem=ind * 4,
                    args=[(_f32(r, outd * ind) - 0.5), _f32(r, batch * ind), (_f32(r, outd) - 0.5),
                          np.zeros(batch * outd, np.float32), np.int32(ind), np.int32(outd)], outputs=[3],
                    reference=_mlp, rtol=1e-4, atol=1e-5))
    out.append(dict(name="mandelbrot", kernel="mandelbrot", grid=(w // 16, h // 16), block=(16, 16),
                    args=[np.zeros(w * h, np.int32), np.int32(w), np.int32(h), np.int32(256)], outputs=[0]))
    out.append(dict(name="life_step", kernel="life_step", grid=(w // 32, h // 8), block=(32, 8),
                    args=[(r.random(w * h) < 0.3).astype(np.uint8), np.zeros(w * h, np.uint8), np.int32(w),
                          np.int32(h)], outputs=[1], reference=_life))
    n2 = 1 << 19
    ha, hb = (r.random(2 * n2) * 2).astype(np.float16), (r.random(2 * n2) * 2).astype(np.float16)
    out.append(dict(name="half2_dot", kernel="half2_dot", grid=(2 * SMS,), block=(256,),
                    args=[ha, hb, np.zeros(1, np.float32), np.int32(n2)], outputs=[2],
                    reference=lambda a, b, o, n: [np.array([(a * b).astype(np.float64).sum()], np.float32)],
                    rtol=1e-3))
    keys = r.integers(0, 1 << 31, 1 << 18, dtype=np.uint32)
    out.append(dict(name="radix_digit_count", kernel="radix_digit_count", grid=(1024,), block=(256,),
                    args=[keys, np.zeros(16 * 1024, np.uint32), np.int32(1 << 18), np.int32(8)], outputs=[1],
                    reference=_radix))
    return out
