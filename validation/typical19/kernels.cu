// validation/typical19: whole random sectors, pairs and lines stored into a 256 MB table (written
// 2026-12-04). typical18's random word stores and atomics ran 1.4-1.7x slower on the H200 than
// simgpu's DRAM rows and rates gave: what does a write-back to a random row cost, and per how many
// bytes? Every kernel stores 256 MB (the table four times the L2), so most of it is written back
// during the launch; none of them needs a sector from DRAM except scatter_halves.

// The control: each thread stores one float4 of a contiguous 256 MB array.
extern "C" __global__ void fill_f4(float4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = (float)i;
    out[i] = make_float4(f, f + 1.0f, -f, 2.0f);
}

// Two lanes store a whole random sector (32 B); the sectors are a permutation of the table's.
extern "C" __global__ void scatter_sectors(float4* table, const int* sec, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = (float)i;
    table[(size_t)sec[i >> 1] * 2 + (i & 1)] = make_float4(f, f + 1.0f, -f, 2.0f);
}

// Four lanes store a whole random 64 B pair of sectors.
extern "C" __global__ void scatter_pairs(float4* table, const int* pair, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = (float)i;
    table[(size_t)pair[i >> 2] * 4 + (i & 3)] = make_float4(f, f + 1.0f, -f, 2.0f);
}

// Eight lanes store a whole random 128 B line.
extern "C" __global__ void scatter_lines(float4* table, const int* line, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = (float)i;
    table[(size_t)line[i >> 3] * 8 + (i & 7)] = make_float4(f, f + 1.0f, -f, 2.0f);
}

// One lane stores the first half of a random sector (16 B): the L2 must read the other half.
extern "C" __global__ void scatter_halves(float4* table, const int* sec, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = (float)i;
    table[(size_t)sec[i] * 2] = make_float4(f, f + 1.0f, -f, 2.0f);
}

// A radix sort's scatter of 32 B records: read in order, each record stored to a random place.
extern "C" __global__ void shuffle_sectors(const float4* in, float4* out, const int* sec, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[(size_t)sec[i >> 1] * 2 + (i & 1)] = in[i];
}
