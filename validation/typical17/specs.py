"""Launch specs for kernels.cu (seventeenth batch, written 2026-12-04 and used to set nothing): the same
bytes read and stored in different patterns, at 4, 16 and 64 MB an array. References are NumPy."""

import numpy as np

SIZES = {"4mb": 1 << 20, "16mb": 1 << 22, "64mb": 1 << 24}  # floats an array
SIDES = {"4mb": 1024, "16mb": 2048, "64mb": 4096}  # square matrices of those sizes


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _none(*args):
    return [np.zeros(1, np.float32)]


def _fill(out, v, n):
    return [(np.float32(v) + np.arange(4, dtype=np.float32))[None, :].repeat(int(n), 0).ravel()]


def _copy(x, out, n):
    return [x.copy()]


def _double(x, out, n):
    return [x * np.float32(2)]


def _halve(x, out, n):
    v = x.reshape(-1, 4)
    return [np.stack([v[:, 0] + v[:, 1], v[:, 2] + v[:, 3]], 1).ravel()]


def _transpose(x, out, rows, cols):
    return [x.reshape(int(rows), int(cols)).T.ravel()]


def _copy_swapped(x, out, rows, cols):
    return [x.reshape(-1, 2)[:, ::-1].ravel()]  # tile[.][tx ^ 1]: neighbouring columns swap


def _fill_transposed(out, rows, cols):
    rows, cols = int(rows), int(cols)
    x = np.arange(rows, dtype=np.int64)[None, :]  # out is cols x rows; x runs along a row of out
    j = (np.arange(cols, dtype=np.int64)[:, None] % 32) // 8 * 8
    return [(x + j).astype(np.float32).ravel()]


def specs():
    out = []
    for tag, floats in SIZES.items():
        n4 = floats // 4
        side = SIDES[tag]
        x = _rng(1).standard_normal(floats, dtype=np.float32)
        out.append(dict(name=f"read_f4_{tag}", kernel="read_f4", grid=(n4 // 256,), block=(256,),
                        args=[x, np.zeros(1, np.float32), np.int32(n4)], outputs=[1], reference=_none))
        out.append(dict(name=f"fill_f4_{tag}", kernel="fill_f4", grid=(n4 // 256,), block=(256,),
                        args=[np.zeros(floats, np.float32), np.float32(1.5), np.int32(n4)], outputs=[0],
                        reference=_fill))
        out.append(dict(name=f"copy_f4_{tag}", kernel="copy_f4", grid=(n4 // 256,), block=(256,),
                        args=[x, np.zeros(floats, np.float32), np.int32(n4)], outputs=[1], reference=_copy))
        out.append(dict(name=f"copy_f1_{tag}", kernel="copy_f1", grid=(floats // 256,), block=(256,),
                        args=[x, np.zeros(floats, np.float32), np.int32(floats)], outputs=[1], reference=_double))
        out.append(dict(name=f"halve_f4_{tag}", kernel="halve_f4", grid=(n4 // 256,), block=(256,),
                        args=[x, np.zeros(floats // 2, np.float32), np.int32(n4)], outputs=[1], reference=_halve,
                        rtol=1e-6, atol=1e-6))
        tiles = (side // 32, side // 32)
        for kernel, ref in (("transpose_tiled", _transpose), ("copy_tiled", _copy_swapped)):
            out.append(dict(name=f"{kernel}_{tag}", kernel=kernel, grid=tiles, block=(32, 8),
                            args=[x, np.zeros(floats, np.float32), np.int32(side), np.int32(side)], outputs=[1],
                            reference=ref))
        out.append(dict(name=f"fill_transposed_{tag}", kernel="fill_transposed", grid=tiles, block=(32, 8),
                        args=[np.zeros(floats, np.float32), np.int32(side), np.int32(side)], outputs=[0],
                        reference=_fill_transposed))
        out.append(dict(name=f"read_tiled_{tag}", kernel="read_tiled", grid=tiles, block=(32, 8),
                        args=[x, np.zeros(1, np.float32), np.int32(side), np.int32(side)], outputs=[1],
                        reference=_none))
    return out
