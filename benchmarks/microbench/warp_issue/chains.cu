// One warp per sub-partition issuing dependent chains: how many cycles a warp instruction takes
// when the warp has N independent chains to interleave (ILP), and the nbody inner loop of
// validation/typical3 as ptxas schedules it (with and without -ftz=true, which drops the
// denormal guard around MUFU.RSQ). Each kernel writes clock64 cycles per loop trip of lane 0 of
// warp w to cycles[w]. Launch: 1 block of 128 threads (one warp per sub-partition).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TRIPS 4096

template <int N>
__global__ void ffma_ilp(float* out, long long* cycles, float a, float b)
{
    float x[N];
#pragma unroll
    for (int i = 0; i < N; ++i) x[i] = threadIdx.x + i;
    __syncthreads();
    long long t0 = clock64();
    for (int t = 0; t < TRIPS; ++t) {
#pragma unroll
        for (int u = 0; u < 16; ++u) {
#pragma unroll
            for (int i = 0; i < N; ++i) x[i] = fmaf(x[i], a, b);
        }
    }
    long long t1 = clock64();
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < N; ++i) s += x[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    if ((threadIdx.x & 31) == 0) cycles[threadIdx.x >> 5] = (t1 - t0) / TRIPS;  // per 16*N FFMA
}

__global__ void rsqrt_chain(float* out, long long* cycles, float a, float b)
{
    float x = threadIdx.x + 1.f;
    long long t0 = clock64();
    for (int t = 0; t < TRIPS; ++t) {
#pragma unroll
        for (int u = 0; u < 16; ++u) x = rsqrtf(x) + b;
    }
    long long t1 = clock64();
    out[threadIdx.x] = x;
    if ((threadIdx.x & 31) == 0) cycles[threadIdx.x >> 5] = (t1 - t0) / TRIPS;  // per 16 (rsqrt + add)
}

__global__ void nbody_loop(const float4* pos, float4* acc, long long* cycles, int reps)
{   // validation/typical3 nbody_forces' tile loop, over one 128-body tile, `reps` times
    __shared__ float4 tile[128];
    int i = threadIdx.x;
    float4 p = pos[i];
    tile[i] = pos[128 + i];
    __syncthreads();
    float ax = 0.f, ay = 0.f, az = 0.f;
    long long t0 = clock64();
    for (int r = 0; r < reps; ++r) {
        for (int j = 0; j < 128; ++j) {
            float4 q = tile[j];
            float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
            float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-2f);
            float s = q.w * inv * inv * inv;
            ax += dx * s; ay += dy * s; az += dz * s;
        }
    }
    long long t1 = clock64();
    acc[i] = make_float4(ax, ay, az, 0.f);
    if ((threadIdx.x & 31) == 0) cycles[threadIdx.x >> 5] = (t1 - t0) / reps;  // per 128 bodies
}

template <typename F>
static void run(const char* name, F launch, double per, long long* d_cycles)
{
    launch();  // warm-up
    cudaDeviceSynchronize();
    launch();
    cudaError_t e = cudaDeviceSynchronize();
    long long c[4];
    cudaMemcpy(c, d_cycles, sizeof c, cudaMemcpyDeviceToHost);
    printf("RESULT {\"name\": \"%s\", \"err\": \"%s\", \"cycles_per_trip\": [%lld, %lld, %lld, %lld], "
           "\"cycles_per_unit\": %.3f}\n", name, cudaGetErrorString(e), c[0], c[1], c[2], c[3], c[0] / per);
}

int main()
{
    float *out, *pos, *acc;
    long long* cyc;
    cudaMalloc(&out, 1 << 20);
    cudaMalloc(&pos, 1 << 20);
    cudaMalloc(&acc, 1 << 20);
    cudaMalloc(&cyc, 64);
    float h[1024];
    for (int i = 0; i < 1024; ++i) h[i] = (i * 37 % 101) / 101.f;
    cudaMemcpy(pos, h, sizeof h, cudaMemcpyHostToDevice);
    run("ffma_ilp1", [&] { ffma_ilp<1><<<1, 128>>>(out, cyc, 0.999f, 0.5f); }, 16.0, cyc);
    run("ffma_ilp2", [&] { ffma_ilp<2><<<1, 128>>>(out, cyc, 0.999f, 0.5f); }, 32.0, cyc);
    run("ffma_ilp3", [&] { ffma_ilp<3><<<1, 128>>>(out, cyc, 0.999f, 0.5f); }, 48.0, cyc);
    run("ffma_ilp4", [&] { ffma_ilp<4><<<1, 128>>>(out, cyc, 0.999f, 0.5f); }, 64.0, cyc);
    run("ffma_ilp8", [&] { ffma_ilp<8><<<1, 128>>>(out, cyc, 0.999f, 0.5f); }, 128.0, cyc);
    run("ffma_ilp8_1warp", [&] { ffma_ilp<8><<<1, 32>>>(out, cyc, 0.999f, 0.5f); }, 128.0, cyc);
    run("rsqrtf_chain", [&] { rsqrt_chain<<<1, 128>>>(out, cyc, 0.f, 0.5f); }, 16.0, cyc);
    run("nbody_loop", [&] { nbody_loop<<<1, 128>>>((const float4*)pos, (float4*)acc, cyc, 64); }, 128.0, cyc);
    return 0;
}
