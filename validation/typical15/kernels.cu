// validation/typical15: kernels people write (fifteenth batch, 2026-12-03), used to set nothing.
// The theme: data larger than the caches -- working sets past the 60 MB L2 and past an L1 that a
// large shared-memory carve-out leaves small -- and sub-word shared-memory accesses.

// Each CTA adds its own 4 KB chunk to the chunk half the grid away: every chunk is read twice, the
// second time by a CTA launched half the grid later. Launched at 32 MB (the reuse fits the L2) and
// 96 MB (48 MB of other data pass through the L2 in between).
extern "C" __global__ void reuse_half_shift(const float4* in, float* out, int chunks) {
    int b = blockIdx.x;
    int other = (b + chunks / 2) % chunks;
    float4 u = in[(size_t)b * blockDim.x + threadIdx.x];
    float4 v = in[(size_t)other * blockDim.x + threadIdx.x];
    out[(size_t)b * blockDim.x + threadIdx.x] = (u.x + v.x) + (u.y + v.y) + (u.z + v.z) + (u.w + v.w);
}

// out[i] = in[i] + in[n - 1 - i]: the second load walks the array backwards (a warp's lanes read
// descending addresses), and each element is read by two threads the whole array apart at the ends
// and next to each other in the middle.
extern "C" __global__ void mirror_add(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + in[n - 1 - i];
}

// y = A x with a warp per row of a 128 MB matrix, float4 loads; x (16 KB) is read by every warp.
extern "C" __global__ void gemv_big_rows(const float4* A, const float4* x, float* y, int rows, int cols4) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (warp >= rows) return;
    const float4* row = A + (size_t)warp * cols4;
    float s = 0.0f;
    for (int c = lane; c < cols4; c += 32) {
        float4 a = row[c];
        float4 v = x[c];
        s += a.x * v.x + a.y * v.y + a.z * v.z + a.w * v.w;
    }
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) y[warp] = s;
}

// Tiled transpose (32 x 33 shared tile) of an 8192 x 4096 float matrix: 128 MB in, 128 MB out, so
// dirty output lines leave the L2 during the kernel.
extern "C" __global__ void transpose_big_tiled(const float* in, float* out, int rows, int cols) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += 8) tile[threadIdx.y + k][threadIdx.x] = in[(size_t)(y + k) * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += 8) out[(size_t)(y + k) * rows + x] = tile[threadIdx.x][threadIdx.y + k];
}

// A counting hash table far larger than the L2: 4M increments at hashed slots of a 128 MB table.
extern "C" __global__ void atomic_rand_big(const unsigned* keys, unsigned* table, int n, unsigned mask) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned h = keys[i] * 2654435761u;
    h ^= h >> 15;
    atomicAdd(&table[h & mask], 1u);
}

// Scatter one byte per thread through a random permutation: every store writes 1 byte of a sector.
extern "C" __global__ void byte_scatter_perm(const unsigned char* in, const int* perm, unsigned char* out,
                                             int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[perm[i]] = in[i];
}

// One CTA an SM with 160 KB of dynamic shared memory (the L1 keeps what the carve-out leaves) that
// re-reads an 80 KB lookup table four times; the shared buffer holds the per-thread partial sums.
extern "C" __global__ void carveout_reread(const float* table, float* out, int table_len) {
    extern __shared__ float buf[];  // 40,960 floats
    float s = 0.0f;
    for (int pass = 0; pass < 4; ++pass)
        for (int j = threadIdx.x; j < table_len; j += blockDim.x) s += table[j] * (float)(pass + 1);
    for (int j = threadIdx.x; j < 40960; j += blockDim.x) buf[j] = s;
    __syncthreads();
    float t = 0.0f;
    for (int k = 0; k < 80; ++k) t += buf[(threadIdx.x * 80 + k) % 40960];
    out[blockIdx.x * blockDim.x + threadIdx.x] = t;
}

// 8-bit image transpose through a 64 x 64 byte tile in shared memory: four lanes share a bank word
// on the reads along a row, one lane a word on the column reads.
extern "C" __global__ void smem_u8_transpose(const unsigned char* in, unsigned char* out, int w, int h) {
    __shared__ unsigned char tile[64][64];
    int tx = threadIdx.x, ty = threadIdx.y;  // 64 x 4
    int x = blockIdx.x * 64 + tx;
    for (int k = 0; k < 64; k += 4) tile[ty + k][tx] = in[(size_t)(blockIdx.y * 64 + ty + k) * w + x];
    __syncthreads();
    x = blockIdx.y * 64 + tx;
    for (int k = 0; k < 64; k += 4) out[(size_t)(blockIdx.x * 64 + ty + k) * h + x] = tile[tx][ty + k];
}

// A 16-bit lookup table in shared memory read at index 3 * i: lanes two bytes apart share a word.
extern "C" __global__ void smem_u16_lut(const unsigned short* lut, const int* idx, float* out, int n) {
    __shared__ unsigned short s[3072];
    for (int j = threadIdx.x; j < 3072; j += blockDim.x) s[j] = lut[j];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = idx[i];
    out[i] = (float)s[(3 * k) % 3072] + 0.5f * (float)s[(3 * k + 1) % 3072];
}

// Shared-memory double-precision histogram: atomicAdd(double) on 64 shared bins, then one global
// double atomicAdd per bin per CTA.
extern "C" __global__ void smem_double_atomic(const float* x, const int* bin, double* hist, int n) {
    __shared__ double h[64];
    if (threadIdx.x < 64) h[threadIdx.x] = 0.0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[bin[i] & 63], (double)x[i]);
    __syncthreads();
    if (threadIdx.x < 64) atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
}

// Each thread sums its own contiguous run of 32 floats (128 bytes): every load of the loop touches
// 32 lines, and a line is read again by the same lane in the next 7 loads. 64 warps an SM hold
// 256 KB of lines, more than the L1.
extern "C" __global__ void thread_chunk_sum(const float* in, float* out, int n_threads) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_threads) return;
    const float* p = in + (size_t)t * 32;
    float s = 0.0f;
#pragma unroll 4
    for (int k = 0; k < 32; ++k) s += p[k] * (float)(k + 1);
    out[t] = s;
}
