// Merge groups: how many copies of a buffer reach L2 when K SMs of one merge domain (a GPC, or one of
// the 4-SM groups 124-127 / 128-131) read it, member j starting j*d SM cycles after member 0?
// One CTA per SM (200 KB dynamic shared memory), 132 CTAs; all wait for a common %globaltimer instant,
// then spin lag[smid] cycles, then THR threads issue NLD independent 4-byte loads, one per 32-byte
// sector, of buffer grp[smid] (THR*NLD sectors). SMs left over when a domain does not split into
// groups of K read a buffer of their own. grp and lag are read before the start (2 sectors per SM
// in the L2 read count, analyze.py takes them off).
//   ./l2_group K D1,D2,... [warm]     one launch per delay; RESULT {json} per launch
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
#define NLD 1
#endif
#ifndef THR
#define THR 128
#endif
#define BUF_SECTORS (THR * NLD)
// merge domains in dispatch order (simgpu/memory/topology.py)
static const int DOM_SM[132] = {124,125,126,127,128,129,130,131,0,1,16,17,32,33,48,49,2,3,18,19,34,35,50,51,64,65,78,79,92,93,106,107,4,5,20,21,36,37,52,53,66,67,80,81,94,95,108,109,6,7,22,23,38,39,54,55,68,69,82,83,96,97,110,111,8,9,24,25,40,41,56,57,70,71,84,85,98,99,112,113,10,11,26,27,42,43,58,59,72,73,86,87,100,101,114,115,12,13,28,29,44,45,60,61,74,75,88,89,102,103,116,117,120,121,14,15,30,31,46,47,62,63,76,77,90,91,104,105,118,119,122,123};
static const int DOM_SIZE[10] = {4,4,8,16,16,16,16,16,18,18};
extern "C" __global__ void group_k(const float* bufs, volatile unsigned long long* t0, const int* grp, const int* lag,
                                   float* out) {
    unsigned s = smid();
    __shared__ int my_grp;
    if (threadIdx.x == 0) {
        // this SM's buffer and delay are read before the common start (a load after it would delay
        // the SM by its own latency, and two SMs' index loads could merge and re-align them)
        int g_ = grp[s], l_ = lag[s], l2_;
        asm volatile("mov.u32 %0, %1;" : "=r"(l2_) : "r"(l_));
        my_grp = g_;
        if (blockIdx.x == 0) *t0 = gtimer() + 20000;  // 20 us from now
        unsigned long long g;
        while ((g = *t0) == 0) {}
        while (gtimer() < g) {}
        long long c0 = clock64(); while (clock64() - c0 < l2_) {}
    }
    __syncthreads();
    const float* p = bufs + (size_t)my_grp * BUF_SECTORS * 8;
    float v[NLD];
#pragma unroll
    for (int i = 0; i < NLD; ++i) v[i] = p[(size_t)(threadIdx.x + THR * i) * 8];
    float acc = 0.f;
#pragma unroll
    for (int i = 0; i < NLD; ++i) acc += v[i];
    out[blockIdx.x * THR + threadIdx.x] = acc;
}
extern "C" __global__ void warm_k(const float* b, int n, float* out) {
    float a = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a += __ldcg(b + i);
    if (a == 12345.f) out[0] = a;
}
int main(int argc, char** argv) {
    if (argc < 3) return 2;
    // argv[1]: K (groups of K consecutive SMs of each domain) or spec:FILE (one group per line: its SM
    // ids in member order; SMs in no group read a buffer of their own)
    std::string a1 = argv[1];
    int K = a1.rfind("spec:", 0) == 0 ? 0 : atoi(argv[1]);
    bool warm = argc > 3 && std::string(argv[3]) == "warm";
    std::vector<int> delays; { char* s = strdup(argv[2]); for (char* t = strtok(s, ","); t; t = strtok(0, ",")) delays.push_back(atoi(t)); }
    int nsm; CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    if (nsm != 132) { printf("RESULT {\"error\": \"%d SMs\"}\n", nsm); return 1; }
    CK(cudaFuncSetAttribute(group_k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    // groups of K consecutive SMs of a domain; member j of a group has index j
    std::vector<int> grp(132), member(132);
    int ng = 0, nsingle = 0, o = 0;
    if (K > 0) {
        for (int d = 0; d < 10; ++d) {
            int n = DOM_SIZE[d], full = n / K;
            for (int i = 0; i < n; ++i) {
                int sm = DOM_SM[o + i];
                if (i < full * K) { grp[sm] = ng + i / K; member[sm] = i % K; }
                else { grp[sm] = -1; member[sm] = 0; }
            }
            ng += full; o += n;
        }
    } else {
        for (int sm = 0; sm < 132; ++sm) { grp[sm] = -1; member[sm] = 0; }
        FILE* f = fopen(a1.c_str() + 5, "r");
        if (!f) { printf("RESULT {\"error\": \"cannot read %s\"}\n", a1.c_str() + 5); return 1; }
        char line[4096];
        while (fgets(line, sizeof line, f)) {
            int j = 0;
            for (char* t = strtok(line, " \t\n"); t; t = strtok(0, " \t\n")) {
                int sm = atoi(t);
                if (sm >= 0 && sm < 132) { grp[sm] = ng; member[sm] = j++; }
            }
            if (j) ++ng;
        }
        fclose(f);
    }
    for (int sm = 0; sm < 132; ++sm) if (grp[sm] < 0) { grp[sm] = ng + nsingle; ++nsingle; }
    size_t nf = (size_t)(ng + nsingle) * BUF_SECTORS * 8;
    float *bufs, *out; unsigned long long* t0; int *dgrp, *dlag;
    CK(cudaMalloc(&bufs, nf * 4)); CK(cudaMemset(bufs, 0, nf * 4));
    CK(cudaMalloc(&out, 132 * THR * 4)); CK(cudaMalloc(&t0, 8));
    CK(cudaMalloc(&dgrp, 132 * 4)); CK(cudaMalloc(&dlag, 132 * 4));
    CK(cudaMemcpy(dgrp, grp.data(), 132 * 4, cudaMemcpyHostToDevice));
    int idx = 0;
    for (int d : delays) {
        std::vector<int> lag(132);
        for (int sm = 0; sm < 132; ++sm) lag[sm] = member[sm] * d;
        CK(cudaMemcpy(dlag, lag.data(), 132 * 4, cudaMemcpyHostToDevice));
        CK(cudaMemset(t0, 0, 8));
        if (warm) { warm_k<<<264, 256>>>(bufs, (int)nf, out); }
        CK(cudaDeviceSynchronize());
        group_k<<<132, THR, 200 * 1024>>>(bufs, t0, dgrp, dlag, out);
        CK(cudaDeviceSynchronize());
        printf("RESULT {\"idx\": %d, \"spec\": \"%s\", \"K\": %d, \"delay_cycles\": %d, \"warm\": %d, \"nld\": %d, \"thr\": %d, "
               "\"groups\": %d, \"singles\": %d, \"sectors_per_buffer\": %d}\n",
               idx++, K ? "" : a1.c_str() + 5, K, d, warm ? 1 : 0, NLD, THR, ng, nsingle, BUF_SECTORS);
        fflush(stdout);
    }
    return 0;
}
