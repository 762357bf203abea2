// Global-memory and L1 cases for compare.py (second set): vector and sub-word loads, misaligned
// warps, atomics to one or many addresses, cache operators, L1 capacity and set conflicts, a stencil.
// Launches (grid x block) are listed in compare.py's GLOBAL_LAUNCHES and in main() below.

extern "C" __global__ void ld_float2(const float2* __restrict__ in, float* out)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    float2 v = in[t];
    out[t] = v.x + v.y;
}

extern "C" __global__ void ld_float4(const float4* __restrict__ in, float* out)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[t];
    out[t] = v.x + v.y + v.z + v.w;
}

extern "C" __global__ void ld_bytes(const unsigned char* __restrict__ in, float* out, int stride)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = in[t * stride];
}

extern "C" __global__ void ld_misaligned(const float* __restrict__ in, float* out, int shift)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = in[t + shift];
}

extern "C" __global__ void atomic_same(float* sum, const float* __restrict__ in)   // RED: result unused
{
    atomicAdd(sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

extern "C" __global__ void atomic_distinct_used(int* counters, int* out)   // ATOM: result used
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = atomicAdd(&counters[t], 1);
}

extern "C" __global__ void ld_cache_ops(const float* __restrict__ in, float* out, int zero)
{   // each operator twice on one address (zero == 0 at run time, so ptxas cannot merge the two)
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    float a = __ldcg(in + t) + __ldcg(in + t + zero);                  // cache global (L2 only)
    float b = __ldcs(in + t + 4096) + __ldcs(in + t + 4096 + zero);    // streaming
    float c = __ldca(in + t + 8192) + __ldca(in + t + 8192 + zero);    // cache all
    float d = __ldcv(in + t + 12288) + __ldcv(in + t + 12288 + zero);  // volatile: fetch again
    float e = __ldlu(in + t + 16384) + __ldlu(in + t + 16384 + zero);  // last use
    out[t] = a + b + c + d + e;
}

extern "C" __global__ void atomics_more(int* ci, float* cf, unsigned* cu, int* out)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % 32;
    atomicAdd(ci, 1);                              // one address, +1 from every lane (RED)
    atomicAdd(cf + 8 + (lane & 1), 1.0f);          // two addresses, 16 lanes each (RED)
    out[t] = atomicMax(ci + 16, t);                // one address, result used (ATOM)
    atomicExch(cu + 32 + lane, (unsigned)t);       // distinct words
    out[t + 1024] = atomicCAS(ci + 64 + lane / 8, 0, t);  // 4 addresses, 8 lanes each
}

extern "C" __global__ void st_same_word(float* out)   // every lane stores to one word
{
    out[blockIdx.x] = threadIdx.x;
}

extern "C" __global__ void reread(const float* __restrict__ in, float* out, int n)   // read n floats twice
{
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i];
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i];
    out[threadIdx.x] = acc;
}

extern "C" __global__ void reread_strided(const float* __restrict__ in, float* out, int lines, int stride)
{   // warp 0 reads `lines` 128-byte lines `stride` bytes apart, twice (set conflicts)
    float acc = 0.0f;
    if (threadIdx.x < 32) {
        for (int r = 0; r < 2; ++r)
            for (int l = 0; l < lines; ++l)
                acc += in[(size_t)l * (stride / 4) + threadIdx.x];
    }
    out[threadIdx.x] = acc;
}

extern "C" __global__ void stencil5(const float* __restrict__ in, float* out, int w)   // 2-D 5-point
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
    const int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
    out[y * w + x] = in[y * w + x] + in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x];
}

#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
    char *a, *b, *c;
    const size_t big = 64u << 20;
    cudaMalloc(&a, big); cudaMalloc(&b, big); cudaMalloc(&c, 1 << 20);
    cudaMemset(a, 0, big); cudaMemset(c, 0, 1 << 20);
    float* fa = (float*)a; float* fb = (float*)b;
    ld_float2<<<4, 128>>>((const float2*)a, fb);
    ld_float4<<<4, 128>>>((const float4*)a, fb);
    ld_bytes<<<4, 128>>>((const unsigned char*)a, fb, 1);
    ld_bytes<<<4, 128>>>((const unsigned char*)a, fb, 3);
    ld_misaligned<<<4, 128>>>(fa, fb, 1);
    ld_misaligned<<<4, 128>>>(fa, fb, 8);
    atomic_same<<<4, 128>>>((float*)c, fa);
    atomic_distinct_used<<<4, 128>>>((int*)c, (int*)b);
    ld_cache_ops<<<4, 128>>>(fa, fb, 0);
    atomics_more<<<4, 128>>>((int*)c, (float*)c, (unsigned*)c, (int*)b);
    st_same_word<<<4, 128>>>(fb);
    const int sizes_kb[] = {32, 96, 160, 200, 240};
    for (int kb : sizes_kb) reread<<<1, 1024>>>(fa, fb, kb * 256);
    const int lines[] = {16, 32, 64};
    for (int l : lines) reread_strided<<<1, 32>>>(fa, fb, l, 32768);
    reread_strided<<<1, 32>>>(fa, fb, 64, 4096);
    stencil5<<<dim3(8, 8), dim3(32, 8)>>>(fa, fb, 512);
    cudaDeviceSynchronize();
    printf("global probes: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
#endif
