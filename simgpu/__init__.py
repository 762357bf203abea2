"""simgpu: run real CUDA kernels on a simulated NVIDIA GPU.

The API follows CuPy, so test code written for CuPy runs here by changing the import::

    import simgpu as sg
    k = sg.RawModule(code=src).get_function("vector_add")
    report = k((n // 256,), (256,), (a, b, c, np.int32(n)))   # a LaunchReport
"""

import simgpu.numba_cache  # noqa: F401  (first: clears numba caches built from other sources)
from simgpu.arch import PRESETS, GPUConfig, get_preset
from simgpu.errors import (
    CompileError,
    FidelityWarning,
    KernelRuntimeError,
    LaunchError,
    OutOfMemoryError,
    PTXParseError,
    SimGPUError,
    UnsupportedInstructionError,
)
from simgpu.runtime.arrays import (
    DeviceArray,
    arange,
    array,
    asarray,
    asnumpy,
    empty,
    empty_like,
    full,
    ndarray,
    ones,
    ones_like,
    zeros,
    zeros_like,
)
from simgpu.runtime.device import (
    current_gpu,
    get_engine,
    set_engine,
    set_gpu,
    set_malloc_heap_size,
    use_engine,
    use_gpu,
)
from simgpu.runtime.memory_pool import MemoryPool, get_default_memory_pool
from simgpu.runtime.module import RawKernel, RawModule
from simgpu.stats.report import LaunchReport

__version__ = "0.1.0"

__all__ = [
    "PRESETS", "GPUConfig", "get_preset", "CompileError", "KernelRuntimeError", "LaunchError", "OutOfMemoryError",
    "PTXParseError", "FidelityWarning",
    "SimGPUError", "UnsupportedInstructionError", "DeviceArray", "arange", "array", "asarray", "asnumpy", "empty",
    "empty_like", "full", "ndarray", "ones", "ones_like", "zeros", "zeros_like", "current_gpu", "set_gpu",
    "set_malloc_heap_size", "use_gpu", "get_engine", "set_engine", "use_engine", "RawKernel", "RawModule",
    "LaunchReport", "__version__",
    "MemoryPool", "get_default_memory_pool",
]
