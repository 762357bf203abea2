"""Launch specs for kernels.cu (sixteenth batch, written 2026-12-04 and used to set nothing): inputs,
launch shape and a NumPy reference for each, from first principles. Two waves of eight 256-thread
CTAs an SM (2,112 CTAs) unless said otherwise."""

import numpy as np

WAVES2 = 132 * 8 * 2 * 256  # threads: two waves at eight CTAs an SM


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _weighted(per: int):
    def ref(x, out, n):
        return [x.reshape(-1, per).astype(np.float64) @ np.arange(1, per + 1, dtype=np.float64)]
    return ref


def _plain_sum(per: int, width: int | None = None):
    def ref(x, out, n):
        rows = x.reshape(-1, width or per)[:, :per]
        return [rows.astype(np.float64).sum(1)]
    return ref


def _chunk_max(x, out, n):
    return [x.reshape(-1, 64).max(1)]


def _row_dot(a, x, y, rows):
    return [a.reshape(int(rows), 64).astype(np.float64) @ x.astype(np.float64)]


def _meanvar(x, out, n):
    v = x.reshape(-1, 32).astype(np.float64)
    mean = v.mean(1)
    return [np.stack([mean, ((v - mean[:, None]) ** 2).mean(1)], 1).astype(np.float32).ravel()]


def _interleaved(x, out, n):
    return [x.reshape(32, int(n)).T.astype(np.float64) @ np.arange(1, 33, dtype=np.float64)]


def specs():
    n = WAVES2
    out = []
    for name in ("chunk_sum_u1", "chunk_sum_u8"):
        out.append(dict(name=name, kernel=name, grid=(n // 256,), block=(256,),
                        args=[_rng(1).standard_normal(32 * n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)],
                        outputs=[1], reference=_weighted(32), rtol=1e-4, atol=1e-4))
    out.append(dict(name="chunk_sum_f4", kernel="chunk_sum_f4", grid=(n // 256,), block=(256,),
                    args=[_rng(2).standard_normal(32 * n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[1], reference=_weighted(32), rtol=1e-4, atol=1e-4))
    out.append(dict(name="chunk_sum_64b", kernel="chunk_sum_64b", grid=(n // 256,), block=(256,),
                    args=[_rng(3).standard_normal(16 * n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[1], reference=_weighted(16), rtol=1e-4, atol=1e-4))
    half = n // 2  # one wave: 64 ints a thread
    out.append(dict(name="chunk_max_256b", kernel="chunk_max_256b", grid=(half // 256,), block=(256,),
                    args=[_rng(4).integers(-2**31, 2**31 - 1, 64 * half, dtype=np.int32), np.zeros(half, np.int32),
                          np.int32(half)],
                    outputs=[1], reference=_chunk_max))
    rows = n  # 64 floats (256 B) a row
    out.append(dict(name="row_dot_naive", kernel="row_dot_naive", grid=(rows // 256,), block=(256,),
                    args=[_rng(5).standard_normal(64 * rows, dtype=np.float32),
                          _rng(6).standard_normal(64, dtype=np.float32), np.zeros(rows, np.float32), np.int32(rows)],
                    outputs=[2], reference=_row_dot, rtol=1e-4, atol=1e-3))
    out.append(dict(name="chunk_meanvar", kernel="chunk_meanvar", grid=(n // 256,), block=(256,),
                    args=[_rng(7).standard_normal(32 * n, dtype=np.float32), np.zeros(2 * n, np.float32), np.int32(n)],
                    outputs=[1], reference=_meanvar, rtol=1e-4, atol=1e-5))
    out.append(dict(name="pitched_row_sum", kernel="pitched_row_sum", grid=(n // 256,), block=(256,),
                    args=[_rng(8).standard_normal(40 * n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[1], reference=_plain_sum(32, 40), rtol=1e-4, atol=1e-4))
    out.append(dict(name="interleaved_sum", kernel="interleaved_sum", grid=(n // 256,), block=(256,),
                    args=[_rng(9).standard_normal(32 * n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[1], reference=_interleaved, rtol=1e-4, atol=1e-4))
    return out
