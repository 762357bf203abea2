// Loaded-latency microbenchmark: memory latency as a function of device-wide load.
//
// k warps per SM (k = 1 .. 64) on all SMs; each warp chases its own chain of dependent,
// coalesced random loads: a node is NODE bytes (128: one LDG.32 per lane = one 128 B line;
// 512: one LDG.128 per lane = four lines), every 16 B of a node holds the index of the next
// node, so each lane reads its own copy of the next pointer (no shuffle, one load per step).
// The nodes form one random cyclic permutation (Sattolo) over the working set; warp w starts
// at node perm-position w * N / warps. Loads are ld.global.cg (L2, no L1 allocation).
// Per warp: clock64 before/after ITER dependent loads -> cycles per load; kernel time by
// cudaEvent -> achieved bandwidth (ITER * NODE bytes per warp).
//
//   nvcc -O3 -arch=sm_90 -o loaded_latency loaded_latency.cu
//   ./loaded_latency            (prints one RESULT {json} line per point)
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <random>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  fprintf(stderr, "CUDA %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); exit(1);} } while (0)

template <int NODE>
__global__ void __launch_bounds__(1024, 2) chase(const uint32_t* __restrict__ buf, uint32_t n_nodes, const uint32_t* starts,
                      int iters, long long* cyc, uint32_t* sink) {
  int gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  uint32_t p = starts[gw];
  uint32_t acc = 0;
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
    if (NODE == 128) {
      uint32_t v;
      const uint32_t* a = buf + (size_t)p * 32 + lane;
      asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(a));
      p = v;
    } else {
      uint32_t x, y, z, w;
      const uint32_t* a = buf + (size_t)p * 128 + lane * 4;
      asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "l"(a));
      p = x;
      acc ^= y ^ z ^ w;
    }
  }
  long long t1 = clock64();
  if (lane == 0) cyc[gw] = t1 - t0;
  if (p == 0xffffffff) sink[0] = acc;  // keeps the chain live (NODE 128 has no acc)
}

__global__ void touch(const uint4* __restrict__ b, size_t n, uint32_t* sink) {
  uint32_t acc = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint4 v = b[i]; acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0xdeadbeef) sink[0] = acc;
}

template <int NODE>
void run_set(size_t bytes, const char* label, int iters) {
  const int WPN = NODE / 4;  // u32 words per node
  uint32_t n = (uint32_t)(bytes / NODE);
  std::vector<uint32_t> perm(n), next(n);
  for (uint32_t i = 0; i < n; ++i) perm[i] = i;
  std::mt19937_64 rng(12345);
  for (uint32_t i = n - 1; i > 0; --i) {  // Sattolo: one cycle
    std::uniform_int_distribution<uint32_t> d(0, i - 1);
    std::swap(perm[i], perm[d(rng)]);
  }
  // node perm[i] -> perm[i+1]
  std::vector<uint32_t> host((size_t)n * WPN);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t a = perm[i], b = perm[(i + 1) % n];
    for (int j = 0; j < WPN; ++j) host[(size_t)a * WPN + j] = b;
  }
  uint32_t* d_buf; CK(cudaMalloc(&d_buf, (size_t)n * NODE));
  CK(cudaMemcpy(d_buf, host.data(), (size_t)n * NODE, cudaMemcpyHostToDevice));
  std::vector<uint32_t>().swap(host);
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  int clk_khz; CK(cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, 0));
  const int ks[] = {1, 2, 4, 8, 16, 32, 64};
  uint32_t* d_sink; CK(cudaMalloc(&d_sink, 4));
  void* d_flush; size_t flush_bytes = (size_t)256 << 20; CK(cudaMalloc(&d_flush, flush_bytes));
  for (int k : ks) {
    int threads = 32 * std::min(k, 32);
    int ctas = sms * std::max(1, k / 32);
    int warps = ctas * threads / 32;
    std::vector<uint32_t> st(warps);
    for (int w = 0; w < warps; ++w) st[w] = perm[(size_t)w * n / warps];
    uint32_t* d_st; CK(cudaMalloc(&d_st, warps * 4));
    long long* d_cyc; CK(cudaMalloc(&d_cyc, warps * 8));
    CK(cudaMemcpy(d_st, st.data(), warps * 4, cudaMemcpyHostToDevice));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    float best_ms = 1e30f; double mean_cyc = 0, min_cyc = 0, max_cyc = 0;
    for (int rep = 0; rep < 3; ++rep) {
      CK(cudaMemset(d_flush, rep, flush_bytes));  // push the set out of L2 (matters for the DRAM set)
      if (bytes < ((size_t)40 << 20)) {  // L2 set: read it all twice so the timed chase hits L2
        touch<<<sms * 8, 256>>>((const uint4*)d_buf, bytes / 16, d_sink);
        touch<<<sms * 8, 256>>>((const uint4*)d_buf, bytes / 16, d_sink);
      }
      cudaEventRecord(e0);
      chase<NODE><<<ctas, threads>>>(d_buf, n, d_st, iters, d_cyc, d_sink);
      cudaEventRecord(e1);
      CK(cudaEventSynchronize(e1));
      float ms; cudaEventElapsedTime(&ms, e0, e1);
      std::vector<long long> cyc(warps);
      CK(cudaMemcpy(cyc.data(), d_cyc, warps * 8, cudaMemcpyDeviceToHost));
      double s = 0, mn = 1e30, mx = 0;
      for (long long c : cyc) { double v = (double)c / iters; s += v; mn = std::min(mn, v); mx = std::max(mx, v); }
      if (ms < best_ms) { best_ms = ms; mean_cyc = s / warps; min_cyc = mn; max_cyc = mx; }
    }
    double total_bytes = (double)warps * iters * NODE;
    double gbps = total_bytes / (best_ms * 1e-3) / 1e9;
    // bandwidth inside the timed loop, from clock64 (excludes launch and tail): warps * NODE / cycles-per-load
    double loop_gbps_at_1980 = (double)warps * NODE / mean_cyc * 1.98;
    printf("RESULT {\"set\":\"%s\",\"bytes\":%zu,\"node_bytes\":%d,\"warps_per_sm\":%d,\"warps\":%d,"
           "\"iters\":%d,\"cycles_per_load_mean\":%.1f,\"cycles_per_load_min_warp\":%.1f,"
           "\"cycles_per_load_max_warp\":%.1f,\"kernel_ms\":%.4f,\"GBps_event\":%.1f,"
           "\"GBps_loop_at_1980MHz\":%.1f}\n",
           label, bytes, NODE, k, warps, iters, mean_cyc, min_cyc, max_cyc, best_ms, gbps, loop_gbps_at_1980);
    fflush(stdout);
    cudaFree(d_st); cudaFree(d_cyc);
  }
  cudaFree(d_buf); cudaFree(d_sink); cudaFree(d_flush);
}

int main(int argc, char** argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 1000;
  int only = argc > 2 ? atoi(argv[2]) : 0;  // 128: only the 128 B nodes
  if (only != 128) run_set<512>((size_t)2 << 30, "dram_2GB", iters);
  run_set<128>((size_t)2 << 30, "dram_2GB", iters);
  if (only != 128) run_set<512>((size_t)20 << 20, "l2_20MB", iters);
  run_set<128>((size_t)20 << 20, "l2_20MB", iters);
  return 0;
}
