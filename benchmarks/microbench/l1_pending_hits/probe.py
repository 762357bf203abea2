"""Device run (2026-12-04): the L1 data-stage wavefronts of one warp's global load that hits, by the
lanes' byte offsets. One CTA of 8 warps an SM; each warp has its own 5 KB (8, 16 or 32 warps: fits the L1), lane t reads
base + off[t] + 4 * ((i + j) % 8) in load j of trip i (each a word further on, plus i * zero, zero = 0 passed
at run time, so that ptxas cannot merge the loads of unrolled trips: all in the lines the first pass brought in), 64 trips after a warm pass. Under ncu (probe.sh) the data wavefronts, bank conflicts and
t-stage wavefronts per request; clock64 gives cycles per warp load per SM. JSON lines to argv[1]."""

import json
import sys

import cupy as cp
import numpy as np

SRC = r'''
extern "C" __global__ void probe(const float* buf, const int* off, float* out, long long* cyc, int iters, int zero)
{
    const char* base = (const char*)(buf + (size_t)(blockIdx.x * blockDim.x / 32 + threadIdx.x / 32) * 1280);
    const float* p = (const float*)(base + off[threadIdx.x & 31]);
    float s = 0.f;
    for (int w = 0; w < 2; ++w) {  // pass 0 warms the L1, pass 1 is timed
        __syncthreads();
        long long t0 = clock64();
        for (int i = 0; i < iters; ++i) {
            float v0, v1, v2, v3, v4, v5, v6, v7;
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v0) : "l"(p + ((i + 0) & 7) + i * zero));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v1) : "l"(p + ((i + 1) & 7) + i * zero));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v2) : "l"(p + ((i + 2) & 7) + i * zero));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v3) : "l"(p + ((i + 3) & 7) + i * zero));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v4) : "l"(p + ((i + 4) & 7) + i * zero));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v5) : "l"(p + ((i + 5) & 7) + i * zero));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v6) : "l"(p + ((i + 6) & 7) + i * zero));
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v7) : "l"(p + ((i + 7) & 7) + i * zero));
            s += ((v0 + v1) + (v2 + v3)) + ((v4 + v5) + (v6 + v7));
        }
        __syncthreads();
        if (w == 1 && threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
'''
t = np.arange(32)
PATTERNS = {f"pitch{p}": p * t for p in (4, 8, 16, 32, 64, 96, 128, 132, 136, 144, 160, 192, 256, 384, 512)}
PATTERNS.update({
    "pitch128_w5": 128 * t + 20,                       # same word 5 of 32 lines
    "pitch128_rot": 128 * t + 4 * (t % 32),            # 32 lines, each lane its own bank
    "pitch128_rot8": 128 * t + 4 * (t % 8),            # 32 lines, 8 banks (4-way)
    "pitch128_slots": 128 * t + 32 * (t % 4),          # 32 lines, 4 slots, word 0 of the sector
    "quad_lines8": 128 * (t // 4) + 4 * (t % 4),       # 8 lines, 4 lanes on one sector each, all slot 0
    "quad_lines8_slots": 128 * (t // 4) + 32 * ((t // 4) % 4) + 4 * (t % 4),  # 8 lines, slots rotate
    "two_lines": 128 * (t // 16) + 4 * (t % 16),       # 2 lines, 16 words each
    "bcast_line16": 128 * (t // 2),                    # 16 lines, lane pairs on one word
    "lines16_pitch256": 256 * (t // 2) + 4 * (t % 2),  # 16 lines, 2 words each, same banks 0/1
    "sectors32_in8": 32 * t,                           # stride 32 B: 8 lines x 4 sectors, word 0
    "sectors32_in8_rot": 32 * t + 4 * ((t // 4) % 8),  # stride 32 B, word rotates: no bank conflict
})
ITERS = 64
WARPS = (8, 16, 32)


def main() -> None:
    mod = cp.RawModule(code=SRC)
    k = mod.get_function("probe")
    sms = 132
    rows = []
    for warps, (name, off) in ((w, kv) for w in WARPS for kv in PATTERNS.items() if kv[1].max() + 32 <= 5120):
        buf = cp.zeros(sms * warps * 1280 + 4096, cp.float32)
        out = cp.zeros(sms * warps * 32, cp.float32)
        cyc = cp.zeros(sms, cp.int64)
        o = cp.asarray(off.astype(np.int32))
        k((sms,), (warps * 32,), (buf, o, out, cyc, np.int32(ITERS), np.int32(0)))
        cp.cuda.Device().synchronize()
        c = float(np.median(cyc.get()))
        rows.append(dict(pattern=name, warps=warps, off=[int(x) for x in off], cyc_per_load_sm=c / (ITERS * 8 * warps)))
        print(json.dumps({k_: v for k_, v in rows[-1].items() if k_ != "off"}), flush=True)
    with open(sys.argv[1], "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
