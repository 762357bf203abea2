"""Launch specs for kernels.cu (fourth batch, kernels whose CTAs share sectors across SMs): inputs,
launch shape and a NumPy reference for each."""

import numpy as np

SMS = 132


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _f32(r: np.random.Generator, n: int) -> np.ndarray:
    return r.random(n, dtype=np.float32)


def _conv(i, o, w, h):
    a = np.pad(i.reshape(h, w).astype(np.float64), 1, mode="edge")
    k = np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]]) / 16.0
    s = sum(k[dy, dx] * a[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3))
    return [s.astype(np.float32).ravel()]


def _stencil(i, o, n):
    a = np.pad(i.astype(np.float64), 4, mode="edge")
    return [sum(a[k:k + n] for k in range(9)).astype(np.float32)]


def _banded(n: int, r: np.random.Generator):
    """A 9-diagonal band (offsets -4..4, clipped at the edges) in CSR."""
    rows, cols = [], []
    for off in range(-4, 5):
        i = np.arange(max(0, -off), min(n, n - off))
        rows.append(i)
        cols.append(i + off)
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    order = np.lexsort((cols, rows))
    rows, cols = rows[order], cols[order]
    rowptr = np.zeros(n + 1, np.int32)
    np.add.at(rowptr, rows + 1, 1)
    return np.cumsum(rowptr).astype(np.int32), cols.astype(np.int32), _f32(r, len(cols))


def _spmv(rowptr, cols, vals, x, y, rows):
    r = np.repeat(np.arange(rows), np.diff(rowptr))
    out = np.zeros(rows)
    np.add.at(out, r, vals.astype(np.float64) * x[cols])
    return [out.astype(np.float32)]


def specs():
    out = []
    r = _rng(41)
    w = h = 1024
    out.append(dict(name="conv3x3_global", kernel="conv3x3_global", grid=(w // 32, h // 8), block=(32, 8),
                    args=[_f32(r, w * h), np.zeros(w * h, np.float32), np.int32(w), np.int32(h)], outputs=[1],
                    reference=_conv, rtol=1e-5))
    n = 1 << 22
    out.append(dict(name="stencil1d_r4", kernel="stencil1d_r4", grid=(n // 256,), block=(256,),
                    args=[_f32(r, n), np.zeros(n, np.float32), np.int32(n)], outputs=[1], reference=_stencil,
                    rtol=1e-5))
    rows, cols = 4096, 1024
    out.append(dict(name="gemv_warp_x", kernel="gemv_warp_x", grid=(rows // 8,), block=(256,),
                    args=[_f32(r, rows * cols), _f32(r, cols), np.zeros(rows, np.float32), np.int32(rows),
                          np.int32(cols)], outputs=[2],
                    reference=lambda A, x, y, m, k: [(A.reshape(m, k).astype(np.float64) @ x).astype(np.float32)],
                    rtol=1e-4))
    batch, K, N = 512, 256, 256
    out.append(dict(name="batched_vecmat", kernel="batched_vecmat", grid=(batch,), block=(N,),
                    args=[_f32(r, batch * K), _f32(r, K * N), np.zeros(batch * N, np.float32), np.int32(K),
                          np.int32(N)], outputs=[2],
                    reference=lambda X, B, o, k, n: [(X.reshape(-1, k).astype(np.float64) @ B.reshape(k, n))
                                                     .astype(np.float32).ravel()], rtol=1e-4))
    n = 1 << 22
    out.append(dict(name="lut_gather", kernel="lut_gather", grid=(4 * SMS,), block=(256,),
                    args=[r.integers(0, 1024, n, dtype=np.int32), _f32(r, 1024), np.zeros(n, np.float32),
                          np.int32(n)], outputs=[2], reference=lambda i, t, o, n: [t[i]]))
    nq = nk = 512
    d = 64
    out.append(dict(name="qk_scores", kernel="qk_scores", grid=(nk // 16, nq // 16), block=(16, 16),
                    args=[_f32(r, nq * d), _f32(r, nk * d), np.zeros(nq * nk, np.float32), np.int32(nq),
                          np.int32(nk), np.int32(d)], outputs=[2],
                    reference=lambda Q, Kt, S, a, b, dd: [(Q.reshape(a, dd).astype(np.float64) @ Kt.reshape(b, dd).T)
                                                          .astype(np.float32).ravel()], rtol=1e-4))
    rows = 1 << 20
    rowptr, cidx, vals = _banded(rows, r)
    out.append(dict(name="spmv_banded_csr", kernel="spmv_banded_csr", grid=(rows // 256,), block=(256,),
                    args=[rowptr, cidx, vals, _f32(r, rows), np.zeros(rows, np.float32), np.int32(rows)],
                    outputs=[4], reference=_spmv, rtol=1e-4))
    return out
