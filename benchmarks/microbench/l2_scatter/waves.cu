// Where and when do the CTAs of later waves start? scatter_share.cu showed the H200 merging the L1
// misses of CTAs that share data in the first wave of a launch and hardly at all in the later ones
// (4,224 CTAs: 660k merged sectors, 1,056 CTAs: 694k). The same loads (reqs 8, 128-byte lanes, 4
// consecutive CTAs share), and each CTA records its %smid and %globaltimer at start and end.
__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned long long gtime()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

extern "C" __global__ void waves(const float* a, float* out, int share, int reqs, long long* rec)
{
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    unsigned long long t0 = gtime();
    long long group = blockIdx.x / share;
    const char* base = (const char*)a + (group * 8 + w) * 4096LL * reqs;
    float s = 0.f;
    for (int k = 0; k < reqs; ++k) s += *(const float*)(base + k * 4096LL + l * 128);
    if (s == -1.f) out[0] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        rec[blockIdx.x * 3] = smid();
        rec[blockIdx.x * 3 + 1] = (long long)t0;
        rec[blockIdx.x * 3 + 2] = (long long)gtime();
    }
}

#ifndef __CUDACC_RTC__
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

int main()
{
    const int ctas = 4224;
    void *a, *out;
    long long* rec;
    cudaMalloc(&a, (size_t)ctas * 8 * 8 * 4096);
    cudaMalloc(&out, 64);
    cudaMalloc(&rec, (size_t)ctas * 3 * 8);
    cudaMemset(a, 0, (size_t)ctas * 8 * 8 * 4096);
    std::vector<long long> h(ctas * 3);
    for (int rep = 0; rep < 3; ++rep) {
        waves<<<ctas, 256>>>((const float*)a, (float*)out, 4, 8, rec);
        cudaMemcpy(h.data(), rec, h.size() * 8, cudaMemcpyDeviceToHost);
        long long t_min = h[1];
        for (int c = 0; c < ctas; ++c) t_min = h[c * 3 + 1] < t_min ? h[c * 3 + 1] : t_min;
        for (int c = 0; c < ctas; ++c)
            printf("%d %d %lld %lld %lld\n", rep, c, h[c * 3], h[c * 3 + 1] - t_min, h[c * 3 + 2] - t_min);
    }
    cudaDeviceSynchronize();
    fprintf(stderr, "waves: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
#endif
