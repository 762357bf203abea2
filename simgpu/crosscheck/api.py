"""``simgpu.crosscheck.crosscheck(...)``: run cases on the simulator and, where possible, on the GPU.

    from simgpu.crosscheck import crosscheck
    crosscheck(source=src, kernel="vector_add", grid=(n // 256,), block=(256,), args=[a, b, c, np.int32(n)])
    crosscheck("gemm_tiled")                                  # a built-in program, default size
    crosscheck(suite="calibration/specs.py")                  # every spec of a suite file
    report = crosscheck(programs="all", suite="calibration/specs.py", json_path="out.json")
    report.exit_code                                          # 1 when any output differs

Without CuPy or a GPU only the simulated half runs (one line says so); without ``ncu`` on PATH the
metrics have no real side (``n/a``) but outputs and CUDA-event times are still compared.
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from simgpu.crosscheck.cases import Case, KernelCase, ProgramCase, all_program_cases, kernel_case, load_suite
from simgpu.crosscheck.compare import (
    CaseResult,
    CrosscheckReport,
    LaunchResult,
    TimingRow,
    compare_metrics,
    compare_output,
)
from simgpu.crosscheck.ncu import DEFAULT_METRICS, TIME_METRICS
from simgpu.crosscheck.sim import SideRun, run_simulated


def _cases(target, *, source, kernel, grid, block, args, shared_mem, name, outputs, reference, rtol, options,
           program, size, seed, programs, suite, specs) -> list[Case]:
    cases: list[Case] = []
    items = target if isinstance(target, (list, tuple)) else ([target] if target is not None else [])
    for t in items:
        if isinstance(t, (KernelCase, ProgramCase)):
            cases.append(t)
        elif isinstance(t, (str, Path)) and str(t).endswith(".py"):
            cases.extend(load_suite(t, specs))
        elif isinstance(t, str):
            cases.append(ProgramCase(t, size, seed))
        else:
            raise TypeError(f"crosscheck target {t!r}: give a program name, a suite .py file or a case")
    if program:
        for p in [program] if isinstance(program, str) else program:
            cases.append(ProgramCase(p, size, seed))
    if programs == "all":
        cases.extend(all_program_cases())
    elif programs:
        cases.extend(ProgramCase(p, None, seed) for p in programs)
    if suite:
        cases.extend(load_suite(suite, specs))
    if kernel is not None or source is not None:
        if source is None or kernel is None or grid is None or block is None or args is None:
            raise ValueError("a kernel crosscheck needs source, kernel, grid, block and args")
        if isinstance(source, Path) or (isinstance(source, str) and source.endswith(".cu") and "\n" not in source):
            source = Path(source).read_text()
        cases.append(kernel_case(source, kernel, grid, block, args, name=name, shared_mem=shared_mem,
                                 outputs=outputs, reference=reference, rtol=rtol, options=options))
    if not cases:
        raise ValueError("nothing to crosscheck: give a program, a suite or a kernel")
    return cases


def crosscheck(
    target: Any = None, *,
    source: str | Path | None = None, kernel: str | None = None, grid: Any = None, block: Any = None,
    args: Sequence[Any] | None = None, shared_mem: int = 0, name: str | None = None,
    outputs: list[int] | None = None, reference: Callable | None = None, rtol: float | None = None,
    options: Sequence[str] = (),
    program: str | Sequence[str] | None = None, size: dict[str, int] | None = None, seed: int = 0,
    programs: str | Sequence[str] | None = None,
    suite: str | Path | None = None, specs: Sequence[str] | None = None,
    preset: str = "h200", real: bool = True, ncu: bool = True, metrics: Sequence[str] | None = None,
    runs: int = 20, warmup: int = 3, ncu_time_runs: int = 7,
    json_path: str | Path | None = None, markdown_path: str | Path | None = None,
    echo: Callable[[str], None] | None = print, all_metrics: bool = False,
    ncu_log: Callable | None = None, ncu_timeout: float = 540, recorded: str | Path | None = None,
) -> CrosscheckReport:
    """Crosscheck kernels, programs or suites: simulated against real outputs, ncu metrics and times.

    ``target`` may be a program name, a suite ``.py`` file, a :class:`KernelCase`/:class:`ProgramCase`
    or a list of these; ``source``/``kernel``/``grid``/``block``/``args`` describe one kernel launch;
    ``program``/``programs="all"`` and ``suite`` add more. ``real=False`` runs only the simulator,
    ``ncu=False`` skips the profiler. ``runs`` CUDA-event timings follow ``warmup`` launches;
    ``ncu_time_runs`` launches per kernel give the median ``gpu__time_duration`` (0: one sample from
    the metric pass). ``echo`` prints progress and the table (None: silent).

    ``recorded`` (a JSON this function wrote on a GPU host, e.g. validation/h200_<date>.json) takes
    the real side from that file instead of a GPU: the simulator runs again, its counters and times
    are compared with the recorded ncu values, and no GPU is needed (real outputs are not stored, so
    the recorded output checks are carried over, marked "recorded").
    """
    say = echo or (lambda _s: None)
    cases = _cases(target, source=source, kernel=kernel, grid=grid, block=block, args=args, shared_mem=shared_mem,
                   name=name, outputs=outputs, reference=reference, rtol=rtol, options=options, program=program,
                   size=size, seed=seed, programs=programs, suite=suite, specs=specs)
    report = CrosscheckReport(preset=preset, environment=_environment())

    # 1. the simulated half (always)
    sims: list[SideRun] = []
    for case in cases:
        say(f"simulating {case.name} ...")
        sims.append(run_simulated(case, preset))

    # 2. the real half, when CuPy sees a GPU
    reals: list[SideRun | None] = [None] * len(cases)
    if recorded is not None:
        _compare_recorded(report, cases, sims, Path(recorded))
        real = False
    elif real:
        from simgpu.crosscheck import gpu

        report.gpu_status = gpu.gpu_status()  # printed once, at the head of the table
        if not report.gpu_status:
            report.device = gpu.device_properties()
            report.property_warnings = gpu.check_properties(report.device, preset)
            for case_i, case in enumerate(cases):
                say(f"running {case.name} on {report.device.get('name', 'the GPU')} ...")
                reals[case_i] = gpu.run_real(case, runs=runs, warmup=warmup)
    else:
        report.gpu_status = "simgpu crosscheck: real GPU run not requested, so only the simulated half ran"

    # a first report without ncu, written now in case profiling is cut short
    if json_path and real and not report.gpu_status and ncu:
        partial = CrosscheckReport(preset=report.preset, device=report.device, environment=report.environment,
                                   property_warnings=report.property_warnings, gpu_status=report.gpu_status,
                                   ncu_status="not run yet (partial report)")
        partial.cases = [_compare_case(c, s, r, None, None) for c, s, r in zip(cases, sims, reals)]
        partial.write_json(json_path)

    # 3. ncu, in a subprocess that makes only the real launches
    ncu_rows = None
    time_rows = None
    if real and not report.gpu_status and ncu:
        from simgpu.crosscheck import gpu
        from simgpu.crosscheck.ncu import ncu_available

        names: list[str] | None = []
        for case, sim, rl in zip(cases, sims, reals):
            known = (rl.launches if rl and not rl.error else None) or (sim.launches if not sim.error else None)
            if isinstance(case, KernelCase):
                names.append(case.kernel)
            elif known:
                names.extend(r.kernel for r in known)
            else:
                names = None
                break
        path = ncu_available()
        if path is None:
            report.ncu_status = "ncu is not on PATH: no hardware counters"
        else:
            known_metrics = gpu.known_ncu_metrics(path)
            say(f"profiling {len(cases)} case(s) under ncu ...")
            ncu_rows, status = gpu.profile_with_ncu(cases, list(metrics or DEFAULT_METRICS), kernel_names=names,
                                                    known=known_metrics, log=ncu_log, timeout=ncu_timeout)
            report.ncu_status = status
            if ncu_time_runs and ncu_rows is not None:
                say(f"timing under ncu ({ncu_time_runs} launches each) ...")
                time_rows, tstatus = gpu.profile_with_ncu(cases, TIME_METRICS, kernel_names=names,
                                                          repeat=ncu_time_runs, known=known_metrics, log=ncu_log,
                                                          timeout=ncu_timeout)
                report.ncu_status += f"; time pass: {tstatus}"
            report.ncu_status = f"{path}: {report.ncu_status}"

    # 4. compare
    for i, case in enumerate(cases if recorded is None else []):
        report.cases.append(_compare_case(case, sims[i], reals[i],
                                          ncu_rows[i] if ncu_rows else None,
                                          time_rows[i] if time_rows else None))

    if echo:
        echo(report.table(all_metrics=all_metrics))
    if json_path:
        report.write_json(json_path)
    if markdown_path:
        p = Path(markdown_path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(report.markdown() + "\n")
    return report


def _compare_case(case: Case, sim: SideRun, real: SideRun | None, ncu_rows, time_rows) -> CaseResult:
    res = CaseResult(name=case.name, kind=case.kind)
    if isinstance(case, ProgramCase):
        res.notes["size"] = sim.notes.get("size", case.size or {})
    for side in (sim, real):
        if side is not None and side.error:
            res.errors.append(side.error)
    res.real_ran = real is not None and not real.error
    rtol = sim.rtol if sim.rtol is not None else (real.rtol if real else None)
    atol = sim.atol if sim.atol is not None else (real.atol if real else None)
    expected = sim.expected if sim.expected is not None else (real.expected if real else None)
    if expected is None and isinstance(case, KernelCase) and case.reference is not None:
        try:
            expected = case.expected()
        except Exception as exc:  # noqa: BLE001
            res.errors.append(f"reference failed: {type(exc).__name__}: {exc}")
    # outputs: simulated vs real, then each vs the NumPy reference
    if res.real_ran:
        for name, got in sim.outputs.items():
            if name in real.outputs:
                res.outputs.append(compare_output(name, got, real.outputs[name], against="real", rtol=rtol,
                                                  atol=atol))
    if expected:
        for name, want in expected.items():
            if not sim.error:
                if name in sim.outputs:
                    res.outputs.append(compare_output(name, sim.outputs[name], want, against="reference",
                                                      rtol=rtol, atol=atol))
                else:
                    res.errors.append(f"simulated run has no output {name!r}")
            if res.real_ran and name in real.outputs:
                chk = compare_output(name, real.outputs[name], want, against="reference", rtol=rtol, atol=atol)
                chk.name = f"{name} (real GPU)"
                res.outputs.append(chk)
    # launches: counters and times
    n = max(len(sim.launches), len(real.launches) if res.real_ran else 0)
    for li in range(n):
        s = sim.launches[li] if li < len(sim.launches) else None
        r = real.launches[li] if res.real_ran and li < len(real.launches) else None
        base = s or r
        rows_m = ncu_rows[li] if ncu_rows and li < len(ncu_rows) else []
        rows_t = time_rows[li] if time_rows and li < len(time_rows) else []
        real_metrics = rows_m[0].metrics if rows_m else None
        lr = LaunchResult(index=li, kernel=base.kernel, grid=list(base.grid), block=list(base.block),
                          real_kernel=rows_m[0].kernel if rows_m else None)
        sim_metrics = (s.metrics or {}) if s else {}
        lr.metrics = compare_metrics(sim_metrics, real_metrics) if (sim_metrics or real_metrics) else []
        t = TimingRow()
        sim_ns = sim_metrics.get("gpu__time_duration.sum")
        t.simulated_ns = float(sim_ns) if sim_ns is not None else None
        durations = [x.metrics.get("gpu__time_duration.sum") for x in rows_t]
        durations = [float(d) for d in durations if isinstance(d, float)]
        if not durations and rows_m and isinstance(rows_m[0].metrics.get("gpu__time_duration.sum"), float):
            durations = [rows_m[0].metrics["gpu__time_duration.sum"]]
        t.ncu_ns_runs = durations
        if r is not None and r.event_us:
            t.event_us_median = float(np.median(r.event_us))
            t.event_us_min = float(np.min(r.event_us))
            t.event_runs = len(r.event_us)
        lr.timing = t.finish()
        res.launches.append(lr)
    return res


def _compare_recorded(report: CrosscheckReport, cases: list[Case], sims: list[SideRun], path: Path) -> None:
    """Fill ``report`` comparing fresh simulated runs with the real side recorded in ``path``."""
    from simgpu.crosscheck.ncu import NcuLaunch

    old = CrosscheckReport.read_json(path)
    report.device = old.device
    report.property_warnings = old.property_warnings
    report.gpu_status = ""
    report.ncu_status = f"recorded in {path.name} ({old.created}): {old.ncu_status}"
    report.environment["real_from"] = str(path.name)
    by_key = {(c.kind, c.name): c for c in old.cases}
    for case, sim in zip(cases, sims):
        rec = by_key.get((case.kind, case.name))
        if rec is None or not rec.real_ran:
            res = _compare_case(case, sim, None, None, None)
            res.notes["recorded"] = "no recorded real run of this case"
            report.cases.append(res)
            continue
        ncu_rows, time_rows = [], []
        for lr in rec.launches:
            metrics = {r.metric: r.real for r in lr.metrics if r.real is not None}
            ncu_rows.append([NcuLaunch(id=-1, kernel=lr.real_kernel or lr.kernel, metrics=metrics)]
                            if metrics else [])
            time_rows.append([NcuLaunch(id=-1, kernel=lr.kernel, metrics={"gpu__time_duration.sum": t})
                              for t in lr.timing.ncu_ns_runs])
        res = _compare_case(case, sim, None, ncu_rows, time_rows)
        for lr, old_lr in zip(res.launches, rec.launches):
            lr.real_kernel = old_lr.real_kernel
            lr.timing.event_us_median = old_lr.timing.event_us_median
            lr.timing.event_us_min = old_lr.timing.event_us_min
            lr.timing.event_runs = old_lr.timing.event_runs
        for o in rec.outputs:
            if o.against == "real" or o.name.endswith("(real GPU)"):
                o.name = f"{o.name} (recorded)"
                res.outputs.append(o)
        res.real_ran = True
        res.notes["real_from"] = path.name
        report.cases.append(res)


def _environment() -> dict[str, Any]:
    import simgpu

    return {"simgpu": simgpu.__version__, "python": sys.version.split()[0], "numpy": np.__version__,
            "host": platform.node() or "?"}


__all__ = ["crosscheck"]
