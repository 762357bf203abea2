// Does a store into sectors whose data IS in L1 miss while *other* sectors of the same line are
// still being filled? (pending.cu: a store into the sectors being filled misses.) validation/
// typical2's short_axpy (2-byte lanes: each y line is two warps' two sectors) has the H200 miss a
// quarter of its y stores where simgpu misses none. 132 CTAs of 64 threads (one per SM), 64 rounds,
// each round its own 128-byte line `L` (a, zero-filled) and another line `M` (b); lanes 0-15 only.
//   mode 0: warp 0 loads L's sectors 0-1, stores them (+1) once the data is back: the all-hit reference
//   mode 1: warp 0 loads L's sectors 0-1; once that data is back loads L's sectors 2-3 (a miss,
//           its fill on the way) and stores into sectors 0-1 right behind (not waiting for it)
//   mode 2: as 1, the second load from M (the control: a pending fill elsewhere)
//   mode 3: as 1 with a clock64 spin of `delay` cycles between the second load and the store
//   mode 4: two warps: warp 0 loads L's sectors 0-1 and, once its data is back, raises a shared
//           flag, spins `delay` cycles and stores into sectors 0-1; warp 1 waits for the flag and
//           loads L's sectors 2-3 (short_axpy's two warps, the second warp's fill on its way)
//   mode 5: as 4, warp 1 loading M (the control)
// `zero` (0 at run time) makes the second load's address depend on the first load's data.
extern "C" __global__ void sectors(float* a, float* b, int mode, long long delay, int zero, float* out)
{
    __shared__ volatile int flag;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (threadIdx.x == 0) flag = 0;
    __syncthreads();
    float acc = 0.f, u = 0.f;
    for (int r = 0; r < 64; ++r) {
        float* L = a + ((size_t)blockIdx.x * 64 + r) * 32;
        float* M = b + ((size_t)blockIdx.x * 64 + r) * 32;
        float* second = (mode == 2 || mode == 5) ? M : L + 16;
        if (lane < 16) {
            if (mode <= 3 && warp == 0) {
                float v = L[lane];
                if (mode >= 1) {
                    u = second[lane + (__float_as_int(v) & zero)];
                    if (mode == 3) {
                        long long t0 = clock64();
                        while (clock64() - t0 < delay) { }
                    }
                }
                L[lane] = v + 1.f;
            } else if (mode >= 4 && warp == 0) {
                float v = L[lane];
                __syncwarp(0xffff);  // run by all 32 lanes: undefined (a lane must name itself), as
                                     // simgpu reports since 2026-12-07; kept as the H200 ran it
                if (lane == 0) flag = r + 1 + (__float_as_int(v) & zero);
                long long t0 = clock64();
                while (clock64() - t0 < delay) { }
                L[lane] = v + 1.f;
            } else if (mode >= 4) {
                while (flag != r + 1) { }
                u = second[lane];
            }
        }
        __syncthreads();
        acc += u;  // after the barrier: nothing before the store waits for u
    }
    out[blockIdx.x * 64 + threadIdx.x] = acc;
}
#ifndef __CUDACC_RTC__  // the host part: nvcc only (simgpu compiles the kernel with NVRTC)
#include <cstdio>
int main()
{
    float *a, *b, *out;
    const size_t bytes = (size_t)132 * 64 * 128;
    cudaMalloc(&a, bytes);
    cudaMalloc(&b, bytes);
    cudaMalloc(&out, 132 * 64 * 4);
    cudaMemset(a, 0, bytes);
    cudaMemset(b, 0, bytes);
    const long long delays[] = {0, 100, 200, 400, 800, 1600};
    for (int mode = 0; mode < 6; ++mode) {
        const int n = (mode == 3 || mode == 4) ? 6 : 1;
        for (int i = 0; i < n; ++i) {
            const long long d = (mode == 3 || mode == 4) ? delays[i] : (mode == 5 ? 200 : 0);
            sectors<<<132, 64>>>(a, b, mode, d, 0, out);
            printf("mode %d delay %lld\n", mode, d);
        }
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
#endif
