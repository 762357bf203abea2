// Which of a GEMM's two loads merge across SMs? The calibration gemm_tiled (16x16 tiles, read
// with plain loads), gemm_naive and typical's gemm_cp_async (the same tiles double-buffered with cp.async), each
// with A and/or B made private to a CTA: a private operand is read from its own copy (one per grid
// column for A, one per grid row for B), so the same addresses per CTA, but no sector is shared
// with another CTA. The L2 read sectors of the four variants split the merging between A and B.
#define PRIVATE_A(pa) (pa ? (size_t)blockIdx.x * M * K : 0)
#define PRIVATE_B(pb) (pb ? (size_t)blockIdx.y * K * N : 0)

__device__ __forceinline__ void tiled(const float* A, const float* B, float* C, int M, int N, int K)
{   // the calibration suite's gemm_tiled, line for line (T = 16)
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty;
    int col = blockIdx.x * 16 + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + 16 - 1) / 16; ++t) {
        int ak = t * 16 + tx;
        int bk = t * 16 + ty;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
}

__device__ __forceinline__ void naive(const float* A, const float* B, float* C, int M, int N, int K)
{   // the calibration suite's gemm_naive, line for line
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}

__device__ __forceinline__ void cp_async4(float* smem, const float* gmem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"(s), "l"(gmem));
}

__device__ __forceinline__ void cp_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[2][16][16];
    __shared__ float Bs[2][16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    float acc = 0.f;
    int tiles = K / 16;
    cp_async4(&As[0][ty][tx], &A[row * K + tx]);
    cp_async4(&Bs[0][ty][tx], &B[ty * N + col]);
    asm volatile("cp.async.commit_group;\n" ::);
    for (int t = 0; t < tiles; ++t) {
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
}

#define VARIANT(name, body, pa, pb) \
    extern "C" __global__ void name(const float* A, const float* B, float* C, int M, int N, int K) \
    { body(A + PRIVATE_A(pa), B + PRIVATE_B(pb), C, M, N, K); }

VARIANT(tiled_shared_ab, tiled, 0, 0)
VARIANT(tiled_private_a, tiled, 1, 0)
VARIANT(tiled_private_b, tiled, 0, 1)
VARIANT(tiled_private_ab, tiled, 1, 1)
VARIANT(naive_shared_ab, naive, 0, 0)
VARIANT(naive_private_a, naive, 1, 0)
VARIANT(naive_private_b, naive, 0, 1)
VARIANT(naive_private_ab, naive, 1, 1)
VARIANT(cp_shared_ab, cp_tiled, 0, 0)
VARIANT(cp_private_a, cp_tiled, 1, 0)
VARIANT(cp_private_b, cp_tiled, 0, 1)
VARIANT(cp_private_ab, cp_tiled, 1, 1)
