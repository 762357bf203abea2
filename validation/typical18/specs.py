"""Launch specs for kernels.cu (eighteenth batch, written 2026-12-04 and used to set nothing): 4M
threads of 256 to a CTA, random indices into a 256 MB table. References are NumPy."""

import numpy as np

N = 1 << 22  # threads
WORDS = 1 << 26  # 256 MB of 32-bit words


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _table() -> np.ndarray:
    return (np.arange(WORDS, dtype=np.uint32) * np.uint32(2654435761)) >> np.uint32(8)


def _gather(table, idx, out, n):
    return [table[idx]]


def _gather_f4(table, idx, out, n):
    t = table.reshape(-1, 4)[idx]
    return [((t[:, 0] + t[:, 1]) + t[:, 2]) + t[:, 3]]


def _lines(table, line_idx, out, n_warps):
    rows = table.reshape(-1, 32)[line_idx.reshape(-1, 8)]  # [warp, k, lane]
    s = np.zeros((rows.shape[0], 32), np.float32)
    for k in range(8):
        s = s + rows[:, k, :]
    return [s.ravel()]


def _count(table, idx, n):
    t = table.copy()
    np.add.at(t, idx, np.uint32(1))
    return [t]


def _scatter(table, idx, n):
    t = table.copy()
    t[idx] = np.arange(len(idx), dtype=np.uint32)  # the last writer wins: distinct indices
    return [t]


def specs():
    table = _table()
    ftable = _rng(1).standard_normal(WORDS, dtype=np.float32)
    idx = _rng(2).integers(0, WORDS, N).astype(np.int32)
    distinct = _rng(3).choice(WORDS, N, replace=False).astype(np.int32)
    grid = (N // 256,)
    return [
        dict(name="gather_u32", kernel="gather_u32", grid=grid, block=(256,),
             args=[table, idx, np.zeros(N, np.uint32), np.int32(N)], outputs=[2], reference=_gather),
        dict(name="gather_f4", kernel="gather_f4", grid=grid, block=(256,),
             args=[ftable, _rng(4).integers(0, WORDS // 4, N).astype(np.int32), np.zeros(N, np.float32),
                   np.int32(N)], outputs=[2], reference=_gather_f4, rtol=1e-5, atol=1e-5),
        dict(name="gather_lines", kernel="gather_lines", grid=grid, block=(256,),
             args=[ftable, _rng(5).integers(0, WORDS // 32, N // 4).astype(np.int32), np.zeros(N, np.float32),
                   np.int32(N // 32)], outputs=[2], reference=_lines, rtol=1e-5, atol=1e-5),
        dict(name="atomic_rand", kernel="atomic_rand", grid=grid, block=(256,),
             args=[table, idx, np.int32(N)], outputs=[0], reference=_count),
        dict(name="scatter_u32", kernel="scatter_u32", grid=grid, block=(256,),
             args=[table, distinct, np.int32(N)], outputs=[0], reference=_scatter),
        dict(name="stream_f4", kernel="stream_f4", grid=grid, block=(256,),
             args=[ftable[:4 * N], np.zeros(N, np.float32), np.int32(N)], outputs=[1], reference=_gather_f4_stream),
    ]


def _gather_f4_stream(x, out, n):
    t = x.reshape(-1, 4)
    return [((t[:, 0] + t[:, 1]) + t[:, 2]) + t[:, 3]]
