"""ready_first's blind test (kernels.cu): each kernel as one warp alone (its latency chain, the
layout's loads in flight, sets the time) and as a full grid. K = 256, N = 2,048, 16 private slices."""

import numpy as np

K, N, B = 256, 2048, 16


def _vecmat(dtype, two: bool = False):
    def ref(x, M, y, K_, N_):
        xs = x.reshape(B, K, 2) if two else x.reshape(B, K)
        Ms = M.reshape(B, 2 * K if two else K, N).astype(np.float64)
        if two:
            out = np.einsum("bk,bkn->bn", xs[:, :, 0], Ms[:, 0::2]) + np.einsum("bk,bkn->bn", xs[:, :, 1], Ms[:, 1::2])
        else:
            out = np.einsum("bk,bkn->bn", xs.astype(np.float64), Ms)
        return [out.astype(dtype).ravel()]
    return ref


def _vecmat2(x, M, P, y, K_, N_):
    out = np.einsum("bk,bkn->bn", x.reshape(B, K).astype(np.float64),
                    (M.astype(np.float64) - P).reshape(B, K, N))
    return [out.astype(np.float32).ravel()]


def _colsum(M, y, K_, N_):
    return [M.reshape(B, K, N).astype(np.float64).sum(axis=1).astype(np.float32).ravel()]


def _vecmat_i32(x, M, y, K_, N_):
    return [(x.astype(np.float64) @ M.reshape(K, N).astype(np.float64)).astype(np.float32)]


def _first_warp(ref, one: bool):
    """The reference, cut to the 32 columns of slice 0 that one warp alone writes."""
    if not one:
        return ref

    def part(*a):
        full = ref(*a)[0].reshape(-1, N)
        keep = np.zeros_like(full)
        keep[0, :32] = full[0, :32]
        return [keep.ravel()]
    return part


def specs() -> list[dict]:
    r = np.random.default_rng(11)
    f = lambda n, t=np.float32: r.random(n).astype(t)  # noqa: E731
    out = []
    for shape, grid, block in (("warp", (1, 1), (32, 1)), ("grid", (N // 128, B), (128, 1))):
        one = shape == "warp"
        out += [
            dict(name=f"vecmat_off_{shape}", kernel="vecmat_off", grid=grid, block=block,
                 args=[f(B * K), f(B * K * N), np.zeros(B * N, np.float32), np.int32(K), np.int32(N)],
                 outputs=[2], reference=_first_warp(_vecmat(np.float32), one), rtol=1e-4),
            dict(name=f"dvecmat_off_{shape}", kernel="dvecmat_off", grid=grid, block=block,
                 args=[f(B * K, np.float64), f(B * K * N, np.float64), np.zeros(B * N, np.float64),
                       np.int32(K), np.int32(N)],
                 outputs=[2], reference=_first_warp(_vecmat(np.float64), one), rtol=1e-9),
            dict(name=f"vecmat2_off_{shape}", kernel="vecmat2_off", grid=grid, block=block,
                 args=[f(B * K), f(B * K * N), f(B * K * N), np.zeros(B * N, np.float32), np.int32(K), np.int32(N)],
                 outputs=[3], reference=_first_warp(_vecmat2, one), rtol=1e-3),
            dict(name=f"colsum_off_{shape}", kernel="colsum_off", grid=grid, block=block,
                 args=[f(B * K * N), np.zeros(B * N, np.float32), np.int32(K), np.int32(N)],
                 outputs=[1], reference=_first_warp(_colsum, one), rtol=1e-4),
            dict(name=f"vecmat_f2_{shape}", kernel="vecmat_f2", grid=grid, block=block,
                 args=[f(B * 2 * K), f(B * 2 * K * N), np.zeros(B * N, np.float32), np.int32(K), np.int32(N)],
                 outputs=[2], reference=_first_warp(_vecmat(np.float32, two=True), one), rtol=1e-4),
        ]
    for shape, grid, block in (("warp", (1, 1), (32, 1)), ("grid", (N // 128, 1), (128, 1))):
        out.append(dict(name=f"vecmat_i32_{shape}", kernel="vecmat_i32", grid=grid, block=block,
                        args=[f(K), f(K * N), np.zeros(N, np.float32), np.int32(K), np.int32(N)],
                        outputs=[2], reference=_first_warp(_vecmat_i32, shape == "warp"), rtol=1e-4))
    return out
