"""Memory spaces: the global heap of device arrays, and the generic-address windows.

Global allocations are 256-byte aligned like cudaMalloc and live at addresses that look like
real device pointers. Generic addresses that fall in the shared or local window are routed to
the CTA's shared memory or the thread's local memory, as `cvta` and generic `ld`/`st` do.
"""

from __future__ import annotations

import bisect

import numpy as np

from simgpu.errors import KernelRuntimeError, OutOfMemoryError

GLOBAL_BASE = 0x7F00_0000_0000  # where the first device allocation lands
ALLOC_ALIGN = 256  # cudaMalloc's alignment
SHARED_WINDOW = 0x0001_0000_0000_0000  # generic address of shared offset 0
LOCAL_WINDOW = 0x0002_0000_0000_0000  # generic address of local offset 0
CONST_WINDOW = 0x0003_0000_0000_0000  # generic address of const offset 0
WINDOW_SIZE = 0x0000_0001_0000_0000  # each window spans 4 GiB
# A shared::cluster address of another CTA of the cluster (mapa): its rank + 1 above the offset
# (a CTA has at most 228 KB of shared memory, below bit 24), in the 32-bit shared window and in the
# generic one alike; rank bits 0 name the CTA's own shared memory (core/wave.py _resolve)
CLUSTER_RANK_SHIFT = 24
FUNC_PARAM_BASE = 0x1000_0000  # .param addresses of device-function parameters (per thread)
# the value of a device function's address (a function pointer, a vtable entry): the module's i-th
# function at CODE_WINDOW + 16 i; no data lives there, so a load or store through it faults
CODE_WINDOW = 0x0004_0000_0000_0000

UINT_OF_SIZE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


class GlobalHeap:
    """Device memory: allocations kept as separate byte buffers, found by address.

    Freed address ranges are reused, lowest address first (first fit), and merge with their free
    neighbours; a range that reaches the top of the heap gives it back. So a program that frees
    what it allocated leaves the heap as it found it, and the next kernel's arrays land where they
    would in a fresh process: its counters do not depend on what ran before it (L1 sets and L2
    slices are functions of the address). The lists stay sorted by address (`locate` bisects)."""

    def __init__(self) -> None:
        self.bases: list[int] = []
        self.buffers: list[np.ndarray] = []  # uint8, length a multiple of 256
        self.sizes: list[int] = []
        self.next_addr = GLOBAL_BASE
        self._free: list[tuple[int, int]] = []  # (address, bytes) of freed ranges below next_addr, sorted
        self._in_use = 0
        self._holds = 0  # launches under way: frees wait (hold / release)
        self._deferred: list[int] = []
        self.limit: int | None = None  # bytes a program may have allocated at once (MemoryPool.set_limit)
        self._bases_arr = np.zeros(0, dtype=np.uint64)
        self._ends_arr = np.zeros(0, dtype=np.uint64)

    @property
    def free_ranges(self) -> list[tuple[int, int]]:
        """(address, bytes) of the freed ranges kept for reuse, by address."""
        return list(self._free)

    @property
    def bytes_in_use(self) -> int:
        """The bytes of the live allocations, padding included."""
        return self._in_use

    def allocate(self, nbytes: int, capacity: int | None = None, device: str = "device") -> tuple[int, np.ndarray]:
        """Reserve `nbytes` (256-byte aligned); return (address, byte buffer, zero-filled). With
        `capacity` (bytes), an allocation past it raises OutOfMemoryError naming `device`."""
        padded = max(ALLOC_ALIGN, -(-nbytes // ALLOC_ALIGN) * ALLOC_ALIGN)
        in_use = self.bytes_in_use
        if capacity is not None and in_use + padded > capacity:
            raise OutOfMemoryError(f"out of device memory allocating {nbytes:,} bytes: {in_use:,} of "
                                   f"the {device}'s {capacity:,} bytes are in use")
        if self.limit is not None and in_use + padded > self.limit:
            raise OutOfMemoryError(f"out of memory allocating {nbytes:,} bytes: {in_use:,} bytes are in use and "
                                   f"the memory pool's limit is {self.limit:,} (MemoryPool.set_limit)")
        try:
            buf = np.zeros(padded, dtype=np.uint8)
        except MemoryError:
            raise OutOfMemoryError(f"the host cannot hold a device allocation of {nbytes:,} bytes (simgpu keeps "
                                   f"device memory in host RAM; {in_use:,} bytes are in use)") from None
        addr = None
        for i, (start, length) in enumerate(self._free):
            if length >= padded:
                addr = start
                if length == padded:
                    del self._free[i]
                else:
                    self._free[i] = (start + padded, length - padded)
                break
        if addr is None:
            addr = self.next_addr
            self.next_addr = addr + padded
        at = bisect.bisect_left(self.bases, addr)
        self.bases.insert(at, addr)
        self.buffers.insert(at, buf)
        self.sizes.insert(at, nbytes)
        self._in_use += padded
        self._index()
        return addr, buf

    def hold(self) -> None:
        """A launch is under way: the engines index the allocations by position, and a garbage
        collection in the middle of a step must not shift them, so frees wait until release()."""
        self._holds += 1

    def release(self) -> None:
        """The end of a launch (hold); the frees it held back happen now."""
        self._holds -= 1
        if self._holds == 0:
            deferred, self._deferred = self._deferred, []
            for addr in deferred:
                self.free(addr)

    def free(self, addr: int) -> None:
        """Give back the allocation that starts at `addr` (called when its last array is gone)."""
        if self._holds:
            self._deferred.append(addr)
            return
        at = bisect.bisect_left(self.bases, addr)
        if at == len(self.bases) or self.bases[at] != addr:
            raise ValueError(f"free of 0x{addr:x}, which is not the start of a live allocation")
        length = self.buffers[at].nbytes
        self._in_use -= length
        del self.bases[at], self.buffers[at], self.sizes[at]
        self._index()
        i = bisect.bisect_left(self._free, (addr, 0))
        self._free.insert(i, (addr, length))
        if i + 1 < len(self._free) and addr + length == self._free[i + 1][0]:  # merge the next range
            self._free[i] = (addr, length + self._free[i + 1][1])
            del self._free[i + 1]
        if i > 0 and self._free[i - 1][0] + self._free[i - 1][1] == addr:  # merge into the previous one
            self._free[i - 1] = (self._free[i - 1][0], self._free[i - 1][1] + self._free[i][1])
            del self._free[i]
        if self._free and sum(self._free[-1]) == self.next_addr:  # the top range goes back
            self.next_addr = self._free.pop()[0]

    def _index(self) -> None:
        self._bases_arr = np.array(self.bases, dtype=np.uint64)
        self._ends_arr = np.array([b + s for b, s in zip(self.bases, self.sizes)], dtype=np.uint64)

    def locate(self, addr: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
        """For flat addresses, the allocation index of each and whether [addr, addr+size) fits."""
        idx = np.searchsorted(self._bases_arr, addr, side="right") - 1
        ok = idx >= 0
        idx_c = np.where(ok, idx, 0)
        if len(self.bases):
            ok &= addr + np.uint64(size) <= self._ends_arr[idx_c]
        else:
            ok[:] = False
        return idx_c, ok

    def describe(self, addr: int) -> str:
        """Say where an address is relative to the allocations (for error messages)."""
        if not self.bases:
            return "no device memory is allocated"
        i = int(np.searchsorted(self._bases_arr, np.uint64(addr), side="right")) - 1
        if i < 0:
            return f"below the first allocation (0x{self.bases[0]:x})"
        base, size = self.bases[i], self.sizes[i]
        if addr < base + size:
            return f"inside allocation #{i} (0x{base:x}, {size} bytes) at offset {addr - base}"
        return f"{addr - base - size} bytes past the end of allocation #{i} (0x{base:x}, {size} bytes)"


def gather(buf: np.ndarray, byte_off: np.ndarray, size: int) -> np.ndarray:
    """Read `size`-byte little-endian values at aligned byte offsets of a uint8 buffer -> uint64."""
    return buf.view(UINT_OF_SIZE[size])[byte_off // size].astype(np.uint64)


def scatter(buf: np.ndarray, byte_off: np.ndarray, size: int, raw: np.ndarray) -> None:
    """Write `size`-byte values (last writer wins for repeated offsets, in order)."""
    dt = UINT_OF_SIZE[size]
    buf.view(dt)[byte_off // size] = raw.astype(dt)


def check_alignment(addr: np.ndarray, size: int) -> np.ndarray:
    """True where an access of `size` bytes is naturally aligned, as the hardware requires."""
    return (addr & np.uint64(size - 1)) == 0


def raise_fault(kind: str, detail: str, where: str) -> None:
    raise KernelRuntimeError(f"{kind}: {detail} ({where})")
