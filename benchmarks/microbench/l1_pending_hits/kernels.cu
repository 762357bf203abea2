// benchmarks/microbench/l1_pending_hits: what a 32-line warp load costs when its sectors are
// still on their way from L2 / DRAM (a "hit" to ncu), against the same load once the data are in
// the L1 (written 2026-12-04). Each thread owns one 128-byte line (32 floats, 4 sectors) and reads
// it 8 words a group, 4 groups; every warp load touches 32 lines, one sector of each.
// (int)(x * 0.0f) is 0 for the finite inputs but the compiler cannot fold it: it makes an address
// wait for a load's data without changing it.

// The groups independent: the 8 loads of every group may issue back to back (typical16 chunk_sum_u8).
extern "C" __global__ void burst8(const float* in, float* out, int n, int pitch)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    const float* p = in + (size_t)t * pitch;
    float s = 0.0f;
#pragma unroll 8
    for (int k = 0; k < 32; ++k) s += p[k] * (float)(k + 1);
    out[t] = s;
}

// Group g + 1's addresses wait for group g's sum: each group is one miss load followed right away by
// seven loads of the same sectors while their fill is on its way.
extern "C" __global__ void serial8(const float* in, float* out, int n, int pitch)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    const float* p = in + (size_t)t * pitch;
    float s = 0.0f;
    int off = 0;
#pragma unroll 1
    for (int g = 0; g < 4; ++g) {
        const float* q = p + 8 * g + off;
        float v0 = q[0], v1 = q[1], v2 = q[2], v3 = q[3], v4 = q[4], v5 = q[5], v6 = q[6], v7 = q[7];
        s += v0 * 1.0f + v1 * 2.0f + v2 * 3.0f + v3 * 4.0f + v4 * 5.0f + v5 * 6.0f + v6 * 7.0f + v7 * 8.0f;
        off = (int)(s * 0.0f);
    }
    out[t] = s;
}

// The miss load alone first; the other seven wait for its data, so they hit sectors already filled.
extern "C" __global__ void lead1(const float* in, float* out, int n, int pitch)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    const float* p = in + (size_t)t * pitch;
    float s = 0.0f;
    int off = 0;
#pragma unroll 1
    for (int g = 0; g < 4; ++g) {
        const float* q = p + 8 * g + off;
        float v0 = q[0];
        const float* r = q + (int)(v0 * 0.0f);
        float v1 = r[1], v2 = r[2], v3 = r[3], v4 = r[4], v5 = r[5], v6 = r[6], v7 = r[7];
        s += v0 * 1.0f + v1 * 2.0f + v2 * 3.0f + v3 * 4.0f + v4 * 5.0f + v5 * 6.0f + v6 * 7.0f + v7 * 8.0f;
        off = (int)(s * 0.0f);
    }
    out[t] = s;
}

// Only the miss loads of lead1 (one word a sector, each waiting for the last group): their cost alone.
extern "C" __global__ void miss_only(const float* in, float* out, int n, int pitch)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    const float* p = in + (size_t)t * pitch;
    float s = 0.0f;
    int off = 0;
#pragma unroll 1
    for (int g = 0; g < 4; ++g) {
        float v0 = p[8 * g + off];
        s += v0 * (float)(8 * g + 1);
        off = (int)(s * 0.0f);
    }
    out[t] = s;
}
