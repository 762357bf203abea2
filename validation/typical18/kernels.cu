// validation/typical18: random accesses to a table four times the L2 (written 2026-12-04, used to set
// nothing). typical15's atomic_rand_big (random atomics over 128 MB) took 196 us on the H200 where
// simgpu, which moves its 294 MB of DRAM traffic at the streaming rates, gave 67: how fast does
// HBM serve sectors and lines at random addresses, read, written and updated?

// Each thread reads one random word of the table (a sector, and its pair, from DRAM).
extern "C" __global__ void gather_u32(const unsigned* table, const int* idx, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = table[idx[i]];
}

// Each thread reads one random float4 (16 B).
extern "C" __global__ void gather_f4(const float4* table, const int* idx, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = table[idx[i]];
    out[i] = v.x + v.y + v.z + v.w;
}

// Each warp reads eight random whole lines (128 B), one after the other (loads independent).
extern "C" __global__ void gather_lines(const float* table, const int* line_idx, float* out, int n_warps) {
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (w >= n_warps) return;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; ++k) s += table[(size_t)line_idx[w * 8 + k] * 32 + lane];
    out[w * 32 + lane] = s;
}

// Each thread adds one to a random word (RED.ADD at the L2: the sector from DRAM, written back).
extern "C" __global__ void atomic_rand(unsigned* table, const int* idx, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&table[idx[i]], 1u);
}

// Each thread stores one random word (part of a sector: read from DRAM when written back).
extern "C" __global__ void scatter_u32(unsigned* table, const int* idx, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) table[idx[i]] = (unsigned)i;
}

// The control: the same number of threads each reading one float4 of a contiguous array.
extern "C" __global__ void stream_f4(const float4* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = in[i];
    out[i] = v.x + v.y + v.z + v.w;
}
