// Fourth batch of kernels users bring, written after the merge model of 2026-11-30
// (benchmarks/microbench/l2_order) and not used to make it: each has CTAs on different SMs that read
// the same sectors, the case where L2 read sectors depend on that model. Checked against the H200 with
// `bash validation/typical/run.sh validation/typical4` on the device.

extern "C" __global__ void conv3x3_global(const float* in, float* out, int w, int h)
{   // 3x3 convolution straight from global memory, clamped borders: neighbouring CTAs share halo rows
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    const float k[3][3] = {{0.0625f, 0.125f, 0.0625f}, {0.125f, 0.25f, 0.125f}, {0.0625f, 0.125f, 0.0625f}};
    float s = 0.f;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            int xx = min(max(x + dx, 0), w - 1), yy = min(max(y + dy, 0), h - 1);
            s += k[dy + 1][dx + 1] * in[yy * w + xx];
        }
    out[y * w + x] = s;
}

extern "C" __global__ void stencil1d_r4(const float* in, float* out, int n)
{   // radius-4 sum, clamped: the CTA edges ask for their neighbours' first and last sectors
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.f;
#pragma unroll
    for (int k = -4; k <= 4; ++k) s += in[min(max(i + k, 0), n - 1)];
    out[i] = s;
}

extern "C" __global__ void gemv_warp_x(const float* A, const float* x, float* y, int rows, int cols)
{   // one warp per row, lanes stride over the columns: every CTA reads all of x
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5), lane = threadIdx.x & 31;
    if (row >= rows) return;
    float s = 0.f;
    for (int c = lane; c < cols; c += 32) s += A[(size_t)row * cols + c] * x[c];
    for (int o = 16; o; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) y[row] = s;
}

extern "C" __global__ void batched_vecmat(const float* X, const float* B, float* out, int K, int N)
{   // out[b, j] = sum_k X[b, k] B[k, j]: one CTA per batch row, B (K x N) read by every CTA, coalesced
    int b = blockIdx.x, j = threadIdx.x;
    float s = 0.f;
    for (int k = 0; k < K; ++k) s += X[(size_t)b * K + k] * B[(size_t)k * N + j];
    out[(size_t)b * N + j] = s;
}

extern "C" __global__ void lut_gather(const int* idx, const float* table, float* out, int n)
{   // a 4 KB lookup table gathered at random by every SM
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = table[idx[i]];
}

extern "C" __global__ void qk_scores(const float* Q, const float* K, float* S, int nq, int nk, int d)
{   // S = Q K^T, 16 x 16 threads, rows of Q and K read straight from global: CTAs of a column of the
    // grid share K rows, CTAs of a row share Q rows
    int kk = blockIdx.x * 16 + threadIdx.x, q = blockIdx.y * 16 + threadIdx.y;
    float s = 0.f;
    for (int t = 0; t < d; ++t) s += Q[(size_t)q * d + t] * K[(size_t)kk * d + t];
    S[(size_t)q * nk + kk] = s;
}

extern "C" __global__ void spmv_banded_csr(const int* rowptr, const int* cols, const float* vals,
                                           const float* x, float* y, int rows)
{   // scalar CSR over a 9-diagonal band: neighbouring rows, and the CTAs at block edges, read the same x
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.f;
    for (int j = rowptr[r]; j < rowptr[r + 1]; ++j) s += vals[j] * x[cols[j]];
    y[r] = s;
}
