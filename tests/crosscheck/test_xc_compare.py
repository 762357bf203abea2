"""Comparison logic: outputs by dtype, metric expectations, timing, report JSON/table/exit code."""

import json

import numpy as np
import pytest

from simgpu.crosscheck.compare import (
    CaseResult,
    CrosscheckReport,
    LaunchResult,
    TimingRow,
    compare_metrics,
    compare_output,
    dtype_tolerance,
    expectation,
    markdown_summary,
    metric_row,
)


def test_dtype_tolerances():
    assert dtype_tolerance(np.int32) == (0.0, 0.0)
    assert dtype_tolerance(np.uint8) == (0.0, 0.0)
    assert dtype_tolerance(np.bool_) == (0.0, 0.0)
    assert dtype_tolerance(np.float32) == (1e-4, 1e-5)
    assert dtype_tolerance(np.float16)[0] > dtype_tolerance(np.float32)[0] > dtype_tolerance(np.float64)[0]


def test_compare_output_float_and_int():
    a = np.linspace(1, 2, 1000, dtype=np.float32)
    assert compare_output("x", a, a.copy()).ok
    near = a * np.float32(1 + 2e-6)
    assert compare_output("x", near, a).ok                       # within float32 tolerance
    far = a.copy()
    far[17] += 0.01
    chk = compare_output("x", far, a)
    assert not chk.ok and chk.bad == 1 and chk.first_bad == [17]
    assert chk.max_abs_err == pytest.approx(0.01, rel=1e-3)
    assert "1 of 1,000" in chk.line() and "DIFFERS" in chk.line()
    assert compare_output("x", far, a, rtol=0.1).ok                # a case may loosen the tolerance
    i = np.arange(10, dtype=np.int32)
    j = i.copy()
    j[3] += 1
    assert compare_output("i", i, i.copy()).ok
    assert not compare_output("i", j, i).ok                       # integers: exact
    assert not compare_output("s", np.zeros(3), np.zeros(4)).ok   # shape
    nan = np.array([np.nan, 1.0], np.float32)
    assert compare_output("n", nan, nan.copy()).ok                # NaN where NaN is expected
    assert not compare_output("n", nan, np.array([0.0, 1.0], np.float32)).ok


def test_expectations():
    assert expectation("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum").kind == "exact"
    assert expectation("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum").kind == "exact"
    assert expectation("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum").kind == "exact"
    assert expectation("smsp__sass_inst_executed_op_shared_st.sum").kind == "exact"
    assert expectation("lts__t_sectors_srcunit_tex_op_read.sum").kind == "rel"
    assert expectation("dram__bytes_read.sum").tolerance == 0.05
    assert expectation("l1tex__t_sector_hit_rate.pct").kind == "abs"
    assert expectation("lts__t_sector_hit_rate.pct").kind == "abs"
    assert expectation("smsp__inst_executed.sum").kind == "info"   # the SASS count, estimated
    assert expectation("dram__bytes_write.sum").kind == "info"


def test_metric_rows():
    r = metric_row("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1024, 1024)
    assert (r.status, r.abs_err, r.rel_err) == ("match", 0, 0)
    assert metric_row("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1025, 1024).status == "off"
    r = metric_row("dram__bytes_read.sum", 104, 100)
    assert r.status == "close" and r.rel_err == pytest.approx(0.04) and r.abs_err == 4
    assert metric_row("dram__bytes_read.sum", 110, 100).status == "off"
    assert metric_row("l1tex__t_sector_hit_rate.pct", 52.0, 50.0).status == "close"
    assert metric_row("l1tex__t_sector_hit_rate.pct", 60.0, 50.0).status == "off"
    assert metric_row("smsp__inst_executed.sum", 10, 20).status == "info"
    r = metric_row("dram__bytes_read.sum", 5, None)
    assert r.status == "n/a" and r.abs_err is None
    assert metric_row("dram__bytes_read.sum", 5, 0).rel_err is None


def test_compare_metrics_selects_rows():
    sim = {"dram__bytes_read.sum": 100.0, "simgpu__divergent_branches.sum": 3.0, "launch__grid_size": 4.0}
    real = {"dram__bytes_read.sum": "100", "dram__bytes_read.avg": 1.0, "gpu__time_duration.sum": 5000.0,
            "device__attribute_l2_cache_size": 1.0, "launch__grid_size": 4.0, "launch__stack_size": 1024.0,
            "sm__throughput.avg.pct_of_peak_sustained_elapsed": 40.0}
    rows = {r.metric: r for r in compare_metrics(sim, real)}
    assert set(rows) == {"dram__bytes_read.sum", "launch__grid_size", "gpu__time_duration.sum"}
    assert rows["dram__bytes_read.sum"].status == "match"
    assert rows["gpu__time_duration.sum"].status == "n/a"
    only_sim = compare_metrics(sim, None)
    assert {r.metric for r in only_sim} == {"dram__bytes_read.sum", "launch__grid_size"}
    assert all(r.status == "n/a" for r in only_sim)


def test_timing_row():
    t = TimingRow(simulated_ns=None, ncu_ns_runs=[10.0, 30.0, 20.0]).finish()
    assert t.ncu_ns_median == 20.0 and t.rel_err is None
    assert "simulated n/a" in t.line() and "median of 3" in t.line()
    t = TimingRow(simulated_ns=25.0, ncu_ns_runs=[20.0]).finish()
    assert t.rel_err == pytest.approx(0.25)


def _report(ok=True):
    out = compare_output("c", np.ones(4, np.float32), np.ones(4, np.float32) * (1 if ok else 2))
    lr = LaunchResult(0, "k", [4, 1, 1], [256, 1, 1],
                      metrics=compare_metrics({"dram__bytes_read.sum": 104.0,
                                               "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 8.0},
                                              {"dram__bytes_read.sum": 100.0,
                                               "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 8.0}),
                      timing=TimingRow(ncu_ns_runs=[1000.0]).finish())
    return CrosscheckReport(cases=[CaseResult("case1", "kernel", [lr], [out], real_ran=True)])


def test_report_exit_code_table_json_roundtrip(tmp_path):
    good, bad = _report(True), _report(False)
    assert good.exit_code == 0 and bad.exit_code == 1
    text = good.table()
    assert "case1" in text and "dram__bytes_read.sum" in text and "close" in text and "summary:" in text
    path = good.write_json(tmp_path / "r.json")
    data = json.loads(path.read_text())
    assert data["cases"][0]["launches"][0]["metrics"][0]["metric"] in (
        "dram__bytes_read.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")
    again = CrosscheckReport.read_json(path)
    assert again.to_dict() == good.to_dict()
    md = markdown_summary(data)
    assert md.splitlines()[0].startswith("| case |")
    assert "| kernel case1 | OK | 1/1 | 1/1 |" in md and "+4.0%" in md and "1.0 us" in md
    assert "**differ**" in markdown_summary(bad.to_dict())
    assert "## Summary" in good.markdown()
