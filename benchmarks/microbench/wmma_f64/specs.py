"""DMMA through wmma (kernels.cu): a 256 x 256 double GEMM, one warp per 8 x 8 tile of C, with
row-major and column-major operands."""

import numpy as np


def specs():
    n = 256
    r = np.random.default_rng(1)
    A, B = r.standard_normal((n, n)), r.standard_normal((n, n))
    ref = A @ B
    return [dict(name="dgemm_wmma_global", kernel="dgemm_wmma_global", grid=(n * n // 64 * 32 // 256,), block=(256,),
                 args=[A.ravel(), B.ravel(), np.zeros(n * n), np.int32(n)], outputs=[2],
                 reference=lambda a, b, c, n_: [ref.ravel()], rtol=1e-12, atol=1e-12),
            dict(name="dgemm_wmma_col", kernel="dgemm_wmma_col", grid=(n * n // 64 * 32 // 256,), block=(256,),
                 args=[A.T.ravel().copy(), B.T.ravel().copy(), np.zeros(n * n), np.int32(n)], outputs=[2],
                 reference=lambda a, b, c, n_: [ref.T.ravel()], rtol=1e-12, atol=1e-12)]
