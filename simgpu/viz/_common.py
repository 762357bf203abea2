"""What the pictures share: finding the trace / kernel / GPU behind what the user passes, instruction
classes and their colours, and launch capture for programs that launch kernels themselves."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simgpu.arch import PRESETS, GPUConfig, get_preset

# instruction classes (pictures and the Perfetto export)
CLASSES = ("fp32 math", "int / other ALU", "global memory", "shared memory", "local / const / param",
           "branch / control", "barrier", "special (mufu, shfl, vote)")
CLASS_COLORS = ("#4c72b0", "#8fb3d9", "#dd8452", "#55a868", "#c7a76c", "#8172b3", "#c44e52", "#937860")
_CONTROL = {"bra", "ret", "exit", "call", "brx", "trap", "brkpt"}
_SPECIAL = {"ex2", "lg2", "rsqrt", "sqrt", "rcp", "sin", "cos", "tanh", "shfl", "vote", "match", "redux", "div"}

MEASUREMENTS = Path(__file__).resolve().parents[1] / "arch" / "h200_measurements.json"


def opcode_of(text: str) -> str:
    """`@%p1 add.f32 %f1, ...` -> `add.f32`."""
    t = text.strip()
    if t.startswith("@"):
        parts = t.split(None, 2)
        # "@%p1 add ..." or "@ %p1 add ..."
        t = parts[2] if parts[0] == "@" and len(parts) > 2 else (t.split(None, 1)[1] if len(parts) > 1 else "")
    return t.split(None, 1)[0].rstrip(";") if t else ""


def instruction_class(text: str, mem_class: str | None = None) -> int:
    """Index into CLASSES for one PTX instruction."""
    op = opcode_of(text)
    parts = op.split(".")
    base = parts[0]
    if base in ("bar", "barrier") or op.startswith("bar."):
        return 6
    if base in _CONTROL:
        return 5
    if mem_class is not None:
        if mem_class.startswith("shared"):
            return 3
        if mem_class.startswith("global") or mem_class.startswith("generic"):
            return 2
        return 4
    if base in ("ld", "st", "atom", "red", "ldu"):
        if "shared" in parts:
            return 3
        if "global" in parts or len(parts) == 1 or parts[1] not in ("param", "const", "local"):
            return 2
        return 4
    if base in _SPECIAL:
        return 7
    if "f32" in parts or "f16" in parts or "f64" in parts or "bf16" in parts:
        return 0
    return 1


def classes_of(linked) -> np.ndarray:
    """Instruction class per pc of a LinkedKernel."""
    mc = getattr(linked, "mem_class", None) or [None] * len(linked.instructions)
    return np.array([instruction_class(ins.text, mc[i]) for i, ins in enumerate(linked.instructions)], np.int64)


@dataclass
class Source:
    """What a picture needs, found from a LaunchReport, a Stepper or a captured launch."""

    report: object | None
    trace: object | None
    linked: object | None
    gpu: GPUConfig | None
    stepper: object | None = None


def gpu_by_name(name) -> GPUConfig | None:
    if isinstance(name, GPUConfig):
        return name
    if name is None:
        return None
    for cfg in PRESETS.values():
        if cfg.name == name:
            return cfg
    try:
        return get_preset(str(name))
    except ValueError:
        return None


def resolve(obj) -> Source:
    """Accept a LaunchReport, a Stepper (finished or not), or a Captured launch."""
    from simgpu.core.stepper import Stepper

    if isinstance(obj, Source):
        return obj
    if hasattr(obj, "stepper") and isinstance(obj.stepper, Stepper):  # Captured
        obj = obj.stepper
    if isinstance(obj, Stepper):
        rep = obj._report
        return Source(rep, obj.trace, obj.linked, obj.gpu, obj)
    trace = getattr(obj, "trace", None)
    return Source(obj, trace, getattr(obj, "linked", None), gpu_by_name(getattr(obj, "gpu", None)))


def need_trace(src: Source, what: str):
    if src.trace is None:
        raise ValueError(f"{what} needs an execution trace: launch with trace=True, step with "
                         "simgpu.core.stepper.start(...), or run inside simgpu.viz.capture()")
    return src.trace


def measurement(key: str, default: float) -> float:
    try:
        return float(json.loads(MEASUREMENTS.read_text())["measurements"][key]["value"])
    except (OSError, KeyError, ValueError, TypeError):
        return default


def new_figure(w: float, h: float):
    """A Figure not tied to pyplot's global state (safe under Agg, in tests and in notebooks)."""
    from matplotlib.figure import Figure

    return Figure(figsize=(w, h), layout="constrained")


@dataclass
class Captured:
    """One launch run inside `capture()`: its stepper (accesses, trace) and its LaunchReport."""

    stepper: object

    @property
    def report(self):
        return self.stepper.report

    @property
    def kernel(self) -> str:
        return self.stepper.linked.name

    def access_at(self, line: int | None = None, pc: int | None = None):
        return self.stepper.access_at(line=line, pc=pc)

    def accesses(self):
        return self.stepper.accesses()

    def __repr__(self) -> str:
        return f"<Captured {self.kernel} grid={self.stepper.prepared.grid} block={self.stepper.prepared.block}>"


@contextlib.contextmanager
def capture():
    """Record every launch made inside the block (by a program's driver, say) with a trace and the
    addresses of each memory instruction's first access, for the pictures::

        with simgpu.viz.capture() as launches:
            get_program("transpose_naive").run({"rows": 32, "cols": 32}, arch="teaching")
        simgpu.viz.bank_map(launches[0].access_at(line=...))

    Launches behave and report exactly as without it (they run through the stepper)."""
    import simgpu.runtime.launch as launch_mod
    from simgpu.core.stepper import Stepper

    records: list[Captured] = []
    original = launch_mod.launch

    def recording_launch(kernel, grid, block, args, **options):
        options["trace"] = True
        options.setdefault("progress", False)
        options["engine"] = "reference"  # the stepper walks the step-by-step engine (same results)
        s = Stepper(launch_mod.prepare_launch(kernel, grid, block, args, **options))
        rep = s.run()
        records.append(Captured(s))
        return rep

    launch_mod.launch = recording_launch
    try:
        yield records
    finally:
        launch_mod.launch = original
