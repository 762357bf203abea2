// validation/typical23: latency-bound loops in registers and shared memory (written 2026-12-07,
// predicted by simgpu before any GPU ran them; README.md). How many independent chains ptxas
// overlaps within its register count decides these kernels' times.

extern "C" __global__ void nbody_soa(const float* px, const float* py, const float* pz, const float* pm,
                                     float* ax_out, int n)
{   // all pairs, bodies as four arrays, tiles of 128 in shared memory; one warp per sub-partition
    __shared__ float sx[128], sy[128], sz[128], sm[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = px[i], y = py[i], z = pz[i], a = 0.f;
    for (int t = 0; t < n; t += 128) {
        sx[threadIdx.x] = px[t + threadIdx.x]; sy[threadIdx.x] = py[t + threadIdx.x];
        sz[threadIdx.x] = pz[t + threadIdx.x]; sm[threadIdx.x] = pm[t + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 128; ++j) {
            float dx = sx[j] - x, dy = sy[j] - y, dz = sz[j] - z;
            float r2 = dx * dx + dy * dy + dz * dz + 1e-3f;
            float inv = rsqrtf(r2);
            a += sm[j] * inv * inv * inv * (dx + dy + dz);
        }
        __syncthreads();
    }
    ax_out[i] = a;
}

extern "C" __global__ void pair_min_dist(const float2* pts, float* out, int n)
{   // each point's nearest other point, tiles of 256 points in shared memory
    __shared__ float2 tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 p = pts[i];
    float best = 3.0e38f;
    for (int t = 0; t < n; t += 256) {
        tile[threadIdx.x] = pts[t + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 256; ++j) {
            float dx = tile[j].x - p.x, dy = tile[j].y - p.y;
            float d = sqrtf(dx * dx + dy * dy);
            if (t + j != i) best = fminf(best, d);
        }
        __syncthreads();
    }
    out[i] = best;
}

__constant__ float conv_w[17] = {0.02f, 0.03f, 0.04f, 0.05f, 0.06f, 0.07f, 0.08f, 0.09f, 0.10f, 0.09f, 0.08f, 0.07f, 0.06f, 0.05f, 0.04f, 0.03f, 0.02f};

extern "C" __global__ void conv1d_r8(const float* in, float* out, int n)
{   // 17-tap filter, weights in constant memory, input tile plus halo in shared memory
    __shared__ float s[256 + 16];
    int i = blockIdx.x * 256 + threadIdx.x;
    s[threadIdx.x + 8] = in[i];
    if (threadIdx.x < 8) {
        s[threadIdx.x] = i >= 8 ? in[i - 8] : 0.f;
        s[threadIdx.x + 264] = i + 256 < n ? in[i + 256] : 0.f;
    }
    __syncthreads();
    float acc = 0.f;
#pragma unroll
    for (int k = 0; k < 17; ++k) acc += conv_w[k] * s[threadIdx.x + k];
    out[i] = acc;
}

extern "C" __global__ void horner_1pt(const float* coef, const float* xs, float* out, int deg)
{   // one dependent chain a thread: p = p * x + c[k], coefficients from shared memory
    __shared__ float c[256];
    for (int k = threadIdx.x; k <= deg; k += blockDim.x) c[k] = coef[k];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = xs[i], p = 0.f;
    for (int k = 0; k <= deg; ++k) p = p * x + c[k];
    out[i] = p;
}

extern "C" __global__ void horner_4pt(const float* coef, const float* xs, float* out, int deg)
{   // four independent chains a thread (four points), the same coefficients
    __shared__ float c[256];
    for (int k = threadIdx.x; k <= deg; k += blockDim.x) c[k] = coef[k];
    __syncthreads();
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    float x0 = xs[i], x1 = xs[i + 1], x2 = xs[i + 2], x3 = xs[i + 3];
    float p0 = 0.f, p1 = 0.f, p2 = 0.f, p3 = 0.f;
    for (int k = 0; k <= deg; ++k) {
        float ck = c[k];
        p0 = p0 * x0 + ck; p1 = p1 * x1 + ck; p2 = p2 * x2 + ck; p3 = p3 * x3 + ck;
    }
    out[i] = p0; out[i + 1] = p1; out[i + 2] = p2; out[i + 3] = p3;
}

extern "C" __global__ void black_scholes(const float* S, const float* K, const float* T, float* call,
                                         float* put, float r, float v, int n)
{   // the classic option pricer: logf, sqrtf, expf and the normal CDF (erfcf) per option
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = S[i], k = K[i], t = T[i];
    float sq = sqrtf(t);
    float d1 = (logf(s / k) + (r + 0.5f * v * v) * t) / (v * sq);
    float d2 = d1 - v * sq;
    float n1 = 0.5f * erfcf(-d1 * 0.70710678f), n2 = 0.5f * erfcf(-d2 * 0.70710678f);
    float e = expf(-r * t);
    call[i] = s * n1 - k * e * n2;
    put[i] = k * e * (1.f - n2) - s * (1.f - n1);
}

extern "C" __global__ void xorshift_hist(const unsigned* seeds, unsigned* hist, int steps)
{   // an integer dependent chain a thread, then a shared-memory histogram of 64 bins
    __shared__ unsigned h[64];
    if (threadIdx.x < 64) h[threadIdx.x] = 0;
    __syncthreads();
    unsigned s = seeds[blockIdx.x * blockDim.x + threadIdx.x] | 1u;
    for (int k = 0; k < steps; ++k) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        atomicAdd(&h[s & 63], 1u);
    }
    __syncthreads();
    if (threadIdx.x < 64) atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
}

extern "C" __global__ void tile_bilinear(const float* a, float* out)
{   // a 32 x 32 tile (padded) per block; each thread sums tile[j][t] * tile[t][j] over j
    __shared__ float t[32][33];
    const float* src = a + (size_t)blockIdx.x * 1024;
    for (int k = threadIdx.x; k < 1024; k += blockDim.x) t[k >> 5][k & 31] = src[k];
    __syncthreads();
    int r = threadIdx.x & 31;
    float s = 0.f;
    for (int j = 0; j < 32; ++j) s += t[j][r] * t[r][j];
    if (threadIdx.x < 32) out[blockIdx.x * 32 + r] = s;
}
