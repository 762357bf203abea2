"""Device run: what does an 8-line warp load cost the L1 when some of its lines miss? validation/
typical7's wmma_gemm_f16 (8 lines a load, 19 % of sectors missing) ran ~8.4 cycles per load per SM
where L1-resident 8-line loads take 4.0 (spacing.py). Here 16 CTAs (16 SMs) of W warps; each warp
load reads 8 lines, 4 lanes a line (16 bytes of one sector): M of them fresh (never read on this
SM, resident in L2: a first kernel reads the whole buffer with ld.global.cg) and 8 - M hot (the
warp's own 8 lines, read every time). 8 independent loads per loop trip; clock64 over 32 trips
gives cycles per warp load per SM. JSON lines out.

    python misses.py OUT.jsonl
"""

import json
import os
import subprocess
import sys

import cupy as cp

SRC = r'''
extern "C" __global__ void warm_l2(const float4* buf, float* out, long long n4)
{
    float s = 0.f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
        float4 v; asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(buf + i));
        s += v.x + v.y + v.z + v.w;
    }
    if (s == 12345.f) out[0] = s;
}
extern "C" __global__ void l1_misses(const float* fresh, const float* hot, float* out, long long* cyc, int m,
                                     int iters, int row_floats, int shared_hot)
{
    int lane = threadIdx.x % 32, line = lane / 4, warp = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    // hot: the warp's 8 lines, 2 KB apart (as wmma's rows), load j shifted by j lines; fresh: per warp
    // [trip][load][line] lines, so load j of trip i reads a line never read before
    const float* h = hot + (size_t)(shared_hot ? blockIdx.x : warp) * 16 * 1024 / 4 + line * row_floats + (lane % 4);
    const float* f = fresh + (size_t)warp * iters * 64 * 32 + line * 32 + (lane % 4);
    const bool is_fresh = line < m;
    const float* p = is_fresh ? f : h;
    const int step = is_fresh ? 256 : 32, advance = is_fresh ? 2048 : 0;   // floats
    float s = 0.f;
    for (int i = 0; i < 8; ++i) s += h[i * 32];   // warm the hot lines
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < iters; ++i) {
        float v0, v1, v2, v3, v4, v5, v6, v7;
        asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v0) : "l"(p));
        asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v1) : "l"(p + step));
        asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v2) : "l"(p + 2 * step));
        asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v3) : "l"(p + 3 * step));
        asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v4) : "l"(p + 4 * step));
        asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v5) : "l"(p + 5 * step));
        asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v6) : "l"(p + 6 * step));
        asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v7) : "l"(p + 7 * step));
        s += ((v0 + v1) + (v2 + v3)) + ((v4 + v5) + (v6 + v7));
        p += advance;
    }
    __syncthreads();
    if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
'''
N_CTA = int(os.environ.get("N_CTA", "16"))
ITERS = 32


def main() -> None:
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    mod = cp.RawModule(code=SRC)
    warm, k = mod.get_function("warm_l2"), mod.get_function("l1_misses")
    rows = []
    for row_bytes, shared_hot in ((128, 0), (2048, 1), (512, 0), (1024, 0)):   # hot lines only: which rule?
        for warps in (8, 16):
            nw = N_CTA * warps
            fresh = cp.zeros(32, cp.float32)
            hot = cp.random.random(nw * 16 * 1024 // 4, dtype=cp.float32)
            out = cp.zeros(N_CTA * 32 * warps, cp.float32)
            cyc = cp.zeros(N_CTA, cp.int64)
            k((N_CTA,), (32 * warps,), (fresh, hot, out, cyc, cp.int32(0), cp.int32(ITERS), cp.int32(row_bytes // 4),
                                        cp.int32(shared_hot)))
            cp.cuda.runtime.deviceSynchronize()
            c = float(cp.median(cyc.astype(cp.float64)))
            rows.append({"gpu": gpu, "warps": warps, "fresh_lines": 0, "row_bytes": row_bytes, "shared_hot": shared_hot,
                         "lines": 8, "ctas": N_CTA, "iters": ITERS, "cycles": c,
                         "cycles_per_load_per_sm": c / (ITERS * 8 * warps)})
    for warps in (4, 8, 16):
        nw = N_CTA * warps
        fresh = cp.random.random(nw * ITERS * 64 * 32, dtype=cp.float32)   # 32 MB at 16 warps
        hot = cp.random.random(nw * 16 * 1024 // 4, dtype=cp.float32)
        out = cp.zeros(N_CTA * 32 * warps, cp.float32)
        for m in (0, 1, 2, 4, 8):
            cyc = cp.zeros(N_CTA, cp.int64)
            warm((264,), (256,), (fresh, out, cp.int64(fresh.size // 4)))
            k((N_CTA,), (32 * warps,), (fresh, hot, out, cyc, cp.int32(m), cp.int32(ITERS), cp.int32(512), cp.int32(0)))
            cp.cuda.runtime.deviceSynchronize()
            c = float(cp.median(cyc.astype(cp.float64)))
            rows.append({"gpu": gpu, "warps": warps, "fresh_lines": m, "row_bytes": 2048, "shared_hot": 0, "lines": 8, "ctas": N_CTA, "iters": ITERS,
                         "cycles": c, "cycles_per_load_per_sm": c / (ITERS * 8 * warps)})
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    if len(sys.argv) > 1:
        open(sys.argv[1], "w").write(text)
    sys.stderr.write(text)


if __name__ == "__main__":
    main()
