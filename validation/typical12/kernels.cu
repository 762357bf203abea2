// Twelfth batch of kernels nobody calibrated on (written 2026-12-02, set nothing): memory patterns the
// earlier batches did not have: rows that start off a line, duplicate and reversed indices, 16-byte
// AoS loads, cache operators on a re-read, half-warp masks, L2 prefetch and discard, a depthwise
// convolution's halo reuse, packed int4 weights, bf16 vectors, a column sum in double, and
// contended float reductions.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void pitched_copy_odd(const float* in, float* out, int cols, int pitch)
{   // rows of `cols` floats at a pitch of 1001 floats: every row starts somewhere else in a line
    int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 8 + threadIdx.y;
    if (c < cols) out[r * pitch + c] = 2.0f * in[r * pitch + c];
}

extern "C" __global__ void gather_dup_idx(const float* in, const int* idx, float* out, int n)
{   // out[i] = in[idx[i]] with each index repeated by four neighbouring lanes
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[idx[i]];
}

extern "C" __global__ void double2_aos_stride3(const double2* in, double* out, int n)
{   // each thread reads the first double2 of a 48-byte record (16 B per lane, 48 B apart)
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { double2 v = in[3 * i]; out[i] = v.x * v.y; }
}

extern "C" __global__ void reread_cache_ops(const float* a, float* out, int n)
{   // the same data read three times with different cache operators: .ca, .cv (no L1), .cs
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];
        float y = __ldcv(a + i);
        float z = __ldcs(a + i);
        out[i] = x + 2.0f * y + 3.0f * z;
    }
}

extern "C" __global__ void half_warp_masks(const float* a, float* out, int n)
{   // lanes 0-15 read, odd lanes write: half-empty requests
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    float v = 0.0f;
    if (lane < 16) v = a[(i >> 5) * 16 + lane];
    v = __shfl_sync(0xffffffffu, v, lane & 15);
    if (lane & 1) out[i >> 1] = v + (float)lane;
}

extern "C" __global__ void prefetch_then_sum(const float* a, float* out, int n)
{   // prefetch.global.L2 a block's next chunk, then read this one: the second read finds it in L2
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int next = i + gridDim.x * blockDim.x;
    if (next < n && (threadIdx.x & 31) == 0)
        asm volatile("prefetch.global.L2 [%0];" :: "l"(a + next));
    float s = 0.0f;
    for (int k = i; k < n; k += gridDim.x * blockDim.x) s += a[k];
    out[i] = s;
}

extern "C" __global__ void discard_scratch(float* scratch, float* out, int n)
{   // write a scratch line, read it back, then discard.global.L2 it: no DRAM write for it
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        scratch[i] = (float)i * 0.5f;
        __syncthreads();
        float v = scratch[i ^ 1];
        out[i] = v;
        __syncthreads();
        if ((threadIdx.x & 31) == 0)
            asm volatile("discard.global.L2 [%0], 128;" :: "l"(scratch + i) : "memory");
    }
}

extern "C" __global__ void depthwise3x3(const float* in, const float* w, float* out, int h, int wd)
{   // NCHW depthwise 3x3, zero padding, one thread per output, channel = blockIdx.z
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y, c = blockIdx.z;
    const float* p = in + (size_t)c * h * wd;
    float s = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            int yy = y + dy, xx = x + dx;
            if (yy >= 0 && yy < h && xx >= 0 && xx < wd) s += w[c * 9 + (dy + 1) * 3 + dx + 1] * p[yy * wd + xx];
        }
    out[(size_t)c * h * wd + y * wd + x] = s;
}

extern "C" __global__ void int4_gemv(const uint4* wq, const __half* scales, const float* x, float* y, int cols)
{   // y = W x, W packed 8 int4 per uint32 (offset 8), a half scale per 64 columns; a warp per row
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5), lane = threadIdx.x & 31;
    const uint4* wr = wq + (size_t)row * (cols / 32);
    float acc = 0.0f;
    for (int v = lane; v < cols / 32; v += 32) {
        uint4 q = wr[v];
        unsigned w4[4] = {q.x, q.y, q.z, q.w};
        float sc = __half2float(scales[(size_t)row * (cols / 64) + (v * 32) / 64]);
        for (int j = 0; j < 4; ++j)
            for (int b = 0; b < 8; ++b)
                acc += sc * (float)((int)((w4[j] >> (4 * b)) & 15u) - 8) * x[v * 32 + j * 8 + b];
    }
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if (lane == 0) y[row] = acc;
}

extern "C" __global__ void bf16_rmsnorm_vec8(const uint4* x, const __nv_bfloat16* g, uint4* y, int cols)
{   // a warp per row of bf16, 8 values (16 B) per lane per step, sum of squares in float
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5), lane = threadIdx.x & 31;
    const uint4* xr = x + (size_t)row * (cols / 8);
    float ss = 0.0f;
    for (int v = lane; v < cols / 8; v += 32) {
        uint4 q = xr[v];
        const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&q);
        for (int j = 0; j < 4; ++j) { float2 f = __bfloat1622float2(h[j]); ss += f.x * f.x + f.y * f.y; }
    }
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
    float inv = rsqrtf(ss / cols + 1e-6f);
    for (int v = lane; v < cols / 8; v += 32) {
        uint4 q = xr[v];
        __nv_bfloat162* h = reinterpret_cast<__nv_bfloat162*>(&q);
        for (int j = 0; j < 4; ++j) {
            float2 f = __bfloat1622float2(h[j]);
            float2 gg = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(g + v * 8 + 2 * j));
            h[j] = __floats2bfloat162_rn(f.x * inv * gg.x, f.y * inv * gg.y);
        }
        y[(size_t)row * (cols / 8) + v] = q;
    }
}

extern "C" __global__ void col_sum_double(const double* a, double* out, int rows, int cols)
{   // one thread per column, walking down the rows: 8 B per lane, the next row one pitch away
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    double s = 0.0;
    for (int r = 0; r < rows; ++r) s += a[(size_t)r * cols + c];
    out[c] = s;
}

extern "C" __global__ void scatter_red_f32(const float* v, const int* key, float* bins, int n)
{   // contended float reductions: 4,096 bins, keys from a table
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[key[i]], v[i]);
}
