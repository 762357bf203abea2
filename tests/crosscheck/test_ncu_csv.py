"""Parsing ncu's raw CSV page (the committed H200 measurements) and building ncu command lines."""

import json

import pytest

from simgpu.crosscheck.ncu import (
    DEFAULT_METRICS,
    filter_known,
    kernel_regex,
    ncu_command,
    parse_ncu_csv,
    parse_number,
    query_metric_bases,
    unknown_metrics_in_error,
)


def test_parse_number():
    assert parse_number("1,048,576") == 1048576.0
    assert parse_number("699,157.33") == pytest.approx(699157.33)
    assert parse_number("35.04") == 35.04
    assert parse_number("0") == 0.0
    assert parse_number("n/a") is None and parse_number("") is None
    assert parse_number("PolicySpread") == "PolicySpread"
    assert parse_number("(256, 1, 1)") == "(256, 1, 1)"


def test_raw_csv_launches_and_values(calib_dir):
    launches = parse_ncu_csv((calib_dir / "h200_ncu_raw.csv").read_text())
    assert [x.kernel for x in launches] == ["vector_add"] + ["strided_copy"] * 5 + [
        "transpose_naive", "transpose_padded", "gemm_naive", "gemm_tiled"]
    assert [x.id for x in launches] == list(range(10))
    va = launches[0]
    assert va.block == "(256, 1, 1)" and va.grid == "(16384, 1, 1)"
    # thousands separators
    assert va["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 1_048_576
    assert va["dram__bytes_read.sum"] == 33_559_552
    assert va["dram__bytes_read.avg"] == pytest.approx(699_157.33)
    assert va["device__attribute_l2_cache_size"] == 62_914_560
    assert va["device__attribute_display_name"] == "NVIDIA H200"
    assert va["launch__cluster_scheduling_policy"] == "PolicySpread"
    # the units row
    assert va.units["dram__bytes_read.sum"] == "byte"
    assert va.units["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == "sector"
    assert va.units["gpu__time_duration.sum"] == "ns"
    assert va.units["lts__t_sector_hit_rate.pct"] == "%"
    assert "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum" not in va.units  # unit-less
    # the ID columns are not metrics
    assert "Kernel Name" not in va.metrics and "ID" not in va.metrics
    assert launches[6]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] > 0


def test_raw_csv_matches_committed_json(calib_dir):
    launches = parse_ncu_csv((calib_dir / "h200_ncu_raw.csv").read_text())
    entries = json.loads((calib_dir / "h200_metrics.json").read_text())
    assert len(launches) == len(entries)
    for launch, entry in zip(launches, entries):
        assert launch.kernel == entry["kernel"]
        for name, text in entry["metrics"].items():
            assert launch[name] == parse_number(text), (entry["name"], name)


def test_time7_csv_gives_the_committed_medians(calib_dir):
    import numpy as np

    launches = parse_ncu_csv((calib_dir / "h200_ncu_time7.csv").read_text())
    entries = json.loads((calib_dir / "h200_metrics.json").read_text())
    assert len(launches) == 7 * len(entries)
    for i, entry in enumerate(entries):
        runs = launches[7 * i: 7 * i + 7]
        assert {r.kernel for r in runs} == {entry["kernel"]}
        times = [r["gpu__time_duration.sum"] for r in runs]
        assert times == entry["gpu_time_ns_7runs"]
        assert np.median(times) == entry["gpu_time_ns_median"]


def test_mixed_output_na_and_several_tables():
    text = "\n".join([
        "==PROF== Connected to process 1",
        "program output, with, commas",
        '"ID","Process ID","Kernel Name","Block Size","Grid Size","Device","a__x.sum","b__y.pct"',
        '"","","","","","","byte","%"',
        '"0","1","k1","(32, 1, 1)","(1, 1, 1)","0","1,234,567","n/a"',
        "==PROF== Disconnected",
        '"ID","Process ID","Kernel Name","Block Size","Grid Size","Device","a__x.sum"',
        '"","","","","","",""',
        '"0","2","k2","(64, 1, 1)","(2, 1, 1)","0","7"',
    ])
    rows = parse_ncu_csv(text)
    assert [r.kernel for r in rows] == ["k1", "k2"]
    assert rows[0]["a__x.sum"] == 1234567 and rows[0]["b__y.pct"] is None
    assert rows[0].units == {"a__x.sum": "byte", "b__y.pct": "%"}
    assert rows[1]["a__x.sum"] == 7 and rows[1].units == {}
    assert rows[0].numeric() == {"a__x.sum": 1234567.0}


def test_ncu_command():
    cmd = ncu_command(["a__x.sum", "b__y.pct"], ["python", "-m", "simgpu.crosscheck.runner"],
                      kernels=["vector_add", "gemm_tiled"], launch_skip=2, launch_count=3)
    assert cmd[:7] == ["ncu", "--csv", "--page", "raw", "--clock-control", "none", "--metrics"]
    assert cmd[7] == "a__x.sum,b__y.pct"
    assert cmd[cmd.index("-k") + 1] == "regex:^(gemm_tiled|vector_add)$"
    assert cmd[cmd.index("--launch-skip") + 1] == "2" and cmd[cmd.index("--launch-count") + 1] == "3"
    assert cmd[-3:] == ["python", "-m", "simgpu.crosscheck.runner"]
    assert "--cache-control" not in cmd  # ncu's default: flush caches before each launch
    with pytest.raises(ValueError):
        ncu_command([], ["x"])
    assert kernel_regex(["a.b"]) == r"regex:^(a\.b)$"


def test_default_metrics_are_known_ncu_names(calib_dir):
    launches = parse_ncu_csv((calib_dir / "h200_ncu_raw.csv").read_text())
    from simgpu.crosscheck.ncu import CALIBRATED_METRICS

    for m in CALIBRATED_METRICS:
        assert m in launches[0].metrics, m
    assert len(set(DEFAULT_METRICS)) == len(DEFAULT_METRICS)


def test_query_and_filter_and_errors():
    out = "Device NVIDIA H200\nMetric Name   Description\ndram__bytes_read   # of bytes read\n" \
          "l1tex__t_sector_hit_rate  hit rate\n"
    bases = query_metric_bases(out)
    assert bases == {"dram__bytes_read", "l1tex__t_sector_hit_rate"}
    keep, drop = filter_known(["dram__bytes_read.sum", "l1tex__t_sector_hit_rate.pct", "x__y.sum"], bases)
    assert keep == ["dram__bytes_read.sum", "l1tex__t_sector_hit_rate.pct"] and drop == ["x__y.sum"]
    assert filter_known(["x__y.sum"], set()) == (["x__y.sum"], [])
    err = "==ERROR== Failed to find metric smsp__foo_bar.sum\n==ERROR== Failed to profile"
    assert unknown_metrics_in_error(err) == ["smsp__foo_bar.sum"]
