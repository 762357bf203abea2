"""Run a suite of kernels on the simulator and compare with what a real GPU measured.

A suite is a Python file with `specs()` (like ../shared/calibration/specs.py) next to a `.cu`
file of kernels; the measurements are ncu metrics per spec (like h200_metrics.json). For each
spec the outputs are checked against the NumPy reference, then each metric is compared with its
tolerance: exact for request/sector/wavefront counts, a relative or absolute bound for the rest.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
from dataclasses import dataclass, field

import numpy as np

import simgpu as sg

# metric -> (kind, tolerance, label). kind: "exact", "rel" (fraction), "abs" (points), "info"
CHECKS: list[tuple[str, str, float, str]] = [
    ("smsp__inst_executed.sum", "info", 0.0, "warp instructions (SASS, estimated)"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "exact", 0.0, "global ld requests"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "exact", 0.0, "global ld sectors"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "exact", 0.0, "global st requests"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "exact", 0.0, "global st sectors"),
    ("smsp__sass_inst_executed_op_shared_ld.sum", "exact", 0.0, "shared ld instructions"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "exact", 0.0, "shared ld wavefronts"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "exact", 0.0, "shared st wavefronts"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "info", 0.0, "shared ld bank conflicts"),
    ("lts__t_sectors_srcunit_tex_op_read.sum", "rel", 0.02, "L2 read sectors from L1"),
    ("lts__t_sectors_srcunit_tex_op_write.sum", "rel", 0.02, "L2 write sectors from L1"),
    ("l1tex__t_sector_hit_rate.pct", "abs", 3.0, "L1 hit rate %"),
    ("lts__t_sector_hit_rate.pct", "info", 0.0, "L2 hit rate %"),
    ("dram__bytes_read.sum", "rel", 0.05, "DRAM bytes read"),
    ("dram__bytes_write.sum", "info", 0.0, "DRAM bytes written"),
    ("gpu__time_duration.sum", "time", 0.25, "kernel time (ns)"),
]


@dataclass
class MetricRow:
    metric: str
    label: str
    kind: str
    tolerance: float
    simulated: float | None
    measured: float | None

    @property
    def error(self) -> float | None:
        if self.simulated is None or self.measured is None:
            return None
        if self.kind == "abs":
            return self.simulated - self.measured
        if self.measured == 0:
            return 0.0 if self.simulated == 0 else math.inf
        return (self.simulated - self.measured) / self.measured

    @property
    def passed(self) -> bool | None:
        """None for informational rows and rows without both values."""
        e = self.error
        if e is None or self.kind in ("info",):
            return None
        if self.kind == "exact":
            return self.simulated == self.measured
        return abs(e) <= self.tolerance


@dataclass
class SpecResult:
    name: str
    kernel: str
    outputs_ok: bool
    max_rel_error: float
    rows: list[MetricRow] = field(default_factory=list)
    host_seconds: float = 0.0
    warp_instructions: int = 0


def load_specs(path: str) -> list[dict]:
    spec = importlib.util.spec_from_file_location("simgpu_suite_specs", path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(f"cannot load suite file {path}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    if not hasattr(mod, "specs"):
        raise ValueError(f"{path} defines no specs() function")
    return list(mod.specs())


def _measured_value(entry: dict, metric: str) -> float | None:
    if metric == "gpu__time_duration.sum" and entry.get("gpu_time_ns_median") is not None:
        return float(entry["gpu_time_ns_median"])
    v = entry.get("metrics", {}).get(metric)
    if v in (None, "", "n/a"):
        return None
    return float(str(v).replace(",", ""))


def run_suite(specs_path: str, measurements_path: str | None = None, kernels_path: str | None = None,
              only: list[str] | None = None, gpu: str = "h200", progress=None) -> list[SpecResult]:
    """Run every spec (or those named in `only`) and compare with the measurements if given."""
    specs = load_specs(specs_path)
    kernels_path = kernels_path or os.path.join(os.path.dirname(os.path.abspath(specs_path)), "kernels.cu")
    with open(kernels_path) as f:
        module = sg.RawModule(code=f.read(), name=os.path.basename(kernels_path))
    measured: dict[str, dict] = {}
    if measurements_path:
        with open(measurements_path) as f:
            for entry in json.load(f):
                measured[entry["name"]] = entry
    results = []
    for s in specs:
        if only and s["name"] not in only:
            continue
        if progress:
            progress(s["name"])
        args = [sg.asarray(a) if isinstance(a, np.ndarray) else a for a in s["args"]]
        with sg.use_gpu(gpu):
            report = module.get_function(s["kernel"])(tuple(s["grid"]), tuple(s["block"]), tuple(args))
        host = [a.get() if isinstance(a, sg.DeviceArray) else a for a in args]
        expected = s["reference"](*s["args"])
        ok, worst = True, 0.0
        rtol = s.get("rtol", 1e-6)
        for i, e in zip(s["outputs"], expected):
            got = host[i]
            err = np.abs(got.astype(np.float64) - e) / np.maximum(np.abs(e.astype(np.float64)), 1e-30)
            worst = max(worst, float(np.nanmax(err)) if err.size else 0.0)
            ok &= bool(np.allclose(got, e, rtol=rtol, atol=1e-6))
        res = SpecResult(s["name"], s["kernel"], ok, worst, host_seconds=report.host_seconds,
                         warp_instructions=report.warp_instructions)
        entry = measured.get(s["name"], {})
        for metric, kind, tol, label in CHECKS:
            sim = report.metrics.get(metric)
            res.rows.append(MetricRow(metric, label, kind, tol, None if sim is None else float(sim),
                                      _measured_value(entry, metric) if entry else None))
        results.append(res)
    return results


def orderings(results: list[SpecResult], metric: str = "gpu__time_duration.sum") -> list[tuple[str, bool | None]]:
    """Variant orderings the hardware shows, and whether the simulation reproduces each."""
    by = {r.name: {row.metric: row for row in r.rows} for r in results}
    pairs = []
    names = list(by)
    for a, b in (("transpose_padded", "transpose_naive"), ("gemm_tiled", "gemm_naive")):
        if a in by and b in by:
            pairs.append((a, b))
    strided = sorted((n for n in names if n.startswith("strided_copy_s")), key=lambda n: int(n.rsplit("s", 1)[1]))
    pairs += list(zip(strided[:-1], strided[1:]))
    out = []
    for a, b in pairs:
        ra, rb = by[a][metric], by[b][metric]
        if None in (ra.measured, rb.measured):
            continue
        if ra.simulated is None or rb.simulated is None:
            out.append((f"{a} < {b}", None))
            continue
        real_less = ra.measured <= rb.measured
        sim_less = ra.simulated <= rb.simulated
        out.append((f"{a} {'<' if real_less else '>'} {b}", real_less == sim_less))
    return out


def _fmt(v: float | None) -> str:
    if v is None:
        return "n/a"
    if abs(v) >= 1000 or float(v).is_integer():
        return f"{v:,.0f}"
    return f"{v:,.2f}"


def format_results(results: list[SpecResult]) -> str:
    """A table per spec (metric, simulated, measured, error, verdict) and a summary."""
    lines = []
    n_checked = n_failed = 0
    time_errors = []
    for r in results:
        lines.append(f"== {r.name} ({r.kernel}): outputs {'match' if r.outputs_ok else 'DIFFER'} "
                     f"(max rel err {r.max_rel_error:.2e}); {r.warp_instructions:,} warp instructions "
                     f"in {r.host_seconds:.2f} s")
        lines.append(f"   {'metric':<40} {'simulated':>14} {'measured':>14} {'error':>9}  check")
        for row in r.rows:
            if row.simulated is None and row.measured is None:
                continue
            e = row.error
            if e is None:
                err = "n/a"
            elif row.kind == "abs":
                err = f"{e:+.2f}pt"
            else:
                err = "inf" if math.isinf(e) else f"{100 * e:+.1f}%"
            verdict = {True: "ok", False: "FAIL", None: ""}[row.passed]
            if row.kind == "exact":
                verdict += " (exact)" if verdict else ""
            elif row.kind in ("rel", "time"):
                verdict += f" (±{100 * row.tolerance:.0f}%)" if verdict else ""
            elif row.kind == "abs":
                verdict += f" (±{row.tolerance:.0f}pt)" if verdict else ""
            if row.passed is not None:
                n_checked += 1
                n_failed += not row.passed
            if row.kind == "time" and e is not None:
                time_errors.append(abs(e))
            lines.append(f"   {row.label:<40} {_fmt(row.simulated):>14} {_fmt(row.measured):>14} {err:>9}  {verdict}")
    lines.append("")
    ok_outputs = sum(r.outputs_ok for r in results)
    lines.append(f"summary: outputs match for {ok_outputs}/{len(results)} kernels; "
                 f"{n_checked - n_failed}/{n_checked} metric checks within tolerance")
    if time_errors:
        lines.append(f"kernel time: MAPE {100 * np.mean(time_errors):.1f}%, worst {100 * max(time_errors):.1f}%")
    order = orderings(results)
    if order:
        held = [o for o in order if o[1]]
        lines.append(f"orderings of variants reproduced: {len(held)}/{len(order)}")
        for text, ok in order:
            lines.append(f"   {text}: {'yes' if ok else 'no' if ok is False else 'n/a (no simulated time)'}")
    return "\n".join(lines)
