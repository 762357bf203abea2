"""The crosscheck end to end: without CuPy (simulated half only, one-line message), with a CuPy
stand-in built on simgpu plus a stand-in ncu (the whole real-half pipeline, no GPU needed), and on a
real GPU when there is one."""

import json

import numpy as np
import pytest

from simgpu.crosscheck import crosscheck, kernel_case
from simgpu.crosscheck.gpu import align_rows, check_properties, gpu_status, preset_properties
from simgpu.crosscheck.ncu import NcuLaunch

SRC = r"""
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""
N = 1000


def _args():
    rng = np.random.default_rng(0)
    return [np.float32(2.0), rng.random(N, dtype=np.float32), rng.random(N, dtype=np.float32), np.int32(N)]


def _saxpy(**kw):
    args = _args()
    return crosscheck(source=SRC, kernel="saxpy", grid=(4,), block=(256,), args=args, outputs=[2],
                      reference=lambda a, x, y, n: [a * x + y], **kw)


def test_no_cupy_runs_simulated_half_with_one_line(no_cupy, capsys):
    assert gpu_status().startswith("simgpu crosscheck: CuPy is not installed")
    report = _saxpy()
    out = capsys.readouterr().out
    lines = [ln for ln in out.splitlines() if "CuPy is not installed" in ln]
    assert len(lines) == 1 and "simulated half" in lines[0]
    assert report.gpu_status == lines[0]
    case = report.cases[0]
    assert not case.real_ran and case.outputs_ok and report.exit_code == 0
    assert [o.against for o in case.outputs] == ["reference"]
    rows = {r.metric: r for r in case.launches[0].metrics}
    assert rows["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"].simulated == 64
    assert rows["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"].status == "n/a"
    assert case.launches[0].timing.simulated_ns is None or case.launches[0].timing.simulated_ns > 0
    assert "n/a" in case.launches[0].timing.line()


def test_wrong_reference_gives_exit_code_1(no_cupy):
    args = _args()
    report = crosscheck(source=SRC, kernel="saxpy", grid=(4,), block=(256,), args=args, outputs=[2],
                        reference=lambda a, x, y, n: [a * x], echo=None)
    assert report.exit_code == 1 and not report.cases[0].outputs_ok


def test_suite_file_sim_only(no_cupy, calib_dir, tmp_path):
    report = crosscheck(suite=calib_dir / "specs.py", specs=["transpose_padded"], echo=None,
                        json_path=tmp_path / "x.json", markdown_path=tmp_path / "x.md")
    assert [c.name for c in report.cases] == ["transpose_padded"] and report.exit_code == 0
    data = json.loads((tmp_path / "x.json").read_text())
    assert data["cases"][0]["kind"] == "spec" and "transpose_padded" in (tmp_path / "x.md").read_text()


def test_builtin_program_sim_only(no_cupy):
    pytest.importorskip("simgpu.programs")
    report = crosscheck("transpose_padded", size={"rows": 64, "cols": 96}, echo=None)
    case = report.cases[0]
    assert case.kind == "program" and case.launches and case.launches[0].kernel == "transpose_padded"


def test_cli_sim_only(no_cupy, tmp_path, capsys):
    from simgpu.crosscheck import cli_compare

    cu = tmp_path / "k.cu"
    cu.write_text(SRC)
    code = cli_compare(["--kernel", f"{cu}:saxpy", "--grid", "4", "--block", "256", "--arg", "f32:2",
                        "--arg", "rand:f32:1000", "--arg", "rand:f32:1000", "--arg", "i32:1000",
                        "--output", "2", "--json", str(tmp_path / "o.json")])
    assert code == 0
    assert "CuPy is not installed" in capsys.readouterr().out
    assert json.loads((tmp_path / "o.json").read_text())["cases"][0]["name"] == "saxpy"
    assert cli_compare([]) != 0  # nothing to compare: a usage error


def test_click_command_object():
    import click

    from simgpu.crosscheck.command import compare

    assert isinstance(compare, click.Command) and compare.name == "compare"


def test_fake_gpu_pipeline(fake_gpu, capsys):
    """The real half's code path, with CuPy replaced by simgpu and ncu by a script."""
    report = _saxpy(runs=3, warmup=1, ncu_time_runs=2)
    case = report.cases[0]
    assert report.gpu_status == "" and case.real_ran, case.errors
    assert report.device["name"] == "NVIDIA H200" and report.device["multiprocessor_count"] == 132
    # the stand-in reports a lower clock than the preset: one warning, nothing else
    assert len(report.property_warnings) == 1 and "clock_rate_khz" in report.property_warnings[0]
    assert [o.against for o in case.outputs] == ["real", "reference", "reference"]
    assert case.outputs_ok and report.exit_code == 0
    lr = case.launches[0]
    assert lr.real_kernel == "saxpy"       # CuPy's own kernel row was skipped
    rows = {r.metric: r for r in lr.metrics}
    assert rows["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"].real == 1234
    assert rows["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"].status == "off"   # 64 vs the fake 1,234
    assert rows["l1tex__t_sector_hit_rate.pct"].real is None                          # n/a in the CSV
    assert lr.timing.ncu_ns_runs == [1234.0, 1234.0] and lr.timing.event_runs == 3
    assert "dropped metrics unknown to this ncu" in report.ncu_status   # filtered by --query-metrics


def test_fake_gpu_program(fake_gpu):
    pytest.importorskip("simgpu.programs")
    report = crosscheck("reduce_atomic", size={"n": 1000, "blocks": 4, "threads": 64}, runs=2, warmup=1,
                        ncu_time_runs=0, echo=None)
    case = report.cases[0]
    assert case.real_ran, case.errors
    assert [lr.kernel for lr in case.launches] == ["reduce_atomic"]
    assert case.launches[0].real_kernel == "reduce_atomic"
    assert any(o.against == "real" for o in case.outputs)


def test_property_check_and_alignment():
    want = preset_properties("h200")
    assert want["multiprocessor_count"] == 132 and want["l2_cache_size"] == 62_914_560
    same = dict(want, name="NVIDIA H200")
    assert check_properties(same, "h200") == []
    warn = check_properties(dict(same, multiprocessor_count=114), "h200")
    assert len(warn) == 1 and "multiprocessor_count" in warn[0] and "114" in warn[0]
    assert any("preset in use" in w for w in check_properties(dict(want, name="NVIDIA A100-SXM4-80GB"), "h200"))
    rows = [NcuLaunch(0, "cupy_fill"), NcuLaunch(1, "a"), NcuLaunch(2, "b"), NcuLaunch(3, "a"),
            NcuLaunch(4, "void c<int>(int*)")]
    order = [[0, 0, 0, "a"], [0, 0, 1, "b"], [1, 0, 0, "a"], [2, 0, 0, "c"]]
    aligned = align_rows(rows, order, 3)
    assert [[r.id for r in lr] for lr in aligned[0]] == [[1], [2]]
    assert [[r.id for r in lr] for lr in aligned[1]] == [[3]]
    assert [[r.id for r in lr] for lr in aligned[2]] == [[4]]


def test_kernel_case_rejects_python_scalars():
    with pytest.raises(TypeError, match="NumPy scalars"):
        kernel_case(SRC, "saxpy", 4, 256, [2.0, np.zeros(4, np.float32)])


@pytest.mark.skipif("not __import__('simgpu.crosscheck.gpu', fromlist=['x']).gpu_status() == ''",
                    reason="needs CuPy and a CUDA GPU")
def test_real_gpu():
    cupy = pytest.importorskip("cupy")
    assert cupy.cuda.runtime.getDeviceCount() > 0
    report = _saxpy(runs=5, warmup=1, ncu_time_runs=0)
    case = report.cases[0]
    assert case.real_ran and case.outputs_ok, case.errors
    assert case.launches[0].timing.event_runs == 5


def test_preferred_carveout_travels_with_the_case(no_cupy):
    """A case's carveout (the kernel's preferred_shared_memory_carveout) survives the plan the
    real-GPU runner rebuilds it from, and the simulated side launches with it: 57 % of 228 KB asks
    for the 132 KB carveout (benchmarks/microbench/l1_geometry)."""
    from simgpu.crosscheck.cases import from_plan

    case = kernel_case(SRC, "saxpy", (4,), (256,), _args(), outputs=[2], carveout=57)
    assert from_plan(case.plan()).carveout == 57
    report = crosscheck(case, real=False, echo=None)
    rows = {r.metric: r for r in report.cases[0].launches[0].metrics}
    assert rows["launch__shared_mem_config_size"].simulated == 132 * 1024
    default = crosscheck(kernel_case(SRC, "saxpy", (4,), (256,), _args(), outputs=[2]), real=False, echo=None)
    rows = {r.metric: r for r in default.cases[0].launches[0].metrics}
    assert rows["launch__shared_mem_config_size"].simulated == 32 * 1024
