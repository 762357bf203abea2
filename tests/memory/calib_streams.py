"""Analytic address streams of the calibration kernels (shared/calibration/kernels.cu).

Each generator replays what the CUDA source does, warp by warp, into a MemorySystem: global and
shared addresses computed in NumPy from blockIdx/threadIdx exactly as the kernel computes them.
Issue order: blocks are taken in launch order (blockIdx.x fastest) in waves of ``wave`` blocks
(all SMs' resident CTAs); inside a wave each memory instruction is issued for all warps of the wave
before the next instruction. Block b of a wave runs on the SM simgpu.core.dispatch gives it (the
H200's measured block-scheduler order, round robin).
"""

from __future__ import annotations

import numpy as np

from simgpu.core.dispatch import sm_of_cta as _sm

F32 = 4
ALIGN = 2 << 20  # device allocations: 2 MB apart, like a caching allocator


class Heap:
    """Bump allocator for simulated device arrays."""

    def __init__(self, base: int = 1 << 40):
        self.next = base

    def alloc(self, nbytes: int) -> int:
        addr = self.next
        self.next += (nbytes + ALIGN - 1) // ALIGN * ALIGN
        return addr


def _waves(num_blocks: int, wave: int):
    for b0 in range(0, num_blocks, wave):
        yield np.arange(b0, min(num_blocks, b0 + wave), dtype=np.int64)


def _lin1d(blocks: np.ndarray, block_dim: int):
    """Global thread index [warps, 32] and block id per warp for a 1-D launch."""
    warps_per_block = block_dim // 32
    tid = np.arange(block_dim, dtype=np.int64).reshape(warps_per_block, 32)
    i = blocks[:, None, None] * block_dim + tid[None]
    return i.reshape(-1, 32), np.repeat(blocks, warps_per_block)


def vector_add(ms, n: int = 1 << 22, block: int = 256, wave: int = 1056, num_sms: int = 132):
    h = Heap()
    a, b, c = h.alloc(n * F32), h.alloc(n * F32), h.alloc(n * F32)
    ms.begin_kernel(0, 8)
    for blocks in _waves(n // block, wave):
        i, bid = _lin1d(blocks, block)
        sm = _sm(bid, wave, num_sms)
        mask = i < n
        ms.global_access("ld", 0, sm, (a + i * F32).astype(np.uint64), mask, 4)
        ms.global_access("ld", 1, sm, (b + i * F32).astype(np.uint64), mask, 4)
        ms.global_access("st", 2, sm, (c + i * F32).astype(np.uint64), mask, 4)
    ms.end_kernel()


def strided_copy(ms, stride: int, m: int = 1 << 20, block: int = 256, wave: int = 1056, num_sms: int = 132):
    h = Heap()
    src, dst = h.alloc(m * 32 * F32), h.alloc(m * F32)
    ms.begin_kernel(0, 8)
    for blocks in _waves(m // block, wave):
        i, bid = _lin1d(blocks, block)
        sm = _sm(bid, wave, num_sms)
        mask = i < m
        ms.global_access("ld", 0, sm, (src + i * stride * F32).astype(np.uint64), mask, 4)
        ms.global_access("st", 1, sm, (dst + i * F32).astype(np.uint64), mask, 4)
    ms.end_kernel()


def transpose(ms, padded: bool, n: int = 1024, wave: int = 1056, num_sms: int = 132):
    TILE, ROWS = 32, 8
    pitch = TILE + 1 if padded else TILE
    h = Heap()
    src, dst = h.alloc(n * n * F32), h.alloc(n * n * F32)
    gx = gy = n // TILE
    ms.begin_kernel(TILE * pitch * F32, 8)
    tx = np.arange(32, dtype=np.int64)[None, None, :]  # lane = threadIdx.x
    ty = np.arange(ROWS, dtype=np.int64)[None, :, None]  # warp = threadIdx.y
    full = None
    for blocks in _waves(gx * gy, wave):
        bx = (blocks % gx)[:, None, None]
        by = (blocks // gx)[:, None, None]
        sm = np.repeat(_sm(blocks, wave, num_sms), ROWS)
        if full is None or full.shape[0] != sm.size:
            full = np.ones((sm.size, 32), dtype=bool)
        x = bx * TILE + tx
        y = by * TILE + ty
        for j in range(0, TILE, ROWS):
            g = (src + ((y + j) * n + x) * F32).reshape(-1, 32)
            ms.global_access("ld", 0, sm, g.astype(np.uint64), full, 4)
        for j in range(0, TILE, ROWS):
            s = np.broadcast_to(((ty + j) * pitch + tx) * F32, (blocks.size, ROWS, 32)).reshape(-1, 32)
            ms.shared_access("st", 1, s, full, 4)
        x = by * TILE + tx
        y = bx * TILE + ty
        for j in range(0, TILE, ROWS):
            s = np.broadcast_to((tx * pitch + ty + j) * F32, (blocks.size, ROWS, 32)).reshape(-1, 32)
            ms.shared_access("ld", 2, s, full, 4)
        for j in range(0, TILE, ROWS):
            g = (dst + ((y + j) * n + x) * F32).reshape(-1, 32)
            ms.global_access("st", 3, sm, g.astype(np.uint64), full, 4)
    ms.end_kernel()


def _gemm_lanes(blocks: np.ndarray, gx: int, T: int = 16):
    """row, col [warps, 32] of a 16x16-thread block grid (8 warps per block: 2 rows of 16 threads)."""
    lane = np.arange(32, dtype=np.int64)
    w = np.arange(T * T // 32, dtype=np.int64)
    tx = np.broadcast_to(lane % T, (w.size, 32))
    ty = 2 * w[:, None] + lane[None, :] // T
    bx = (blocks % gx)[:, None, None]
    by = (blocks // gx)[:, None, None]
    row = (by * T + ty[None]).reshape(-1, 32)
    col = (bx * T + tx[None]).reshape(-1, 32)
    return row, col, np.broadcast_to(tx[None], (blocks.size,) + tx.shape).reshape(-1, 32), \
        np.broadcast_to(ty[None], (blocks.size,) + ty.shape).reshape(-1, 32)


def gemm_naive(ms, g: int = 256, wave: int = 1056, num_sms: int = 132):
    """k-loop order: at each k every warp of the wave issues ld A then ld B (lock-step warps)."""
    h = Heap()
    A, B, C = h.alloc(g * g * F32), h.alloc(g * g * F32), h.alloc(g * g * F32)
    gx = g // 16
    ms.begin_kernel(0, 8)
    for blocks in _waves(gx * gx, wave):
        row, col, _, _ = _gemm_lanes(blocks, gx)
        sm = np.repeat(_sm(blocks, wave, num_sms), 8)
        full = np.ones(row.shape, bool)
        for k in range(g):
            ms.global_access("ld", 0, sm, (A + (row * g + k) * F32).astype(np.uint64), full, 4)
            ms.global_access("ld", 1, sm, (B + (k * g + col) * F32).astype(np.uint64), full, 4)
        ms.global_access("st", 2, sm, (C + (row * g + col) * F32).astype(np.uint64), full, 4)
    ms.end_kernel()


def gemm_tiled(ms, g: int = 256, wave: int = 1056, num_sms: int = 132):
    """Shared loads as ptxas compiles them (ncu: 20 LDS per tile): As[ty][k..k+3] as 4 LDS.128,
    Bs[k][tx] as 16 LDS.32. As at shared offset 0, Bs at 1024."""
    T = 16
    h = Heap()
    A, B, C = h.alloc(g * g * F32), h.alloc(g * g * F32), h.alloc(g * g * F32)
    gx = g // T
    ms.begin_kernel(2 * T * T * F32, 8)
    for blocks in _waves(gx * gx, wave):
        row, col, tx, ty = _gemm_lanes(blocks, gx)
        sm = np.repeat(_sm(blocks, wave, num_sms), 8)
        full = np.ones(row.shape, bool)
        for t in range(g // T):
            ms.global_access("ld", 0, sm, (A + (row * g + t * T + tx) * F32).astype(np.uint64), full, 4)
            ms.global_access("ld", 1, sm, (B + ((t * T + ty) * g + col) * F32).astype(np.uint64), full, 4)
            ms.shared_access("st", 2, (ty * T + tx) * F32, full, 4)
            ms.shared_access("st", 3, 1024 + (ty * T + tx) * F32, full, 4)
            for k4 in range(T // 4):
                ms.shared_access("ld", 4, (ty * T + 4 * k4) * F32, full, 16)
            for k in range(T):
                ms.shared_access("ld", 5, 1024 + (k * T + tx) * F32, full, 4)
        ms.global_access("st", 6, sm, (C + (row * g + col) * F32).astype(np.uint64), full, 4)
    ms.end_kernel()


CASES = {
    "vector_add": vector_add,
    "strided_copy_s1": lambda ms, **kw: strided_copy(ms, 1, **kw),
    "strided_copy_s2": lambda ms, **kw: strided_copy(ms, 2, **kw),
    "strided_copy_s4": lambda ms, **kw: strided_copy(ms, 4, **kw),
    "strided_copy_s8": lambda ms, **kw: strided_copy(ms, 8, **kw),
    "strided_copy_s32": lambda ms, **kw: strided_copy(ms, 32, **kw),
    "transpose_naive": lambda ms, **kw: transpose(ms, False, **kw),
    "transpose_padded": lambda ms, **kw: transpose(ms, True, **kw),
}
