"""CuPy, with launches recorded: the module the built-in programs' drivers use on the real GPU.

``programs/base.py`` picks its array/launch module from the environment variable
``SIMGPU_PROGRAMS_BACKEND``; naming this module there runs a program's driver unchanged on CuPy
while :data:`LAUNCHES` records each launch (kernel, grid, block, args, shared memory), so the
crosscheck can time every launch again with CUDA events and name the ncu rows.
Everything else (``asarray``, ``zeros``, ...) is CuPy's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cupy

from simgpu.frontend.nvrtc import nvcc_like_options


@dataclass
class RecordedLaunch:
    name: str
    kernel: Any  # cupy.RawKernel
    grid: tuple
    block: tuple
    args: tuple
    shared_mem: int

    def __call__(self) -> None:
        self.kernel(self.grid, self.block, self.args, shared_mem=self.shared_mem)


LAUNCHES: list[RecordedLaunch] = []


def _tuple(x) -> tuple:
    return (int(x),) if isinstance(x, int) else tuple(int(v) for v in x)


class _Kernel:
    def __init__(self, kernel, name: str) -> None:
        object.__setattr__(self, "_k", kernel)
        object.__setattr__(self, "_name", name)

    def __call__(self, grid, block, args, shared_mem: int = 0, **kwargs):
        self._k(grid, block, args, shared_mem=shared_mem, **kwargs)
        LAUNCHES.append(RecordedLaunch(self._name, self._k, _tuple(grid), _tuple(block), tuple(args),
                                       int(shared_mem)))
        return None  # CuPy's launch returns None

    def __getattr__(self, item):
        return getattr(self._k, item)

    def __setattr__(self, item, value):  # e.g. max_dynamic_shared_size_bytes
        setattr(self._k, item, value)


class RawModule:
    """cupy.RawModule whose kernels record their launches in :data:`LAUNCHES`."""

    def __init__(self, code: str | None = None, *, options: tuple = (), **kwargs) -> None:
        if code is not None:  # the include path and prelude simgpu's NVRTC has, so one source compiles on both
            # (CuPy's own path can miss headers a toolkit has: the CUDA 13 runtime wheel's mma.h
            # includes crt/mma.h, which that wheel does not ship)
            options = tuple(options) + nvcc_like_options()
        self._module = cupy.RawModule(code=code, options=tuple(options), **kwargs)

    def get_function(self, name: str) -> _Kernel:
        return _Kernel(self._module.get_function(name), name)


def RawKernel(code: str, name: str, options: tuple = (), **kwargs) -> _Kernel:  # noqa: N802 (CuPy's name)
    return RawModule(code=code, options=options, **kwargs).get_function(name)


def __getattr__(name: str):
    if name == "use_gpu":  # the programs ask for it with hasattr(); CuPy has no presets
        raise AttributeError(name)
    return getattr(cupy, name)
