"""DRAM (HBM3e on the H200) as the memory system sees it: a sector counter.

The L2 talks to DRAM in 32-byte sectors (ncu's dram__bytes_read/write are multiples of 32 B,
dram__sectors_read/write count them). Reads happen on L2 read/atomic misses, at the L2 fetch
granularity (64 B sector pairs by default, see config.py); writes happen only when a dirty L2 line
is evicted during the kernel (a kernel's remaining dirty lines stay in L2 at its end: ncu's counters
stop at the kernel boundary, and the next profiled launch starts from a flushed cache, less the
~2.3 MB of dirty lines ncu's replay leaves, config.l2_dirty_bytes_at_cold_start).

A launch also reads its code and launch constants (fetch_sectors, set by MemorySystem.begin_kernel);
they count in dram__bytes_read / dram__sectors_read but belong to no instruction.

Timing (bandwidth, latency, row buffers) belongs to the timing model, not to these counters.
"""

from __future__ import annotations

from dataclasses import dataclass

from simgpu.memory.l2 import C_DRAM_READ_SECTORS, C_DRAM_WRITE_SECTORS


@dataclass
class DRAMCounters:
    sector_bytes: int = 32
    sectors_read: int = 0  # data: L2 read and atomic misses
    sectors_write: int = 0
    fetch_sectors: int = 0  # the launch's code and constants (config.py: launch_fetch_sectors)

    def add(self, ctr) -> None:
        """Accumulate from a hierarchy counter vector (see l2.py)."""
        self.sectors_read += int(ctr[C_DRAM_READ_SECTORS])
        self.sectors_write += int(ctr[C_DRAM_WRITE_SECTORS])

    def reset(self) -> None:
        self.sectors_read = 0
        self.sectors_write = 0
        self.fetch_sectors = 0

    @property
    def all_sectors_read(self) -> int:
        return self.sectors_read + self.fetch_sectors

    @property
    def bytes_read(self) -> int:
        return self.all_sectors_read * self.sector_bytes

    @property
    def bytes_write(self) -> int:
        return self.sectors_write * self.sector_bytes

    def metrics(self) -> dict[str, float]:
        return {
            "dram__bytes_read.sum": float(self.bytes_read),
            "dram__bytes_write.sum": float(self.bytes_write),
            "dram__sectors_read.sum": float(self.all_sectors_read),
            "dram__sectors_write.sum": float(self.sectors_write),
        }
