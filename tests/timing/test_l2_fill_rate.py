"""Sectors entering the L2 share one rate (timing/config.py l2_fill_bytes_per_s): a read miss's DRAM
fill and a store's write of a sector the L2 did not hold. On the H200 a 16 MB copy took 9.5 us
where its reads alone took 6.1 and its stores alone 5.4 (validation/typical17); stores into
sectors the L2 holds run at 11-17 TB/s (benchmarks/microbench/l2_writes stores2.py)."""

import numpy as np
import pytest

import simgpu as sg
from simgpu.timing.config import TimingConfig

SRC = r"""
extern "C" __global__ void read_f4(const float4* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = in[i];
    if (v.x + v.y + v.z + v.w == 1234.5f) out[0] = v.x;
}
extern "C" __global__ void copy_f4(const float4* in, float4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
extern "C" __global__ void fill_f4(float4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = make_float4(1.f, 2.f, 3.f, 4.f);
}
"""
N4 = 1 << 20  # float4s: 16 MB an array, in L2 twice over
BYTES = 16 * N4


def _ns(name: str, *arrays, warm: bool = False, launches: int = 1) -> float:
    kernel = sg.RawModule(code=SRC).get_function(name)
    for _ in range(launches):
        report = kernel((N4 // 256,), (256,), (*arrays, np.int32(N4)), warm_caches=warm)
    return report.timing.time_ns


def _fill_ns() -> float:
    """The L2 fill time of BYTES at the rate the config ships with."""
    return BYTES / TimingConfig().l2_fill_bytes_per_s * 1e9


def _copy_minus_read() -> float:
    x = sg.asarray(np.ones(4 * N4, np.float32))
    return _ns("copy_f4", x, sg.zeros(4 * N4, np.float32)) - _ns("read_f4", x, sg.zeros(1, np.float32))


def test_a_copy_pays_for_its_reads_fills_and_its_stores_fills():
    # the reads fill BYTES (at the DRAM's rate, a little slower than the fill rate), the stores BYTES more
    extra = _copy_minus_read()
    assert 0.75 * _fill_ns() <= extra <= 1.1 * _fill_ns(), (extra, _fill_ns())


def test_without_the_fill_limit_the_stores_ride_along(timing_override):
    timing_override(l2_fill_bytes_per_s=0.0)
    assert _copy_minus_read() <= 0.3 * _fill_ns()


@pytest.mark.parametrize("rate", [None, 0.0])
def test_stores_into_sectors_the_l2_holds_do_not_fill(rate, timing_override):
    """The same stores again with the caches kept warm: every sector is held, so the fill limit
    does not pace them (and with it off, the first launch is as fast as the second)."""
    if rate is not None:
        timing_override(l2_fill_bytes_per_s=rate)
    out = sg.zeros(4 * N4, np.float32)
    cold = _ns("fill_f4", out)
    warm = _ns("fill_f4", out, warm=True, launches=2)
    if rate is None:  # 16 MB of stores alone take ~4.3 us without the limit, 2 of them fixed costs
        assert cold - warm >= 0.2 * _fill_ns(), (cold, warm)
    else:
        assert abs(cold - warm) <= 0.03 * cold, (cold, warm)
