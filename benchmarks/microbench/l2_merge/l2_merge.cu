// Microbenchmarks: do L1 misses of different SMs to the same sector reach L2 once or once per SM?
// And which SM does each CTA of a launch run on?
//
//   ./l2_merge topo                 cluster launches (sizes 2, 4, 8, 16) record %smid per CTA -> TPC / GPC groups
//   ./l2_merge dispatch             %smid per CTA for the calibration launch shapes (and instrumented gemms)
//   ./l2_merge share FILE [warm]    one share_read launch per line of FILE (profile it under ncu)
//   ./l2_merge gemm                 the calibration gemms (instrumented copies that also record %smid)
//
// share_read: exactly one CTA per SM (200 KB of dynamic shared memory each, grid = number of SMs).
// All CTAs meet at a grid barrier (polled with atomics, so no L2 *read* traffic), then CTA on SM s
// optionally spins delay[s] cycles, then reads the 64 KB buffer number group[s] once, coalesced,
// 4-byte loads (256 threads x 64 loads; 2048 sectors, 512 requests per CTA). A group shared by n SMs
// is read by n SMs at (about) the same time. Each result line: RESULT {json}.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("RESULT {\"error\": \"%s at %s:%d\"}\n", cudaGetErrorString(e_), __FILE__, __LINE__); fflush(stdout); exit(1);} } while (0)

__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned long long gtimer() { unsigned long long r; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r)); return r; }

static const int BUF_FLOATS = 16384;  // 64 KB
static const int SMEM_BIG = 200 * 1024;

// ------------------------------------------------------------------------------------------ topo
extern "C" __global__ void topo_k(int* out, int spin_ns) {
    extern __shared__ char sm_[];
    if (threadIdx.x == 0) {
        sm_[0] = 1;
        out[blockIdx.x] = smid();
        unsigned long long t0 = gtimer();
        while (gtimer() - t0 < (unsigned long long)spin_ns) {}
    }
}

// ------------------------------------------------------------------------------------------ dispatch
extern "C" __global__ void rec_k(int* out, unsigned long long* tout, int spin_ns) {
    int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    if (t == 0) {
        unsigned long long t0 = gtimer();
        out[b] = smid();
        tout[b] = t0;
        while (gtimer() - t0 < (unsigned long long)spin_ns) {}
    }
    __syncthreads();
}

// ------------------------------------------------------------------------------------------ share
extern "C" __global__ void share_read(const float* bufs, const int* __restrict__ group,
                                      const int* __restrict__ delay, unsigned* sync, float* out,
                                      int* rec_smid, unsigned long long* rec_t) {
    extern __shared__ char sm_[];
    unsigned s = smid();
    int g = group[s];
    long long d = delay[s];
    if (threadIdx.x == 0) {
        sm_[0] = 0;
        atomicAdd(sync, 1u);
        while (atomicAdd(sync, 0u) < gridDim.x) { __nanosleep(64); }
    }
    __syncthreads();
    unsigned long long t0 = gtimer();
    if (d > 0) { long long c0 = clock64(); while (clock64() - c0 < d) {} }
    __syncthreads();
    unsigned long long t1 = gtimer();
    const float* p = bufs + (size_t)g * BUF_FLOATS;
    float acc = 0.f;
#pragma unroll 16
    for (int i = threadIdx.x; i < BUF_FLOATS; i += blockDim.x) acc += p[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        rec_smid[blockIdx.x] = s;
        rec_t[3 * blockIdx.x] = t0;
        rec_t[3 * blockIdx.x + 1] = t1;
        rec_t[3 * blockIdx.x + 2] = gtimer();
    }
}

// L2 warm-up: read every buffer with ld.global.cg (L2 only, no L1 allocation)
extern "C" __global__ void warm_l2(const float* bufs, int n, float* out) {
    float acc = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) acc += __ldcg(bufs + i);
    if (acc == 12345.f) out[0] = acc;
}

// ------------------------------------------------------------------------------------------ gemm (calibration kernels + %smid record)
extern "C" __global__ void gemm_naive(const float* A, const float* B, float* C, int M, int N, int K, int* rec) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
    if (threadIdx.x == 0 && threadIdx.y == 0) rec[blockIdx.x + gridDim.x * blockIdx.y] = smid();
}

#define T 16
extern "C" __global__ void gemm_tiled(const float* A, const float* B, float* C, int M, int N, int K, int* rec) {
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty;
    int col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + T - 1) / T; ++t) {
        int ak = t * T + tx;
        int bk = t * T + ty;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
    if (tx == 0 && ty == 0) rec[blockIdx.x + gridDim.x * blockIdx.y] = smid();
}

static void print_ints(const char* key, const std::vector<int>& v);
// Variants: CTA (bx, by) reads A + bx * a_off and B + by * b_off (a_off = M*K: every column of CTAs has
// its own copy of A, so A is not shared between CTAs; b_off likewise for B).
extern "C" __global__ void gemm_naive_v(const float* A, const float* B, float* C, int M, int N, int K,
                                        long long a_off, long long b_off, int* rec) {
    A += blockIdx.x * a_off; B += blockIdx.y * b_off;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
    if (threadIdx.x == 0 && threadIdx.y == 0) rec[blockIdx.x + gridDim.x * blockIdx.y] = smid();
}

extern "C" __global__ void gemm_tiled_v(const float* A, const float* B, float* C, int M, int N, int K,
                                        long long a_off, long long b_off, int* rec) {
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    A += blockIdx.x * a_off; B += blockIdx.y * b_off;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty;
    int col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + T - 1) / T; ++t) {
        int ak = t * T + tx;
        int bk = t * T + ty;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
    if (tx == 0 && ty == 0) rec[blockIdx.x + gridDim.x * blockIdx.y] = smid();
}

// name, a_private, b_private, grid y, reps; printed in launch order (ncu rows follow it)
static int run_gemmv() {
    const int g = 256;
    size_t n = (size_t)16 * g * g;
    std::vector<float> h(n);
    for (size_t i = 0; i < n; ++i) h[i] = (float)((i * 37) % 101) / 101.f;
    float *A, *B, *C; int* rec;
    CK(cudaMalloc(&A, n * 4)); CK(cudaMalloc(&B, n * 4)); CK(cudaMalloc(&C, g * g * 4)); CK(cudaMalloc(&rec, 256 * 4));
    CK(cudaMemcpy(A, h.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, h.data(), n * 4, cudaMemcpyHostToDevice));
    struct V { const char* name; int tiled, ap, bp, gy, reps; };
    V vs[] = {{"naive_shared", 0, 0, 0, 16, 3}, {"naive_Bpriv", 0, 0, 1, 16, 3}, {"naive_Apriv", 0, 1, 0, 16, 3},
              {"naive_bothpriv", 0, 1, 1, 16, 1}, {"naive_gy8", 0, 0, 0, 8, 2},
              {"tiled_shared", 1, 0, 0, 16, 2}, {"tiled_Bpriv", 1, 0, 1, 16, 2}, {"tiled_Apriv", 1, 1, 0, 16, 2},
              {"tiled_gy8", 1, 0, 0, 8, 2}};
    int idx = 0;
    for (auto& v : vs)
        for (int r = 0; r < v.reps; ++r) {
            long long ao = v.ap ? (long long)g * g : 0, bo = v.bp ? (long long)g * g : 0;
            CK(cudaMemset(rec, 0xff, 256 * 4));
            dim3 grid(16, v.gy), block(16, 16);
            if (v.tiled) gemm_tiled_v<<<grid, block>>>(A, B, C, g, g, g, ao, bo, rec);
            else gemm_naive_v<<<grid, block>>>(A, B, C, g, g, g, ao, bo, rec);
            CK(cudaDeviceSynchronize());
            std::vector<int> hs(16 * v.gy);
            CK(cudaMemcpy(hs.data(), rec, hs.size() * 4, cudaMemcpyDeviceToHost));
            printf("RESULT {\"exp\": \"gemmv\", \"idx\": %d, \"name\": \"%s\", \"rep\": %d, ", idx++, v.name, r);
            print_ints("smid", hs); printf("}\n"); fflush(stdout);
        }
    return 0;
}

// ------------------------------------------------------------------------------------------ host
static void print_ints(const char* key, const std::vector<int>& v) {
    printf("\"%s\": [", key);
    for (size_t i = 0; i < v.size(); ++i) printf("%s%d", i ? "," : "", v[i]);
    printf("]");
}

static int run_topo() {
    int nsm; CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaFuncSetAttribute(topo_k, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BIG));
    cudaFuncSetAttribute(topo_k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    cudaGetLastError();
    int sizes[] = {2, 4, 8, 16};
    for (int cs : sizes) {
        cudaLaunchConfig_t cfg = {};
        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeClusterDimension;
        attr[0].val.clusterDim.x = cs; attr[0].val.clusterDim.y = 1; attr[0].val.clusterDim.z = 1;
        cfg.blockDim = dim3(32); cfg.dynamicSmemBytes = SMEM_BIG; cfg.attrs = attr; cfg.numAttrs = 1;
        int maxc = -1;
        cfg.gridDim = dim3(cs);
        if (cudaOccupancyMaxActiveClusters(&maxc, topo_k, &cfg) != cudaSuccess) { cudaGetLastError(); maxc = -1; }
        int nclusters = (cs == 2) ? nsm / 2 : 48;  // cs=2: one wave; larger: many waves, placements vary
        int n = nclusters * cs;
        for (int rep = 0; rep < 3; ++rep) {
            int* d; CK(cudaMalloc(&d, n * sizeof(int))); CK(cudaMemset(d, 0xff, n * sizeof(int)));
            cfg.gridDim = dim3(n);
            int spin = (cs == 2) ? 20000 : 2000 + 3000 * rep;
            cudaError_t e = cudaLaunchKernelEx(&cfg, topo_k, d, spin);
            if (e == cudaSuccess) e = cudaDeviceSynchronize();
            std::vector<int> h(n, -1);
            if (e == cudaSuccess) CK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
            printf("RESULT {\"exp\": \"topo\", \"cluster\": %d, \"rep\": %d, \"max_active_clusters\": %d, \"err\": \"%s\", ",
                   cs, rep, maxc, e == cudaSuccess ? "" : cudaGetErrorString(e));
            print_ints("smid", h);
            printf("}\n"); fflush(stdout);
            cudaGetLastError();
            cudaFree(d);
            if (cs == 2 && rep == 1) break;
        }
    }
    return 0;
}

static void rec_launch(const char* name, dim3 grid, dim3 block, int spin_ns, int reps) {
    int n = grid.x * grid.y * grid.z;
    int* d; unsigned long long* dt;
    CK(cudaMalloc(&d, n * sizeof(int))); CK(cudaMalloc(&dt, n * sizeof(unsigned long long)));
    for (int r = 0; r < reps; ++r) {
        CK(cudaMemset(d, 0xff, n * sizeof(int)));
        rec_k<<<grid, block>>>(d, dt, spin_ns);
        CK(cudaDeviceSynchronize());
        std::vector<int> h(n); std::vector<unsigned long long> ht(n);
        CK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(ht.data(), dt, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
        unsigned long long tmin = ~0ull; for (auto t : ht) tmin = t < tmin ? t : tmin;
        std::vector<int> rel(n); for (int i = 0; i < n; ++i) rel[i] = (int)(ht[i] - tmin);
        printf("RESULT {\"exp\": \"dispatch\", \"name\": \"%s\", \"grid\": [%d,%d,%d], \"block\": [%d,%d,%d], \"spin_ns\": %d, \"rep\": %d, ",
               name, grid.x, grid.y, grid.z, block.x, block.y, block.z, spin_ns, r);
        print_ints("smid", h); printf(", "); print_ints("t_start_ns", rel); printf("}\n"); fflush(stdout);
    }
    cudaFree(d); cudaFree(dt);
}

static int run_gemms(int reps, bool print) {
    int g = 256;
    std::vector<float> hA(g * g), hB(g * g);
    for (int i = 0; i < g * g; ++i) { hA[i] = (i * 37 % 101) / 101.f; hB[i] = (i * 53 % 97) / 97.f; }
    float *A, *B, *C; int* rec;
    CK(cudaMalloc(&A, g * g * 4)); CK(cudaMalloc(&B, g * g * 4)); CK(cudaMalloc(&C, g * g * 4)); CK(cudaMalloc(&rec, 256 * 4));
    CK(cudaMemcpy(A, hA.data(), g * g * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, hB.data(), g * g * 4, cudaMemcpyHostToDevice));
    for (int which = 0; which < 2; ++which)
        for (int r = 0; r < reps; ++r) {
            CK(cudaMemset(rec, 0xff, 256 * 4));
            if (which == 0) gemm_naive<<<dim3(16, 16), dim3(16, 16)>>>(A, B, C, g, g, g, rec);
            else gemm_tiled<<<dim3(16, 16), dim3(16, 16)>>>(A, B, C, g, g, g, rec);
            CK(cudaDeviceSynchronize());
            std::vector<int> h(256);
            CK(cudaMemcpy(h.data(), rec, 256 * 4, cudaMemcpyDeviceToHost));
            if (print) {
                printf("RESULT {\"exp\": \"dispatch\", \"name\": \"%s\", \"grid\": [16,16,1], \"block\": [16,16,1], \"rep\": %d, ",
                       which ? "gemm_tiled" : "gemm_naive", r);
                print_ints("smid", h); printf("}\n"); fflush(stdout);
            }
        }
    cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(rec);
    return 0;
}

static int run_dispatch() {
    rec_launch("gemm_shape_16x16_spin", dim3(16, 16), dim3(16, 16), 20000, 3);
    rec_launch("gemm_shape_16x16_nospin", dim3(16, 16), dim3(16, 16), 0, 2);
    rec_launch("1d_132", dim3(132), dim3(256), 20000, 2);
    rec_launch("1d_264", dim3(264), dim3(256), 20000, 2);
    rec_launch("1d_1056", dim3(1056), dim3(256), 20000, 2);
    rec_launch("1d_256", dim3(256), dim3(256), 20000, 2);
    rec_launch("2d_32x32_b32x8", dim3(32, 32), dim3(32, 8), 20000, 1);
    run_gemms(3, true);
    return 0;
}

static int run_share(const char* file, bool warm) {
    int nsm; CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaFuncSetAttribute(share_read, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BIG));
    FILE* f = fopen(file, "r");
    if (!f) { printf("RESULT {\"error\": \"cannot open %s\"}\n", file); return 1; }
    const int NG = 160;  // buffer slots
    float* bufs; CK(cudaMalloc(&bufs, (size_t)NG * BUF_FLOATS * 4));
    std::vector<float> hb((size_t)NG * BUF_FLOATS);
    for (size_t i = 0; i < hb.size(); ++i) hb[i] = (float)(i % 7);
    CK(cudaMemcpy(bufs, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
    int *dg, *dd, *rs; unsigned* sync; float* out; unsigned long long* rt;
    CK(cudaMalloc(&dg, 1024 * 4)); CK(cudaMalloc(&dd, 1024 * 4)); CK(cudaMalloc(&sync, 4));
    CK(cudaMalloc(&out, nsm * 256 * 4)); CK(cudaMalloc(&rs, nsm * 4)); CK(cudaMalloc(&rt, nsm * 3 * 8));
    char line[65536];
    int idx = 0;
    while (fgets(line, sizeof line, f)) {
        // format: name n g0 .. g{n-1} d0 .. d{n-1}   (indexed by %smid, n <= 1024)
        char name[256];
        char* p = line; int off, n = 0;
        if (sscanf(p, "%255s %d%n", name, &n, &off) != 2 || n > 1024) continue;
        p += off;
        std::vector<int> g(1024, 0), d(1024, 0);
        bool ok = true;
        for (int i = 0; i < n && ok; ++i) { if (sscanf(p, "%d%n", &g[i], &off) != 1) ok = false; else p += off; }
        for (int i = 0; i < n && ok; ++i) { if (sscanf(p, "%d%n", &d[i], &off) != 1) ok = false; else p += off; }
        if (!ok) { printf("RESULT {\"error\": \"bad line for %s\"}\n", name); continue; }
        CK(cudaMemcpy(dg, g.data(), 1024 * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dd, d.data(), 1024 * 4, cudaMemcpyHostToDevice));
        CK(cudaMemset(sync, 0, 4));
        if (warm) { warm_l2<<<264, 256>>>(bufs, NG * BUF_FLOATS, out); CK(cudaDeviceSynchronize()); }
        share_read<<<nsm, 256, SMEM_BIG>>>(bufs, dg, dd, sync, out, rs, rt);
        CK(cudaDeviceSynchronize());
        std::vector<int> hs(nsm); std::vector<unsigned long long> ht(nsm * 3);
        CK(cudaMemcpy(hs.data(), rs, nsm * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(ht.data(), rt, nsm * 3 * 8, cudaMemcpyDeviceToHost));
        unsigned long long t0min = ~0ull, t0max = 0, t1min = ~0ull, t1max = 0, t2max = 0;
        for (int i = 0; i < nsm; ++i) {
            t0min = std::min(t0min, ht[3 * i]); t0max = std::max(t0max, ht[3 * i]);
            t1min = std::min(t1min, ht[3 * i + 1]); t1max = std::max(t1max, ht[3 * i + 1]);
            t2max = std::max(t2max, ht[3 * i + 2]);
        }
        std::vector<int> seen(1024, 0); int dup = 0;
        for (int i = 0; i < nsm; ++i) { if (hs[i] >= 0 && hs[i] < 1024) { if (seen[hs[i]]++) dup++; } }
        std::vector<int> dur(nsm);
        for (int i = 0; i < nsm; ++i) dur[i] = (int)(ht[3 * i + 2] - ht[3 * i + 1]);
        printf("RESULT {\"exp\": \"share\", \"idx\": %d, \"name\": \"%s\", \"warm\": %d, \"dup_smids\": %d, "
               "\"barrier_skew_ns\": %llu, \"read_start_skew_ns\": %llu, \"total_ns\": %llu, ",
               idx, name, warm ? 1 : 0, dup, t0max - t0min, t1max - t1min, t2max - t0min);
        print_ints("read_ns", dur); printf("}\n"); fflush(stdout);
        idx++;
    }
    fclose(f);
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 2) { printf("usage: %s topo|dispatch|share FILE [warm]|gemm\n", argv[0]); return 2; }
    std::string m = argv[1];
    CK(cudaFree(0));
    if (m == "topo") return run_topo();
    if (m == "dispatch") return run_dispatch();
    if (m == "share") return run_share(argc > 2 ? argv[2] : "configs.txt", argc > 3 && std::string(argv[3]) == "warm");
    if (m == "gemm") return run_gemms(1, true);
    if (m == "gemmv") return run_gemmv();
    printf("unknown mode %s\n", m.c_str());
    return 2;
}
