"""One warp on one SM reading whole 128-byte lines of one allocation, lane i sector 0 of the i-th
line of each 32-line request: the address streams of benchmarks/microbench/l1_geometry, l1_policy
and l1_recency, fed straight to a MemorySystem (no kernel, no buffer)."""

from __future__ import annotations

import numpy as np

from simgpu.memory.system import MemorySystem

BASE = 1 << 40  # the allocation's first byte (2 MB aligned, as a large cudaMalloc's)
LOAD_HITS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"


def one_sm(gpu, carveout_bytes: int = 32 * 1024) -> MemorySystem:
    """A memory system with one kernel begun on one SM beside this carveout (32 KB: a 217 KB L1),
    its one allocation at BASE. Made inside a memory.config.overridden block, it takes its fields."""
    ms = MemorySystem(gpu)
    ms.begin_kernel(0, 1, carveout_bytes=carveout_bytes, heap_bases=[BASE])
    return ms


def read_lines(ms: MemorySystem, lines: np.ndarray) -> None:
    """Load sector 0 of each of these lines of the allocation, 32 lines a warp request, in order
    (len(lines) a multiple of 32)."""
    for row in (BASE + np.asarray(lines, np.int64).reshape(-1, 32) * 128).astype(np.uint64):
        ms.global_access("ld", 0, np.zeros(1, np.int64), row[None, :], np.ones((1, 32), bool), 4)


def store_lines(ms: MemorySystem, lines: np.ndarray) -> None:
    """Store word 1 of sector 0 of each of these lines, 32 lines a warp request, in order."""
    for row in (BASE + 4 + np.asarray(lines, np.int64).reshape(-1, 32) * 128).astype(np.uint64):
        ms.global_access("st", 1, np.zeros(1, np.int64), row[None, :], np.ones((1, 32), bool), 4)
