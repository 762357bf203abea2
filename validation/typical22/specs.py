"""Launch specs for kernels.cu (twenty-second batch, written 2026-12-06 to test simgpu's model of
ptxas's load and store eliminations, exec/ptxas_memory.py): an in-place shuffle all-reduce in global
and in shared memory, ballot counts against a per-row threshold, a shuffle filter with a global gain,
a block-table gather, and two controls. References are NumPy."""

import numpy as np


def _allreduce(x, out, n):
    return [np.repeat(x.reshape(-1, 32).astype(np.float64).sum(axis=1), 32).astype(np.float32)]


def _ballot_counts(a, thr, counts, rows, cols):
    return [(a.reshape(int(rows), int(cols)) > thr[:, None]).sum(axis=1).astype(np.int32)]


def _filter(x, gain, y, steps, n):
    v = x.reshape(int(steps), int(n)).astype(np.float64)
    lane = np.arange(int(n)) % 32
    nxt = np.where(lane < 31, np.roll(v, -1, axis=1), v)  # shfl_down by 1: the last lane keeps its own
    return [((v - nxt) * float(gain[0])).sum(axis=0).astype(np.float32)]


def _rowsum(pool, table, lens, out, max_pages):
    rows = pool.reshape(-1, 32).astype(np.float64)
    res = np.empty((lens.size, 32))
    for s, n in enumerate(lens):
        t = np.arange(int(n))
        r = rows[table[s * int(max_pages) + (t >> 3)] * 8 + (t & 7)]
        res[s] = r.sum(axis=0) + r.max()
    return [res.astype(np.float32).ravel()]


def _smem(x, out):
    sums = np.repeat(x.reshape(-1, 32).astype(np.float64).sum(axis=1), 32).reshape(-1, 256)
    return [np.roll(sums, -32, axis=1).astype(np.float32).ravel()]


def _filter_store(x, gain, y, steps, n):
    v = x.reshape(int(steps), int(n)).astype(np.float64)
    lane = np.arange(int(n)) % 32
    nxt = np.where(lane < 31, np.roll(v, -1, axis=1), v)
    return [((v - nxt) * float(gain[0])).astype(np.float32).ravel()]


def _acc_sync(x, out, n):
    return [(out + 6 * x.astype(np.float64)).astype(np.float32)]


def specs():
    rng = np.random.default_rng(22)
    out = []

    n = 1 << 20
    out.append(dict(name="allreduce_inplace", kernel="allreduce_inplace", grid=(n // 256,), block=(256,),
                    args=[rng.standard_normal(n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)],
                    outputs=[1], reference=_allreduce, rtol=1e-4, atol=1e-5))

    rows, cols = 4096, 1024  # a multiple of 32: every lane reaches every ballot
    out.append(dict(name="ballot_row_counts", kernel="ballot_row_counts", grid=(rows * 32 // 256,), block=(256,),
                    args=[rng.standard_normal(rows * cols, dtype=np.float32),
                          rng.standard_normal(rows, dtype=np.float32), np.zeros(rows, np.int32),
                          np.int32(rows), np.int32(cols)], outputs=[2], reference=_ballot_counts))

    steps, nf = 64, 1 << 16
    out.append(dict(name="shfl_gain_filter", kernel="shfl_gain_filter", grid=(nf // 256,), block=(256,),
                    args=[rng.standard_normal(steps * nf, dtype=np.float32), np.array([0.75], np.float32),
                          np.zeros(nf, np.float32), np.int32(steps), np.int32(nf)],
                    outputs=[2], reference=_filter, rtol=1e-4, atol=1e-4))

    seqs, max_pages = 2048, 32
    lens = rng.integers(8, 8 * max_pages + 1, seqs).astype(np.int32)
    used = (lens + 7) // 8
    pool_pages = int(used.sum()) + 16
    perm = rng.permutation(pool_pages).astype(np.int32)
    table = np.zeros(seqs * max_pages, np.int32)
    at = 0
    for s in range(seqs):
        table[s * max_pages:s * max_pages + used[s]] = perm[at:at + used[s]]
        at += used[s]
    out.append(dict(name="block_table_rowsum", kernel="block_table_rowsum", grid=(seqs * 32 // 128,), block=(128,),
                    args=[rng.standard_normal(pool_pages * 8 * 32, dtype=np.float32), table, lens,
                          np.zeros(seqs * 32, np.float32), np.int32(max_pages)],
                    outputs=[3], reference=_rowsum, rtol=1e-4, atol=1e-4))

    ns = 1 << 20
    out.append(dict(name="smem_allreduce", kernel="smem_allreduce", grid=(ns // 256,), block=(256,),
                    args=[rng.standard_normal(ns, dtype=np.float32), np.zeros(ns, np.float32)],
                    outputs=[1], reference=_smem, rtol=1e-4, atol=1e-5))

    out.append(dict(name="gain_filter_store", kernel="gain_filter_store", grid=(nf // 256,), block=(256,),
                    args=[rng.standard_normal(steps * nf, dtype=np.float32), np.array([0.75], np.float32),
                          np.zeros(steps * nf, np.float32), np.int32(steps), np.int32(nf)],
                    outputs=[2], reference=_filter_store, rtol=1e-4, atol=1e-5))

    out.append(dict(name="accumulate_syncwarp", kernel="accumulate_syncwarp", grid=(n // 256,), block=(256,),
                    args=[rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32),
                          np.int32(n)], outputs=[1], reference=_acc_sync, rtol=1e-5, atol=1e-5))
    return out
