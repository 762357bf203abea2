"""Device run (2026-12-04): is the H200's chunk-per-thread load slow because its 32 sectors sit in one
sector slot of their lines? Each thread owns a row of `pitch` bytes (128, 132, 136, 144, 160, 192,
256) and reads its first 128 bytes as 4 groups of 8 independent loads (typical16's chunk_sum_u8),
one CTA of 8 warps a CTA, 8 CTAs an SM (64 warps), with the data
  hit:  in the L1 already (a pass over the row first, then the timed pass),
  l2:   in L2 only (a kernel read it with ld.global.cg first),
  dram: nowhere (a 256 MB buffer read in between).
clock64 around the timed pass per warp; per SM the span from the first start to the last end,
divided by the SM's warp loads, is the cost of one load. Writes JSON lines to argv[1]; run under
ncu (run_slots.sh) for the L1 data-stage counters."""

import json
import os
import sys

import cupy as cp
import numpy as np

SRC = r'''
extern "C" __global__ void chunk(const float* __restrict__ in, float* out, long long* clk, int pitch_w, int warm)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = in + (size_t)t * pitch_w;
    float s = 0.0f;
    if (warm) {
        float w0 = p[0], w1 = p[8], w2 = p[16], w3 = p[24];
        s += (w0 + w1 + w2 + w3) * 0.0f;
    }
    int off = (int)(s * 0.0f);
    asm volatile("" : "+r"(off) :: "memory");  // the warm loads' data are back before the clock starts
    __syncwarp();
    long long t0 = clock64();
#pragma unroll 8
    for (int k = 0; k < 32; ++k) s += p[k + off] * (float)(k + 1);
    __syncwarp();
    long long t1 = clock64();
    out[t] = s;
    if ((threadIdx.x & 31) == 0) {
        unsigned smid; asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        int w = t >> 5;
        clk[3 * w] = t0; clk[3 * w + 1] = t1; clk[3 * w + 2] = smid;
    }
}
extern "C" __global__ void touch_cg(const float* in, float* out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (; i < n; i += (long long)gridDim.x * blockDim.x) s += __ldcg(in + i);
    if (s == 12345.0f) out[0] = s;
}
'''
mod = cp.RawModule(code=SRC)
chunk, touch = mod.get_function("chunk"), mod.get_function("touch_cg")
SMS, CTAS, THREADS = 132, 8, 256
n = SMS * CTAS * THREADS
big = cp.zeros(64 << 20, cp.float32)  # 256 MB
sink = cp.zeros(1, cp.float32)
out = cp.zeros(n, cp.float32)
clk = cp.zeros(3 * (n // 32), cp.int64)
res = []
for pitch in (128, 132, 136, 144, 160, 192, 256):
    pw = pitch // 4
    x = cp.asarray(np.random.default_rng(pitch).standard_normal(pw * n + 64, dtype=np.float32))
    for mode in ("hit", "l2", "dram"):
        for rep in range(int(os.environ.get("REPS", "3"))):
            touch((264,), (256,), (big, sink, np.int64(big.size)))  # evict x from L2
            if mode == "l2":
                touch((264,), (256,), (x, sink, np.int64(x.size)))
            cp.cuda.Device().synchronize()
            chunk((n // THREADS,), (THREADS,), (x, out, clk, np.int32(pw), np.int32(mode == "hit")))
            cp.cuda.Device().synchronize()
            c = clk.get().reshape(-1, 3)
            spans = []
            for sm in range(SMS):
                sel = c[:, 2] == sm
                if sel.any():
                    spans.append((c[sel, 1].max() - c[sel, 0].min()) / (sel.sum() * 32))
            res.append(dict(pitch=pitch, mode=mode, rep=rep, cyc_per_load_sm=float(np.median(spans)),
                            p10=float(np.percentile(spans, 10)), p90=float(np.percentile(spans, 90))))
            print(json.dumps(res[-1]), flush=True)
with open(sys.argv[1], "w") as f:
    for r in res:
        f.write(json.dumps(r) + "\n")
