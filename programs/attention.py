"""FlashAttention forward pass (online softmax) and its split-KV variant (see attention.cu).

Layout: Q [BH, Sq, D], K and V [BH, Sk, D], O [BH, Sq, D]; BH = batch * heads.
"""

from __future__ import annotations

import math

import numpy as np

from .base import Launches, Program, ProgramRun, backend, cdiv, load_module

SOURCE = "attention.cu"
BLOCK_K = 32           # keys per shared-memory tile (attention.cu's default)
MAX_HEAD_DIM = 128


def reference(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float, causal: bool) -> np.ndarray:
    """softmax(Q K^T * scale) V the textbook way, in float64, materialising the whole score matrix.

    Causal: query i sees key j only if j <= i + (Sk - Sq) (aligned at the bottom right, so the
    last query sees every key).  A query that sees no key gets a zero row, as the kernel does.
    """
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    sq, sk = q.shape[1], k.shape[1]
    s = q @ k.transpose(0, 2, 1) * scale                      # [BH, Sq, Sk]
    if causal:
        i = np.arange(sq)[:, None]
        j = np.arange(sk)[None, :]
        s = np.where(j <= i + (sk - sq), s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)                       # rows with no visible key
    p = np.exp(s - m)                                          # exp(-inf) = 0 for masked keys
    l = p.sum(axis=-1, keepdims=True)
    o = (p @ v) / np.where(l > 0, l, 1.0)
    return o.astype(np.float32)


def online_softmax_reference(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float,
                             block_k: int = BLOCK_K) -> np.ndarray:
    """The kernel's algorithm in NumPy, for reading (no mask): stream K/V in tiles of block_k keys,
    keep a running max m, running sum l and unnormalised output o, rescale by exp(m_old - m_new)."""
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    bh, sq, d = q.shape
    m = np.full((bh, sq, 1), -np.inf)
    l = np.zeros((bh, sq, 1))
    o = np.zeros((bh, sq, d))
    for k0 in range(0, k.shape[1], block_k):
        s = q @ k[:, k0:k0 + block_k].transpose(0, 2, 1) * scale      # scores of one tile
        m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
        alpha = np.exp(m - m_new)                                     # rescale the old state
        p = np.exp(s - m_new)
        l = l * alpha + p.sum(axis=-1, keepdims=True)
        o = o * alpha + p @ v[:, k0:k0 + block_k]
        m = m_new
    return (o / l).astype(np.float32)


def _inputs(size: dict[str, int], rng: np.random.Generator):
    bh, sq, sk, d = size["batch_heads"], size["seq_q"], size["seq_k"], size["head_dim"]
    if d % 4 or not 4 <= d <= MAX_HEAD_DIM:
        raise ValueError(f"head_dim must be a multiple of 4 in 4..{MAX_HEAD_DIM}, got {d}")
    q = rng.standard_normal((bh, sq, d)).astype(np.float32)
    k = rng.standard_normal((bh, sk, d)).astype(np.float32)
    v = rng.standard_normal((bh, sk, d)).astype(np.float32)
    return q, k, v, 1.0 / math.sqrt(d)


def _options(size: dict[str, int]) -> tuple[str, ...]:
    return (f"-DHEAD_DIM={size['head_dim']}", f"-DBLOCK_Q={size['block_q']}", f"-DBLOCK_K={BLOCK_K}")


# float32 dot products and __expf (a hardware approximation of exp): ~1e-6 relative per score;
# outputs are weighted averages of V ~ N(0, 1), so a small absolute floor is needed near zero.
RTOL, ATOL = 1e-3, 1e-4


def run_flash_attn(size: dict[str, int], rng: np.random.Generator) -> ProgramRun:
    sg = backend()
    q, k, v, scale = _inputs(size, rng)
    bh, sq, sk, d = q.shape[0], q.shape[1], k.shape[1], q.shape[2]
    causal = int(size["causal"] != 0)

    mod = load_module(SOURCE, _options(size))
    d_q, d_k, d_v = sg.asarray(q), sg.asarray(k), sg.asarray(v)
    d_o = sg.zeros((bh, sq, d), dtype=np.float32)
    launches = Launches()
    launches(mod, "flash_attn_fwd", (cdiv(sq, size["block_q"]), bh), (size["block_q"],),
             (d_q, d_k, d_v, d_o, np.int32(sq), np.int32(sk), np.float32(scale), np.int32(causal)))
    return ProgramRun("flash_attn", dict(size), launches, {"O": d_o.get()},
                      {"O": reference(q, k, v, scale, bool(causal))}, rtol=RTOL, atol=ATOL,
                      notes={"scale": scale})


def run_flash_attn_splitkv(size: dict[str, int], rng: np.random.Generator) -> ProgramRun:
    sg = backend()
    q, k, v, scale = _inputs(size, rng)
    bh, sq, sk, d = q.shape[0], q.shape[1], k.shape[1], q.shape[2]
    causal = int(size["causal"] != 0)
    splits = size["splits"]
    chunk = cdiv(cdiv(sk, splits), BLOCK_K) * BLOCK_K      # keys per split, whole tiles

    mod = load_module(SOURCE, _options(size))
    d_q, d_k, d_v = sg.asarray(q), sg.asarray(k), sg.asarray(v)
    d_opart = sg.zeros((splits, bh, sq, d), dtype=np.float32)
    d_mpart = sg.zeros((splits, bh, sq), dtype=np.float32)
    d_lpart = sg.zeros((splits, bh, sq), dtype=np.float32)
    d_o = sg.zeros((bh, sq, d), dtype=np.float32)
    launches = Launches()
    launches(mod, "flash_attn_splitkv", (cdiv(sq, size["block_q"]), bh, splits), (size["block_q"],),
             (d_q, d_k, d_v, d_opart, d_mpart, d_lpart, np.int32(sq), np.int32(sk), np.float32(scale),
              np.int32(causal), np.int32(chunk)))
    rows = bh * sq
    threads = 128
    blocks = min(cdiv(rows * d, threads), 32)             # fewer threads than elements: grid-stride
    launches(mod, "flash_attn_combine", (blocks,), (threads,),
             (d_opart, d_mpart, d_lpart, d_o, np.int32(rows), np.int32(d), np.int32(splits)))
    return ProgramRun("flash_attn_splitkv", dict(size), launches, {"O": d_o.get()},
                      {"O": reference(q, k, v, scale, bool(causal))}, rtol=RTOL, atol=ATOL,
                      notes={"scale": scale, "chunk": chunk})


PROGRAMS = [
    Program(
        name="flash_attn",
        description="FlashAttention forward: K/V tiles in shared memory, online softmax, a thread per query",
        source_file=SOURCE,
        default_size={"batch_heads": 2, "seq_q": 128, "seq_k": 128, "head_dim": 64, "causal": 0,
                      "block_q": 64},
        test_sizes=(
            {"batch_heads": 1, "seq_q": 32, "seq_k": 32, "head_dim": 32, "block_q": 32},
            {"batch_heads": 2, "seq_q": 37, "seq_k": 50, "head_dim": 16, "block_q": 32},
            {"batch_heads": 2, "seq_q": 45, "seq_k": 45, "head_dim": 8, "causal": 1, "block_q": 32},
            {"batch_heads": 1, "seq_q": 20, "seq_k": 13, "head_dim": 12, "causal": 1, "block_q": 32},
            {"batch_heads": 1, "seq_q": 40, "seq_k": 70, "head_dim": 64},
        ),
        large_size={"batch_heads": 16, "seq_q": 1024, "seq_k": 1024, "head_dim": 128, "causal": 1,
                    "block_q": 64},
        runner=run_flash_attn,
    ),
    Program(
        name="flash_attn_splitkv",
        description="Split-KV FlashAttention: a CTA per KV chunk writes partial O, m, l; a kernel combines",
        source_file=SOURCE,
        default_size={"batch_heads": 2, "seq_q": 32, "seq_k": 256, "head_dim": 64, "splits": 4,
                      "causal": 0, "block_q": 32},
        test_sizes=(
            {"batch_heads": 1, "seq_q": 16, "seq_k": 64, "head_dim": 16, "splits": 2},
            {"batch_heads": 2, "seq_q": 5, "seq_k": 77, "head_dim": 32, "splits": 3},
            {"batch_heads": 1, "seq_q": 33, "seq_k": 90, "head_dim": 8, "splits": 4, "causal": 1},
            {"batch_heads": 1, "seq_q": 3, "seq_k": 40, "head_dim": 4, "splits": 5},   # empty splits
        ),
        large_size={"batch_heads": 32, "seq_q": 1, "seq_k": 8192, "head_dim": 128, "splits": 16,
                    "causal": 0, "block_q": 32},
        runner=run_flash_attn_splitkv,
    ),
]
