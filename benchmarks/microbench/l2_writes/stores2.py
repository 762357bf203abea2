"""Device run: why do `stores.py`'s warps store a line per 4 cycles per SM where writes.py's
streaming kernel stores one per cycle? Candidates: write misses against write hits (L2-resident,
dirty lines), CTAs per SM, and the address pattern (a region per warp against warps interleaved
line by line). Each kernel times two passes over the same lines (clock64 per CTA): pass 0 finds
them absent from L2 (after a 256 MB sweep that flushes it), pass 1 finds them there.

    python stores2.py OUT.jsonl
"""

import json
import subprocess
import sys

import cupy as cp

SRC = r'''
// grid-interleaved: warp-contiguous lines, consecutive warps consecutive lines, grid-stride
extern "C" __global__ void st_grid(float* buf, long long n, long long* cyc)
{
    float v = (float)threadIdx.x;
    for (int w = 0; w < 2; ++w) {
        __syncthreads();
        long long t0 = clock64();
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
            buf[i] = v;
        __syncthreads();
        if (threadIdx.x == 0) cyc[2 * blockIdx.x + w] = clock64() - t0;
    }
}
// a region per warp, 8 stores a trip, each to the next line
extern "C" __global__ void st_region(float* buf, long long* cyc, int iters)
{
    float* p = buf + (size_t)(blockIdx.x * blockDim.x / 32 + threadIdx.x / 32) * (iters * 256) + (threadIdx.x % 32);
    float v = (float)threadIdx.x;
    for (int w = 0; w < 2; ++w) {
        __syncthreads();
        long long t0 = clock64();
        for (int i = 0; i < iters; ++i) {
#pragma unroll
            for (int k = 0; k < 8; ++k)
                asm volatile("st.global.f32 [%0], %1;" :: "l"(p + (8 * i + k) * 32), "f"(v));
        }
        __syncthreads();
        if (threadIdx.x == 0) cyc[2 * blockIdx.x + w] = clock64() - t0;
    }
}
extern "C" __global__ void sweep(float* buf, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        buf[i] += 1.f;
}
'''


def main() -> None:
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    mod = cp.RawModule(code=SRC)
    st_grid, st_region, sweep = (mod.get_function(n) for n in ("st_grid", "st_region", "sweep"))
    flush = cp.zeros(64 << 20, cp.float32)
    rows = []

    def record(**kw):
        rows.append({"gpu": gpu, **kw})
        sys.stderr.write(json.dumps(rows[-1]) + "\n")

    for sms in (1, 132):
        for ctas, threads in ((1, 512), (1, 1024), (4, 512), (2, 1024)):
            grid = sms * ctas
            n = sms * 64 * 1024  # 256 KB per SM: 33 MB on 132 SMs, in L2
            buf = cp.zeros(n, cp.float32)
            cyc = cp.zeros(2 * grid, cp.int64)
            sweep((528,), (512,), (flush, cp.int64(flush.size)))
            st_grid((grid,), (threads,), (buf, cp.int64(n), cyc))
            cp.cuda.runtime.deviceSynchronize()
            c = cyc.reshape(grid, 2).astype(cp.float64)
            stores = n / 32 / sms  # warp stores per SM
            for w in range(2):
                record(kernel="st_grid", sms=sms, ctas_per_sm=ctas, threads=threads, pass_=w,
                       per_store_per_sm=float(cp.median(c[:, w])) / stores)
            iters = 256 // (ctas * threads // 32)  # 256 KB per SM
            buf = cp.zeros(grid * threads // 32 * iters * 256, cp.float32)
            sweep((528,), (512,), (flush, cp.int64(flush.size)))
            st_region((grid,), (threads,), (buf, cyc, cp.int32(iters)))
            cp.cuda.runtime.deviceSynchronize()
            c = cyc.reshape(grid, 2).astype(cp.float64)
            stores = ctas * threads // 32 * iters * 8
            for w in range(2):
                record(kernel="st_region", sms=sms, ctas_per_sm=ctas, threads=threads, pass_=w,
                       per_store_per_sm=float(cp.median(c[:, w])) / stores)
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    if len(sys.argv) > 1:
        open(sys.argv[1], "w").write(text)


if __name__ == "__main__":
    main()
