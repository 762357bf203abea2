"""Launch specs for kernels.cu (tenth batch, written 2026-12-02 and used to set nothing): inputs,
launch shape and a NumPy reference for each, from first principles."""

import numpy as np


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _scan(x, out):
    return [x.reshape(-1, 1024).cumsum(1, dtype=np.int64).astype(np.int32).ravel()]


def _transpose_square(a, n):
    return [a.reshape(n, n).T.copy().ravel()]


def _mat4(p, m, out, n):
    pts = p.reshape(-1, 4).astype(np.float64)
    return [(pts @ m.reshape(4, 4).astype(np.float64).T).astype(np.float32).ravel()]


def _gemm(A, B, C, n):
    return [(A.reshape(n, n).astype(np.float64) @ B.reshape(n, n)).astype(np.float32).ravel()]


def _col_cumsum(x, out, rows, cols):
    return [x.reshape(rows, cols).cumsum(0, dtype=np.int64).astype(np.int32).ravel()]


def _lut(idx, lut, out, n):
    acc = np.zeros(n, np.float32)
    for k in range(8):  # in the kernel's order, in float32
        acc = (acc + lut[idx[k * n:(k + 1) * n] & 1023]).astype(np.float32)
    return [acc]


def _hist64(keys, w, bins, n):
    out = np.zeros(256, np.uint64)
    np.add.at(out, keys & 255, w.astype(np.uint64))
    return [out]


def _gather(cache, table, out, blocks_per_seq):
    return [cache.reshape(-1, 2048 * 4)[table].ravel()]


def _stencil(x, out, w, h):
    p = x.reshape(h, w)
    r = np.zeros((h, w), np.float32)
    c = p[1:-1, 1:-1]
    s = ((p[:-2, 1:-1] + c) + p[2:, 1:-1]) + p[1:-1, :-2]
    s = s + p[1:-1, 2:]
    r[1:-1, 1:-1] = np.float32(0.2) * s
    return [r.ravel()]


def _dgemv_t(A, x, y, rows, cols):
    return [A.reshape(rows, cols).T @ x]


def _saxpy(x, y, a, n):
    return [(y.astype(np.float64) + np.float64(a) * x).astype(np.float32)]


def specs():
    out = []
    n = 1024 * 1024
    out.append(dict(name="scan_warp_shfl", kernel="scan_warp_shfl", grid=(n // 1024,), block=(1024,),
                    args=[_rng(1).integers(0, 10, n, dtype=np.int32), np.zeros(n, np.int32)], outputs=[1],
                    reference=_scan))
    s = 2048
    out.append(dict(name="transpose_inplace_swap", kernel="transpose_inplace_swap", grid=(s // 32, s // 8),
                    block=(32, 8), args=[_rng(2).random(s * s, dtype=np.float32), np.int32(s)], outputs=[0],
                    reference=_transpose_square))
    p = 1 << 21
    out.append(dict(name="aos_mat4_apply", kernel="aos_mat4_apply", grid=(p // 256,), block=(256,),
                    args=[_rng(3).standard_normal(4 * p, dtype=np.float32),
                          _rng(4).standard_normal(16, dtype=np.float32), np.zeros(4 * p, np.float32), np.int32(p)],
                    outputs=[2], reference=_mat4, rtol=1e-4, atol=1e-5))
    g = 512
    out.append(dict(name="gemm_tile32_2x2", kernel="gemm_tile32_2x2", grid=(g // 32, g // 32), block=(16, 16),
                    args=[_rng(5).random(g * g, dtype=np.float32), _rng(6).random(g * g, dtype=np.float32),
                          np.zeros(g * g, np.float32), np.int32(g)], outputs=[2], reference=_gemm, rtol=1e-4))
    rows, cols = 256, 8192
    out.append(dict(name="col_cumsum", kernel="col_cumsum", grid=(cols // 64,), block=(64,),
                    args=[_rng(7).integers(-50, 50, rows * cols, dtype=np.int32), np.zeros(rows * cols, np.int32),
                          np.int32(rows), np.int32(cols)], outputs=[1], reference=_col_cumsum))
    m = 256 * 1024
    out.append(dict(name="shared_lut_random", kernel="shared_lut_random", grid=(m // 256,), block=(256,),
                    args=[_rng(8).integers(0, 1 << 20, 8 * m, dtype=np.int32), _rng(9).random(1024, dtype=np.float32),
                          np.zeros(m, np.float32), np.int32(m)], outputs=[2], reference=_lut))
    h = 1 << 20
    out.append(dict(name="atomic_u64_hist", kernel="atomic_u64_hist", grid=(h // 256,), block=(256,),
                    args=[_rng(10).integers(0, 1 << 30, h, dtype=np.uint32),
                          _rng(11).integers(0, 1000, h, dtype=np.uint32), np.zeros(256, np.uint64), np.int32(h)],
                    outputs=[2], reference=_hist64))
    seqs, per, phys = 32, 32, 2048
    table = _rng(12).permutation(phys)[: seqs * per].astype(np.int32)
    out.append(dict(name="paged_kv_gather", kernel="paged_kv_gather", grid=(per, seqs), block=(256,),
                    args=[_rng(13).integers(0, 1 << 32, phys * 2048 * 4, dtype=np.uint32), table,
                          np.zeros(seqs * per * 2048 * 4, np.uint32), np.int32(per)], outputs=[2], reference=_gather))
    w, hh = 4096, 1024
    out.append(dict(name="stencil_col_sliding", kernel="stencil_col_sliding", grid=(w // 128, (hh - 2 + 63) // 64),
                    block=(128,), args=[_rng(14).random(w * hh, dtype=np.float32), np.zeros(w * hh, np.float32),
                                        np.int32(w), np.int32(hh)], outputs=[1], reference=_stencil, rtol=1e-6))
    rows, cols = 1024, 8192
    out.append(dict(name="dgemv_t_cols", kernel="dgemv_t_cols", grid=(cols // 128,), block=(128,),
                    args=[_rng(15).standard_normal(rows * cols), _rng(16).standard_normal(rows), np.zeros(cols),
                          np.int32(rows), np.int32(cols)], outputs=[2], reference=_dgemv_t, rtol=1e-10, atol=1e-10))
    n = 3_000_003
    out.append(dict(name="saxpy_float4_tail", kernel="saxpy_float4_tail", grid=(264,), block=(256,),
                    args=[_rng(17).random(n, dtype=np.float32), _rng(18).random(n, dtype=np.float32),
                          np.float32(2.5), np.int32(n)], outputs=[1], reference=_saxpy, rtol=1e-6))
    return out
