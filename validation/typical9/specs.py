"""Launch specs for kernels.cu (ninth batch, written 2026-12-01 and used to set nothing): inputs,
launch shape and a NumPy reference for each, from first principles."""

import numpy as np


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _block_sums(x, out):
    return [x.reshape(-1, 256).astype(np.float64).sum(1).astype(np.float32)]


def _block_sums512(x, out):
    return [x.reshape(-1, 512).astype(np.float64).sum(1).astype(np.float32)]


def _transpose(width, height):
    return lambda a, b, w, h: [a.reshape(height, width).T.copy().ravel()]


def _batched(n):
    def ref(A, B, C, _n):
        a, b = A.reshape(-1, n, n).astype(np.float64), B.reshape(-1, n, n).astype(np.float64)
        return [(a @ b).astype(np.float32).ravel()]
    return ref


def _adam(p, g, m, v, lr, b1, b2, eps, c1, c2, n):
    p, g, m, v = (a.astype(np.float64) for a in (p, g, m, v))
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    p = p - lr * (m * c1) / (np.sqrt(v * c2) + eps)
    return [p.astype(np.float32), m.astype(np.float32), v.astype(np.float32)]


def _pool(planes, h, w):
    def ref(x, out, _h, _w):
        t = x.reshape(planes, h // 2, 2, w // 2, 2)
        return [t.max(axis=(2, 4)).ravel()]
    return ref


def _argmax(x, idx, rows, cols):
    return [x.reshape(rows, cols).argmax(1).astype(np.int32)]


def _sobel(img, out, w, h):
    p = img.reshape(h, w).astype(np.int32)
    c = lambda dy, dx: p[1 + dy:h - 1 + dy, 1 + dx:w - 1 + dx]  # noqa: E731
    gx = (c(-1, 1) + 2 * c(0, 1) + c(1, 1)) - (c(-1, -1) + 2 * c(0, -1) + c(1, -1))
    gy = (c(1, -1) + 2 * c(1, 0) + c(1, 1)) - (c(-1, -1) + 2 * c(-1, 0) + c(-1, 1))
    r = np.zeros((h, w), np.uint8)
    r[1:-1, 1:-1] = np.minimum(np.abs(gx) + np.abs(gy), 255)
    return [r.ravel()]


def _mma(A, Bt, C, M, N, K):
    a = A.astype(np.float64).reshape(M, K)
    bt = Bt.astype(np.float64).reshape(N, K)
    return [(a @ bt.T).astype(np.float32).ravel()]


def specs():
    out = []
    n = 2048 * 256
    x = _rng(1).random(n, dtype=np.float32)
    for name in ("reduce_interleaved_mod", "reduce_interleaved_strided"):
        out.append(dict(name=name, kernel=name, grid=(2048,), block=(256,), args=[x, np.zeros(2048, np.float32)],
                        outputs=[1], reference=_block_sums, rtol=1e-5))
    out.append(dict(name="reduce_volatile_unroll", kernel="reduce_volatile_unroll", grid=(2048,), block=(256,),
                    args=[_rng(2).random(2 * n, dtype=np.float32), np.zeros(2048, np.float32)], outputs=[1],
                    reference=_block_sums512, rtol=1e-5))
    w, h = 2048, 1024
    for i, name in enumerate(("transpose_tile32x8", "transpose_tile32x8_nopad", "transpose_swizzle")):
        out.append(dict(name=name, kernel=name, grid=(w // 32, h // 32), block=(32, 8),
                        args=[_rng(3 + i).random(w * h, dtype=np.float32), np.zeros(w * h, np.float32),
                              np.int32(w), np.int32(h)], outputs=[1], reference=_transpose(w, h)))
    out.append(dict(name="transpose_u8", kernel="transpose_u8", grid=(w // 32, h // 32), block=(32, 8),
                    args=[_rng(6).integers(0, 256, w * h, dtype=np.uint8), np.zeros(w * h, np.uint8),
                          np.int32(w), np.int32(h)], outputs=[1], reference=_transpose(w, h)))
    b, m = 8, 256
    out.append(dict(name="batched_gemm_z", kernel="batched_gemm_z", grid=(m // 16, m // 16, b), block=(16, 16),
                    args=[_rng(7).random(b * m * m, dtype=np.float32), _rng(8).random(b * m * m, dtype=np.float32),
                          np.zeros(b * m * m, np.float32), np.int32(m)], outputs=[2], reference=_batched(m),
                    rtol=1e-4))
    n = 1 << 21
    r = _rng(9)
    out.append(dict(name="adam_step", kernel="adam_step", grid=(132 * 8,), block=(256,),
                    args=[r.standard_normal(n, dtype=np.float32), r.standard_normal(n, dtype=np.float32),
                          0.1 * r.standard_normal(n, dtype=np.float32), r.random(n, dtype=np.float32),
                          np.float32(1e-3), np.float32(0.9), np.float32(0.999), np.float32(1e-8),
                          np.float32(1 / (1 - 0.9 ** 10)), np.float32(1 / (1 - 0.999 ** 10)), np.int32(n)],
                    outputs=[0, 2, 3], reference=_adam, rtol=1e-4, atol=1e-6))
    planes, ph, pw = 64, 128, 256
    out.append(dict(name="maxpool2x2", kernel="maxpool2x2", grid=((pw // 2 + 127) // 128, ph // 2, planes),
                    block=(128,), args=[_rng(10).random(planes * ph * pw, dtype=np.float32),
                                        np.zeros(planes * ph * pw // 4, np.float32), np.int32(ph), np.int32(pw)],
                    outputs=[1], reference=_pool(planes, ph, pw)))
    rows, cols = 4096, 1000
    out.append(dict(name="argmax_rows_warp", kernel="argmax_rows_warp", grid=(rows * 32 // 256,), block=(256,),
                    args=[_rng(11).random(rows * cols, dtype=np.float32), np.zeros(rows, np.int32),
                          np.int32(rows), np.int32(cols)], outputs=[1], reference=_argmax))
    sw, sh = 1920, 1080
    out.append(dict(name="sobel_u8", kernel="sobel_u8", grid=((sw + 31) // 32, (sh + 7) // 8), block=(32, 8),
                    args=[_rng(12).integers(0, 256, sw * sh, dtype=np.uint8), np.zeros(sw * sh, np.uint8),
                          np.int32(sw), np.int32(sh)], outputs=[1], reference=_sobel))
    M, N, K = 1024, 512, 256
    out.append(dict(name="mma_ldmatrix_gemm", kernel="mma_ldmatrix_gemm", grid=(N // 8, M // 64), block=(128,),
                    args=[(_rng(13).random(M * K) - 0.5).astype(np.float16),
                          (_rng(14).random(N * K) - 0.5).astype(np.float16), np.zeros(M * N, np.float32),
                          np.int32(M), np.int32(N), np.int32(K)], outputs=[2], reference=_mma, rtol=1e-3, atol=1e-3))
    return out
