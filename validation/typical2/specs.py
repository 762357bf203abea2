"""Launch specs for kernels.cu (second batch): inputs, launch shape and a NumPy reference for each."""

import numpy as np

SMS = 132


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _f32(r: np.random.Generator, n: int) -> np.ndarray:
    return r.random(n, dtype=np.float32)


def _local_pick(idx, x, out, n):
    a = (idx & 15) + 1
    b = ((idx >> 4) & 15) + 1
    return [(x * a.astype(np.float32) + x * b.astype(np.float32)).astype(np.float32)]


def _reverse(i, o):
    return [i.reshape(-1, 256)[:, ::-1].ravel().copy()]


def _stencil3d(i, o, nx, ny, nz):
    a = i.reshape(nz, ny, nx)
    out = a.copy()
    c = a[1:-1, 1:-1, 1:-1]
    out[1:-1, 1:-1, 1:-1] = 0.4 * c + 0.1 * (a[1:-1, 1:-1, :-2] + a[1:-1, 1:-1, 2:] + a[1:-1, :-2, 1:-1]
                                              + a[1:-1, 2:, 1:-1] + a[:-2, 1:-1, 1:-1] + a[2:, 1:-1, 1:-1])
    return [out.ravel()]


def _brighten(i, o, n):
    p = i.reshape(-1, 4).astype(np.int32)
    q = p.copy()
    q[:, :3] = np.minimum(p[:, :3] + 16, 255)
    return [q.astype(np.uint8).ravel()]


def _compact(i, o, c):
    blocks = i.reshape(-1, 256)
    out = np.zeros_like(blocks)
    counts = np.zeros(len(blocks), np.int32)
    for b, row in enumerate(blocks):
        kept = row[row > 0]
        out[b, :len(kept)] = kept
        counts[b] = len(kept)
    return [out.ravel(), counts]


def _conv3x3(i, w, o, n):
    a = i.reshape(n, n).astype(np.float64)
    k = w.reshape(3, 3).astype(np.float64)
    out = np.zeros((n, n))
    for dy in range(3):
        for dx in range(3):
            out[1:-1, 1:-1] += k[dy, dx] * a[dy:n - 2 + dy, dx:n - 2 + dx]
    return [out.astype(np.float32).ravel()]


def _scatter(p, i, o, n):
    out = np.zeros_like(o)
    out[p] = i
    return [out]


def _hist(k, h, n):
    return [np.bincount(k & 1023, minlength=1024).astype(np.int32)]


def specs():
    out = []
    r = _rng(21)
    n = 1 << 18
    idx = r.integers(0, 256, n, dtype=np.int32)
    out.append(dict(name="local_array_pick", kernel="local_array_pick", grid=(n // 256,), block=(256,),
                    args=[idx, _f32(r, n), np.zeros(n, np.float32), np.int32(n)], outputs=[2],
                    reference=_local_pick, rtol=1e-6))
    out.append(dict(name="dyn_shared_reverse", kernel="dyn_shared_reverse", grid=(n // 256,), block=(256,),
                    shared_mem=1024, args=[_f32(r, n), np.zeros(n, np.float32)], outputs=[1], reference=_reverse))
    nx = ny = nz = 64
    out.append(dict(name="stencil3d", kernel="stencil3d", grid=(nx // 8, ny // 8, nz // 4), block=(8, 8, 4),
                    args=[_f32(r, nx * ny * nz), np.zeros(nx * ny * nz, np.float32), np.int32(nx), np.int32(ny),
                          np.int32(nz)], outputs=[1], reference=_stencil3d, rtol=1e-5))
    m = 48 * 2048
    out.append(dict(name="add_partial_warps", kernel="add_partial_warps", grid=(2048,), block=(48,),
                    args=[_f32(r, m), _f32(r, m), np.zeros(m, np.float32), np.int32(m)], outputs=[2],
                    reference=lambda a, b, c, n: [a + b]))
    out.append(dict(name="uchar4_brighten", kernel="uchar4_brighten", grid=(n // 256,), block=(256,),
                    args=[r.integers(0, 256, 4 * n, dtype=np.uint8), np.zeros(4 * n, np.uint8), np.int32(n)],
                    outputs=[1], reference=_brighten))
    out.append(dict(name="short_axpy", kernel="short_axpy", grid=(n // 256,), block=(256,),
                    args=[r.integers(-1000, 1000, n, dtype=np.int16), r.integers(-1000, 1000, n, dtype=np.int16),
                          np.int16(3), np.int32(n)], outputs=[1],
                    reference=lambda x, y, a, n: [(3 * x.astype(np.int32) + y.astype(np.int32)).astype(np.int16)]))
    h = n // 2
    out.append(dict(name="double2_add", kernel="double2_add", grid=(h // 256,), block=(256,),
                    args=[r.random(2 * h), r.random(2 * h), np.zeros(2 * h), np.int32(h)], outputs=[2],
                    reference=lambda a, b, c, n: [a + b]))
    vals = r.integers(-1000, 1000, n, dtype=np.int32)
    out.append(dict(name="warp_sum_redux", kernel="warp_sum_redux", grid=(n // 256,), block=(256,),
                    args=[vals, np.zeros(n // 32, np.int32)], outputs=[1],
                    reference=lambda i, o: [i.reshape(-1, 32).sum(1, dtype=np.int32)]))
    fv = _f32(r, n)
    out.append(dict(name="segmented_max16", kernel="segmented_max16", grid=(n // 256,), block=(256,),
                    args=[fv, np.zeros(n // 16, np.float32)], outputs=[1],
                    reference=lambda i, o: [i.reshape(-1, 16).max(1)]))
    cv = r.integers(-100, 100, 1024 * 256, dtype=np.int32)
    out.append(dict(name="block_compact", kernel="block_compact", grid=(1024,), block=(256,),
                    args=[cv, np.zeros(1024 * 256, np.int32), np.zeros(1024, np.int32)], outputs=[1, 2],
                    reference=_compact))
    rows, mm = 16384, 37
    out.append(dict(name="rows_runtime_trip", kernel="rows_runtime_trip", grid=(rows // 256,), block=(256,),
                    args=[_f32(r, rows * mm), np.zeros(rows, np.float32), np.int32(mm)], outputs=[1],
                    reference=lambda a, o, m: [a.reshape(-1, m).astype(np.float64).sum(1).astype(np.float32)],
                    rtol=1e-5))
    s = 512
    out.append(dict(name="conv3x3_global", kernel="conv3x3_global", grid=(s // 32, s // 8), block=(32, 8),
                    args=[_f32(r, s * s), _f32(r, 9), np.zeros(s * s, np.float32), np.int32(s)], outputs=[2],
                    reference=_conv3x3, rtol=1e-5))
    src = _f32(r, 1 << 20)
    gi = r.integers(0, 1 << 20, n, dtype=np.int64)
    out.append(dict(name="gather_int64", kernel="gather_int64", grid=(n // 256,), block=(256,),
                    args=[gi, src, np.zeros(n, np.float32), np.int32(n)], outputs=[2],
                    reference=lambda i, s, o, n: [s[i]]))
    perm = r.permutation(n).astype(np.int32)
    out.append(dict(name="scatter_perm", kernel="scatter_perm", grid=(n // 256,), block=(256,),
                    args=[perm, _f32(r, n), np.zeros(n, np.float32), np.int32(n)], outputs=[2],
                    reference=_scatter))
    out.append(dict(name="fill_float4", kernel="fill_float4", grid=(n // 256,), block=(256,),
                    args=[np.zeros(4 * n, np.float32), np.float32(1.5), np.int32(n)], outputs=[0],
                    reference=lambda o, v, n: [np.full(4 * n, v, np.float32)]))
    sv = _f32(r, n)

    def _stride2(i, o, n):
        res = np.zeros(2 * n, np.float32)
        res[::2] = i
        return [res]

    out.append(dict(name="store_stride2", kernel="store_stride2", grid=(n // 256,), block=(256,),
                    args=[sv, np.zeros(2 * n, np.float32), np.int32(n)], outputs=[1], reference=_stride2))
    big = 1 << 20
    out.append(dict(name="scale_in_place", kernel="scale_in_place", grid=(big // 256,), block=(256,),
                    args=[_f32(r, big), np.float32(2.0), np.int32(big)], outputs=[0],
                    reference=lambda a, s, n: [a * s]))
    t = 1024
    out.append(dict(name="transpose64", kernel="transpose64", grid=(t // 64, t // 64), block=(64, 4),
                    args=[_f32(r, t * t), np.zeros(t * t, np.float32), np.int32(t)], outputs=[1],
                    reference=lambda i, o, n: [i.reshape(n, n).T.ravel().copy()]))
    rows, cols = 16384, 512
    out.append(dict(name="matvec_ldg4", kernel="matvec_ldg4", grid=(rows // 4 // 256,), block=(256,),
                    args=[_f32(r, rows * cols), _f32(r, cols), np.zeros(rows, np.float32), np.int32(cols)],
                    outputs=[2], reference=lambda A, x, y, n: [(A.reshape(-1, n).astype(np.float64) @ x)
                                                               .astype(np.float32)], rtol=1e-4))
    keys = r.integers(0, 1 << 30, 1 << 20, dtype=np.int32)
    out.append(dict(name="shared_hist_int", kernel="shared_hist_int", grid=(2 * SMS,), block=(256,),
                    args=[keys, np.zeros(1024, np.int32), np.int32(1 << 20)], outputs=[1], reference=_hist))
    return out
