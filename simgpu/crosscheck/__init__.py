"""Cross-check the simulator against a real GPU: same kernel under CuPy, ncu metrics, timings.

    from simgpu.crosscheck import crosscheck
    report = crosscheck("gemm_tiled")                          # a built-in program
    report = crosscheck(suite="calibration/specs.py", json_path="h200.json")
    report = crosscheck(source=src, kernel="k", grid=(64,), block=(256,), args=[x, y, np.int32(n)])

On a machine without CuPy or a GPU only the simulated half runs, and one line says so. Pieces:
:mod:`~simgpu.crosscheck.ncu` (ncu command line and raw-CSV parser), :mod:`~simgpu.crosscheck.compare`
(outputs, metrics, times; tables and JSON), :mod:`~simgpu.crosscheck.gpu` (CuPy, device check, ncu
subprocess), :mod:`~simgpu.crosscheck.runner` (what ncu profiles), :mod:`~simgpu.crosscheck.command`
(the ``simgpu compare`` click command).
"""

from simgpu.crosscheck.api import crosscheck
from simgpu.crosscheck.cases import KernelCase, ProgramCase, kernel_case, load_suite
from simgpu.crosscheck.compare import (
    CaseResult,
    CrosscheckReport,
    MetricRow,
    OutputCheck,
    TimingRow,
    compare_metrics,
    compare_output,
    expectation,
    markdown_summary,
)
from simgpu.crosscheck.ncu import DEFAULT_METRICS, NcuLaunch, ncu_command, parse_ncu_csv


def cli_compare(argv=None) -> int:
    """``simgpu compare ARGS``: returns the exit status (see :mod:`simgpu.crosscheck.command`)."""
    from simgpu.crosscheck.command import cli_compare as _cli

    return _cli(argv)


__all__ = [
    "DEFAULT_METRICS", "CaseResult", "CrosscheckReport", "KernelCase", "MetricRow", "NcuLaunch", "OutputCheck",
    "ProgramCase", "TimingRow", "cli_compare", "compare_metrics", "compare_output", "crosscheck", "expectation",
    "kernel_case", "load_suite", "markdown_summary", "ncu_command", "parse_ncu_csv",
]
