// validation/typical7: ten kernels written on 2026-12-01 after every model was set (used to set
// nothing): a tensor-core GEMM (wmma straight from global memory), an FIR filter with __constant__
// taps, a cooperative-groups tile reduction, ballot bit packing, warp-aggregated histogram atomics
// (__match_any_sync), a float atomicMax by atomicCAS, double-precision atomicAdd into bins, an im2col
// gather, a counter-based random number generator, and a persistent kernel taking work from a queue.
#include <cuda_fp16.h>
#include <mma.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
using namespace nvcuda;

extern "C" __global__ void wmma_gemm_f16(const __half* A, const __half* B, float* C, int n)
{   // one warp per 16x16 tile of C; A row-major, B column-major, fragments loaded from global
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tiles = n / 16, ti = warp / tiles, tj = warp % tiles;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.f);
    for (int k = 0; k < n; k += 16) {
        wmma::load_matrix_sync(a, A + (size_t)ti * 16 * n + k, n);
        wmma::load_matrix_sync(b, B + (size_t)tj * 16 * n + k, n);
        wmma::mma_sync(c, a, b, c);
    }
    wmma::store_matrix_sync(C + (size_t)ti * 16 * n + tj * 16, c, n, wmma::mem_row_major);
}

__constant__ float fir_taps[32] = {
    0.01f, 0.02f, 0.03f, 0.04f, 0.05f, 0.06f, 0.07f, 0.08f, 0.09f, 0.10f, 0.11f, 0.12f, 0.13f, 0.14f, 0.15f, 0.16f,
    0.16f, 0.15f, 0.14f, 0.13f, 0.12f, 0.11f, 0.10f, 0.09f, 0.08f, 0.07f, 0.06f, 0.05f, 0.04f, 0.03f, 0.02f, 0.01f};

extern "C" __global__ void fir32_const(const float* x, float* y, int n)
{   // y[i] = sum_k taps[k] * x[i + k]; the taps from the constant bank, x overlapping between lanes
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.f;
#pragma unroll
    for (int k = 0; k < 32; ++k) acc = fmaf(fir_taps[k], x[i + k], acc);
    y[i] = acc;
}

extern "C" __global__ void cg_tile16_sum(const int* x, int* sums, int n)
{   // grid-stride loads, then a 16-thread tile reduction (cg::reduce), one atomic per tile into 64 bins
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) acc += x[i];
    int s = cg::reduce(tile, acc, cg::plus<int>());
    if (tile.thread_rank() == 0) atomicAdd(&sums[(blockIdx.x * blockDim.x + threadIdx.x) / 16 % 64], s);
}

extern "C" __global__ void ballot_bitpack(const float* x, unsigned* bits, int* counts, float t, int n)
{   // one bit per element (x > t) packed by __ballot_sync, and the set bits counted per block
    __shared__ int block_count;
    if (threadIdx.x == 0) block_count = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = __ballot_sync(0xffffffffu, i < n && x[i] > t);
    if ((threadIdx.x & 31) == 0) {
        bits[i / 32] = __brev(m);          // bit 31 is lane 0, as a bit string reads
        atomicAdd(&block_count, __popc(m));
    }
    __syncthreads();
    if (threadIdx.x == 0) counts[blockIdx.x] = block_count;
}

extern "C" __global__ void match_any_hist(const int* keys, int* hist, int n)
{   // warp-aggregated atomics: lanes holding the same key elect one leader, which adds the group size
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i];
    unsigned peers = __match_any_sync(__activemask(), k);
    int leader = __ffs(peers) - 1;
    if ((threadIdx.x & 31) == leader) atomicAdd(&hist[k], __popc(peers));
}

__device__ float atomic_max_float(float* addr, float v)
{   // the classic compare-and-swap loop on the bit pattern
    int* a = (int*)addr;
    int old = *a, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= v) break;
        old = atomicCAS(a, assumed, __float_as_int(v));
    } while (old != assumed);
    return __int_as_float(old);
}

extern "C" __global__ void cas_float_max(const float* x, const int* bucket, float* out, int n)
{   // out[bucket[i]] = max(out[bucket[i]], x[i]) with a CAS loop (x > 0, out starts at 0)
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomic_max_float(&out[bucket[i]], x[i]);
}

extern "C" __global__ void red_double_bins(const double* w, const int* bin, double* out, int n)
{   // double-precision atomicAdd (RED.ADD.F64) into 4096 bins
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&out[bin[i]], w[i]);
}

extern "C" __global__ void im2col_3x3(const float* img, float* col, int C, int H, int W)
{   // NCHW image (one batch), 3x3 kernel, padding 1, stride 1: col[(c*9 + ky*3 + kx), (y*W + x)]
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int HW = H * W;
    if (idx >= C * 9 * HW) return;
    int p = idx % HW, r = idx / HW;
    int c = r / 9, k = r % 9;
    int y = p / W + k / 3 - 1, x = p % W + k % 3 - 1;
    col[idx] = (y >= 0 && y < H && x >= 0 && x < W) ? img[(c * H + y) * W + x] : 0.f;
}

__device__ __forceinline__ unsigned mulhilo(unsigned a, unsigned b, unsigned* hi)
{
    *hi = __umulhi(a, b);
    return a * b;
}

extern "C" __global__ void philox_uniform(float4* out, unsigned seed, int n4)
{   // Philox-4x32-10 counter-based generator: four uniform floats per thread, integer multiplies only
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    unsigned c0 = i, c1 = 0, c2 = 0, c3 = 0, k0 = seed, k1 = 0xCAFEF00Du;
    for (int r = 0; r < 10; ++r) {
        unsigned h0, h1;
        unsigned l0 = mulhilo(0xD2511F53u, c0, &h0), l1 = mulhilo(0xCD9E8D57u, c2, &h1);
        unsigned n0 = h1 ^ c1 ^ k0, n2 = h0 ^ c3 ^ k1;
        c0 = n0; c1 = l1; c2 = n2; c3 = l0;
        k0 += 0x9E3779B9u; k1 += 0xBB67AE85u;
    }
    const float s = 2.3283064365386963e-10f;   // 2^-32
    out[i] = make_float4(c0 * s, c1 * s, c2 * s, c3 * s);
}

extern "C" __global__ void persistent_worklist(const float* x, float* y, int* next, int chunks, int chunk)
{   // a persistent kernel: each warp takes chunks of `chunk` elements from a global counter until none are left
    int lane = threadIdx.x & 31;
    while (true) {
        int c = 0;
        if (lane == 0) c = atomicAdd(next, 1);
        c = __shfl_sync(0xffffffffu, c, 0);
        if (c >= chunks) break;
        const float* src = x + (size_t)c * chunk;
        float* dst = y + (size_t)c * chunk;
        for (int j = lane; j < chunk; j += 32) dst[j] = sqrtf(src[j]) * 2.f + 1.f;
    }
}

extern "C" __global__ void group8_votes(const int* x, unsigned* out, int n)
{   // warp intrinsics where each group of 8 lanes passes its own membermask (as a tile of 8 does)
    int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    unsigned mask = 0xffu << (lane & ~7);
    int v = x[t];
    out[0 * n + t] = __ballot_sync(mask, v > 0);
    out[1 * n + t] = __all_sync(mask, v >= 0);
    out[2 * n + t] = __match_any_sync(mask, v & 3);
    out[3 * n + t] = (unsigned)__reduce_add_sync(mask, v);
    out[4 * n + t] = (unsigned)__reduce_max_sync(mask, v);
}
