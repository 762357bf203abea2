"""Launch specs for kernels.cu (fourteenth batch, written 2026-12-03 and used to set nothing): inputs,
launch shape and a NumPy reference for each, from first principles."""

import numpy as np


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _lock_bins(keys, locks, count, total, n, bins):
    b = keys % int(bins)
    return [np.zeros(int(bins), np.int32), np.bincount(b, minlength=int(bins)),
            np.bincount(b, weights=keys.astype(np.float64), minlength=int(bins))]


def _interp(prog, x, out, n):
    p = prog.reshape(1024, 16)[np.arange(int(n)) & 1023]
    acc = x.astype(np.float32).copy()
    reg = np.ones_like(acc)
    f = np.float32
    for pc in range(16):
        op = p[:, pc]
        acc = np.where(op == 0, acc + reg, acc)
        acc = np.where(op == 1, acc * f(1.5), acc)
        reg = np.where(op == 2, acc, reg)
        acc = np.where(op == 3, acc - f(0.25) * reg, acc)
        acc = np.where(op == 4, np.abs(acc), acc)
        reg = np.where(op == 5, reg + f(2.0), reg)
        acc = np.where(op == 6, np.minimum(acc, f(100.0)), acc)
        acc = np.where(op == 7, acc * acc * f(0.01), acc)
    return [acc + reg]


def _gray(rgb, gray, w, h):
    p = rgb.reshape(-1, 3).astype(np.int32)
    return [((77 * p[:, 0] + 150 * p[:, 1] + 29 * p[:, 2] + 128) >> 8).astype(np.uint8)]


def _causal(s, p, rows, cols):
    rows, cols = int(rows), int(cols)
    x = s.reshape(rows, cols).astype(np.float64)
    keep = np.arange(cols)[None, :] <= (np.arange(rows) % cols)[:, None]
    x = np.where(keep, x, -np.inf)
    e = np.exp(x - x.max(1, keepdims=True))
    return [(e / e.sum(1, keepdims=True)).ravel()]


def _asm_bits(a, b, out, n):
    a, b = a.astype(np.uint64), b.astype(np.uint64)
    byte = lambda v, k: (v >> np.uint64(8 * k)) & np.uint64(0xFF)  # noqa: E731
    perm = byte(a, 0) | byte(b, 0) << np.uint64(8) | byte(a, 1) << np.uint64(16) | byte(b, 1) << np.uint64(24)
    lane = np.arange(len(a), dtype=np.uint64) % np.uint64(32)
    field = (perm >> (lane & np.uint64(27))) & np.uint64(31)
    return [((perm ^ (field << np.uint64(3)) ^ lane) & np.uint64(0xFFFFFFFF)).astype(np.uint32)]


def _col2im(col, img, c, h, w):
    c, h, w = int(c), int(h), int(w)
    cols = col.reshape(c, 3, 3, h, w).astype(np.float64)
    out = np.zeros((c, h + 2, w + 2))
    for ky in range(3):
        for kx in range(3):
            out[:, ky:ky + h, kx:kx + w] += cols[:, ky, kx]
    return [out[:, 1:h + 1, 1:w + 1].ravel()]


def _thomas(a, b, c, d, x, systems):
    s = int(systems)
    a, b, c, d = (v.reshape(32, s).astype(np.float64) for v in (a, b, c, d))
    cp, dp = np.zeros((32, s)), np.zeros((32, s))
    cp[0], dp[0] = c[0] / b[0], d[0] / b[0]
    for k in range(1, 32):
        m = 1.0 / (b[k] - a[k] * cp[k - 1])
        cp[k], dp[k] = c[k] * m, (d[k] - a[k] * dp[k - 1]) * m
    out = np.zeros((32, s))
    out[31] = dp[31]
    for k in range(30, -1, -1):
        out[k] = dp[k] - cp[k] * out[k + 1]
    return [out.ravel()]


def _reduce(block):
    def ref(x, partial, n):
        grid, n = len(partial), int(n)
        idx = np.arange(n)
        who = (idx // block) % grid  # the CTA whose grid-stride loop reads element i
        return [np.bincount(who, weights=x[:n].astype(np.float64), minlength=grid)]
    return ref


def _bitset(idx, bits, n):
    out = np.zeros(len(bits), np.uint32)
    np.bitwise_or.at(out, idx >> 5, (np.uint32(1) << (idx & 31).astype(np.uint32)))
    return [out]


def _hamming(codes, query, dist, n):
    x = codes.reshape(-1, 4) ^ query[None, :]
    bits = np.unpackbits(x.view(np.uint8), axis=1)
    return [bits.sum(1).astype(np.int32)]


def _warp_sort(a, out, n):
    return [np.sort(a.reshape(-1, 32), axis=1).ravel()]


def specs():
    out = []
    n, bins = 1 << 16, 4096
    keys = _rng(1).integers(0, 1 << 20, n).astype(np.int32)
    out.append(dict(name="lock_bins_spin", kernel="lock_bins_spin", grid=(n // 256,), block=(256,),
                    args=[keys, np.zeros(bins, np.int32), np.zeros(bins, np.int32), np.zeros(bins, np.int64),
                          np.int32(n), np.int32(bins)], outputs=[1, 2, 3], reference=_lock_bins))
    n = 1 << 20
    prog = _rng(2).integers(0, 10, 1024 * 16).astype(np.uint8)
    out.append(dict(name="switch_interp", kernel="switch_interp", grid=(n // 256,), block=(256,),
                    args=[prog, _rng(3).standard_normal(n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[2], reference=_interp, rtol=1e-5, atol=1e-5))
    w, h = 1920, 1080
    out.append(dict(name="rgb_to_gray_uchar3", kernel="rgb_to_gray_uchar3", grid=(w // 32, (h + 7) // 8),
                    block=(32, 8), args=[_rng(4).integers(0, 256, 3 * w * h).astype(np.uint8),
                                         np.zeros(w * h, np.uint8), np.int32(w), np.int32(h)],
                    outputs=[1], reference=_gray))
    rows, cols = 4096, 1024
    out.append(dict(name="causal_softmax_rows", kernel="causal_softmax_rows", grid=(rows // 8,), block=(256,),
                    args=[_rng(5).standard_normal(rows * cols, dtype=np.float32), np.zeros(rows * cols, np.float32),
                          np.int32(rows), np.int32(cols)], outputs=[1], reference=_causal, rtol=1e-4, atol=1e-7))
    n = 1 << 20
    out.append(dict(name="inline_asm_bits", kernel="inline_asm_bits", grid=(n // 256,), block=(256,),
                    args=[_rng(6).integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32),
                          _rng(7).integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32),
                          np.zeros(n, np.uint32), np.int32(n)], outputs=[2], reference=_asm_bits))
    c, h, w = 16, 128, 128
    out.append(dict(name="col2im_atomic", kernel="col2im_atomic", grid=(1024,), block=(256,),
                    args=[_rng(8).standard_normal(c * 9 * h * w, dtype=np.float32), np.zeros(c * h * w, np.float32),
                          np.int32(c), np.int32(h), np.int32(w)], outputs=[1], reference=_col2im,
                    rtol=1e-5, atol=1e-5))
    s = 1 << 16
    r = _rng(9)
    a, c_ = r.random(32 * s, dtype=np.float32), r.random(32 * s, dtype=np.float32)
    b = (a + c_ + 1.0 + r.random(32 * s, dtype=np.float32)).astype(np.float32)  # diagonally dominant
    out.append(dict(name="thomas_batched", kernel="thomas_batched", grid=(s // 128,), block=(128,),
                    args=[a, b, c_, r.standard_normal(32 * s, dtype=np.float32), np.zeros(32 * s, np.float32),
                          np.int32(s)], outputs=[4], reference=_thomas, rtol=1e-4, atol=1e-5))
    n = (1 << 22) + 1000
    x = _rng(10).standard_normal(n, dtype=np.float32)
    for block, grid in ((128, 528), (512, 264)):
        out.append(dict(name=f"reduce_tpl{block}", kernel=f"reduce_tpl{block}", grid=(grid,), block=(block,),
                        args=[x, np.zeros(grid, np.float64), np.int32(n)], outputs=[1], reference=_reduce(block),
                        rtol=1e-9, atol=1e-9))
    n, nbits = 1 << 20, 1 << 22
    out.append(dict(name="bitset_atomic_or", kernel="bitset_atomic_or", grid=(n // 256,), block=(256,),
                    args=[_rng(11).integers(0, nbits, n).astype(np.int32), np.zeros(nbits // 32, np.uint32),
                          np.int32(n)], outputs=[1], reference=_bitset))
    n = 1 << 20
    out.append(dict(name="hamming_popc_u64", kernel="hamming_popc_u64", grid=(n // 256,), block=(256,),
                    args=[_rng(12).integers(0, 1 << 63, 4 * n, dtype=np.uint64),
                          _rng(13).integers(0, 1 << 63, 4, dtype=np.uint64), np.zeros(n, np.int32), np.int32(n)],
                    outputs=[2], reference=_hamming))
    n = 1 << 20
    out.append(dict(name="warp_sort_i64", kernel="warp_sort_i64", grid=(n // 256,), block=(256,),
                    args=[_rng(14).integers(-(1 << 62), 1 << 62, n, dtype=np.int64), np.zeros(n, np.int64),
                          np.int32(n)], outputs=[1], reference=_warp_sort))
    return out
