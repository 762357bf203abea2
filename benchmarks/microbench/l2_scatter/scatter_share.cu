// Does the H200 merge the L1 misses of SMs that read the same sectors as often when the warps'
// loads are scattered over many lines as when they are coalesced? validation showed simgpu merging
// 3-9x more than the H200 in gather-like kernels (col_major_read, ell_spmv, gather_int64) and less
// in gemm-like ones. Each warp makes `reqs` loads; load k of warp w of CTA b reads 32 floats of
// region (b / share, w, k) of 32 * lane_bytes bytes, lane l at byte offset l * lane_bytes (4: one line; 32: eight lines, a
// sector each lane group; 128 or 4096: 32 lines, one sector each). `share` consecutive CTAs (on
// neighbouring SMs of one GPC) read the same regions; share < 0: -share CTAs 4 apart do. The second
// set (main's waves loop) runs 1, 2 and 4 waves of 1,056 CTAs: do later waves merge as much?
extern "C" __global__ void scatter_share(const float* a, float* out, int share, int lane_bytes, int reqs,
                                         long long region_bytes)
{
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    long long group = blockIdx.x / share;
    if (share < 0) {  // -share CTAs spaced 4 apart share (col_major_read's CTAs 4r + q, r = 8m..8m+7)
        int s = -share;
        group = (blockIdx.x / (4 * s)) * 4 + blockIdx.x % 4;
    }
    const char* base = (const char*)a + (group * 8 + w) * region_bytes * reqs;
    float s = 0.f;
    for (int k = 0; k < reqs; ++k)
        s += *(const float*)(base + k * region_bytes + (long long)l * lane_bytes);
    if (s == -1.f) out[0] = s;  // keeps the loads
}

#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
    const int reqs_list[] = {1, 8};
    const int lane_list[] = {4, 32, 128, 4096};
    const int share_list[] = {1, 4};
    const int ctas_list[] = {132, 1056};
    size_t bytes = (size_t)1056 * 8 * 8 * 32 * 4096;  // room for any launch's groups (the widest at share 1)
    void *a, *out;
    cudaMalloc(&a, bytes);
    cudaMalloc(&out, 64);
    cudaMemset(a, 0, bytes);
    for (int ctas : ctas_list)
        for (int reqs : reqs_list)
            for (int lane : lane_list)
                for (int share : share_list)
                    scatter_share<<<ctas, 256>>>((const float*)a, (float*)out, share, lane, reqs, 32LL * lane);
    const int waves_ctas[] = {1056, 2112, 4224};
    for (int ctas : waves_ctas)
        for (int reqs : reqs_list)
            for (int share : {4, -4, -8})
                scatter_share<<<ctas, 256>>>((const float*)a, (float*)out, share, 128, reqs, 32LL * 128);
    cudaDeviceSynchronize();
    printf("scatter_share: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
#endif
