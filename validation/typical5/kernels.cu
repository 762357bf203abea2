// Fifth batch of kernels users bring, written on 2026-12-01 after every model in simgpu was set and
// not used to set any: image resampling, register-blocked GEMM with 128-bit shared loads, softmax and
// layer norm over rows, a paged KV-cache append, an embedding bag, a (B,H,S,D) -> (B,S,H,D) permute,
// a byte histogram, COO SpMV with float atomics, an integer max reduction, a 3-point stencil over
// 64 MB of doubles (past the L2), a masked select, A * B^T with B read across lanes, rotary
// embeddings whose cos/sin table every head shares, and an int8 GEMV with __dp4a.
// Checked against the H200 with `bash validation/typical/run.sh validation/typical5` on the device.
#include <cuda_fp16.h>

extern "C" __global__ void bilinear_up2(const float* in, float* out, int w, int h)
{   // 2x upscale with bilinear weights (align_corners=False), clamped: four reads per output
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= 2 * w || y >= 2 * h) return;
    float sx = fmaxf((x + 0.5f) * 0.5f - 0.5f, 0.f), sy = fmaxf((y + 0.5f) * 0.5f - 0.5f, 0.f);
    int x0 = (int)sx, y0 = (int)sy;
    int x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1);
    float fx = sx - x0, fy = sy - y0;
    float top = in[y0 * w + x0] * (1.f - fx) + in[y0 * w + x1] * fx;
    float bot = in[y1 * w + x0] * (1.f - fx) + in[y1 * w + x1] * fx;
    out[y * 2 * w + x] = top * (1.f - fy) + bot * fy;
}

#define RB_T 64
#define RB_K 8
extern "C" __global__ void sgemm_regblock4x4(const float* A, const float* B, float* C, int M, int N, int K)
{   // 64x64 tile per CTA of 16x16 threads, 4x4 outputs per thread, float4 reads of the shared tiles
    __shared__ __align__(16) float As[RB_K][RB_T];  // A tile stored k-major (transposed)
    __shared__ __align__(16) float Bs[RB_K][RB_T];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    int row0 = blockIdx.y * RB_T, col0 = blockIdx.x * RB_T;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += RB_K) {
        for (int e = t; e < RB_T * RB_K; e += 256) {
            int r = e / RB_K, k = e % RB_K;  // A: 64 rows x 8 k
            As[k][r] = A[(row0 + r) * K + k0 + k];
            int kb = e / RB_T, c = e % RB_T;  // B: 8 k x 64 cols
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

extern "C" __global__ void softmax_block_rows(const float* x, float* y, int cols)
{   // one CTA of 256 threads per row: max and sum through shared memory, the row read twice
    __shared__ float red[256];
    const float* row = x + (size_t)blockIdx.x * cols;
    float m = __int_as_float(0xff800000);  // -inf (NVRTC has no math.h)
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
    red[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += __expf(row[c] - m);
    red[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    float inv = 1.f / red[0];
    for (int c = threadIdx.x; c < cols; c += blockDim.x) y[(size_t)blockIdx.x * cols + c] = __expf(row[c] - m) * inv;
}

extern "C" __global__ void layernorm_welford_warp(const float4* x, const float* gamma, float* y, int cols4)
{   // one warp per row, float4 loads, Welford mean/variance combined across lanes by shuffles
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x & 31;
    const float4* r = x + (size_t)row * cols4;
    float n = 0.f, mean = 0.f, m2 = 0.f;
    for (int c = lane; c < cols4; c += 32) {
        float4 v = r[c];
        float vs[4] = {v.x, v.y, v.z, v.w};
        for (int j = 0; j < 4; ++j) {
            n += 1.f;
            float d = vs[j] - mean;
            mean += d / n;
            m2 += d * (vs[j] - mean);
        }
    }
    for (int o = 16; o; o >>= 1) {
        float n2 = __shfl_xor_sync(0xffffffff, n, o), mean2 = __shfl_xor_sync(0xffffffff, mean, o);
        float m22 = __shfl_xor_sync(0xffffffff, m2, o);
        float nt = n + n2, d = mean2 - mean;
        mean += d * n2 / nt;
        m2 += m22 + d * d * n * n2 / nt;
        n = nt;
    }
    float rstd = rsqrtf(m2 / n + 1e-5f);
    float* out = y + (size_t)row * cols4 * 4;
    for (int c = lane; c < cols4; c += 32) {
        float4 v = r[c];
        out[4 * c + 0] = (v.x - mean) * rstd * gamma[4 * c + 0];
        out[4 * c + 1] = (v.y - mean) * rstd * gamma[4 * c + 1];
        out[4 * c + 2] = (v.z - mean) * rstd * gamma[4 * c + 2];
        out[4 * c + 3] = (v.w - mean) * rstd * gamma[4 * c + 3];
    }
}

extern "C" __global__ void kv_append_paged(const __half* k_new, __half* cache, const int* block_table,
                                           const int* seq_len, int heads, int dim, int block_size)
{   // one CTA per sequence: its new token's K (heads x dim halves) into slot seq_len % block_size of
    // the physical block the sequence's block table names (PagedAttention's cache write)
    int s = blockIdx.x, pos = seq_len[s];
    int phys = block_table[s * 64 + pos / block_size], slot = pos % block_size;
    for (int e = threadIdx.x; e < heads * dim; e += blockDim.x) {
        int h = e / dim, d = e % dim;
        cache[(((size_t)phys * heads + h) * block_size + slot) * dim + d] = k_new[(size_t)s * heads * dim + e];
    }
}

extern "C" __global__ void embedding_bag4(const float4* table, const int* idx, float4* out, int dim4)
{   // each output row is the sum of 4 table rows picked by idx; one CTA per output row
    int b = blockIdx.x;
    for (int c = threadIdx.x; c < dim4; c += blockDim.x) {
        float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
        for (int j = 0; j < 4; ++j) {
            float4 v = table[(size_t)idx[b * 4 + j] * dim4 + c];
            s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w;
        }
        out[(size_t)b * dim4 + c] = s;
    }
}

extern "C" __global__ void permute_bhsd_bshd(const float* in, float* out, int H, int S, int D)
{   // (B, H, S, D) -> (B, S, H, D): contiguous D-runs move as a whole
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int d = i % D, s = (i / D) % S, h = (i / ((size_t)D * S)) % H;
    size_t b = i / ((size_t)D * S * H);
    out[((b * S + s) * H + h) * D + d] = in[i];
}

extern "C" __global__ void hist_u8_shared(const unsigned char* in, unsigned int* bins, int n)
{   // 256-bin byte histogram: one byte per thread per step, shared atomics, then global
    __shared__ unsigned int h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[in[i]], 1u);
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

extern "C" __global__ void coo_spmv_atomic(const int* rows, const int* cols, const float* vals,
                                           const float* x, float* y, int nnz)
{   // one thread per nonzero, y[row] += v * x[col] with a float atomic
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nnz) atomicAdd(&y[rows[i]], vals[i] * x[cols[i]]);
}

extern "C" __global__ void atomic_max_int(const int* in, int* out, int n)
{   // grid-stride maximum, reduced in the warp first, one atomicMax per warp
    int m = -2147483647 - 1;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) m = max(m, in[i]);
    for (int o = 16; o; o >>= 1) m = max(m, __shfl_xor_sync(0xffffffff, m, o));
    if ((threadIdx.x & 31) == 0) atomicMax(out, m);
}

extern "C" __global__ void stencil3_double(const double* in, double* out, long n)
{   // 3-point average over 64 MB of doubles: more than the L2 holds, written back as it goes
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double l = in[max(i - 1, 0L)], c = in[i], r = in[min(i + 1, n - 1)];
    out[i] = 0.25 * l + 0.5 * c + 0.25 * r;
}

extern "C" __global__ void where_select(const unsigned char* mask, const float* a, const float* b, float* out, int n)
{   // out = mask ? a : b: each lane reads only one of the two arrays
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = mask[i] ? a[i] : b[i];
}

extern "C" __global__ void gemm_abt_naive(const float* A, const float* B, float* C, int M, int N, int K)
{   // C = A * B^T, one thread per output: lanes read B rows k-wise, 32 lines per warp load
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    float s = 0.f;
    for (int k = 0; k < K; ++k) s += A[row * K + k] * B[col * K + k];
    C[row * N + col] = s;
}

extern "C" __global__ void rope_rotary(const float2* x, const float2* cos_sin, float2* y, int heads, int half_dim)
{   // rotary embedding of (S, H, D) float pairs; the (S, D/2) cos/sin table is read by every head
    int p = blockIdx.x * blockDim.x + threadIdx.x;  // pair index over S * H * half_dim
    int d = p % half_dim, s = p / (half_dim * heads);
    float2 v = x[p], cs = cos_sin[s * half_dim + d];
    y[p] = make_float2(v.x * cs.x - v.y * cs.y, v.x * cs.y + v.y * cs.x);
}

extern "C" __global__ void int8_gemv_dp4a(const int* A, const int* x, int* y, int cols4)
{   // y = A x over int8 packed four to an int, one warp per row, __dp4a
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x & 31;
    int s = 0;
    for (int c = lane; c < cols4; c += 32) s = __dp4a(A[(size_t)row * cols4 + c], x[c], s);
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    if (lane == 0) y[row] = s;
}
