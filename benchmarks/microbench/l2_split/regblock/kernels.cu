// validation/typical5's sgemm_regblock4x4 (64x64 tiles, 16x16 threads, 4x4 outputs per thread, K
// step 8) with A and/or B private to a CTA (pa: the CTA reads A from copy blockIdx.x, pb: B from copy
// blockIdx.y; the same access pattern, nothing shared) and, when clk is not null, thread (0, 0)'s
// clock64 at the top of each of the 32 k tiles and %smid (as ../stamps.py does for the 16x16 GEMMs).
#define RB_T 64
#define RB_K 8
#define TILES 32
__device__ __forceinline__ unsigned smid_of() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }

extern "C" __global__ void regblock(const float* A, const float* B, float* C, int M, int N, int K, int pa, int pb,
                                    long long* clk, int* sm)
{
    A += pa ? (size_t)blockIdx.x * M * K : 0;
    B += pb ? (size_t)blockIdx.y * K * N : 0;
    __shared__ __align__(16) float As[RB_K][RB_T];
    __shared__ __align__(16) float Bs[RB_K][RB_T];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    int cta = blockIdx.y * gridDim.x + blockIdx.x;
    bool rec = clk != 0 && t == 0;
    if (rec) sm[cta] = smid_of();
    int row0 = blockIdx.y * RB_T, col0 = blockIdx.x * RB_T;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += RB_K) {
        if (rec) clk[cta * TILES + k0 / RB_K] = clock64();
        for (int e = t; e < RB_T * RB_K; e += 256) {
            int r = e / RB_K, k = e % RB_K;
            As[k][r] = A[(row0 + r) * K + k0 + k];
            int kb = e / RB_T, c = e % RB_T;
            Bs[kb][c] = B[(k0 + kb) * N + col0 + c];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < RB_K; ++k) {
            float4 a = *reinterpret_cast<const float4*>(&As[k][ty * 4]);
            float4 b = *reinterpret_cast<const float4*>(&Bs[k][tx * 4]);
            float av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] += av[i] * bv[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i) {
        float4 v = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        *reinterpret_cast<float4*>(&C[(row0 + ty * 4 + i) * N + col0 + tx * 4]) = v;
    }
}
