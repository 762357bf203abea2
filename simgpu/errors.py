"""The errors simgpu raises. Each names the problem and where it is."""

from __future__ import annotations

import os
import sys
import warnings

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class SimGPUError(Exception):
    """Base class for every error simgpu raises on purpose."""


class CompileError(SimGPUError):
    """NVRTC rejected the CUDA C source; `log` holds NVRTC's log (file:line: error ...)."""

    def __init__(self, message: str, log: str = "") -> None:
        super().__init__(f"{message}\n{log}".rstrip())
        self.message = message
        self.log = log


class PTXParseError(SimGPUError):
    """The PTX text could not be parsed; the message names the line."""


class UnsupportedInstructionError(SimGPUError):
    """A PTX instruction the simulator does not implement (named with kernel and PTX line)."""


class LaunchError(SimGPUError):
    """A launch that the real GPU or CuPy would refuse: bad arguments, limits exceeded."""


class KernelRuntimeError(SimGPUError):
    """A fault while a kernel runs: out-of-bounds or misaligned access, trap, deadlocked barrier."""


class OutOfMemoryError(SimGPUError, MemoryError):
    """An allocation larger than what the simulated device has left (or than the host can hold:
    simgpu keeps device memory in host RAM). CuPy raises its own OutOfMemoryError there."""


class FidelityWarning(UserWarning):
    """The launch runs correctly, but a part of what the GPU does is not simulated, so its counters
    and time leave something out (the message says what, and how much it was on an H200)."""


def warn_once(warned: set, reason: object, message: str) -> None:
    """A FidelityWarning, once per `reason` in `warned` (a linked kernel's set: LinkedKernel.warned),
    pointing at the first line outside simgpu on the stack (the user's launch)."""
    if reason in warned:
        return
    warned.add(reason)
    level, frame = 2, sys._getframe(1)  # stacklevel 2: the caller of warn_once
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, FidelityWarning, stacklevel=level)
