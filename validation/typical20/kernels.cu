// validation/typical20: kernels written on 2026-12-04 after every model was set (used to set nothing):
// a merge-path merge of two sorted arrays, a two-probe cuckoo hash look-up, a bit-reversal
// permutation, nearest neighbours against float4 points staged in shared memory, a column softmax,
// a half2 atomic histogram, a nearest-neighbour byte image resize, block-local Jacobi sweeps in
// shared memory, and shared float4 reads at strides of 1 to 8 elements.
#include <cuda_fp16.h>

// ---- 1. merge path: each thread finds its split of the diagonal by binary search, merges 8 -------
extern "C" __global__ void merge_path(const int* a, const int* b, int* c, int n)
{
    int d = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
    if (d >= 2 * n) return;
    int lo = max(0, d - n), hi = min(d, n);
    while (lo < hi) {
        int m = (lo + hi) >> 1;
        if (a[m] <= b[d - 1 - m]) lo = m + 1; else hi = m;
    }
    int i = lo, j = d - lo;
    for (int k = 0; k < 8; ++k) {
        if (j >= n || (i < n && a[i] <= b[j])) c[d + k] = a[i++];
        else c[d + k] = b[j++];
    }
}

// ---- 2. cuckoo look-up: {key, value} pairs, the second slot read only when the first misses -----
__device__ __forceinline__ unsigned slot1(unsigned k, unsigned mask) { return (k * 2654435761u) >> 7 & mask; }
__device__ __forceinline__ unsigned slot2(unsigned k, unsigned mask) { return ((k ^ 0x5bd1e995u) * 0x9E3779B1u) >> 9 & mask; }

extern "C" __global__ void cuckoo_lookup(const uint2* table, unsigned mask, const unsigned* keys, int* vals, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = keys[i];
    uint2 e = table[slot1(k, mask)];
    if (e.x != k) e = table[slot2(k, mask)];
    vals[i] = e.x == k ? (int)e.y : -1;
}

// ---- 3. bit-reversal permutation: coalesced loads, every lane's store in another line ------------
extern "C" __global__ void bitrev_copy(const float* in, float* out, int bits)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >> bits) return;
    out[__brev(i) >> (32 - bits)] = in[i];
}

// ---- 4. nearest neighbour: reference points staged 256 at a time in shared memory (broadcast) ----
extern "C" __global__ void knn_tile_f4(const float4* q, const float4* ref, float* best, int nq, int nref)
{
    __shared__ float4 tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 p = q[min(i, nq - 1)];
    float m = 3.0e38f;
    for (int t = 0; t < nref; t += 256) {
        tile[threadIdx.x] = ref[t + threadIdx.x];
        __syncthreads();
        for (int k = 0; k < 256; ++k) {
            float4 r = tile[k];
            float dx = p.x - r.x, dy = p.y - r.y, dz = p.z - r.z;
            m = fminf(m, dx * dx + dy * dy + dz * dz);
        }
        __syncthreads();
    }
    if (i < nq) best[i] = m;
}

// ---- 5. softmax down each column of a row-major matrix: one thread a column, three passes -------
extern "C" __global__ void col_softmax(const float* x, float* y, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float m = -3.0e38f;
    for (int r = 0; r < rows; ++r) m = fmaxf(m, x[(size_t)r * cols + c]);
    float s = 0.0f;
    for (int r = 0; r < rows; ++r) s += __expf(x[(size_t)r * cols + c] - m);
    float inv = 1.0f / s;
    for (int r = 0; r < rows; ++r) y[(size_t)r * cols + c] = __expf(x[(size_t)r * cols + c] - m) * inv;
}

// ---- 6. histogram of pairs in half2 bins: atomicAdd on __half2 --------------------------------
extern "C" __global__ void atomic_half2_bins(const int* idx, __half2* bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = idx[i];
    atomicAdd(bins + (v >> 1), (v & 1) ? __halves2half2(__float2half(0.0f), __float2half(1.0f))
                                         : __halves2half2(__float2half(1.0f), __float2half(0.0f)));
}

// ---- 7. nearest-neighbour resize of an 8-bit image by 2/3: byte gathers at a 3/2 step ----------
extern "C" __global__ void resize_nearest_u8(const unsigned char* in, unsigned char* out, int w, int h, int ow, int oh)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x >= ow || y >= oh) return;
    int sx = x * w / ow, sy = y * h / oh;
    out[y * ow + x] = in[sy * w + sx];
}

// ---- 8. Jacobi sweeps of a 32x32 tile in shared memory, its halo held from the input ----------
extern "C" __global__ void jacobi_smem_iters(const float* in, float* out, int n, int iters)
{
    __shared__ float s[2][34][34];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * 32, y0 = blockIdx.y * 32;
    for (int k = ty * 32 + tx; k < 34 * 34; k += 1024) {
        int yy = min(max(y0 + k / 34 - 1, 0), n - 1), xx = min(max(x0 + k % 34 - 1, 0), n - 1);
        float v = in[yy * n + xx];
        s[0][k / 34][k % 34] = v;
        s[1][k / 34][k % 34] = v;
    }
    __syncthreads();
    int cur = 0;
    for (int it = 0; it < iters; ++it) {
        float v = 0.25f * (s[cur][ty][tx + 1] + s[cur][ty + 2][tx + 1] + s[cur][ty + 1][tx] + s[cur][ty + 1][tx + 2]);
        s[cur ^ 1][ty + 1][tx + 1] = v;
        cur ^= 1;
        __syncthreads();
    }
    out[(y0 + ty) * n + x0 + tx] = s[cur][ty + 1][tx + 1];
}

// ---- 9. shared float4 reads, lane l reading element (l * stride + j) mod 1024 ------------------
extern "C" __global__ void smem_f4_stride(const float4* in, float* out, int stride)
{
    __shared__ float4 s[1024];
    for (int k = threadIdx.x; k < 1024; k += blockDim.x) s[k] = in[blockIdx.x * 1024 + k];
    __syncthreads();
    int lane = threadIdx.x & 31;
    float acc = 0.0f;
    for (int j = 0; j < 64; ++j) {
        float4 v = s[(lane * stride + j + (threadIdx.x >> 5)) & 1023];
        acc += v.x + v.y + v.z + v.w;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
