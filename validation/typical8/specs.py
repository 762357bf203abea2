"""Launch specs for kernels.cu (eighth batch, written 2026-12-01 and used to set nothing): inputs,
launch shape and a NumPy reference for each. References are computed from first principles here
(FP8 from its bit fields), not with simgpu's code."""

import numpy as np


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def e4m3_values() -> np.ndarray:
    """The value of every e4m3 code (NaN for 0x7F / 0xFF): 1 sign, 4 exponent (bias 7), 3 mantissa bits."""
    codes = np.arange(256)
    s, e, m = codes >> 7, (codes >> 3) & 15, codes & 7
    mag = np.where(e == 0, m / 8.0 * 2.0 ** -6, (1 + m / 8.0) * 2.0 ** (e - 7.0))
    mag = np.where((e == 15) & (m == 7), np.nan, mag)
    return np.where(s == 1, -mag, mag)


def e4m3_encode(v: np.ndarray) -> np.ndarray:
    """Round to the nearest e4m3 value, ties to the even code, clamped to +-448 (satfinite)."""
    pos = e4m3_values()[:127]  # codes 0..126, increasing
    a = np.minimum(np.abs(v.astype(np.float64)), 448.0)
    hi = np.clip(np.searchsorted(pos, a), 0, 126)
    lo = np.maximum(hi - 1, 0)
    d_lo, d_hi = a - pos[lo], pos[hi] - a
    code = np.where(d_lo < d_hi, lo, np.where(d_hi < d_lo, hi, np.where(lo % 2 == 0, lo, hi)))
    return (code | np.where(np.signbit(v), 128, 0)).astype(np.uint8)


def _lookback(x, y, status, ticket):
    return [np.cumsum(x).astype(np.int32)]


def _normalize(x, y, partial, n):
    xs = x.astype(np.float64)
    return [(xs / np.sqrt((xs * xs).sum())).astype(np.float32)]


def _pipe(x, y, iters):
    v = x.reshape(-1, 128, 4)[:, np.arange(128) ^ 1].astype(np.float64)
    return [(v[..., 0] * v[..., 1] + v[..., 2] - v[..., 3]).astype(np.float32).ravel()]


def _gemv(W, x, y, rows, cols):
    w = e4m3_values()[W].reshape(rows, cols)
    return [(w @ x.astype(np.float64)).astype(np.float32)]


def _quantize(x, q, scale):
    rows = x.reshape(-1, 1024)
    s = np.float32(448.0) / np.abs(rows).max(1).astype(np.float32)
    return [e4m3_encode((rows * s[:, None]).astype(np.float32)).ravel(), s]


def _bitonic(data):
    return [np.sort(data.reshape(-1, 1024), 1).ravel()]


def _rope(x, y, heads, half_dim):
    v = x.reshape(-1, heads, half_dim, 2).astype(np.float64)
    tokens = v.shape[0]
    freq = 10000.0 ** (-np.arange(half_dim) / half_dim)
    ang = np.arange(tokens)[:, None, None] * freq[None, None, :]
    c, s = np.cos(ang), np.sin(ang)
    out = np.stack([v[..., 0] * c - v[..., 1] * s, v[..., 0] * s + v[..., 1] * c], -1)
    return [out.astype(np.float32).ravel()]


def _tma(x, y, a):
    return [(np.float32(a) * x.reshape(-1, 4096)[:, ::-1]).astype(np.float32).ravel()]


def _double_buffer(x, sums, tiles):
    t = x.reshape(-1, tiles, 1024).astype(np.float64)
    return [(t.sum(2) * np.arange(1, tiles + 1)).sum(1).astype(np.float32)]


def specs():
    out = []
    n = 512 * 2048
    out.append(dict(name="lookback_scan", kernel="lookback_scan", grid=(512,), block=(256,),
                    args=[_rng(1).integers(0, 10, n, dtype=np.int32), np.zeros(n, np.int32),
                          np.zeros(512, np.uint64), np.zeros(1, np.int32)], outputs=[1], reference=_lookback))
    n = 1 << 20
    out.append(dict(name="grid_sync_normalize", kernel="grid_sync_normalize", grid=(264,), block=(256,),
                    cooperative=True,
                    args=[_rng(2).standard_normal(n, dtype=np.float32), np.zeros(n, np.float32),
                          np.zeros(264, np.float32), np.int32(n)], outputs=[1], reference=_normalize,
                    rtol=1e-4, atol=1e-7))
    iters = 8
    out.append(dict(name="named_barrier_pipe", kernel="named_barrier_pipe", grid=(256,), block=(256,),
                    args=[_rng(3).random(256 * iters * 128 * 4, dtype=np.float32),
                          np.zeros(256 * iters * 128, np.float32), np.int32(iters)], outputs=[1],
                    reference=_pipe, rtol=1e-6, atol=1e-6))
    rows = cols = 2048
    codes = _rng(4).integers(0, 256, rows * cols).astype(np.uint8)
    codes[(codes & 0x7F) == 0x7F] = 0x3C  # no NaN weights
    out.append(dict(name="fp8_gemv", kernel="fp8_gemv", grid=(rows // 8,), block=(256,),
                    args=[codes, _rng(5).standard_normal(cols, dtype=np.float32), np.zeros(rows, np.float32),
                          np.int32(rows), np.int32(cols)], outputs=[2], reference=_gemv, rtol=1e-4, atol=1e-3))
    out.append(dict(name="fp8_quantize_rows", kernel="fp8_quantize_rows", grid=(1024,), block=(256,),
                    args=[_rng(6).standard_normal(1024 * 1024, dtype=np.float32), np.zeros(1024 * 1024, np.uint8),
                          np.zeros(1024, np.float32)], outputs=[1, 2], reference=_quantize))
    out.append(dict(name="bitonic_sort_1024", kernel="bitonic_sort_1024", grid=(256,), block=(512,),
                    args=[_rng(7).random(256 * 1024, dtype=np.float32)], outputs=[0], reference=_bitonic))
    heads, half_dim, tokens = 16, 32, 1024
    out.append(dict(name="rope_rotary", kernel="rope_rotary", grid=(tokens,), block=(256,),
                    args=[_rng(8).standard_normal(tokens * heads * half_dim * 2, dtype=np.float32),
                          np.zeros(tokens * heads * half_dim * 2, np.float32), np.int32(heads), np.int32(half_dim)],
                    outputs=[1], reference=_rope, rtol=1e-3, atol=2e-3))
    out.append(dict(name="tma_bulk_scale", kernel="tma_bulk_scale", grid=(256,), block=(256,),
                    args=[_rng(9).random(256 * 4096, dtype=np.float32), np.zeros(256 * 4096, np.float32),
                          np.float32(1.5)], outputs=[1], reference=_tma))
    tiles = 8
    out.append(dict(name="barrier_double_buffer", kernel="barrier_double_buffer", grid=(128,), block=(256,),
                    args=[_rng(10).random(128 * tiles * 1024, dtype=np.float32), np.zeros(128, np.float32),
                          np.int32(tiles)], outputs=[1], reference=_double_buffer, rtol=1e-4))
    return out
