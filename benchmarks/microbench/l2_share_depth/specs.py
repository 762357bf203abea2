"""L2 read merging against the number of CTAs per SM (README.md): validation/typical9's two GEMMs
that simgpu under-merges, at grid sizes from one CTA per SM to eight. Inputs and references as
typical9's specs.py."""

import importlib.util
from pathlib import Path

import numpy as np

_spec = importlib.util.spec_from_file_location("typical9_specs", Path(__file__).resolve().parent / ".." / ".." / ".."
                                               / "validation" / "typical9" / "specs.py")
t9 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(t9)


def specs():
    out = []
    for M, N in ((128, 512), (256, 512), (512, 512), (2048, 128), (1024, 256), (512, 1024),
                 (512, 128), (256, 256), (64, 1024)):
        K = 256
        out.append(dict(name=f"mma_m{M}_n{N}", kernel="mma_ldmatrix_gemm", grid=(N // 8, M // 64), block=(128,),
                        args=[(t9._rng(13).random(M * K) - 0.5).astype(np.float16),
                              (t9._rng(14).random(N * K) - 0.5).astype(np.float16), np.zeros(M * N, np.float32),
                              np.int32(M), np.int32(N), np.int32(K)], outputs=[2], reference=t9._mma,
                        rtol=1e-3, atol=1e-3))
    m = 256
    for b in (1, 2, 4):
        out.append(dict(name=f"batched_b{b}", kernel="batched_gemm_z", grid=(m // 16, m // 16, b), block=(16, 16),
                        args=[t9._rng(7).random(b * m * m, dtype=np.float32),
                              t9._rng(8).random(b * m * m, dtype=np.float32), np.zeros(b * m * m, np.float32),
                              np.int32(m)], outputs=[2], reference=t9._batched(m), rtol=1e-4))
    return out
