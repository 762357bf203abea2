"""Specs for kernels.cu: 132 CTAs of one warp (one per SM), each on data of its own."""

import numpy as np

CTAS, TILES = 132, 64


def _rows(width: int):
    def ref(a, out, tiles):
        rows = a.reshape(CTAS, TILES, 32, 32).astype(np.float64)[..., :width]
        return [rows.sum((1, 3)).ravel()]
    return ref


def _line(a, out, tiles, zero):
    lines = a.reshape(CTAS, TILES, 32).astype(np.float64)
    return [8 * lines.sum(1).ravel()]


def specs():
    rng = np.random.default_rng(1)
    big = rng.random(CTAS * TILES * 1024, dtype=np.float32)
    small = rng.random(CTAS * TILES * 32, dtype=np.float32)
    out = [dict(name=f"rows_walk{w}", kernel=f"rows_walk{w}", grid=(CTAS,), block=(32,),
                args=[big, np.zeros(CTAS * 32, np.float32), np.int32(TILES)], outputs=[1], reference=_rows(w),
                rtol=1e-4) for w in (8, 32)]
    out.append(dict(name="line_repeat8", kernel="line_repeat8", grid=(CTAS,), block=(32,),
                    args=[small, np.zeros(CTAS * 32, np.float32), np.int32(TILES), np.int32(0)], outputs=[1],
                    reference=_line, rtol=1e-4))
    return out
