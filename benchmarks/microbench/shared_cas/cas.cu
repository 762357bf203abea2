// How many times does a shared-memory float atomicAdd go round its CAS loop on the H200?
// ptxas has no native ATOMS add for f32/f64 on sm_90: it emits LDS, FADD/DADD, ATOMS.CAST.SPIN and a
// branch back (benchmarks/microbench/sass_probes, validation/typical15 smem_double_atomic). Each
// kernel below has every thread make `iters` atomics on a CTA's shared table, at a bin a hash picks
// (`bins` a power of two) or at the thread's own word; analyze.py prints the SASS instruction counts
// per warp atomic. run.sh also dumps the SASS (which atomics are loops) and profiles with ncu.
#include <cstdio>
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned mix(unsigned x) {
    x *= 2654435761u; x ^= x >> 15; x *= 2246822519u; x ^= x >> 13; return x;
}
// the bin of atomic `it` of thread `t` of CTA `c`: lanes of a warp and the warps of a CTA all draw
__device__ __forceinline__ unsigned bin_of(unsigned c, unsigned t, unsigned it, unsigned bins) {
    return mix(c * 1000003u + t * 7919u + it * 104729u) & (bins - 1);
}

extern "C" __global__ void hist_f32(float* out, int iters, unsigned bins) {
    __shared__ float h[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) h[i] = 0.f;
    __syncthreads();
    for (int it = 0; it < iters; ++it)
        atomicAdd(&h[bin_of(blockIdx.x, threadIdx.x, it, bins)], 1.0f);
    __syncthreads();
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) out[blockIdx.x * 1024 + i] = h[i];
}
extern "C" __global__ void hist_f64(double* out, int iters, unsigned bins) {
    __shared__ double h[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) h[i] = 0.0;
    __syncthreads();
    for (int it = 0; it < iters; ++it)
        atomicAdd(&h[bin_of(blockIdx.x, threadIdx.x, it, bins)], 0.5);
    __syncthreads();
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) out[blockIdx.x * 1024 + i] = h[i];
}
// each warp its own 32 bins: contention inside the warp only
extern "C" __global__ void warp_bins_f32(float* out, int iters) {
    __shared__ float h[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) h[i] = 0.f;
    __syncthreads();
    const unsigned w = threadIdx.x / 32;
    for (int it = 0; it < iters; ++it)
        atomicAdd(&h[w * 32 + bin_of(blockIdx.x, threadIdx.x, it, 32)], 1.0f);
    __syncthreads();
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) out[blockIdx.x * 1024 + i] = h[i];
}
// every thread its own word: no contention, one trip
extern "C" __global__ void own_word_f32(float* out, int iters) {
    __shared__ float h[1024];
    h[threadIdx.x] = 0.f;
    __syncthreads();
    for (int it = 0; it < iters; ++it) atomicAdd(&h[threadIdx.x], 1.0f);
    __syncthreads();
    out[blockIdx.x * 1024 + threadIdx.x] = h[threadIdx.x];
}
// the control: an integer add is one ATOMS
extern "C" __global__ void hist_u32(unsigned* out, int iters, unsigned bins) {
    __shared__ unsigned h[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) h[i] = 0u;
    __syncthreads();
    for (int it = 0; it < iters; ++it)
        atomicAdd(&h[bin_of(blockIdx.x, threadIdx.x, it, bins)], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) out[blockIdx.x * 1024 + i] = h[i];
}
// other types, for the SASS only (which are loops): half2, bf16x2, u64 add, f32 exchange
extern "C" __global__ void others(__half2* o1, __nv_bfloat162* o2, unsigned long long* o3, float* o4, int iters) {
    __shared__ __half2 a[64];
    __shared__ __nv_bfloat162 b[64];
    __shared__ unsigned long long c[64];
    __shared__ float d[64];
    if (threadIdx.x < 64) {
        a[threadIdx.x] = __floats2half2_rn(0.f, 0.f); b[threadIdx.x] = __floats2bfloat162_rn(0.f, 0.f);
        c[threadIdx.x] = 0ull; d[threadIdx.x] = 0.f;
    }
    __syncthreads();
    for (int it = 0; it < iters; ++it) {
        unsigned k = bin_of(blockIdx.x, threadIdx.x, it, 64);
        atomicAdd(&a[k], __floats2half2_rn(1.f, 2.f));
        atomicAdd(&b[k], __floats2bfloat162_rn(1.f, 2.f));
        atomicAdd(&c[k], 3ull);
        atomicExch(&d[k], 1.5f);
    }
    __syncthreads();
    if (threadIdx.x < 64) {
        o1[blockIdx.x * 64 + threadIdx.x] = a[threadIdx.x]; o2[blockIdx.x * 64 + threadIdx.x] = b[threadIdx.x];
        o3[blockIdx.x * 64 + threadIdx.x] = c[threadIdx.x]; o4[blockIdx.x * 64 + threadIdx.x] = d[threadIdx.x];
    }
}

#ifndef NO_MAIN
int main() {
    float* f; double* d; unsigned* u; void* o;
    cudaMalloc(&f, 1024 * 1056 * 4); cudaMalloc(&d, 1024 * 1056 * 8); cudaMalloc(&u, 1024 * 1056 * 4);
    cudaMalloc(&o, 1056 * 64 * 8 * 4);
    const int it = 16;
    // the order of analyze.py's CASES
    hist_f32<<<264, 256>>>(f, it, 1);        // 1 f32, one bin, 8 warps
    hist_f32<<<264, 256>>>(f, it, 8);        // 2
    hist_f32<<<264, 256>>>(f, it, 64);       // 3
    hist_f32<<<264, 256>>>(f, it, 1024);     // 4
    hist_f32<<<264, 64>>>(f, it, 64);        // 5 two warps a CTA
    hist_f32<<<132, 1024>>>(f, it, 64);      // 6 32 warps a CTA
    hist_f64<<<264, 256>>>(d, it, 64);       // 7
    hist_f64<<<264, 256>>>(d, it, 8);        // 8
    warp_bins_f32<<<264, 256>>>(f, it);      // 9
    own_word_f32<<<264, 256>>>(f, it);       // 10
    hist_u32<<<264, 256>>>(u, it, 64);       // 11
    hist_f32<<<1056, 128>>>(f, it, 16);      // 12 eight CTAs of 4 warps an SM
    others<<<264, 256>>>((__half2*)o, (__nv_bfloat162*)o, (unsigned long long*)o, (float*)o, 4);  // 13
    cudaDeviceSynchronize();
    printf("shared_cas: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
#endif
