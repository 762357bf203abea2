"""Launch specs for kernels.cu (fifth batch, written 2026-12-01 and used to set nothing): inputs,
launch shape and a NumPy reference for each."""

import numpy as np


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _f32(r: np.random.Generator, n: int) -> np.ndarray:
    return r.random(n, dtype=np.float32)


def _bilinear(i, o, w, h):
    a = i.reshape(h, w).astype(np.float64)
    def coords(n):
        s = np.maximum((np.arange(2 * n) + 0.5) * 0.5 - 0.5, 0.0)
        s0 = s.astype(np.int64)
        return s0, np.minimum(s0 + 1, n - 1), s - s0
    x0, x1, fx = coords(w)
    y0, y1, fy = coords(h)
    top = a[y0][:, x0] * (1 - fx) + a[y0][:, x1] * fx
    bot = a[y1][:, x0] * (1 - fx) + a[y1][:, x1] * fx
    return [(top * (1 - fy)[:, None] + bot * fy[:, None]).astype(np.float32).ravel()]


def _gemm(A, B, C, M, N, K):
    return [(A.reshape(M, K).astype(np.float64) @ B.reshape(K, N)).astype(np.float32).ravel()]


def _softmax(x, y, cols):
    a = x.reshape(-1, cols).astype(np.float64)
    e = np.exp(a - a.max(1, keepdims=True))
    return [(e / e.sum(1, keepdims=True)).astype(np.float32).ravel()]


def _layernorm(x, g, y, cols4):
    a = x.reshape(-1, 4 * cols4).astype(np.float64)
    n = (a - a.mean(1, keepdims=True)) / np.sqrt(a.var(1, keepdims=True) + 1e-5)
    return [(n * g).astype(np.float32).ravel()]


def _kv_append(k_new, cache, table, seq_len, heads, dim, bs):
    c = cache.copy().reshape(-1, heads, bs, dim)
    k = k_new.reshape(-1, heads, dim)
    for s, pos in enumerate(seq_len):
        c[table[s * 64 + pos // bs], :, pos % bs, :] = k[s]
    return [c.ravel()]


def _bag(table, idx, out, dim4):
    t = table.reshape(-1, 4 * dim4).astype(np.float64)
    return [t[idx.reshape(-1, 4)].sum(1).astype(np.float32).ravel()]


def _coo(rows, cols, vals, x, y, nnz):
    out = np.zeros(y.size, np.float64)
    np.add.at(out, rows, vals.astype(np.float64) * x[cols])
    return [out.astype(np.float32)]


def _stencil3(i, o, n):
    p = np.pad(i, 1, mode="edge")
    return [0.25 * p[:-2] + 0.5 * p[1:-1] + 0.25 * p[2:]]


def _rope(x, cs, y, heads, half):
    v = x.reshape(-1, heads, half, 2).astype(np.float64)
    t = cs.reshape(-1, 1, half, 2).astype(np.float64)
    re = v[..., 0] * t[..., 0] - v[..., 1] * t[..., 1]
    im = v[..., 0] * t[..., 1] + v[..., 1] * t[..., 0]
    return [np.stack([re, im], -1).astype(np.float32).ravel()]


def _dp4a(A, x, y, cols4):
    a = A.view(np.int8).reshape(y.size, 4 * cols4).astype(np.int64)
    return [(a @ x.view(np.int8).astype(np.int64)).astype(np.int32)]


def specs() -> list[dict]:
    out = []
    w = h = 1024
    out.append(dict(name="bilinear_up2", kernel="bilinear_up2", grid=(2 * w // 32, 2 * h // 8), block=(32, 8),
                    args=[_f32(_rng(1), w * h), np.zeros(4 * w * h, np.float32), np.int32(w), np.int32(h)],
                    outputs=[1], reference=_bilinear, rtol=1e-5))
    M, N, K = 1024, 1024, 256
    r = _rng(2)
    out.append(dict(name="sgemm_regblock4x4", kernel="sgemm_regblock4x4", grid=(N // 64, M // 64), block=(16, 16),
                    args=[_f32(r, M * K), _f32(r, K * N), np.zeros(M * N, np.float32), np.int32(M), np.int32(N),
                          np.int32(K)], outputs=[2], reference=_gemm, rtol=1e-4))
    rows, cols = 1024, 4096
    out.append(dict(name="softmax_block_rows", kernel="softmax_block_rows", grid=(rows,), block=(256,),
                    args=[_f32(_rng(3), rows * cols) * 8, np.zeros(rows * cols, np.float32), np.int32(cols)],
                    outputs=[1], reference=_softmax, rtol=1e-4, atol=1e-9))
    rows, cols = 4096, 1024
    r = _rng(4)
    out.append(dict(name="layernorm_welford_warp", kernel="layernorm_welford_warp", grid=(rows // 8,), block=(256,),
                    args=[_f32(r, rows * cols), _f32(r, cols) + 0.5, np.zeros(rows * cols, np.float32),
                          np.int32(cols // 4)], outputs=[2], reference=_layernorm, rtol=1e-3, atol=1e-4))
    seqs, heads, dim, bs, blocks = 256, 8, 128, 16, 1024
    r = _rng(5)
    table = r.permutation(blocks * 16)[: seqs * 64].astype(np.int32) % blocks
    k_new = r.random(seqs * heads * dim).astype(np.float16)
    seq_len = r.integers(0, 1024, seqs).astype(np.int32)
    # the block each sequence writes must be its own (the recorded run drew them with repeats: two
    # sequences raced for 1,490 halves; the loads, and so every counter, are the same either way)
    table[np.arange(seqs) * 64 + seq_len // bs] = _rng(50).permutation(blocks)[:seqs]
    out.append(dict(name="kv_append_paged", kernel="kv_append_paged", grid=(seqs,), block=(128,),
                    args=[k_new, np.zeros(blocks * heads * bs * dim, np.float16), table, seq_len, np.int32(heads),
                          np.int32(dim), np.int32(bs)], outputs=[1], reference=_kv_append))
    rows_t, dim, bags = 16384, 256, 4096
    r = _rng(6)
    out.append(dict(name="embedding_bag4", kernel="embedding_bag4", grid=(bags,), block=(64,),
                    args=[_f32(r, rows_t * dim), r.integers(0, rows_t, bags * 4).astype(np.int32),
                          np.zeros(bags * dim, np.float32), np.int32(dim // 4)], outputs=[2], reference=_bag,
                    rtol=1e-5))
    B, H, S, D = 4, 16, 256, 64
    out.append(dict(name="permute_bhsd_bshd", kernel="permute_bhsd_bshd", grid=(B * H * S * D // 256,), block=(256,),
                    args=[_f32(_rng(7), B * H * S * D), np.zeros(B * H * S * D, np.float32), np.int32(H), np.int32(S),
                          np.int32(D)], outputs=[1],
                    reference=lambda i, o, H, S, D: [i.reshape(-1, H, S, D).transpose(0, 2, 1, 3).ravel().copy()]))
    n = 1 << 23
    data = _rng(8).integers(0, 256, n).astype(np.uint8)
    out.append(dict(name="hist_u8_shared", kernel="hist_u8_shared", grid=(264,), block=(256,),
                    args=[data, np.zeros(256, np.uint32), np.int32(n)], outputs=[1],
                    reference=lambda i, b, n: [np.bincount(i, minlength=256).astype(np.uint32)]))
    nnz, dim = 1 << 20, 1 << 16
    r = _rng(9)
    out.append(dict(name="coo_spmv_atomic", kernel="coo_spmv_atomic", grid=(nnz // 256,), block=(256,),
                    args=[r.integers(0, dim, nnz).astype(np.int32), r.integers(0, dim, nnz).astype(np.int32),
                          _f32(r, nnz), _f32(r, dim), np.zeros(dim, np.float32), np.int32(nnz)],
                    outputs=[4], reference=_coo, rtol=1e-4))
    n = 1 << 22
    vals = _rng(10).integers(-(1 << 30), 1 << 30, n).astype(np.int32)
    out.append(dict(name="atomic_max_int", kernel="atomic_max_int", grid=(264,), block=(256,),
                    args=[vals, np.array([np.iinfo(np.int32).min], np.int32), np.int32(n)], outputs=[1],
                    reference=lambda i, o, n: [np.array([i.max()], np.int32)]))
    n = 1 << 23
    out.append(dict(name="stencil3_double", kernel="stencil3_double", grid=(n // 256,), block=(256,),
                    args=[_rng(11).random(n), np.zeros(n), np.int64(n)], outputs=[1], reference=_stencil3))
    n = 1 << 22
    r = _rng(12)
    out.append(dict(name="where_select", kernel="where_select", grid=(n // 256,), block=(256,),
                    args=[r.integers(0, 2, n).astype(np.uint8), _f32(r, n), _f32(r, n), np.zeros(n, np.float32),
                          np.int32(n)], outputs=[3],
                    reference=lambda m, a, b, o, n: [np.where(m != 0, a, b)]))
    M = N = K = 256
    r = _rng(13)
    out.append(dict(name="gemm_abt_naive", kernel="gemm_abt_naive", grid=(N // 32, M // 8), block=(32, 8),
                    args=[_f32(r, M * K), _f32(r, N * K), np.zeros(M * N, np.float32), np.int32(M), np.int32(N),
                          np.int32(K)], outputs=[2],
                    reference=lambda A, B, C, M, N, K: [(A.reshape(M, K).astype(np.float64)
                                                         @ B.reshape(N, K).T).astype(np.float32).ravel()],
                    rtol=1e-4))
    S, H, half = 1024, 32, 64
    r = _rng(14)
    ang = r.random((S, half)) * 6.283
    cs = np.stack([np.cos(ang), np.sin(ang)], -1).astype(np.float32).ravel()
    out.append(dict(name="rope_rotary", kernel="rope_rotary", grid=(S * H * half // 256,), block=(256,),
                    args=[_f32(r, S * H * half * 2), cs, np.zeros(S * H * half * 2, np.float32), np.int32(H),
                          np.int32(half)], outputs=[2], reference=_rope, rtol=1e-5, atol=1e-6))
    rows, cols = 4096, 4096
    r = _rng(15)
    out.append(dict(name="int8_gemv_dp4a", kernel="int8_gemv_dp4a", grid=(rows // 8,), block=(256,),
                    args=[r.integers(-128, 128, rows * cols).astype(np.int8).view(np.int32),
                          r.integers(-128, 128, cols).astype(np.int8).view(np.int32), np.zeros(rows, np.int32),
                          np.int32(cols // 4)], outputs=[2], reference=_dp4a))
    return out
