// Stores of several lines right behind each other: does the H200 write their sectors to L2 once?
// Each warp owns a region; lane i stores words i*S + j for j = 0..N-1 (S words apart per lane: one
// store instruction covers S lines (S >= 1), 4 * S sectors for S <= 8, then 32), N store
// instructions back to back (inline asm: no vectorising, no reordering), W warps per CTA, 132 * C
// CTAs. Per launch RESULT {S, N, W, C}; ncu gives the store sectors, their L1 hits and the L2 write
// sectors.   ./multiline
#include <cstdio>
#include <cuda_runtime.h>
__device__ __forceinline__ void st(float* p, float v) { asm volatile("st.global.f32 [%0], %1;" :: "l"(p), "f"(v) : "memory"); }
template <int N>
__global__ void multiline_k(float* out, int S)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    float* p = out + (size_t)warp * 32 * S + (size_t)lane * S;
#pragma unroll
    for (int j = 0; j < N; ++j) st(p + j, (float)j);
}
int main()
{
    const int sms = 132, strides[] = {2, 3, 4, 6, 8, 16, 32};
    float* out;
    cudaMalloc(&out, (size_t)sms * 8 * 8 * 32 * 32 * 4);
    for (int c : {1, 8})
        for (int w : {1, 8})
            for (int s : strides)
                for (int n : {1, 2, 3}) {
                    int grid = sms * c, threads = 32 * w;
                    if (n == 1) multiline_k<1><<<grid, threads>>>(out, s);
                    if (n == 2) multiline_k<2><<<grid, threads>>>(out, s);
                    if (n == 3) multiline_k<3><<<grid, threads>>>(out, s);
                    cudaDeviceSynchronize();
                    printf("RESULT {\"S\": %d, \"N\": %d, \"W\": %d, \"C\": %d, \"warps\": %d}\n", s, n, w, c, grid * w);
                }
    printf("status: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
