"""Launch specs for kernels.cu: the register-blocked SGEMM (M = N = 1024, K = 256, 16 x 16 CTAs)
with A and/or B private to a CTA, stamped (clock64 per tile) as on the device."""

import numpy as np

M = N = 1024
K = 256
GX, GY = N // 64, M // 64


def _ref(A, B, C, M, N, K, pa, pb, clk, sm):
    a = A.reshape(-1, M, K)[0].astype(np.float64)
    b = B.reshape(-1, K, N)[0].astype(np.float64)
    return [(a @ b).astype(np.float32).ravel()]


def specs() -> list[dict]:
    r = np.random.default_rng(2)
    a = r.random(M * K, dtype=np.float32)
    b = r.random(K * N, dtype=np.float32)
    out = []
    for tag, pa, pb in (("shared_ab", 0, 0), ("private_a", 1, 0), ("private_b", 0, 1)):
        out.append(dict(name=f"regblock_{tag}", kernel="regblock", grid=(GX, GY), block=(16, 16),
                        args=[np.tile(a, GX if pa else 1), np.tile(b, GY if pb else 1), np.zeros(M * N, np.float32),
                              np.int32(M), np.int32(N), np.int32(K), np.int32(pa), np.int32(pb),
                              np.zeros(GX * GY * 32, np.int64), np.zeros(GX * GY, np.int32)],
                        outputs=[2], reference=_ref, rtol=1e-4))
    return out
