"""The two launches of kernels.cu, with the inputs their suites give the uninstrumented kernels
(validation/typical5 layernorm_welford_warp, validation/typical3 nbody_forces), shared by the
device run (run.py) and simgpu's (sim.py)."""
import importlib.util
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
STRIDE = 32  # stamps per warp, as kernels.cu's STRIDE
# case -> (suite folder, its spec and kernel, the instrumented kernel here)
CASES = {"layernorm_welford_warp": ("typical5", "layernorm_welford_warp_t"),
         "nbody_forces": ("typical3", "nbody_forces_t")}


def suite_spec(folder: str, name: str) -> dict:
    """One spec of a validation suite, by name."""
    path = ROOT / "validation" / folder / "specs.py"
    mod_spec = importlib.util.spec_from_file_location(f"{folder}_specs", path)
    mod = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(mod)
    return next(s for s in mod.specs() if s["name"] == name)


def warps_of(spec: dict) -> int:
    threads = int(np.prod(spec["grid"])) * int(np.prod(spec["block"]))
    return threads // 32


def stamp_steps(stamps: np.ndarray) -> int:
    """How many stamps a warp wrote (the rest of its STRIDE stay 0)."""
    return int((stamps != 0).sum(axis=1).max())
