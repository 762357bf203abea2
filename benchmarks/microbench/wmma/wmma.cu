// How ptxas lowers nvcuda::wmma on sm_90, and what the H200's counters say about it.
//
//   ./wmma layouts   fragment layouts: each probe loads a matrix whose element at memory offset o
//                    holds o, and prints every lane's fragment elements x[0..n) (the offsets they
//                    came from). Not profiled.
//   ./wmma check     one m16n16k16 f16 GEMM tile (f32 and f16 accumulate) against a host reference
//   ./wmma latency   clock64 around chains of dependent wmma.mma, 1..8 warps per sub-partition
//   ./wmma counters  the counter kernels below, each launched <<<1, 32>>> and <<<132, 128>>>
//                    (run.sh profiles this under ncu)
//
// Counter kernels (m16n16k16, one 16x16 tile per warp, each warp its own tile: the grid's warps
// read disjoint memory). A fragment is consumed by summing its elements; the sum is stored only
// if it equals a value it never takes (a branch that no warp takes), so no other global memory
// instruction runs. Shared kernels fill their tile with plain 16-bit STS first (counted as
// shared stores) and the store kernels read one element back per lane (one LDS per warp).
//   ld{a,b}_{row,col}_{g,s}{16,24}   wmma.load A / B, f16, from global / shared, ldm 16 or 24 halves
//   ldc_{f32,f16}_{row,col}_g16       wmma.load C from global, ldm 16
//   st_{f32,f16}_{row,col}_{g,s}16    wmma.store D (from fill_fragment) to global / shared, ldm 16
//   mma_{f32,f16}                     load A (row) and B (col) from global, one mma, store D (row)
//   mma_chain_{f32,f16}               64 dependent mma on fragments loaded once (time only)
// The kernels compile under NVRTC too (compare.py runs them on simgpu): the host part is left out there.
#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#endif
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

#ifndef __CUDACC_RTC__
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#endif

__device__ __forceinline__ int warp_global() { return blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; }

template <class F> __device__ __forceinline__ float frag_sum(const F &f) {
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < f.num_elements; ++i) s += float(f.x[i]);
    return s;
}

// ---------------------------------------------------------------- loads of A / B from global
#define LD_AB_GLOBAL(NAME, USE, LAYOUT, LDM)                                                          \
extern "C" __global__ void NAME(const half *src, float *out) {                                       \
    wmma::fragment<wmma::USE, 16, 16, 16, half, wmma::LAYOUT> f;                                     \
    wmma::load_matrix_sync(f, src + (size_t)warp_global() * 16 * (LDM), LDM);                        \
    float s = frag_sum(f);                                                                           \
    if (s == -12345.f) out[threadIdx.x] = s;                                                         \
}
LD_AB_GLOBAL(lda_row_g16, matrix_a, row_major, 16)
LD_AB_GLOBAL(lda_row_g24, matrix_a, row_major, 24)
LD_AB_GLOBAL(lda_col_g16, matrix_a, col_major, 16)
LD_AB_GLOBAL(lda_col_g24, matrix_a, col_major, 24)
LD_AB_GLOBAL(ldb_row_g16, matrix_b, row_major, 16)
LD_AB_GLOBAL(ldb_row_g24, matrix_b, row_major, 24)
LD_AB_GLOBAL(ldb_col_g16, matrix_b, col_major, 16)
LD_AB_GLOBAL(ldb_col_g24, matrix_b, col_major, 24)

// ---------------------------------------------------------------- loads of A / B from shared
#define LD_AB_SHARED(NAME, USE, LAYOUT, LDM)                                                          \
extern "C" __global__ void NAME(const half *src, float *out) {                                       \
    __shared__ __align__(128) half tile[4][16 * (LDM)];                                              \
    half *t = tile[threadIdx.x / 32];                                                                \
    for (int i = threadIdx.x % 32; i < 16 * (LDM); i += 32) t[i] = __float2half((float)(i & 7));     \
    __syncwarp();                                                                                    \
    wmma::fragment<wmma::USE, 16, 16, 16, half, wmma::LAYOUT> f;                                     \
    wmma::load_matrix_sync(f, t, LDM);                                                               \
    float s = frag_sum(f);                                                                           \
    if (s == -12345.f) out[threadIdx.x] = s;                                                         \
}
LD_AB_SHARED(lda_row_s16, matrix_a, row_major, 16)
LD_AB_SHARED(lda_row_s24, matrix_a, row_major, 24)
LD_AB_SHARED(lda_col_s16, matrix_a, col_major, 16)
LD_AB_SHARED(lda_col_s24, matrix_a, col_major, 24)
LD_AB_SHARED(ldb_row_s16, matrix_b, row_major, 16)
LD_AB_SHARED(ldb_row_s24, matrix_b, row_major, 24)
LD_AB_SHARED(ldb_col_s16, matrix_b, col_major, 16)
LD_AB_SHARED(ldb_col_s24, matrix_b, col_major, 24)

// ---------------------------------------------------------------- loads of C from global
#define LD_C_GLOBAL(NAME, T, LAYOUT)                                                                  \
extern "C" __global__ void NAME(const T *src, float *out) {                                          \
    wmma::fragment<wmma::accumulator, 16, 16, 16, T> f;                                              \
    wmma::load_matrix_sync(f, src + (size_t)warp_global() * 256, 16, wmma::LAYOUT);                  \
    float s = frag_sum(f);                                                                           \
    if (s == -12345.f) out[threadIdx.x] = s;                                                         \
}
LD_C_GLOBAL(ldc_f32_row_g16, float, mem_row_major)
LD_C_GLOBAL(ldc_f32_col_g16, float, mem_col_major)
LD_C_GLOBAL(ldc_f16_row_g16, half, mem_row_major)
LD_C_GLOBAL(ldc_f16_col_g16, half, mem_col_major)

// ---------------------------------------------------------------- stores of D
#define ST_D_GLOBAL(NAME, T, LAYOUT)                                                                  \
extern "C" __global__ void NAME(T *dst, float v) {                                                   \
    wmma::fragment<wmma::accumulator, 16, 16, 16, T> f;                                              \
    wmma::fill_fragment(f, (T)v);                                                                    \
    wmma::store_matrix_sync(dst + (size_t)warp_global() * 256, f, 16, wmma::LAYOUT);                 \
}
ST_D_GLOBAL(st_f32_row_g16, float, mem_row_major)
ST_D_GLOBAL(st_f32_col_g16, float, mem_col_major)
ST_D_GLOBAL(st_f16_row_g16, half, mem_row_major)
ST_D_GLOBAL(st_f16_col_g16, half, mem_col_major)

#define ST_D_SHARED(NAME, T, LAYOUT)                                                                  \
extern "C" __global__ void NAME(T *dst, float v) {                                                   \
    __shared__ __align__(128) T tile[4][256];                                                        \
    wmma::fragment<wmma::accumulator, 16, 16, 16, T> f;                                              \
    wmma::fill_fragment(f, (T)v);                                                                    \
    T *t = tile[threadIdx.x / 32];                                                                   \
    wmma::store_matrix_sync(t, f, 16, wmma::LAYOUT);                                                 \
    __syncwarp();                                                                                    \
    if ((float)t[threadIdx.x % 32] == -12345.f) dst[threadIdx.x] = t[0];                            \
}
ST_D_SHARED(st_f32_row_s16, float, mem_row_major)
ST_D_SHARED(st_f32_col_s16, float, mem_col_major)
ST_D_SHARED(st_f16_row_s16, half, mem_row_major)
ST_D_SHARED(st_f16_col_s16, half, mem_col_major)

// ---------------------------------------------------------------- mma
#define MMA(NAME, T)                                                                                  \
extern "C" __global__ void NAME(const half *a, const half *b, T *d) {                                \
    size_t w = warp_global();                                                                        \
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;                            \
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;                            \
    wmma::fragment<wmma::accumulator, 16, 16, 16, T> fc;                                             \
    wmma::fill_fragment(fc, (T)0.f);                                                                 \
    wmma::load_matrix_sync(fa, a + w * 256, 16);                                                     \
    wmma::load_matrix_sync(fb, b + w * 256, 16);                                                     \
    wmma::mma_sync(fc, fa, fb, fc);                                                                  \
    wmma::store_matrix_sync(d + w * 256, fc, 16, wmma::mem_row_major);                               \
}
MMA(mma_f32, float)
MMA(mma_f16, half)

#define MMA_CHAIN(NAME, T)                                                                            \
extern "C" __global__ void NAME(const half *a, const half *b, T *d, int n) {                         \
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;                            \
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;                            \
    wmma::fragment<wmma::accumulator, 16, 16, 16, T> fc;                                             \
    wmma::fill_fragment(fc, (T)0.f);                                                                 \
    wmma::load_matrix_sync(fa, a, 16);                                                               \
    wmma::load_matrix_sync(fb, b, 16);                                                               \
    for (int i = 0; i < n; ++i) wmma::mma_sync(fc, fa, fb, fc);                                      \
    if ((float)fc.x[0] == -12345.f) wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);         \
}
MMA_CHAIN(mma_chain_f32, float)
MMA_CHAIN(mma_chain_f16, half)

// clock64 around n dependent wmma.mma (one warp's chain; every warp of the grid runs one)
template <class T>
__global__ void mma_clock(const half *a, const half *b, T *d, long long *cycles, int n) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, T> fc;
    wmma::fill_fragment(fc, (T)0.f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    __syncwarp();
    long long t0 = clock64();
    for (int i = 0; i < n; ++i) wmma::mma_sync(fc, fa, fb, fc);
    __syncwarp();
    if ((float)fc.x[0] == -12345.f) wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
    long long t1 = clock64();
    if (threadIdx.x % 32 == 0) cycles[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = t1 - t0;
}

// ---------------------------------------------------------------- layout probes
template <class Use, int M, int N, int K, class T, class L, class S>
__global__ void probe_ab(const S *src, float *out, int ldm) {
    wmma::fragment<Use, M, N, K, T, L> f;
    wmma::load_matrix_sync(f, src, ldm);
    for (int i = 0; i < f.num_elements; ++i) out[threadIdx.x * f.num_elements + i] = float(f.x[i]);
}
template <int M, int N, int K, class T>
__global__ void probe_c(const T *src, float *out, int ldm, int col) {
    wmma::fragment<wmma::accumulator, M, N, K, T> f;
    wmma::load_matrix_sync(f, src, ldm, col ? wmma::mem_col_major : wmma::mem_row_major);
    for (int i = 0; i < f.num_elements; ++i) out[threadIdx.x * f.num_elements + i] = float(f.x[i]);
}
#ifndef __CUDACC_RTC__
template <class Use, int M, int N, int K, class T, class L> constexpr int nelem() {
    return wmma::fragment<Use, M, N, K, T, L>::num_elements;
}

static float *g_out;
static void *g_src;

template <class S> static void fill_src(int n) {
    std::vector<S> h(n);
    for (int i = 0; i < n; ++i) h[i] = (S)(float)i;
    CHECK(cudaMemcpy(g_src, h.data(), n * sizeof(S), cudaMemcpyHostToDevice));
}
template <> void fill_src<unsigned char>(int n) {
    std::vector<unsigned char> h(n);
    for (int i = 0; i < n; ++i) h[i] = (unsigned char)i;
    CHECK(cudaMemcpy(g_src, h.data(), n, cudaMemcpyHostToDevice));
}

static void print_probe(const char *name, int rows, int cols, int ldm, int n) {
    std::vector<float> h(32 * n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h.data(), g_out, 32 * n * sizeof(float), cudaMemcpyDeviceToHost));
    printf("probe %s rows %d cols %d ldm %d elements %d\n", name, rows, cols, ldm, n);
    for (int l = 0; l < 32; ++l) {
        printf("lane %2d:", l);
        for (int i = 0; i < n; ++i) printf(" %d", (int)h[l * n + i]);
        printf("\n");
    }
}

// rows x cols is the logical matrix (A: MxK, B: KxN); ldm = the leading dimension of the layout
#define PROBE_AB(NAME, USE, M, N, K, T, L, S, ROWS, COLS)                                             \
    do {                                                                                             \
        int ldm_ = std::is_same<wmma::L, wmma::row_major>::value ? COLS : ROWS;                      \
        fill_src<S>(ROWS * COLS);                                                                    \
        probe_ab<wmma::USE, M, N, K, T, wmma::L, S><<<1, 32>>>((const S *)g_src, g_out, ldm_);      \
        print_probe(NAME, ROWS, COLS, ldm_, nelem<wmma::USE, M, N, K, T, wmma::L>());                \
    } while (0)
#define PROBE_C(NAME, M, N, K, T, COL)                                                                \
    do {                                                                                             \
        int ldm_ = COL ? M : N;                                                                      \
        fill_src<T>(M * N);                                                                          \
        probe_c<M, N, K, T><<<1, 32>>>((const T *)g_src, g_out, ldm_, COL);                         \
        print_probe(NAME, M, N, ldm_, wmma::fragment<wmma::accumulator, M, N, K, T>::num_elements); \
    } while (0)

static void layouts() {
    using wmma::precision::tf32;
    PROBE_AB("a.row.m16n16k16.f16", matrix_a, 16, 16, 16, half, row_major, half, 16, 16);
    PROBE_AB("a.col.m16n16k16.f16", matrix_a, 16, 16, 16, half, col_major, half, 16, 16);
    PROBE_AB("b.row.m16n16k16.f16", matrix_b, 16, 16, 16, half, row_major, half, 16, 16);
    PROBE_AB("b.col.m16n16k16.f16", matrix_b, 16, 16, 16, half, col_major, half, 16, 16);
    PROBE_C("c.row.m16n16k16.f32", 16, 16, 16, float, 0);
    PROBE_C("c.col.m16n16k16.f32", 16, 16, 16, float, 1);
    PROBE_C("c.row.m16n16k16.f16", 16, 16, 16, half, 0);
    PROBE_C("c.col.m16n16k16.f16", 16, 16, 16, half, 1);
    PROBE_AB("a.row.m32n8k16.f16", matrix_a, 32, 8, 16, half, row_major, half, 32, 16);
    PROBE_AB("a.col.m32n8k16.f16", matrix_a, 32, 8, 16, half, col_major, half, 32, 16);
    PROBE_AB("b.row.m32n8k16.f16", matrix_b, 32, 8, 16, half, row_major, half, 16, 8);
    PROBE_AB("b.col.m32n8k16.f16", matrix_b, 32, 8, 16, half, col_major, half, 16, 8);
    PROBE_C("c.row.m32n8k16.f32", 32, 8, 16, float, 0);
    PROBE_C("c.col.m32n8k16.f32", 32, 8, 16, float, 1);
    PROBE_C("c.row.m32n8k16.f16", 32, 8, 16, half, 0);
    PROBE_AB("a.row.m8n32k16.f16", matrix_a, 8, 32, 16, half, row_major, half, 8, 16);
    PROBE_AB("a.col.m8n32k16.f16", matrix_a, 8, 32, 16, half, col_major, half, 8, 16);
    PROBE_AB("b.row.m8n32k16.f16", matrix_b, 8, 32, 16, half, row_major, half, 16, 32);
    PROBE_AB("b.col.m8n32k16.f16", matrix_b, 8, 32, 16, half, col_major, half, 16, 32);
    PROBE_C("c.row.m8n32k16.f32", 8, 32, 16, float, 0);
    PROBE_C("c.col.m8n32k16.f32", 8, 32, 16, float, 1);
    PROBE_AB("a.row.m16n16k16.bf16", matrix_a, 16, 16, 16, __nv_bfloat16, row_major, __nv_bfloat16, 16, 16);
    PROBE_AB("a.col.m16n16k16.bf16", matrix_a, 16, 16, 16, __nv_bfloat16, col_major, __nv_bfloat16, 16, 16);
    PROBE_AB("b.row.m16n16k16.bf16", matrix_b, 16, 16, 16, __nv_bfloat16, row_major, __nv_bfloat16, 16, 16);
    PROBE_AB("b.col.m16n16k16.bf16", matrix_b, 16, 16, 16, __nv_bfloat16, col_major, __nv_bfloat16, 16, 16);
    PROBE_AB("a.row.m32n8k16.bf16", matrix_a, 32, 8, 16, __nv_bfloat16, row_major, __nv_bfloat16, 32, 16);
    PROBE_AB("b.row.m32n8k16.bf16", matrix_b, 32, 8, 16, __nv_bfloat16, row_major, __nv_bfloat16, 16, 8);
    PROBE_AB("a.row.m16n16k8.tf32", matrix_a, 16, 16, 8, tf32, row_major, float, 16, 8);
    PROBE_AB("a.col.m16n16k8.tf32", matrix_a, 16, 16, 8, tf32, col_major, float, 16, 8);
    PROBE_AB("b.row.m16n16k8.tf32", matrix_b, 16, 16, 8, tf32, row_major, float, 8, 16);
    PROBE_AB("b.col.m16n16k8.tf32", matrix_b, 16, 16, 8, tf32, col_major, float, 8, 16);
    PROBE_C("c.row.m16n16k8.f32", 16, 16, 8, float, 0);
    PROBE_AB("a.row.m16n16k16.u8", matrix_a, 16, 16, 16, unsigned char, row_major, unsigned char, 16, 16);
    PROBE_AB("a.col.m16n16k16.u8", matrix_a, 16, 16, 16, unsigned char, col_major, unsigned char, 16, 16);
    PROBE_AB("b.row.m16n16k16.u8", matrix_b, 16, 16, 16, unsigned char, row_major, unsigned char, 16, 16);
    PROBE_AB("b.col.m16n16k16.u8", matrix_b, 16, 16, 16, unsigned char, col_major, unsigned char, 16, 16);
    PROBE_C("c.row.m16n16k16.s32", 16, 16, 16, int, 0);
}

// ---------------------------------------------------------------- numerics
static void check() {
    const int n = 256;
    std::vector<half> ha(n), hb(n);
    std::vector<float> fa(n), fb(n);
    srand(1);
    for (int i = 0; i < n; ++i) {
        fa[i] = (float)(rand() % 2001 - 1000) / 256.f; ha[i] = __float2half(fa[i]); fa[i] = __half2float(ha[i]);
        fb[i] = (float)(rand() % 2001 - 1000) / 256.f; hb[i] = __float2half(fb[i]); fb[i] = __half2float(hb[i]);
    }
    half *da, *db; float *d32; half *d16;
    CHECK(cudaMalloc(&da, n * 2)); CHECK(cudaMalloc(&db, n * 2));
    CHECK(cudaMalloc(&d32, n * 4)); CHECK(cudaMalloc(&d16, n * 2));
    CHECK(cudaMemcpy(da, ha.data(), n * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb.data(), n * 2, cudaMemcpyHostToDevice));
    mma_f32<<<1, 32>>>(da, db, d32);
    mma_f16<<<1, 32>>>(da, db, d16);
    std::vector<float> r32(n); std::vector<half> r16(n);
    CHECK(cudaMemcpy(r32.data(), d32, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(r16.data(), d16, n * 2, cudaMemcpyDeviceToHost));
    double e32 = 0, e16 = 0; int exact16 = 0;
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            double s = 0;  // A row-major, B col-major: B(k, j) at b[j * 16 + k]
            for (int k = 0; k < 16; ++k) s += (double)fa[i * 16 + k] * fb[j * 16 + k];
            e32 = fmax(e32, fabs(r32[i * 16 + j] - s));
            e16 = fmax(e16, fabs(__half2float(r16[i * 16 + j]) - s));
            exact16 += __half2float(r16[i * 16 + j]) == __half2float(__float2half((float)s));
        }
    printf("check mma_f32 max |err| %.3g; mma_f16 max |err| %.3g, %d/256 equal to round-to-nearest of the exact sum\n",
           e32, e16, exact16);
}

// ---------------------------------------------------------------- counters
static void counters() {
    const size_t big = 132 * 4 * 16 * 24 * 4;  // enough for every grid's tiles, f32 included
    half *src, *a, *b; float *out; void *dst;
    CHECK(cudaMalloc(&src, big)); CHECK(cudaMemset(src, 0, big));
    CHECK(cudaMalloc(&a, big)); CHECK(cudaMemset(a, 0, big));
    CHECK(cudaMalloc(&b, big)); CHECK(cudaMemset(b, 0, big));
    CHECK(cudaMalloc(&out, 4096)); CHECK(cudaMalloc(&dst, big));
    typedef void (*LdK)(const half *, float *);
    struct { const char *name; LdK k; } lds[] = {
        {"lda_row_g16", lda_row_g16}, {"lda_row_g24", lda_row_g24}, {"lda_col_g16", lda_col_g16},
        {"lda_col_g24", lda_col_g24}, {"ldb_row_g16", ldb_row_g16}, {"ldb_row_g24", ldb_row_g24},
        {"ldb_col_g16", ldb_col_g16}, {"ldb_col_g24", ldb_col_g24},
        {"lda_row_s16", lda_row_s16}, {"lda_row_s24", lda_row_s24}, {"lda_col_s16", lda_col_s16},
        {"lda_col_s24", lda_col_s24}, {"ldb_row_s16", ldb_row_s16}, {"ldb_row_s24", ldb_row_s24},
        {"ldb_col_s16", ldb_col_s16}, {"ldb_col_s24", ldb_col_s24},
    };
    const int grids[2] = {1, 132}, blocks[2] = {32, 128};
    for (int g = 0; g < 2; ++g) {
        for (auto &x : lds) { x.k<<<grids[g], blocks[g]>>>(src, out); printf("%s <<<%d,%d>>>\n", x.name, grids[g], blocks[g]); }
        ldc_f32_row_g16<<<grids[g], blocks[g]>>>((const float *)src, out);
        ldc_f32_col_g16<<<grids[g], blocks[g]>>>((const float *)src, out);
        ldc_f16_row_g16<<<grids[g], blocks[g]>>>(src, out);
        ldc_f16_col_g16<<<grids[g], blocks[g]>>>(src, out);
        st_f32_row_g16<<<grids[g], blocks[g]>>>((float *)dst, 1.f);
        st_f32_col_g16<<<grids[g], blocks[g]>>>((float *)dst, 1.f);
        st_f16_row_g16<<<grids[g], blocks[g]>>>((half *)dst, 1.f);
        st_f16_col_g16<<<grids[g], blocks[g]>>>((half *)dst, 1.f);
        st_f32_row_s16<<<grids[g], blocks[g]>>>((float *)dst, 1.f);
        st_f32_col_s16<<<grids[g], blocks[g]>>>((float *)dst, 1.f);
        st_f16_row_s16<<<grids[g], blocks[g]>>>((half *)dst, 1.f);
        st_f16_col_s16<<<grids[g], blocks[g]>>>((half *)dst, 1.f);
        mma_f32<<<grids[g], blocks[g]>>>(a, b, (float *)dst);
        mma_f16<<<grids[g], blocks[g]>>>(a, b, (half *)dst);
        mma_chain_f32<<<grids[g], blocks[g]>>>(a, b, (float *)dst, 64);
        mma_chain_f16<<<grids[g], blocks[g]>>>(a, b, (half *)dst, 64);
        printf("ldc/st/mma <<<%d,%d>>>\n", grids[g], blocks[g]);
    }
    CHECK(cudaDeviceSynchronize());
}

// cycles per dependent wmma.mma m16n16k16 (n = 4096 minus n = 64, per warp), with 1..8 warps per SM
// sub-partition (132 CTAs of 4 * w warps): latency at 1, the tensor pipe's rate where it levels off
template <class T> static void latency_one(const char *name) {
    half *a, *b; T *d; long long *cyc;
    CHECK(cudaMalloc(&a, 512)); CHECK(cudaMemset(a, 0, 512));
    CHECK(cudaMalloc(&b, 512)); CHECK(cudaMemset(b, 0, 512));
    CHECK(cudaMalloc(&d, 1024)); CHECK(cudaMalloc(&cyc, 132 * 64 * sizeof(long long)));
    for (int w : {1, 2, 4, 8}) {
        double per[2];
        int ns[2] = {64, 4096};
        for (int j = 0; j < 2; ++j) {
            mma_clock<T><<<132, 128 * w>>>(a, b, d, cyc, ns[j]);
            std::vector<long long> h(132 * 4 * w);
            CHECK(cudaMemcpy(h.data(), cyc, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
            double s = 0;
            for (long long x : h) s += (double)x;
            per[j] = s / h.size();
        }
        printf("latency %s warps_per_smsp %d cycles_per_mma %.2f\n", name, w, (per[1] - per[0]) / (4096 - 64));
    }
}

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "counters";
    CHECK(cudaMalloc(&g_out, 32 * 64 * sizeof(float)));
    CHECK(cudaMalloc(&g_src, 4096 * 4));
    if (!strcmp(what, "layouts")) layouts();
    else if (!strcmp(what, "check")) check();
    else if (!strcmp(what, "latency")) { latency_one<float>("f32"); latency_one<half>("f16"); }
    else counters();
    CHECK(cudaDeviceSynchronize());
    return 0;
}
#endif  // __CUDACC_RTC__
