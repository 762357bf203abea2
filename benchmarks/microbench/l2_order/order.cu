// What breaks the merging of L1 misses of two SMs (benchmarks/microbench/l2_words run 6)? There,
// k CTAs per SM took atomic "slots" and the CTAs with the same slot on two TPC partners shared a
// region: merging faded with k. Two questions that tell the models apart:
//
//  block_pair  The CTAs that share are found by blockIdx, as in a real kernel (region = blockIdx/2:
//              blocks 2m and 2m+1 land on the two SMs of a TPC in one dispatch round), k CTAs per SM
//              (dynamic shared memory limits it). Does merging fade with k here too, or was it the
//              slots' random order?
//  big_cta     One CTA per SM of 256 / 512 / 1,024 threads, TPC partners share (region = SM / 2).
//              Is it the number of CTAs or the number of warps that interleave?
//  slot_read   run 6's kernel again, on the same chip.
//
// mask_pair  Which requests count as identical? Only SMs a and b (TPC partners) work, in lock step
//            (a barrier polled with atomics). First the SMs named by `mode` bring sector 0 of N lines
//            into their L1 (`preload_only` stops there: the preload's own L2 reads); then each SM asks
//            for sectors {0, 1} or {1} of every line, two lines a warp instruction:
//              mode 0: a preloaded, a asks {0,1} (misses {1}), b asks {1}      (same misses, other ask)
//              mode 1: a preloaded, a asks {0,1} (misses {1}), b asks {0,1}    (same ask, other misses)
//              mode 2: nobody preloaded, both ask {1}                         (identical: merges)
//              mode 3: both preloaded, both ask {0,1} (miss {1})              (identical: merges)
//              mode 4: nobody preloaded, a asks {0,1}, b asks {1}              (other ask, other misses)
//              mode 5: nobody preloaded, both ask {1}; the second line of b's warp instructions is
//                      another one (4,096 lines on): half the lines of each request are the same
//              mode 6: as 5, both with the other second line                  (identical: merges)
//
// Each thread reads 8 floats, `stride` floats between lanes (8: 8 lines of 4 sectors a request;
// 32: 32 lines of 1 sector). Profile with ncu (run.sh).
__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }

extern "C" __global__ void block_pair(const float* buf, int stride, float* out)
{
    extern __shared__ float pad[];
    pad[threadIdx.x] = 0.f;
    const float* r = buf + (size_t)(blockIdx.x >> 1) * 2048 * stride;
    float acc = 0.f;
#pragma unroll
    for (int i = 0; i < 8; ++i) acc += r[(size_t)(i * 256 + threadIdx.x) * stride];
    out[(blockIdx.x * 256 + threadIdx.x) & 65535] = acc + pad[threadIdx.x ^ 1];
}

extern "C" __global__ void big_cta(const float* buf, int stride, float* out)
{
    extern __shared__ float pad[];
    pad[threadIdx.x] = 0.f;
    unsigned n = blockDim.x;
    const float* r = buf + (size_t)(smid() >> 1) * 8 * n * stride;
    float acc = 0.f;
#pragma unroll
    for (int i = 0; i < 8; ++i) acc += r[(size_t)(i * n + threadIdx.x) * stride];
    out[(blockIdx.x * n + threadIdx.x) & 65535] = acc + pad[threadIdx.x ^ 1];
}

extern "C" __global__ void slot_read(const float* buf, unsigned* slots, int k, int stride, float* out)
{
    extern __shared__ float pad[];
    __shared__ int slot;
    unsigned s = smid();
    if (threadIdx.x == 0) slot = (int)atomicAdd(&slots[s], 1u);
    __syncthreads();
    pad[threadIdx.x] = 0.f;
    const float* r = buf + ((size_t)(s >> 1) * k + slot) * 2048 * stride;
    float acc = pad[threadIdx.x ^ 1];
#pragma unroll
    for (int i = 0; i < 8; ++i) acc += r[(size_t)(i * 256 + threadIdx.x) * stride];
    out[(blockIdx.x * 256 + threadIdx.x) & 65535] = acc;
}

extern "C" __global__ void mask_pair(const float* buf, int a, int b, int mode, int preload_only, unsigned* sync,
                                     float* out)
{
    const int N = 256;  // lines per SM
    unsigned s = smid();
    if (s != (unsigned)a && s != (unsigned)b) return;
    bool is_a = s == (unsigned)a;
    bool pre = mode == 3 || (is_a && (mode == 0 || mode == 1));
    bool ask0 = mode < 5 && (is_a ? mode != 2 : (mode == 1 || mode == 3));
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int far = (lane >> 4) && (mode == 6 || (mode == 5 && !is_a)) ? 4096 : 0;
    float acc = 0.f;
    if (pre) {
        for (int i = 0; i < N / 16; ++i) {
            int line = i * 16 + warp * 2 + (lane >> 4);
            acc += buf[line * 32 + (lane & 7)];
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicAdd(sync, 1u);
        while (atomicAdd(sync, 0u) < 2u) {}
    }
    __syncthreads();
    if (!preload_only) {
        for (int i = 0; i < N / 16; ++i) {
            int line = i * 16 + warp * 2 + (lane >> 4);
            int sector = ask0 ? (lane >> 3) & 1 : 1;
            acc += buf[(line + far) * 32 + sector * 8 + (lane & 7)];
        }
    }
    out[s * 256 + threadIdx.x] = acc;
}

#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
    const size_t floats = (size_t)66 * 8 * 2048 * 32;  // 528 regions of 2,048 x 32 floats, 135 MB
    float *buf, *out;
    unsigned* slots;
    cudaMalloc(&buf, floats * sizeof(float));
    cudaMemset(buf, 0, floats * sizeof(float));
    cudaMalloc(&out, 65536 * sizeof(float));
    cudaMalloc(&slots, 132 * sizeof(unsigned));
    const int smem = 200 * 1024;
    cudaFuncSetAttribute(block_pair, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    cudaFuncSetAttribute(big_cta, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    cudaFuncSetAttribute(slot_read, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    for (int k : {1, 2, 4, 8})
        for (int stride : {8, 32}) {
            block_pair<<<132 * k, 256, (200 / k) * 1024>>>(buf, stride, out);
            cudaDeviceSynchronize();
            printf("block_pair k %d stride %d: %s\n", k, stride, cudaGetErrorString(cudaGetLastError()));
        }
    for (int n : {256, 512, 1024})
        for (int stride : {8, 32}) {
            big_cta<<<132, n, smem>>>(buf, stride, out);
            cudaDeviceSynchronize();
            printf("big_cta threads %d stride %d: %s\n", n, stride, cudaGetErrorString(cudaGetLastError()));
        }
    for (int k : {1, 2, 4, 8})
        for (int stride : {8, 32}) {
            cudaMemset(slots, 0, 132 * sizeof(unsigned));
            slot_read<<<132 * k, 256, (200 / k) * 1024>>>(buf, slots, k, stride, out);
            cudaDeviceSynchronize();
            printf("slot_read k %d stride %d: %s\n", k, stride, cudaGetErrorString(cudaGetLastError()));
        }
    unsigned* sync;
    cudaMalloc(&sync, sizeof(unsigned));
    cudaFuncSetAttribute(mask_pair, cudaFuncAttributeMaxDynamicSharedMemorySize, 120 * 1024);
    for (int mode = 0; mode < 7; ++mode)
        for (int preload_only : {0, 1}) {
            if (preload_only && (mode == 2 || mode >= 4)) continue;
            cudaMemset(sync, 0, sizeof(unsigned));
            mask_pair<<<132, 256, 120 * 1024>>>(buf, 2, 3, mode, preload_only, sync, out);
            cudaDeviceSynchronize();
            printf("mask_pair mode %d preload_only %d: %s\n", mode, preload_only, cudaGetErrorString(cudaGetLastError()));
        }
    return 0;
}
#endif
