"""Memory spaces: the global heap of device arrays, and the generic-address windows.

Global allocations are 256-byte aligned like cudaMalloc and live at addresses that look like
real device pointers. Generic addresses that fall in the shared or local window are routed to
the CTA's shared memory or the thread's local memory, as `cvta` and generic `ld`/`st` do.
"""

from __future__ import annotations

import numpy as np

from simgpu.errors import KernelRuntimeError

GLOBAL_BASE = 0x7F00_0000_0000  # where the first device allocation lands
ALLOC_ALIGN = 256  # cudaMalloc's alignment
SHARED_WINDOW = 0x0001_0000_0000_0000  # generic address of shared offset 0
LOCAL_WINDOW = 0x0002_0000_0000_0000  # generic address of local offset 0
CONST_WINDOW = 0x0003_0000_0000_0000  # generic address of const offset 0
WINDOW_SIZE = 0x0000_0001_0000_0000  # each window spans 4 GiB
FUNC_PARAM_BASE = 0x1000_0000  # .param addresses of device-function parameters (per thread)

UINT_OF_SIZE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


class GlobalHeap:
    """Device memory: allocations kept as separate byte buffers, found by address."""

    def __init__(self) -> None:
        self.bases: list[int] = []
        self.buffers: list[np.ndarray] = []  # uint8, length a multiple of 256
        self.sizes: list[int] = []
        self.next_addr = GLOBAL_BASE
        self._bases_arr = np.zeros(0, dtype=np.uint64)
        self._ends_arr = np.zeros(0, dtype=np.uint64)

    def allocate(self, nbytes: int) -> tuple[int, np.ndarray]:
        """Reserve `nbytes` (256-byte aligned); return (address, byte buffer)."""
        padded = max(ALLOC_ALIGN, -(-nbytes // ALLOC_ALIGN) * ALLOC_ALIGN)
        addr = self.next_addr
        buf = np.zeros(padded, dtype=np.uint8)
        self.bases.append(addr)
        self.buffers.append(buf)
        self.sizes.append(nbytes)
        self.next_addr = addr + padded
        self._bases_arr = np.array(self.bases, dtype=np.uint64)
        self._ends_arr = np.array([b + s for b, s in zip(self.bases, self.sizes)], dtype=np.uint64)
        return addr, buf

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
