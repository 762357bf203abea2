"""Launch specs for kernels.cu (seventh batch, written 2026-12-01 and used to set nothing): inputs,
launch shape and a NumPy reference for each."""

import numpy as np


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _wmma(A, Bt, C, n):
    a = A.reshape(n, n).astype(np.float64)
    b = Bt.reshape(n, n).astype(np.float64).T
    return [(a @ b).astype(np.float32).ravel()]


def _fir(x, y, n):
    taps = np.array([0.01 * (k + 1) for k in range(16)] + [0.01 * (16 - k) for k in range(16)], np.float32)
    xs = x.astype(np.float64)
    acc = sum(float(taps[k]) * xs[k:k + n] for k in range(32))
    return [acc.astype(np.float32)]


def _tile_sum(x, sums, n):
    grid_threads = 512 * 256
    per_thread = np.zeros(grid_threads, np.int64)
    np.add.at(per_thread, np.arange(n) % grid_threads, x.astype(np.int64))
    tiles = per_thread.reshape(-1, 16).sum(1)
    return [np.bincount(np.arange(tiles.size) % 64, weights=tiles, minlength=64).astype(np.int32)]


def _bitpack(x, bits, counts, t, n):
    b = (x > t).reshape(-1, 32).astype(np.uint64)
    words = (b << (31 - np.arange(32, dtype=np.uint64))).sum(1).astype(np.uint32)
    return [words, (x > t).reshape(counts.size, -1).sum(1).astype(np.int32)]


def _hist(keys, hist, n):
    return [np.bincount(keys, minlength=hist.size).astype(np.int32)]


def _cas_max(x, bucket, out, n):
    m = np.zeros_like(out)
    np.maximum.at(m, bucket, x)
    return [m]


def _red_double(w, b, out, n):
    return [np.bincount(b, weights=w, minlength=out.size)]


def _im2col(img, col, C, H, W):
    im = np.pad(img.reshape(C, H, W), ((0, 0), (1, 1), (1, 1)))
    cols = [im[:, ky:ky + H, kx:kx + W] for ky in range(3) for kx in range(3)]
    return [np.stack(cols, 1).reshape(C * 9, H * W).astype(np.float32).ravel()]


def _philox(out, seed, n4):
    m = np.uint64(0xFFFFFFFF)
    c0 = np.arange(n4, dtype=np.uint64)
    c1 = np.zeros(n4, np.uint64)
    c2 = np.zeros(n4, np.uint64)
    c3 = np.zeros(n4, np.uint64)
    k0, k1 = int(seed), 0xCAFEF00D
    for _ in range(10):
        p0 = np.uint64(0xD2511F53) * c0
        p1 = np.uint64(0xCD9E8D57) * c2
        h0, l0, h1, l1 = p0 >> np.uint64(32), p0 & m, p1 >> np.uint64(32), p1 & m
        c0, c1, c2, c3 = h1 ^ c1 ^ np.uint64(k0), l1, h0 ^ c3 ^ np.uint64(k1), l0
        k0 = (k0 + 0x9E3779B9) & 0xFFFFFFFF
        k1 = (k1 + 0xBB67AE85) & 0xFFFFFFFF
    words = np.stack([c0, c1, c2, c3], 1).astype(np.uint32)
    return [(words.astype(np.float32) * np.float32(2.0 ** -32)).ravel()]


def _worklist(x, y, nxt, chunks, chunk):
    return [(np.sqrt(x) * 2 + 1).astype(np.float32), np.array([chunks + 264 * 8], np.int32)]


def _group8(x, out, n):
    v = x.astype(np.int64).reshape(-1, 8)
    lanes = (np.arange(x.size) % 32).reshape(-1, 8)
    bit = np.uint64(1) << lanes.astype(np.uint64)
    ballot = ((v > 0) * bit).sum(1, dtype=np.uint64)
    every = (v >= 0).all(1)
    match = np.stack([(((v & 3) == (v[:, [j]] & 3)) * bit).sum(1, dtype=np.uint64) for j in range(8)], 1)
    res = [np.repeat(ballot, 8), np.repeat(every, 8), match.ravel(), np.repeat(v.sum(1), 8), np.repeat(v.max(1), 8)]
    return [np.concatenate([(np.asarray(r).astype(np.int64) & 0xFFFFFFFF) for r in res]).astype(np.uint32)]


def specs():
    out = []
    n = 1024
    r = _rng(1)
    out.append(dict(name="wmma_gemm_f16", kernel="wmma_gemm_f16", grid=(n * n // 256 // 4,), block=(128,),
                    args=[(r.random(n * n) - 0.5).astype(np.float16), (r.random(n * n) - 0.5).astype(np.float16),
                          np.zeros(n * n, np.float32), np.int32(n)], outputs=[2], reference=_wmma,
                    rtol=1e-3, atol=1e-3))
    n = 1 << 22
    out.append(dict(name="fir32_const", kernel="fir32_const", grid=(n // 256,), block=(256,),
                    args=[_rng(2).random(n + 32, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[1], reference=_fir, rtol=1e-5, atol=1e-5))
    out.append(dict(name="cg_tile16_sum", kernel="cg_tile16_sum", grid=(512,), block=(256,),
                    args=[_rng(3).integers(0, 10, n, dtype=np.int32), np.zeros(64, np.int32), np.int32(n)],
                    outputs=[1], reference=_tile_sum))
    out.append(dict(name="ballot_bitpack", kernel="ballot_bitpack", grid=(n // 256,), block=(256,),
                    args=[_rng(4).random(n, dtype=np.float32), np.zeros(n // 32, np.uint32),
                          np.zeros(n // 256, np.int32), np.float32(0.5), np.int32(n)],
                    outputs=[1, 2], reference=_bitpack))
    out.append(dict(name="match_any_hist", kernel="match_any_hist", grid=(n // 256,), block=(256,),
                    args=[_rng(5).integers(0, 64, n, dtype=np.int32), np.zeros(64, np.int32), np.int32(n)],
                    outputs=[1], reference=_hist))
    n = 1 << 20
    r = _rng(6)
    out.append(dict(name="cas_float_max", kernel="cas_float_max", grid=(n // 256,), block=(256,),
                    args=[r.random(n, dtype=np.float32) + 0.01, r.integers(0, 1 << 16, n, dtype=np.int32),
                          np.zeros(1 << 16, np.float32), np.int32(n)], outputs=[2], reference=_cas_max))
    n = 1 << 21
    r = _rng(7)
    out.append(dict(name="red_double_bins", kernel="red_double_bins", grid=(n // 256,), block=(256,),
                    args=[r.integers(0, 100, n).astype(np.float64) / 4, r.integers(0, 4096, n, dtype=np.int32),
                          np.zeros(4096), np.int32(n)], outputs=[2], reference=_red_double))
    C, H, W = 32, 64, 64
    out.append(dict(name="im2col_3x3", kernel="im2col_3x3", grid=(C * 9 * H * W // 256,), block=(256,),
                    args=[_rng(8).random(C * H * W, dtype=np.float32), np.zeros(C * 9 * H * W, np.float32),
                          np.int32(C), np.int32(H), np.int32(W)], outputs=[1], reference=_im2col))
    n4 = 1 << 20
    out.append(dict(name="philox_uniform", kernel="philox_uniform", grid=(n4 // 256,), block=(256,),
                    args=[np.zeros(4 * n4, np.float32), np.uint32(1234), np.int32(n4)], outputs=[0],
                    reference=_philox))
    chunks, chunk = 4096, 1024
    out.append(dict(name="persistent_worklist", kernel="persistent_worklist", grid=(264,), block=(256,),
                    args=[_rng(9).random(chunks * chunk, dtype=np.float32), np.zeros(chunks * chunk, np.float32),
                          np.zeros(1, np.int32), np.int32(chunks), np.int32(chunk)], outputs=[1, 2],
                    reference=_worklist))
    n = 1 << 16
    x = _rng(10).integers(-3, 110, n).astype(np.int32)
    x[: n // 2: 16] = np.abs(x[: n // 2: 16])
    x[n // 4:n // 2] = np.abs(x[n // 4:n // 2])
    out.append(dict(name="group8_votes", kernel="group8_votes", grid=(n // 256,), block=(256,),
                    args=[x, np.zeros(5 * n, np.uint32), np.int32(n)], outputs=[1], reference=_group8))
    return out
