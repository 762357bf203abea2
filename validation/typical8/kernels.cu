// validation/typical8: kernels written on 2026-12-01 after every model was set (used to set nothing),
// for the features simgpu learnt that day: a decoupled look-back scan (CTAs spin on their
// predecessors' status words), a cooperative kernel with grid.sync(), a warp-specialised
// producer/consumer pipeline on named barriers, FP8 (e4m3) weights and quantisation, Hopper's bulk
// copy (TMA without a tensor map) and mbarrier-based cuda::barrier pipelines, a bitonic sort in
// shared memory and rotary position embedding.
#include <cuda_fp8.h>
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// ---- 1. single-pass scan with decoupled look-back (CUB's scheme, thread 0 looks back) ----------
// status word of a tile: (tag << 32) | value, tag = 2 * epoch (aggregate) or 2 * epoch + 1 (inclusive
// prefix); the epoch grows by one per launch (tickets keep counting), so a re-launch needs no reset.
extern "C" __global__ void lookback_scan(const int* x, int* y, unsigned long long* status, int* ticket)
{
    __shared__ int s[256];
    __shared__ int tile_s, excl_s;
    if (threadIdx.x == 0) tile_s = atomicAdd(ticket, 1);
    __syncthreads();
    const int t = tile_s % gridDim.x, epoch = tile_s / gridDim.x + 1;
    const int base = t * 2048 + threadIdx.x * 8;
    int v[8], run = 0;
    for (int i = 0; i < 8; ++i) { run += x[base + i]; v[i] = run; }
    s[threadIdx.x] = run;
    __syncthreads();
    for (int o = 1; o < 256; o <<= 1) {
        int add = threadIdx.x >= o ? s[threadIdx.x - o] : 0;
        __syncthreads();
        s[threadIdx.x] += add;
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        const unsigned agg = s[255];
        volatile unsigned long long* st = status;
        const unsigned long long a_tag = 2ull * epoch, p_tag = 2ull * epoch + 1;
        unsigned excl = 0;
        if (t == 0) {
            st[0] = (p_tag << 32) | agg;
        } else {
            st[t] = (a_tag << 32) | agg;
            for (int p = t - 1; p >= 0;) {
                unsigned long long w = st[p];
                unsigned long long tag = w >> 32;
                if (tag == p_tag) { excl += (unsigned)w; break; }
                if (tag == a_tag) { excl += (unsigned)w; --p; }
            }
            __threadfence();
            st[t] = (p_tag << 32) | (excl + agg);
        }
        excl_s = excl;
    }
    __syncthreads();
    const int before = excl_s + (threadIdx.x ? s[threadIdx.x - 1] : 0);
    for (int i = 0; i < 8; ++i) y[base + i] = before + v[i];
}

// ---- 2. cooperative: the L2 norm of the whole array, then every element divided by it -----------
extern "C" __global__ void grid_sync_normalize(const float* x, float* y, float* partial, int n)
{
    cg::grid_group g = cg::this_grid();
    __shared__ float red[8];
    float acc = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) acc += x[i] * x[i];
    for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        float b = 0.f;
        for (int w = 0; w < blockDim.x / 32; ++w) b += red[w];
        partial[blockIdx.x] = b;
    }
    g.sync();
    float total = 0.f;
    for (int b = threadIdx.x & 31; b < gridDim.x; b += 32) total += partial[b];
    for (int o = 16; o; o >>= 1) total += __shfl_xor_sync(0xffffffffu, total, o);
    const float inv = rsqrtf(total);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = x[i] * inv;
}

// ---- 3. warp-specialised pipeline: 4 producer warps fill a double buffer, 4 consumer warps use it;
// named barriers 1/2 say "buffer b full", 3/4 "buffer b free" (bar.arrive + bar.sync, 256 threads)
extern "C" __global__ void named_barrier_pipe(const float4* x, float* y, int iters)
{
    __shared__ float4 buf[2][128];
    const bool producer = threadIdx.x < 128;
    const int t = threadIdx.x & 127;
    const size_t base = (size_t)blockIdx.x * iters * 128;
    for (int it = 0; it < iters; ++it) {
        const int b = it & 1;
        if (producer) {
            if (it >= 2) asm volatile("bar.sync %0, 256;" :: "r"(3 + b));
            buf[b][t] = x[base + (size_t)it * 128 + t];
            asm volatile("bar.arrive %0, 256;" :: "r"(1 + b));
        } else {
            asm volatile("bar.sync %0, 256;" :: "r"(1 + b));
            float4 v = buf[b][t ^ 1];  // a neighbour's element: the data crossed warps
            y[base + (size_t)it * 128 + t] = v.x * v.y + v.z - v.w;
            if (it < iters - 2) asm volatile("bar.arrive %0, 256;" :: "r"(3 + b));
        }
    }
}

// ---- 4. FP8: e4m3 weights times a float vector (one warp per row, 4 weights per lane per step) -
extern "C" __global__ void fp8_gemv(const __nv_fp8x4_e4m3* W, const float4* x, float* y, int rows, int cols)
{
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
    if (row >= rows) return;
    float acc = 0.f;
    for (int k = lane; k < cols / 4; k += 32) {
        float4 w = float4(W[(size_t)row * (cols / 4) + k]);
        float4 v = x[k];
        acc += w.x * v.x + w.y * v.y + w.z * v.z + w.w * v.w;
    }
    for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if (lane == 0) y[row] = acc;
}

// ---- 5. FP8 quantisation: per row of 1024, scale by 448 / amax and round to e4m3 (satfinite) ------
extern "C" __global__ void fp8_quantize_rows(const float2* x, __nv_fp8x2_storage_t* q, float* scale)
{
    __shared__ float red[8];
    const int row = blockIdx.x, t = threadIdx.x;  // 256 threads x 2 pairs = 1024 values
    float2 a = x[row * 512 + t], b = x[row * 512 + 256 + t];
    float m = fmaxf(fmaxf(fabsf(a.x), fabsf(a.y)), fmaxf(fabsf(b.x), fabsf(b.y)));
    for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if ((t & 31) == 0) red[t / 32] = m;
    __syncthreads();
    float amax = red[0];
    for (int w = 1; w < 8; ++w) amax = fmaxf(amax, red[w]);
    const float s = 448.f / amax;
    if (t == 0) scale[row] = s;
    q[row * 512 + t] = __nv_cvt_float2_to_fp8x2(make_float2(a.x * s, a.y * s), __NV_SATFINITE, __NV_E4M3);
    q[row * 512 + 256 + t] = __nv_cvt_float2_to_fp8x2(make_float2(b.x * s, b.y * s), __NV_SATFINITE, __NV_E4M3);
}

// ---- 6. bitonic sort of 1,024 floats per block in shared memory (512 threads, one pair each) -----
extern "C" __global__ void bitonic_sort_1024(float* data)
{
    __shared__ float s[1024];
    float* g = data + blockIdx.x * 1024;
    s[threadIdx.x] = g[threadIdx.x];
    s[threadIdx.x + 512] = g[threadIdx.x + 512];
    __syncthreads();
    for (int k = 2; k <= 1024; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            const int i = 2 * threadIdx.x - (threadIdx.x & (j - 1));  // the lower index of this thread's pair
            const int l = i + j;
            const bool up = (i & k) == 0;
            float a = s[i], b = s[l];
            if ((a > b) == up) { s[i] = b; s[l] = a; }
            __syncthreads();
        }
    }
    g[threadIdx.x] = s[threadIdx.x];
    g[threadIdx.x + 512] = s[threadIdx.x + 512];
}

// ---- 7. rotary position embedding: pairs (2i, 2i+1) of every head rotated by pos * 10000^(-2i/d) --
extern "C" __global__ void rope_rotary(const float2* x, float2* y, int heads, int half_dim)
{
    const int token = blockIdx.x;
    for (int e = threadIdx.x; e < heads * half_dim; e += blockDim.x) {
        const int i = e % half_dim;
        const float freq = exp2f(-13.287712379549449f * (float)i / (float)half_dim);  // 10000^(-i/half_dim)
        float sn, cs;
        sincosf((float)token * freq, &sn, &cs);
        const float2 v = x[(size_t)token * heads * half_dim + e];
        y[(size_t)token * heads * half_dim + e] = make_float2(v.x * cs - v.y * sn, v.x * sn + v.y * cs);
    }
}

// ---- 8. Hopper bulk copy: thread 0 moves a 16 KB tile to shared memory with cuda::memcpy_async
// (cp.async.bulk + an mbarrier's transaction count), every thread waits on the barrier ------------
extern "C" __global__ void tma_bulk_scale(const float* x, float* y, float a)
{
    __shared__ alignas(128) float tile[4096];
    #pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    const float* src = x + (size_t)blockIdx.x * 4096;
    if (threadIdx.x == 0) cuda::memcpy_async(tile, src, cuda::aligned_size_t<16>(sizeof(tile)), bar);
    bar.arrive_and_wait();
    float* dst = y + (size_t)blockIdx.x * 4096;
    for (int i = threadIdx.x; i < 4096; i += blockDim.x) dst[i] = a * tile[4095 - i];
}

// ---- 9. cuda::barrier double buffering: the block copies tile k+1 (memcpy_async) while it sums
// tile k; one barrier per buffer, each waited on with its arrival token ----------------------------
extern "C" __global__ void barrier_double_buffer(const float* x, float* sums, int tiles)
{
    __shared__ float buf[2][1024];
    #pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar[2];
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) { init(&bar[0], block.size()); init(&bar[1], block.size()); }
    block.sync();
    const float* src = x + (size_t)blockIdx.x * tiles * 1024;
    cuda::memcpy_async(block, buf[0], src, sizeof(float) * 1024, bar[0]);
    float acc = 0.f;
    for (int k = 0; k < tiles; ++k) {
        const int b = k & 1;
        if (k + 1 < tiles) cuda::memcpy_async(block, buf[b ^ 1], src + (size_t)(k + 1) * 1024, sizeof(float) * 1024, bar[b ^ 1]);
        bar[b].arrive_and_wait();
        for (int i = threadIdx.x; i < 1024; i += blockDim.x) acc += buf[b][i] * (float)(k + 1);
        block.sync();  // everyone is done with buf[b] before it is refilled
    }
    for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(sums + blockIdx.x, acc);
}
