"""Device run: how far apart do the SMs run typical3's mlp_relu (128 CTAs of 128 threads, one per SM,
every CTA reading all of W in the same order)? Lane 0 of every warp records clock64 before the W
load of every 32nd k of each of its four outputs; %smid per CTA. Under ncu (cold caches, locked
clocks), one JSON line per launch into OUT.jsonl.

    ncu --metrics gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum python mlp_stamps.py RUNS OUT.jsonl
"""

import json
import subprocess
import sys
from pathlib import Path

import cupy as cp

SRC = r'''
__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
extern "C" __global__ void mlp_relu_stamped(const float* W, const float* x, const float* b, float* y, int in_dim,
                                            int out_dim, long long* clk, int* sm)
{   // typical3's mlp_relu plus the stamps
    extern __shared__ float xs[];
    const float* xv = x + (size_t)blockIdx.x * in_dim;
    for (int k = threadIdx.x; k < in_dim; k += blockDim.x) xs[k] = xv[k];
    __syncthreads();
    if (threadIdx.x == 0) sm[blockIdx.x] = smid();
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, oi = 0;
    long long* mine = clk + ((size_t)blockIdx.x * (blockDim.x / 32) + warp) * 32;
    for (int o = threadIdx.x; o < out_dim; o += blockDim.x, ++oi) {
        float s = b[o];
        for (int k = 0; k < in_dim; ++k) {
            if (lane == 0 && (k & 31) == 0) mine[oi * 8 + k / 32] = clock64();
            s += W[(size_t)o * in_dim + k] * xs[k];
        }
        y[(size_t)blockIdx.x * out_dim + o] = fmaxf(s, 0.f);
    }
}
'''


def main() -> None:
    runs, dest = int(sys.argv[1]), Path(sys.argv[2])
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    k = cp.RawModule(code=SRC).get_function("mlp_relu_stamped")
    ind, outd, batch = 256, 512, 128
    w = cp.random.random(outd * ind, dtype=cp.float32) - 0.5
    x = cp.random.random(batch * ind, dtype=cp.float32)
    bias = cp.random.random(outd, dtype=cp.float32) - 0.5
    y = cp.zeros(batch * outd, cp.float32)
    out = []
    for r in range(runs):
        clk = cp.zeros(batch * 4 * 32, cp.int64)
        sm = cp.full(batch, -1, cp.int32)
        k((batch,), (128,), (w, x, bias, y, cp.int32(ind), cp.int32(outd), clk, sm), shared_mem=ind * 4)
        cp.cuda.runtime.deviceSynchronize()
        out.append({"gpu": gpu, "run": r, "sm": sm.get().tolist(), "clock": clk.get().reshape(batch, 4, 32).tolist()})
    dest.write_text("\n".join(json.dumps(o) for o in out) + "\n")


if __name__ == "__main__":
    main()
