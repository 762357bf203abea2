// validation/typical6: eight kernels written on 2026-12-01 after every model was set (used to set
// nothing): byte stores, an array of float3 structs, a half-precision GEMV, a 1024-point FFT in shared
// memory, a warp top-8 by shuffles, a padded transpose of doubles, a row scaling with __ldg / __stcs
// over 64 MB, and an int8 embedding lookup with dequantisation.
#include <cuda_fp16.h>

extern "C" __global__ void memset_pattern_u8(unsigned char* out, int n)
{   // one byte per thread: 32 bytes per warp store
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (unsigned char)(i * 7 + 3);
}

struct P3 { float x, y, z; };

extern "C" __global__ void aos_float3_scale(P3* p, float sx, float sy, float sz, int n)
{   // 12-byte structs: three scalar loads and stores 12 bytes apart per lane
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { P3 v = p[i]; v.x *= sx; v.y *= sy; v.z *= sz; p[i] = v; }
}

extern "C" __global__ void half2_gemv_rows(const __half2* A, const __half2* x, float* y, int cols2)
{   // one warp per row, half2 loads, float accumulation, shuffle reduction
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x & 31;
    const __half2* a = A + (size_t)row * cols2;
    float acc = 0.f;
    for (int c = lane; c < cols2; c += 32) {
        float2 av = __half22float2(a[c]), xv = __half22float2(x[c]);
        acc = fmaf(av.x, xv.x, fmaf(av.y, xv.y, acc));
    }
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (lane == 0) y[row] = acc;
}

extern "C" __global__ void fft1024_shared(const float2* in, float2* out)
{   // one 1024-point complex FFT per block of 512 threads: bit-reversed load, ten radix-2 stages
    __shared__ float2 s[1024];
    const float2* src = in + (size_t)blockIdx.x * 1024;
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[__brev(i) >> 22] = src[i];
    __syncthreads();
    for (int len = 2; len <= 1024; len <<= 1) {
        int half = len >> 1, t = threadIdx.x;
        int pos = t % half, i = (t / half) * len + pos, j = i + half;
        float sn, cs;
        sincospif(-2.f * pos / len, &sn, &cs);
        float2 u = s[i], v = s[j];
        float2 w = make_float2(v.x * cs - v.y * sn, v.x * sn + v.y * cs);
        __syncthreads();
        s[i] = make_float2(u.x + w.x, u.y + w.y);
        s[j] = make_float2(u.x - w.x, u.y - w.y);
        __syncthreads();
    }
    float2* dst = out + (size_t)blockIdx.x * 1024;
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) dst[i] = s[i];
}

extern "C" __global__ void topk8_rows(const float* x, float* top, int cols)
{   // one warp per row of 1024: each lane keeps 32 values, 8 rounds of a warp argmax by shuffles
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x & 31;
    const float* r = x + (size_t)row * cols;
    float v[32];
#pragma unroll
    for (int k = 0; k < 32; ++k) v[k] = r[k * 32 + lane];
    for (int round = 0; round < 8; ++round) {
        float best = -1e30f; int at = 0;
#pragma unroll
        for (int k = 0; k < 32; ++k) if (v[k] > best) { best = v[k]; at = k; }
        float m = best; int who = lane;
        for (int o = 16; o > 0; o >>= 1) {
            float om = __shfl_xor_sync(0xffffffffu, m, o);
            int ow = __shfl_xor_sync(0xffffffffu, who, o);
            if (om > m || (om == m && ow < who)) { m = om; who = ow; }
        }
        if (lane == who) {
#pragma unroll
            for (int k = 0; k < 32; ++k) if (k == at) v[k] = -1e30f;
        }
        if (lane == 0) top[row * 8 + round] = m;
    }
}

extern "C" __global__ void transpose_double_pad(const double* in, double* out, int n)
{   // 32x32 tiles of doubles through shared memory padded to 33 columns, blocks of 32x8
    __shared__ double t[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) t[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(size_t)(y + j) * n + x] = t[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void scale_rows_stcs(const float4* x, const float* s, float4* y, int cols4)
{   // 2-D grid over a 4096 x 4096 matrix, float4 reads through __ldg, streaming (.cs) stores
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    float k = __ldg(s + r);
    float4 v = __ldg(x + (size_t)r * cols4 + c);
    __stcs(y + (size_t)r * cols4 + c, make_float4(v.x * k, v.y * k, v.z * k, v.w * k));
}

extern "C" __global__ void int8_embed_dequant(const char4* table, const float* scale, const int* idx, float4* out,
                                              int dim4)
{   // one block of 64 threads per lookup: a 256-byte int8 row, char4 loads, a per-row scale
    int b = blockIdx.x, row = idx[b];
    float k = scale[row];
    for (int d = threadIdx.x; d < dim4; d += blockDim.x) {
        char4 q = table[(size_t)row * dim4 + d];
        out[(size_t)b * dim4 + d] = make_float4(k * q.x, k * q.y, k * q.z, k * q.w);
    }
}
