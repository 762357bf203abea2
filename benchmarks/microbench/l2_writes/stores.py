"""Device run: is a global store paced per warp, per SM or per line? (follows writes.py)

One CTA per SM of W warps (W = 1 ... 32), 1 or 132 SMs. Each warp stores, 8 per loop trip, with
lane stride S floats (1 line per store for S = 1, 32 one-sector lines for S = 32), either
* `rep`: to the same 8 line-shifts every trip (as l1_lines/lines.py: the same lines over and over), or
* `fresh`: to new lines every trip (each warp its own region, written once per pass; the timed
  second pass hits in L2).
clock64 over the timed pass: cycles per warp store, per SM and per warp.

    python stores.py OUT.jsonl
"""

import json
import subprocess
import sys

import cupy as cp

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
// region per warp: `span` floats; rep: 8 line-shifts reused every trip; fresh: trip i, store k at
// line (8 i + k) * stride (so every store of a pass touches new lines)
extern "C" __global__ void st_rep(float* buf, long long* cyc, int stride, int iters, int span)
{
    float* p = buf + (size_t)(blockIdx.x * blockDim.x / 32 + threadIdx.x / 32) * span + (threadIdx.x % 32) * stride;
    float v = (float)threadIdx.x;
#define STR(k) asm volatile("st.global.f32 [%0], %1;" :: "l"(p + ((i + k) & 7) * 32), "f"(v));
    BODY(STR)
}
extern "C" __global__ void st_fresh(float* buf, long long* cyc, int stride, int iters, int span)
{
    float* p = buf + (size_t)(blockIdx.x * blockDim.x / 32 + threadIdx.x / 32) * span + (threadIdx.x % 32) * stride;
    float v = (float)threadIdx.x;
#define STF(k) asm volatile("st.global.f32 [%0], %1;" :: "l"(p + (size_t)(8 * i + k) * 32 * stride), "f"(v));
    BODY(STF)
}
'''
ITERS = 16


def main() -> None:
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    mod = cp.RawModule(code=SRC)
    rows = []
    for name in ("st_rep", "st_fresh"):
        k = mod.get_function(name)
        for stride in (1, 8, 32):
            iters = ITERS if stride < 32 else ITERS // 4  # stride 32: 32 lines a store
            span = (8 * iters + 8) * 32 * stride + 64  # floats per warp
            for sms in (1, 132):
                for w in (1, 2, 4, 8, 16, 32):
                    if sms * w * span * 4 > 48 << 20:  # keep the whole footprint in L2
                        continue
                    buf = cp.zeros(sms * w * span, cp.float32)
                    cyc = cp.zeros(sms, cp.int64)
                    for _ in range(2):
                        k((sms,), (32 * w,), (buf, cyc, cp.int32(stride), cp.int32(iters), cp.int32(span)))
                    cp.cuda.runtime.deviceSynchronize()
                    c = float(cp.median(cyc.astype(cp.float64)))
                    n = iters * 8
                    rows.append({"gpu": gpu, "kernel": name, "stride": stride, "lines": min(32, stride),
                                 "sms": sms, "warps": w, "cycles": c, "per_store_per_sm": c / (n * w),
                                 "per_store_per_warp": c / n})
                    del buf
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    if len(sys.argv) > 1:
        open(sys.argv[1], "w").write(text)
    sys.stderr.write(text)


if __name__ == "__main__":
    main()
