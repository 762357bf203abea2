"""Make `simgpu.programs` importable from a plain checkout (no `pip install -e .`).

The top-level folder programs/ is installed as the package simgpu.programs (pyproject's
package-dir).  When simgpu is imported from the source tree instead, that mapping does not
exist, so load programs/ under that name here.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path


def _ensure_simgpu_programs() -> None:
    try:
        importlib.import_module("simgpu.programs")
        return
    except ModuleNotFoundError:
        pass
    import simgpu

    folder = Path(__file__).resolve().parents[2] / "programs"
    spec = importlib.util.spec_from_file_location(
        "simgpu.programs", folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["simgpu.programs"] = module
    spec.loader.exec_module(module)
    simgpu.programs = module


_ensure_simgpu_programs()


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes more than ~20 s on the simulator")
