"""Nsight Compute (ncu) on the command line: build its command, parse its ``--csv --page raw`` output.

ncu's raw CSV page is one header row of column names, one row of units (empty for unit-less
columns), then one row per profiled launch. Numbers carry thousands separators (``"1,048,576"``),
every field is quoted, a metric ncu could not collect reads ``n/a``, and ncu's own lines
(``==PROF==``, ``==WARNING==``) and the profiled program's output may come before, between or
after the table when both write to stdout. :func:`parse_ncu_csv` copes with all of that::

    launches = parse_ncu_csv(Path("h200_ncu_raw.csv").read_text())
    launches[0].kernel, launches[0]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]   # 1048576.0
    launches[0].units["dram__bytes_read.sum"]                                            # "byte"
"""

from __future__ import annotations

import csv
import io
import re
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

# Columns of the raw page that describe the launch rather than measure it.
ID_COLUMNS = ("ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
              "Block Size", "Grid Size", "Device", "CC")

# Metrics the crosscheck asks ncu for. The first group was requested from ncu 2025.3.1 on an H200
# for calibration/ (every name is in the header of calibration/h200_ncu_raw.csv), so it is known to
# be valid on sm_90; the second group is the rest of what simgpu reports under ncu names. Names
# ncu does not know on the device are dropped before profiling (see :func:`filter_known`).
CALIBRATED_METRICS = [
    "dram__bytes_read.sum", "dram__bytes_write.sum",
    "gpc__cycles_elapsed.max", "gpu__time_duration.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sector_hit_rate.pct",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "lts__t_sector_hit_rate.pct",
    "lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
    "sm__cycles_elapsed.avg",
    "smsp__inst_executed.sum", "smsp__thread_inst_executed.sum",
    "smsp__sass_inst_executed_op_global_ld.sum", "smsp__sass_inst_executed_op_global_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum",
]
EXTRA_METRICS = [
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    "smsp__sass_inst_executed_op_global_atom.sum", "smsp__sass_inst_executed_op_global_red.sum",
    "smsp__sass_inst_executed_op_shared_atom.sum",
    "smsp__sass_inst_executed_op_local_ld.sum", "smsp__sass_inst_executed_op_local_st.sum",
    "smsp__thread_inst_executed_pred_on.sum",
    "lts__t_sectors_srcunit_tex_op_atom.sum", "lts__t_sectors_srcunit_tex_op_red.sum",
    "lts__t_sector_op_read_hit_rate.pct", "lts__t_sector_op_write_hit_rate.pct",
    "dram__sectors_read.sum", "dram__sectors_write.sum",
    # shared wavefronts as ncu attributes them to SASS instructions (no bank arbitration with other
    # traffic: benchmarks/microbench/smem_arbitration)
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
]
DEFAULT_METRICS = CALIBRATED_METRICS + EXTRA_METRICS
# What the calibration's second ncu pass collected, over several launches, for kernel duration.
TIME_METRICS = ["gpu__time_duration.sum", "sm__cycles_elapsed.avg", "gpc__cycles_elapsed.max"]


def parse_number(text: str) -> float | str | None:
    """A raw-page value: ``"1,048,576"`` -> 1048576.0, ``"35.04"`` -> 35.04, ``"n/a"``/"" -> None.

    Anything else (``"PolicySpread"``, ``"(256, 1, 1)"``) comes back as the string it is.
    """
    s = text.strip()
    if s == "" or s.lower() in ("n/a", "na", "nan", "-"):
        return None
    t = s.replace(",", "")
    try:
        return float(t)
    except ValueError:
        return s


@dataclass
class NcuLaunch:
    """One row of the raw page: a profiled launch with its metrics (numbers, strings or None)."""

    id: int
    kernel: str
    block: str = ""
    grid: str = ""
    device: str = ""
    metrics: dict[str, float | str | None] = field(default_factory=dict)
    units: dict[str, str] = field(default_factory=dict)
    columns: dict[str, str] = field(default_factory=dict)  # the identifying columns, as written

    def __getitem__(self, name: str) -> float | str | None:
        return self.metrics[name]

    def get(self, name: str, default=None):
        return self.metrics.get(name, default)

    def numeric(self) -> dict[str, float]:
        """Only the metrics that are numbers."""
        return {k: v for k, v in self.metrics.items() if isinstance(v, float)}

    def to_dict(self) -> dict:
        return {"id": self.id, "kernel": self.kernel, "block": self.block, "grid": self.grid,
                "metrics": self.metrics, "units": self.units}


def parse_ncu_csv(text: str) -> list[NcuLaunch]:
    """Parse ncu ``--csv --page raw`` output (possibly mixed with other lines) into launches.

    Several tables in one text (several ncu runs appended) are all read, in order. Rows that do not
    have the header's width (ncu's ``==PROF==`` lines, the program's own output) are skipped.
    """
    launches: list[NcuLaunch] = []
    header: list[str] | None = None
    units: list[str] | None = None
    for line in text.splitlines():
        if not line.strip() or line.startswith("=="):
            continue
        try:
            row = next(csv.reader(io.StringIO(line)))
        except (csv.Error, StopIteration):
            continue
        if row and row[0] == "ID" and "Kernel Name" in row:
            header, units = row, None
            continue
        if header is None or len(row) != len(header):
            continue
        if units is None and not row[0].strip():  # the units row: no launch ID
            units = row
            continue
        launches.append(_launch(header, units or [""] * len(header), row))
    return launches


def _launch(header: list[str], units: list[str], row: list[str]) -> NcuLaunch:
    cols = dict(zip(header, row))
    metrics: dict[str, float | str | None] = {}
    unit_of: dict[str, str] = {}
    for name, unit, value in zip(header, units, row):
        if name in ID_COLUMNS:
            continue
        metrics[name] = parse_number(value)
        if unit:
            unit_of[name] = unit
    try:
        ident = int(cols.get("ID", "0").replace(",", ""))
    except ValueError:
        ident = -1
    return NcuLaunch(id=ident, kernel=cols.get("Kernel Name", ""), block=cols.get("Block Size", ""),
                     grid=cols.get("Grid Size", ""), device=cols.get("Device", ""), metrics=metrics,
                     units=unit_of, columns={k: cols[k] for k in ID_COLUMNS if k in cols})


def ncu_available() -> str | None:
    """Path of the ``ncu`` executable, or None when it is not on PATH."""
    return shutil.which("ncu")


def kernel_regex(names: Iterable[str]) -> str:
    """ncu's ``-k`` value that selects exactly these kernel names: ``regex:^(a|b)$``."""
    uniq = sorted({n for n in names if n})
    return "regex:^(" + "|".join(re.escape(n) for n in uniq) + ")$"


def ncu_command(metrics: Sequence[str], target: Sequence[str], *, ncu: str = "ncu",
                kernels: Iterable[str] | None = None, launch_skip: int | None = None,
                launch_count: int | None = None, cache_control: str | None = None,
                extra: Sequence[str] = ()) -> list[str]:
    """The argv that profiles ``target`` (a command, e.g. ``[python, -m, simgpu.crosscheck.runner, ...]``).

    ``--clock-control none`` leaves the GPU's clocks alone (as the calibration did); caches are
    flushed before each profiled launch unless ``cache_control="none"``. ``kernels`` limits the
    profiled launches to those kernel names (``-k regex:^(a|b)$``); ``launch_skip`` /
    ``launch_count`` select launches by position among the matching ones.
    """
    if not metrics:
        raise ValueError("ncu_command needs at least one metric")
    cmd = [ncu, "--csv", "--page", "raw", "--clock-control", "none", "--metrics", ",".join(metrics)]
    if cache_control:
        cmd += ["--cache-control", cache_control]
    if kernels:
        cmd += ["-k", kernel_regex(kernels)]
    if launch_skip:
        cmd += ["--launch-skip", str(int(launch_skip))]
    if launch_count:
        cmd += ["--launch-count", str(int(launch_count))]
    cmd += list(extra)
    cmd += list(target)
    return cmd


def query_metric_bases(output: str) -> set[str]:
    """Base metric names from ``ncu --query-metrics`` output (first word of each table row)."""
    bases = set()
    for line in output.splitlines():
        word = line.strip().split(" ", 1)[0].strip('",')
        if "__" in word and re.fullmatch(r"[a-z0-9_]+__[A-Za-z0-9_]+", word):
            bases.add(word)
    return bases


def metric_base(name: str) -> str:
    """``dram__bytes_read.sum`` -> ``dram__bytes_read``; ``l1tex__t_sector_hit_rate.pct`` -> its base."""
    return name.split(".", 1)[0]


def filter_known(metrics: Sequence[str], bases: set[str]) -> tuple[list[str], list[str]]:
    """Split ``metrics`` into (known to this ncu, unknown). An empty ``bases`` keeps them all."""
    if not bases:
        return list(metrics), []
    keep = [m for m in metrics if metric_base(m) in bases]
    drop = [m for m in metrics if metric_base(m) not in bases]
    return keep, drop


_UNKNOWN_RE = re.compile(r"(?:Failed to find metric|metric[s]? not found|Unknown metric)[^A-Za-z0-9_]*"
                         r"([a-z0-9_]+__[A-Za-z0-9_.]+)", re.IGNORECASE)


def unknown_metrics_in_error(output: str) -> list[str]:
    """Metric names ncu complained about (``==ERROR== Failed to find metric X``)."""
    return sorted({m.rstrip(".") for m in _UNKNOWN_RE.findall(output)})


__all__ = [
    "CALIBRATED_METRICS", "DEFAULT_METRICS", "EXTRA_METRICS", "TIME_METRICS", "NcuLaunch", "filter_known",
    "kernel_regex", "metric_base", "ncu_available", "ncu_command", "parse_ncu_csv", "parse_number",
    "query_metric_bases", "unknown_metrics_in_error",
]
