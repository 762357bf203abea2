"""Launch specs for kernels.cu: the calibration gemm_tiled and gemm_naive and typical's gemm_cp_async
(256 x 256, 16 x 16 threads, 256 CTAs) with A and/or B private to a CTA (kernels.cu says how)."""

import numpy as np

G = 256  # M = N = K
T = G // 16  # CTAs per grid row / column


def _gemm(pa: bool, pb: bool):
    def ref(A, B, C, M, N, K):
        a = A.reshape(-1, M, K)[0].astype(np.float64)  # every private copy holds the same matrix
        b = B.reshape(-1, K, N)[0].astype(np.float64)
        return [(a @ b).astype(np.float32).ravel()]
    return ref


def specs() -> list[dict]:
    r = np.random.default_rng(7)
    a = r.random(G * G, dtype=np.float32)
    b = r.random(G * G, dtype=np.float32)
    out = []
    for body in ("tiled", "cp", "naive"):
        for tag, pa, pb in (("shared_ab", 0, 0), ("private_a", 1, 0), ("private_b", 0, 1), ("private_ab", 1, 1)):
            name = f"{body}_{tag}"
            out.append(dict(name=name, kernel=name, grid=(T, T), block=(16, 16),
                            args=[np.tile(a, T if pa else 1), np.tile(b, T if pb else 1), np.zeros(G * G, np.float32),
                                  np.int32(G), np.int32(G), np.int32(G)],
                            outputs=[2], reference=_gemm(pa, pb), rtol=1e-4))
    return out
