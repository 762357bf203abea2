"""Device run: when does each CTA of the l2_split GEMMs start each tile? The kernels of kernels.cu
(the calibration gemm_tiled and typical's gemm_cp_async, A and/or B private to a CTA), 16 x 16 CTAs
of 16 x 16 threads, two per SM; thread (0, 0) of every CTA records %smid and clock64 at its start,
at the top of each tile and at its end. The SMs of one GPC share their clock (their CTAs' start
stamps agree within ~170 cycles, the dispatch spread), so the stamps give how far apart in cycles
the CTAs that share a tile run. Meant to run under ncu (cold caches, locked clocks, as the L2 read
counts were measured): writes one JSON line per launch to stdout.

    ncu --metrics gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum python stamps.py RUNS OUT.jsonl
"""

import json
import subprocess
import sys
from pathlib import Path

import cupy as cp

G, TILES = 256, 16
STAMP = r'''
#define STAMP(i) if (rec) clk[(blockIdx.y * gridDim.x + blockIdx.x) * (TILES + 2) + (i)] = clock64()
#define TILES 16
__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
'''
TILED = r'''
extern "C" __global__ void tiled_stamped(const float* A, const float* B, float* C, int M, int N, int K,
                                         int pa, int pb, long long* clk, int* sm)
{
    A += pa ? (size_t)blockIdx.x * M * K : 0;
    B += pb ? (size_t)blockIdx.y * K * N : 0;
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    bool rec = tx == 0 && ty == 0;
    if (rec) sm[blockIdx.y * gridDim.x + blockIdx.x] = smid();
    STAMP(0);
    int row = blockIdx.y * 16 + ty;
    int col = blockIdx.x * 16 + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + 16 - 1) / 16; ++t) {
        STAMP(1 + t);
        int ak = t * 16 + tx;
        int bk = t * 16 + ty;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
    STAMP(TILES + 1);
}
'''
CP = r'''
__device__ __forceinline__ void cp_async4(float* smem, const float* gmem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"(s), "l"(gmem));
}
extern "C" __global__ void cp_stamped(const float* A, const float* B, float* C, int M, int N, int K,
                                      int pa, int pb, long long* clk, int* sm)
{
    A += pa ? (size_t)blockIdx.x * M * K : 0;
    B += pb ? (size_t)blockIdx.y * K * N : 0;
    __shared__ float As[2][16][16];
    __shared__ float Bs[2][16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    bool rec = tx == 0 && ty == 0;
    if (rec) sm[blockIdx.y * gridDim.x + blockIdx.x] = smid();
    STAMP(0);
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    float acc = 0.f;
    int tiles = K / 16;
    cp_async4(&As[0][ty][tx], &A[row * K + tx]);
    cp_async4(&Bs[0][ty][tx], &B[ty * N + col]);
    asm volatile("cp.async.commit_group;\n" ::);
    for (int t = 0; t < tiles; ++t) {
        STAMP(1 + t);
        int cur = t & 1;
        if (t + 1 < tiles) {
            cp_async4(&As[cur ^ 1][ty][tx], &A[row * K + (t + 1) * 16 + tx]);
            cp_async4(&Bs[cur ^ 1][ty][tx], &B[((t + 1) * 16 + ty) * N + col]);
        }
        asm volatile("cp.async.commit_group;\n" ::);
        asm volatile("cp.async.wait_group 1;\n" ::);
        __syncthreads();
        for (int k = 0; k < 16; ++k) acc += As[cur][ty][k] * Bs[cur][k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
    STAMP(TILES + 1);
}
'''
VARIANTS = [("tiled", 0, 0), ("tiled", 1, 0), ("tiled", 0, 1), ("cp", 0, 0), ("cp", 1, 0), ("cp", 0, 1)]


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    mod = cp.RawModule(code=STAMP + TILED + CP)
    a = cp.tile(cp.random.random(G * G, dtype=cp.float32), TILES)
    b = cp.tile(cp.random.random(G * G, dtype=cp.float32), TILES)
    c = cp.zeros(G * G, cp.float32)
    n_cta = TILES * TILES
    out = []
    for body, pa, pb in VARIANTS:
        k = mod.get_function(f"{body}_stamped")
        for r in range(runs):
            clk = cp.zeros(n_cta * (TILES + 2), cp.int64)
            sm = cp.full(n_cta, -1, cp.int32)
            k((TILES, TILES), (16, 16), (a, b, c, cp.int32(G), cp.int32(G), cp.int32(G), cp.int32(pa), cp.int32(pb),
                                         clk, sm))
            cp.cuda.runtime.deviceSynchronize()
            out.append({"gpu": gpu, "body": body, "pa": pa, "pb": pb, "run": r, "sm": sm.get().tolist(),
                        "clock": clk.get().reshape(n_cta, -1).tolist()})
    dest = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    text = "\n".join(json.dumps(o) for o in out) + "\n"
    if dest:
        dest.write_text(text)
    else:
        sys.stderr.write(text)  # stdout is ncu's


if __name__ == "__main__":
    main()
