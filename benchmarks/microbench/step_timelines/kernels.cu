// Two launches simgpu runs too fast (validation/typical5 layernorm_welford_warp -40 %, typical3
// nbody_forces -48 %), as those suites wrote them, plus lane 0 of each warp writing clock64() at
// each step of its main loop: where does a warp's time go on the H200, step by step?
// stamps[w * STRIDE + k]: warp w's k-th stamp; sm[w]: its SM.
#define STRIDE 32

__device__ __forceinline__ unsigned smid() { unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }
__device__ __forceinline__ long long stamp() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)); return t; }

extern "C" __global__ void layernorm_welford_warp_t(const float4* x, const float* gamma, float* y, int cols4,
                                                    long long* stamps, unsigned* sm)
{   // stamps: start, after each step of the Welford loop (cols4 / 32 of them), after the shuffles, end
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x & 31;
    long long* st = stamps + (size_t)row * STRIDE;
    int k = 0;
    if (lane == 0) { st[k] = stamp(); sm[row] = smid(); }
    ++k;
    const float4* r = x + (size_t)row * cols4;
    float n = 0.f, mean = 0.f, m2 = 0.f;
    for (int c = lane; c < cols4; c += 32) {
        float4 v = r[c];
        float vs[4] = {v.x, v.y, v.z, v.w};
        for (int j = 0; j < 4; ++j) {
            n += 1.f;
            float d = vs[j] - mean;
            mean += d / n;
            m2 += d * (vs[j] - mean);
        }
        if (lane == 0) st[k] = stamp();
        ++k;
    }
    for (int o = 16; o; o >>= 1) {
        float n2 = __shfl_xor_sync(0xffffffff, n, o), mean2 = __shfl_xor_sync(0xffffffff, mean, o);
        float m22 = __shfl_xor_sync(0xffffffff, m2, o);
        float nt = n + n2, d = mean2 - mean;
        mean += d * n2 / nt;
        m2 += m22 + d * d * n * n2 / nt;
        n = nt;
    }
    float rstd = rsqrtf(m2 / n + 1e-5f);
    if (lane == 0) st[k] = stamp();
    ++k;
    float* out = y + (size_t)row * cols4 * 4;
    for (int c = lane; c < cols4; c += 32) {
        float4 v = r[c];
        out[4 * c + 0] = (v.x - mean) * rstd * gamma[4 * c + 0];
        out[4 * c + 1] = (v.y - mean) * rstd * gamma[4 * c + 1];
        out[4 * c + 2] = (v.z - mean) * rstd * gamma[4 * c + 2];
        out[4 * c + 3] = (v.w - mean) * rstd * gamma[4 * c + 3];
    }
    if (lane == 0) st[k] = stamp();
}

extern "C" __global__ void nbody_forces_t(const float4* pos, float4* acc, int n, long long* stamps, unsigned* sm)
{   // stamps: start, after each tile's first barrier (n / 128 of them), end
    __shared__ float4 tile[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x, w = i >> 5;
    long long* st = stamps + (size_t)w * STRIDE;
    int k = 0;
    if ((threadIdx.x & 31) == 0) { st[k] = stamp(); sm[w] = smid(); }
    ++k;
    float4 p = pos[i];
    float ax = 0.f, ay = 0.f, az = 0.f;
    for (int t = 0; t < n / 128; ++t) {
        tile[threadIdx.x] = pos[t * 128 + threadIdx.x];
        __syncthreads();
        if ((threadIdx.x & 31) == 0) st[k] = stamp();
        ++k;
        for (int j = 0; j < 128; ++j) {
            float4 q = tile[j];
            float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
            float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-2f);
            float s = q.w * inv * inv * inv;
            ax += dx * s; ay += dy * s; az += dz * s;
        }
        __syncthreads();
    }
    acc[i] = make_float4(ax, ay, az, 0.f);
    if ((threadIdx.x & 31) == 0) st[k] = stamp();
}
