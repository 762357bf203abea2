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
#include <vector>
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

// Every SM with region_of_sm[smid] >= 0 reads that region (2,048 sectors, `stride` floats between
// lanes) after a barrier of all of them: which SMs share a region is up to the host (below: TPC
// partners, or SMs of one GPC on different TPCs).
extern "C" __global__ void table_read(const float* buf, const int* __restrict__ region_of_sm, int stride,
                                      unsigned n_active, unsigned* sync, float* out)
{
    unsigned s = smid();
    int region = region_of_sm[s];
    if (region < 0) return;
    if (threadIdx.x == 0) {
        atomicAdd(sync, 1u);
        while (atomicAdd(sync, 0u) < n_active) {}
    }
    __syncthreads();
    const float* r = buf + (size_t)region * 2048 * stride;
    float acc = 0.f;
#pragma unroll
    for (int i = 0; i < 8; ++i) acc += r[(size_t)(i * 256 + threadIdx.x) * stride];
    out[s * 256 + threadIdx.x] = acc;
}

// k CTAs per SM (dynamic shared memory limits it), no barrier: each CTA takes the next slot of its
// SM and reads region (SM / 2) * k + slot, so the CTAs with the same slot on the two SMs of a TPC
// share a region, as CTAs of a real launch that read the same data do, not in lock step.
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
    float* big;  // 132 regions of 2,048 x 32 floats (256 KB each)
    cudaMalloc(&big, (size_t)132 * 2048 * 32 * sizeof(float));
    cudaMemset(big, 0, (size_t)132 * 2048 * 32 * sizeof(float));
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
    // GPCs as memory/topology.py H200_GPCS lists them (SM ids, TPC partners side by side)
    static const std::vector<std::vector<int>> gpcs = {
        {0, 1, 16, 17, 32, 33, 48, 49},
        {2, 3, 18, 19, 34, 35, 50, 51, 64, 65, 78, 79, 92, 93, 106, 107},
        {4, 5, 20, 21, 36, 37, 52, 53, 66, 67, 80, 81, 94, 95, 108, 109},
        {6, 7, 22, 23, 38, 39, 54, 55, 68, 69, 82, 83, 96, 97, 110, 111},
        {8, 9, 24, 25, 40, 41, 56, 57, 70, 71, 84, 85, 98, 99, 112, 113},
        {10, 11, 26, 27, 42, 43, 58, 59, 72, 73, 86, 87, 100, 101, 114, 115},
        {12, 13, 28, 29, 44, 45, 60, 61, 74, 75, 88, 89, 102, 103, 116, 117, 120, 121},
        {14, 15, 30, 31, 46, 47, 62, 63, 76, 77, 90, 91, 104, 105, 118, 119, 122, 123}};
    int* table;
    cudaMalloc(&table, 132 * sizeof(int));
    cudaFuncSetAttribute(table_read, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    // layouts: 0 TPC partners share; 1 SMs two apart in a GPC's list (other TPC) share; 2 four SMs of
    // two TPCs share; 3 as 1 but only GPC 1 at work; 4 every SM its own region (no sharing)
    float* pages;  // room for 60 regions of 2,048 lines 4 KB + 128 B apart
    cudaMalloc(&pages, (size_t)60 * 2048 * 1056 * sizeof(float));
    cudaMemset(pages, 0, (size_t)60 * 2048 * 1056 * sizeof(float));
    float* slotbuf;  // 66 x 8 regions of 2,048 x 32 floats
    cudaMalloc(&slotbuf, (size_t)66 * 8 * 2048 * 32 * sizeof(float));
    cudaMemset(slotbuf, 0, (size_t)66 * 8 * 2048 * 32 * sizeof(float));
    unsigned* slots;
    cudaMalloc(&slots, 132 * sizeof(unsigned));
    float* sink;
    cudaMalloc(&sink, 65536 * sizeof(float));
    for (int k : {1, 2, 4, 8}) {
        cudaFuncSetAttribute(slot_read, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
        for (int stride : {8, 32}) {
            cudaMemset(slots, 0, 132 * sizeof(unsigned));
            slot_read<<<132 * k, 256, (200 / k) * 1024>>>(slotbuf, slots, k, stride, sink);
            cudaDeviceSynchronize();
            printf("slot_read k %d stride %d: %s\n", k, stride, cudaGetErrorString(cudaGetLastError()));
        }
    }
    // 5: per GPC, SMs 0 and 2 of its list share a region while every other SM of the GPC reads its
    // own (noise); 6: the same pairs with nobody else at work
    for (int layout = 5; layout < 7; ++layout) {
        for (int stride : {8, 32}) {
            std::vector<int> h(132, -1);
            int region = 0;
            unsigned n_active = 0;
            for (size_t g = 0; g < gpcs.size(); ++g) {
                const auto& v = gpcs[g];
                h[v[0]] = h[v[2]] = region++;
                n_active += 2;
                if (layout == 5)
                    for (size_t i = 1; i < v.size(); ++i)
                        if (i != 2) { h[v[i]] = region++; ++n_active; }
            }
            cudaMemcpy(table, h.data(), 132 * sizeof(int), cudaMemcpyHostToDevice);
            cudaMemset(sync, 0, sizeof(unsigned));
            table_read<<<132, 256, smem>>>(big, table, stride, n_active, sync, out);
            cudaDeviceSynchronize();
            printf("table_read layout %d stride %d: %u SMs, %d regions: %s\n", layout, stride, n_active, region,
                   cudaGetErrorString(cudaGetLastError()));
        }
    }
    for (int layout = 0; layout < 5; ++layout) {
        for (int stride : {8, 32, 1024, 1056}) {
            if (stride > 32 && layout != 0 && layout != 4) continue;
            std::vector<int> h(132, -1);
            int region = 0;
            unsigned n_active = 0;
            for (size_t g = 0; g < gpcs.size(); ++g) {
                if (layout == 3 && g != 1) continue;
                const auto& v = gpcs[g];
                for (size_t i = 0; i + 3 < v.size(); i += 4) {
                    int a = v[i], b = v[i + 1], c = v[i + 2], d = v[i + 3];
                    if (layout == 0) { h[a] = h[b] = region++; h[c] = h[d] = region++; }
                    else if (layout == 1 || layout == 3) { h[a] = h[c] = region++; h[b] = h[d] = region++; }
                    else if (layout == 2) { h[a] = h[b] = h[c] = h[d] = region++; }
                    else { h[a] = region++; h[b] = region++; h[c] = region++; h[d] = region++; }
                    n_active += 4;
                }
            }
            cudaMemcpy(table, h.data(), 132 * sizeof(int), cudaMemcpyHostToDevice);
            cudaMemset(sync, 0, sizeof(unsigned));
            if (stride > 32 && region > 60) continue;  // layout 4 has 120 regions: no room
            table_read<<<132, 256, smem>>>(stride > 32 ? pages : big, table, stride, n_active, sync, out);
            cudaDeviceSynchronize();
            printf("table_read layout %d stride %d: %u SMs, %d regions: %s\n", layout, stride, n_active, region,
                   cudaGetErrorString(cudaGetLastError()));
        }
    }
    for (int off1 : {0, 1, 7}) {
        pending<<<1, 64>>>(buf, off1, out);
        cudaDeviceSynchronize();
        printf("pending off1 %d: %s\n", off1, cudaGetErrorString(cudaGetLastError()));
    }
    return 0;
}
