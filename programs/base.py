"""What every built-in program shares: the `Program` description, the `ProgramRun` result with
its `verify()`, and small helpers to load a .cu file and launch while recording reports.

A program is a CUDA C source file (in this folder) plus a Python driver that makes seeded random
inputs, launches one or more kernels, copies the outputs back and computes a NumPy reference.
The drivers use only the CuPy-shaped API (`RawModule`, `asarray`, `zeros`, `.get()`), so they run
unchanged on a real GPU under CuPy: set SIMGPU_PROGRAMS_BACKEND=cupy (launch reports are then None).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.resources
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

BACKEND_ENV = "SIMGPU_PROGRAMS_BACKEND"


def backend() -> Any:
    """The array/launch module the drivers use: `simgpu`, or `cupy` when SIMGPU_PROGRAMS_BACKEND=cupy."""
    return importlib.import_module(os.environ.get(BACKEND_ENV, "simgpu"))


def read_source(source_file: str) -> str:
    """The text of a .cu file shipped in this package."""
    return importlib.resources.files(__package__).joinpath(source_file).read_text()


def load_module(source_file: str, options: tuple[str, ...] = ()) -> Any:
    """`RawModule` for one of our .cu files (NVRTC compiles it; the PTX is cached on disk)."""
    return backend().RawModule(code=read_source(source_file), options=tuple(options))


def cdiv(a: int, b: int) -> int:
    """Ceiling division: how many tiles of b cover a."""
    return -(-a // b)


class Launches(list):
    """The (kernel name, LaunchReport) pairs of one program run, in launch order.

    `launches(module, "name", grid, block, args, shared_mem)` launches and records.
    """

    def __call__(self, module: Any, name: str, grid: tuple, block: tuple, args: tuple,
                 shared_mem: int = 0) -> Any:
        report = module.get_function(name)(grid, block, args, shared_mem=shared_mem)
        self.append((name, report))
        return report


@dataclass
class ProgramRun:
    """One run of a program: what was launched, what the GPU produced and what NumPy expects."""

    program: str
    size: dict[str, int]
    launches: list[tuple[str, Any]]          # (kernel name, LaunchReport), in launch order
    outputs: dict[str, np.ndarray]           # host copies of the GPU's results
    expected: dict[str, np.ndarray]          # the NumPy reference
    rtol: float = 1e-5
    atol: float = 1e-6
    notes: dict[str, Any] = field(default_factory=dict)   # anything else worth showing (e.g. scale)

    def mismatches(self) -> list[str]:
        """One line per output that is missing, misshapen or outside |got - exp| <= atol + rtol*|exp|."""
        problems = []
        for name, exp in self.expected.items():
            if name not in self.outputs:
                problems.append(f"output {name!r} is missing (have {sorted(self.outputs)})")
                continue
            got = np.asarray(self.outputs[name])
            exp = np.asarray(exp)
            if got.shape != exp.shape:
                problems.append(f"output {name!r} has shape {got.shape}, expected {exp.shape}")
                continue
            g = got.astype(np.float64)
            e = exp.astype(np.float64)
            err = np.abs(g - e)
            bad = ~(err <= self.atol + self.rtol * np.abs(e))       # NaN counts as bad
            if not bad.any():
                continue
            finite = np.where(np.isfinite(err), err, np.inf)
            rel = finite / np.maximum(np.abs(e), np.finfo(np.float64).tiny)
            first = tuple(int(i) for i in np.unravel_index(int(np.argmax(bad)), bad.shape))
            problems.append(
                f"output {name!r}: {int(bad.sum())} of {bad.size} elements outside "
                f"rtol={self.rtol:g}, atol={self.atol:g}; max abs error {finite.max():.3g}, "
                f"max rel error {rel.max():.3g}; first bad index {first}: "
                f"got {g[first]!r}, expected {e[first]!r}"
            )
        return problems

    def verify(self) -> None:
        """Raise AssertionError naming each bad output, its max abs/rel error and first bad index."""
        problems = self.mismatches()
        if problems:
            raise AssertionError(f"{self.program} {self.size}: " + "\n  ".join(problems))

    @property
    def ok(self) -> bool:
        return not self.mismatches()


@dataclass(frozen=True)
class Program:
    """A named, runnable kernel program (the CLI's `simgpu run NAME --size k=v`)."""

    name: str                                   # CLI name, e.g. "gemm_tiled"
    description: str                            # one line
    source_file: str                            # e.g. "gemm.cu", in this package
    default_size: dict[str, int]
    test_sizes: tuple[dict[str, int], ...]      # small shapes, incl. non-multiples of the tiles
    large_size: dict[str, int]                  # closer to real use (slow on a simulator)
    runner: Callable[[dict[str, int], np.random.Generator], ProgramRun]

    def source(self) -> str:
        """The CUDA C text of the program's .cu file."""
        return read_source(self.source_file)

    def full_size(self, size: dict[str, int] | None = None) -> dict[str, int]:
        """`size` merged over `default_size`; ValueError on a key the program does not have."""
        full = dict(self.default_size)
        for key, value in (size or {}).items():
            if key not in full:
                raise ValueError(
                    f"program {self.name!r} has no size parameter {key!r}; "
                    f"its parameters are {', '.join(sorted(full))}"
                )
            full[key] = int(value)
        return full

    def run(self, size: dict[str, int] | None = None, arch: str = "h200", seed: int = 0) -> ProgramRun:
        """Run at `size` (merged over the default) on GPU preset `arch`, inputs from `seed`."""
        full = self.full_size(size)
        rng = np.random.default_rng(seed)
        sg = backend()
        ctx = sg.use_gpu(arch) if hasattr(sg, "use_gpu") else contextlib.nullcontext()
        with ctx:
            result = self.runner(full, rng)
        result.program = self.name
        return result
