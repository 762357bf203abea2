"""Launch specs for kernels.cu (twenty-third batch, written 2026-12-07 before any GPU ran it):
latency-bound loops in registers and shared memory, where the time depends on how many independent
chains ptxas overlaps (all-pairs forces and distances over shared tiles, Horner chains one and four
a thread, a 17-tap convolution, Black-Scholes, an integer RNG chain with shared atomics, a
shared-tile bilinear form). References are NumPy."""

import math

import numpy as np

SMS = 132
CONV_W = np.array([0.02 + 0.01 * min(k, 16 - k) for k in range(17)], np.float32)


def _f32(r, n):
    return r.random(n).astype(np.float32)


def _nbody(px, py, pz, pm, out, n):
    p = np.stack([px, py, pz]).astype(np.float64)
    d = p[:, None, :] - p[:, :, None]  # d[c, i, j] = p_j - p_i
    inv = 1.0 / np.sqrt((d * d).sum(0) + 1e-3)
    return [(pm[None, :] * inv ** 3 * d.sum(0)).sum(1).astype(np.float32)]


def _pair_min(pts, out, n):
    p = pts.reshape(-1, 2).astype(np.float64)
    d = np.sqrt(((p[:, None, :] - p[None, :, :]) ** 2).sum(2))
    np.fill_diagonal(d, np.inf)
    return [d.min(1).astype(np.float32)]


def _conv(x, out, n):
    pad = np.concatenate([np.zeros(8), x.astype(np.float64), np.zeros(8)])
    return [np.convolve(pad, CONV_W[::-1].astype(np.float64), mode="valid").astype(np.float32)]


def _horner(coef, xs, out, deg):
    p = np.zeros(xs.size)
    for k in range(int(deg) + 1):
        p = p * xs.astype(np.float64) + float(coef[k])
    return [p.astype(np.float32)]


def _bs(S, K, T, call, put, r, v, n):
    S, K, T = (a.astype(np.float64) for a in (S, K, T))
    sq = np.sqrt(T)
    d1 = (np.log(S / K) + (float(r) + 0.5 * float(v) ** 2) * T) / (float(v) * sq)
    d2 = d1 - float(v) * sq
    cdf = np.vectorize(lambda x: 0.5 * math.erfc(-x / math.sqrt(2.0)))
    n1, n2 = cdf(d1), cdf(d2)
    e = np.exp(-float(r) * T)
    return [(S * n1 - K * e * n2).astype(np.float32), (K * e * (1 - n2) - S * (1 - n1)).astype(np.float32)]


def _xorshift(seeds, hist, steps):
    s = (seeds | 1).astype(np.uint32)
    out = np.zeros(64, np.int64)
    for _ in range(int(steps)):
        s ^= s << np.uint32(13)
        s ^= s >> np.uint32(17)
        s ^= s << np.uint32(5)
        out += np.bincount(s & 63, minlength=64)
    return [out.astype(np.uint32)]


def _bilinear(a, out):
    t = a.reshape(-1, 32, 32).astype(np.float64)
    return [np.einsum("bjr,brj->br", t, t).astype(np.float32).ravel()]


def specs():
    r = np.random.default_rng(23)
    out = []
    nb = 4096
    out.append(dict(name="nbody_soa", kernel="nbody_soa", grid=(nb // 128,), block=(128,),
                    args=[_f32(r, nb), _f32(r, nb), _f32(r, nb), _f32(r, nb), np.zeros(nb, np.float32), np.int32(nb)],
                    outputs=[4], reference=_nbody, rtol=1e-3, atol=1e-2))
    npts = 8192
    out.append(dict(name="pair_min_dist", kernel="pair_min_dist", grid=(npts // 256,), block=(256,),
                    args=[_f32(r, 2 * npts), np.zeros(npts, np.float32), np.int32(npts)], outputs=[1],
                    reference=_pair_min, rtol=1e-4, atol=1e-6))
    nc = 1 << 22
    out.append(dict(name="conv1d_r8", kernel="conv1d_r8", grid=(nc // 256,), block=(256,),
                    args=[_f32(r, nc), np.zeros(nc, np.float32), np.int32(nc)], outputs=[1], reference=_conv,
                    rtol=1e-5, atol=1e-6))
    deg, nx = 255, 2 * SMS * 64
    coef = ((r.random(deg + 1) - 0.5) * 0.05).astype(np.float32)
    out.append(dict(name="horner_1pt", kernel="horner_1pt", grid=(2 * SMS,), block=(64,),
                    args=[coef, (r.random(nx) * 1.8 - 0.9).astype(np.float32), np.zeros(nx, np.float32),
                          np.int32(deg)], outputs=[2], reference=_horner, rtol=1e-3, atol=1e-4))
    out.append(dict(name="horner_4pt", kernel="horner_4pt", grid=(2 * SMS,), block=(64,),
                    args=[coef, (r.random(4 * nx) * 1.8 - 0.9).astype(np.float32), np.zeros(4 * nx, np.float32),
                          np.int32(deg)], outputs=[2], reference=_horner, rtol=1e-3, atol=1e-4))
    no = 1 << 21
    out.append(dict(name="black_scholes", kernel="black_scholes", grid=(no // 256,), block=(256,),
                    args=[(r.random(no) * 90 + 10).astype(np.float32), (r.random(no) * 90 + 10).astype(np.float32),
                          (r.random(no) * 2 + 0.25).astype(np.float32), np.zeros(no, np.float32),
                          np.zeros(no, np.float32), np.float32(0.02), np.float32(0.3), np.int32(no)],
                    outputs=[3, 4], reference=_bs, rtol=1e-3, atol=1e-3))
    out.append(dict(name="xorshift_hist", kernel="xorshift_hist", grid=(SMS,), block=(256,),
                    args=[r.integers(0, 1 << 32, SMS * 256, dtype=np.uint64).astype(np.uint32),
                          np.zeros(64, np.uint32), np.int32(256)], outputs=[1], reference=_xorshift))
    nt = 4096
    out.append(dict(name="tile_bilinear", kernel="tile_bilinear", grid=(nt,), block=(64,),
                    args=[_f32(r, nt * 1024), np.zeros(nt * 32, np.float32)], outputs=[1], reference=_bilinear,
                    rtol=1e-4, atol=1e-5))
    return out
