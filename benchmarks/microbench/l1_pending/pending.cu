// Does a store into a line whose L1 fill is still on its way count as an L1 hit? One warp per SM
// (132 CTAs of 32 threads), 64 rounds, each round its own 128-byte line (lane = word): a load of
// the line (an L1 miss, its fill on the way), then a store to the same line by the same warp:
//   mode 0: the store right behind the load, its value not waiting for the load's data
//   mode 1: the store of the loaded value + 1 (it waits for the data: the fill is done)
//   mode 2: the store of a constant after a clock64 spin of `delay` cycles
//   mode 3: the store first (the line absent), then the load: the reference for "all misses"
// ncu gives per launch the store sectors and their L1 lookup hits (run.sh).
extern "C" __global__ void pending(float* a, int mode, long long delay, float* out)
{
    float acc = 0.f;
    const int lane = threadIdx.x;
    for (int r = 0; r < 64; ++r) {
        float* line = a + ((size_t)blockIdx.x * 64 + r) * 32;
        if (mode == 3) {
            line[lane] = (float)lane;
            acc += line[lane];
            continue;
        }
        float v = line[lane];
        if (mode == 1) {
            line[lane] = v + 1.f;
        } else {
            if (mode == 2) {
                long long t0 = clock64();
                while (clock64() - t0 < delay) { }
            }
            line[lane] = (float)lane;
        }
        acc += v;
    }
    out[blockIdx.x * 32 + lane] = acc;
}
#ifndef __CUDACC_RTC__  // the host part: nvcc only (simgpu compiles the kernel with NVRTC)
#include <cstdio>
int main()
{
    float *a, *out;
    cudaMalloc(&a, (size_t)132 * 64 * 128);
    cudaMalloc(&out, 132 * 32 * 4);
    cudaMemset(a, 0, (size_t)132 * 64 * 128);
    const long long delays[] = {0, 100, 200, 400, 800, 1600, 3200};
    for (int mode = 0; mode < 4; ++mode) {
        if (mode == 2) {
            for (long long d : delays) {
                pending<<<132, 32>>>(a, mode, d, out);
                printf("mode %d delay %lld\n", mode, d);
            }
        } else {
            pending<<<132, 32>>>(a, mode, 0, out);
            printf("mode %d delay 0\n", mode);
        }
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
#endif
