// windows.cu found that two stores to one line or sector 15 cycles apart or more never combine and
// the second always hits. So the H200's misses and combined writes (stores.cu) come from stores
// closer together than that. Two probes, one CTA round per line, rounds 3,000 cycles apart:
// * back_to_back<N>: one warp (lane 0) stores word 0 of a line, then N words into N other lines,
//   then word `second` of the first line, all without a pause. mode bit 0: second = 8 (the other
//   sector) instead of 1 (the same sector); bit 1: the first line is resident (loaded before).
// * together: warps 0..k-1 of a 256-thread CTA each store one word (lane 0) when they start, into
//   one sector (where = 0) or each into its own sector (where = 1); the grid sets how many CTAs
//   share an SM. With `record` each warp's SM clock at its store goes to `times`.
#define ROUNDS 64

__device__ __forceinline__ void spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) { }
}

template <int N>
__global__ void back_to_back(int* out, int* other, int mode)
{
    int second = (mode & 1) ? 8 : 1;
    int* lines = out + (size_t)blockIdx.x * ROUNDS * 32;
    int* others = other + (size_t)blockIdx.x * ROUNDS * 8 * 32;
    int l = threadIdx.x;
    if (mode & 2) {
        int acc = 0;
        for (int k = l; k < ROUNDS; k += 32) acc += lines[k * 32];
        if (acc == 123456789) out[0] = acc;
        spin(5000);
    }
    for (int r = 0; r < ROUNDS; ++r) {
        if (l == 0) {
            int* line = lines + r * 32;
            line[0] = r;
#pragma unroll
            for (int j = 0; j < N; ++j) others[(r * 8 + j) * 32] = r;
            line[second] = r;
        }
        __syncwarp();
        spin(3000);
    }
}

extern "C" __global__ void together(int* out, int k, int where, int record, long long* times)
{
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    if (w < k && l == 0) {
        long long t = clock64();
        out[blockIdx.x * 64 + (where ? w * 8 : w)] = w;
        if (record) times[blockIdx.x * 8 + w] = t;
    }
}

#ifndef __CUDACC_RTC__
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

template <int N>
static void b2b(int* out, int* other)
{
    for (int mode = 0; mode < 4; ++mode) back_to_back<N><<<132, 32>>>(out, other, mode);
}

int main(int argc, char** argv)
{
    bool record = argc > 1 && strcmp(argv[1], "times") == 0;
    int *out, *other;
    long long* times;
    cudaMalloc(&out, 64 << 20);
    cudaMalloc(&other, 64 << 20);
    cudaMalloc(&times, 1 << 20);
    cudaMemset(out, 0, 64 << 20);
    if (!record) {
        b2b<0>(out, other); b2b<1>(out, other); b2b<2>(out, other); b2b<3>(out, other);
        b2b<4>(out, other); b2b<6>(out, other); b2b<8>(out, other);
    }
    const int grids[] = {132, 1056, 8448};
    std::vector<long long> h(8448 * 8);
    for (int g : grids)
        for (int where = 0; where < 2; ++where)
            for (int k : {2, 4, 8}) {
                cudaMemset(times, 0, h.size() * 8);
                together<<<g, 256>>>(out, k, where, record ? 1 : 0, times);
                if (record) {  // spread of the CTA's stores: last - first, per CTA
                    cudaMemcpy(h.data(), times, h.size() * 8, cudaMemcpyDeviceToHost);
                    std::vector<long long> spread;
                    for (int c = 0; c < g; ++c) {
                        long long lo = h[c * 8], hi = h[c * 8];
                        for (int w = 1; w < k; ++w) { lo = std::min(lo, h[c * 8 + w]); hi = std::max(hi, h[c * 8 + w]); }
                        spread.push_back(hi - lo);
                    }
                    std::sort(spread.begin(), spread.end());
                    printf("together grid %5d where %d k %d spread p10 %5lld p50 %5lld p90 %5lld\n", g, where, k,
                           spread[g / 10], spread[g / 2], spread[g * 9 / 10]);
                }
            }
    cudaDeviceSynchronize();
    printf("burst: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
#endif
