"""Launch specs for kernels.cu (thirteenth batch, written 2026-12-03 and used to set nothing): inputs,
launch shape and a NumPy reference for each, from first principles."""

import numpy as np

INT_MAX = np.iinfo(np.int32).max


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _attention(q, k, v, n, tc, tr, scale, l_, m_, o_):
    """O = softmax(Q K^T scale) V per (batch, head), and the kernel's final row max m and sum l."""
    n = int(n)
    qh, kh, vh = (a.reshape(-1, n, 32).astype(np.float64) for a in (q, k, v))
    s = np.einsum("bid,bjd->bij", qh, kh) * float(scale)
    mx = s.max(-1)
    p = np.exp(s - mx[..., None])
    lsum = p.sum(-1)
    return [lsum.ravel(), mx.ravel(), (np.einsum("bij,bjd->bid", p, vh) / lsum[..., None]).ravel()]


def _lower_bound(sorted_, n, queries, out, q):
    return [np.searchsorted(sorted_, queries, side="left")]


def _bfs(row_ptr, col, dist_in, dist, level, nv):
    d = dist_in.astype(np.int64)
    deg = np.diff(row_ptr)
    src = np.repeat(np.arange(int(nv)), deg)
    push = dist_in[src] == int(level)
    np.minimum.at(d, col[push], int(level) + 1)
    return [d]


def _kmeans(pts, cent, assign, counts, n):
    p = pts.reshape(-1, 4).astype(np.int64)
    c = cent.reshape(-1, 4).astype(np.int64)
    d = ((p[:, None, :] - c[None, :, :]) ** 2).sum(-1)
    a = d.argmin(1)
    return [a, np.bincount(a, minlength=c.shape[0])]


def _xent(logits, labels, loss, rows, classes):
    x = logits.reshape(int(rows), int(classes)).astype(np.float64)
    mx = x.max(1)
    return [np.log(np.exp(x - mx[:, None]).sum(1)) + mx - x[np.arange(int(rows)), labels]]


def _gemm(a, b, c, m, n, k):
    return [(a.reshape(int(m), int(k)).astype(np.float64) @ b.reshape(int(k), int(n))).ravel()]


def _transpose(a, out, rows, cols):
    return [a.reshape(int(rows), int(cols)).T.ravel()]


def _bn_stats(x, s, sq, c, hw):
    planes = x.reshape(-1, int(c), int(hw)).astype(np.float64)
    return [planes.sum((0, 2)), (planes * planes).sum((0, 2))]


def _spmm(row_ptr, col, val, b, c, rows):
    bm = b.reshape(-1, 64).astype(np.float64)
    r = np.zeros((int(rows), 64))
    src = np.repeat(np.arange(int(rows)), np.diff(row_ptr))
    np.add.at(r, src, val[:, None].astype(np.float64) * bm[col])
    return [r.ravel()]


def _median(a, out, h, w):
    p = np.pad(a.reshape(int(h), int(w)), 1, mode="edge")
    win = np.stack([p[dy:dy + int(h), dx:dx + int(w)] for dy in range(3) for dx in range(3)])
    return [np.median(win, 0).ravel()]


def _gelu(x, bias, out, rows, cols4):
    v = x.reshape(int(rows), -1).astype(np.float64) + bias.astype(np.float64)[None, :]
    return [(0.5 * v * (1.0 + np.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))).ravel()]


def specs():
    out = []
    batch, heads, n = 4, 33, 64
    qkv = [_rng(s).standard_normal(batch * heads * n * 32, dtype=np.float32) for s in (1, 2, 3)]
    out.append(dict(name="fa_minimal", kernel="fa_minimal", grid=(batch, heads), block=(32,),
                    args=qkv + [np.int32(n), np.int32(n // 32), np.int32(n // 32), np.float32(1 / np.sqrt(32)),
                                np.zeros(batch * heads * n, np.float32),
                                np.full(batch * heads * n, -np.inf, np.float32),
                                np.zeros(batch * heads * n * 32, np.float32)],
                    outputs=[7, 8, 9], reference=_attention, rtol=1e-3, atol=1e-4))
    n, q = 1 << 20, 1 << 19
    keys = np.sort(_rng(4).integers(0, 1 << 30, n)).astype(np.int32)
    out.append(dict(name="lower_bound_search", kernel="lower_bound_search", grid=(q // 256,), block=(256,),
                    args=[keys, np.int32(n), _rng(5).integers(0, 1 << 30, q).astype(np.int32),
                          np.zeros(q, np.int32), np.int32(q)], outputs=[3], reference=_lower_bound))
    nv = 1 << 20
    deg = _rng(6).integers(4, 13, nv)
    row_ptr = np.concatenate([[0], np.cumsum(deg)]).astype(np.int32)
    col = _rng(7).integers(0, nv, int(row_ptr[-1])).astype(np.int32)
    dist_in = _rng(8).choice(np.array([1, 2, 3, INT_MAX], np.int32), nv, p=[0.2, 0.3, 0.2, 0.3]).astype(np.int32)
    out.append(dict(name="bfs_push_min", kernel="bfs_push_min", grid=(nv // 256,), block=(256,),
                    args=[row_ptr, col, dist_in, dist_in.copy(), np.int32(3), np.int32(nv)], outputs=[3],
                    reference=_bfs))
    n = 1 << 18
    out.append(dict(name="kmeans_assign", kernel="kmeans_assign", grid=(n // 256,), block=(256,),
                    args=[_rng(9).integers(0, 256, 4 * n).astype(np.float32),
                          _rng(10).integers(0, 256, 4 * 32).astype(np.float32), np.zeros(n, np.int32),
                          np.zeros(32, np.int32), np.int32(n)], outputs=[2, 3], reference=_kmeans))
    rows, classes = 8192, 1000
    out.append(dict(name="cross_entropy_rows", kernel="cross_entropy_rows", grid=(rows // 8,), block=(256,),
                    args=[_rng(11).standard_normal(rows * classes, dtype=np.float32),
                          _rng(12).integers(0, classes, rows).astype(np.int32), np.zeros(rows, np.float32),
                          np.int32(rows), np.int32(classes)], outputs=[2], reference=_xent, rtol=1e-4))
    m = k = nn = 300
    out.append(dict(name="gemm_tiled_edges", kernel="gemm_tiled_edges", grid=((nn + 15) // 16, (m + 15) // 16),
                    block=(16, 16), args=[_rng(13).standard_normal(m * k, dtype=np.float32),
                                          _rng(14).standard_normal(k * nn, dtype=np.float32),
                                          np.zeros(m * nn, np.float32), np.int32(m), np.int32(nn), np.int32(k)],
                    outputs=[2], reference=_gemm, rtol=1e-4, atol=1e-4))
    rows, cols = 1000, 3000
    out.append(dict(name="transpose_edges", kernel="transpose_edges", grid=((cols + 31) // 32, (rows + 31) // 32),
                    block=(32, 8), args=[_rng(15).random(rows * cols, dtype=np.float32),
                                         np.zeros(rows * cols, np.float32), np.int32(rows), np.int32(cols)],
                    outputs=[1], reference=_transpose))
    samples, c, hw = 16, 64, 4096
    out.append(dict(name="batchnorm_stats", kernel="batchnorm_stats", grid=(c, samples), block=(256,),
                    args=[_rng(16).standard_normal(samples * c * hw, dtype=np.float32), np.zeros(c, np.float32),
                          np.zeros(c, np.float32), np.int32(c), np.int32(hw)], outputs=[1, 2],
                    reference=_bn_stats, rtol=1e-4, atol=1e-2))
    rows = 16384
    deg = _rng(17).integers(8, 25, rows)
    row_ptr = np.concatenate([[0], np.cumsum(deg)]).astype(np.int32)
    nnz = int(row_ptr[-1])
    out.append(dict(name="spmm_csr_rowwarp", kernel="spmm_csr_rowwarp", grid=(rows // 8,), block=(256,),
                    args=[row_ptr, _rng(18).integers(0, rows, nnz).astype(np.int32),
                          _rng(19).standard_normal(nnz, dtype=np.float32),
                          _rng(20).standard_normal(rows * 64, dtype=np.float32), np.zeros(rows * 64, np.float32),
                          np.int32(rows)], outputs=[4], reference=_spmm, rtol=1e-4, atol=1e-4))
    h = w = 512
    out.append(dict(name="median3x3_local", kernel="median3x3_local", grid=(w // 32, h // 8), block=(32, 8),
                    args=[_rng(21).random(h * w, dtype=np.float32), np.zeros(h * w, np.float32), np.int32(h),
                          np.int32(w)], outputs=[1], reference=_median))
    rows, cols = 4096, 1536
    out.append(dict(name="bias_gelu_vec4", kernel="bias_gelu_vec4", grid=(rows * cols // 4 // 256,), block=(256,),
                    args=[_rng(22).standard_normal(rows * cols, dtype=np.float32),
                          _rng(23).standard_normal(cols, dtype=np.float32), np.zeros(rows * cols, np.float32),
                          np.int32(rows), np.int32(cols // 4)], outputs=[2], reference=_gelu, rtol=1e-5, atol=1e-6))
    return out
