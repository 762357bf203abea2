"""Launch specs for kernels.cu (twelfth batch, written 2026-12-02 and used to set nothing): inputs,
launch shape and a NumPy reference for each, from first principles."""

import numpy as np


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _pitched(a, out, cols, pitch):
    r = out.copy().reshape(-1, int(pitch))
    r[:, :int(cols)] = 2.0 * a.reshape(-1, int(pitch))[:, :int(cols)]
    return [r.ravel()]


def _gather(a, idx, out, n):
    return [a[idx]]


def _d2(a, out, n):
    rec = a.reshape(-1, 6)
    return [rec[:, 0] * rec[:, 1]]


def _reread(a, out, n):
    return [a + np.float32(2) * a + np.float32(3) * a]


def _half_warp(a, out, n):
    i = np.arange(int(n))
    lane = i & 31
    v = a[(i >> 5) * 16 + (lane & 15)]
    r = out.copy()
    odd = (lane & 1) == 1
    r[i[odd] >> 1] = v[odd] + lane[odd].astype(np.float32)
    return [r]


def _strided_sum(a, out, n):
    total = out.size
    return [a.reshape(-1, total).astype(np.float64).sum(0)]


def _discard(scratch, out, n):
    i = np.arange(int(n))
    return [((i ^ 1) * 0.5).astype(np.float32)]


def _depthwise(x, w, out, h, wd):
    c = w.size // 9
    p = np.pad(x.reshape(c, int(h), int(wd)).astype(np.float64), ((0, 0), (1, 1), (1, 1)))
    ww = w.reshape(c, 3, 3).astype(np.float64)
    r = np.zeros((c, int(h), int(wd)))
    for dy in range(3):
        for dx in range(3):
            r += ww[:, dy, dx][:, None, None] * p[:, dy:dy + int(h), dx:dx + int(wd)]
    return [r.ravel()]


def _int4(wq, scales, x, y, cols):
    rows = y.size
    words = wq.view(np.uint32).reshape(rows, -1)
    nib = ((words[:, :, None] >> (4 * np.arange(8, dtype=np.uint32))) & 15).astype(np.int64) - 8
    w = nib.reshape(rows, -1).astype(np.float64) * np.repeat(scales.astype(np.float64).reshape(rows, -1), 64, 1)
    return [w @ x.astype(np.float64)]


def _bf16(v: np.ndarray) -> np.ndarray:
    return (v.astype(np.uint32) << 16).view(np.float32)


def _rmsnorm(x, g, y, cols):
    """The output's bf16 bit patterns (round to nearest even); compared as integers with rtol 1e-3,
    a few bf16 units (the kernel's rsqrtf is approximate)."""
    v = _bf16(x.view(np.uint16)).reshape(-1, int(cols)).astype(np.float64)
    inv = 1.0 / np.sqrt((v * v).mean(1) + 1e-6)
    r = (v * inv[:, None] * _bf16(g.view(np.uint16)).astype(np.float64)[None, :]).astype(np.float32).ravel()
    bits = r.view(np.uint32).astype(np.uint64)
    return [((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)]


def _col_sum(a, out, rows, cols):
    return [a.reshape(int(rows), int(cols)).sum(0)]


def _scatter(v, key, bins, n):
    r = np.zeros(bins.size, np.float64)
    np.add.at(r, key, v.astype(np.float64))
    return [r]


def specs():
    out = []
    rows, cols, pitch = 2048, 1000, 1001
    out.append(dict(name="pitched_copy_odd", kernel="pitched_copy_odd", grid=((cols + 31) // 32, rows // 8),
                    block=(32, 8), args=[_rng(1).random(rows * pitch, dtype=np.float32),
                                         np.zeros(rows * pitch, np.float32), np.int32(cols), np.int32(pitch)],
                    outputs=[1], reference=_pitched))
    n = 1 << 21
    idx = ((np.arange(n) // 4) * 7919 % n).astype(np.int32)
    out.append(dict(name="gather_dup_idx", kernel="gather_dup_idx", grid=(n // 256,), block=(256,),
                    args=[_rng(2).random(n, dtype=np.float32), idx, np.zeros(n, np.float32), np.int32(n)],
                    outputs=[2], reference=_gather))
    n = 1 << 20
    out.append(dict(name="double2_aos_stride3", kernel="double2_aos_stride3", grid=(n // 256,), block=(256,),
                    args=[_rng(3).standard_normal(6 * n), np.zeros(n), np.int32(n)], outputs=[1], reference=_d2))
    n = 1 << 22
    out.append(dict(name="reread_cache_ops", kernel="reread_cache_ops", grid=(n // 256,), block=(256,),
                    args=[_rng(4).random(n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[1], reference=_reread, rtol=1e-6))
    n = 1 << 22
    out.append(dict(name="half_warp_masks", kernel="half_warp_masks", grid=(n // 256,), block=(256,),
                    args=[_rng(5).random(n // 2, dtype=np.float32), np.zeros(n // 2, np.float32), np.int32(n)],
                    outputs=[1], reference=_half_warp))
    n = 1056 * 256 * 31
    out.append(dict(name="prefetch_then_sum", kernel="prefetch_then_sum", grid=(1056,), block=(256,),
                    args=[_rng(6).random(n, dtype=np.float32), np.zeros(1056 * 256, np.float32), np.int32(n)],
                    outputs=[1], reference=_strided_sum, rtol=1e-5))
    n = 1 << 21
    out.append(dict(name="discard_scratch", kernel="discard_scratch", grid=(n // 256,), block=(256,),
                    args=[np.zeros(n, np.float32), np.zeros(n, np.float32), np.int32(n)], outputs=[1],
                    reference=_discard))
    c, h, wd = 64, 256, 256
    out.append(dict(name="depthwise3x3", kernel="depthwise3x3", grid=(wd // 32, h // 8, c), block=(32, 8),
                    args=[_rng(7).standard_normal(c * h * wd, dtype=np.float32),
                          _rng(8).standard_normal(c * 9, dtype=np.float32), np.zeros(c * h * wd, np.float32),
                          np.int32(h), np.int32(wd)], outputs=[2], reference=_depthwise, rtol=1e-4, atol=1e-4))
    rows, cols = 4096, 4096
    out.append(dict(name="int4_gemv", kernel="int4_gemv", grid=(rows // 8,), block=(256,),
                    args=[_rng(9).integers(0, 1 << 32, rows * cols // 8, dtype=np.uint32),
                          (_rng(10).random(rows * cols // 64) * 0.02 + 0.001).astype(np.float16),
                          _rng(11).standard_normal(cols, dtype=np.float32), np.zeros(rows, np.float32),
                          np.int32(cols)], outputs=[3], reference=_int4, rtol=1e-3, atol=1e-3))
    rows, cols = 4096, 2048
    xb = (_rng(12).standard_normal(rows * cols, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)
    gb = ((_rng(13).random(cols, dtype=np.float32) + 0.5).view(np.uint32) >> 16).astype(np.uint16)
    out.append(dict(name="bf16_rmsnorm_vec8", kernel="bf16_rmsnorm_vec8", grid=(rows // 8,), block=(256,),
                    args=[xb, gb, np.zeros(rows * cols, np.uint16), np.int32(cols)], outputs=[2],
                    reference=_rmsnorm, rtol=1e-3, atol=4))
    rows, cols = 512, 16384
    out.append(dict(name="col_sum_double", kernel="col_sum_double", grid=(cols // 128,), block=(128,),
                    args=[_rng(14).standard_normal(rows * cols), np.zeros(cols), np.int32(rows), np.int32(cols)],
                    outputs=[1], reference=_col_sum, rtol=1e-10, atol=1e-10))
    n = 1 << 21
    out.append(dict(name="scatter_red_f32", kernel="scatter_red_f32", grid=(n // 256,), block=(256,),
                    args=[_rng(15).integers(0, 8, n).astype(np.float32),
                          _rng(16).integers(0, 4096, n, dtype=np.int32), np.zeros(4096, np.float32), np.int32(n)],
                    outputs=[2], reference=_scatter))
    return out
