"""Launch specs for kernels.cu (twentieth batch, written 2026-12-04 after every model was set): a
merge path, a cuckoo look-up, a bit-reversal permutation, float4 nearest neighbours through shared
memory, a column softmax, a half2 atomic histogram, a byte image resize, shared-memory Jacobi sweeps
and shared float4 reads at five strides. References are NumPy."""

import numpy as np

M32 = np.uint64(0xFFFFFFFF)
EMPTY = np.uint32(0xFFFFFFFF)


def _merge(a, b, c, n):
    return [np.sort(np.concatenate([a, b]), kind="stable")]


def _slot1(k: np.ndarray, mask: int) -> np.ndarray:
    return (((k.astype(np.uint64) * np.uint64(2654435761)) & M32) >> np.uint64(7)) & np.uint64(mask)


def _slot2(k: np.ndarray, mask: int) -> np.ndarray:
    h = (k.astype(np.uint64) ^ np.uint64(0x5BD1E995)) * np.uint64(0x9E3779B1)
    return ((h & M32) >> np.uint64(9)) & np.uint64(mask)


def _cuckoo_table(slots: int, n_keys: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A {key, value} table of `slots` entries (key EMPTY where unused): each key in its first slot
    if that is free, else its second if free, else left out (no displacement). Returns the table
    and the keys offered."""
    rng = np.random.default_rng(seed)
    keys = rng.choice(np.uint32(0xFFFFFFF0), size=n_keys, replace=False).astype(np.uint32)
    table = np.full((slots, 2), EMPTY, np.uint32)
    mask = slots - 1
    for slot_of in (_slot1, _slot2):
        free = table[:, 0] == EMPTY
        placed = np.isin(keys, table[:, 0])
        s = slot_of(keys, mask).astype(np.int64)
        cand = np.flatnonzero(~placed & free[s])
        _, first = np.unique(s[cand], return_index=True)
        win = cand[first]
        table[s[win], 0] = keys[win]
        table[s[win], 1] = (keys[win] * np.uint32(7) + np.uint32(1)) & np.uint32(0x7FFFFFFF)
    return table, keys


def _cuckoo(table, mask, keys, vals, n):
    t = table.reshape(-1, 2)
    e = t[_slot1(keys, int(mask)).astype(np.int64)]
    miss = e[:, 0] != keys
    e[miss] = t[_slot2(keys[miss], int(mask)).astype(np.int64)]
    return [np.where(e[:, 0] == keys, e[:, 1].astype(np.int64), -1).astype(np.int32)]


def _bitrev(inp, out, bits):
    i = np.arange(1 << int(bits), dtype=np.uint32)
    r = np.zeros_like(i)
    for b in range(int(bits)):
        r |= ((i >> np.uint32(b)) & np.uint32(1)) << np.uint32(int(bits) - 1 - b)
    o = np.empty_like(inp)
    o[r] = inp
    return [o]


def _knn(q, ref, best, nq, nref):
    q = q.reshape(-1, 4)[:, :3].astype(np.float64)
    r = ref.reshape(-1, 4)[:, :3].astype(np.float64)
    d = ((q[:, None, :] - r[None, :, :]) ** 2).sum(axis=2)
    return [d.min(axis=1).astype(np.float32)]


def _col_softmax(x, y, rows, cols):
    a = x.reshape(int(rows), int(cols)).astype(np.float64)
    e = np.exp(a - a.max(axis=0))
    return [(e / e.sum(axis=0)).astype(np.float32).ravel()]


def _half2_bins(idx, bins, n):
    return [np.bincount(idx, minlength=bins.size).astype(np.float16)]


def _resize(inp, out, w, h, ow, oh):
    img = inp.reshape(int(h), int(w))
    sy = np.arange(int(oh)) * int(h) // int(oh)
    sx = np.arange(int(ow)) * int(w) // int(ow)
    return [img[sy[:, None], sx[None, :]].ravel()]


def _jacobi(inp, out, n, iters):
    n = int(n)
    a = inp.reshape(n, n)
    p = np.pad(a, 1, mode="edge")
    t = n // 32
    # every tile with its one-element halo: [ty, tx, 34, 34]
    idx = np.arange(t)[:, None] * 32 + np.arange(34)[None, :]
    s = p[idx[:, None, :, None], idx[None, :, None, :]].astype(np.float32)
    for _ in range(int(iters)):
        v = np.float32(0.25) * (((s[:, :, :-2, 1:-1] + s[:, :, 2:, 1:-1]) + s[:, :, 1:-1, :-2]) + s[:, :, 1:-1, 2:])
        s = s.copy()
        s[:, :, 1:-1, 1:-1] = v
    return [s[:, :, 1:-1, 1:-1].transpose(0, 2, 1, 3).reshape(n, n).ravel()]


def _f4_stride(inp, out, stride):
    v = inp.reshape(-1, 1024, 4)
    blocks, threads = v.shape[0], out.size // v.shape[0]
    t = np.arange(threads)
    lane, warp = t & 31, t >> 5
    acc = np.zeros((blocks, threads), np.float32)
    for j in range(64):
        e = v[:, (lane * int(stride) + j + warp) & 1023]
        acc = acc + (((e[..., 0] + e[..., 1]) + e[..., 2]) + e[..., 3])
    return [acc.ravel()]


def specs():
    rng = np.random.default_rng(20)
    out = []

    n = 1 << 18
    a = np.sort(rng.integers(0, 1 << 24, n)).astype(np.int32)
    b = np.sort(rng.integers(0, 1 << 24, n)).astype(np.int32)
    out.append(dict(name="merge_path", kernel="merge_path", grid=(2 * n // 8 // 256,), block=(256,),
                    args=[a, b, np.zeros(2 * n, np.int32), np.int32(n)], outputs=[2], reference=_merge))

    slots = 1 << 20
    table, keys = _cuckoo_table(slots, 700_000, 21)
    q = np.concatenate([rng.choice(keys, 1 << 19), rng.integers(0, 0xFFFFFFF0, 1 << 19).astype(np.uint32)])
    rng.shuffle(q)
    out.append(dict(name="cuckoo_lookup", kernel="cuckoo_lookup", grid=(q.size // 256,), block=(256,),
                    args=[table.ravel(), np.uint32(slots - 1), q, np.zeros(q.size, np.int32), np.int32(q.size)],
                    outputs=[3], reference=_cuckoo))

    bits = 20
    out.append(dict(name="bitrev_copy", kernel="bitrev_copy", grid=((1 << bits) // 256,), block=(256,),
                    args=[rng.standard_normal(1 << bits, dtype=np.float32), np.zeros(1 << bits, np.float32),
                          np.int32(bits)], outputs=[1], reference=_bitrev))

    nq, nref = 8192, 512
    out.append(dict(name="knn_tile_f4", kernel="knn_tile_f4", grid=(nq // 256,), block=(256,),
                    args=[rng.random(4 * nq, dtype=np.float32), rng.random(4 * nref, dtype=np.float32),
                          np.zeros(nq, np.float32), np.int32(nq), np.int32(nref)], outputs=[2], reference=_knn,
                    rtol=1e-4, atol=1e-6))

    rows, cols = 256, 8192
    out.append(dict(name="col_softmax", kernel="col_softmax", grid=(cols // 256,), block=(256,),
                    args=[rng.standard_normal(rows * cols, dtype=np.float32), np.zeros(rows * cols, np.float32),
                          np.int32(rows), np.int32(cols)], outputs=[1], reference=_col_softmax,
                    rtol=1e-4, atol=1e-9))

    nb = 1 << 20
    out.append(dict(name="atomic_half2_bins", kernel="atomic_half2_bins", grid=(nb // 256,), block=(256,),
                    args=[rng.integers(0, 8192, nb).astype(np.int32), np.zeros(8192, np.float16), np.int32(nb)],
                    outputs=[1], reference=_half2_bins))

    w, h, ow, oh = 1920, 1080, 1280, 720
    out.append(dict(name="resize_nearest_u8", kernel="resize_nearest_u8", grid=((ow + 255) // 256, oh), block=(256,),
                    args=[rng.integers(0, 256, w * h).astype(np.uint8), np.zeros(ow * oh, np.uint8),
                          np.int32(w), np.int32(h), np.int32(ow), np.int32(oh)], outputs=[1], reference=_resize))

    nj = 512
    out.append(dict(name="jacobi_smem_iters", kernel="jacobi_smem_iters", grid=(nj // 32, nj // 32), block=(32, 32),
                    args=[rng.standard_normal(nj * nj, dtype=np.float32), np.zeros(nj * nj, np.float32),
                          np.int32(nj), np.int32(8)], outputs=[1], reference=_jacobi, rtol=1e-5, atol=1e-6))

    src = rng.standard_normal(64 * 1024 * 4, dtype=np.float32)
    for stride in (1, 2, 3, 8, 9):
        out.append(dict(name=f"smem_f4_stride{stride}", kernel="smem_f4_stride", grid=(64,), block=(256,),
                        args=[src, np.zeros(64 * 256, np.float32), np.int32(stride)], outputs=[1],
                        reference=_f4_stride, rtol=1e-5, atol=1e-5))
    return out
