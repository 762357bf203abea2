// First-touch L2 latency of each line from one SM, after one SM (the first CTA's, SM 124 on the
// H200) pulled the whole buffer into L2 (issue 3, see README.md).
//
// l2_partition.cu found every repeated ld.cg of one line near (273 cycles), so the near/far split
// of L2 hits must depend on who touched a line before. Here, per round: flush L2 (write a 256 MB
// buffer), warm the NL-line buffer with a single thread, then 132 CTAs of one thread (one per SM)
// each time the first two loads of its own lines (line X goes to block (X + round) % 132): the
// first load's latency is what the second, dependent load waits for. Output (binary on stdout):
//   int32 NL, int32 NSM, int32 ROUNDS, uint64 buffer address, then per round
//   int32 smid[NSM], int32 lat[NL] (cycles, first load + issue of the second), int32 block[NL]
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void warm_one(const int* ring, int nl, int* sink) {
    int acc = 0;
    for (int i = 0; i < nl; ++i) acc += __ldcg(ring + (size_t)i * 32);
    *sink = acc;
}

__global__ void first_touch(const int* ring, int nl, int rot, int* smid_out, int* lat_out, int* block_out) {
    int sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    int b = blockIdx.x;
    smid_out[b] = sm;
#pragma unroll 1
    for (int x = (b - rot % gridDim.x + gridDim.x) % gridDim.x; x < nl; x += gridDim.x) {
        long long t0 = clock64();
        int j = __ldcg(ring + (size_t)x * 32);       // first touch from this SM
        j = __ldcg(ring + (size_t)j * 32);           // its address waits for the first load
        long long t1 = clock64();
        lat_out[x] = (int)(t1 - t0);
        block_out[x] = b + (j != x) * 100000;        // j == x; keeps the loads live
    }
}

int main(int argc, char** argv) {
    int nl = argc > 1 ? atoi(argv[1]) : 12288;
    int rounds = argc > 2 ? atoi(argv[2]) : 4;
    int nsm = 0;
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    std::vector<int> h((size_t)nl * 32, 0);
    for (int i = 0; i < nl; ++i) h[(size_t)i * 32] = i;
    int *ring, *sink, *smid, *lat, *blk;
    char* flush;
    size_t flush_bytes = (size_t)256 << 20;
    CK(cudaMalloc(&ring, h.size() * 4));
    CK(cudaMalloc(&flush, flush_bytes));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMalloc(&smid, nsm * 4));
    CK(cudaMalloc(&lat, (size_t)nl * 4));
    CK(cudaMalloc(&blk, (size_t)nl * 4));
    CK(cudaMemcpy(ring, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    uint64_t base = (uint64_t)(uintptr_t)ring;
    fwrite(&nl, 4, 1, stdout);
    fwrite(&nsm, 4, 1, stdout);
    fwrite(&rounds, 4, 1, stdout);
    fwrite(&base, 8, 1, stdout);
    std::vector<int> hs(nsm), ht(nl), hb(nl);
    for (int r = 0; r < rounds; ++r) {
        CK(cudaMemset(flush, r & 0xff, flush_bytes));
        CK(cudaDeviceSynchronize());
        warm_one<<<1, 1>>>(ring, nl, sink);
        CK(cudaDeviceSynchronize());
        first_touch<<<nsm, 1>>>(ring, nl, r, smid, lat, blk);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hs.data(), smid, nsm * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(ht.data(), lat, nl * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hb.data(), blk, nl * 4, cudaMemcpyDeviceToHost));
        fwrite(hs.data(), 4, nsm, stdout);
        fwrite(ht.data(), 4, nl, stdout);
        fwrite(hb.data(), 4, nl, stdout);
    }
    fprintf(stderr, "ring at %p (%d lines, %d rounds)\n", (void*)ring, nl, rounds);
    return 0;
}
