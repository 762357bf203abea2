"""Device-side malloc and free: `call (ret), malloc, (size)` and `call free, (ptr)` executed on the
host, from a heap of the device's own.

CUDA gives each context one heap for in-kernel malloc, of cudaLimitMallocHeapSize bytes (8 MiB by
default, settable before the first kernel that uses it runs); memory malloc'ed in one launch lives
until a free in any later one, and malloc returns NULL when the heap has no room. simgpu reserves
that heap in device memory the first time a kernel that calls malloc or free is launched
(Device.malloc_heap) and serves the calls from it, lane by lane in the order the engine runs them:
first fit, 16-byte aligned (what CUDA guarantees), freed ranges merged with their neighbours.

Not modelled: the allocator's own memory traffic. CUDA's malloc and free run code that reads and
writes the heap's bookkeeping in global memory (atomics, a few hundred instructions per call);
simgpu counts the calls as single instructions with no memory access, so a kernel that mallocs
shows fewer instructions and memory requests than ncu would.
"""

from __future__ import annotations

import bisect

import numpy as np

from simgpu.errors import KernelRuntimeError
from simgpu.exec.printf import each_thread, lane_mask, param_word

MALLOC_ALIGN = 16  # bytes: the alignment CUDA's device malloc guarantees
DEFAULT_HEAP_BYTES = 8 * 1024 * 1024  # cudaLimitMallocHeapSize's default (CUDA Programming Guide)


class DeviceMallocHeap:
    """The allocations of in-kernel malloc inside [base, base + size)."""

    def __init__(self, base: int, size: int) -> None:
        self.base, self.size = base, size
        self._free: list[tuple[int, int]] = [(base, size)]  # (address, bytes), sorted, merged
        self._live: dict[int, int] = {}  # address -> bytes

    @property
    def bytes_in_use(self) -> int:
        return sum(self._live.values())

    def malloc(self, nbytes: int) -> int:
        """The address of `nbytes` fresh bytes, or 0 (NULL) for 0 bytes or when nothing fits."""
        if nbytes <= 0:
            return 0
        need = -(-nbytes // MALLOC_ALIGN) * MALLOC_ALIGN
        for i, (start, length) in enumerate(self._free):
            if length >= need:
                if length == need:
                    del self._free[i]
                else:
                    self._free[i] = (start + need, length - need)
                self._live[start] = need
                return start
        return 0

    def free(self, addr: int) -> None:
        """Give back what malloc returned at `addr`; ValueError for any other address."""
        need = self._live.pop(addr, None)
        if need is None:
            raise ValueError(f"free of 0x{addr:x}, which device malloc did not return (or which was freed already)")
        i = bisect.bisect_left(self._free, (addr, 0))
        self._free.insert(i, (addr, need))
        if i + 1 < len(self._free) and addr + need == self._free[i + 1][0]:
            self._free[i] = (addr, need + self._free[i + 1][1])
            del self._free[i + 1]
        if i > 0 and sum(self._free[i - 1]) == addr:
            self._free[i - 1] = (self._free[i - 1][0], self._free[i - 1][1] + self._free[i][1])
            del self._free[i]


def build_malloc(size_param: int, ret_param: int | None):
    """The exec function of `call (ret), malloc, (size)`: offsets of the .param variables in the
    per-thread function-parameter storage (ret None if the result is dropped)."""
    def exec_malloc(ctx, ws, m: np.ndarray) -> None:
        heap = ctx.malloc_heap
        for _, _, _, base in each_thread(ctx, ws, m):
            addr = heap.malloc(param_word(ctx, base + size_param))
            if ret_param is not None:
                ctx.fparam[base + ret_param:base + ret_param + 8] = np.frombuffer(np.uint64(addr).tobytes(), np.uint8)
    return exec_malloc


def build_free(ptr_param: int):
    """The exec function of `call free, (ptr)`; free(NULL) does nothing, as in C."""
    def exec_free(ctx, ws, m: np.ndarray) -> None:
        heap = ctx.malloc_heap
        for i, _, lane, base in each_thread(ctx, ws, m):
            addr = param_word(ctx, base + ptr_param)
            if addr:
                try:
                    heap.free(addr)
                except ValueError as exc:
                    raise KernelRuntimeError(f"{exc} ({ctx.where(ws, lane_mask(m.shape, i, lane))})") from None
    return exec_free
