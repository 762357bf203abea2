"""Memory hierarchy: shared-memory banks, coalescer, per-SM L1, L2, DRAM counters (ncu names)."""

from simgpu.memory.config import MemoryConfig, memory_config_for
from simgpu.memory.system import MemorySystem

__all__ = ["MemoryConfig", "MemorySystem", "memory_config_for"]
