// validation/typical9: kernels written on 2026-12-01 after every model was set (used to set nothing),
// the teaching kernels of the seed articles and the CUDA literature as a newcomer writes them:
// Harris's reductions (divergent modulo, strided index with bank conflicts, sequential addressing
// with a volatile last warp), the transposes of NVIDIA's blog (32x8 tiles, with and without padding,
// and an XOR swizzle), a byte tile transpose, a batched tiled GEMM over gridDim.z, an Adam step (4
// streams read, 3 written), 2x2 max pooling, a warp argmax per row, a Sobel filter on bytes and a
// tensor-core GEMM on ldmatrix + mma.sync.
#include <cuda_fp16.h>

// ---- 1-3. block reductions (Harris, "Optimizing Parallel Reduction in CUDA") ---------------------
extern "C" __global__ void reduce_interleaved_mod(const float* in, float* out)
{   // #1: interleaved addressing, divergent branch on tid % (2s)
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned k = 1; k < blockDim.x; k *= 2) {
        if (t % (2 * k) == 0) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_interleaved_strided(const float* in, float* out)
{   // #2: strided index, no divergence but shared-memory bank conflicts
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned k = 1; k < blockDim.x; k *= 2) {
        unsigned index = 2 * k * t;
        if (index < blockDim.x) s[index] += s[index + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__device__ void warp_reduce_volatile(volatile float* s, unsigned t)
{
    s[t] += s[t + 32]; s[t] += s[t + 16]; s[t] += s[t + 8];
    s[t] += s[t + 4];  s[t] += s[t + 2];  s[t] += s[t + 1];
}

extern "C" __global__ void reduce_volatile_unroll(const float* in, float* out)
{   // #4: first add during the load (two elements per thread), sequential addressing, last warp unrolled
    __shared__ float s[256];
    unsigned t = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + t;
    s[t] = in[i] + in[i + blockDim.x];
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 32; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t < 32) warp_reduce_volatile(s, t);
    if (t == 0) out[blockIdx.x] = s[0];
}

// ---- 4-7. transposes (NVIDIA blog: TILE_DIM 32, BLOCK_ROWS 8, each thread moves 4 elements) -------
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

extern "C" __global__ void transpose_tile32x8_nopad(const float* in, float* out, int width, int height)
{   // the same without the padding column: 32-way conflicts on the column reads
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_swizzle(const float* in, float* out, int width, int height)
{   // no padding: column c of row r lives at r ^ c, so a column read spreads over the 32 banks
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        int r = threadIdx.y + j;
        tile[r][threadIdx.x ^ r] = in[(y + j) * width + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        int c = threadIdx.y + j;
        out[(y + j) * height + x] = tile[threadIdx.x][c ^ threadIdx.x];
    }
}

extern "C" __global__ void transpose_u8(const unsigned char* in, unsigned char* out, int width, int height)
{   // a byte image through a 32x33 byte tile: 8-bit shared accesses
    __shared__ unsigned char tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// ---- 8. batched tiled GEMM: one matrix product per blockIdx.z ----------------------------------
#define BT 16
extern "C" __global__ void batched_gemm_z(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[BT][BT], Bs[BT][BT];
    const float* a = A + (size_t)blockIdx.z * n * n;
    const float* b = B + (size_t)blockIdx.z * n * n;
    int row = blockIdx.y * BT + threadIdx.y, col = blockIdx.x * BT + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += BT) {
        As[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < BT; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[(size_t)blockIdx.z * n * n + row * n + col] = acc;
}

// ---- 9. one Adam step: parameters, gradients and both moments, in place --------------------------
extern "C" __global__ void adam_step(float* p, const float* g, float* m, float* v, float lr, float b1,
                                     float b2, float eps, float c1, float c2, int n)
{   // c1 = 1 / (1 - b1^t), c2 = 1 / (1 - b2^t)
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float gi = g[i];
        float mi = b1 * m[i] + (1.0f - b1) * gi;
        float vi = b2 * v[i] + (1.0f - b2) * gi * gi;
        m[i] = mi;
        v[i] = vi;
        p[i] -= lr * (mi * c1) / (sqrtf(vi * c2) + eps);
    }
}

// ---- 10. 2x2 max pooling of NCHW planes, one output per thread -----------------------------------
extern "C" __global__ void maxpool2x2(const float* in, float* out, int h, int w)
{
    int ox = blockIdx.x * blockDim.x + threadIdx.x, oy = blockIdx.y, plane = blockIdx.z;
    int ow = w / 2;
    if (ox >= ow) return;
    const float* p = in + (size_t)plane * h * w + (2 * oy) * w + 2 * ox;
    float2 r0 = *reinterpret_cast<const float2*>(p);
    float2 r1 = *reinterpret_cast<const float2*>(p + w);
    out[(size_t)plane * (h / 2) * ow + oy * ow + ox] = fmaxf(fmaxf(r0.x, r0.y), fmaxf(r1.x, r1.y));
}

// ---- 11. argmax of each row by one warp: (value, index) pairs through shuffles --------------------
extern "C" __global__ void argmax_rows_warp(const float* x, int* idx, int rows, int cols)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (warp >= rows) return;
    const float* r = x + (size_t)warp * cols;
    float best = r[lane];
    int at = lane;
    for (int c = lane + 32; c < cols; c += 32)
        if (r[c] > best) { best = r[c]; at = c; }
    for (int o = 16; o > 0; o >>= 1) {
        float ob = __shfl_down_sync(0xffffffffu, best, o);
        int oa = __shfl_down_sync(0xffffffffu, at, o);
        if (ob > best || (ob == best && oa < at)) { best = ob; at = oa; }
    }
    if (lane == 0) idx[warp] = at;
}

// ---- 12. Sobel gradient magnitude of a byte image (borders left 0) ---------------------------------
extern "C" __global__ void sobel_u8(const unsigned char* img, unsigned char* out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { out[y * w + x] = 0; return; }
    const unsigned char* p = img + y * w + x;
    int a = p[-w - 1], b = p[-w], c = p[-w + 1], d = p[-1], f = p[1], g = p[w - 1], hh = p[w], i = p[w + 1];
    int gx = (c + 2 * f + i) - (a + 2 * d + g);
    int gy = (g + 2 * hh + i) - (a + 2 * b + c);
    int m = abs(gx) + abs(gy);
    out[y * w + x] = (unsigned char)(m > 255 ? 255 : m);
}

// ---- 13. tensor-core GEMM: C (f32) = A (f16, row-major) x B (f16, column-major), one 16x8 tile per warp,
// fragments loaded from shared memory with ldmatrix and multiplied with mma.sync.m16n8k16 -------------
extern "C" __global__ void mma_ldmatrix_gemm(const __half* A, const __half* Bt, float* C, int M, int N, int K)
{   // block: 4 warps, a 64 x 8 strip of C; K in steps of 16 through shared tiles (rows padded by 8 halves)
    __shared__ __align__(16) __half As[64][16 + 8];
    __shared__ __align__(16) __half Bs[8][16 + 8];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int row0 = blockIdx.y * 64, col0 = blockIdx.x * 8;
    float c[4] = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int e = threadIdx.x; e < 64 * 2; e += blockDim.x) {  // A: 64 rows x two 16-byte halves
            int r = e >> 1, h = (e & 1) * 8;
            *reinterpret_cast<uint4*>(&As[r][h]) = *reinterpret_cast<const uint4*>(&A[(size_t)(row0 + r) * K + k0 + h]);
        }
        if (threadIdx.x < 16) {  // B^T: 8 columns x two halves
            int r = threadIdx.x >> 1, h = (threadIdx.x & 1) * 8;
            *reinterpret_cast<uint4*>(&Bs[r][h]) = *reinterpret_cast<const uint4*>(&Bt[(size_t)(col0 + r) * K + k0 + h]);
        }
        __syncthreads();
        unsigned a0, a1, a2, a3, b0, b1;
        unsigned pa = (unsigned)__cvta_generic_to_shared(&As[warp * 16 + (lane & 15)][(lane >> 4) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(pa));
        unsigned pb = (unsigned)__cvta_generic_to_shared(&Bs[lane & 7][((lane >> 3) & 1) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(pb));
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        __syncthreads();
    }
    int r = row0 + warp * 16 + (lane >> 2), col = col0 + (lane & 3) * 2;
    *reinterpret_cast<float2*>(&C[(size_t)r * N + col]) = make_float2(c[0], c[1]);
    *reinterpret_cast<float2*>(&C[(size_t)(r + 8) * N + col]) = make_float2(c[2], c[3]);
}
