"""The real half: run the very same kernels under CuPy, time them, check the device, run ncu.

Nothing here imports CuPy at module level: :func:`gpu_status` says in one line why the real half
cannot run (no CuPy, no GPU) and the crosscheck then runs the simulated half alone.

* :func:`run_real` — one case on the GPU: the same source through ``cupy.RawModule(code=...)``,
  the same arguments, outputs copied back; every launch timed again with CUDA events (median of
  ``runs`` launches after ``warmup``).
* :func:`device_properties` / :func:`check_properties` — the GPU's SM count, shared-memory and
  register limits, L2 size and clocks against the simulator's preset; a warning per difference.
* :func:`profile_with_ncu` — when ``ncu`` is on PATH, run ``python -m simgpu.crosscheck.runner``
  (the real launches only, nothing else) under ``ncu --csv --page raw --metrics ...`` and parse it.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from simgpu.crosscheck.cases import Case, ProgramCase, programs_module
from simgpu.crosscheck.ncu import (
    NcuLaunch,
    filter_known,
    ncu_available,
    ncu_command,
    parse_ncu_csv,
    query_metric_bases,
    unknown_metrics_in_error,
)
from simgpu.crosscheck.sim import SHARED_DEFAULT_LIMIT, LaunchRecord, SideRun
from simgpu.frontend.nvrtc import nvcc_like_options

BACKEND_ENV = "SIMGPU_PROGRAMS_BACKEND"
SHIM = "simgpu.crosscheck._cupy_backend"


# --------------------------------------------------------------------------------- availability
def import_cupy():
    """CuPy, or None when it is not installed (or fails to import)."""
    try:
        import cupy

        return cupy
    except Exception:  # noqa: BLE001 - ImportError, or a broken CUDA install
        return None


def gpu_status() -> str:
    """"" when CuPy sees a GPU; else one line saying why only the simulated half runs."""
    cupy = import_cupy()
    if cupy is None:
        return "simgpu crosscheck: CuPy is not installed, so only the simulated half ran (pip install cupy-cuda12x)"
    try:
        n = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # noqa: BLE001 - no driver, no device
        return f"simgpu crosscheck: no CUDA GPU available ({type(exc).__name__}), so only the simulated half ran"
    if n < 1:
        return "simgpu crosscheck: no CUDA GPU available, so only the simulated half ran"
    return ""


# --------------------------------------------------------------------------------- device check
# cudaDeviceAttr values (CUDA runtime API, driver_types.h).
_ATTRS = {
    "max_threads_per_block": 1, "max_shared_memory_per_block": 8, "max_registers_per_block": 12,
    "clock_rate_khz": 13, "multiprocessor_count": 16, "memory_clock_rate_khz": 36, "l2_cache_size": 38,
    "max_threads_per_multiprocessor": 39, "compute_capability_major": 75, "compute_capability_minor": 76,
    "max_shared_memory_per_multiprocessor": 81, "max_registers_per_multiprocessor": 82,
    "max_shared_memory_per_block_optin": 97, "max_blocks_per_multiprocessor": 106,
    "reserved_shared_memory_per_block": 111,
}


def device_properties(device: int = 0) -> dict[str, Any]:
    """The real GPU's properties that the simulator's preset also states (plus name, driver, clocks)."""
    cupy = import_cupy()
    rt = cupy.cuda.runtime
    props: dict[str, Any] = {}
    with contextlib.suppress(Exception):
        name = rt.getDeviceProperties(device)["name"]
        props["name"] = name.decode() if isinstance(name, bytes) else str(name)
    for key, attr in _ATTRS.items():
        with contextlib.suppress(Exception):
            props[key] = int(rt.deviceGetAttribute(attr, device))
    with contextlib.suppress(Exception):
        props["driver_version"] = int(rt.driverGetVersion())
    with contextlib.suppress(Exception):
        props["runtime_version"] = int(rt.runtimeGetVersion())
    props["cupy_version"] = getattr(cupy, "__version__", "?")
    with contextlib.suppress(Exception):  # current clocks through NVML (nvidia-ml-py), if present
        import pynvml

        pynvml.nvmlInit()
        h = pynvml.nvmlDeviceGetHandleByIndex(device)
        props["sm_clock_mhz_now"] = int(pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM))
        props["sm_clock_mhz_max"] = int(pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_SM))
        props["memory_clock_mhz_max"] = int(pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_MEM))
    return props


def preset_properties(preset: str = "h200") -> dict[str, Any]:
    """The same properties as :func:`device_properties`, as the simulator's preset states them."""
    from simgpu.arch import get_preset
    from simgpu.memory import memory_config_for

    cfg = get_preset(preset)
    lim = cfg.limits
    out = {
        "name": cfg.name,
        "multiprocessor_count": cfg.num_sms,
        "compute_capability_major": cfg.compute_capability[0],
        "compute_capability_minor": cfg.compute_capability[1],
        "max_threads_per_block": lim.max_threads_per_block,
        "max_threads_per_multiprocessor": lim.max_threads_per_sm,
        "max_blocks_per_multiprocessor": lim.max_ctas_per_sm,
        "max_registers_per_multiprocessor": lim.registers_per_sm,
        "max_shared_memory_per_multiprocessor": lim.shared_mem_per_sm,
        "max_shared_memory_per_block": lim.shared_mem_per_block_default,
        "max_shared_memory_per_block_optin": lim.shared_mem_per_block_optin,
        "reserved_shared_memory_per_block": lim.shared_mem_reserved_per_block,
        "clock_rate_khz": int(round(cfg.sm_clock_mhz * 1000)),
        "memory_clock_rate_khz": int(round(cfg.memory_clock_mhz * 1000)),
    }
    with contextlib.suppress(Exception):
        out["l2_cache_size"] = int(memory_config_for(cfg).l2_bytes)
    return out


def check_properties(real: dict[str, Any], preset: str = "h200") -> list[str]:
    """One warning per property where the real GPU differs from the preset in use."""
    want = preset_properties(preset)
    warnings = []
    for key, value in want.items():
        if key == "name":
            got = real.get("name")
            if got and str(value).lower() not in str(got).lower() and str(got).lower() not in str(value).lower():
                warnings.append(f"device is {got!r} but the preset in use is {value!r}")
            continue
        if key not in real:
            continue
        if real[key] != value:
            warnings.append(f"{key}: real GPU {real[key]:,} vs preset {preset!r} {value:,}")
    return warnings


# --------------------------------------------------------------------------------- real runs
def _dim3(x) -> tuple:
    t = (int(x),) if np.isscalar(x) else tuple(int(v) for v in x)
    return tuple(t + (1,) * (3 - len(t)))[:3]


@contextlib.contextmanager
def _program_backend():
    """Programs' drivers use CuPy (with launches recorded) inside this block."""
    import simgpu.crosscheck._cupy_backend as shim

    old = os.environ.get(BACKEND_ENV)
    os.environ[BACKEND_ENV] = SHIM
    shim.LAUNCHES.clear()
    try:
        yield shim.LAUNCHES
    finally:
        if old is None:
            os.environ.pop(BACKEND_ENV, None)
        else:
            os.environ[BACKEND_ENV] = old


def launch_real(case: Case) -> tuple[list[Any], dict[str, np.ndarray], SideRun]:
    """Run ``case`` once on the GPU. Returns (launch callables, outputs, a SideRun without times).

    Each launch callable re-launches that kernel with the same arguments (for timing).
    """
    cupy = import_cupy()
    if isinstance(case, ProgramCase):
        programs = programs_module()
        if programs is None:
            raise RuntimeError("the built-in programs (simgpu.programs) are not installed")
        with _program_backend() as recorded:
            result = programs.get_program(case.name).run(case.size, seed=case.seed)
            cupy.cuda.Device().synchronize()
            launches = list(recorded)
        outputs = {k: np.asarray(v) for k, v in result.outputs.items()}
        side = SideRun([LaunchRecord(r.name, _dim3(r.grid), _dim3(r.block)) for r in launches], outputs,
                       {k: np.asarray(v) for k, v in result.expected.items()}, result.rtol, result.atol)
        return launches, outputs, side
    # the include path and prelude the simulated side compiled with, so one source builds on both
    options = tuple(case.options) + nvcc_like_options()
    kernel = cupy.RawModule(code=case.source, options=options,
                            enable_cooperative_groups=case.cooperative).get_function(case.kernel)
    if case.shared_mem > SHARED_DEFAULT_LIMIT:
        kernel.max_dynamic_shared_size_bytes = int(case.shared_mem)
    if case.carveout >= 0:
        kernel.preferred_shared_memory_carveout = int(case.carveout)
    dargs = tuple(cupy.asarray(a) if isinstance(a, np.ndarray) else a for a in case.args)
    grid, block = _dim3(case.grid), _dim3(case.block)

    def again():
        kernel(grid, block, dargs, shared_mem=int(case.shared_mem))

    again()
    cupy.cuda.Device().synchronize()
    outputs = {case.output_name(i): cupy.asnumpy(dargs[i]) for i in case.output_indices()}
    side = SideRun([LaunchRecord(case.kernel, grid, block)], outputs, None, case.rtol, case.atol)
    return [again], outputs, side


def time_launches(launches: Sequence[Any], runs: int = 20, warmup: int = 3) -> list[list[float]]:
    """Per launch: ``runs`` CUDA-event times in microseconds, after ``warmup`` untimed launches."""
    cupy = import_cupy()
    times = []
    for launch in launches:
        for _ in range(warmup):
            launch()
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        ts = []
        for _ in range(runs):
            start.record()
            launch()
            end.record()
            end.synchronize()
            ts.append(1000.0 * float(cupy.cuda.get_elapsed_time(start, end)))
        times.append(ts)
    return times


def run_real(case: Case, *, runs: int = 20, warmup: int = 3) -> SideRun:
    """Run ``case`` on the GPU under CuPy: outputs, then CUDA-event times of every launch."""
    cupy = import_cupy()
    try:
        launches, _, side = launch_real(case)
        if runs > 0:
            for rec, ts in zip(side.launches, time_launches(launches, runs, warmup)):
                rec.event_us = ts
        return side
    except Exception as exc:  # noqa: BLE001 - reported per case
        return SideRun(error=f"real run failed: {type(exc).__name__}: {exc}")
    finally:
        with contextlib.suppress(Exception):
            cupy.get_default_memory_pool().free_all_blocks()


# --------------------------------------------------------------------------------- ncu
def _env() -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join([root] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.pop(BACKEND_ENV, None)
    return env


def known_ncu_metrics(ncu: str, timeout: float = 120) -> set[str]:
    """Base metric names this ncu knows for the GPU present (empty when the query fails)."""
    try:
        proc = subprocess.run([ncu, "--query-metrics"], capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError):
        return set()
    return query_metric_bases(proc.stdout) if proc.returncode == 0 else set()


def profile_with_ncu(cases: Sequence[Case], metrics: Sequence[str], *, kernel_names: Sequence[str] | None = None,
                     repeat: int = 1, timeout: float = 540, known: set[str] | None = None,
                     log: Any = None) -> tuple[list[list[list[NcuLaunch]]] | None, str]:
    """Profile the real launches of ``cases`` under ncu, in a subprocess that runs only them.

    Returns (per case, per launch, the ncu rows of its ``repeat`` runs) and a status line; None and
    the reason when ncu is missing or failed.
    """
    ncu = ncu_available()
    if ncu is None:
        return None, "ncu is not on PATH: no hardware counters"
    if known is None:
        known = known_ncu_metrics(ncu)
    from simgpu.crosscheck.ncu import CALIBRATED_METRICS

    # Names ncu 2025.3.1 accepted on an H200 are kept even if the query missed them; a query that
    # found almost nothing is ignored.
    known = known if known and len(known) > 50 else set()
    unsure = [m for m in metrics if m not in CALIBRATED_METRICS]
    _, dropped = filter_known(unsure, known)
    metrics = [m for m in metrics if m not in dropped]
    notes = [f"dropped metrics unknown to this ncu: {', '.join(dropped)}"] if dropped else []
    with tempfile.TemporaryDirectory(prefix="simgpu-ncu-") as tmp:
        plan_path = Path(tmp) / "plan.pkl"
        order_path = Path(tmp) / "launches.json"
        with open(plan_path, "wb") as f:
            pickle.dump([c.plan() for c in cases], f)
        target = [sys.executable, "-m", "simgpu.crosscheck.runner", "--plan", str(plan_path),
                  "--repeat", str(int(repeat)), "--launches", str(order_path)]
        for attempt in range(3):
            cmd = ncu_command(metrics, target, ncu=ncu, kernels=kernel_names)
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=_env())
            except subprocess.TimeoutExpired:
                return None, f"ncu timed out after {timeout:.0f} s"
            if log is not None:
                log(proc.stdout, proc.stderr, cmd)
            rows = parse_ncu_csv(proc.stdout)
            unknown = unknown_metrics_in_error(proc.stdout + proc.stderr)
            if rows or not unknown or attempt == 2:
                break
            metrics = [m for m in metrics if m not in unknown and m.split(".")[0] not in unknown]
            notes.append(f"ncu refused {', '.join(unknown)}; retried without")
        if not rows:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
            return None, f"ncu returned no rows (exit {proc.returncode}): {' | '.join(tail)}"
        try:
            order = json.loads(order_path.read_text())
        except (OSError, ValueError):
            order = None
    aligned = align_rows(rows, order, len(cases))
    status = f"{len(rows)} launch(es) profiled, {len(metrics)} metrics" + (f"; {'; '.join(notes)}" if notes else "")
    return aligned, status


def _same_kernel(row_name: str, name: str) -> bool:
    return row_name == name or row_name.startswith(name + "(") or f" {name}(" in row_name or \
        f" {name}<" in row_name or row_name.startswith(name + "<")


def align_rows(rows: list[NcuLaunch], order: list[list] | None, n_cases: int) -> list[list[list[NcuLaunch]]]:
    """Give each (case, launch) its ncu rows. ``order`` is the runner's launch list:
    ``[case index, repeat, launch index, kernel name]`` in launch order; ncu rows of other kernels
    (CuPy's own) are skipped."""
    out: list[list[list[NcuLaunch]]] = [[] for _ in range(n_cases)]
    if not order:
        return out
    i = 0
    for case_i, _rep, launch_i, name in order:
        while i < len(rows) and not _same_kernel(rows[i].kernel, name):
            i += 1
        if i >= len(rows):
            break
        per_case = out[case_i]
        while len(per_case) <= launch_i:
            per_case.append([])
        per_case[launch_i].append(rows[i])
        i += 1
    return out


__all__ = ["align_rows", "check_properties", "device_properties", "gpu_status", "import_cupy", "launch_real",
           "known_ncu_metrics", "preset_properties", "profile_with_ncu", "run_real", "time_launches"]
