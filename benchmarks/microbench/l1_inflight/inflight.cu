// How many L1 misses can one SM keep in flight? One CTA (one SM) of W warps; each warp issues 16
// independent loads of 32 floats lane_bytes apart (4: one line of 4 sectors; 128: 32 lines of one
// sector) from its own 64 KB (at 128 B) region, then sums them. The data sits in L2 (a first
// launch reads it), so each load misses in L1 (ld.global.cg) and hits in L2. clock64 around the
// loads, per CTA; main() prints the median over 5 launches for W = 1..32. Lines per cycle against
// W saturate where the SM runs out of room for misses in flight (Little's law with W = 1's latency).
template <int LOADS>
__global__ void inflight(const float* a, float* out, int lane_bytes, long long* cycles)
{
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    const char* p = (const char*)a + (size_t)w * LOADS * 32 * lane_bytes + (size_t)l * lane_bytes;
    __syncthreads();
    long long t0 = clock64();
    float v[LOADS];
#pragma unroll
    for (int k = 0; k < LOADS; ++k) v[k] = __ldcg((const float*)(p + (size_t)k * 32 * lane_bytes));
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < LOADS; ++k) s += v[k];
    __syncthreads();
    long long t1 = clock64();
    if (s == -1.f) out[0] = s;
    if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
}

#ifndef __CUDACC_RTC__
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

int main()
{
    float *a, *out;
    long long* cyc;
    cudaMalloc(&a, 64 << 20);
    cudaMalloc(&out, 64);
    cudaMalloc(&cyc, 132 * 8);
    cudaMemset(a, 0, 64 << 20);
    printf("grid lane_bytes warps cycles_median lines sectors\n");
    for (int grid : {1})
        for (int lane : {4, 128})
            for (int warps : {1, 2, 4, 8, 16, 24, 32}) {
                std::vector<long long> t;
                inflight<16><<<grid, warps * 32>>>(a, out, lane, cyc);  // warm L2
                for (int r = 0; r < 5; ++r) {
                    inflight<16><<<grid, warps * 32>>>(a, out, lane, cyc);
                    long long c;
                    cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost);
                    t.push_back(c);
                }
                std::sort(t.begin(), t.end());
                long long lines = (long long)warps * 16 * (lane == 4 ? 1 : 32);
                long long sectors = (long long)warps * 16 * (lane == 4 ? 4 : 32);
                printf("%d %d %d %lld %lld %lld\n", grid, lane, warps, t[2], lines, sectors);
            }
    printf("inflight: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
#endif
