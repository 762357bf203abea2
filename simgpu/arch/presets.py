"""Named presets. The H200 is the base; the others are dataclasses.replace variations of it."""

from __future__ import annotations

from dataclasses import replace

from simgpu.arch.config import GPUConfig, LimitsConfig

H200 = GPUConfig()

# NOMINAL, not measured: the 80 GB boards' HBM (80 GiB); the driver keeps a little of it back
_HBM_80GB = 80 << 30

H100 = replace(H200, name="NVIDIA H100 SXM", num_sms=132, sm_clock_mhz=1980.0, memory_clock_mhz=2619.0,
               global_memory_bytes=_HBM_80GB)

A100 = replace(
    H200,
    name="NVIDIA A100 SXM",
    compute_capability=(8, 0),
    num_sms=108,
    sm_clock_mhz=1410.0,
    memory_clock_mhz=1593.0,
    global_memory_bytes=_HBM_80GB,
    limits=replace(
        LimitsConfig(),
        shared_mem_per_sm=167_936,
        shared_mem_per_block_optin=166_912,
    ),
)

# A small GPU for teaching: few SMs so that pictures and step-through stay readable.
TEACHING = replace(H200, name="simgpu teaching GPU (H200 SM, 4 SMs)", num_sms=4)

PRESETS: dict[str, GPUConfig] = {"h200": H200, "h100": H100, "a100": A100, "teaching": TEACHING}


def get_preset(name: str | GPUConfig) -> GPUConfig:
    """Return a preset by name (case-insensitive), or pass a GPUConfig through."""
    if isinstance(name, GPUConfig):
        return name
    key = name.lower()
    if key not in PRESETS:
        raise ValueError(f"unknown GPU preset {name!r}; known presets: {', '.join(sorted(PRESETS))}")
    return PRESETS[key]
