// Hand-written tensor-core PTX on sm_90: mma.sync, ldmatrix and stmatrix (inline asm), on the H200.
//
//   ./mma_sync layouts   per-lane fragment probes: each probe kernel takes every lane's A, B, C
//                        registers as raw 32-bit words from memory, runs one mma.sync and prints
//                        every lane's D registers; the host builds the words from the PTX ISA's
//                        fragment formulas (or from tags: lane*slots + slot), so each D value says
//                        which register element the hardware used where (see README). Also
//                        ldmatrix x1 / x4 / x4.trans and stmatrix x4 / x4.trans on a tile whose
//                        element at half offset o holds o.
//   ./mma_sync latency   clock64 around chains of dependent mma.sync (and ldmatrix), 1..8 warps per
//                        sub-partition (132 CTAs of 4*w warps), cycles per instruction
//   ./mma_sync counters  the counter kernels below, each launched <<<1, 32>>> (and a few
//                        <<<132, 128>>>); run_mma.sh profiles this under ncu
//
// Counter kernels (one warp = one tile of its own): ldsm_x{1,2,4}{,t}_r{16,128}: fill the warp's
// shared rows with 16-bit STS, then one ldmatrix, lane L giving row L at a stride of 16 bytes
// (consecutive rows: conflict-free) or 128 bytes (the 8 rows of a matrix on the same 4 banks);
// stsm_x4{,t}_r{16,128}: one stmatrix, then one LDS per lane reads an element back;
// mma_{f16f32,f16f16,tf32,bf16,s8}: one mma.sync on register values (no memory but the result).
// The kernels compile under NVRTC too (no headers): simgpu's tests run the very same probes.
#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#endif

#define MMA_F16F32 "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
#define MMA_F16F16 "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
#define MMA_BF16 "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
#define MMA_F16K8 "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
#define MMA_TF32 "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
#define MMA_S8 "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 "

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// ---------------------------------------------------------------- fragment probes (one warp)
// a: 4 words per lane, b: 2, c: 4 (f32) -> d: 4 f32 per lane
extern "C" __global__ void probe_f16f32(const unsigned *a, const unsigned *b, const float *c, float *d) {
    int l = threadIdx.x;
    float d0, d1, d2, d3;
    asm volatile(MMA_F16F32 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                 : "r"(a[4 * l]), "r"(a[4 * l + 1]), "r"(a[4 * l + 2]), "r"(a[4 * l + 3]), "r"(b[2 * l]),
                   "r"(b[2 * l + 1]), "f"(c[4 * l]), "f"(c[4 * l + 1]), "f"(c[4 * l + 2]), "f"(c[4 * l + 3]));
    d[4 * l] = d0; d[4 * l + 1] = d1; d[4 * l + 2] = d2; d[4 * l + 3] = d3;
}
// f16 accumulate: c and d are 2 words (f16x2) per lane
extern "C" __global__ void probe_f16f16(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *d) {
    int l = threadIdx.x;
    unsigned d0, d1;
    asm volatile(MMA_F16F16 "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(d0), "=r"(d1)
                 : "r"(a[4 * l]), "r"(a[4 * l + 1]), "r"(a[4 * l + 2]), "r"(a[4 * l + 3]), "r"(b[2 * l]),
                   "r"(b[2 * l + 1]), "r"(c[2 * l]), "r"(c[2 * l + 1]));
    d[2 * l] = d0; d[2 * l + 1] = d1;
}
// ldmatrix: lane L gives the row at src + L*8 halves (x1: lanes 0..7 used, ...); out: 4 words per lane
extern "C" __global__ void probe_ldsm(const unsigned short *src, unsigned *out, int mode) {
    __shared__ __align__(128) unsigned short t[256];
    int l = threadIdx.x;
    for (int i = l; i < 256; i += 32) t[i] = src[i];
    __syncwarp();
    unsigned p = smem(t + 8 * l), r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    if (mode == 0)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(p));
    else if (mode == 1)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(p));
    else if (mode == 2)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(p));
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(p));
    out[4 * l] = r0; out[4 * l + 1] = r1; out[4 * l + 2] = r2; out[4 * l + 3] = r3;
}
// stmatrix x4 (mode 0) / x4.trans (mode 1): lane L's register i holds (L*4 + i) * 2 + {0, 1}; the
// 256 halves of shared memory come back
extern "C" __global__ void probe_stsm(unsigned short *out, int mode) {
    __shared__ __align__(128) unsigned short t[256];
    int l = threadIdx.x;
    for (int i = l; i < 256; i += 32) t[i] = 0xFFFF;
    __syncwarp();
    unsigned p = smem(t + 8 * l), r[4];
    for (int i = 0; i < 4; ++i) r[i] = ((l * 4 + i) * 2) | (((l * 4 + i) * 2 + 1) << 16);
    if (mode == 0)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
                     :: "r"(p), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
    else
        asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};"
                     :: "r"(p), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
    __syncwarp();
    for (int i = l; i < 256; i += 32) out[i] = t[i];
}

// ---------------------------------------------------------------- dependent chains (clock64)
// KIND 0: m16n8k16 f16 -> f32, 1: m16n8k16 f16 -> f16, 2: m16n8k8 tf32, 3: m16n8k16 bf16,
//      4: m16n8k32 s8, 5: m16n8k8 f16 -> f32, 6: ldmatrix x1 chain, 7: ldmatrix x4 chain
template <int KIND>
__global__ void chain_clock(long long *cycles, int n, unsigned *sink) {
    __shared__ __align__(128) unsigned short t[32][256];  // one row block per warp (up to 1,024 threads)
    int l = threadIdx.x % 32;
    unsigned a0 = l, a1 = l + 1, a2 = l + 2, a3 = l + 3, b0 = 2 * l, b1 = 2 * l + 1;
    unsigned c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    float f0 = 0.f, f1 = 0.f, f2 = 0.f, f3 = 0.f;
    for (int i = l; i < 256; i += 32) t[threadIdx.x / 32][i] = 0;
    unsigned base = smem(t[threadIdx.x / 32]) + 16 * l;
    __syncwarp();
    long long t0 = clock64();
    for (int i = 0; i < n; ++i) {
        if (KIND == 0)
            asm volatile(MMA_F16F32 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(f0), "+f"(f1), "+f"(f2), "+f"(f3)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        else if (KIND == 1)
            asm volatile(MMA_F16F16 "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                         : "+r"(c0), "+r"(c1) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        else if (KIND == 2)
            asm volatile(MMA_TF32 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(f0), "+f"(f1), "+f"(f2), "+f"(f3)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        else if (KIND == 3)
            asm volatile(MMA_BF16 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(f0), "+f"(f1), "+f"(f2), "+f"(f3)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        else if (KIND == 4)
            asm volatile(MMA_S8 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+r"(c0), "+r"(c1), "+r"(c2), "+r"(c3)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        else if (KIND == 5)
            asm volatile(MMA_F16K8 "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                         : "+f"(f0), "+f"(f1), "+f"(f2), "+f"(f3) : "r"(a0), "r"(a1), "r"(b0));
        else if (KIND == 6)  // the row address depends on the previous ldmatrix (its data is 0)
            asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(c0) : "r"(base + c0));
        else
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                         : "=r"(c0), "=r"(c1), "=r"(c2), "=r"(c3) : "r"(base + c0));
    }
    __syncwarp();
    long long t1 = clock64();
    if ((c0 ^ c1 ^ c2 ^ c3) + f0 + f1 + f2 + f3 == 1234567.f) sink[threadIdx.x] = c0;
    if (l == 0) cycles[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = t1 - t0;
}

// ---------------------------------------------------------------- counter kernels
#define LDSM_ASM_1 "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%4];"
#define LDSM_ASM_2 "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%4];"
#define LDSM_ASM_4 "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
#define LDSM_ASM_4T "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
#define LDSM_ASM_2T "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%4];"
#define LDSM_ASM_1T "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%4];"
// STRIDE: halves between the rows lane L gives (8: 16 bytes, 64: 128 bytes)
#define LDSM_K(NAME, ASM, STRIDE)                                                                     \
extern "C" __global__ void NAME(unsigned *out) {                                                     \
    __shared__ __align__(128) unsigned short tile[4][32 * (STRIDE)];                                 \
    unsigned short *t = tile[threadIdx.x / 32];                                                      \
    int l = threadIdx.x % 32;                                                                        \
    for (int i = l; i < 32 * (STRIDE); i += 32) t[i] = (unsigned short)(i & 7);                      \
    __syncwarp();                                                                                    \
    unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;                                                         \
    asm volatile(ASM : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) : "r"(smem(t + l * (STRIDE))));        \
    if (r0 + r1 + r2 + r3 == 0x12345679u) out[threadIdx.x] = r0;                                     \
}
LDSM_K(ldsm_x1_r16, LDSM_ASM_1, 8)
LDSM_K(ldsm_x2_r16, LDSM_ASM_2, 8)
LDSM_K(ldsm_x4_r16, LDSM_ASM_4, 8)
LDSM_K(ldsm_x1t_r16, LDSM_ASM_1T, 8)
LDSM_K(ldsm_x2t_r16, LDSM_ASM_2T, 8)
LDSM_K(ldsm_x4t_r16, LDSM_ASM_4T, 8)
LDSM_K(ldsm_x1_r128, LDSM_ASM_1, 64)
LDSM_K(ldsm_x2_r128, LDSM_ASM_2, 64)
LDSM_K(ldsm_x4_r128, LDSM_ASM_4, 64)
LDSM_K(ldsm_x1t_r128, LDSM_ASM_1T, 64)
LDSM_K(ldsm_x2t_r128, LDSM_ASM_2T, 64)
LDSM_K(ldsm_x4t_r128, LDSM_ASM_4T, 64)

#define STSM_ASM_4 "stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
#define STSM_ASM_4T "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};"
#define STSM_K(NAME, ASM, STRIDE)                                                                     \
extern "C" __global__ void NAME(unsigned *out) {                                                     \
    __shared__ __align__(128) unsigned short tile[4][32 * (STRIDE)];                                 \
    unsigned short *t = tile[threadIdx.x / 32];                                                      \
    unsigned l = threadIdx.x % 32;                                                                   \
    asm volatile(ASM :: "r"(smem(t + l * (STRIDE))), "r"(l), "r"(l + 1), "r"(l + 2), "r"(l + 3)      \
                 : "memory");                                                                        \
    __syncwarp();                                                                                    \
    if (t[l] == 0x1234) out[threadIdx.x] = t[l];                                                     \
}
STSM_K(stsm_x4_r16, STSM_ASM_4, 8)
STSM_K(stsm_x4t_r16, STSM_ASM_4T, 8)
STSM_K(stsm_x4_r128, STSM_ASM_4, 64)
STSM_K(stsm_x4t_r128, STSM_ASM_4T, 64)

#define MMA_K(NAME, ASM, T, C)                                                                        \
extern "C" __global__ void NAME(unsigned *out) {                                                     \
    unsigned l = threadIdx.x;                                                                        \
    T c0 = 0, c1 = 0, c2 = 0, c3 = 0;                                                                \
    asm volatile(ASM "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                         \
                 : "+" C(c0), "+" C(c1), "+" C(c2), "+" C(c3)                                        \
                 : "r"(l), "r"(l + 1), "r"(l + 2), "r"(l + 3), "r"(2 * l), "r"(2 * l + 1));          \
    if (c0 + c1 + c2 + c3 == (T)1234567) out[threadIdx.x] = (unsigned)c0;                            \
}
MMA_K(mma_f16f32, MMA_F16F32, float, "f")
MMA_K(mma_tf32, MMA_TF32, float, "f")
MMA_K(mma_bf16, MMA_BF16, float, "f")
MMA_K(mma_s8, MMA_S8, int, "r")
extern "C" __global__ void mma_f16f16(unsigned *out) {
    unsigned l = threadIdx.x, c0 = 0, c1 = 0;
    asm volatile(MMA_F16F16 "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                 : "+r"(c0), "+r"(c1) : "r"(l), "r"(l + 1), "r"(l + 2), "r"(l + 3), "r"(2 * l), "r"(2 * l + 1));
    if ((c0 ^ c1) == 0x12345679u) out[threadIdx.x] = c0;
}

#ifndef __CUDACC_RTC__
// ---------------------------------------------------------------- host: the ISA's fragment formulas
// lane L: g = L / 4, t = L % 4 (PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type")
static void a_rc(int L, int s, int *r, int *c) { int g = L / 4, t = L % 4; *r = g + 8 * ((s / 2) % 2); *c = 2 * t + s % 2 + 8 * (s / 4); }
static void b_rc(int L, int s, int *r, int *c) { int g = L / 4, t = L % 4; *r = 2 * t + s % 2 + 8 * (s / 2); *c = g; }
static unsigned short h(float x) { __half v = __float2half(x); unsigned short u; memcpy(&u, &v, 2); return u; }
static float hf(unsigned short u) { __half v; memcpy(&v, &u, 2); return __half2float(v); }

// A (16 x 16) / B (16 x 8) words of every lane from a matrix function, or tags (lane*slots + slot)
template <class F> static void words_a(std::vector<unsigned> &w, F f) {
    for (int L = 0; L < 32; ++L) for (int s = 0; s < 8; s += 2) {
        int r0, c0, r1, c1; a_rc(L, s, &r0, &c0); a_rc(L, s + 1, &r1, &c1);
        w[L * 4 + s / 2] = h(f(r0, c0)) | (h(f(r1, c1)) << 16);
    }
}
template <class F> static void words_b(std::vector<unsigned> &w, F f) {
    for (int L = 0; L < 32; ++L) for (int s = 0; s < 4; s += 2) {
        int r0, c0, r1, c1; b_rc(L, s, &r0, &c0); b_rc(L, s + 1, &r1, &c1);
        w[L * 2 + s / 2] = h(f(r0, c0)) | (h(f(r1, c1)) << 16);
    }
}
static void tags(std::vector<unsigned> &w, int slots) {  // slot s of lane L holds L*slots + s
    for (int L = 0; L < 32; ++L) for (int s = 0; s < slots; s += 2)
        w[L * slots / 2 + s / 2] = h((float)(L * slots + s)) | (h((float)(L * slots + s + 1)) << 16);
}

static void layouts() {
    unsigned *da, *db, *dc, *dd; unsigned short *ds;
    CHECK(cudaMalloc(&da, 512)); CHECK(cudaMalloc(&db, 256)); CHECK(cudaMalloc(&dc, 512));
    CHECK(cudaMalloc(&dd, 512)); CHECK(cudaMalloc(&ds, 512));
    std::vector<unsigned> a(128), b(64), c(128, 0), d(128);
    struct Probe { const char *name; int kind; };
    // kind 0: A tags, B(k, n) = [k == n]; 1: A tags, B(k, n) = [k == n + 8]; 2: A(m, k) = [k == m], B tags;
    //      3: A(m, k) = m [k == 0], B(k, n) = [k == 0]; 4: A(m, k) = [k == 0], B(k, n) = n [k == 0];
    //      5: A = B = 0, C tags (as f32 lane*4 + slot)
    const Probe probes[] = {{"a_lo", 0}, {"a_hi", 1}, {"b", 2}, {"c_row", 3}, {"c_col", 4}, {"c_pass", 5}};
    for (int acc = 0; acc < 2; ++acc) for (const Probe &p : probes) {
        switch (p.kind) {
        case 0: tags(a, 8); words_b(b, [](int k, int n) { return (float)(k == n); }); break;
        case 1: tags(a, 8); words_b(b, [](int k, int n) { return (float)(k == n + 8); }); break;
        case 2: words_a(a, [](int m, int k) { return (float)(k == m); }); tags(b, 4); break;
        case 3: words_a(a, [](int m, int k) { return k == 0 ? (float)m : 0.f; });
                words_b(b, [](int k, int n) { return (float)(k == 0); }); break;
        case 4: words_a(a, [](int m, int k) { return (float)(k == 0); });
                words_b(b, [](int k, int n) { return k == 0 ? (float)n : 0.f; }); break;
        default: words_a(a, [](int, int) { return 0.f; }); words_b(b, [](int, int) { return 0.f; });
        }
        std::vector<float> cf(128, 0.f);
        std::fill(c.begin(), c.end(), 0u);
        if (p.kind == 5) {
            for (int i = 0; i < 128; ++i) cf[i] = (float)i;
            for (int L = 0; L < 32; ++L) for (int s = 0; s < 4; s += 2)
                c[L * 2 + s / 2] = h((float)(L * 4 + s)) | (h((float)(L * 4 + s + 1)) << 16);
        }
        CHECK(cudaMemcpy(da, a.data(), 512, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(db, b.data(), 256, cudaMemcpyHostToDevice));
        if (acc == 0) {
            CHECK(cudaMemcpy(dc, cf.data(), 512, cudaMemcpyHostToDevice));
            probe_f16f32<<<1, 32>>>(da, db, (const float *)dc, (float *)dd);
        } else {
            CHECK(cudaMemcpy(dc, c.data(), 256, cudaMemcpyHostToDevice));
            probe_f16f16<<<1, 32>>>(da, db, dc, dd);
        }
        CHECK(cudaMemcpy(d.data(), dd, 512, cudaMemcpyDeviceToHost));
        printf("probe mma.m16n8k16.%s %s\n", acc ? "f16" : "f32", p.name);
        for (int L = 0; L < 32; ++L) {
            printf("lane %2d:", L);
            for (int s = 0; s < 4; ++s) {
                float v = acc ? hf((unsigned short)(d[L * 2 + s / 2] >> (16 * (s % 2)))) : ((float *)d.data())[L * 4 + s];
                printf(" %g", v);
            }
            printf("\n");
        }
    }
    // ldmatrix / stmatrix on a tile whose half at offset o holds o
    std::vector<unsigned short> src(256);
    for (int i = 0; i < 256; ++i) src[i] = (unsigned short)i;
    CHECK(cudaMemcpy(ds, src.data(), 512, cudaMemcpyHostToDevice));
    const char *ldsm_names[4] = {"x1", "x2", "x4", "x4.trans"};
    for (int mode = 0; mode < 4; ++mode) {
        probe_ldsm<<<1, 32>>>(ds, dd, mode);
        CHECK(cudaMemcpy(d.data(), dd, 512, cudaMemcpyDeviceToHost));
        printf("probe ldmatrix.%s\n", ldsm_names[mode]);
        for (int L = 0; L < 32; ++L) {
            printf("lane %2d:", L);
            for (int i = 0; i < 4; ++i) printf(" %u %u", d[L * 4 + i] & 0xFFFF, d[L * 4 + i] >> 16);
            printf("\n");
        }
    }
    for (int mode = 0; mode < 2; ++mode) {
        probe_stsm<<<1, 32>>>(ds, mode);
        CHECK(cudaMemcpy(src.data(), ds, 512, cudaMemcpyDeviceToHost));
        printf("probe stmatrix.%s\n", mode ? "x4.trans" : "x4");
        for (int r = 0; r < 32; ++r) {  // row r: the 8 halves lane r's address pointed at
            printf("row %2d:", r);
            for (int e = 0; e < 8; ++e) printf(" %u", src[r * 8 + e]);
            printf("\n");
        }
    }
    CHECK(cudaDeviceSynchronize());
}

// cycles per dependent instruction (n = 4096 minus n = 64, per warp), with 1..8 warps per SM sub-partition
template <int KIND> static void latency_one(const char *name) {
    long long *cyc; unsigned *sink;
    CHECK(cudaMalloc(&cyc, 132 * 64 * sizeof(long long))); CHECK(cudaMalloc(&sink, 4096));
    for (int w : {1, 2, 4, 8}) {
        double per[2];
        int ns[2] = {64, 4096};
        for (int j = 0; j < 2; ++j) {
            chain_clock<KIND><<<132, 128 * w>>>(cyc, ns[j], sink);
            CHECK(cudaGetLastError());
            std::vector<long long> hc(132 * 4 * w);
            CHECK(cudaMemcpy(hc.data(), cyc, hc.size() * sizeof(long long), cudaMemcpyDeviceToHost));
            double s = 0;
            for (long long x : hc) s += (double)x;
            per[j] = s / hc.size();
        }
        printf("latency %s warps_per_smsp %d cycles_per_inst %.2f\n", name, w, (per[1] - per[0]) / (4096 - 64));
    }
    CHECK(cudaFree(cyc)); CHECK(cudaFree(sink));
}

static void counters() {
    unsigned *out;
    CHECK(cudaMalloc(&out, 132 * 128 * 4));
    typedef void (*K)(unsigned *);
    struct { const char *name; K k; bool grid; } ks[] = {
        {"ldsm_x1_r16", ldsm_x1_r16, false}, {"ldsm_x2_r16", ldsm_x2_r16, false}, {"ldsm_x4_r16", ldsm_x4_r16, true},
        {"ldsm_x1t_r16", ldsm_x1t_r16, false}, {"ldsm_x2t_r16", ldsm_x2t_r16, false},
        {"ldsm_x4t_r16", ldsm_x4t_r16, false}, {"ldsm_x1_r128", ldsm_x1_r128, false},
        {"ldsm_x2_r128", ldsm_x2_r128, false}, {"ldsm_x4_r128", ldsm_x4_r128, true},
        {"ldsm_x1t_r128", ldsm_x1t_r128, false}, {"ldsm_x2t_r128", ldsm_x2t_r128, false},
        {"ldsm_x4t_r128", ldsm_x4t_r128, false},
        {"stsm_x4_r16", stsm_x4_r16, false}, {"stsm_x4t_r16", stsm_x4t_r16, false},
        {"stsm_x4_r128", stsm_x4_r128, false}, {"stsm_x4t_r128", stsm_x4t_r128, false},
        {"mma_f16f32", mma_f16f32, true}, {"mma_f16f16", mma_f16f16, false}, {"mma_tf32", mma_tf32, false},
        {"mma_bf16", mma_bf16, false}, {"mma_s8", mma_s8, false},
    };
    for (auto &x : ks) { x.k<<<1, 32>>>(out); printf("%s <<<1,32>>>\n", x.name); }
    for (auto &x : ks) if (x.grid) { x.k<<<132, 128>>>(out); printf("%s <<<132,128>>>\n", x.name); }
    CHECK(cudaDeviceSynchronize());
}

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "counters";
    if (!strcmp(what, "layouts")) layouts();
    else if (!strcmp(what, "latency")) {
        latency_one<0>("mma.m16n8k16.f32.f16"); latency_one<1>("mma.m16n8k16.f16.f16");
        latency_one<2>("mma.m16n8k8.f32.tf32"); latency_one<3>("mma.m16n8k16.f32.bf16");
        latency_one<4>("mma.m16n8k32.s32.s8"); latency_one<5>("mma.m16n8k8.f32.f16");
        latency_one<6>("ldmatrix.x1_chain"); latency_one<7>("ldmatrix.x4_chain");
    } else counters();
    CHECK(cudaDeviceSynchronize());
    return 0;
}
#endif  // __CUDACC_RTC__
