"""The simulated half: run a case on simgpu and keep what the comparison needs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simgpu.crosscheck.cases import Case, KernelCase, ProgramCase, programs_module

SHARED_DEFAULT_LIMIT = 48 * 1024


@dataclass
class LaunchRecord:
    """One launch as one side saw it: name, shape, counters (simulated) or times (real)."""

    kernel: str
    grid: tuple
    block: tuple
    metrics: dict[str, float] | None = None
    event_us: list[float] = field(default_factory=list)


@dataclass
class SideRun:
    """What one side (simulated or real) produced for a case."""

    launches: list[LaunchRecord] = field(default_factory=list)
    outputs: dict[str, np.ndarray] = field(default_factory=dict)
    expected: dict[str, np.ndarray] | None = None
    rtol: float | None = None
    atol: float | None = None
    error: str | None = None
    notes: dict[str, Any] = field(default_factory=dict)


def _dim3(x) -> tuple:
    t = (int(x),) if np.isscalar(x) else tuple(int(v) for v in x)
    return tuple(t + (1,) * (3 - len(t)))[:3]


def run_simulated(case: Case, preset: str = "h200") -> SideRun:
    """Run ``case`` on the simulator with GPU preset ``preset``; an exception becomes ``error``."""
    import simgpu as sg
    from simgpu.runtime.device import fresh_device

    try:  # each case on a device of its own: its addresses, and so its counters, as in a new process
        with sg.use_gpu(preset), fresh_device():
            if isinstance(case, ProgramCase):
                return _run_program(case, preset)
            return _run_kernel(sg, case)
    except Exception as exc:  # noqa: BLE001 - reported, the other cases still run
        return SideRun(error=f"simulated run failed: {type(exc).__name__}: {exc}")


def _run_kernel(sg, case: KernelCase) -> SideRun:
    kernel = sg.RawModule(code=case.source, options=tuple(case.options),
                          enable_cooperative_groups=case.cooperative).get_function(case.kernel)
    if case.shared_mem > SHARED_DEFAULT_LIMIT:
        kernel.max_dynamic_shared_size_bytes = int(case.shared_mem)
    if case.carveout >= 0:
        kernel.preferred_shared_memory_carveout = int(case.carveout)
    dargs = [sg.asarray(a.copy()) if isinstance(a, np.ndarray) else a for a in case.args]
    report = kernel(_dim3(case.grid), _dim3(case.block), tuple(dargs), shared_mem=int(case.shared_mem))
    outputs = {case.output_name(i): dargs[i].get() for i in case.output_indices()}
    rec = LaunchRecord(case.kernel, _dim3(case.grid), _dim3(case.block), dict(report.metrics))
    run = SideRun([rec], outputs, case.expected(), case.rtol, case.atol)
    run.notes["registers_per_thread"] = report.registers_per_thread
    run.notes["engine"] = report.engine
    return run


def _run_program(case: ProgramCase, preset: str) -> SideRun:
    programs = programs_module()
    if programs is None:
        raise RuntimeError("the built-in programs (simgpu.programs) are not installed")
    result = programs.get_program(case.name).run(case.size, arch=preset, seed=case.seed)
    launches = []
    for name, report in result.launches:
        launches.append(LaunchRecord(name, tuple(report.grid), tuple(report.block), dict(report.metrics)))
    run = SideRun(launches, {k: np.asarray(v) for k, v in result.outputs.items()},
                  {k: np.asarray(v) for k, v in result.expected.items()}, result.rtol, result.atol)
    run.notes["size"] = dict(result.size)
    return run


__all__ = ["LaunchRecord", "SideRun", "run_simulated"]
