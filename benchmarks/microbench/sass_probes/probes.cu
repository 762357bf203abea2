// Access patterns whose instruction and wavefront counts depend on what ptxas makes of the PTX:
// which scalar shared/global accesses it fuses into 64/128-bit ones, and how it compiles
// sub-word, 64-bit, volatile, atomic and local-memory accesses. One CTA of 128 threads each
// (probe_conflict: 32). run.sh compiles this with nvcc (host part on), dumps the SASS and runs
// it under ncu; simgpu compiles the same file with NVRTC (host part off) and counts the same
// (compare.py).

#define N 128

extern "C" __global__ void st_shared_4(float* out, float v)   // s[4t..4t+3]: STS.128?
{
    __shared__ __align__(16) float s[4 * N];
    const int t = threadIdx.x;
    s[4 * t] = v; s[4 * t + 1] = v + 1; s[4 * t + 2] = v + 2; s[4 * t + 3] = v + 3;
    __syncthreads();
    out[t] = s[(4 * t + 5) % (4 * N)];
}

extern "C" __global__ void st_shared_2(float* out, float v)   // s[2t], s[2t+1]: STS.64?
{
    __shared__ __align__(8) float s[2 * N];
    const int t = threadIdx.x;
    s[2 * t] = v; s[2 * t + 1] = v + 1;
    __syncthreads();
    out[t] = s[(2 * t + 3) % (2 * N)];
}

extern "C" __global__ void ld_shared_sym(float* out, float v)   // fixed indices of a __shared__ array
{
    __shared__ __align__(16) float s[8];
    const int t = threadIdx.x;
    if (t < 8) s[t] = v + t;
    __syncthreads();
    out[t] = s[0] * s[1] + s[2] * s[3] + s[4] * s[5] + s[6] * s[7];
}

extern "C" __global__ void ld_shared_unaligned(float* out, float v)   // s[4t+1..4t+4]: no LDS.128
{
    __shared__ __align__(16) float s[4 * N + 4];
    const int t = threadIdx.x;
    for (int i = t; i < 4 * N + 4; i += N) s[i] = v + i;
    __syncthreads();
    out[t] = s[4 * t + 1] + s[4 * t + 2] + s[4 * t + 3] + s[4 * t + 4];
}

extern "C" __global__ void ld_global_4(const float* __restrict__ in, float* out)   // in[4t..4t+3] scalars
{
    const int t = threadIdx.x;
    out[t] = in[4 * t] + in[4 * t + 1] + in[4 * t + 2] + in[4 * t + 3];
}

extern "C" __global__ void st_global_4(float* out, float v)   // out[4t..4t+3] scalars
{
    const int t = threadIdx.x;
    out[4 * t] = v; out[4 * t + 1] = v + 1; out[4 * t + 2] = v + 2; out[4 * t + 3] = v + 3;
}

extern "C" __global__ void ld_shared_bytes(float* out, int stride)   // 8-bit shared loads, stride bytes
{
    __shared__ unsigned char s[4 * N * 4];
    const int t = threadIdx.x;
    for (int i = t; i < 4 * N * 4; i += N) s[i] = (unsigned char)i;
    __syncthreads();
    out[t] = s[(t * stride) % (4 * N * 4)];
}

extern "C" __global__ void ld_shared_double(double* out, int stride)   // 64-bit shared, stride words
{
    __shared__ double s[8 * N];
    const int t = threadIdx.x;
    for (int i = t; i < 8 * N; i += N) s[i] = i;
    __syncthreads();
    out[t] = s[(t * stride) % (8 * N)];
}

extern "C" __global__ void warp_reduce_volatile(float* out, const float* __restrict__ in)
{
    __shared__ float s[N];
    const int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        volatile float* v = s;
        v[t] += v[t + 64]; v[t] += v[t + 32]; v[t] += v[t + 16];
        v[t] += v[t + 8]; v[t] += v[t + 4]; v[t] += v[t + 2]; v[t] += v[t + 1];
    }
    if (t == 0) out[0] = s[0];
}

extern "C" __global__ void shared_atomics(int* out, const int* __restrict__ in, int bins)
{
    __shared__ int h[N];
    const int t = threadIdx.x;
    h[t] = 0;
    __syncthreads();
    for (int i = 0; i < 8; ++i) atomicAdd(&h[in[i * N + t] % bins], 1);
    __syncthreads();
    out[t] = h[t];
}

extern "C" __global__ void local_array(float* out, const int* __restrict__ idx)   // dynamic index: local memory
{
    float a[32];
    const int t = threadIdx.x;
#pragma unroll
    for (int i = 0; i < 32; ++i) a[i] = t * i;
    out[t] = a[idx[t] & 31] + a[idx[t + N] & 31];
}

extern "C" __global__ void ld_shared_loop(float* out, int n)   // s[i..i+3] in an unrolled runtime loop
{
    __shared__ __align__(16) float s[4 * N];
    const int t = threadIdx.x;
    for (int i = t; i < 4 * N; i += N) s[i] = i;
    __syncthreads();
    float acc = 0.0f;
#pragma unroll 4
    for (int i = 0; i < n; ++i) acc += s[i] * (t + 1);
    out[t] = acc;
}

extern "C" __global__ void ld_shared_2d(float* out, float v)   // a 2-D tile row: As[ty][k..k+3]
{
    __shared__ __align__(16) float As[16][16];
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16 % 8;
    As[ty][tx] = v + tx;
    As[ty + 8][tx] = v - tx;
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 16; ++k) acc += As[ty][k] * As[k][tx];
    out[threadIdx.x] = acc;
}

#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
    float *f, *g;
    double* d;
    int *ia, *ib;
    cudaMalloc(&f, 1 << 20); cudaMalloc(&g, 1 << 20); cudaMalloc(&d, 1 << 20);
    cudaMalloc(&ia, 1 << 20); cudaMalloc(&ib, 1 << 20);
    cudaMemset(f, 0, 1 << 20); cudaMemset(ia, 0, 1 << 20);
    st_shared_4<<<1, N>>>(g, 1.0f);
    st_shared_2<<<1, N>>>(g, 1.0f);
    ld_shared_sym<<<1, N>>>(g, 1.0f);
    ld_shared_unaligned<<<1, N>>>(g, 1.0f);
    ld_global_4<<<1, N>>>(f, g);
    st_global_4<<<1, N>>>(g, 1.0f);
    ld_shared_bytes<<<1, N>>>(g, 1);
    ld_shared_bytes<<<1, N>>>(g, 4);
    ld_shared_bytes<<<1, N>>>(g, 5);
    ld_shared_double<<<1, N>>>(d, 1);
    ld_shared_double<<<1, N>>>(d, 2);
    ld_shared_double<<<1, N>>>(d, 16);
    warp_reduce_volatile<<<1, N>>>(g, f);
    shared_atomics<<<1, N>>>(ib, ia, 7);
    local_array<<<1, N>>>(g, ia);
    ld_shared_loop<<<1, N>>>(g, 64);
    ld_shared_2d<<<1, N>>>(g, 1.0f);
    cudaDeviceSynchronize();
    printf("probes: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
#endif
