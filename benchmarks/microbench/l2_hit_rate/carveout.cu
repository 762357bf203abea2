// Which shared-memory carveout does the driver pick? A trivial kernel (few registers, so threads or
// the block limit bind) launched with every combination of block size and dynamic shared memory
// (<= 48 KB: no attribute set), profiled with launch__shared_mem_config_size. Printed per launch,
// in launch order: threads dynamic_shared_bytes.
#include <cstdio>
#include <cuda_runtime.h>

extern "C" __global__ void touch(float *out) {
    extern __shared__ float s[];
    s[threadIdx.x % 8] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[1];
}

int main() {
    float *out;
    cudaMalloc(&out, 4096 * sizeof(float));
    const int threads[] = {64, 96, 128, 192, 256, 384, 512, 768, 1024};
    const int smem[] = {64, 512, 1536, 3072, 6144, 12288, 24576, 40960};
    for (int t : threads)
        for (int s : smem) {
            touch<<<132, t, s>>>(out);
            printf("%d %d\n", t, s);
        }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
