"""Launch specs for kernels.cu (twenty-first batch, written 2026-12-06 after every model was set): a
paged-attention decode step, a one-CTA triangular solve, batched diagonal sums, a bf16x2 GELU, a
channel shuffle, a double Horner polynomial, SDDMM over CSR rows, a ballot bit-matrix transpose,
segment sums of sorted keys and int4 packing. References are NumPy."""

import numpy as np

HEADS, DIM, PAGE = 4, 128, 16


def _paged_attn(q, kc, vc, table, lens, out, heads, max_pages, scale):
    heads, max_pages = int(heads), int(max_pages)
    q = q.reshape(-1, heads, DIM).astype(np.float64)
    k = kc.reshape(-1, PAGE, heads, DIM).astype(np.float64)
    v = vc.reshape(-1, PAGE, heads, DIM).astype(np.float64)
    res = np.empty_like(q)
    for s in range(q.shape[0]):
        t = np.arange(int(lens[s]))
        pages = table[s * max_pages + (t >> 4)]
        ks, vs = k[pages, t & 15], v[pages, t & 15]  # [t, heads, DIM]
        d = np.einsum("hd,thd->th", q[s], ks) * float(np.float32(scale))
        p = np.exp(d - d.max(axis=0))
        res[s] = np.einsum("th,thd->hd", p, vs) / p.sum(axis=0)[:, None]
    return [res.astype(np.float32).ravel()]


def _trsv(L, b, x, n):
    n = int(n)
    m = L.reshape(n, n).T.astype(np.float64)  # stored column-major
    return [np.linalg.solve(m, b.astype(np.float64)).astype(np.float32)]


def _diag(a, out, n):
    n = int(n)
    return [np.einsum("bii->b", a.reshape(-1, n, n).astype(np.float64)).astype(np.float32)]


def _bf16_to_f32(u: np.ndarray) -> np.ndarray:
    return (u.astype(np.uint32) << np.uint32(16)).view(np.float32)


def _f32_to_bf16(f: np.ndarray) -> np.ndarray:
    u = f.astype(np.float32).view(np.uint32)
    return ((u + ((u >> np.uint32(16)) & np.uint32(1)) + np.uint32(0x7FFF)) >> np.uint32(16)).astype(np.uint16)


def _gelu(inp, out, n2):
    v = _bf16_to_f32(inp)
    k0, k1 = np.float32(0.7978845608), np.float32(0.044715)
    with np.errstate(over="ignore"):
        g = v / (np.float32(1) + np.exp(np.float32(-2) * k0 * (v + k1 * v * v * v)))
    return [_f32_to_bf16(g)]


def _shuffle(inp, out, C, HW, groups, total):
    C, HW, g = int(C), int(HW), int(groups)
    x = inp.reshape(-1, C, HW)
    return [x.reshape(-1, C // g, g, HW).transpose(0, 2, 1, 3).reshape(-1).copy()]


def _horner(x, coef, y, n):
    acc = np.full_like(x, coef[24])
    for k in range(23, -1, -1):
        acc = acc * x + coef[k]
    return [acc]


def _sddmm(rowptr, cols, A, B, out, rows):
    rows_of = np.repeat(np.arange(int(rows)), np.diff(rowptr))
    a, b = A.reshape(-1, 32).astype(np.float64), B.reshape(-1, 32).astype(np.float64)
    return [np.einsum("ej,ej->e", a[rows_of], b[cols]).astype(np.float32)]


def _bit_transpose(inp, out):
    bits = ((inp.reshape(-1, 32, 1) >> np.arange(32, dtype=np.uint32)) & 1).astype(np.uint32)  # [w, i, j]
    return [(bits.transpose(0, 2, 1) << np.arange(32, dtype=np.uint32)).sum(axis=2).astype(np.uint32).ravel()]


def _segments(keys, vals, sums, n):
    return [np.bincount(keys, weights=vals, minlength=sums.size).astype(np.int32)]


def _int4(x, scale, q, n_bytes):
    v = x.reshape(-1, 2)
    r = np.float32(1) / np.repeat(scale, 32)
    lo = np.clip(np.rint(v[:, 0] * r), -8, 7).astype(np.int32)
    hi = np.clip(np.rint(v[:, 1] * r), -8, 7).astype(np.int32)
    return [((lo & 15) | ((hi & 15) << 4)).astype(np.uint8)]


def specs():
    rng = np.random.default_rng(21)
    out = []

    seqs, max_pages = 64, 16
    lens = rng.integers(32, PAGE * max_pages + 1, seqs).astype(np.int32)
    used = (lens + PAGE - 1) // PAGE
    pool = int(used.sum()) + 64
    perm = rng.permutation(pool).astype(np.int32)
    table = np.zeros(seqs * max_pages, np.int32)
    at = 0
    for s in range(seqs):
        table[s * max_pages:s * max_pages + used[s]] = perm[at:at + used[s]]
        at += used[s]
    page_floats = PAGE * HEADS * DIM
    out.append(dict(name="paged_attn_decode", kernel="paged_attn_decode", grid=(seqs * HEADS * 32 // 64,), block=(64,),
                    args=[rng.standard_normal(seqs * HEADS * DIM, dtype=np.float32),
                          rng.standard_normal(pool * page_floats, dtype=np.float32),
                          rng.standard_normal(pool * page_floats, dtype=np.float32), table, lens,
                          np.zeros(seqs * HEADS * DIM, np.float32), np.int32(HEADS), np.int32(max_pages),
                          np.float32(1 / np.sqrt(DIM))],
                    outputs=[5], reference=_paged_attn, rtol=1e-3, atol=1e-4))

    n = 512
    low = np.tril(rng.uniform(-1, 1, (n, n)) / n, -1) + np.diag(rng.uniform(1, 2, n))
    out.append(dict(name="trsv_lower_col", kernel="trsv_lower_col", grid=(1,), block=(256,), shared_mem=4 * n,
                    args=[np.ascontiguousarray(low.T).astype(np.float32).ravel(),
                          rng.standard_normal(n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[2], reference=_trsv, rtol=1e-3, atol=1e-4))

    mats, nd = 512, 128
    out.append(dict(name="diag_sum_batched", kernel="diag_sum_batched", grid=(mats * 32 // 128,), block=(128,),
                    args=[rng.standard_normal(mats * nd * nd, dtype=np.float32), np.zeros(mats, np.float32),
                          np.int32(nd)], outputs=[1], reference=_diag, rtol=1e-4, atol=1e-4))

    n2 = 1 << 20
    vals = _f32_to_bf16(rng.standard_normal(2 * n2, dtype=np.float32) * np.float32(2))
    out.append(dict(name="gelu_bf16x2", kernel="gelu_bf16x2", grid=(n2 // 256,), block=(256,),
                    args=[vals, np.zeros(2 * n2, np.uint16), np.int32(n2)], outputs=[1], reference=_gelu,
                    rtol=0, atol=1))

    nb, C, HW, groups = 8, 64, 56 * 56, 4
    total = nb * C * HW
    out.append(dict(name="channel_shuffle", kernel="channel_shuffle", grid=((total + 255) // 256,), block=(256,),
                    args=[rng.standard_normal(total, dtype=np.float32), np.zeros(total, np.float32),
                          np.int32(C), np.int32(HW), np.int32(groups), np.int32(total)],
                    outputs=[1], reference=_shuffle))

    nh = 1 << 20
    out.append(dict(name="horner_f64", kernel="horner_f64", grid=(nh // 256,), block=(256,),
                    args=[rng.uniform(-1, 1, nh), rng.standard_normal(25) / np.arange(1, 26), np.zeros(nh),
                          np.int32(nh)], outputs=[2], reference=_horner, rtol=1e-12, atol=1e-14))

    rows = 16384
    per_row = rng.integers(0, 33, rows)
    rowptr = np.concatenate([[0], np.cumsum(per_row)]).astype(np.int32)
    cols = rng.integers(0, rows, int(rowptr[-1])).astype(np.int32)
    out.append(dict(name="sddmm_csr", kernel="sddmm_csr", grid=(rows * 32 // 256,), block=(256,),
                    args=[rowptr, cols, rng.standard_normal(rows * 32, dtype=np.float32),
                          rng.standard_normal(rows * 32, dtype=np.float32), np.zeros(cols.size, np.float32),
                          np.int32(rows)], outputs=[4], reference=_sddmm, rtol=1e-4, atol=1e-4))

    warps = 8192
    out.append(dict(name="bit_transpose32", kernel="bit_transpose32", grid=(warps * 32 // 256,), block=(256,),
                    args=[rng.integers(0, 1 << 32, warps * 32, dtype=np.uint64).astype(np.uint32),
                          np.zeros(warps * 32, np.uint32)], outputs=[1], reference=_bit_transpose))

    ns = 1 << 20
    runs = rng.integers(1, 65, ns // 8)
    keys = np.repeat(np.arange(runs.size), runs)[:ns].astype(np.int32)
    out.append(dict(name="segment_sum_sorted", kernel="segment_sum_sorted", grid=(ns // 256,), block=(256,),
                    args=[keys, rng.integers(-100, 101, ns).astype(np.int32), np.zeros(int(keys[-1]) + 1, np.int32),
                          np.int32(ns)], outputs=[2], reference=_segments))

    nq = 1 << 21
    out.append(dict(name="quant_int4_pack", kernel="quant_int4_pack", grid=(nq // 256,), block=(256,),
                    args=[rng.standard_normal(2 * nq, dtype=np.float32),
                          rng.uniform(0.2, 0.5, nq // 32).astype(np.float32), np.zeros(nq, np.uint8), np.int32(nq)],
                    outputs=[2], reference=_int4))
    return out
