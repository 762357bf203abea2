// Kernels of the kinds users bring, written without looking at simgpu's rules: grid-stride loops,
// vector loads, misaligned and AoS accesses, reductions with atomics, histograms, row-wise norms,
// gathers, stencils, scans, sorts, half precision and cp.async. specs.py launches them; run on the
// H200 with `simgpu compare --suite validation/typical/specs.py --json ...` (see README.md here).
#include <cuda_fp16.h>

extern "C" __global__ void saxpy_gridstride(int n, float a, const float* __restrict__ x, float* y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}

extern "C" __global__ void add_float4(const float4* a, const float4* b, float4* c, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

extern "C" __global__ void copy_offset(const float* in, float* out, int offset, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i + offset];
}

struct P3 { float x, y, z; };

extern "C" __global__ void aos_norm(const P3* p, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        P3 q = p[i];
        out[i] = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    }
}

extern "C" __global__ void reduce_tree_atomic(const float* in, float* out, int n)
{   // blockDim 256, two elements per thread, a shared tree, one float atomic per block
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 512 + t;
    float v = 0.f;
    if (i < n) v = in[i];
    if (i + 256 < n) v += in[i + 256];
    s[t] = v;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, s[0]);
}

extern "C" __global__ void reduce_shfl_atomic(const float* in, float* out, int n)
{   // grid-stride sums, a shuffle tree per warp, one float atomic per warp
    float v = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

extern "C" __global__ void histogram_shared(const unsigned char* data, unsigned int* hist, int n)
{   // blockDim 256: 256 bins in shared memory, merged into global bins at the end
    __shared__ unsigned int h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[data[i]], 1u);
    __syncthreads();
    unsigned int c = h[threadIdx.x];
    if (c) atomicAdd(&hist[threadIdx.x], c);
}

extern "C" __global__ void histogram_global(const int* keys, int* hist, int n, int bins)
{   // straight to global bins: lanes of a warp often share a bin
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[keys[i] % bins], 1);
}

extern "C" __global__ void layernorm_rows(const float* x, float* y, const float* gamma, const float* beta,
                                          int cols, float eps)
{   // one block of 256 per row: shuffle + shared reduction of sum and sum of squares
    __shared__ float red[2][32];
    const float* row = x + (size_t)blockIdx.x * cols;
    float* out = y + (size_t)blockIdx.x * cols;
    float s = 0.f, ss = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        float v = row[c];
        s += v;
        ss += v * v;
    }
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_xor_sync(0xffffffffu, s, o);
        ss += __shfl_xor_sync(0xffffffffu, ss, o);
    }
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    if (l == 0) { red[0][w] = s; red[1][w] = ss; }
    __syncthreads();
    if (w == 0) {
        s = l < (int)(blockDim.x >> 5) ? red[0][l] : 0.f;
        ss = l < (int)(blockDim.x >> 5) ? red[1][l] : 0.f;
        for (int o = 16; o > 0; o >>= 1) {
            s += __shfl_xor_sync(0xffffffffu, s, o);
            ss += __shfl_xor_sync(0xffffffffu, ss, o);
        }
        if (l == 0) { red[0][0] = s; red[1][0] = ss; }
    }
    __syncthreads();
    float mean = red[0][0] / cols;
    float inv = rsqrtf(red[1][0] / cols - mean * mean + eps);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) out[c] = (row[c] - mean) * inv * gamma[c] + beta[c];
}

extern "C" __global__ void softmax_warp_rows(const float* x, float* y, int rows, int cols)
{   // one warp per row
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (warp >= rows) return;
    const float* r = x + (size_t)warp * cols;
    float m = -3.0e38f;
    for (int c = lane; c < cols; c += 32) m = fmaxf(m, r[c]);
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    float s = 0.f;
    for (int c = lane; c < cols; c += 32) s += __expf(r[c] - m);
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    float inv = 1.f / s;
    for (int c = lane; c < cols; c += 32) y[(size_t)warp * cols + c] = __expf(r[c] - m) * inv;
}

extern "C" __global__ void transpose_swizzle(const float* in, float* out, int n)
{   // 32x32 tile, block 32x8, XOR-swizzled columns instead of padding
    __shared__ float t[32][32];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) t[threadIdx.y + j][threadIdx.x ^ (threadIdx.y + j)] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = t[threadIdx.x][(threadIdx.y + j) ^ threadIdx.x];
}

extern "C" __global__ void transpose_shared_nopad(const float* in, float* out, int n)
{   // 32x32 tile, block 32x8, no padding: the column reads conflict 32 ways
    __shared__ float t[32][32];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) t[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = t[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void gemv_warp_rows(const float* A, const float* x, float* y, int rows, int cols)
{   // one warp per row of A
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (warp >= rows) return;
    float s = 0.f;
    for (int c = lane; c < cols; c += 32) s += A[(size_t)warp * cols + c] * x[c];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) y[warp] = s;
}

extern "C" __global__ void gemv_cols(const float* A, const float* x, float* y, int rows, int cols)
{   // y = A^T x, one thread per column
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float s = 0.f;
    for (int r = 0; r < rows; ++r) s += A[(size_t)r * cols + c] * x[r];
    y[c] = s;
}

extern "C" __global__ void row_sum_naive(const float* A, float* out, int rows, int cols)
{   // one thread per row: every load of a warp touches 32 lines, reused by the next loads from L1
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.f;
    for (int c = 0; c < cols; ++c) s += A[(size_t)r * cols + c];
    out[r] = s;
}

extern "C" __global__ void spmv_csr(const int* rowptr, const int* colidx, const float* vals, const float* x,
                                    float* y, int rows)
{   // scalar CSR: one thread per row, gathers from x
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.f;
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) s += vals[k] * x[colidx[k]];
    y[r] = s;
}

extern "C" __global__ void embedding_gather(const int* idx, const float* table, float* out, int dim)
{   // one block per token, one thread per feature
    int row = idx[blockIdx.x];
    for (int d = threadIdx.x; d < dim; d += blockDim.x) out[(size_t)blockIdx.x * dim + d] = table[(size_t)row * dim + d];
}

extern "C" __global__ void stencil2d_shared(const float* in, float* out, int n)
{   // 16x16 tile plus a one-cell halo in shared memory, 5-point stencil, borders copied
    __shared__ float t[18][18];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
    t[ty + 1][tx + 1] = in[y * n + x];
    if (tx == 0) t[ty + 1][0] = x > 0 ? in[y * n + x - 1] : 0.f;
    if (tx == 15) t[ty + 1][17] = x < n - 1 ? in[y * n + x + 1] : 0.f;
    if (ty == 0) t[0][tx + 1] = y > 0 ? in[(y - 1) * n + x] : 0.f;
    if (ty == 15) t[17][tx + 1] = y < n - 1 ? in[(y + 1) * n + x] : 0.f;
    __syncthreads();
    float v = t[ty + 1][tx + 1];
    if (x > 0 && y > 0 && x < n - 1 && y < n - 1)
        v = 0.5f * v + 0.125f * (t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2]);
    out[y * n + x] = v;
}

#define R 8
extern "C" __global__ void conv1d_shared(const float* in, const float* w, float* out, int n)
{   // blockDim 256, a tile of 256 + 2R inputs in shared memory, 2R+1 taps from constant-like global
    __shared__ float s[256 + 2 * R];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x + R] = i < n ? in[i] : 0.f;
    if (threadIdx.x < R) {
        s[threadIdx.x] = i >= R ? in[i - R] : 0.f;
        s[threadIdx.x + 256 + R] = i + 256 < n ? in[i + 256] : 0.f;
    }
    __syncthreads();
    if (i < n) {
        float acc = 0.f;
        for (int k = -R; k <= R; ++k) acc += w[k + R] * s[threadIdx.x + R + k];
        out[i] = acc;
    }
}

extern "C" __global__ void scan_block(const int* in, int* out)
{   // inclusive scan of 512 ints per block (blockDim 512), Hillis-Steele with two buffers
    __shared__ int buf[2][512];
    int t = threadIdx.x, src = 0;
    buf[0][t] = in[blockIdx.x * 512 + t];
    __syncthreads();
    for (int o = 1; o < 512; o <<= 1) {
        int v = buf[src][t];
        if (t >= o) v += buf[src][t - o];
        buf[src ^ 1][t] = v;
        src ^= 1;
        __syncthreads();
    }
    out[blockIdx.x * 512 + t] = buf[src][t];
}

extern "C" __global__ void bitonic_sort_1024(float* data)
{   // sorts 1024 floats per block in shared memory, blockDim 512 (two elements each)
    __shared__ float s[1024];
    float* d = data + blockIdx.x * 1024;
    s[threadIdx.x] = d[threadIdx.x];
    s[threadIdx.x + 512] = d[threadIdx.x + 512];
    __syncthreads();
    for (int k = 2; k <= 1024; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int i = 2 * threadIdx.x - (threadIdx.x & (j - 1));
            int p = i + j;
            bool up = (i & k) == 0;
            float a = s[i], b = s[p];
            if ((a > b) == up) { s[i] = b; s[p] = a; }
            __syncthreads();
        }
    }
    d[threadIdx.x] = s[threadIdx.x];
    d[threadIdx.x + 512] = s[threadIdx.x + 512];
}

extern "C" __global__ void rmsnorm_half2(const __half2* x, const float* w, __half2* y, int cols2, float eps)
{   // one block of 128 per row of 2*cols2 halves, read as half2
    __shared__ float red[4];
    const __half2* row = x + (size_t)blockIdx.x * cols2;
    float ss = 0.f;
    for (int c = threadIdx.x; c < cols2; c += blockDim.x) {
        float2 v = __half22float2(row[c]);
        ss += v.x * v.x + v.y * v.y;
    }
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = ss;
    __syncthreads();
    float inv = rsqrtf((red[0] + red[1] + red[2] + red[3]) / (2 * cols2) + eps);
    for (int c = threadIdx.x; c < cols2; c += blockDim.x) {
        float2 v = __half22float2(row[c]);
        y[(size_t)blockIdx.x * cols2 + c] = __floats2half2_rn(v.x * inv * w[2 * c], v.y * inv * w[2 * c + 1]);
    }
}

__device__ __forceinline__ void cp_async4(float* smem, const float* gmem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"(s), "l"(gmem));
}

extern "C" __global__ void gemm_cp_async(const float* A, const float* B, float* C, int M, int N, int K)
{   // 16x16 tiles, double-buffered with cp.async (M, N, K multiples of 16)
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

extern "C" __global__ void dot_double_atomic(const double* a, const double* b, double* out, int n)
{   // grid-stride products, shuffle tree per warp, one double atomic per warp
    double v = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += a[i] * b[i];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

extern "C" __global__ void matrix_add_2d(const float* a, const float* b, float* c, int rows, int cols)
{   // 2D grid, block 32x8
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < cols && y < rows) c[y * cols + x] = a[y * cols + x] + b[y * cols + x];
}

extern "C" __global__ void col_major_read(const float* a, float* out, int rows, int cols)
{   // threads walk rows of a column-major matrix the wrong way: stride `rows` floats between lanes
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) {
        int r = i / cols, c = i % cols;
        out[i] = a[c * rows + r];
    }
}
