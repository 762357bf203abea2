// One warp per SM re-reading sectors whose L1 fill is still on its way (validation/typical13's
// fa_minimal: each lane walks its own 128-B row one float at a time, so 8 back-to-back warp loads
// ask for the same 32 lines and sectors). How many of those repeated misses reach the L2?

template <int WIDTH>
__device__ void walk_rows(const float* a, float* out, int tiles)
{   // lane l reads WIDTH floats of row l of each 32 x 32 tile, back to back (independent loads)
    int lane = threadIdx.x;
    const float* base = a + (size_t)blockIdx.x * tiles * 1024;
    float s = 0.0f;
    for (int t = 0; t < tiles; t++) {
        const float* row = base + (t * 32 + lane) * 32;
        float v[WIDTH];
#pragma unroll
        for (int x = 0; x < WIDTH; x++) v[x] = row[x];
#pragma unroll
        for (int x = 0; x < WIDTH; x++) s += v[x];
    }
    out[blockIdx.x * 32 + lane] = s;
}

extern "C" __global__ void rows_walk8(const float* a, float* out, int tiles) { walk_rows<8>(a, out, tiles); }
extern "C" __global__ void rows_walk32(const float* a, float* out, int tiles) { walk_rows<32>(a, out, tiles); }

extern "C" __global__ void line_repeat8(const float* a, float* out, int tiles, int zero)
{   // the warp reads one 128-B line 8 times back to back (`zero` keeps the compiler from merging them)
    int lane = threadIdx.x;
    const float* base = a + (size_t)blockIdx.x * tiles * 32;
    float s = 0.0f;
    for (int t = 0; t < tiles; t++) {
        float v[8];
#pragma unroll
        for (int r = 0; r < 8; r++) v[r] = base[t * 32 + lane + r * zero];
#pragma unroll
        for (int r = 0; r < 8; r++) s += v[r];
    }
    out[blockIdx.x * 32 + lane] = s;
}
