// A third batch of kernels users bring (validation/typical, typical2 have the first two): classic
// CUDA samples and textbook kernels. specs.py launches them; run with
// `bash validation/typical/run.sh validation/typical3` on the device.
#include <cuda_fp16.h>

extern "C" __global__ void dgemm_naive(const double* A, const double* B, double* C, int n)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    double acc = 0.0;
    for (int k = 0; k < n; ++k) acc += A[r * n + k] * B[k * n + c];
    C[r * n + c] = acc;
}

extern "C" __global__ void sgemm_tile32(const float* A, const float* B, float* C, int n)
{   // 32x32 tiles, 1,024 threads per block
    __shared__ float As[32][32], Bs[32][32];
    int tx = threadIdx.x, ty = threadIdx.y, r = blockIdx.y * 32 + ty, c = blockIdx.x * 32 + tx;
    float acc = 0.f;
    for (int t = 0; t < n / 32; ++t) {
        As[ty][tx] = A[r * n + t * 32 + tx];
        Bs[ty][tx] = B[(t * 32 + ty) * n + c];
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[r * n + c] = acc;
}

#define CONFLICT_FREE(i) ((i) + ((i) >> 5))
extern "C" __global__ void blelloch_scan(const int* in, int* out)
{   // work-efficient exclusive scan of 512 ints per block (256 threads), padded against bank conflicts
    __shared__ int s[512 + 16];
    int t = threadIdx.x, base = blockIdx.x * 512;
    s[CONFLICT_FREE(t)] = in[base + t];
    s[CONFLICT_FREE(t + 256)] = in[base + t + 256];
    int off = 1;
    for (int d = 256; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            s[CONFLICT_FREE(bi)] += s[CONFLICT_FREE(ai)];
        }
        off <<= 1;
    }
    if (t == 0) s[CONFLICT_FREE(511)] = 0;
    for (int d = 1; d < 512; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            int v = s[CONFLICT_FREE(ai)];
            s[CONFLICT_FREE(ai)] = s[CONFLICT_FREE(bi)];
            s[CONFLICT_FREE(bi)] += v;
        }
    }
    __syncthreads();
    out[base + t] = s[CONFLICT_FREE(t)];
    out[base + t + 256] = s[CONFLICT_FREE(t + 256)];
}

__device__ void warp_reduce(volatile float* s, int t)
{
    s[t] += s[t + 32]; s[t] += s[t + 16]; s[t] += s[t + 8];
    s[t] += s[t + 4]; s[t] += s[t + 2]; s[t] += s[t + 1];
}

extern "C" __global__ void reduce6(const float* in, float* out, int n)
{   // NVIDIA's reduction sample, kernel 6: grid-stride loads of two, unrolled last warp
    __shared__ float s[256];
    int t = threadIdx.x;
    unsigned i = blockIdx.x * 512 + t, grid = 512 * gridDim.x;
    float v = 0.f;
    while (i < n) { v += in[i]; if (i + 256 < n) v += in[i + 256]; i += grid; }
    s[t] = v;
    __syncthreads();
    if (t < 128) s[t] += s[t + 128];
    __syncthreads();
    if (t < 64) s[t] += s[t + 64];
    __syncthreads();
    if (t < 32) warp_reduce(s, t);
    if (t == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void nbody_forces(const float4* pos, float4* acc, int n)
{   // all pairs through shared tiles of 128 bodies
    __shared__ float4 tile[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 p = pos[i];
    float ax = 0.f, ay = 0.f, az = 0.f;
    for (int t = 0; t < n / 128; ++t) {
        tile[threadIdx.x] = pos[t * 128 + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 128; ++j) {
            float4 q = tile[j];
            float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
            float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-2f);
            float s = q.w * inv * inv * inv;
            ax += dx * s; ay += dy * s; az += dz * s;
        }
        __syncthreads();
    }
    acc[i] = make_float4(ax, ay, az, 0.f);
}

extern "C" __global__ void hist_warp_private(const unsigned char* data, unsigned* hist, int n)
{   // 64 bins, one sub-histogram per warp in shared memory
    __shared__ unsigned h[8][64];
    int t = threadIdx.x, w = t >> 5;
    for (int k = t; k < 8 * 64; k += blockDim.x) h[k / 64][k % 64] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) atomicAdd(&h[w][data[i] & 63], 1u);
    __syncthreads();
    if (t < 64) {
        unsigned s = 0;
        for (int k = 0; k < 8; ++k) s += h[k][t];
        atomicAdd(&hist[t], s);
    }
}

extern "C" __global__ void blur5x5(const float* in, float* out, int w, int h)
{   // 5x5 box blur, 16x16 block, a 20x20 shared tile with its halo (clamped at the border)
    __shared__ float tile[20][20];
    int x0 = blockIdx.x * 16 - 2, y0 = blockIdx.y * 16 - 2;
    for (int k = threadIdx.y * 16 + threadIdx.x; k < 400; k += 256) {
        int tx = k % 20, ty = k / 20;
        int x = min(max(x0 + tx, 0), w - 1), y = min(max(y0 + ty, 0), h - 1);
        tile[ty][tx] = in[y * w + x];
    }
    __syncthreads();
    float s = 0.f;
    for (int dy = 0; dy < 5; ++dy)
        for (int dx = 0; dx < 5; ++dx) s += tile[threadIdx.y + dy][threadIdx.x + dx];
    out[(blockIdx.y * 16 + threadIdx.y) * w + blockIdx.x * 16 + threadIdx.x] = s * (1.f / 25.f);
}

extern "C" __global__ void ell_spmv(const int* cols, const float* vals, const float* x, float* y, int rows, int width)
{   // ELL storage, column-major: coalesced over rows
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.f;
    for (int k = 0; k < width; ++k) {
        int c = cols[k * rows + r];
        if (c >= 0) s += vals[k * rows + r] * x[c];
    }
    y[r] = s;
}

extern "C" __global__ void online_softmax(const float* x, float* y, int cols)
{   // one warp per row: running max and sum in one pass, then the outputs
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5), lane = threadIdx.x & 31;
    const float* r = x + (size_t)row * cols;
    float m = -3.0e38f, s = 0.f;
    for (int c = lane; c < cols; c += 32) {
        float v = r[c], m2 = fmaxf(m, v);
        s = s * __expf(m - m2) + __expf(v - m2);
        m = m2;
    }
    for (int o = 16; o > 0; o >>= 1) {
        float mo = __shfl_xor_sync(0xffffffffu, m, o), so = __shfl_xor_sync(0xffffffffu, s, o);
        float m2 = fmaxf(m, mo);
        s = s * __expf(m - m2) + so * __expf(mo - m2);
        m = m2;
    }
    for (int c = lane; c < cols; c += 32) y[(size_t)row * cols + c] = __expf(r[c] - m) / s;
}

extern "C" __global__ void mlp_relu(const float* W, const float* x, const float* b, float* y, int in_dim, int out_dim)
{   // y = relu(W x + b) for a batch: block = one input vector, x staged in shared memory
    extern __shared__ float xs[];
    const float* xv = x + (size_t)blockIdx.x * in_dim;
    for (int k = threadIdx.x; k < in_dim; k += blockDim.x) xs[k] = xv[k];
    __syncthreads();
    for (int o = threadIdx.x; o < out_dim; o += blockDim.x) {
        float s = b[o];
        for (int k = 0; k < in_dim; ++k) s += W[(size_t)o * in_dim + k] * xs[k];
        y[(size_t)blockIdx.x * out_dim + o] = fmaxf(s, 0.f);
    }
}

extern "C" __global__ void mandelbrot(int* iters, int w, int h, int max_iter)
{   // compute-bound, divergent trip counts
    int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
    float cx = -2.0f + 3.0f * px / w, cy = -1.25f + 2.5f * py / h;
    float zx = 0.f, zy = 0.f;
    int it = 0;
    while (it < max_iter && zx * zx + zy * zy < 4.f) {
        float t = zx * zx - zy * zy + cx;
        zy = 2.f * zx * zy + cy;
        zx = t;
        ++it;
    }
    iters[py * w + px] = it;
}

extern "C" __global__ void life_step(const unsigned char* g, unsigned char* o, int w, int h)
{   // Conway's game of life on a torus, one byte per cell
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    int n = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            if (dx || dy) n += g[((y + dy + h) % h) * w + (x + dx + w) % w];
    unsigned char c = g[y * w + x];
    o[y * w + x] = (n == 3 || (c && n == 2)) ? 1 : 0;
}

extern "C" __global__ void half2_dot(const __half2* a, const __half2* b, float* out, int n2)
{   // per-warp half2 products, float accumulation, one atomic per warp
    float s = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += gridDim.x * blockDim.x) {
        float2 p = __half22float2(__hmul2(a[i], b[i]));
        s += p.x + p.y;
    }
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, s);
}

extern "C" __global__ void radix_digit_count(const unsigned* keys, unsigned* counts, int n, int shift)
{   // one radix-sort pass's histogram: 16 digits per block in shared memory, per-block counts out
    __shared__ unsigned c[16];
    if (threadIdx.x < 16) c[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&c[(keys[i] >> shift) & 15], 1u);
    __syncthreads();
    if (threadIdx.x < 16) counts[threadIdx.x * gridDim.x + blockIdx.x] = c[threadIdx.x];
}
