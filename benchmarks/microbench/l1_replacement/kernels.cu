// l1_replacement: what the Hopper L1 keeps of a sweep larger than it, by load kind and request shape,
// and how many of an SM's own-line re-reads hit when its warps' lines outgrow it. Every CTA works on
// its own region of `lines` 128-byte lines (one CTA an SM, but for `chunk`), `rounds` times; a CTA's
// warps take the region's requests in turn. Each thread writes its sum so no load is dropped.

// 32 lines a request: lane i reads sector 0 of its own line (l1_geometry's sweep), through the
// read-only path (const __restrict__: LDG.E.CONSTANT).
extern "C" __global__ void lanes_nc(const int* __restrict__ buf, int lines, int rounds, int* __restrict__ out)
{
    const int* region = buf + (size_t)blockIdx.x * lines * 32;
    int warps = blockDim.x >> 5, warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int acc = 0;
    for (int r = 0; r < rounds; ++r)
        for (int i = warp * 32 + lane; i < lines; i += 32 * warps) acc += region[(size_t)i * 32];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The same with plain loads (LDG.E: buf may alias out).
extern "C" __global__ void lanes_ld(const int* buf, int lines, int rounds, int* out)
{
    const int* region = buf + (size_t)blockIdx.x * lines * 32;
    int warps = blockDim.x >> 5, warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int acc = 0;
    for (int r = 0; r < rounds; ++r)
        for (int i = warp * 32 + lane; i < lines; i += 32 * warps) acc += region[(size_t)i * 32];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// One line a request (all four sectors: lane i reads word i), plain loads: col_softmax's shape.
extern "C" __global__ void rows_ld(const int* buf, int lines, int rounds, int* out)
{
    const int* region = buf + (size_t)blockIdx.x * lines * 32;
    int warps = blockDim.x >> 5, warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int acc = 0;
    for (int r = 0; r < rounds; ++r)
        for (int j = warp; j < lines; j += warps) acc += region[(size_t)j * 32 + lane];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The same through the read-only path.
extern "C" __global__ void rows_nc(const int* __restrict__ buf, int lines, int rounds, int* __restrict__ out)
{
    const int* region = buf + (size_t)blockIdx.x * lines * 32;
    int warps = blockDim.x >> 5, warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int acc = 0;
    for (int r = 0; r < rounds; ++r)
        for (int j = warp; j < lines; j += warps) acc += region[(size_t)j * 32 + lane];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Each thread re-reads its own line word by word, one load in flight (validation/typical16
// chunk_sum_u1): an SM's live lines are 32 a warp, so k CTAs of 256 threads an SM hold 256 k lines.
extern "C" __global__ void chunk(const int* buf, int rounds, int* out)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int* p = buf + t * 32;
    int acc = 0;
#pragma unroll 1
    for (int k = 0; k < 32 * rounds; ++k) acc += p[k & 31] * (k + 1);
    out[t] = acc;
}

// validation/typical20 col_softmax's reads: CTA b's warp w reads 32 floats of each of `rows` rows
// of a rows x cols matrix (columns 256 b + 32 w ..), one line a request, rows `cols` floats apart.
extern "C" __global__ void cols_ld(const float* x, int rows, int cols, int rounds, float* out)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int r = 0; r < rounds; ++r)
        for (int i = 0; i < rows; ++i) acc += x[(size_t)i * cols + c];
    out[c] = acc;
}
