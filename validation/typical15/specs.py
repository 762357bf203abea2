"""Launch specs for kernels.cu (fifteenth batch, written 2026-12-03 and used to set nothing): inputs,
launch shape and a NumPy reference for each, from first principles."""

import numpy as np


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _reuse_half(x, out, chunks):
    c = int(chunks)
    v = x.reshape(c, 256, 4).astype(np.float64)
    return [(v + v[(np.arange(c) + c // 2) % c]).sum(2).ravel()]


def _mirror(x, out, n):
    return [x.astype(np.float64) + x[::-1]]


def _gemv(a, x, y, rows, cols4):
    return [a.reshape(int(rows), -1).astype(np.float64) @ x.astype(np.float64)]


def _transpose(x, out, rows, cols):
    return [x.reshape(int(rows), int(cols)).T.ravel()]


def _hash_count(keys, table, n, mask):
    h = (keys.astype(np.uint64) * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)
    h ^= h >> np.uint64(15)
    return [np.bincount((h & np.uint64(int(mask))).astype(np.int64), minlength=len(table)).astype(np.uint32)]


def _scatter(x, perm, out, n):
    r = np.zeros_like(out)
    r[perm] = x
    return [r]


def _carveout(table, out, table_len):
    s = table.astype(np.float64).reshape(-1, 512).sum(0) * 10.0  # thread t's share, passes 1 + 2 + 3 + 4
    ctas = len(out) // 512
    # buf[j] = s[j % 512]; thread t reads buf[(80 t + k) % 40960] for k < 80
    j = (np.arange(512)[:, None] * 80 + np.arange(80)[None, :]) % 40960
    return [np.tile(s[j % 512].sum(1), ctas)]


def _u8_transpose(x, out, w, h):
    return [x.reshape(int(h), int(w)).T.ravel()]


def _u16_lut(lut, idx, out, n):
    lut = lut.astype(np.float64)
    return [lut[(3 * idx) % 3072] + 0.5 * lut[(3 * idx + 1) % 3072]]


def _double_hist(x, b, hist, n):
    return [np.bincount(b & 63, weights=x.astype(np.float64), minlength=64)]


def _chunk_sum(x, out, n):
    return [x.reshape(-1, 32).astype(np.float64) @ np.arange(1, 33, dtype=np.float64)]


def specs():
    out = []
    for mb in (32, 96):
        chunks = mb * 1024 * 1024 // 4096
        out.append(dict(name=f"reuse_half_shift_{mb}mb", kernel="reuse_half_shift", grid=(chunks,), block=(256,),
                        args=[_rng(1).standard_normal(chunks * 1024, dtype=np.float32),
                              np.zeros(chunks * 256, np.float32), np.int32(chunks)],
                        outputs=[1], reference=_reuse_half, rtol=1e-5, atol=1e-5))
    n = 1 << 24
    out.append(dict(name="mirror_add", kernel="mirror_add", grid=(n // 256,), block=(256,),
                    args=[_rng(2).standard_normal(n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[1], reference=_mirror, rtol=1e-6, atol=1e-6))
    rows, cols = 8192, 4096
    out.append(dict(name="gemv_big_rows", kernel="gemv_big_rows", grid=(rows // 8,), block=(256,),
                    args=[_rng(3).standard_normal(rows * cols, dtype=np.float32),
                          _rng(4).standard_normal(cols, dtype=np.float32), np.zeros(rows, np.float32),
                          np.int32(rows), np.int32(cols // 4)], outputs=[2], reference=_gemv, rtol=1e-4, atol=1e-3))
    out.append(dict(name="transpose_big_tiled", kernel="transpose_big_tiled", grid=(cols // 32, rows // 32),
                    block=(32, 8), args=[_rng(5).standard_normal(rows * cols, dtype=np.float32),
                                         np.zeros(rows * cols, np.float32), np.int32(rows), np.int32(cols)],
                    outputs=[1], reference=_transpose))
    n, slots = 1 << 22, 1 << 25
    out.append(dict(name="atomic_rand_big", kernel="atomic_rand_big", grid=(n // 256,), block=(256,),
                    args=[_rng(6).integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32),
                          np.zeros(slots, np.uint32), np.int32(n), np.uint32(slots - 1)],
                    outputs=[1], reference=_hash_count))
    n = 1 << 24
    out.append(dict(name="byte_scatter_perm", kernel="byte_scatter_perm", grid=(n // 256,), block=(256,),
                    args=[_rng(7).integers(0, 256, n).astype(np.uint8), _rng(8).permutation(n).astype(np.int32),
                          np.zeros(n, np.uint8), np.int32(n)], outputs=[2], reference=_scatter))
    ctas, table_len = 132, 20480
    out.append(dict(name="carveout_reread", kernel="carveout_reread", grid=(ctas,), block=(512,),
                    shared_mem=160 * 1024,
                    args=[_rng(9).standard_normal(table_len, dtype=np.float32), np.zeros(ctas * 512, np.float32),
                          np.int32(table_len)], outputs=[1], reference=_carveout, rtol=1e-4, atol=1e-3))
    w, h = 4096, 2048
    out.append(dict(name="smem_u8_transpose", kernel="smem_u8_transpose", grid=(w // 64, h // 64), block=(64, 4),
                    args=[_rng(10).integers(0, 256, w * h).astype(np.uint8), np.zeros(w * h, np.uint8),
                          np.int32(w), np.int32(h)], outputs=[1], reference=_u8_transpose))
    n = 1 << 22
    out.append(dict(name="smem_u16_lut", kernel="smem_u16_lut", grid=(n // 256,), block=(256,),
                    args=[_rng(11).integers(0, 1 << 16, 3072).astype(np.uint16),
                          _rng(12).integers(0, 1 << 20, n).astype(np.int32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[2], reference=_u16_lut))
    n = 1 << 22
    out.append(dict(name="smem_double_atomic", kernel="smem_double_atomic", grid=(264,), block=(256,),
                    args=[_rng(13).standard_normal(n, dtype=np.float32),
                          _rng(14).integers(0, 1 << 20, n).astype(np.int32), np.zeros(64, np.float64), np.int32(n)],
                    outputs=[2], reference=_double_hist,
                    rtol=1e-9, atol=1e-9))
    n = 1 << 20
    out.append(dict(name="thread_chunk_sum", kernel="thread_chunk_sum", grid=(n // 256,), block=(256,),
                    args=[_rng(15).standard_normal(32 * n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[1], reference=_chunk_sum, rtol=1e-4, atol=1e-4))
    return out
