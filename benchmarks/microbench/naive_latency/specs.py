"""Launch specs for ../l2_split/kernels.cu's naive GEMMs (the calibration gemm_naive, 256 x 256 x 256,
with A and/or B private to a CTA), at shapes that take the H200's time apart: one warp, one CTA,
one CTA an SM, the full grid, and one-warp CTAs. Only the output rows and columns a launch covers
are checked (the rest of C stays zero)."""

import numpy as np

G = 256  # M = N = K
SOURCE_FILE = "../l2_split/kernels.cu"


def _ref(pa: bool, pb: bool, grid: tuple[int, int], block: tuple[int, int]):
    def ref(A, B, C, M, N, K):
        a = A[: G * G].reshape(G, G).astype(np.float64)  # every private copy holds the same matrix
        b = B[: G * G].reshape(G, G).astype(np.float64)
        c = np.zeros((G, G))
        rows, cols = grid[1] * block[1], grid[0] * block[0]
        c[:rows, :cols] = (a @ b)[:rows, :cols]
        return [c.astype(np.float32).ravel()]
    return ref


# name: (kernel, grid, block); the private copies are indexed by blockIdx.x (A) and blockIdx.y (B)
SHAPES = {
    "one_warp": ("naive_private_ab", (1, 1), (16, 2)),
    "one_cta_4w": ("naive_private_ab", (1, 1), (16, 8)),
    "one_cta_8w": ("naive_private_ab", (1, 1), (16, 16)),
    "cta_per_sm_private": ("naive_private_ab", (16, 8), (16, 16)),
    "full_private": ("naive_private_ab", (16, 16), (16, 16)),
    "warp_ctas_private": ("naive_private_ab", (16, 128), (16, 2)),
    "cta_per_sm_shared": ("naive_shared_ab", (16, 8), (16, 16)),
    "full_shared": ("naive_shared_ab", (16, 16), (16, 16)),
    "warp_ctas_shared": ("naive_shared_ab", (16, 128), (16, 2)),
}


def specs() -> list[dict]:
    r = np.random.default_rng(7)
    a = r.random(G * G, dtype=np.float32)
    b = r.random(G * G, dtype=np.float32)
    out = []
    for name, (kernel, grid, block) in SHAPES.items():
        pa = pb = kernel.endswith("private_ab")
        out.append(dict(name=name, kernel=kernel, grid=grid, block=block,
                        args=[np.tile(a, grid[0] if pa else 1), np.tile(b, grid[1] if pb else 1),
                              np.zeros(G * G, np.float32), np.int32(G), np.int32(G), np.int32(G)],
                        outputs=[2], reference=_ref(pa, pb, grid, block), rtol=1e-4))
    return out
