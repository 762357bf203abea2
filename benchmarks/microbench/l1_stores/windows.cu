// How long after one global store does a second store to the same line (or sector) of one SM
// still count as a miss, and still combine with the first into one L2 write? stores.cu found both
// effects for stores that come "close together"; this sweeps the gap. One CTA per SM (132), each
// runs ITERS rounds on its own line: a barrier, then the first store (warp 0, lane 0), then after
// a clock64 spin of `delay` cycles the second (warp 1, or warp 0 again), then a 3,000-cycle pause
// so rounds do not overlap. variant: bit 0 the second store hits the other sector (word 8) instead
// of the same one (word 1); bit 1 the line is resident first (warp 0 loads its sector 0 earlier);
// bit 2 the same warp makes both stores. With `record` the SM clock at each store goes to `gaps`
// (median printed by main's "gaps" mode; the counters come from the record = 0 launches).
#define ITERS 64

__device__ __forceinline__ void spin(long long cycles)
{
    if (cycles <= 0) return;
    long long t0 = clock64();
    while (clock64() - t0 < cycles) { }
}

extern "C" __global__ void pair(int* out, int variant, int delay, int record, long long* gaps)
{
    __shared__ long long t[2];
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    int second_word = (variant & 1) ? 8 : 1;
    bool same_warp = variant & 4;
    int* lines = out + (size_t)blockIdx.x * ITERS * 32;
    if ((variant & 2) && w == 0) {  // make every round's line resident: load its sector 0
        int acc = 0;
        for (int k = l; k < ITERS; k += 32) acc += __ldg(lines + k * 32) + lines[k * 32];
        if (acc == 123456789) out[0] = acc;  // keeps the loads
        spin(5000);
    }
    for (int it = 0; it < ITERS; ++it) {
        int* line = lines + it * 32;
        __syncthreads();
        if (l == 0) {
            if (w == 0) {
                long long a = clock64();
                line[0] = it;
                if (same_warp) {
                    spin(delay);
                    long long b = clock64();
                    line[second_word] = it;
                    if (record) { t[0] = a; t[1] = b; }
                } else if (record) {
                    t[0] = a;
                }
            } else if (w == 1 && !same_warp) {
                spin(delay);
                long long b = clock64();
                line[second_word] = it;
                if (record) t[1] = b;
            }
        }
        __syncthreads();
        if (record && threadIdx.x == 0) gaps[blockIdx.x * ITERS + it] = t[1] - t[0];
        spin(3000);
    }
}


// The same rounds with gaps below the spin's ~50-cycle floor: the second store's address waits for a
// chain of K dependent IMADs (x = x * m + c with m = 1, c = 0 given at run time, so ptxas cannot
// fold it; ~4 cycles each).
template <int K>
__device__ __forceinline__ int chain(int x, int m, int c)
{
#pragma unroll
    for (int j = 0; j < K; ++j) x = x * m + c;
    return x;
}

template <int K>
__global__ void pair_fine(int* out, int variant, int m, int c, int record, long long* gaps)
{
    __shared__ long long t[2];
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    int second_word = (variant & 1) ? 8 : 1;
    bool same_warp = variant & 4;
    int* lines = out + (size_t)blockIdx.x * ITERS * 32;
    if ((variant & 2) && w == 0) {
        int acc = 0;
        for (int k = l; k < ITERS; k += 32) acc += __ldg(lines + k * 32) + lines[k * 32];
        if (acc == 123456789) out[0] = acc;
        spin(5000);
    }
    for (int it = 0; it < ITERS; ++it) {
        int* line = lines + it * 32;
        __syncthreads();
        if (l == 0 && (w == 0 || (w == 1 && !same_warp))) {
            long long a = clock64();
            if (w == 0) line[0] = it;
            if (w == 1 || same_warp) {
                int x = chain<K>(it, m, c);
                long long b = clock64();
                line[second_word + x - it] = it;
                if (record) t[1] = b;
            }
            if (record && w == 0) t[0] = a;
        }
        __syncthreads();
        if (record && threadIdx.x == 0) gaps[blockIdx.x * ITERS + it] = t[1] - t[0];
        spin(3000);
    }
}

#ifndef __CUDACC_RTC__
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

static const int DELAYS[] = {0, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 2048};
static const int VARIANTS[] = {0, 1, 2, 3, 4, 5, 6};

template <int K>
static void run_fine(int* buf, int n, int v, bool gaps_mode, long long* gaps, std::vector<long long>& h)
{
    cudaMemset(buf, 0, (size_t)n * 4);
    pair_fine<K><<<132, 64>>>(buf, v, 1, 0, gaps_mode ? 1 : 0, gaps);
    if (gaps_mode) {
        cudaMemcpy(h.data(), gaps, h.size() * 8, cudaMemcpyDeviceToHost);
        std::sort(h.begin(), h.end());
        printf("fine variant %d chain %3d gap p10 %6lld p50 %6lld p90 %6lld\n", v, K, h[h.size() / 10],
               h[h.size() / 2], h[h.size() * 9 / 10]);
    }
}

int main(int argc, char** argv)
{
    bool gaps_mode = argc > 1 && strcmp(argv[1], "gaps") == 0;
    bool fine = argc > 2 && strcmp(argv[2], "fine") == 0;
    const int ctas = 132, n = ctas * ITERS * 32;
    int* buf;
    long long* gaps;
    cudaMalloc(&buf, (size_t)n * 4);
    cudaMalloc(&gaps, (size_t)ctas * ITERS * 8);
    std::vector<long long> h(ctas * ITERS);
    if (fine) {
        for (int v : VARIANTS) {
            run_fine<0>(buf, n, v, gaps_mode, gaps, h);
            run_fine<1>(buf, n, v, gaps_mode, gaps, h);
            run_fine<2>(buf, n, v, gaps_mode, gaps, h);
            run_fine<3>(buf, n, v, gaps_mode, gaps, h);
            run_fine<4>(buf, n, v, gaps_mode, gaps, h);
            run_fine<5>(buf, n, v, gaps_mode, gaps, h);
            run_fine<6>(buf, n, v, gaps_mode, gaps, h);
            run_fine<8>(buf, n, v, gaps_mode, gaps, h);
            run_fine<10>(buf, n, v, gaps_mode, gaps, h);
            run_fine<12>(buf, n, v, gaps_mode, gaps, h);
            run_fine<16>(buf, n, v, gaps_mode, gaps, h);
            run_fine<24>(buf, n, v, gaps_mode, gaps, h);
        }
        cudaDeviceSynchronize();
        printf("windows fine: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 0;
    }
    for (int v : VARIANTS)
        for (int d : DELAYS) {
            cudaMemset(buf, 0, (size_t)n * 4);
            pair<<<ctas, 64>>>(buf, v, d, gaps_mode ? 1 : 0, gaps);
            if (gaps_mode) {
                cudaMemcpy(h.data(), gaps, h.size() * 8, cudaMemcpyDeviceToHost);
                std::sort(h.begin(), h.end());
                printf("variant %d delay %5d gap p10 %6lld p50 %6lld p90 %6lld\n", v, d, h[h.size() / 10],
                       h[h.size() / 2], h[h.size() * 9 / 10]);
            }
        }
    cudaDeviceSynchronize();
    printf("windows: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
#endif
