"""The built-in kernel programs: CUDA C sources (*.cu) with Python drivers and NumPy references.

    from simgpu.programs import PROGRAMS, get_program
    run = get_program("gemm_tiled").run({"M": 64})     # launches on the simulated GPU
    run.verify()                                       # compares with the NumPy reference
    run.launches[0][1].metrics                         # the LaunchReport of the first launch

Installed as `simgpu.programs` (the top-level folder programs/ of the repository).
"""

from __future__ import annotations

from . import attention, gemm, paged, reduce, transpose
from .base import Program, ProgramRun

PROGRAMS: dict[str, Program] = {
    p.name: p
    for module in (gemm, attention, paged, transpose, reduce)
    for p in module.PROGRAMS
}


def get_program(name: str) -> Program:
    """The program called `name`; KeyError listing every program's name if there is none."""
    try:
        return PROGRAMS[name]
    except KeyError:
        names = ", ".join(sorted(PROGRAMS))
        raise KeyError(f"no program named {name!r}; the programs are: {names}") from None


__all__ = ["PROGRAMS", "Program", "ProgramRun", "get_program"]
