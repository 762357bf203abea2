// Third set for compare.py: L1 capacity under a shared-memory carve-out, L2 capacity (data read
// twice by a whole wave, 32-96 MB), shared atomics on one address, a load of what another warp
// stored, half-warp loads, and shared memory through a generic pointer.

extern "C" __global__ void reread_smem(const float* __restrict__ in, float* out, int n)
{   // one CTA with 100 KB of dynamic shared memory reads n floats twice
    extern __shared__ float pad[];
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i];
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i];
    if (acc == 12345.0f) pad[threadIdx.x] = acc;
    out[threadIdx.x] = acc;
}

extern "C" __global__ void reread_big(const float4* __restrict__ in, float* out, long long n4)
{   // every CTA reads its slice of n4 float4 twice: the second read of an element comes after the
    // whole wave has read about everything once
    const long long per = n4 / gridDim.x;
    const float4* p = in + per * blockIdx.x;
    float acc = 0.0f;
    for (int r = 0; r < 2; ++r)
        for (long long i = threadIdx.x; i < per; i += blockDim.x) {
            float4 v = p[i];
            acc += v.x + v.y + v.z + v.w;
        }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

extern "C" __global__ void shared_atomics_same(float* out, const int* __restrict__ in)
{
    __shared__ float f;
    __shared__ int s[4];
    const int t = threadIdx.x;
    if (t == 0) { f = 0.0f; s[0] = s[1] = s[2] = s[3] = 0; }
    __syncthreads();
    atomicAdd(&f, 1.0f);              // float, one address
    atomicAdd(&s[0], in[t]);          // int, one address, per-lane value
    atomicMax(&s[1 + (t & 1)], t);    // two addresses
    __syncthreads();
    out[t] = f + s[0] + s[1] + s[2];
}

extern "C" __global__ void load_after_store(float* buf, float* out)
{   // warp w stores a line, then (after the barrier) warp w+1 loads it
    const int t = threadIdx.x, w = t / 32, lane = t % 32;
    buf[w * 32 + lane] = t;
    __syncthreads();
    const int other = (w + 1) % (blockDim.x / 32);
    out[t] = buf[other * 32 + lane];
}

extern "C" __global__ void half_warp(const float* __restrict__ in, float* out)
{   // lanes 0-15 read, 16-31 do not; then even lanes only
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0.0f;
    if ((threadIdx.x & 31) < 16) v += in[t];
    if ((threadIdx.x & 1) == 0) v += in[t + 65536];
    out[t] = v;
}

extern "C" __global__ void generic_shared(float* out, int k)
{   // shared memory through a generic pointer (the compiler cannot tell the space)
    __shared__ float s[256];
    __shared__ float g[256];
    s[threadIdx.x] = threadIdx.x;
    g[threadIdx.x] = -1.0f * threadIdx.x;
    __syncthreads();
    float* p = k ? s : g;
    out[threadIdx.x] = p[(threadIdx.x * 2) % 256] + out[threadIdx.x];
}

extern "C" __global__ void global_atomics_uniform(int* ci, unsigned long long* cl, int* out,
                                                  const int* __restrict__ in)
{   // one address per statement, per-lane values: does ptxas reduce the warp first (REDUX)?
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(ci, in[t]);                              // int add, result unused
    atomicOr((unsigned*)ci + 1, (unsigned)in[t]);      // or, result unused
    atomicAdd(cl, (unsigned long long)in[t]);          // 64-bit add, result unused
    out[t] = atomicAdd(ci + 2, 1);                     // +1, result used (stream compaction)
    atomicMin(ci + 3, in[t]);                          // min, result unused
}

extern "C" __global__ void global_atomics_more(int* ci, float* cf, unsigned long long* cl, int* out,
                                               const int* __restrict__ in)
{   // more one-address cases: which ones does ptxas have one lane do?
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = atomicAdd(ci, in[t]);                     // int add of per-lane values, result used
    atomicAdd(cf, 1.0f);                               // float add of a uniform value, result unused
    atomicSub(ci + 1, 1);                              // int sub of a uniform value
    atomicAdd(cl, 1ULL);                               // 64-bit add of a uniform value
    out[t + 1024] = atomicMax(ci + 2, 7);              // max of a uniform value, result used
}

#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
    char *a, *b;
    const size_t big = 200u << 20;
    cudaMalloc(&a, big); cudaMalloc(&b, 64u << 20);
    cudaMemset(a, 0, big); cudaMemset(b, 0, 64u << 20);
    float* fa = (float*)a; float* fb = (float*)b;
    cudaFuncSetAttribute(reread_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
    const int kbs[] = {64, 96, 128, 160};
    for (int kb : kbs) reread_smem<<<1, 1024, 100 * 1024>>>(fa, fb, kb * 256);
    const int mbs[] = {32, 48, 56, 64, 96};
    for (int mb : mbs) reread_big<<<264, 512>>>((const float4*)a, fb, (long long)mb * (1 << 16));
    shared_atomics_same<<<2, 128>>>(fb, (const int*)a);
    load_after_store<<<4, 128>>>(fa, fb);
    half_warp<<<4, 128>>>(fa, fb);
    generic_shared<<<2, 256>>>(fb, 1);
    global_atomics_uniform<<<4, 128>>>((int*)b, (unsigned long long*)(b + 64), (int*)(b + 4096), (const int*)a);
    global_atomics_more<<<4, 128>>>((int*)b, (float*)(b + 32), (unsigned long long*)(b + 64), (int*)(b + 4096),
                                    (const int*)a);
    cudaDeviceSynchronize();
    printf("cache probes: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
#endif
