"""DRAM latency under a streaming load, per load (device script, CuPy/NVRTC).

    python stream_latency.py OUT    # -> OUT/stream_latency.npz and OUT/stream_latency.txt

k warps per SM on all 132 SMs (k = 1-64) walk one 1 GiB array together, grid-stride, one coalesced
128 B line per warp load; each load's address depends on the previous load's value (which is 0),
so a warp has one line in flight and clock64 around it is that load's latency under the load the
other k-1 warps of each SM make. Every warp records the latencies of its 64 loads after 16 warm-up
ones; the L2 is flushed (256 MB written) before each launch. The vector add of cta_turnover has
128 lines in flight per SM; this says how the H200's latency for streaming (not pointer-chasing)
loads rises and spreads with the load.
"""

import sys

import cupy as cp
import numpy as np

SRC = r"""
extern "C" __global__ void stream_lat(const float* a, long long n, int warm, int keep, int* lat, float* sink)
{
    long long warps = (long long)gridDim.x * (blockDim.x / 32);
    long long w = (long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    long long i = w * 32 + lane;
    float acc = 0.0f;
    for (int it = 0; it < warm + keep; ++it) {
        long long t0 = clock64();
        float x = __ldcg(a + i);
        acc += x;
        i += (long long)(x != 0.0f) + warps * 32;   // the next address waits for this load
        if (i >= n) i -= n;
        long long t1 = clock64();
        if (it >= warm && lane == 0) lat[w * keep + it - warm] = (int)(t1 - t0);
    }
    if (acc != 0.0f) sink[w] = acc;
}
"""


def main(out: str) -> None:
    f = cp.RawModule(code=SRC, options=("-std=c++17",)).get_function("stream_lat")
    n = (1 << 30) // 4
    a = cp.zeros(n, cp.float32)
    flush = cp.zeros(1 << 26, cp.float32)
    warm, keep = 16, 64
    res, lines = {}, []
    for k in (1, 2, 4, 8, 16, 32, 48, 64):
        block = 32 * min(k, 8)
        grid = 132 * k * 32 // block
        warps = grid * block // 32
        lat = cp.zeros(warps * keep, cp.int32)
        sink = cp.zeros(warps, cp.float32)
        flush += 1.0
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        f((grid,), (block,), (a, np.int64(n), np.int32(warm), np.int32(keep), lat, sink))
        stop.record()
        stop.synchronize()
        ms = cp.cuda.get_elapsed_time(start, stop)
        x = lat.get()
        res[f"k{k}"] = x
        gbps = warps * (warm + keep) * 128 / (ms * 1e-3) / 1e9
        q = np.percentile(x, (10, 50, 90, 99))
        lines.append(f"k={k:2d} warps/SM  {warps:5d} warps  {ms * 1e3:8.1f} us  ~{gbps:6.0f} GB/s  "
                     f"latency p10/50/90/99 {q[0]:.0f} / {q[1]:.0f} / {q[2]:.0f} / {q[3]:.0f} cycles, mean {x.mean():.0f}")
        print(lines[-1])
    np.savez_compressed(f"{out}/stream_latency.npz", **res)
    open(f"{out}/stream_latency.txt", "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
