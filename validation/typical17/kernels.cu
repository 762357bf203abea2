// validation/typical17: what global stores cost in kernels that stream from DRAM (written
// 2026-12-04, used to set nothing). The recorded launches that read and store whole arrays ran
// 15-33 % faster in simgpu than on the H200, transposes most, read-only ones within a few %.
// Here the same bytes are read and stored in different patterns, alone and together, at three sizes.

// Each thread reads one float4 and keeps the sum: stores nothing (the test is never true).
extern "C" __global__ void read_f4(const float4* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = in[i];
    float s = v.x + v.y + v.z + v.w;
    if (s == 1234.5f) out[0] = s;
}

// Each thread stores one float4 (no reads).
extern "C" __global__ void fill_f4(float4* out, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = make_float4(v, v + 1.0f, v + 2.0f, v + 3.0f);
}

// Each thread copies one float4.
extern "C" __global__ void copy_f4(const float4* in, float4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

// Each thread copies one float (a warp: one line read, one line stored).
extern "C" __global__ void copy_f1(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2.0f;
}

// Each thread reads one float4 and stores the sum of its halves as a float2 (half the bytes).
extern "C" __global__ void halve_f4(const float4* in, float2* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = in[i];
    out[i] = make_float2(v.x + v.y, v.z + v.w);
}

// 32 x 32 tiles through shared memory, a block of 32 x 8 threads, four rows each: the transpose.
// in is rows x cols, out is cols x rows.
extern "C" __global__ void transpose_tiled(const float* in, float* out, int rows, int cols) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The same tiles, loads, shared memory and barrier, but each tile stored where it was read (a copy):
// the store pattern is the only difference from transpose_tiled.
extern "C" __global__ void copy_tiled(const float* in, float* out, int rows, int cols) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    for (int j = 0; j < 32; j += 8)
        out[(size_t)(y + j) * cols + x] = tile[threadIdx.y + j][threadIdx.x ^ 1] + (float)rows * 0.0f;
}

// transpose_tiled's stores alone: the same lines in the same order, no reads.
extern "C" __global__ void fill_transposed(float* out, int rows, int cols) {
    int x = blockIdx.y * 32 + threadIdx.x;
    int y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(size_t)(y + j) * rows + x] = (float)(x + j);
}

// transpose_tiled's loads alone: a tile's 32 rows, nothing stored.
extern "C" __global__ void read_tiled(const float* in, float* out, int rows, int cols) {
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    float s = 0.0f;
    for (int j = 0; j < 32; j += 8) s += in[(size_t)(y + j) * cols + x];
    if (s == 1234.5f) out[0] = (float)rows;
}
