"""Device run: what does a warp load that hits in L1 cost the L1 when its 32 lanes touch 1, 2, 4, 8,
16 or 32 lines? Each warp reads its own 9 KB (L1-resident after a warm pass) with lane stride S
floats, 8 independent ld.global.ca per loop trip (each shifted by whole lines, so as many lines); one CTA per SM of W warps. Prints cycles per warp
load instruction per SM (clock64 over the timed loop, median over CTAs) as JSON lines; then the same
with stores to the same addresses (`op` "st"; every SM storing, so the L2 write path sets the pace).

    python lines.py OUT.jsonl     |  ncu --metrics l1tex__data_pipe_lsu_wavefronts_mem_lg.sum ... python lines.py
"""

import json
import subprocess
import sys

import cupy as cp

SRC = r'''
extern "C" __global__ void l1_lines(const float* buf, float* out, long long* cyc, int stride, int iters)
{
    const float* base = buf + (size_t)(blockIdx.x * blockDim.x / 32 + threadIdx.x / 32) * 2304;
    int lane = threadIdx.x % 32;
    const float* p = base + lane * stride;  // 32 * stride floats + 8 lines per warp: <= 9 KB
    float s = 0.f;
    for (int w = 0; w < 2; ++w) {  // pass 0 warms the L1, pass 1 is timed
        __syncthreads();
        long long t0 = clock64();
        for (int i = 0; i < iters; ++i) {  // 8 loads, each shifted by whole lines: same line count
            float v0, v1, v2, v3, v4, v5, v6, v7;
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v0) : "l"(p + ((i + 0) & 7) * 32));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v1) : "l"(p + ((i + 1) & 7) * 32));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v2) : "l"(p + ((i + 2) & 7) * 32));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v3) : "l"(p + ((i + 3) & 7) * 32));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v4) : "l"(p + ((i + 4) & 7) * 32));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v5) : "l"(p + ((i + 5) & 7) * 32));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v6) : "l"(p + ((i + 6) & 7) * 32));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v7) : "l"(p + ((i + 7) & 7) * 32));
            s += ((v0 + v1) + (v2 + v3)) + ((v4 + v5) + (v6 + v7));
        }
        __syncthreads();
        if (w == 1 && threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
'''
SRC_ST = r'''
extern "C" __global__ void l1_lines_st(float* buf, float* out, long long* cyc, int stride, int iters)
{   // the same addresses as l1_lines, stored to (write-through to L2)
    float* base = buf + (size_t)(blockIdx.x * blockDim.x / 32 + threadIdx.x / 32) * 2304;
    int lane = threadIdx.x % 32;
    float* p = base + lane * stride;
    float v = (float)threadIdx.x;
    for (int w = 0; w < 2; ++w) {
        __syncthreads();
        long long t0 = clock64();
        for (int i = 0; i < iters; ++i) {
            asm volatile("st.global.f32 [%0], %1;" :: "l"(p + ((i + 0) & 7) * 32), "f"(v));
            asm volatile("st.global.f32 [%0], %1;" :: "l"(p + ((i + 1) & 7) * 32), "f"(v));
            asm volatile("st.global.f32 [%0], %1;" :: "l"(p + ((i + 2) & 7) * 32), "f"(v));
            asm volatile("st.global.f32 [%0], %1;" :: "l"(p + ((i + 3) & 7) * 32), "f"(v));
            asm volatile("st.global.f32 [%0], %1;" :: "l"(p + ((i + 4) & 7) * 32), "f"(v));
            asm volatile("st.global.f32 [%0], %1;" :: "l"(p + ((i + 5) & 7) * 32), "f"(v));
            asm volatile("st.global.f32 [%0], %1;" :: "l"(p + ((i + 6) & 7) * 32), "f"(v));
            asm volatile("st.global.f32 [%0], %1;" :: "l"(p + ((i + 7) & 7) * 32), "f"(v));
        }
        __syncthreads();
        if (w == 1 && threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
'''
STRIDES = (1, 2, 4, 8, 16, 32, 64)
WARPS = (4, 8, 16)
ITERS = 64


def main() -> None:
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    kernels = {"ld": cp.RawModule(code=SRC).get_function("l1_lines"),
               "st": cp.RawModule(code=SRC_ST).get_function("l1_lines_st")}
    n_cta = 132
    buf = cp.random.random(n_cta * 16 * 2304, dtype=cp.float32)
    out = cp.zeros(n_cta * 1024, cp.float32)
    rows = []
    for op, k in kernels.items():
        for w in WARPS:
            for s in STRIDES:
                cyc = cp.zeros(n_cta, cp.int64)
                k((n_cta,), (32 * w,), (buf, out, cyc, cp.int32(s), cp.int32(ITERS)))
                cp.cuda.runtime.deviceSynchronize()
                c = float(cp.median(cyc.astype(cp.float64)))
                rows.append({"gpu": gpu, "op": op, "warps": w, "stride": s, "lines": min(32, s),
                             "cycles": c, "cycles_per_load_per_sm": c / (ITERS * 8 * w)})
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    if len(sys.argv) > 1:
        open(sys.argv[1], "w").write(text)
    sys.stderr.write(text)


if __name__ == "__main__":
    main()
