"""Device run: what paces global stores, the SM or the L2? Warp stores of 1 to 32 lines (lane stride
S floats, as l1_lines/lines.py) and whole-line float4 stores, from 1 to 132 SMs (one CTA of 16 warps
per SM), to a small per-warp region (L2-resident: write hits) and, streaming, to a large one (write
misses: the HBM write path); L2 loads (ld.global.cg, L1 bypassed) of the same shapes beside them, so
the read and write paths are measured in one run. clock64 over a timed pass gives cycles per warp
instruction per SM (median over CTAs); the streaming runs also report bytes per second from events.

    python writes.py OUT.jsonl
"""

import json
import subprocess
import sys
from pathlib import Path

import cupy as cp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from event_timing import timed  # noqa: E402

SRC = r'''
#define BODY(OP) \
    for (int w = 0; w < 2; ++w) { \
        __syncthreads(); \
        long long t0 = clock64(); \
        for (int i = 0; i < iters; ++i) { \
            OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7) \
        } \
        __syncthreads(); \
        if (w == 1 && threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0; \
    }
// every warp its own 9 KB region (2,304 floats), lane stride S floats, 8 stores per trip each
// shifted by whole lines: L2-resident after the first pass
extern "C" __global__ void st_small(float* buf, float* out, long long* cyc, int stride, int iters)
{
    float* p = buf + (size_t)(blockIdx.x * blockDim.x / 32 + threadIdx.x / 32) * 2304 + (threadIdx.x % 32) * stride;
    float v = (float)threadIdx.x;
#define ST(k) asm volatile("st.global.f32 [%0], %1;" :: "l"(p + ((i + k) & 7) * 32), "f"(v));
    BODY(ST)
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
extern "C" __global__ void ld_small(float* buf, float* out, long long* cyc, int stride, int iters)
{
    const float* p = buf + (size_t)(blockIdx.x * blockDim.x / 32 + threadIdx.x / 32) * 2304 + (threadIdx.x % 32) * stride;
    float s = 0.f;
#define LD(k) { float x; asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(x) : "l"(p + ((i + k) & 7) * 32)); s += x; }
    BODY(LD)
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
// float4: 512 bytes a warp, 4 whole lines
extern "C" __global__ void st4_small(float4* buf, float* out, long long* cyc, int stride, int iters)
{
    float4* p = buf + (size_t)(blockIdx.x * blockDim.x / 32 + threadIdx.x / 32) * 576 + (threadIdx.x % 32);
    float4 v = make_float4(1.f, 2.f, 3.f, (float)threadIdx.x);
#define ST4(k) asm volatile("st.global.v4.f32 [%0], {%1,%2,%3,%4};" :: "l"(p + ((i + k) & 3) * 32), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w));
    BODY(ST4)
    out[blockIdx.x * blockDim.x + threadIdx.x] = v.w;
}
extern "C" __global__ void ld4_small(float4* buf, float* out, long long* cyc, int stride, int iters)
{
    const float4* p = buf + (size_t)(blockIdx.x * blockDim.x / 32 + threadIdx.x / 32) * 576 + (threadIdx.x % 32);
    float s = 0.f;
#define LD4(k) { float a, b, c, d; asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(p + ((i + k) & 3) * 32)); s += a + b + c + d; }
    BODY(LD4)
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
// streaming: warp-contiguous 128-byte lines (float) or 512 bytes (float4), grid-stride over a big buffer
extern "C" __global__ void st_stream(float* buf, long long n, long long* cyc)
{
    long long t0 = clock64();
    float v = (float)threadIdx.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        buf[i] = v;
    __syncthreads();
    if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}
extern "C" __global__ void st4_stream(float4* buf, long long n, long long* cyc)
{
    long long t0 = clock64();
    float4 v = make_float4(1.f, 2.f, 3.f, (float)threadIdx.x);
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        buf[i] = v;
    __syncthreads();
    if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}
extern "C" __global__ void ld_stream(const float* buf, long long n, long long* cyc, float* out)
{
    long long t0 = clock64();
    float s = 0.f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        s += __ldcg(buf + i);
    __syncthreads();
    if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
    if (s == 12345.f) out[0] = s;
}
extern "C" __global__ void copy_stream(const float* src, float* dst, long long n, long long* cyc)
{
    long long t0 = clock64();
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        dst[i] = src[i];
    __syncthreads();
    if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}
'''
SMS = (1, 4, 16, 33, 66, 132)
STRIDES = (1, 2, 4, 8, 32)
WARPS = 16
ITERS = 64


def main() -> None:
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    mod = cp.RawModule(code=SRC)
    k = {n: mod.get_function(n) for n in ("st_small", "ld_small", "st4_small", "ld4_small", "st_stream",
                                          "st4_stream", "ld_stream", "copy_stream")}
    buf = cp.random.random(132 * WARPS * 2304, dtype=cp.float32)
    out = cp.zeros(132 * 1024, cp.float32)
    rows = []
    for name in ("st_small", "ld_small", "st4_small", "ld4_small"):
        for s in (STRIDES if "4" not in name else (4,)):
            for n_cta in SMS:
                cyc = cp.zeros(n_cta, cp.int64)
                k[name]((n_cta,), (32 * WARPS,), (buf, out, cyc, cp.int32(s), cp.int32(ITERS)))
                cp.cuda.runtime.deviceSynchronize()
                c = float(cp.median(cyc.astype(cp.float64)))
                rows.append({"gpu": gpu, "kernel": name, "sms": n_cta, "warps": WARPS, "stride": s,
                             "lines": 4 if "4" in name else min(32, s), "cycles": c,
                             "cycles_per_inst_per_sm": c / (ITERS * 8 * WARPS)})
    n = 1 << 28  # 1 GiB of floats
    big = cp.zeros(n, cp.float32)
    big2 = cp.ones(n, cp.float32)
    for n_cta in SMS:
        for name in ("st_stream", "st4_stream", "ld_stream", "copy_stream"):
            grid = n_cta * 4  # 4 CTAs of 512 threads per SM (2,048 threads: full occupancy)
            cyc = cp.zeros(grid, cp.int64)
            nn = n // 4 if name == "st4_stream" else n
            if name in ("st_stream", "st4_stream"):
                args = (big, cp.int64(nn), cyc)
            elif name == "ld_stream":
                args = (big2, cp.int64(nn), cyc, out)
            else:
                args = (big2, big, cp.int64(nn), cyc)

            def fn(f=k[name], g=grid, a=args):
                f((g,), (512,), a)

            ms = timed(fn)
            moved = 4 * n * (2 if name == "copy_stream" else 1)
            rows.append({"gpu": gpu, "kernel": name, "sms": n_cta, "grid": grid, "ms": ms,
                         "GBps": moved / ms / 1e6, "cycles_max": int(cyc.max())})
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    if len(sys.argv) > 1:
        open(sys.argv[1], "w").write(text)
    sys.stderr.write(text)


if __name__ == "__main__":
    main()
