"""Launch specs for kernels.cu (sixth batch, written 2026-12-01 and used to set nothing): inputs,
launch shape and a NumPy reference for each."""

import numpy as np


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _memset(out, n):
    return [((np.arange(n, dtype=np.int64) * 7 + 3) & 0xFF).astype(np.uint8)]


def _aos(p, sx, sy, sz, n):
    return [(p.reshape(-1, 3) * np.array([sx, sy, sz], np.float32)).astype(np.float32).ravel()]


def _gemv_half(A, x, y, cols2):
    a = A.reshape(y.size, 2 * cols2).astype(np.float64)
    return [(a @ x.astype(np.float64)).astype(np.float32)]


def _fft(i, o):
    z = i.reshape(-1, 1024, 2).astype(np.float64)
    f = np.fft.fft(z[..., 0] + 1j * z[..., 1], axis=1)
    return [np.stack([f.real, f.imag], -1).astype(np.float32).ravel()]


def _topk(x, top, cols):
    return [-np.sort(-x.reshape(-1, cols), axis=1)[:, :8].astype(np.float32).ravel()]


def _transpose(i, o, n):
    return [i.reshape(n, n).T.ravel().copy()]


def _scale_rows(x, s, y, cols4):
    return [(x.reshape(s.size, 4 * cols4) * s[:, None]).astype(np.float32).ravel()]


def _embed(table, scale, idx, out, dim4):
    t = table.reshape(scale.size, 4 * dim4).astype(np.float32)
    return [(scale[idx, None] * t[idx]).astype(np.float32).ravel()]


def specs():
    out = []
    n = 1 << 22
    out.append(dict(name="memset_pattern_u8", kernel="memset_pattern_u8", grid=(n // 256,), block=(256,),
                    args=[np.zeros(n, np.uint8), np.int32(n)], outputs=[0], reference=_memset))
    n = 1 << 20
    r = _rng(1)
    out.append(dict(name="aos_float3_scale", kernel="aos_float3_scale", grid=(n // 256,), block=(256,),
                    args=[r.random(3 * n, dtype=np.float32), np.float32(2.0), np.float32(0.5), np.float32(-1.0),
                          np.int32(n)], outputs=[0], reference=_aos))
    rows, cols = 4096, 4096
    r = _rng(2)
    out.append(dict(name="half2_gemv_rows", kernel="half2_gemv_rows", grid=(rows // 8,), block=(256,),
                    args=[(r.random(rows * cols) - 0.5).astype(np.float16), (r.random(cols) - 0.5).astype(np.float16),
                          np.zeros(rows, np.float32), np.int32(cols // 2)], outputs=[2], reference=_gemv_half,
                    rtol=1e-3, atol=1e-3))
    batches = 256
    out.append(dict(name="fft1024_shared", kernel="fft1024_shared", grid=(batches,), block=(512,),
                    args=[_rng(3).random(batches * 2048, dtype=np.float32), np.zeros(batches * 2048, np.float32)],
                    outputs=[1], reference=_fft, rtol=1e-3, atol=2e-3))
    rows, cols = 8192, 1024
    out.append(dict(name="topk8_rows", kernel="topk8_rows", grid=(rows // 8,), block=(256,),
                    args=[_rng(4).random(rows * cols, dtype=np.float32), np.zeros(rows * 8, np.float32),
                          np.int32(cols)], outputs=[1], reference=_topk))
    n = 2048
    out.append(dict(name="transpose_double_pad", kernel="transpose_double_pad", grid=(n // 32, n // 32), block=(32, 8),
                    args=[_rng(5).random(n * n), np.zeros(n * n), np.int32(n)], outputs=[1], reference=_transpose))
    rows, cols = 4096, 4096
    r = _rng(6)
    out.append(dict(name="scale_rows_stcs", kernel="scale_rows_stcs", grid=(cols // 4 // 32, rows // 4), block=(32, 4),
                    args=[r.random(rows * cols, dtype=np.float32), r.random(rows, dtype=np.float32),
                          np.zeros(rows * cols, np.float32), np.int32(cols // 4)], outputs=[2],
                    reference=_scale_rows))
    vocab, dim, lookups = 50_000, 256, 8192
    r = _rng(7)
    out.append(dict(name="int8_embed_dequant", kernel="int8_embed_dequant", grid=(lookups,), block=(64,),
                    args=[r.integers(-128, 128, vocab * dim, dtype=np.int8), r.random(vocab, dtype=np.float32) / 64,
                          r.integers(0, vocab, lookups, dtype=np.int32), np.zeros(lookups * dim, np.float32),
                          np.int32(dim // 4)], outputs=[3], reference=_embed))
    return out
