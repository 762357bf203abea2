// Which L2 partition is near which SM, and which lines live in which partition (issue 3).
//
// One CTA of one thread per SM (132 CTAs, the first dispatch round). Each visits all NL lines of
// an L2-resident buffer (warmed with ld.cg first), starting at its own place (block * 37) so the
// SMs do not hit one slice together, and times 16 dependent ld.cg loads of each line (L2, not L1).
// Output (binary, stdout redirected to a file by the runner):
//   int32 NL, int32 NSM, uint64 buffer address, int32 smid[NSM], int32 line[NSM][NL],
//   int32 cycles per load[NSM][NL]
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void warm(const int* ring, int nl, int* sink) {
    int acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nl; i += gridDim.x * blockDim.x)
        acc += __ldcg(ring + (size_t)i * 32);
    if (acc == 123456789) *sink = acc;
}

__global__ void chase(const int* ring, int nl, int* smid_out, int* line_out, int* lat_out) {
    // per line: REPS dependent loads of that line (its first word holds its own index), timed
    // together; the clock placement then costs at most one load in REPS (per-load timing of an
    // unrolled chase is not reliable: ptxas moves the clock reads around the waits)
    const int REPS = 16;
    int sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    int b = blockIdx.x;
    smid_out[b] = sm;
#pragma unroll 1
    for (int s = 0; s < nl; ++s) {
        int idx = (b * 37 + s) % nl;
        long long t0 = clock64();
        int j = idx;
#pragma unroll
        for (int r = 0; r < REPS; ++r) j = __ldcg(ring + (size_t)j * 32);
        long long t1 = clock64();
        line_out[(size_t)b * nl + s] = j;  // == idx; stored, so the chase is live
        lat_out[(size_t)b * nl + s] = (int)((t1 - t0) / REPS);
    }
}

int main(int argc, char** argv) {
    int nl = argc > 1 ? atoi(argv[1]) : 8192;   // lines in the ring (8192 x 128 B = 1 MB)
    int nsm = 0;
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    std::vector<int> h((size_t)nl * 32, 0);
    for (int i = 0; i < nl; ++i) h[(size_t)i * 32] = i;  // each line points to itself
    int *ring, *sink, *smid, *line, *lat;
    CK(cudaMalloc(&ring, h.size() * 4));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMalloc(&smid, nsm * 4));
    CK(cudaMalloc(&line, (size_t)nsm * nl * 4));
    CK(cudaMalloc(&lat, (size_t)nsm * nl * 4));
    CK(cudaMemcpy(ring, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    fprintf(stderr, "ring at %p (%d lines)\n", (void*)ring, nl);
    for (int r = 0; r < 2; ++r) warm<<<nsm * 4, 256>>>(ring, nl, sink);
    chase<<<nsm, 1>>>(ring, nl, smid, line, lat);  // a first pass (also warms)
    CK(cudaDeviceSynchronize());
    chase<<<nsm, 1>>>(ring, nl, smid, line, lat);
    CK(cudaDeviceSynchronize());
    std::vector<int> hs(nsm), hl((size_t)nsm * nl), ht((size_t)nsm * nl);
    CK(cudaMemcpy(hs.data(), smid, nsm * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hl.data(), line, hl.size() * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ht.data(), lat, ht.size() * 4, cudaMemcpyDeviceToHost));
    uint64_t base = (uint64_t)(uintptr_t)ring;
    fwrite(&nl, 4, 1, stdout);
    fwrite(&nsm, 4, 1, stdout);
    fwrite(&base, 8, 1, stdout);
    fwrite(hs.data(), 4, nsm, stdout);
    fwrite(hl.data(), 4, hl.size(), stdout);
    fwrite(ht.data(), 4, ht.size(), stdout);
    return 0;
}
