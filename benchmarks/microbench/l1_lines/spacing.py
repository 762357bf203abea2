"""Device run: does the L1 tag stage's two lines a cycle depend on how far apart the lines are?
validation/typical7's wmma_gemm_f16 (each warp load: 8 lines 2,048 B apart, 16 bytes of one sector
in each) ran its L1 at 95.6 % busy and ~8.4 cycles per load per SM, where lines.py's 8 consecutive
lines took 4. Each warp of a CTA (one CTA per SM, 8 warps) reads the same L1-resident addresses: its
32 lanes over L lines `stride` bytes apart (32 / L lanes a line, `step` words apart in the line),
8 independent ld.global.ca per loop trip, each shifted by a whole line. clock64 over the timed pass
gives cycles per warp load instruction per SM; JSON lines out.

    python spacing.py OUT.jsonl
"""

import json
import subprocess
import sys

import cupy as cp

SRC = r'''
extern "C" __global__ void l1_spacing(const float* buf, float* out, long long* cyc, int lines, int stride_f,
                                      int step, int iters)
{
    const float* base = buf + (size_t)blockIdx.x * (8 * 32 + 32 * 1024 + 64);   // one region per CTA
    int lane = threadIdx.x % 32, per_line = 32 / lines;
    const float* p = base + (lane / per_line) * stride_f + (lane % per_line) * step;
    float s = 0.f;
    for (int w = 0; w < 2; ++w) {  // pass 0 warms the L1, pass 1 is timed
        __syncthreads();
        long long t0 = clock64();
        for (int i = 0; i < iters; ++i) {
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
ITERS = 64
WARPS = 8


def cases() -> list[dict]:
    out = []
    for lines, strides, steps in ((8, (128, 256, 512, 1024, 2048, 4096, 8192), (1, 8)),
                                  (4, (128, 256, 1024, 2048, 4096), (1,)),
                                  (16, (128, 256, 512, 1024, 2048), (1,)),
                                  (32, (128, 256, 512, 1024), (1,))):
        for s in strides:
            for st in steps:
                out.append({"lines": lines, "stride_bytes": s, "step_words": st, "warps": WARPS})
    return out


def main() -> None:
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    k = cp.RawModule(code=SRC).get_function("l1_spacing")
    n_cta = 132
    buf = cp.random.random(n_cta * (8 * 32 + 32 * 1024 + 64), dtype=cp.float32)
    out = cp.zeros(n_cta * 32 * WARPS, cp.float32)
    rows = []
    for c in cases():
        cyc = cp.zeros(n_cta, cp.int64)
        k((n_cta,), (32 * WARPS,), (buf, out, cyc, cp.int32(c["lines"]), cp.int32(c["stride_bytes"] // 4),
                                    cp.int32(c["step_words"]), cp.int32(ITERS)))
        cp.cuda.runtime.deviceSynchronize()
        cy = float(cp.median(cyc.astype(cp.float64)))
        rows.append({"gpu": gpu, **c, "cycles": cy, "cycles_per_load_per_sm": cy / (ITERS * 8 * WARPS)})
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    if len(sys.argv) > 1:
        open(sys.argv[1], "w").write(text)
    sys.stderr.write(text)


if __name__ == "__main__":
    main()
