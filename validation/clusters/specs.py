"""Launch specs for kernels.cu (clusters with distributed shared memory, 2026-12-01): inputs, launch
shape and a NumPy reference for each."""

import numpy as np


def _sum4(x, out):
    s = x.reshape(-1, 4, 256).sum(1)
    return [np.repeat(s[:, None, :], 4, 1).ravel()]


def _hist(keys, hist, per_cta):
    k = keys.reshape(-1, 4 * int(per_cta))
    return [np.stack([np.bincount(row, minlength=8192) for row in k]).astype(np.int32).ravel()]


def _halo(x, y):
    c = x.reshape(-1, 8 * 256).astype(np.float64)
    p = np.pad(c, ((0, 0), (2, 2)))
    out = p[:, :-4] + 2 * p[:, 1:-3] + 3 * p[:, 2:-2] + 2 * p[:, 3:-1] + p[:, 4:]
    return [out.astype(np.float32).ravel()]


def specs():
    r = np.random.default_rng(21)
    blocks = 1024
    out = [dict(name="cluster_sum4", kernel="cluster_sum4", grid=(blocks,), block=(256,),
                args=[r.integers(0, 1000, blocks * 256, dtype=np.int32), np.zeros(blocks * 256, np.int32)],
                outputs=[1], reference=_sum4)]
    per_cta, blocks = 4096, 256
    out.append(dict(name="cluster_hist", kernel="cluster_hist", grid=(blocks,), block=(256,),
                    args=[r.integers(0, 8192, blocks * per_cta, dtype=np.int32),
                          np.zeros(blocks // 4 * 8192, np.int32), np.int32(per_cta)],
                    outputs=[1], reference=_hist))
    blocks = 1024
    out.append(dict(name="cluster_halo", kernel="cluster_halo", grid=(blocks,), block=(256,),
                    args=[r.random(blocks * 256, dtype=np.float32), np.zeros(blocks * 256, np.float32)],
                    outputs=[1], reference=_halo, rtol=1e-6, atol=1e-6))
    return out
