"""Simulated against real: outputs, ncu metrics and kernel times, as tables and JSON.

Three kinds of comparison, each a plain function over plain values so that it can be tested
without a GPU:

* :func:`compare_output` — one output array, simulated against real (or against the NumPy
  reference), with a tolerance chosen by dtype (:data:`DTYPE_TOLERANCE`; integers must be equal).
* :func:`compare_metrics` — one launch's counters, row by row: ``metric, simulated, real, abs err,
  rel err, expectation, status``. :func:`expectation` says what agreement to expect of each metric:
  requests, sectors, wavefronts and SASS memory-instruction counts are *exact* (they follow from the
  addresses alone); L2 read sectors, DRAM bytes read and bank conflicts within a relative
  tolerance; hit rates (``.pct``) within some percentage points; everything else (instruction
  totals: simgpu estimates the SASS from the PTX, cycles, DRAM writes of a write-back L2) is shown
  for information only.
* :class:`TimingRow` — simulated kernel time (``gpu__time_duration.sum`` when the simulator
  reports one, else ``n/a``) against ncu's ``gpu__time_duration`` median and the CUDA-event median.

:class:`CrosscheckReport` gathers the cases, prints the side-by-side table, writes JSON and
Markdown, and gives the exit code (non-zero when any output differs).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

# rtol, atol by dtype kind/size: simulated and real runs execute the same PTX, so results agree
# to rounding, except where the order of float additions differs (atomics, warp shuffles).
DTYPE_TOLERANCE: dict[str, tuple[float, float]] = {
    "float16": (1e-2, 1e-3),
    "bfloat16": (2e-2, 1e-2),
    "float32": (1e-4, 1e-5),
    "float64": (1e-10, 1e-12),
    "complex64": (1e-4, 1e-5),
    "complex128": (1e-10, 1e-12),
}


def dtype_tolerance(dtype: Any) -> tuple[float, float]:
    """(rtol, atol) for comparing two arrays of ``dtype``; integers and booleans must be equal."""
    try:
        dt = np.dtype(dtype)
        name = dt.name
    except TypeError:
        dt, name = None, str(dtype)
    if name in DTYPE_TOLERANCE:
        return DTYPE_TOLERANCE[name]
    if dt is not None and dt.kind in "fc":
        return (1e-4, 1e-5)
    return (0.0, 0.0)


# --------------------------------------------------------------------------------- outputs
@dataclass
class OutputCheck:
    """One output array compared with another (``against`` says which: "real" or "reference")."""

    name: str
    against: str
    dtype: str
    shape: list[int]
    rtol: float
    atol: float
    ok: bool
    elements: int = 0
    bad: int = 0
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    first_bad: list[int] | None = None
    note: str = ""

    def line(self) -> str:
        shape = "x".join(str(s) for s in self.shape) or "scalar"
        head = f"{self.name} {self.dtype}[{shape}] vs {self.against}:"
        if self.note and not self.elements:
            return f"{head} {self.note}  {'OK' if self.ok else 'DIFFERS'}"
        err = f"max abs err {_g(self.max_abs_err)}, max rel err {_g(self.max_rel_err)}"
        tol = f"rtol={self.rtol:g} atol={self.atol:g}"
        where = f", first at {tuple(self.first_bad)}" if self.first_bad else ""
        return (f"{head} {err}; {self.bad:,} of {self.elements:,} outside {tol}{where}  "
                f"{'OK' if self.ok else 'DIFFERS'}")


def compare_output(name: str, got: Any, want: Any, *, against: str = "real", rtol: float | None = None,
                   atol: float | None = None) -> OutputCheck:
    """Compare ``got`` (simulated) with ``want``: ``|got - want| <= atol + rtol * |want|`` everywhere.

    ``rtol``/``atol`` default to :func:`dtype_tolerance` of ``want``'s dtype; a given value only
    ever loosens the dtype's default (a case asking for rtol=1e-4 on float32 gets 1e-4).
    """
    g = np.asarray(got)
    w = np.asarray(want)
    d_rtol, d_atol = dtype_tolerance(w.dtype if w.dtype != object else g.dtype)
    rtol = max(d_rtol, rtol) if rtol is not None else d_rtol
    atol = max(d_atol, atol) if atol is not None else d_atol
    base = dict(name=name, against=against, dtype=str(w.dtype), shape=list(w.shape), rtol=float(rtol),
                atol=float(atol))
    if g.shape != w.shape:
        if g.size == w.size:
            g = g.reshape(w.shape)
        else:
            return OutputCheck(**base, ok=False, note=f"shape {tuple(g.shape)} != {tuple(w.shape)}")
    if w.size == 0:
        return OutputCheck(**base, ok=True, note="empty")
    if w.dtype.kind in "biu" and g.dtype.kind in "biu" and rtol == 0 and atol == 0:
        bad = g != w
        err = np.abs(g.astype(np.float64) - w.astype(np.float64))
    else:
        gf = g.astype(np.complex128 if np.iscomplexobj(g) or np.iscomplexobj(w) else np.float64)
        wf = w.astype(gf.dtype)
        err = np.abs(gf - wf)
        both_nan = np.isnan(gf) & np.isnan(wf) if gf.dtype.kind == "f" else np.zeros(w.shape, bool)
        same_inf = (gf == wf)
        bad = ~((err <= atol + rtol * np.abs(wf)) | both_nan | same_inf)
    finite = np.where(np.isfinite(err), err, np.inf)
    denom = np.maximum(np.abs(w.astype(np.float64) if w.dtype.kind not in "c" else np.abs(w)), 1e-300)
    rel = finite / denom
    n_bad = int(bad.sum())
    first = [int(i) for i in np.unravel_index(int(np.argmax(bad)), bad.shape)] if n_bad else None
    return OutputCheck(**base, ok=n_bad == 0, elements=int(w.size), bad=n_bad,
                       max_abs_err=_f(finite.max()), max_rel_err=_f(rel.max()), first_bad=first)


# --------------------------------------------------------------------------------- metrics
@dataclass(frozen=True)
class Expectation:
    """How closely a metric should agree: ``exact``, ``rel`` (fraction), ``abs`` (points), ``info``."""

    kind: str
    tolerance: float = 0.0

    def describe(self) -> str:
        if self.kind == "exact":
            return "exact"
        if self.kind == "rel":
            return f"±{100 * self.tolerance:g}%"
        if self.kind == "abs":
            return f"±{self.tolerance:g} pt"
        return "info"


_EXACT = [
    r"^l1tex__t_requests_pipe_lsu_mem_\w+_op_\w+\.sum$",
    r"^l1tex__t_sectors_pipe_lsu_mem_(global|local)_op_(ld|st|atom|red)\.sum$",
    # per op only: the total (no _op_) also counts wavefronts of other shared-pipe traffic on the
    # real GPU (one per warp in kernels with no shared memory at all: H200, 2026-11-29)
    r"^l1tex__data_pipe_lsu_wavefronts_mem_shared_op_\w+\.sum$",
    # ncu's attribution to SASS instructions: no arbitration wavefronts (validation/shared_sass)
    r"^(sm|smsp)__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_(ld|st|ldsm|stsm|atom|ldgsts)\.sum$",
    r"^smsp__sass_inst_executed_op_(global|shared|local|generic)_(ld|st|atom|red)\.sum$",
    r"^lts__t_sectors_srcunit_tex_op_(write|atom|red)\.sum$",
    r"^launch__(grid_size|block_size|shared_mem_per_block_static|shared_mem_per_block_dynamic)$",
]
_REL = [
    (r"^lts__t_sectors_srcunit_tex_op_read\.sum$", 0.02),
    (r"^dram__(bytes|sectors)_read\.sum$", 0.05),
    (r"^l1tex__data_bank_conflicts_pipe_lsu_mem_shared(_op_\w+)?\.sum$", 0.10),
    (r"^l1tex__t_sectors_pipe_lsu_mem_\w+_lookup_(hit|miss)\.sum$", 0.05),
    (r"^lts__t_sectors_srcunit_tex(_lookup_(hit|miss))?\.sum$", 0.05),
]
_ABS = [
    (r"^l1tex__t_sector_hit_rate\.pct$", 3.0),
    (r"^lts__t_sector(_op_\w+)?_hit_rate\.pct$", 10.0),
]


def expectation(metric: str) -> Expectation:
    """What agreement to expect between simulated and real values of ``metric`` (see module doc)."""
    if any(re.match(p, metric) for p in _EXACT):
        return Expectation("exact")
    for pattern, tol in _REL:
        if re.match(pattern, metric):
            return Expectation("rel", tol)
    for pattern, tol in _ABS:
        if re.match(pattern, metric):
            return Expectation("abs", tol)
    return Expectation("info")


@dataclass
class MetricRow:
    """One metric of one launch, simulated against real."""

    metric: str
    simulated: float | None
    real: float | None
    abs_err: float | None
    rel_err: float | None
    expect: str
    status: str  # "match", "close", "off", "info", "n/a"


def metric_row(metric: str, simulated: float | None, real: float | None) -> MetricRow:
    """Compare one value; ``status`` says whether it meets :func:`expectation` (``close``: within it)."""
    exp = expectation(metric)
    sim = _f(simulated)
    rea = _f(real)
    if sim is None or rea is None:
        return MetricRow(metric, sim, rea, None, None, exp.describe(), "n/a")
    abs_err = sim - rea
    rel_err = abs_err / abs(rea) if rea != 0 else (0.0 if sim == 0 else None)
    if exp.kind == "info":
        status = "info"
    elif sim == rea:
        status = "match"
    elif exp.kind == "exact":
        status = "off"
    elif exp.kind == "rel":
        status = "close" if rel_err is not None and abs(rel_err) <= exp.tolerance else "off"
    else:
        status = "close" if abs(abs_err) <= exp.tolerance else "off"
    return MetricRow(metric, sim, rea, abs_err, rel_err, exp.describe(), status)


# Rows come in this order; the rest alphabetically after them.
METRIC_ORDER = [
    "launch__grid_size", "launch__block_size", "launch__registers_per_thread",
    "smsp__inst_executed.sum", "smsp__thread_inst_executed.sum",
    "smsp__sass_inst_executed_op_global_ld.sum", "smsp__sass_inst_executed_op_global_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__t_sector_hit_rate.pct", "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum", "lts__t_sector_hit_rate.pct",
    "dram__bytes_read.sum", "dram__bytes_write.sum",
    "gpu__time_duration.sum", "sm__cycles_elapsed.avg", "gpc__cycles_elapsed.max",
]
_ORDER = {m: i for i, m in enumerate(METRIC_ORDER)}
# ncu columns that describe the device or the profiler, not the launch: never compared.
_SKIP_PREFIXES = ("device__", "nvlink__", "numa__", "c2clink__", "profiler__", "launch__kernel_name")


def compare_metrics(simulated: dict[str, Any] | None, real: dict[str, Any] | None,
                    names: list[str] | None = None) -> list[MetricRow]:
    """One :class:`MetricRow` per metric: ``names`` if given, else every simulated metric that ncu
    also reported plus every non-launch metric ncu reported that the simulator does not have."""
    simulated = simulated or {}
    real = real or {}
    if names is None:
        cand = {k for k in simulated if not k.startswith("simgpu__")}
        cand |= {k for k, v in real.items() if _num(v) is not None and not k.startswith(_SKIP_PREFIXES)
                 and not k.startswith("launch__") and (k.endswith((".sum", ".pct")) or k in _ORDER)}
        names = sorted(cand, key=lambda m: (_ORDER.get(m, len(_ORDER)), m))
    return [metric_row(m, _num(simulated.get(m)), _num(real.get(m))) for m in names]


# --------------------------------------------------------------------------------- timing
@dataclass
class TimingRow:
    """Kernel time of one launch: simulated, ncu's gpu__time_duration (median) and CUDA events."""

    simulated_ns: float | None = None
    ncu_ns_median: float | None = None
    ncu_ns_runs: list[float] = field(default_factory=list)
    event_us_median: float | None = None
    event_us_min: float | None = None
    event_runs: int = 0
    rel_err: float | None = None  # simulated vs ncu median

    def finish(self) -> TimingRow:
        if self.ncu_ns_runs and self.ncu_ns_median is None:
            self.ncu_ns_median = float(np.median(self.ncu_ns_runs))
        if self.simulated_ns is not None and self.ncu_ns_median:
            self.rel_err = (self.simulated_ns - self.ncu_ns_median) / self.ncu_ns_median
        return self

    def line(self) -> str:
        ncu = (f"{self.ncu_ns_median:,.0f} ns (median of {len(self.ncu_ns_runs) or 1})"
               if self.ncu_ns_median is not None else "n/a")
        ev = (f"{self.event_us_median:,.2f} us (median of {self.event_runs}, launch overhead included)"
              if self.event_us_median is not None else "n/a")
        sim = f"{self.simulated_ns:,.0f} ns" if self.simulated_ns is not None else "n/a"
        err = f" ({100 * self.rel_err:+.1f}% vs ncu)" if self.rel_err is not None else ""
        return f"time: simulated {sim}{err}; ncu gpu__time_duration {ncu}; CUDA events {ev}"


# --------------------------------------------------------------------------------- cases
@dataclass
class LaunchResult:
    """One kernel launch of a case: its counters and time, simulated against real."""

    index: int
    kernel: str
    grid: list[int]
    block: list[int]
    metrics: list[MetricRow] = field(default_factory=list)
    timing: TimingRow = field(default_factory=TimingRow)
    real_kernel: str | None = None  # the kernel name ncu reported for the matched row

    def counts(self) -> dict[str, int]:
        c: dict[str, int] = {}
        for r in self.metrics:
            c[r.status] = c.get(r.status, 0) + 1
        return c


@dataclass
class CaseResult:
    """One crosscheck case: a kernel launch, a built-in program or one spec of a suite."""

    name: str
    kind: str  # "kernel", "program", "spec"
    launches: list[LaunchResult] = field(default_factory=list)
    outputs: list[OutputCheck] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    real_ran: bool = False

    @property
    def outputs_ok(self) -> bool:
        """No output differs (outputs against the reference count too) and nothing failed."""
        return all(o.ok for o in self.outputs) and not self.errors

    def metric_summary(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for lr in self.launches:
            for k, v in lr.counts().items():
                total[k] = total.get(k, 0) + v
        return total


@dataclass
class CrosscheckReport:
    """Everything one crosscheck found; ``table()`` for people, ``to_json()`` for programs."""

    cases: list[CaseResult] = field(default_factory=list)
    preset: str = "h200"
    device: dict[str, Any] = field(default_factory=dict)   # the real GPU's properties, if any
    property_warnings: list[str] = field(default_factory=list)
    gpu_status: str = ""       # why the real half did not run, or "" when it did
    ncu_status: str = ""       # what happened with ncu
    created: str = field(default_factory=lambda: _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"))
    environment: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(c.outputs_ok for c in self.cases)

    @property
    def exit_code(self) -> int:
        """0 when every output agrees (and nothing failed), 1 otherwise."""
        return 0 if self.ok else 1

    # ---- JSON -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return _clean(asdict(self))

    def to_json(self, indent: int = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    def write_json(self, path: str | Path) -> Path:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(self.to_json() + "\n")
        return p

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CrosscheckReport:
        cases = []
        for c in data.get("cases", []):
            launches = [LaunchResult(index=lr["index"], kernel=lr["kernel"], grid=lr["grid"], block=lr["block"],
                                     metrics=[MetricRow(**m) for m in lr.get("metrics", [])],
                                     timing=TimingRow(**lr.get("timing", {})), real_kernel=lr.get("real_kernel"))
                        for lr in c.get("launches", [])]
            cases.append(CaseResult(name=c["name"], kind=c["kind"], launches=launches,
                                    outputs=[OutputCheck(**o) for o in c.get("outputs", [])],
                                    errors=list(c.get("errors", [])), notes=dict(c.get("notes", {})),
                                    real_ran=c.get("real_ran", False)))
        keys = ("preset", "device", "property_warnings", "gpu_status", "ncu_status", "created", "environment")
        return cls(cases=cases, **{k: data[k] for k in keys if k in data})

    def rescore(self) -> CrosscheckReport:
        """Recompute every metric row's expectation and status from its values (after the
        expectations changed); the values themselves are kept."""
        for case in self.cases:
            for lr in case.launches:
                lr.metrics = [metric_row(r.metric, r.simulated, r.real) for r in lr.metrics]
        return self

    @classmethod
    def read_json(cls, path: str | Path) -> CrosscheckReport:
        return cls.from_dict(json.loads(Path(path).read_text()))

    # ---- text -------------------------------------------------------------------------------
    def table(self, all_metrics: bool = False) -> str:
        """The side-by-side report: per case, outputs, then per launch the metric table and times."""
        out: list[str] = []
        if self.gpu_status:
            out.append(self.gpu_status)
        if self.device:
            out.append(f"real GPU: {self.device.get('name', '?')} (preset {self.preset})")
        out.extend(f"warning: {w}" for w in self.property_warnings)
        if self.ncu_status:
            out.append(f"ncu: {self.ncu_status}")
        for case in self.cases:
            out.append("")
            out.append(f"== {case.name} ({case.kind}) ==")
            out.extend(f"  error: {e}" for e in case.errors)
            out.extend(f"  output {o.line()}" for o in case.outputs)
            for lr in case.launches:
                g = "x".join(map(str, lr.grid))
                b = "x".join(map(str, lr.block))
                out.append(f"  -- launch {lr.index}: {lr.kernel}  grid {g}  block {b}")
                rows = lr.metrics if all_metrics else [r for r in lr.metrics if r.status != "n/a" or
                                                       r.metric in _ORDER]
                if rows:
                    out.append(_metric_table(rows, indent="     "))
                out.append("     " + lr.timing.line())
        out.append("")
        out.append(self.summary_table())
        return "\n".join(out)

    def summary_rows(self) -> list[dict[str, Any]]:
        """One row per case: outputs, exact metrics matched, tolerance metrics within, times."""
        rows = []
        for case in self.cases:
            exact = [r for lr in case.launches for r in lr.metrics if r.expect == "exact" and r.status != "n/a"]
            tol = [r for lr in case.launches for r in lr.metrics
                   if r.expect not in ("exact", "info") and r.status != "n/a"]
            sim_t = [lr.timing.simulated_ns for lr in case.launches]
            ncu_t = [lr.timing.ncu_ns_median for lr in case.launches]
            rows.append({
                "case": case_label(case.name, case.kind),
                "outputs": "OK" if case.outputs_ok else "DIFFER",
                "exact": f"{sum(r.status == 'match' for r in exact)}/{len(exact)}" if exact else "n/a",
                "within_tolerance": f"{sum(r.status in ('match', 'close') for r in tol)}/{len(tol)}"
                if tol else "n/a",
                "off": ", ".join(sorted({_short(r.metric) for lr in case.launches for r in lr.metrics
                                         if r.status == "off"})),
                "sim_ns": sum(sim_t) if sim_t and all(t is not None for t in sim_t) else None,
                "ncu_ns": sum(ncu_t) if ncu_t and all(t is not None for t in ncu_t) else None,
            })
        return rows

    def summary_table(self) -> str:
        head = ["case", "outputs", "exact counters", "within tol.", "sim time", "ncu time", "off"]
        body = [[r["case"], r["outputs"], r["exact"], r["within_tolerance"], _ns(r["sim_ns"]),
                 _ns(r["ncu_ns"]), r["off"] or "-"] for r in self.summary_rows()]
        widths = [max(len(str(x)) for x in col) for col in zip(head, *body)] if body else [len(h) for h in head]
        lines = ["summary:", "  " + "  ".join(h.ljust(w) for h, w in zip(head, widths))]
        lines += ["  " + "  ".join(str(x).ljust(w) for x, w in zip(row, widths)) for row in body]
        verdict = "all outputs agree" if self.ok else "SOME OUTPUTS DIFFER"
        lines.append(f"  {len(self.cases)} case(s): {verdict}")
        return "\n".join(lines)

    def markdown(self, title: str = "simgpu crosscheck") -> str:
        """A Markdown page: the summary table, then per case the metric rows that were compared."""
        md = [f"# {title}", ""]
        dev = self.device.get("name") if self.device else None
        md.append(f"- created: {self.created}")
        md.append(f"- preset: `{self.preset}`; real GPU: {dev or 'none (' + (self.gpu_status or '?') + ')'}")
        if self.ncu_status:
            md.append(f"- ncu: {self.ncu_status}")
        for k, v in self.environment.items():
            md.append(f"- {k}: {v}")
        md.extend(f"- warning: {w}" for w in self.property_warnings)
        md += ["", "## Summary", "", markdown_summary(self.to_dict()), ""]
        md += ["## By metric", "", markdown_by_metric(self.to_dict()), ""]
        md += ["## Per case", ""]
        for case in self.cases:
            md.append(f"### {case.name} ({case.kind})")
            md.append("")
            md.extend(f"- error: {e}" for e in case.errors)
            md.extend(f"- output {o.line()}" for o in case.outputs)
            for lr in case.launches:
                md.append(f"- launch {lr.index} `{lr.kernel}` grid {lr.grid} block {lr.block}; {lr.timing.line()}")
            md.append("")
            rows = [r for lr in case.launches for r in lr.metrics if r.status != "n/a"]
            if rows:
                md.append("| launch | metric | simulated | real | rel err | expect | status |")
                md.append("|---|---|---:|---:|---:|---|---|")
                for lr in case.launches:
                    for r in lr.metrics:
                        if r.status == "n/a":
                            continue
                        md.append(f"| {lr.index} | `{r.metric}` | {_v(r.simulated)} | {_v(r.real)} | "
                                  f"{_pct(r.rel_err)} | {r.expect} | {r.status} |")
                md.append("")
        return "\n".join(md)


def markdown_summary(data: dict[str, Any]) -> str:
    """The README summary table (Markdown) from a crosscheck JSON dict: per case, outputs, exact
    counters matched, tolerance metrics within, the largest relative error of each tolerance metric
    family, kernel time real vs simulated."""
    head = ("| case | outputs | exact counters | within tolerance | L2 read sectors | DRAM read | "
            "L1 hit rate (sim / real) | kernel time ncu (sim) | not matching |")
    lines = [head, "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for c in data.get("cases", []):
        rows = [r for lr in c.get("launches", []) for r in lr.get("metrics", [])]
        exact = [r for r in rows if r["expect"] == "exact" and r["status"] != "n/a"]
        tol = [r for r in rows if r["expect"] not in ("exact", "info") and r["status"] != "n/a"]
        ok = all(o["ok"] for o in c.get("outputs", [])) and not c.get("errors")
        outputs = "OK" if ok else "**differ**"
        if not c.get("real_ran"):
            outputs += " (sim only)"

        def worst(metric: str, rows=rows) -> str:
            errs = [r["rel_err"] for r in rows if r["metric"] == metric and r["rel_err"] is not None]
            return "n/a" if not errs else f"{100 * max(errs, key=abs):+.1f}%"

        def hit(rows=rows) -> str:
            rs = [r for r in rows if r["metric"] == "l1tex__t_sector_hit_rate.pct" and r["status"] != "n/a"]
            if not rs:
                return "n/a"
            r = rs[0]
            return f"{r['simulated']:.1f} / {r['real']:.1f}" + (" …" if len(rs) > 1 else "")

        t_ncu = [lr["timing"].get("ncu_ns_median") for lr in c.get("launches", [])]
        t_sim = [lr["timing"].get("simulated_ns") for lr in c.get("launches", [])]
        ncu = _us(sum(t_ncu)) if t_ncu and all(t is not None for t in t_ncu) else "n/a"
        sim = _us(sum(t_sim)) if t_sim and all(t is not None for t in t_sim) else "n/a"
        off = sorted({_short(r["metric"]) for r in rows if r["status"] == "off"})
        lines.append(
            f"| {case_label(c['name'], c['kind'])} | {outputs} | "
            f"{sum(r['status'] == 'match' for r in exact)}/{len(exact)} | "
            f"{sum(r['status'] in ('match', 'close') for r in tol)}/{len(tol)} | "
            f"{worst('lts__t_sectors_srcunit_tex_op_read.sum')} | {worst('dram__bytes_read.sum')} | {hit()} | "
            f"{ncu} ({sim}) | {', '.join(f'`{o}`' for o in off) or '-'} |")
    return "\n".join(lines)


def markdown_by_metric(data: dict[str, Any]) -> str:
    """Per metric, over every launch of every case that has both sides: how often simgpu matches
    (exact metrics) or is within tolerance, and the median and worst relative error."""
    stats: dict[str, list[dict]] = {}
    for c in data.get("cases", []):
        for lr in c.get("launches", []):
            for r in lr.get("metrics", []):
                if r["status"] != "n/a":
                    stats.setdefault(r["metric"], []).append(dict(r, case=case_label(c["name"], c["kind"])))
    lines = ["| metric | expect | launches | match | within tolerance | median rel err | worst (case) |",
             "|---|---|---:|---:|---:|---:|---|"]
    for metric in sorted(stats, key=lambda m: (_ORDER.get(m, len(_ORDER)), m)):
        rows = stats[metric]
        rels = [r["rel_err"] for r in rows if r["rel_err"] is not None]
        worst = max(rows, key=lambda r: abs(r["rel_err"]) if r["rel_err"] is not None else
                    (0.0 if r["abs_err"] == 0 else float("inf")))
        if worst["abs_err"] == 0:
            w = "-"
        else:
            w = _pct(worst["rel_err"]) if worst["rel_err"] is not None else f"{_v(worst['abs_err'], signed=True)} abs"
            w += f" ({worst['case']})"
        within = "-" if rows[0]["expect"] == "info" else str(sum(r["status"] in ("match", "close") for r in rows))
        lines.append(f"| `{metric}` | {rows[0]['expect']} | {len(rows)} | "
                     f"{sum(r['status'] == 'match' or r['abs_err'] == 0 for r in rows)} | {within} | "
                     f"{_pct(float(np.median(rels))) if rels else 'n/a'} | {w} |")
    return "\n".join(lines)


# --------------------------------------------------------------------------------- helpers
def case_label(name: str, kind: str) -> str:
    """``program gemm_tiled``, ``spec vector_add``, ``kernel saxpy``: programs and suite specs may
    share names."""
    return f"{kind} {name}"


def _metric_table(rows: list[MetricRow], indent: str = "") -> str:
    head = ["metric", "simulated", "real", "abs err", "rel err", "expect", "status"]
    body = [[r.metric, _v(r.simulated), _v(r.real), _v(r.abs_err, signed=True), _pct(r.rel_err), r.expect,
             r.status] for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    right = {1, 2, 3, 4}

    def fmt(row):
        return indent + "  ".join(x.rjust(w) if i in right else x.ljust(w)
                                  for i, (x, w) in enumerate(zip(row, widths))).rstrip()

    return "\n".join([fmt(head)] + [fmt(r) for r in body])


def _short(metric: str) -> str:
    return metric.replace("_pipe_lsu_mem", "").replace(".sum", "")


def _v(x: float | None, signed: bool = False) -> str:
    if x is None:
        return "n/a"
    if float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x):+,}" if signed else f"{int(x):,}"
    return f"{x:+,.2f}" if signed else f"{x:,.2f}"


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:+.1f}%"


def _ns(x: float | None) -> str:
    return "n/a" if x is None else f"{x:,.0f} ns"


def _us(x: float) -> str:
    return f"{x / 1000:,.1f} us"


def _g(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3g}"


def _f(x: Any) -> float | None:
    if x is None:
        return None
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def _num(x: Any) -> float | None:
    if isinstance(x, str):
        from simgpu.crosscheck.ncu import parse_number

        x = parse_number(x)
    return _f(x)


def _clean(obj: Any) -> Any:
    """JSON-safe: NaN/inf -> None, NumPy scalars -> Python, tuples -> lists."""
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        v = float(obj)
        return v if math.isfinite(v) else None
    if isinstance(obj, np.ndarray):
        return _clean(obj.tolist())
    if isinstance(obj, (str, int, bool)) or obj is None:
        return obj
    return str(obj)


__all__ = [
    "DTYPE_TOLERANCE", "CaseResult", "CrosscheckReport", "Expectation", "LaunchResult", "MetricRow",
    "OutputCheck", "TimingRow", "compare_metrics", "compare_output", "dtype_tolerance", "expectation",
    "markdown_by_metric", "markdown_summary", "metric_row",
]
