"""How long an SM's CTA slot stays empty between one CTA and the next (device script, CuPy/NVRTC).

    python turnover.py empty   OUT   # empty kernels of 32-1,024 threads, many rounds (run under ncu)
    python turnover.py stamps  OUT   # per-CTA %smid and clock64 at start and end -> OUT/stamps.npz

`empty`: one launch per (block, grid); ncu's gpu__time_duration.sum says whether the steady CTA rate
is the device's (the same for every block size) or each slot's (proportional to the slots per SM).
`stamps`: vector adds (256 and 1,024 threads) and empty CTAs that record, per warp, the SM clock at
entry and after their last instruction, and %smid, %globaltimer once per CTA: the CTA lifetimes and
the gap from a CTA's last warp to the next CTA on its SM, on the same clock.
"""

import sys

import cupy as cp
import numpy as np

SRC = r"""
__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned long long gtime() { unsigned long long r; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r)); return r; }
__device__ __forceinline__ long long clk() { long long r; asm volatile("mov.u64 %0, %%clock64;" : "=l"(r)); return r; }

extern "C" __global__ void empty_k() {}

extern "C" __global__ void stamp_k(int* sm, long long* w0, long long* w1) {
    long long a = clk();
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if ((threadIdx.x & 31) == 0) { w0[w] = a; w1[w] = clk(); }
    if (threadIdx.x == 0) sm[blockIdx.x] = smid();
}

extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void vadd_stamp(const float* a, const float* b, float* c, int n,
                                      int* sm, long long* w0, long long* w1) {
    long long t0 = clk();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    long long t1 = clk();
    if ((threadIdx.x & 31) == 0) { w0[i >> 5] = t0; w1[i >> 5] = t1; }
    if (threadIdx.x == 0) sm[blockIdx.x] = smid();
}
"""

K: dict = {}  # the kernels by name, compiled by main (compare.py imports SRC without a GPU)


def empty(out: str) -> None:
    lines = []
    for block in (32, 128, 256, 512, 1024):
        for grid in (13200, 132000):
            for _ in range(3):
                K["empty_k"]((grid,), (block,), ())
                lines.append(f"empty {block} {grid}")
    n = 1 << 22
    a = cp.random.random(n, dtype=cp.float32)
    b = cp.random.random(n, dtype=cp.float32)
    c = cp.zeros(n, cp.float32)
    for block in (256, 1024):
        for _ in range(3):
            K["vadd"]((n // block,), (block,), (a, b, c, np.int32(n)))
            lines.append(f"vadd {block} {n // block}")
    cp.cuda.Device().synchronize()
    assert cp.allclose(c, a + b)
    open(f"{out}/launches.txt", "w").write("\n".join(lines) + "\n")


def stamps(out: str) -> None:
    res = {}
    n = 1 << 22
    a = cp.random.random(n, dtype=cp.float32)
    b = cp.random.random(n, dtype=cp.float32)
    for block in (256, 1024):
        grid = n // block
        for rep in range(2):
            c = cp.zeros(n, cp.float32)
            sm = cp.zeros(grid, cp.int32)
            w0 = cp.zeros(n // 32, cp.int64)
            w1 = cp.zeros(n // 32, cp.int64)
            K["vadd_stamp"]((grid,), (block,), (a, b, c, np.int32(n), sm, w0, w1))
            cp.cuda.Device().synchronize()
            assert cp.allclose(c, a + b)
            res[f"vadd_{block}_{rep}_sm"] = sm.get()
            res[f"vadd_{block}_{rep}_w0"] = w0.get()
            res[f"vadd_{block}_{rep}_w1"] = w1.get()
    for block in (32, 256, 1024):
        slots = min(32, 2048 // block)
        grid = 132 * slots * 20
        sm = cp.zeros(grid, cp.int32)
        w0 = cp.zeros(grid * block // 32, cp.int64)
        w1 = cp.zeros(grid * block // 32, cp.int64)
        K["stamp_k"]((grid,), (block,), (sm, w0, w1))
        cp.cuda.Device().synchronize()
        res[f"empty_{block}_sm"] = sm.get()
        res[f"empty_{block}_w0"] = w0.get()
        res[f"empty_{block}_w1"] = w1.get()
    np.savez_compressed(f"{out}/stamps.npz", **res)


if __name__ == "__main__":
    mod = cp.RawModule(code=SRC, options=("-std=c++17",))
    K.update({name: mod.get_function(name) for name in ("empty_k", "stamp_k", "vadd", "vadd_stamp")})
    {"empty": empty, "stamps": stamps}[sys.argv[1]](sys.argv[2])
