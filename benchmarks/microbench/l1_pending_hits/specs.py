"""Launch specs for kernels.cu (benchmarks/microbench/l1_pending_hits, 2026-12-04): one wave of 64
warps an SM (8 CTAs of 256) or of 16 (2 CTAs), each thread one 128-byte line (pitch 32 floats) or
a 160-byte row (pitch 40). References are NumPy."""

import numpy as np

SMS = 132


def _ref(kind: str, pitch: int):
    w = np.arange(1, 33, dtype=np.float64)  # burst8
    if kind in ("serial8", "lead1"):  # each group weighs its eight words 1..8
        w = np.tile(np.arange(1, 9, dtype=np.float64), 4)
    if kind == "miss_only":
        w = np.zeros(32)
        w[::8] = np.arange(1, 33, 8)

    def ref(x, out, n, p):
        return [x.reshape(-1, pitch)[:, :32].astype(np.float64) @ w]
    return ref


def specs():
    out = []
    plan = [("burst8", 8, 32), ("serial8", 8, 32), ("lead1", 8, 32), ("miss_only", 8, 32),
            ("serial8", 2, 32), ("lead1", 2, 32), ("burst8", 8, 40)]
    for i, (kernel, ctas, pitch) in enumerate(plan):
        n = SMS * ctas * 256
        x = np.random.default_rng(i).standard_normal(pitch * n, dtype=np.float32)
        name = f"{kernel}_{ctas * 8}w" + ("" if pitch == 32 else f"_pitch{pitch * 4}")
        out.append(dict(name=name, kernel=kernel, grid=(n // 256,), block=(256,),
                        args=[x, np.zeros(n, np.float32), np.int32(n), np.int32(pitch)], outputs=[1],
                        reference=_ref(kernel, pitch), rtol=1e-4, atol=1e-3))
    return out
