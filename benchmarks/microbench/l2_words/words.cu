// Two questions about L1 read misses, for simgpu's merge rule (memory/l1.py, timing/l2_merge.py):
//
//  pair_read  Do the misses of two SMs of one GPC to the same sectors reach L2 once when the two
//             read *different 4-byte words* of them (validation/typical col_major_read says no)?
//             One CTA per SM (big dynamic shared memory); only SMs a and b work: they meet at a
//             barrier polled with atomics (no L2 read traffic), then each thread reads 8 floats one
//             sector apart, at word `off` of each sector (off_a on SM a, off_b on SM b): 2048
//             sectors per SM, 64 KB.
//  pending    How does ncu count a second warp's miss on a sector whose fill is still on its way?
//             One CTA, two warps reading the same 64 x 32 sectors in lock step, warp 1 at word off1.
//
// Profile with ncu (lts__t_sectors_srcunit_tex_op_read.sum, L1 lookup hits); run.sh does it.
#include <cstdio>
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }

extern "C" __global__ void pair_read(const float* buf, int a, int b, int off_a, int off_b, unsigned* sync,
                                     float* out)
{
    unsigned s = smid();
    if (s != (unsigned)a && s != (unsigned)b) return;
    if (threadIdx.x == 0) {
        atomicAdd(sync, 1u);
        while (atomicAdd(sync, 0u) < 2u) {}
    }
    __syncthreads();
    int off = s == (unsigned)a ? off_a : off_b;
    float acc = 0.f;
#pragma unroll
    for (int i = 0; i < 8; ++i) acc += buf[(i * 256 + threadIdx.x) * 8 + off];
    out[s * 256 + threadIdx.x] = acc;
}

// Like pair_read, but with `stride` floats between a warp's lanes (8: 8 lines of 4 sectors a request;
// 32: 32 lines of 1 sector, as in col_major_read), and every SM at work when crowd is set: SMs 2k and
// 2k+1 (one TPC) share a region, so full merging halves the L2 reads.
extern "C" __global__ void shape_read(const float* buf, int a, int b, int stride, int off_b, int crowd,
                                      unsigned* sync, float* out)
{
    unsigned s = smid();
    bool mine = crowd ? true : (s == (unsigned)a || s == (unsigned)b);
    if (!mine) return;
    unsigned n = crowd ? gridDim.x : 2u;
    if (threadIdx.x == 0) {
        atomicAdd(sync, 1u);
        while (atomicAdd(sync, 0u) < n) {}
    }
    __syncthreads();
    int region = crowd ? (int)(s >> 1) : 0;
    int off = (crowd ? (s & 1) : s == (unsigned)b) ? off_b : 0;
    const float* r = buf + (size_t)region * 2048 * 32;
    float acc = 0.f;
#pragma unroll
    for (int i = 0; i < 8; ++i) acc += r[(i * 256 + threadIdx.x) * stride + off];
    out[s * 256 + threadIdx.x] = acc;
}

extern "C" __global__ void pending(const float* buf, int off1, float* out)
{
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    int off = w ? off1 : 0;
    float acc = 0.f;
#pragma unroll 8
    for (int i = 0; i < 64; ++i) acc += buf[(i * 32 + l) * 8 + off];
    out[threadIdx.x] = acc;
}

int main()
{
    const int n = 1 << 20;
    float *buf, *out;
    unsigned* sync;
    cudaMalloc(&buf, n * sizeof(float));
    float* big;  // 66 regions of 2,048 x 32 floats (256 KB each)
    cudaMalloc(&big, (size_t)66 * 2048 * 32 * sizeof(float));
    cudaMemset(big, 0, (size_t)66 * 2048 * 32 * sizeof(float));
    cudaMalloc(&out, 132 * 256 * sizeof(float));
    cudaMalloc(&sync, sizeof(unsigned));
    cudaMemset(buf, 0, n * sizeof(float));
    int smem = 200 * 1024;
    cudaFuncSetAttribute(pair_read, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    // (SM a, SM b, word of a, word of b): SMs 2, 3 one TPC; 2, 18 one GPC, two TPCs; 2, 4 two GPCs
    const int cases[][4] = {{2, 3, 0, 0}, {2, 3, 0, 1}, {2, 3, 0, 7}, {2, 3, 3, 3},
                            {2, 18, 0, 0}, {2, 18, 0, 1}, {2, 4, 0, 0}, {2, 4, 0, 1}};
    for (auto& c : cases) {
        cudaMemset(sync, 0, sizeof(unsigned));
        pair_read<<<132, 256, smem>>>(buf, c[0], c[1], c[2], c[3], sync, out);
        cudaDeviceSynchronize();
        printf("pair_read sm %d,%d words %d,%d: %s\n", c[0], c[1], c[2], c[3], cudaGetErrorString(cudaGetLastError()));
    }
    cudaFuncSetAttribute(shape_read, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    // (stride, word of the second SM, crowd)
    const int shapes[][3] = {{8, 0, 0}, {32, 0, 0}, {32, 1, 0}, {8, 0, 1}, {8, 1, 1}, {32, 0, 1}, {32, 1, 1}};
    for (auto& c : shapes) {
        cudaMemset(sync, 0, sizeof(unsigned));
        shape_read<<<132, 256, smem>>>(big, 2, 3, c[0], c[1], c[2], sync, out);
        cudaDeviceSynchronize();
        printf("shape_read stride %d word %d crowd %d: %s\n", c[0], c[1], c[2], cudaGetErrorString(cudaGetLastError()));
    }
    for (int off1 : {0, 1, 7}) {
        pending<<<1, 64>>>(buf, off1, out);
        cudaDeviceSynchronize();
        printf("pending off1 %d: %s\n", off1, cudaGetErrorString(cudaGetLastError()));
    }
    return 0;
}
