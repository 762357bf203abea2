// l1_sets: which lines of a sweep the Hopper L1 keeps, line by line, to find how it picks a line's
// set. One thread a CTA (one CTA an SM, each its own 256 MB region of a zeroed buffer) chases its
// loads (each address depends on the value the last load returned, always 0) and times each with
// clock64; a load faster than HIT_CYCLES hit in L1. Per test, the hit bit of every access and a
// histogram of the latencies come back (probe -> stdout, bits.bin).
//
// A test (tests.txt, one a line: kind R nj nr off rounds xlines):
//   kind 0 "rows": `rounds` times, for r < nr, j < nj: line off + r R + j (col_softmax's reads when
//          R = 256 lines (32 KB rows), nj = 8: an SM's 1 KB of each row);
//   kind 1 "evict": X = xlines contiguous lines at XBASE read once, the rows pattern `rounds` times,
//          X once more: which of X's lines the rows pattern pushed out says which sets it crowds
//          (tests.txt's sets file: X just short of the capacity and one 512 B block, in X's 2 MB
//          page or another, so the X lines lost are those of the block's set).
#include <cstdio>
#include <cstdlib>
#include <vector>

static const long long REGION_LINES = (256LL << 20) / 128;  // 256 MB a CTA
static const long long XBASE = (200LL << 20) / 128;          // X at 200 MB (a 2 MB boundary)
static const int MAX_ACC = 8192;
static const int HIT_CYCLES = 150;
// The load under test: plain (ld.global, LDG.E) by default; -DPROBE_LOAD='"ld.global.ca.u32"' gives
// the strong SM-scope load (LDG.E.STRONG.SM) ptxas makes of .ca.
#ifndef PROBE_LOAD
#define PROBE_LOAD "ld.global.u32"
#endif

struct Test { int kind, R, nj, nr, off, rounds, xlines, pad; };

__device__ __forceinline__ unsigned timed_load(const unsigned* p, unsigned sink, unsigned& dt)
{
    // All three in one asm statement, so neither nvcc nor ptxas can move the clock reads past the
    // load: the shared store waits for the load's data and the second clock read follows it.
    unsigned long long t0, t1;
    unsigned v;
    asm volatile(
        "mov.u64 %0, %%clock64;\n\t"
        PROBE_LOAD " %2, [%3];\n\t"
        "st.shared.u32 [%4], %2;\n\t"
        "mov.u64 %1, %%clock64;"
        : "=l"(t0), "=l"(t1), "=r"(v) : "l"(p), "r"(sink) : "memory");
    dt = (unsigned)(t1 - t0);
    return v;
}

__global__ void probe(const unsigned* buf, const Test* tests, unsigned* bits_out, unsigned* hist_out)
{
    __shared__ unsigned bits[MAX_ACC / 32];
    __shared__ unsigned hist[64];
    __shared__ unsigned sink;
    if (threadIdx.x != 0) return;
    for (int i = 0; i < MAX_ACC / 32; ++i) bits[i] = 0;
    for (int i = 0; i < 64; ++i) hist[i] = 0;
    Test t = tests[blockIdx.x];
    const unsigned* base = buf + (size_t)blockIdx.x * REGION_LINES * 32;
    unsigned dep = 0, dt = 0;
    int k = 0;
    auto access = [&](long long line) {
        dep = timed_load(base + line * 32 + dep, (unsigned)__cvta_generic_to_shared(&sink), dt);
        if (k < MAX_ACC) {
            if (dt < HIT_CYCLES) bits[k >> 5] |= 1u << (k & 31);
            hist[min(dt / 16, 63u)]++;
        }
        ++k;
    };
    if (t.kind == 1)
        for (int i = 0; i < t.xlines; ++i) access(XBASE + i);
    for (int q = 0; q < t.rounds; ++q)
        for (int r = 0; r < t.nr; ++r)
            for (int j = 0; j < t.nj; ++j) access((long long)t.off + (long long)r * t.R + j);
    if (t.kind == 1)
        for (int i = 0; i < t.xlines; ++i) access(XBASE + i);
    for (int i = 0; i < MAX_ACC / 32; ++i) bits_out[(size_t)blockIdx.x * (MAX_ACC / 32) + i] = bits[i];
    for (int i = 0; i < 64; ++i) hist_out[blockIdx.x * 64 + i] = hist[i];
}

int main(int argc, char** argv)
{
    const char* path = argc > 1 ? argv[1] : "tests.txt";
    FILE* f = fopen(path, "r");
    if (!f) { fprintf(stderr, "cannot open %s\n", path); return 1; }
    std::vector<Test> tests;
    Test t = {};
    while (fscanf(f, "%d %d %d %d %d %d %d", &t.kind, &t.R, &t.nj, &t.nr, &t.off, &t.rounds, &t.xlines) == 7) {
        long long acc = (long long)t.rounds * t.nr * t.nj + (t.kind == 1 ? 2LL * t.xlines : 0);
        long long span = (long long)t.off + (long long)(t.nr - 1) * t.R + t.nj;
        if (acc > MAX_ACC || span > REGION_LINES) { fprintf(stderr, "test %zu too large\n", tests.size()); return 1; }
        tests.push_back(t);
    }
    fclose(f);
    int nsm = 0;
    cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0);
    size_t bytes = (size_t)nsm * REGION_LINES * 128;
    unsigned *buf, *bits, *hist;
    Test* dtests;
    if (cudaMalloc(&buf, bytes) != cudaSuccess) { fprintf(stderr, "no memory for %zu B\n", bytes); return 1; }
    cudaMemset(buf, 0, bytes);
    cudaMalloc(&dtests, nsm * sizeof(Test));
    cudaMalloc(&bits, (size_t)nsm * MAX_ACC / 8);
    cudaMalloc(&hist, (size_t)nsm * 64 * 4);
    cudaFuncSetAttribute(probe, cudaFuncAttributePreferredSharedMemoryCarveout, 14);  // the 32 KB carveout
    FILE* out = fopen(argc > 2 ? argv[2] : "bits.bin", "wb");
    std::vector<unsigned> hbits((size_t)nsm * MAX_ACC / 32), hhist(nsm * 64);
    for (size_t first = 0; first < tests.size(); first += nsm) {
        int n = (int)std::min<size_t>(nsm, tests.size() - first);
        std::vector<Test> batch(tests.begin() + first, tests.begin() + first + n);
        batch.resize(nsm, Test{0, 1, 1, 1, 0, 1, 0, 0});
        cudaMemcpy(dtests, batch.data(), nsm * sizeof(Test), cudaMemcpyHostToDevice);
        probe<<<nsm, 32>>>(buf, dtests, bits, hist);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) { fprintf(stderr, "probe: %s\n", cudaGetErrorString(e)); return 1; }
        cudaMemcpy(hbits.data(), bits, hbits.size() * 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(hhist.data(), hist, hhist.size() * 4, cudaMemcpyDeviceToHost);
        for (int i = 0; i < n; ++i) {
            fwrite(&hbits[(size_t)i * MAX_ACC / 32], 4, MAX_ACC / 32, out);
            fwrite(&hhist[i * 64], 4, 64, out);
            const Test& q = batch[i];
            printf("test %zu kind %d R %d nj %d nr %d off %d rounds %d xlines %d\n", first + i, q.kind, q.R, q.nj,
                   q.nr, q.off, q.rounds, q.xlines);
        }
    }
    fclose(out);
    return 0;
}
