"""What a crosscheck runs: a kernel launch, a built-in program, or the specs of a suite file.

* :class:`KernelCase` — CUDA C source, kernel name, grid, block and host arguments (NumPy arrays
  and NumPy scalars), optionally which arguments are outputs and a NumPy ``reference``.
* :class:`ProgramCase` — a built-in program of ``simgpu.programs`` by name (and size, seed).
* :func:`load_suite` — a ``specs.py`` file whose ``specs()`` returns dicts with ``name``, ``kernel``,
  ``grid``, ``block``, ``args``, ``outputs``, ``reference``, ``rtol`` (as calibration/specs.py), and
  optionally ``shared_mem``, ``options``, ``cooperative`` and ``carveout`` (the kernel's
  ``preferred_shared_memory_carveout``, in percent);
  the CUDA source is the spec's ``source``/``source_file``, the module's ``SOURCE``/``SOURCE_FILE``,
  or ``kernels.cu`` beside the file.

Every case can describe itself as a small picklable *plan* entry (:meth:`plan`) from which the
real-GPU runner (:mod:`simgpu.crosscheck.runner`) rebuilds it in another process: a suite is re-read
from its file (its inputs are seeded), so large inputs never travel through a pickle.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np


def _dim3(x: Any) -> tuple[int, int, int]:
    t = (int(x),) if np.isscalar(x) else tuple(int(v) for v in x)
    return tuple(t + (1,) * (3 - len(t)))[:3]  # type: ignore[return-value]


@dataclass
class KernelCase:
    """One launch of one kernel from CUDA C source, with host arguments."""

    name: str
    source: str
    kernel: str
    grid: tuple
    block: tuple
    args: Sequence[Any]
    shared_mem: int = 0
    outputs: list[int] | None = None          # indices of output arguments; default: every array
    reference: Callable[..., Sequence[Any]] | None = None  # host args -> expected outputs
    rtol: float | None = None
    atol: float | None = None
    options: tuple[str, ...] = ()
    cooperative: bool = False                 # a cooperative launch (grid.sync()), on both sides
    # the kernel's preferred_shared_memory_carveout (percent, -1: none), set on both sides
    carveout: int = -1
    kind: str = "kernel"
    suite: str | None = None                  # the suite file it came from, if any

    def output_indices(self) -> list[int]:
        if self.outputs is not None:
            return list(self.outputs)
        return [i for i, a in enumerate(self.args) if isinstance(a, np.ndarray)]

    def output_name(self, i: int) -> str:
        return f"arg{i}"

    def expected(self) -> dict[str, np.ndarray] | None:
        """The reference outputs by name, or None without a reference."""
        if self.reference is None:
            return None
        host = [a.copy() if isinstance(a, np.ndarray) else a for a in self.args]
        vals = list(self.reference(*host))
        return {self.output_name(i): np.asarray(v) for i, v in zip(self.output_indices(), vals)}

    def plan(self) -> dict[str, Any]:
        if self.suite:
            return {"type": "suite", "path": self.suite, "name": self.name}
        return {"type": "kernel", "name": self.name, "source": self.source, "kernel": self.kernel,
                "grid": _dim3(self.grid), "block": _dim3(self.block), "args": list(self.args),
                "shared_mem": int(self.shared_mem), "options": tuple(self.options),
                "cooperative": bool(self.cooperative), "carveout": int(self.carveout)}


@dataclass
class ProgramCase:
    """A built-in program (``simgpu.programs``), run by the same driver on both sides."""

    name: str
    size: dict[str, int] | None = None
    seed: int = 0
    kind: str = field(default="program")

    def plan(self) -> dict[str, Any]:
        return {"type": "program", "name": self.name, "size": dict(self.size or {}), "seed": self.seed}


Case = KernelCase | ProgramCase


def kernel_case(source: str, kernel: str, grid: Any, block: Any, args: Sequence[Any], *, name: str | None = None,
                shared_mem: int = 0, outputs: list[int] | None = None, reference=None, rtol=None, atol=None,
                options: Sequence[str] = (), cooperative: bool = False, carveout: int = -1) -> KernelCase:
    """A :class:`KernelCase` with its argument list checked (NumPy arrays and NumPy scalars only)."""
    checked = []
    for i, a in enumerate(args):
        if hasattr(a, "get") and not isinstance(a, np.ndarray):
            a = a.get()  # a simgpu or CuPy device array: take its host copy
        if not isinstance(a, (np.ndarray, np.generic)):
            raise TypeError(f"argument {i} of {kernel}: pass NumPy arrays and NumPy scalars "
                            f"(np.int32(n), np.float32(x)), got {type(a).__name__}")
        checked.append(a)
    return KernelCase(name=name or kernel, source=source, kernel=kernel, grid=_dim3(grid), block=_dim3(block),
                      args=checked, shared_mem=int(shared_mem), outputs=outputs, reference=reference, rtol=rtol,
                      atol=atol, options=tuple(options), cooperative=cooperative, carveout=int(carveout))


def _import_file(path: Path):
    name = f"_simgpu_suite_{abs(hash(str(path)))}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import suite file {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _suite_source(module, spec: dict, folder: Path) -> str:
    if spec.get("source"):
        return spec["source"]
    for key in ("source_file",):
        if spec.get(key):
            return (folder / spec[key]).read_text()
    if getattr(module, "SOURCE", None):
        return module.SOURCE
    if getattr(module, "SOURCE_FILE", None):
        return (folder / module.SOURCE_FILE).read_text()
    cu = folder / "kernels.cu"
    if cu.exists():
        return cu.read_text()
    raise FileNotFoundError(f"suite {folder}: no source in the spec, no SOURCE/SOURCE_FILE, no kernels.cu beside it")


def load_suite(path: str | Path, names: Sequence[str] | None = None) -> list[KernelCase]:
    """The specs of a suite file as :class:`KernelCase` s (only those in ``names`` if given)."""
    p = Path(path).resolve()
    module = _import_file(p)
    cases = []
    for spec in module.specs():
        if names is not None and spec["name"] not in names:
            continue
        cases.append(KernelCase(
            name=spec["name"], source=_suite_source(module, spec, p.parent), kernel=spec["kernel"],
            grid=_dim3(spec["grid"]), block=_dim3(spec["block"]), args=list(spec["args"]),
            shared_mem=int(spec.get("shared_mem", 0)), outputs=spec.get("outputs"),
            reference=spec.get("reference"), rtol=spec.get("rtol"), atol=spec.get("atol"),
            options=tuple(spec.get("options", ())), cooperative=bool(spec.get("cooperative", False)),
            carveout=int(spec.get("carveout", -1)), kind="spec", suite=str(p)))
    if names is not None:
        missing = set(names) - {c.name for c in cases}
        if missing:
            raise KeyError(f"suite {p} has no spec named {', '.join(sorted(missing))}")
    return cases


def programs_module():
    """``simgpu.programs`` (the top-level programs/ folder), or None when it is not there."""
    try:
        import simgpu.programs as programs

        return programs
    except ImportError:
        folder = Path(__file__).resolve().parents[2] / "programs"
        if not (folder / "__init__.py").exists():
            return None
        spec = importlib.util.spec_from_file_location("simgpu.programs", folder / "__init__.py",
                                                      submodule_search_locations=[str(folder)])
        module = importlib.util.module_from_spec(spec)
        sys.modules["simgpu.programs"] = module
        spec.loader.exec_module(module)
        return module


def all_program_cases() -> list[ProgramCase]:
    """Every built-in program at its default size."""
    programs = programs_module()
    if programs is None:
        return []
    return [ProgramCase(name) for name in programs.PROGRAMS]


def from_plan(entry: dict[str, Any]) -> Case:
    """Rebuild a case from :meth:`KernelCase.plan` / :meth:`ProgramCase.plan`."""
    t = entry["type"]
    if t == "program":
        return ProgramCase(entry["name"], entry.get("size") or None, entry.get("seed", 0))
    if t == "suite":
        return load_suite(entry["path"], [entry["name"]])[0]
    if t == "kernel":
        return KernelCase(name=entry["name"], source=entry["source"], kernel=entry["kernel"], grid=entry["grid"],
                          block=entry["block"], args=entry["args"], shared_mem=entry.get("shared_mem", 0),
                          options=tuple(entry.get("options", ())), cooperative=bool(entry.get("cooperative")),
                          carveout=int(entry.get("carveout", -1)))
    raise ValueError(f"unknown plan entry type {t!r}")


__all__ = ["Case", "KernelCase", "ProgramCase", "all_program_cases", "from_plan", "kernel_case", "load_suite",
           "programs_module"]
