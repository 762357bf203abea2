// How big is the L1 of a kernel that uses no shared memory (the driver gives it a 32 KB carve-out:
// launch__shared_mem_config_size = 32,768 in every such recorded launch), and how does it index its
// sets? One warp per SM sweeps `lines` lines of a buffer, `stride` bytes apart, `rounds` times;
// each lane loads one 4-byte word of its own line per step (a request of 32 lines). With true LRU a
// sweep that fits hits on every round after the first, one that does not fit never hits.
// Printed per launch, in launch order: lines stride rounds smem (dynamic shared memory bytes).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

extern "C" __global__ void sweep(const int *__restrict__ buf, int lines, int stride_words, int rounds, int *out) {
    extern __shared__ int pad[];
    int acc = 0;
    for (int r = 0; r < rounds; ++r)
        for (int i = threadIdx.x; i < lines; i += 32) acc += buf[(size_t)i * stride_words];
    if (acc == 0x7fffffff) { out[blockIdx.x] = acc; pad[0] = acc; }
}

int main() {
    const size_t bytes = 256ull << 20;
    int *buf, *out;
    cudaMalloc(&buf, bytes);
    cudaMemset(buf, 0, bytes);
    cudaMalloc(&out, 4096);
    const int rounds = 8;
    const int strides[] = {128, 256, 512, 1024, 4096, 32768};
    const int kb[] = {128, 192, 200, 208, 216, 224, 232, 240, 248, 256};
    for (int s : strides)
        for (int k : kb) {
            int lines = k * 1024 / 128;  // footprint in 128-byte lines
            if ((size_t)lines * s > bytes) continue;
            sweep<<<132, 32>>>(buf, lines, s / 4, rounds, out);
            printf("%d %d %d %d\n", lines, s, rounds, 0);
        }
    // the same sweep with dynamic shared memory: does the L1 shrink with the carve-out?
    const int smem_kb[] = {24, 48, 96};
    for (int sk : smem_kb) {
        cudaFuncSetAttribute(sweep, cudaFuncAttributeMaxDynamicSharedMemorySize, sk * 1024);
        for (int k : kb) {
            int lines = k * 1024 / 128;
            sweep<<<132, 32, sk * 1024>>>(buf, lines, 128 / 4, rounds, out);
            printf("%d %d %d %d\n", lines, 128, rounds, sk * 1024);
        }
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
