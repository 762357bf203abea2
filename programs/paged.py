"""PagedAttention-style KV cache: gather through a block table, and decode attention (see paged.cu).

The KV cache is a pool of pages, each holding `block_size` tokens of every head:
k_cache, v_cache [num_pages, block_size, H, D].  Sequence s owns the pages listed in its row of the
block table, in order: token t of sequence s is k_cache[block_table[s, t // block_size], t % block_size].
"""

from __future__ import annotations

import math

import numpy as np

from .base import Launches, Program, ProgramRun, backend, cdiv, load_module

SOURCE = "paged.cu"
MAX_HEAD_DIM = 128       # paged_decode_attention: lanes own d = lane + 32*i, i < MAX_HEAD_DIM / 32
DECODE_WARPS = 4         # warps per (sequence, head) CTA in paged_decode_attention
GATHER_THREADS = 128


def make_cache(size: dict[str, int], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Random sequence lengths, a shuffled page pool and the block table that ties them together."""
    n_seq, heads, d, bs = size["num_seqs"], size["heads"], size["head_dim"], size["block_size"]
    lens = rng.integers(1, size["max_context"] + 1, n_seq).astype(np.int32)
    lens[0] = size["max_context"]                        # one sequence at full length
    max_blocks = cdiv(size["max_context"], bs)
    needed = [cdiv(int(n), bs) for n in lens]
    num_pages = sum(needed) + 3                          # a few pages nobody owns
    order = rng.permutation(num_pages).astype(np.int32)  # pages are handed out in no particular order
    table = np.full((n_seq, max_blocks), -1, dtype=np.int32)
    used = 0
    for s, n in enumerate(needed):
        table[s, :n] = order[used:used + n]
        used += n
    k_cache = rng.standard_normal((num_pages, bs, heads, d)).astype(np.float32)
    v_cache = rng.standard_normal((num_pages, bs, heads, d)).astype(np.float32)
    return {"lens": lens, "table": table, "k_cache": k_cache, "v_cache": v_cache}


def gather_reference(cache: np.ndarray, table: np.ndarray, lens: np.ndarray, block_size: int) -> np.ndarray:
    """Packed [sum(lens), H, D]: the rows of each sequence, looked up token by token in the table."""
    rows = []
    for s, n in enumerate(lens):
        t = np.arange(n)
        rows.append(cache[table[s, t // block_size], t % block_size])
    return np.concatenate(rows, axis=0)


def decode_reference(q: np.ndarray, k_cache: np.ndarray, v_cache: np.ndarray, table: np.ndarray,
                     lens: np.ndarray, block_size: int, scale: float) -> np.ndarray:
    """out[s, h] = softmax(q[s, h] . K_s[:, h] * scale) V_s[:, h], in float64, per sequence."""
    out = np.zeros(q.shape, dtype=np.float64)
    for s, n in enumerate(lens):
        t = np.arange(n)
        k = k_cache[table[s, t // block_size], t % block_size].astype(np.float64)   # [n, H, D]
        v = v_cache[table[s, t // block_size], t % block_size].astype(np.float64)
        scores = np.einsum("hd,nhd->hn", q[s].astype(np.float64), k) * scale
        p = np.exp(scores - scores.max(axis=1, keepdims=True))
        out[s] = np.einsum("hn,nhd->hd", p / p.sum(axis=1, keepdims=True), v)
    return out.astype(np.float32)


def run_paged_gather(size: dict[str, int], rng: np.random.Generator) -> ProgramRun:
    sg = backend()
    c = make_cache(size, rng)
    bs, heads, d = size["block_size"], size["heads"], size["head_dim"]
    lens, table = c["lens"], c["table"]
    cu_seqlens = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    total = int(cu_seqlens[-1])

    mod = load_module(SOURCE)
    d_k_out = sg.zeros((total, heads, d), dtype=np.float32)
    d_v_out = sg.zeros((total, heads, d), dtype=np.float32)
    launches = Launches()
    launches(mod, "paged_gather", (table.shape[1], len(lens)), (GATHER_THREADS,),
             (sg.asarray(c["k_cache"]), sg.asarray(c["v_cache"]), sg.asarray(table), sg.asarray(lens),
              sg.asarray(cu_seqlens), d_k_out, d_v_out, np.int32(bs), np.int32(table.shape[1]),
              np.int32(heads * d)))
    expected = {"K": gather_reference(c["k_cache"], table, lens, bs),
                "V": gather_reference(c["v_cache"], table, lens, bs)}
    return ProgramRun("paged_gather", dict(size), launches, {"K": d_k_out.get(), "V": d_v_out.get()},
                      expected, rtol=0.0, atol=0.0,        # a copy must be exact
                      notes={"context_lens": lens.tolist()})


def run_paged_decode(size: dict[str, int], rng: np.random.Generator) -> ProgramRun:
    sg = backend()
    c = make_cache(size, rng)
    n_seq, heads, d, bs = size["num_seqs"], size["heads"], size["head_dim"], size["block_size"]
    if not 1 <= d <= MAX_HEAD_DIM:
        raise ValueError(f"head_dim must be in 1..{MAX_HEAD_DIM}, got {d}")
    lens, table = c["lens"], c["table"]
    q = rng.standard_normal((n_seq, heads, d)).astype(np.float32)
    scale = 1.0 / math.sqrt(d)

    mod = load_module(SOURCE)
    d_out = sg.zeros((n_seq, heads, d), dtype=np.float32)
    launches = Launches()
    launches(mod, "paged_decode_attention", (heads, n_seq), (32 * DECODE_WARPS,),
             (sg.asarray(q), sg.asarray(c["k_cache"]), sg.asarray(c["v_cache"]), sg.asarray(table),
              sg.asarray(lens), d_out, np.int32(d), np.int32(bs), np.int32(table.shape[1]),
              np.float32(scale)))
    expected = decode_reference(q, c["k_cache"], c["v_cache"], table, lens, bs, scale)
    return ProgramRun("paged_decode", dict(size), launches, {"out": d_out.get()}, {"out": expected},
                      rtol=1e-3, atol=1e-4,      # float32 dot products and expf, as in attention.py
                      notes={"context_lens": lens.tolist(), "scale": scale})


_DEFAULT = {"num_seqs": 4, "heads": 4, "head_dim": 64, "block_size": 16, "max_context": 160}
_TESTS = (
    {"num_seqs": 2, "heads": 1, "head_dim": 32, "block_size": 16, "max_context": 40},
    {"num_seqs": 3, "heads": 2, "head_dim": 20, "block_size": 8, "max_context": 29},
    {"num_seqs": 2, "heads": 2, "head_dim": 72, "block_size": 4, "max_context": 11},
    {"num_seqs": 1, "heads": 1, "head_dim": 128, "block_size": 16, "max_context": 3},
)
_LARGE = {"num_seqs": 32, "heads": 32, "head_dim": 128, "block_size": 16, "max_context": 4096}

PROGRAMS = [
    Program(
        name="paged_gather",
        description="PagedAttention KV cache: copy pages, via the block table, into a packed buffer",
        source_file=SOURCE, default_size=dict(_DEFAULT), test_sizes=_TESTS, large_size=dict(_LARGE),
        runner=run_paged_gather,
    ),
    Program(
        name="paged_decode",
        description="PagedAttention decode: one query per sequence/head reads K/V via the block table",
        source_file=SOURCE, default_size=dict(_DEFAULT), test_sizes=_TESTS, large_size=dict(_LARGE),
        runner=run_paged_decode,
    ),
]
