// Which traffic makes the H200 count extra wavefronts (ncu "bank conflicts") on conflict-free shared
// loads and stores? validation/typical* show them on conflict-free code, and almost only in launches
// of more than one wave: transpose_tile32x8 +439 for 2,048 CTAs where the same kernel with 1,024
// CTAs (cal transpose_padded) has none. Each launch below runs "victim" warps that do nothing but
// conflict-free shared loads (or stores) beside one kind of other traffic, so the bank-conflict
// counters (ideal: 0) say what collides with what.
//
//   mix:     one CTA per SM (132), warps 0-3 victims, warps 4-7 one aggressor kind each
//   storm:   132 long victim CTAs (one per SM) while short CTAs of one kind launch beside them
//   waves:   the typical9 transpose at 1, 2, 4 and 8 waves
//
// Build and run: run.sh (device). Kernels are extern "C" so simgpu can run the same source.

#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#endif

enum Kind {
    K_NONE, K_ALU, K_LDG_MISS, K_LDG_HIT, K_STG, K_LDS, K_LDS128, K_STS, K_STS128, K_SHFL,
    K_ATOMS, K_TID, K_BAR, K_LDGSTS, K_RED, K_LDS_CONFLICT, K_N
};

// one aggressor warp's loop: n rounds of its kind; returns something the caller stores
__device__ __forceinline__ float aggress(int kind, int n, float* sbuf, const float* g, float* gout,
                                         size_t gwords, int w, int lane)
{
    float acc = 0.f;
    volatile float* vs = sbuf;
    const int base = 4096 + (w & 3) * 1024;  // aggressors use words 4096.. of the shared buffer
    switch (kind) {
    case K_ALU:
        for (int i = 0; i < n; ++i) acc = acc * 1.0001f + (float)i;
        break;
    case K_LDG_MISS: {  // every round a new line per warp, far apart: L1 misses (fills)
        size_t stride = gwords / 4 / 32 * 32;
        for (int i = 0; i < n; ++i) acc += g[((size_t)(w & 3) * stride + (size_t)i * 256 + lane) % gwords];
        break;
    }
    case K_LDG_HIT:  // 2 KB per warp, read over and over: L1 hits
        for (int i = 0; i < n; ++i) acc += g[(w & 3) * 512 + (i & 15) * 32 + lane];
        break;
    case K_STG:
        for (int i = 0; i < n; ++i) gout[((size_t)(w & 3) * (gwords / 4) + (size_t)i * 32 + lane) % gwords] = (float)i;
        break;
    case K_LDS:
        for (int i = 0; i < n; ++i) acc += vs[base + (i & 31) * 32 + lane];
        break;
    case K_LDS128:
        for (int i = 0; i < n; ++i) {
            float x, y, z, t;
            unsigned a = (unsigned)__cvta_generic_to_shared(&sbuf[base + ((i & 7) * 32 + lane) * 4]);
            asm volatile("ld.volatile.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(x), "=f"(y), "=f"(z), "=f"(t) : "r"(a));
            acc += x + y + z + t;
        }
        break;
    case K_STS:
        for (int i = 0; i < n; ++i) vs[base + (i & 31) * 32 + lane] = (float)i;
        break;
    case K_STS128:
        for (int i = 0; i < n; ++i) {
            unsigned a = (unsigned)__cvta_generic_to_shared(&sbuf[base + ((i & 7) * 32 + lane) * 4]);
            float v = (float)i;
            asm volatile("st.volatile.shared.v4.f32 [%0], {%1, %1, %1, %1};" :: "r"(a), "f"(v) : "memory");
        }
        break;
    case K_SHFL:
        acc = (float)lane;
        for (int i = 0; i < n; ++i) acc += __shfl_xor_sync(0xffffffffu, acc, 1 + (i & 15));
        break;
    case K_ATOMS:
        for (int i = 0; i < n; ++i) atomicAdd(&sbuf[base + (i & 31) * 32 + lane], 1.f);
        break;
    case K_TID:
        for (int i = 0; i < n; ++i) {
            unsigned t;
            asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
            acc += (float)t;
        }
        break;
    case K_BAR:  // named barrier 1 among the 4 aggressor warps only
        for (int i = 0; i < n; ++i) asm volatile("bar.sync 1, 128;");
        break;
    case K_LDGSTS:
        for (int i = 0; i < n; ++i) {
            unsigned dst = (unsigned)__cvta_generic_to_shared(&sbuf[base + (i & 31) * 32 + lane]);
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(dst),
                         "l"(&g[((size_t)(w & 3) * 4096 + (size_t)i * 32 + lane) % gwords]));
            asm volatile("cp.async.wait_all;");
        }
        break;
    case K_RED:
        for (int i = 0; i < n; ++i) atomicAdd(&gout[(w & 3) * 32 + lane], 1.f);
        break;
    case K_LDS_CONFLICT:  // 2-way: lanes l and l+16 in one bank
        for (int i = 0; i < n; ++i) acc += vs[base + (i & 15) * 64 + (lane & 15) + (lane >> 4) * 32];
        break;
    default:
        break;
    }
    return acc;
}

// victims: conflict-free LDS.32 (victim_st = 0) or STS.32 (1), n rounds
__device__ __forceinline__ float victim(int n, int st, float* sbuf, int w, int lane)
{
    volatile float* vs = sbuf;
    float acc = 0.f;
    if (st) {
        for (int i = 0; i < n; ++i) vs[(w & 3) * 1024 + (i & 31) * 32 + lane] = (float)i;
    } else {
        for (int i = 0; i < n; ++i) acc += vs[(w & 3) * 1024 + (i & 31) * 32 + lane];
    }
    return acc;
}

extern "C" __global__ void mix(float* out, const float* g, float* gout, size_t gwords, int kind, int nv, int na,
                               int victim_st, int victims_on, int layout)
{   // 256 threads. layout 0: warps 0-3 victims (if victims_on), 4-7 aggressors of one kind; 1: the
    // other way round; 2 (grid 264, two CTAs per SM): CTAs 0-131 all victims, 132-263 all aggressors
    __shared__ __align__(16) float sbuf[8192];
    const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int i = threadIdx.x; i < 8192; i += blockDim.x) sbuf[i] = (float)i;
    __syncthreads();
    const bool is_victim = layout == 2 ? blockIdx.x < 132 : ((w < 4) != (layout == 1));
    float acc;
    if (is_victim) acc = victims_on ? victim(nv, victim_st, sbuf, w, lane) : 0.f;
    else acc = aggress(kind, na, sbuf, g, gout, gwords, w, lane);
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

extern "C" __global__ void storm(float* out, const float* g, float* gout, size_t gwords, int kind, int nv,
                                 int na, int n_long)
{   // CTAs 0..n_long-1 (the first round: one per SM) run victims in all 8 warps for nv rounds;
    // the others are short CTAs whose 8 warps run `kind` for na rounds
    __shared__ __align__(16) float sbuf[8192];
    const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    float acc;
    if (blockIdx.x < n_long) {
        acc = victim(nv, 0, sbuf, w, lane);
    } else {
        acc = kind == K_NONE ? 0.f : aggress(kind, na, sbuf, g, gout, gwords, w, lane);
    }
    if (acc == 12345.f) out[blockIdx.x * blockDim.x + threadIdx.x] = acc;  // keep it alive, write nothing
}

#define TILE 32
#define ROWS 8
extern "C" __global__ void transpose_tile32x8(const float* in, float* out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

#ifndef __CUDACC_RTC__
static const char* KIND_NAME[K_N] = {"none", "alu", "ldg_miss", "ldg_hit", "stg", "lds", "lds128", "sts",
                                     "sts128", "shfl", "atoms", "tid", "bar_named", "ldgsts", "red_global",
                                     "lds_2way"};

int main()
{
    const size_t gwords = (size_t)64 << 20;  // 256 MB: loads far apart miss in L1 and mostly in L2
    float *g, *gout, *out;
    CHECK(cudaMalloc(&g, gwords * 4));
    CHECK(cudaMalloc(&gout, gwords * 4));
    CHECK(cudaMalloc(&out, (size_t)64 << 20));
    CHECK(cudaMemset(g, 0, gwords * 4));
    int launch = 0;
    // ---- mix: 132 CTAs, victims + one aggressor kind; victims alone; aggressors alone
    const int nv = 4096;
    for (int st = 0; st < 2; ++st) {
        for (int k = 0; k < K_N; ++k) {
            int na = (k == K_LDG_MISS || k == K_STG || k == K_LDGSTS || k == K_RED) ? 512 : 4096;
            for (int von = 1; von >= 0; --von) {
                if (!von && st) continue;  // aggressors alone once
                mix<<<132, 256>>>(out, g, gout, gwords, k, nv, na, st, von, 0);
                CHECK(cudaGetLastError());
                printf("launch %d mix kind=%s victims=%s na=%d nv=%d\n", launch++, KIND_NAME[k],
                       von ? (st ? "sts" : "lds") : "off", na, nv);
            }
        }
    }
    // ---- layouts: victims and aggressors swapped within the CTA, or in two CTAs of one SM
    const int layout_kinds[] = {K_NONE, K_LDS, K_STS, K_LDS128, K_STS128};
    for (int layout = 1; layout <= 2; ++layout)
        for (int st = 0; st < 2; ++st)
            for (int k : layout_kinds) {
                mix<<<layout == 2 ? 264 : 132, 256>>>(out, g, gout, gwords, k, nv, 4096, st, 1, layout);
                CHECK(cudaGetLastError());
                printf("launch %d layout%d kind=%s victims=%s na=4096 nv=%d\n", launch++, layout, KIND_NAME[k],
                       st ? "sts" : "lds", nv);
            }
    // ---- storm: 132 long victim CTAs, short CTAs of each kind launching beside them
    const int storm_kinds[] = {K_NONE, K_TID, K_LDS, K_STS, K_LDG_MISS, K_ALU};
    for (int k : storm_kinds) {
        for (int shorts : {0, 4096, 16384}) {
            storm<<<132 + shorts, 256>>>(out, g, gout, gwords, k, 40000, 16, 132);
            CHECK(cudaGetLastError());
            printf("launch %d storm kind=%s shorts=%d nv=40000 na=16\n", launch++, KIND_NAME[k], shorts);
        }
    }
    // ---- waves: the transpose at 1, 2, 4, 8 waves (1,024 CTAs = 0.97 wave of 8 per SM)
    for (int m : {1, 2, 4, 8}) {
        int width = 1024 * m, height = 1024;
        transpose_tile32x8<<<dim3(width / 32, height / 32), dim3(32, 8)>>>(g, gout, width, height);
        CHECK(cudaGetLastError());
        printf("launch %d waves transpose %dx%d ctas=%d\n", launch++, width, height, width / 32 * height / 32);
    }
    CHECK(cudaDeviceSynchronize());
    return 0;
}
#endif
