"""GPU descriptions: frozen configs and named presets."""

from simgpu.arch.config import GPUConfig, LimitsConfig
from simgpu.arch.presets import PRESETS, get_preset

__all__ = ["GPUConfig", "LimitsConfig", "PRESETS", "get_preset"]
