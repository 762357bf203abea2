"""Frozen descriptions of a simulated GPU.

Every number is named and carries its source in a comment: a datasheet, a device query on the
real H200 (DESIGN.md "Facts about the H200"), or a microbenchmark kept under benchmarks/.
Presets other than the H200 are variations of it built with dataclasses.replace.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class LimitsConfig:
    """Launch and occupancy limits (cudaGetDeviceProperties on the H200)."""

    warp_size: int = 32
    max_threads_per_block: int = 1024
    max_block_dim: tuple[int, int, int] = (1024, 1024, 64)
    max_grid_dim: tuple[int, int, int] = (2**31 - 1, 65535, 65535)
    max_warps_per_sm: int = 64
    max_ctas_per_sm: int = 32
    max_threads_per_sm: int = 2048
    registers_per_sm: int = 65536
    max_registers_per_thread: int = 255
    # ncu reported 16 registers per thread for each of the six kernels whose NVRTC cubin uses
    # 10-14 (validation/h200_2026-11-29.json against frontend/cubin.py): the least a kernel gets
    min_registers_per_thread: int = 16
    register_alloc_granularity: int = 256  # registers are allocated per warp in units of 256
    shared_mem_per_sm: int = 233_472
    shared_mem_per_block_default: int = 48 * 1024  # without cudaFuncSetAttribute opt-in
    shared_mem_per_block_optin: int = 232_448
    shared_mem_reserved_per_block: int = 1024  # Hopper reserves 1 KB per CTA
    local_mem_per_thread: int = 512 * 1024  # CUDA's per-thread local-memory limit


@dataclass(frozen=True)
class GPUConfig:
    """A whole GPU: identity, SM count, clocks and limits."""

    name: str = "NVIDIA H200"
    compute_capability: tuple[int, int] = (9, 0)
    num_sms: int = 132  # device query on the H200
    sub_partitions_per_sm: int = 4
    sm_clock_mhz: float = 1980.0  # max SM clock; ncu read 1,980 MHz during calibration
    memory_clock_mhz: float = 3201.0
    # device memory an allocation may use (ncu's device__attribute_total_memory on the H200,
    # benchmarks/microbench/l2_merge/results/ncu_gemm.csv: 150,109,880,320 B)
    global_memory_bytes: int = 150_109_880_320
    limits: LimitsConfig = field(default_factory=LimitsConfig)

    @property
    def nvrtc_arch(self) -> str:
        """The virtual architecture NVRTC compiles for (compute_90 for the H200)."""
        major, minor = self.compute_capability
        return f"compute_{major}{minor}"

    @property
    def sass_arch(self) -> str:
        """The real architecture whose machine code (SASS) NVRTC can also make (sm_90 for the H200)."""
        major, minor = self.compute_capability
        return f"sm_{major}{minor}"
