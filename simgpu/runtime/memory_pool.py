"""CuPy's memory-pool questions asked of the simulated device: how much is in use, how much the
heap holds, and a limit past which allocations fail (`sg.get_default_memory_pool()`).

simgpu's heap (exec/memory.py GlobalHeap) frees an allocation when its last array is gone and
keeps the freed range for reuse, as CuPy's pool keeps freed blocks: `total_bytes` counts those
ranges too, up to the top of the heap.
"""

from __future__ import annotations

from simgpu.runtime.device import current_device, current_gpu


class MemoryPool:
    """The device heap seen through `cupy.cuda.MemoryPool`'s methods."""

    def used_bytes(self) -> int:
        """Bytes of live allocations (256-byte granules)."""
        return current_device().heap.bytes_in_use

    def total_bytes(self) -> int:
        """Bytes the heap holds: live allocations and the freed ranges kept for reuse."""
        heap = current_device().heap
        return heap.bytes_in_use + sum(length for _, length in heap.free_ranges)

    def free_bytes(self) -> int:
        """Bytes of freed ranges kept for reuse."""
        return self.total_bytes() - self.used_bytes()

    def n_free_blocks(self) -> int:
        return len(current_device().heap.free_ranges)

    def free_all_blocks(self, stream=None) -> None:
        """Nothing to give back: a freed range holds no host memory (its buffer went with it)."""

    def set_limit(self, size: int | None = None, fraction: float | None = None) -> None:
        """Refuse allocations past `size` bytes, or past `fraction` of the GPU preset's device memory
        (0 / None: no limit but the device's), with OutOfMemoryError, as CuPy's pool does."""
        if size is not None and fraction is not None:
            raise ValueError("set_limit takes size or fraction, not both")
        if fraction is not None:
            if not 0.0 <= fraction <= 1.0:
                raise ValueError(f"fraction must be between 0 and 1, got {fraction}")
            size = int(fraction * current_gpu().global_memory_bytes)
        current_device().heap.limit = int(size) if size else None

    def get_limit(self) -> int:
        """The limit set_limit put (0: none)."""
        return current_device().heap.limit or 0


_POOL = MemoryPool()


def get_default_memory_pool() -> MemoryPool:
    """The pool of the current device (CuPy's `cupy.get_default_memory_pool()`)."""
    return _POOL
