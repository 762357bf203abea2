"""Launch specs for kernels.cu: inputs, launch shape and a NumPy reference for each (the format of
../shared/calibration/specs.py). Sizes are small enough to simulate in seconds and large enough to
spread over every SM of an H200."""

import numpy as np

SMS = 132  # H200 SMs: grid-stride kernels launch two blocks per SM


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _f32(r: np.random.Generator, n: int) -> np.ndarray:
    return r.random(n, dtype=np.float32)


def _layernorm(x, y, g, b, cols, eps):
    x = x.reshape(-1, cols).astype(np.float64)
    mean = x.mean(1, keepdims=True)
    var = (x * x).mean(1, keepdims=True) - mean * mean
    return [((x - mean) / np.sqrt(var + eps) * g + b).astype(np.float32).ravel()]


def _softmax(x, y, rows, cols):
    x = x.reshape(rows, cols).astype(np.float64)
    e = np.exp(x - x.max(1, keepdims=True))
    return [(e / e.sum(1, keepdims=True)).astype(np.float32).ravel()]


def _spmv(rowptr, colidx, vals, x, y, rows):
    prod = vals.astype(np.float64) * x[colidx].astype(np.float64)
    return [np.add.reduceat(prod, rowptr[:-1]).astype(np.float32)]


def _rmsnorm(x, w, y, cols2, eps):
    x = x.reshape(-1, 2 * cols2).astype(np.float64)
    inv = 1.0 / np.sqrt((x * x).mean(1, keepdims=True) + eps)
    return [(x * inv * w).astype(np.float16).ravel()]


def _bitonic(d):
    return [np.sort(d.reshape(-1, 1024), axis=1).ravel()]


def _scan(i, o):
    return [np.cumsum(i.reshape(-1, 512), axis=1, dtype=np.int32).ravel()]


def _stencil(i, o, n):
    a = i.reshape(n, n)
    out = a.copy()
    out[1:-1, 1:-1] = 0.5 * a[1:-1, 1:-1] + 0.125 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return [out.ravel()]


def _conv1d(i, w, o, n):
    padded = np.concatenate([np.zeros(8, np.float64), i.astype(np.float64), np.zeros(8, np.float64)])
    return [np.convolve(padded, w[::-1].astype(np.float64), mode="valid").astype(np.float32)]


def specs():
    out = []
    n = 1 << 20
    r = _rng(11)
    x, y = _f32(r, n), _f32(r, n)
    out.append(dict(name="saxpy_gridstride", kernel="saxpy_gridstride", grid=(2 * SMS,), block=(256,),
                    args=[np.int32(n), np.float32(2.5), x, y.copy()], outputs=[3],
                    reference=lambda n, a, x, y: [a * x + y], rtol=1e-6))
    a4, b4 = _f32(r, n), _f32(r, n)
    out.append(dict(name="add_float4", kernel="add_float4", grid=(n // 4 // 256,), block=(256,),
                    args=[a4, b4, np.zeros(n, np.float32), np.int32(n // 4)], outputs=[2],
                    reference=lambda a, b, c, n4: [a + b]))
    src = _f32(r, n + 32)
    out.append(dict(name="copy_offset1", kernel="copy_offset", grid=(n // 256,), block=(256,),
                    args=[src, np.zeros(n, np.float32), np.int32(1), np.int32(n)], outputs=[1],
                    reference=lambda i, o, off, n: [i[off:off + n].copy()]))
    p = _f32(r, 3 * (n // 2))
    out.append(dict(name="aos_norm", kernel="aos_norm", grid=(n // 2 // 256,), block=(256,),
                    args=[p, np.zeros(n // 2, np.float32), np.int32(n // 2)], outputs=[1],
                    reference=lambda p, o, m: [np.sqrt((p.reshape(-1, 3).astype(np.float64) ** 2).sum(1))
                                               .astype(np.float32)], rtol=1e-5))
    red_in = _f32(r, n)
    out.append(dict(name="reduce_tree_atomic", kernel="reduce_tree_atomic", grid=(n // 512,), block=(256,),
                    args=[red_in, np.zeros(1, np.float32), np.int32(n)], outputs=[1],
                    reference=lambda i, o, n: [np.array([i.astype(np.float64).sum()], np.float32)], rtol=1e-4))
    out.append(dict(name="reduce_shfl_atomic", kernel="reduce_shfl_atomic", grid=(2 * SMS,), block=(256,),
                    args=[red_in, np.zeros(1, np.float32), np.int32(n)], outputs=[1],
                    reference=lambda i, o, n: [np.array([i.astype(np.float64).sum()], np.float32)], rtol=1e-4))
    data = r.integers(0, 256, n, dtype=np.uint8)
    out.append(dict(name="histogram_shared", kernel="histogram_shared", grid=(2 * SMS,), block=(256,),
                    args=[data, np.zeros(256, np.uint32), np.int32(n)], outputs=[1],
                    reference=lambda d, h, n: [np.bincount(d, minlength=256).astype(np.uint32)]))
    keys = r.integers(0, 1 << 20, n // 4, dtype=np.int32)
    out.append(dict(name="histogram_global", kernel="histogram_global", grid=(n // 4 // 256,), block=(256,),
                    args=[keys, np.zeros(64, np.int32), np.int32(n // 4), np.int32(64)], outputs=[1],
                    reference=lambda k, h, n, b: [np.bincount(k % b, minlength=b).astype(np.int32)]))
    rows, cols = 512, 1024
    out.append(dict(name="layernorm_rows", kernel="layernorm_rows", grid=(rows,), block=(256,),
                    args=[_f32(r, rows * cols), np.zeros(rows * cols, np.float32), _f32(r, cols), _f32(r, cols),
                          np.int32(cols), np.float32(1e-5)], outputs=[1],
                    reference=_layernorm, rtol=1e-4, atol=1e-4))
    rows, cols = 2048, 512
    out.append(dict(name="softmax_warp_rows", kernel="softmax_warp_rows", grid=(rows // 8,), block=(256,),
                    args=[_f32(r, rows * cols), np.zeros(rows * cols, np.float32), np.int32(rows), np.int32(cols)],
                    outputs=[1], reference=_softmax, rtol=1e-4, atol=1e-7))
    t = 1024
    mat = _f32(r, t * t)
    for k in ("transpose_swizzle", "transpose_shared_nopad"):
        out.append(dict(name=k, kernel=k, grid=(t // 32, t // 32), block=(32, 8),
                        args=[mat, np.zeros(t * t, np.float32), np.int32(t)], outputs=[1],
                        reference=lambda i, o, n: [i.reshape(n, n).T.ravel().copy()]))
    rows, cols = 2048, 1024
    A, xv = _f32(r, rows * cols), _f32(r, cols)
    out.append(dict(name="gemv_warp_rows", kernel="gemv_warp_rows", grid=(rows // 8,), block=(256,),
                    args=[A, xv, np.zeros(rows, np.float32), np.int32(rows), np.int32(cols)], outputs=[2],
                    reference=lambda A, x, y, m, k: [(A.reshape(m, k).astype(np.float64) @ x).astype(np.float32)],
                    rtol=1e-4))
    rows, cols = 1024, 4096
    At, xt = _f32(r, rows * cols), _f32(r, rows)
    out.append(dict(name="gemv_cols", kernel="gemv_cols", grid=(cols // 256,), block=(256,),
                    args=[At, xt, np.zeros(cols, np.float32), np.int32(rows), np.int32(cols)], outputs=[2],
                    reference=lambda A, x, y, m, k: [(x.astype(np.float64) @ A.reshape(m, k)).astype(np.float32)],
                    rtol=1e-4))
    rows, cols = 16384, 128
    out.append(dict(name="row_sum_naive", kernel="row_sum_naive", grid=(rows // 256,), block=(256,),
                    args=[_f32(r, rows * cols), np.zeros(rows, np.float32), np.int32(rows), np.int32(cols)],
                    outputs=[1], reference=lambda A, o, m, k: [A.reshape(m, k).astype(np.float64).sum(1)
                                                               .astype(np.float32)], rtol=1e-5))
    rows = 16384
    counts = r.integers(8, 25, rows)
    rowptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    colidx = r.integers(0, rows, int(rowptr[-1]), dtype=np.int32)
    out.append(dict(name="spmv_csr", kernel="spmv_csr", grid=(rows // 256,), block=(256,),
                    args=[rowptr, colidx, _f32(r, int(rowptr[-1])), _f32(r, rows), np.zeros(rows, np.float32),
                          np.int32(rows)], outputs=[4], reference=_spmv, rtol=1e-5))
    vocab, dim, tokens = 32768, 256, 2048
    idx = r.integers(0, vocab, tokens, dtype=np.int32)
    out.append(dict(name="embedding_gather", kernel="embedding_gather", grid=(tokens,), block=(128,),
                    args=[idx, _f32(r, vocab * dim), np.zeros(tokens * dim, np.float32), np.int32(dim)],
                    outputs=[2], reference=lambda i, tb, o, d: [tb.reshape(-1, d)[i].ravel()]))
    s = 512
    out.append(dict(name="stencil2d_shared", kernel="stencil2d_shared", grid=(s // 16, s // 16), block=(16, 16),
                    args=[_f32(r, s * s), np.zeros(s * s, np.float32), np.int32(s)], outputs=[1],
                    reference=_stencil, rtol=1e-6))
    out.append(dict(name="conv1d_shared", kernel="conv1d_shared", grid=(n // 256,), block=(256,),
                    args=[_f32(r, n), _f32(r, 17), np.zeros(n, np.float32), np.int32(n)], outputs=[2],
                    reference=_conv1d, rtol=1e-5))
    out.append(dict(name="scan_block", kernel="scan_block", grid=(512,), block=(512,),
                    args=[r.integers(-100, 100, 512 * 512, dtype=np.int32), np.zeros(512 * 512, np.int32)],
                    outputs=[1], reference=_scan))
    out.append(dict(name="bitonic_sort_1024", kernel="bitonic_sort_1024", grid=(256,), block=(512,),
                    args=[_f32(r, 256 * 1024)], outputs=[0], reference=_bitonic))
    rows, cols = 1024, 1024
    out.append(dict(name="rmsnorm_half2", kernel="rmsnorm_half2", grid=(rows,), block=(128,),
                    args=[r.random(rows * cols).astype(np.float16), _f32(r, cols),
                          np.zeros(rows * cols, np.float16), np.int32(cols // 2), np.float32(1e-6)], outputs=[2],
                    reference=_rmsnorm, rtol=2e-3, atol=1e-3))
    g = 256
    Ag, Bg = _f32(r, g * g), _f32(r, g * g)
    out.append(dict(name="gemm_cp_async", kernel="gemm_cp_async", grid=(g // 16, g // 16), block=(16, 16),
                    args=[Ag, Bg, np.zeros(g * g, np.float32), np.int32(g), np.int32(g), np.int32(g)], outputs=[2],
                    reference=lambda A, B, C, M, N, K: [(A.reshape(M, K).astype(np.float64) @ B.reshape(K, N))
                                                        .astype(np.float32).ravel()], rtol=1e-4))
    da, db = r.random(n), r.random(n)
    out.append(dict(name="dot_double_atomic", kernel="dot_double_atomic", grid=(2 * SMS,), block=(256,),
                    args=[da, db, np.zeros(1, np.float64), np.int32(n)], outputs=[2],
                    reference=lambda a, b, o, n: [np.array([a @ b])], rtol=1e-10))
    rows, cols = 1024, 1000
    ma, mb = _f32(r, rows * cols), _f32(r, rows * cols)
    out.append(dict(name="matrix_add_2d", kernel="matrix_add_2d", grid=((cols + 31) // 32, rows // 8), block=(32, 8),
                    args=[ma, mb, np.zeros(rows * cols, np.float32), np.int32(rows), np.int32(cols)], outputs=[2],
                    reference=lambda a, b, c, m, k: [a + b]))
    rows, cols = 1024, 1024
    out.append(dict(name="col_major_read", kernel="col_major_read", grid=(rows * cols // 256,), block=(256,),
                    args=[_f32(r, rows * cols), np.zeros(rows * cols, np.float32), np.int32(rows), np.int32(cols)],
                    outputs=[1], reference=lambda a, o, m, k: [a.reshape(k, m).T.ravel().copy()]))
    return out
