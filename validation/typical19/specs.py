"""Launch specs for kernels.cu (nineteenth batch, written 2026-12-04): 16M threads of 256 to a CTA
storing float4s into a 256 MB table, in order or to random whole sectors, pairs, lines or half
sectors (each index a permutation, so every one is stored once). References are NumPy."""

import numpy as np

N = 1 << 24  # threads, one float4 each
FLOATS = 4 * N  # the 256 MB table
SECTORS, PAIRS, LINES = FLOATS // 8, FLOATS // 16, FLOATS // 32


def _perm(seed: int, n: int) -> np.ndarray:
    return np.random.default_rng(seed).permutation(n).astype(np.int32)


def _values(n: int) -> np.ndarray:
    """[n, 4] float32: what thread i stores (kernels.cu)."""
    f = np.arange(n, dtype=np.float32)
    return np.stack([f, f + np.float32(1.0), -f, np.full(n, 2.0, np.float32)], axis=1)


def _fill(out, n):
    return [_values(n).ravel()]


def _scatter(group: int):
    """Reference of a kernel whose `group` lanes store the whole unit idx[i // group]."""

    def ref(table, idx, n):
        t = table.reshape(-1, group, 4).copy()
        t[idx] = _values(n).reshape(-1, group, 4)
        return [t.ravel()]

    return ref


def _halves(table, sec, n):
    t = table.reshape(-1, 2, 4).copy()
    t[sec, 0] = _values(n)
    return [t.ravel()]


def _shuffle(inp, out, sec, n):
    t = out.reshape(-1, 2, 4).copy()
    t[sec] = inp.reshape(-1, 2, 4)
    return [t.ravel()]


def specs():
    table = np.random.default_rng(1).standard_normal(FLOATS, dtype=np.float32)
    grid = (N // 256,)

    def scatter(name, group, idx):
        return dict(name=name, kernel=name, grid=grid, block=(256,), args=[table, idx, np.int32(N)],
                    outputs=[0], reference=_scatter(group))

    return [
        dict(name="fill_f4", kernel="fill_f4", grid=grid, block=(256,), args=[np.zeros(FLOATS, np.float32),
             np.int32(N)], outputs=[0], reference=_fill),
        scatter("scatter_sectors", 2, _perm(2, SECTORS)),
        scatter("scatter_pairs", 4, _perm(3, PAIRS)),
        scatter("scatter_lines", 8, _perm(4, LINES)),
        dict(name="scatter_halves", kernel="scatter_halves", grid=(SECTORS // 256,), block=(256,),
             args=[table, _perm(5, SECTORS), np.int32(SECTORS)], outputs=[0], reference=_halves),
        dict(name="shuffle_sectors", kernel="shuffle_sectors", grid=grid, block=(256,),
             args=[np.random.default_rng(6).standard_normal(FLOATS, dtype=np.float32), np.zeros(FLOATS, np.float32),
                   _perm(7, SECTORS), np.int32(N)], outputs=[1], reference=_shuffle),
    ]
