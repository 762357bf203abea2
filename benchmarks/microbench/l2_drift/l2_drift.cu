// How far do co-resident CTAs of the calibration gemms drift apart, and how much L2 read merging
// is left when they do? (simgpu issue 3; see README.md next to this file.)
//
//   ./l2_drift all WORKDIR       every launch of the plan below, in order; RESULT {json} per launch;
//                                timelines go to WORKDIR/tl_<idx>.bin (u64 pairs: globaltimer, clock64)
//   ./l2_drift all WORKDIR flush  the same, with the L2 flushed (256 MB memset) before each launch
//                                (for runs outside ncu, which flushes by itself)
//
// Kernels: the calibration gemm_naive / gemm_tiled (256x256x256 floats, 16x16 CTAs of 16x16 threads),
// unchanged in their arithmetic and loads, plus
//   * thread 0 of each CTA stores %smid at the end (one store per CTA);
//   * gsplit: CTAs with linear id >= gsplit read private copies of A and B (so CTAs of the second
//     dispatch round share nothing with the first);
//   * dynamic shared memory (unused) to force 1 CTA per SM;
//   * _t variants: lane 0 of every warp records (%globaltimer, clock64) at kernel start, at the top of
//     every 16th k iteration (naive) / every k tile (tiled) -- 16 points -- and at the end: 18 points.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("RESULT {\"error\": \"%s at %s:%d\"}\n", cudaGetErrorString(e_), __FILE__, __LINE__); fflush(stdout); exit(1);} } while (0)

__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned long long gtimer() { unsigned long long r; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r)); return r; }

#define NPT 18
__device__ __forceinline__ void stamp(unsigned long long* tl, int j) {
    // tl already points at this warp's record
    unsigned long long c = clock64();
    unsigned long long g = gtimer();
    tl[2 * j] = g; tl[2 * j + 1] = c;
}

template <bool TL>
__device__ __forceinline__ void naive_body(const float* A, const float* B, float* C, int M, int N, int K,
                                           int gsplit, long long aoff, long long boff, int* rec, unsigned long long* tl) {
    int bid = blockIdx.x + gridDim.x * blockIdx.y;
    int t = threadIdx.x + blockDim.x * threadIdx.y;
    bool rec_t = TL && (t & 31) == 0;
    unsigned long long* w = tl + ((size_t)bid * (blockDim.x * blockDim.y / 32) + (t >> 5)) * NPT * 2;
    if (rec_t) stamp(w, 0);
    if (bid >= gsplit) { A += aoff; B += boff; }
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) {
            if (TL) { if (rec_t && (k & 15) == 0) stamp(w, 1 + (k >> 4)); }
            acc += A[row * K + k] * B[k * N + col];
        }
        C[row * N + col] = acc;
    }
    if (rec_t) stamp(w, NPT - 1);
    if (t == 0) rec[bid] = smid();
}

#define T 16
template <bool TL>
__device__ __forceinline__ void tiled_body(const float* A, const float* B, float* C, int M, int N, int K,
                                           int gsplit, long long aoff, long long boff, int* rec, unsigned long long* tl) {
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int bid = blockIdx.x + gridDim.x * blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int t = tx + blockDim.x * ty;
    bool rec_t = TL && (t & 31) == 0;
    unsigned long long* w = tl + ((size_t)bid * (blockDim.x * blockDim.y / 32) + (t >> 5)) * NPT * 2;
    if (rec_t) stamp(w, 0);
    if (bid >= gsplit) { A += aoff; B += boff; }
    int row = blockIdx.y * T + ty;
    int col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int tt = 0; tt < (K + T - 1) / T; ++tt) {
        if (TL) { if (rec_t && tt < 16) stamp(w, 1 + tt); }
        int ak = tt * T + tx;
        int bk = tt * T + ty;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
    if (rec_t) stamp(w, NPT - 1);
    if (t == 0) rec[bid] = smid();
}

#define ARGS const float* A, const float* B, float* C, int M, int N, int K, int gsplit, long long aoff, long long boff, int* rec, unsigned long long* tl
#define PASS A, B, C, M, N, K, gsplit, aoff, boff, rec, tl
extern "C" __global__ void gemm_naive_s(ARGS) { naive_body<false>(PASS); }
extern "C" __global__ void gemm_naive_t(ARGS) { naive_body<true>(PASS); }
extern "C" __global__ void gemm_tiled_s(ARGS) { tiled_body<false>(PASS); }
extern "C" __global__ void gemm_tiled_t(ARGS) { tiled_body<true>(PASS); }

struct Launch { const char* name; int tiled, tl, gy, dyn, gsplit, reps; };

static void print_ints(const char* key, const std::vector<int>& v) {
    printf("\"%s\": [", key);
    for (size_t i = 0; i < v.size(); ++i) printf("%s%d", i ? "," : "", v[i]);
    printf("]");
}

int main(int argc, char** argv) {
    if (argc < 3) { printf("usage: %s all WORKDIR [flush]\n", argv[0]); return 2; }
    std::string wd = argv[2];
    bool flush = argc > 3 && std::string(argv[3]) == "flush";
    CK(cudaFree(0));
    const int DYN1 = 120 * 1024;  // > half of 228 KB: one CTA per SM
    void* fns[4] = {(void*)gemm_naive_s, (void*)gemm_naive_t, (void*)gemm_tiled_s, (void*)gemm_tiled_t};
    for (auto f : fns) CK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, DYN1));
    const int NOSPLIT = 1 << 30;
    Launch plan[] = {
        {"naive_calib", 0, 0, 16, 0, NOSPLIT, 4},
        {"tiled_calib", 1, 0, 16, 0, NOSPLIT, 4},
        {"naive_gensplit", 0, 0, 16, 0, 132, 2},
        {"tiled_gensplit", 1, 0, 16, 0, 132, 2},
        {"naive_1persm", 0, 0, 16, DYN1, NOSPLIT, 2},
        {"tiled_1persm", 1, 0, 16, DYN1, NOSPLIT, 2},
        {"naive_gy8", 0, 0, 8, 0, NOSPLIT, 2},
        {"tiled_gy8", 1, 0, 8, 0, NOSPLIT, 2},
        {"naive_gy32", 0, 0, 32, 0, NOSPLIT, 2},
        {"tiled_gy32", 1, 0, 32, 0, NOSPLIT, 2},
        {"naive_calib_t", 0, 1, 16, 0, NOSPLIT, 2},
        {"tiled_calib_t", 1, 1, 16, 0, NOSPLIT, 2},
        {"naive_1persm_t", 0, 1, 16, DYN1, NOSPLIT, 1},
        {"tiled_1persm_t", 1, 1, 16, DYN1, NOSPLIT, 1},
        {"naive_gy32_t", 0, 1, 32, 0, NOSPLIT, 1},
        {"tiled_gy32_t", 1, 1, 32, 0, NOSPLIT, 1},
        {"naive_gy8_t", 0, 1, 8, 0, NOSPLIT, 1},
        {"tiled_gy8_t", 1, 1, 8, 0, NOSPLIT, 1},
        {"naive_gensplit_t", 0, 1, 16, 0, 132, 1},
        {"tiled_gensplit_t", 1, 1, 16, 0, 132, 1},
    };
    const int N = 256, K = 256, MMAX = 512;
    size_t asz = (size_t)MMAX * K, bsz = (size_t)K * N;
    std::vector<float> hA(2 * asz), hB(2 * bsz);
    for (size_t i = 0; i < hA.size(); ++i) hA[i] = (float)((i * 37) % 101) / 101.f;
    for (size_t i = 0; i < hB.size(); ++i) hB[i] = (float)((i * 53) % 97) / 97.f;
    float *A, *B, *C; int* rec; unsigned long long* tl; char* scratch;
    CK(cudaMalloc(&A, hA.size() * 4)); CK(cudaMalloc(&B, hB.size() * 4)); CK(cudaMalloc(&C, (size_t)MMAX * N * 4));
    CK(cudaMalloc(&rec, 1024 * 4));
    size_t tln = (size_t)1024 * 8 * NPT * 2;
    CK(cudaMalloc(&tl, tln * 8));
    const size_t SCR = (size_t)256 << 20;
    CK(cudaMalloc(&scratch, SCR));
    CK(cudaMemcpy(A, hA.data(), hA.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, hB.data(), hB.size() * 4, cudaMemcpyHostToDevice));
    int idx = 0;
    for (auto& L : plan) {
        for (int r = 0; r < L.reps; ++r) {
            int M = 16 * L.gy;
            dim3 grid(16, L.gy), block(16, 16);
            int ncta = 16 * L.gy;
            long long aoff = (long long)M * K, boff = (long long)K * N;
            CK(cudaMemset(rec, 0xff, 1024 * 4));
            CK(cudaMemset(tl, 0, tln * 8));
            if (flush) CK(cudaMemset(scratch, r & 0xff, SCR));
            CK(cudaDeviceSynchronize());
            void* f = fns[2 * L.tiled + L.tl];
            void* args[] = {&A, &B, &C, (void*)&M, (void*)&N, (void*)&K, (void*)&L.gsplit, &aoff, &boff, &rec, &tl};
            CK(cudaLaunchKernel(f, grid, block, args, L.dyn, 0));
            CK(cudaDeviceSynchronize());
            std::vector<int> hs(ncta);
            CK(cudaMemcpy(hs.data(), rec, ncta * 4, cudaMemcpyDeviceToHost));
            // check the result of row 0 col 0 against the host (correctness of the variant)
            float c00; CK(cudaMemcpy(&c00, C, 4, cudaMemcpyDeviceToHost));
            double ref = 0; for (int k = 0; k < K; ++k) ref += (double)hA[k] * hB[(size_t)k * N];
            std::string tf = "";
            if (L.tl) {
                size_t n = (size_t)ncta * 8 * NPT * 2;
                std::vector<unsigned long long> h(n);
                CK(cudaMemcpy(h.data(), tl, n * 8, cudaMemcpyDeviceToHost));
                tf = wd + "/tl_" + std::to_string(idx) + ".bin";
                FILE* fo = fopen(tf.c_str(), "wb");
                if (fo) { fwrite(h.data(), 8, n, fo); fclose(fo); }
            }
            printf("RESULT {\"idx\": %d, \"name\": \"%s\", \"tiled\": %d, \"tl\": %d, \"grid\": [16,%d], \"dyn\": %d, "
                   "\"gsplit\": %d, \"rep\": %d, \"flush\": %d, \"c00\": %.6f, \"c00_ref\": %.6f, \"tl_file\": \"%s\", ",
                   idx, L.name, L.tiled, L.tl, L.gy, L.dyn, L.gsplit, r, flush ? 1 : 0, c00, ref, tf.c_str());
            print_ints("smid", hs); printf("}\n"); fflush(stdout);
            idx++;
        }
    }
    return 0;
}
