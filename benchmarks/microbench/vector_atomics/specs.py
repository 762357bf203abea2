"""sm_90 vector atomics and elect.sync (kernels.cu), for their counters on the H200."""

import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)


def specs():
    out = []
    n = 1 << 18
    out.append(dict(name="vec2_distinct", kernel="vec2_distinct", grid=(n // 256,), block=(256,),
                    args=[np.zeros(2 * n, np.float32), np.int32(n)], outputs=[0],
                    reference=lambda a, n: [np.tile(np.float32([1, 2]), n)]))
    out.append(dict(name="vec4_distinct", kernel="vec4_distinct", grid=(n // 256,), block=(256,),
                    args=[np.zeros(4 * n, np.float32), np.int32(n)], outputs=[0],
                    reference=lambda a, n: [np.tile(np.float32([1, 2, 3, 4]), n)]))
    warps = 4096
    lanes = np.arange(32)

    def _pairs(acc, old):
        a = np.zeros((warps, 16, 2), np.float32)
        a[:, :, 0] = 2
        a[:, :, 1] = lanes[:16] + lanes[16:]
        return [a.ravel()]
    out.append(dict(name="vec2_pairs", kernel="vec2_pairs", grid=(warps * 32 // 256,), block=(256,),
                    args=[np.zeros(warps * 32, np.float32), np.zeros(warps * 64, np.float32)], outputs=[0],
                    reference=_pairs))
    m = 1 << 20
    bins = _rng(1).integers(0, 1024, m).astype(np.int32)

    def _bins(b, h, n):
        c = np.bincount(b, minlength=1024).astype(np.float64)
        return [(c[:, None] * np.array([1, 0.5, 0.25, 0.125])).astype(np.float32).ravel()]
    out.append(dict(name="vec4_bins", kernel="vec4_bins", grid=(m // 256,), block=(256,),
                    args=[bins, np.zeros(4 * 1024, np.float32), np.int32(m)], outputs=[1], reference=_bins,
                    rtol=1e-6))
    x = _rng(2).integers(-5, 5, m).astype(np.int32)
    out.append(dict(name="elect_count", kernel="elect_count", grid=(m // 256,), block=(256,),
                    args=[x, np.zeros(1, np.int32), np.int32(m)], outputs=[1],
                    reference=lambda x, c, n: [np.array([(x > 0).sum()], np.int32)]))
    return out
