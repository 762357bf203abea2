// Merge window between two SMs of one GPC that are NOT partners in a TPC, beside the TPC partners of
// window.cu. One CTA per SM (200 KB dynamic shared memory), 132 CTAs. Every SM of a pair reads the
// pair's buffer (THR threads x NLD loads, one 4-byte load per 32-byte sector, one burst); the second
// SM of each pair starts `delay` SM cycles after a common %globaltimer instant. Pairs (argv[2]):
//   tpc : (2k, 2k+1), the two SMs of TPC k (as window.cu)
//   gpc : within each GPC of the H200's layout (simgpu/memory/topology.py H200_GPCS), the even SMs of
//         its TPCs 2i and 2i+1, and their odd SMs: same GPC, different TPCs
// SMs 124-131 (no GPC of their own in that layout) read nothing.
//   ./window_pairs DELAY1,DELAY2,... tpc|gpc [warm]    RESULT {json} per launch (pairs, realized dt)
// Copies reaching L2 = lts__t_sectors_srcunit_tex_op_read.sum / (pairs x THR x NLD), from ncu.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("RESULT {\"error\": \"%s line %d\"}\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned long long gtimer() { unsigned long long r; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r)); return r; }
#ifndef NLD
#define NLD 4
#endif
#ifndef THR
#define THR 256
#endif
#define BUF_SECTORS (THR * NLD)
// per SM: its pair's buffer (-1: none) and whether it is the pair's delayed SM
extern "C" __global__ void window_pairs_k(const float* bufs, const int* buf_of_sm, const int* late_of_sm,
                                          volatile unsigned long long* t0, int delay, float* out,
                                          unsigned long long* rec) {
    unsigned s = smid();
    int b = buf_of_sm[s];
    __shared__ unsigned long long go;
    if (threadIdx.x == 0) {
        if (blockIdx.x == 0) *t0 = gtimer() + 20000;  // 20 us from now
        unsigned long long g;
        while ((g = *t0) == 0) {}
        go = g;
        while (gtimer() < go) {}
        if (late_of_sm[s]) { long long c0 = clock64(); while (clock64() - c0 < delay) {} }
    }
    __syncthreads();
    unsigned long long ts = gtimer();
    float acc = 0.f;
    if (b >= 0) {
        const float* p = bufs + (size_t)b * BUF_SECTORS * 8;
        float v[NLD];
#pragma unroll
        for (int i = 0; i < NLD; ++i) v[i] = p[(size_t)(threadIdx.x + THR * i) * 8];
#pragma unroll
        for (int i = 0; i < NLD; ++i) acc += v[i];
    }
    out[blockIdx.x * THR + threadIdx.x] = acc;
    if (threadIdx.x == 0) { rec[2 * blockIdx.x] = s; rec[2 * blockIdx.x + 1] = ts; }
}
extern "C" __global__ void warm_k(const float* b, int n, float* out) {
    float a = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a += __ldcg(b + i);
    if (a == 12345.f) out[0] = a;
}
static const int GPCS[8][18] = {
    {0, 1, 16, 17, 32, 33, 48, 49, -1},
    {2, 3, 18, 19, 34, 35, 50, 51, 64, 65, 78, 79, 92, 93, 106, 107, -1},
    {4, 5, 20, 21, 36, 37, 52, 53, 66, 67, 80, 81, 94, 95, 108, 109, -1},
    {6, 7, 22, 23, 38, 39, 54, 55, 68, 69, 82, 83, 96, 97, 110, 111, -1},
    {8, 9, 24, 25, 40, 41, 56, 57, 70, 71, 84, 85, 98, 99, 112, 113, -1},
    {10, 11, 26, 27, 42, 43, 58, 59, 72, 73, 86, 87, 100, 101, 114, 115, -1},
    {12, 13, 28, 29, 44, 45, 60, 61, 74, 75, 88, 89, 102, 103, 116, 117, 120, 121},
    {14, 15, 30, 31, 46, 47, 62, 63, 76, 77, 90, 91, 104, 105, 118, 119, 122, 123},
};
int main(int argc, char** argv) {
    if (argc < 3) return 2;
    bool gpc = std::string(argv[2]) == "gpc";
    bool warm = argc > 3 && std::string(argv[3]) == "warm";
    std::vector<int> delays; { char* s = strdup(argv[1]); for (char* t = strtok(s, ","); t; t = strtok(0, ",")) delays.push_back(atoi(t)); }
    int nsm; CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    std::vector<int> buf(nsm, -1), late(nsm, 0), first, second;
    auto pair = [&](int a, int b) { if (a < nsm && b < nsm) { int k = (int)first.size(); buf[a] = buf[b] = k; late[b] = 1; first.push_back(a); second.push_back(b); } };
    if (!gpc) { for (int k = 0; k < 62; ++k) pair(2 * k, 2 * k + 1); }
    else {
        for (int g = 0; g < 8; ++g) {
            std::vector<int> tpcs; for (int i = 0; i < 18 && GPCS[g][i] >= 0; i += 2) tpcs.push_back(GPCS[g][i]);
            for (size_t i = 0; i + 1 < tpcs.size(); i += 2) { pair(tpcs[i], tpcs[i + 1]); pair(tpcs[i] + 1, tpcs[i + 1] + 1); }
        }
    }
    CK(cudaFuncSetAttribute(window_pairs_k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    size_t nf = (size_t)(first.size() + 1) * BUF_SECTORS * 8;
    float *bufs, *out; unsigned long long *t0, *rec; int *dbuf, *dlate;
    CK(cudaMalloc(&bufs, nf * 4)); CK(cudaMemset(bufs, 0, nf * 4));
    CK(cudaMalloc(&out, nsm * THR * 4)); CK(cudaMalloc(&t0, 8)); CK(cudaMalloc(&rec, nsm * 16));
    CK(cudaMalloc(&dbuf, nsm * 4)); CK(cudaMalloc(&dlate, nsm * 4));
    CK(cudaMemcpy(dbuf, buf.data(), nsm * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dlate, late.data(), nsm * 4, cudaMemcpyHostToDevice));
    int idx = 0;
    for (int d : delays) {
        CK(cudaMemset(t0, 0, 8));
        if (warm) { warm_k<<<264, 256>>>(bufs, (int)nf, out); }
        CK(cudaDeviceSynchronize());
        window_pairs_k<<<nsm, THR, 200 * 1024>>>(bufs, dbuf, dlate, t0, d, out, rec);
        CK(cudaDeviceSynchronize());
        std::vector<unsigned long long> h(nsm * 2);
        CK(cudaMemcpy(h.data(), rec, nsm * 16, cudaMemcpyDeviceToHost));
        std::vector<long long> ts(nsm, -1);
        for (int i = 0; i < nsm; ++i) if (h[2 * i] < (unsigned)nsm) ts[h[2 * i]] = (long long)h[2 * i + 1];
        printf("RESULT {\"idx\": %d, \"pairing\": \"%s\", \"delay_cycles\": %d, \"warm\": %d, \"pairs\": %d, \"sectors_per_sm\": %d, \"pair_dt_ns\": [",
               idx++, gpc ? "gpc" : "tpc", d, warm ? 1 : 0, (int)first.size(), BUF_SECTORS);
        for (size_t k = 0; k < first.size(); ++k) printf("%s%lld", k ? "," : "", ts[second[k]] - ts[first[k]]);
        printf("]}\n"); fflush(stdout);
    }
    return 0;
}
