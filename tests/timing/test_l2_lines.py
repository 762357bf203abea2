"""The L2 takes at most config l2_lines_per_ns line requests per ns besides its sector rate
(benchmarks/microbench/l2_lines: 32 one-sector lines per warp load take 1.8x as long as 16
two-sector lines, the same sectors)."""

import numpy as np

import simgpu as sg

SRC = r"""
extern "C" __global__ void spread(const float* buf, float* out, int lane_bytes, int loads, int regions, int word_step)
{   // each warp's loads: 32 floats lane_bytes apart (and (lane % 8) * word_step bytes into their
    // sector), in regions of 32 * lane_bytes that wrap around
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, l = threadIdx.x & 31;
    float s = 0.f;
#pragma unroll 4
    for (int k = 0; k < loads; ++k) {
        int r = (w * loads + k) % regions;
        s += *(const float*)((const char*)buf + (size_t)r * 32 * lane_bytes + l * lane_bytes + (l & 7) * word_step);
    }
    if (s == -1.f) out[0] = s;
}
"""
CTAS, THREADS, LOADS, REGIONS = 1056, 256, 8, 2048  # 8 MB at 128-byte lanes: it stays in L2


def _time(lane_bytes: int, word_step: int = 0) -> float:
    kernel = sg.RawModule(code=SRC).get_function("spread")
    buf = sg.zeros(REGIONS * 32 * lane_bytes // 4, np.float32)
    args = (buf, sg.zeros(4, np.float32), np.int32(lane_bytes), np.int32(LOADS), np.int32(REGIONS),
            np.int32(word_step))
    kernel((CTAS,), (THREADS,), args, warm_caches=True)  # the data into L2 first
    return kernel((CTAS,), (THREADS,), args, warm_caches=True).timing.time_ns


def test_one_sector_lines_are_paced_by_the_line_rate():
    ratio = _time(128) / _time(64)
    assert 1.4 <= ratio <= 2.1, ratio


def test_without_the_line_limits_only_sectors_count(timing_override):
    # neither the L2's line rate nor each SM's (config l1_miss_lines_per_cycle); the lanes' words
    # spread over 8 banks, so that the L1's bank wavefronts (32 and 16 a load with every lane on
    # one bank, memory/coalescer.load_wavefronts) do not tell the two apart either (8 and 4)
    timing_override(l2_lines_per_ns=0.0, l1_miss_lines_per_cycle=0.0)
    ratio = _time(128, word_step=4) / _time(64, word_step=4)
    assert ratio <= 1.15, ratio
