// When does the H200 count a global store sector as an L1 hit, and when do stores to one sector
// reach L2 fewer times than they are made? validation/typical2 showed both differ from simgpu's
// rule (memory/l1.py) in short_axpy, warp_sum_redux, segmented_max16, block_compact, matvec_ldg4.
// Each kernel is one launch of 1,024 CTAs of 256 threads unless said; run.sh profiles them.

// A: read-modify-write of `per` elements of `bytes` each per lane: a warp covers 32 * per * bytes
extern "C" __global__ void rmw_short(short* y) { int i = blockIdx.x * blockDim.x + threadIdx.x; y[i] = y[i] + 1; }
extern "C" __global__ void rmw_float(float* y) { int i = blockIdx.x * blockDim.x + threadIdx.x; y[i] = y[i] + 1.f; }
extern "C" __global__ void rmw_short2(short2* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    short2 v = y[i];
    y[i] = make_short2(v.x + 1, v.y + 1);
}
// A4: two warps share each line, but the second warp touches it long after the first
extern "C" __global__ void rmw_short_apart(short* y)
{
    int w = threadIdx.x >> 5;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (w & 1) {
        long long t0 = clock64();
        while (clock64() - t0 < 20000) { }
    }
    y[i] = y[i] + 1;
}

// B: one lane per warp stores one word; 8 warps per CTA. where: 0 the same sector (consecutive
// words), 1 each warp its own sector of one line, 2 each warp its own line, 3 the same sector but
// one warp at a time (a barrier between)
extern "C" __global__ void one_lane(int* out, int where)
{
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    int idx = where == 0 || where == 3 ? blockIdx.x * 8 + w : where == 1 ? blockIdx.x * 64 + w * 8
                                                                          : blockIdx.x * 256 + w * 32;
    if (where == 3) {
        for (int k = 0; k < 8; ++k) {
            if (w == k && l == 0) out[idx] = k;
            __syncthreads();
        }
    } else if (l == 0) {
        out[idx] = w;
    }
}

// C: each thread stores 4 consecutive floats with 4 scalar stores (16 bytes apart per lane);
// spin: a pause between the stores
extern "C" __global__ void four_stores(float* y, int spin)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    for (int k = 0; k < 4; ++k) {
        y[r + k] = (float)k;
        if (spin) {
            long long t0 = clock64();
            while (clock64() - t0 < spin) { }
        }
    }
}

#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
    const int ctas = 1024, threads = 256, n = ctas * threads;
    void* buf;
    cudaMalloc(&buf, (size_t)n * 16);
    cudaMemset(buf, 0, (size_t)n * 16);
    rmw_short<<<ctas, threads>>>((short*)buf);
    rmw_float<<<ctas, threads>>>((float*)buf);
    rmw_short2<<<ctas, threads>>>((short2*)buf);
    rmw_short_apart<<<ctas, threads>>>((short*)buf);
    for (int where = 0; where < 4; ++where) one_lane<<<ctas, threads>>>((int*)buf, where);
    four_stores<<<ctas / 4, threads>>>((float*)buf, 0);
    four_stores<<<ctas / 4, threads>>>((float*)buf, 2000);
    cudaDeviceSynchronize();
    printf("stores: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
#endif
