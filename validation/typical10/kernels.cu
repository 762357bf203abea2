// validation/typical10: kernels written on 2026-12-02 after every model was set (used to set nothing):
// a warp-shuffle block scan, an in-place square transpose by swaps, 4x4 matrices applied to float4
// points, a 32x32-tile GEMM with 2x2 outputs per thread, a column cumulative sum, random look-ups in
// a shared-memory table (data-dependent bank conflicts), a 64-bit atomic histogram, a PagedAttention
// block-table gather of uint4, a column-marching 5-point stencil, a transposed double GEMV, and a
// float4 grid-stride saxpy with a scalar tail.

// ---- 1. block inclusive scan: shuffles within warps, warp totals through shared memory ----------
extern "C" __global__ void scan_warp_shfl(const int* in, int* out)
{
    __shared__ int warp_tot[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    int v = in[i];
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += u;
    }
    if (lane == 31) warp_tot[w] = v;
    __syncthreads();
    if (w == 0) {
        int t = lane < (int)(blockDim.x >> 5) ? warp_tot[lane] : 0;
        for (int d = 1; d < 32; d <<= 1) {
            int u = __shfl_up_sync(0xffffffffu, t, d);
            if (lane >= d) t += u;
        }
        warp_tot[lane] = t;
    }
    __syncthreads();
    if (w > 0) v += warp_tot[w - 1];
    out[i] = v;
}

// ---- 2. in-place transpose of a square matrix: the thread above the diagonal swaps its pair -------
extern "C" __global__ void transpose_inplace_swap(float* a, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > y && x < n) {
        float u = a[(size_t)y * n + x], v = a[(size_t)x * n + y];
        a[(size_t)y * n + x] = v;
        a[(size_t)x * n + y] = u;
    }
}

// ---- 3. a 4x4 matrix (uniform loads) applied to float4 points --------------------------------------
extern "C" __global__ void aos_mat4_apply(const float4* __restrict__ p, const float* __restrict__ m, float4* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = p[i], r;
    r.x = m[0] * v.x + m[1] * v.y + m[2] * v.z + m[3] * v.w;
    r.y = m[4] * v.x + m[5] * v.y + m[6] * v.z + m[7] * v.w;
    r.z = m[8] * v.x + m[9] * v.y + m[10] * v.z + m[11] * v.w;
    r.w = m[12] * v.x + m[13] * v.y + m[14] * v.z + m[15] * v.w;
    out[i] = r;
}

// ---- 4. 32x32 tiles of C by 16x16 threads, 2x2 outputs each, K in steps of 32 ----------------------
extern "C" __global__ void gemm_tile32_2x2(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[32][33];
    __shared__ float Bs[32][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    float c00 = 0.f, c01 = 0.f, c10 = 0.f, c11 = 0.f;
    for (int k0 = 0; k0 < n; k0 += 32) {
        for (int r = ty; r < 32; r += 16)
            for (int c = tx; c < 32; c += 16) {
                As[r][c] = A[(size_t)(row0 + r) * n + k0 + c];
                Bs[r][c] = B[(size_t)(k0 + r) * n + col0 + c];
            }
        __syncthreads();
        for (int k = 0; k < 32; ++k) {
            float a0 = As[ty][k], a1 = As[ty + 16][k];
            float b0 = Bs[k][tx], b1 = Bs[k][tx + 16];
            c00 += a0 * b0; c01 += a0 * b1; c10 += a1 * b0; c11 += a1 * b1;
        }
        __syncthreads();
    }
    C[(size_t)(row0 + ty) * n + col0 + tx] = c00;
    C[(size_t)(row0 + ty) * n + col0 + tx + 16] = c01;
    C[(size_t)(row0 + ty + 16) * n + col0 + tx] = c10;
    C[(size_t)(row0 + ty + 16) * n + col0 + tx + 16] = c11;
}

// ---- 5. cumulative sum down each column: a thread per column, a load and a store per row ---------
extern "C" __global__ void col_cumsum(const int* in, int* out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    int s = 0;
    for (int r = 0; r < rows; ++r) {
        s += in[(size_t)r * cols + c];
        out[(size_t)r * cols + c] = s;
    }
}

// ---- 6. eight random look-ups per thread in a 1,024-entry shared table -----------------------------
extern "C" __global__ void shared_lut_random(const int* __restrict__ idx, const float* __restrict__ lut, float* out, int n)
{
    __shared__ float t[1024];
    for (int j = threadIdx.x; j < 1024; j += blockDim.x) t[j] = lut[j];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (int k = 0; k < 8; ++k) acc += t[idx[(size_t)k * n + i] & 1023];
    out[i] = acc;
}

// ---- 7. a histogram of 64-bit weights over 256 bins in global memory -------------------------------
extern "C" __global__ void atomic_u64_hist(const unsigned* __restrict__ keys, const unsigned* __restrict__ w,
                                           unsigned long long* bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[keys[i] & 255u], (unsigned long long)w[i]);
}

// ---- 8. PagedAttention: gather each sequence's K blocks (16 tokens x 8 heads x 128 halves) --------
extern "C" __global__ void paged_kv_gather(const uint4* __restrict__ cache, const int* __restrict__ table, uint4* out,
                                           int blocks_per_seq)
{
    int seq = blockIdx.y, j = blockIdx.x;
    int phys = table[seq * blocks_per_seq + j];
    const uint4* src = cache + (size_t)phys * 2048;
    uint4* dst = out + ((size_t)seq * blocks_per_seq + j) * 2048;
    for (int k = threadIdx.x; k < 2048; k += blockDim.x) dst[k] = src[k];
}

// ---- 9. 5-point stencil marching down 64 rows, the column's values kept in registers --------------
extern "C" __global__ void stencil_col_sliding(const float* __restrict__ in, float* out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < 1 || x >= w - 1) return;
    int y0 = blockIdx.y * 64 + 1, y1 = min(y0 + 64, h - 1);
    float up = in[(size_t)(y0 - 1) * w + x], mid = in[(size_t)y0 * w + x];
    for (int y = y0; y < y1; ++y) {
        float dn = in[(size_t)(y + 1) * w + x];
        out[(size_t)y * w + x] = 0.2f * ((((up + mid) + dn) + in[(size_t)y * w + x - 1]) + in[(size_t)y * w + x + 1]);
        up = mid;
        mid = dn;
    }
}

// ---- 10. y = A^T x in doubles: a thread per column, x[r] the same for every lane ------------------
extern "C" __global__ void dgemv_t_cols(const double* __restrict__ A, const double* __restrict__ x, double* y,
                                        int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    double s = 0.0;
    for (int r = 0; r < rows; ++r) s += A[(size_t)r * cols + c] * x[r];
    y[c] = s;
}

// ---- 11. saxpy: float4 grid-stride loop, then the scalar tail ---------------------------------------
extern "C" __global__ void saxpy_float4_tail(const float* x, float* y, float a, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    int n4 = n / 4;
    const float4* x4 = (const float4*)x;
    float4* y4 = (float4*)y;
    for (int i = tid; i < n4; i += stride) {
        float4 u = x4[i], v = y4[i];
        v.x += a * u.x; v.y += a * u.y; v.z += a * u.z; v.w += a * u.w;
        y4[i] = v;
    }
    for (int i = 4 * n4 + tid; i < n; i += stride) y[i] += a * x[i];
}
