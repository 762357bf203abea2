"""The simulated device: its global memory and the GPU preset that launches use.

Like a CUDA context there is one current device. Device memory is shared by all presets (an
array allocated once can be used by launches on any preset); each preset keeps its own memory
system so that warm caches carry over between launches on the same GPU.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from simgpu.arch import GPUConfig, get_preset
from simgpu.errors import LaunchError
from simgpu.exec.device_malloc import DEFAULT_HEAP_BYTES, DeviceMallocHeap
from simgpu.exec.memory import GlobalHeap


class Device:
    """Global memory plus the current GPU description."""

    def __init__(self, gpu: str | GPUConfig = "h200") -> None:
        self.heap = GlobalHeap()
        self.gpu = get_preset(gpu)
        self._memory_systems: dict[str, object] = {}
        self.malloc_heap_bytes = DEFAULT_HEAP_BYTES  # cudaLimitMallocHeapSize
        self._malloc_heap: DeviceMallocHeap | None = None

    def malloc_heap(self) -> DeviceMallocHeap:
        """The heap of in-kernel malloc, reserved in device memory at its first use and kept for the
        device's life, as CUDA keeps it for the context's."""
        if self._malloc_heap is None:
            base, _ = self.heap.allocate(self.malloc_heap_bytes)
            self._malloc_heap = DeviceMallocHeap(base, self.malloc_heap_bytes)
        return self._malloc_heap

    def set_malloc_heap_size(self, nbytes: int) -> None:
        """cudaDeviceSetLimit(cudaLimitMallocHeapSize, nbytes): only before a kernel that calls
        malloc has run, as in CUDA."""
        if self._malloc_heap is not None:
            raise LaunchError("the device malloc heap's size cannot change once a kernel that calls malloc or free "
                              f"has run on this device (it is {self.malloc_heap_bytes:,} bytes; CUDA: "
                              "cudaErrorInvalidValue)")
        if int(nbytes) <= 0:
            raise ValueError(f"the device malloc heap needs a positive size, got {nbytes}")
        self.malloc_heap_bytes = int(nbytes)

    def memory_system(self, gpu: GPUConfig):
        """The (persistent) memory system of `gpu` and its memory config (memory.config.overridden
        makes another), created on first use."""
        from simgpu.memory.config import memory_config_for
        from simgpu.memory.system import MemorySystem

        mem = memory_config_for(gpu)
        key = (repr(gpu), repr(mem))
        if key not in self._memory_systems:
            ms = MemorySystem(gpu, mem)
            _compile_memory_paths(ms)
            self._memory_systems[key] = ms
        return self._memory_systems[key]


def _compile_memory_paths(ms) -> None:
    """Touch every numba-compiled path once (address 0, which no allocation uses), so that the
    one-off compilation is not counted in the first launch's simulation time."""
    import numpy as np

    ms.begin_kernel(0, 1)
    addr = np.zeros((1, 32), np.uint64)
    mask = np.ones((1, 32), bool)
    sm = np.zeros(1, np.int64)
    for op in ("ld", "st", "atom"):
        ms.global_access(op, 0, sm, addr, mask, 4)
        ms.shared_access(op, 0, addr, mask, 4)
    ms.local_access("ld", 0, sm, sm, addr, mask, 4)
    ms.begin_kernel(0, 1)  # cold again


_state = threading.local()
_default = Device()


def current_device() -> Device:
    return getattr(_state, "device", _default)


@contextlib.contextmanager
def fresh_device() -> Iterator[Device]:
    """Run the calls inside on a new device: an empty heap and cold caches, the current GPU preset
    and engine. Counters that depend on addresses (L1 sets, L2 slices) then do not depend on what
    else the process holds allocated (`simgpu compare` runs each case so). Arrays made inside
    belong to that device: copy results out with .get() before the block ends."""
    prev = getattr(_state, "device", None)
    dev = Device(current_gpu())
    engine = getattr(current_device(), "engine", None)
    if engine is not None:
        dev.engine = engine
    _state.device = dev
    try:
        yield dev
    finally:
        if prev is None:
            del _state.device
        else:
            _state.device = prev


def current_gpu() -> GPUConfig:
    return getattr(_state, "gpu", None) or current_device().gpu


def set_malloc_heap_size(nbytes: int) -> None:
    """The size of the current device's heap for in-kernel malloc (CUDA: cudaDeviceSetLimit(
    cudaLimitMallocHeapSize, nbytes); 8 MiB by default), before a kernel that calls malloc runs."""
    current_device().set_malloc_heap_size(nbytes)


def set_gpu(gpu: str | GPUConfig) -> GPUConfig:
    """Select the GPU preset used by later launches (e.g. "h200", "h100", "a100", "teaching")."""
    cfg = get_preset(gpu)
    current_device().gpu = cfg
    return cfg


@contextlib.contextmanager
def use_gpu(gpu: str | GPUConfig) -> Iterator[GPUConfig]:
    """Launch on another GPU preset inside a `with` block."""
    prev = getattr(_state, "gpu", None)
    _state.gpu = get_preset(gpu)
    try:
        yield _state.gpu
    finally:
        _state.gpu = prev


ENGINES = ("fast", "reference")


def get_engine() -> str:
    """The engine later launches use unless they pass engine=: "fast" (numba, the default) or
    "reference" (NumPy, written for reading). Both give bit-identical results."""
    return getattr(_state, "engine", None) or getattr(current_device(), "engine", "fast")


def set_engine(name: str) -> str:
    """Select the engine for later launches ("fast" or "reference")."""
    if name not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {name!r}")
    current_device().engine = name
    return name


@contextlib.contextmanager
def use_engine(name: str) -> Iterator[str]:
    """Run launches on another engine inside a `with` block."""
    if name not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {name!r}")
    prev = getattr(_state, "engine", None)
    _state.engine = name
    try:
        yield name
    finally:
        _state.engine = prev
