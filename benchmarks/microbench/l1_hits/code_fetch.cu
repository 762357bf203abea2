// Instruction fetch reaches DRAM: kernels that read no data, with N unrolled dependent FFMAs, so
// the only DRAM reads ncu can see are the kernel's code (and the constant bank). Launched with
// 1, 8 and 132 CTAs of one warp. `cuobjdump -sass` gives each kernel's code size.
#include <cstdio>
#include <cuda_runtime.h>

template <int N>
__global__ void chain(float* out, float a, float b)
{
    float x = threadIdx.x;
#pragma unroll
    for (int i = 0; i < N; ++i) x = fmaf(x, a, b);
    if (threadIdx.x == 0) out[blockIdx.x] = x;
}

template <int N>
static void launch(float* out, int grid)
{
    chain<N><<<grid, 32>>>(out, 1.0001f, 0.5f);
    cudaDeviceSynchronize();
    printf("chain<%d> grid %d: %s\n", N, grid, cudaGetErrorString(cudaGetLastError()));
}

int main()
{
    float* out;
    cudaMalloc(&out, 4096 * sizeof(float));
    const int grids[] = {1, 8, 132};
    for (int g : grids) {
        launch<0>(out, g);
        launch<128>(out, g);
        launch<1024>(out, g);
        launch<4096>(out, g);
        launch<16384>(out, g);
    }
    cudaFree(out);
    return 0;
}
