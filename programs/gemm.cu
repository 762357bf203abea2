// GEMM: C = A @ B, row-major float32.  A is M x K, B is K x N, C is M x N.
//
// Three versions of the same computation, from slow to fast, to compare on the simulator:
//   gemm_naive     one thread per output; every operand is read straight from global memory
//                  (each A row is read N times, each B column M times).
//   gemm_tiled     a 16x16 CTA stages a 16x16 tile of A and of B in shared memory; every element
//                  loaded from global memory is then used TILE times from shared memory.
//   gemm_regblock  a 256-thread CTA computes a 64x64 tile of C; each thread computes a 4x4 block of
//                  outputs held in registers, so one shared-memory read feeds 4 FMAs.
// All three handle M, N, K that are not multiples of the tile: loads outside the matrices read 0
// (zero padding adds nothing to a dot product) and stores outside C are skipped.

#ifndef TILE
#define TILE 16
#endif

extern "C" __global__ void gemm_naive(const float* A, const float* B, float* C, int M, int N, int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}

// Launch with block = (TILE, TILE), grid = (ceil(N / TILE), ceil(M / TILE)).
extern "C" __global__ void gemm_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;

    for (int k0 = 0; k0 < K; k0 += TILE) {
        // Each thread loads one element of each tile (zero outside the matrices).
        As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();                      // the tiles are complete
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];     // As[ty][k]: broadcast; Bs[k][tx]: consecutive banks
        __syncthreads();                      // everyone is done before the tiles are overwritten
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

// Register blocking.  CTA tile BM x BN of C, K staged BK at a time, thread block (16, 16).
// Thread (tx, ty) owns the outputs C[ty + 16*i][tx + 16*j], i, j in 0..3: strided rather than a
// contiguous 4x4 patch, so that a warp's reads of Bs hit 16 consecutive words (no bank conflict)
// and its stores to C are coalesced.
#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

extern "C" __global__ void gemm_regblock(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BN];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * 16 + tx;
    const int row0 = blockIdx.y * BM;
    const int col0 = blockIdx.x * BN;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        // 256 threads load the BM x BK tile of A and the BK x BN tile of B, 4 elements each.
        for (int e = tid; e < BM * BK; e += 256) {
            int r = e / BK, c = e % BK;
            int gr = row0 + r, gc = k0 + c;
            As[r][c] = (gr < M && gc < K) ? A[gr * K + gc] : 0.0f;
        }
        for (int e = tid; e < BK * BN; e += 256) {
            int r = e / BN, c = e % BN;
            int gr = k0 + r, gc = col0 + c;
            Bs[r][c] = (gr < K && gc < N) ? B[gr * N + gc] : 0.0f;
        }
        __syncthreads();

#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[ty + 16 * i][k];
#pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = Bs[k][tx + 16 * j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);   // 16 FMAs per 8 shared loads
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        int r = row0 + ty + 16 * i;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            int c = col0 + tx + 16 * j;
            if (r < M && c < N)
                C[r * N + c] = acc[i][j];
        }
    }
}
