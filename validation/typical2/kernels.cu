// A second batch of kernels of the kinds users bring (validation/typical has the first): local
// arrays, dynamic shared memory, 3-D launches, partial warps, 1/2/8/16-byte types, warp
// intrinsics, read-modify-write, scatters, partial-sector stores, loops with run-time trip counts.
// specs.py launches them; run.sh measures them on an H200.

extern "C" __global__ void local_array_pick(const int* idx, const float* in, float* out, int n)
{   // a per-thread array indexed by data: ptxas keeps it in local memory
    float arr[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int k = 0; k < 16; ++k) arr[k] = in[i] * (k + 1);
    out[i] = arr[idx[i] & 15] + arr[(idx[i] >> 4) & 15];
}

extern "C" __global__ void dyn_shared_reverse(const float* in, float* out)
{   // reverse each block's slice through dynamic shared memory
    extern __shared__ float s[];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    s[t] = in[base + t];
    __syncthreads();
    out[base + t] = s[blockDim.x - 1 - t];
}

extern "C" __global__ void stencil3d(const float* in, float* out, int nx, int ny, int nz)
{   // 3-D grid of 8x8x4 blocks, 7-point stencil, borders copied
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    int i = (z * ny + y) * nx + x;
    float v = in[i];
    if (x > 0 && y > 0 && z > 0 && x < nx - 1 && y < ny - 1 && z < nz - 1)
        v = 0.4f * v + 0.1f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - nx * ny] + in[i + nx * ny]);
    out[i] = v;
}

extern "C" __global__ void add_partial_warps(const float* a, const float* b, float* c, int n)
{   // blocks of 48 threads: every second warp is half empty
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void uchar4_brighten(const uchar4* in, uchar4* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uchar4 p = in[i];
        out[i] = make_uchar4(min(p.x + 16, 255), min(p.y + 16, 255), min(p.z + 16, 255), p.w);
    }
}

extern "C" __global__ void short_axpy(const short* x, short* y, short a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = (short)(a * x[i] + y[i]);
}

extern "C" __global__ void double2_add(const double2* a, const double2* b, double2* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double2 p = a[i], q = b[i];
        c[i] = make_double2(p.x + q.x, p.y + q.y);
    }
}

extern "C" __global__ void warp_sum_redux(const int* in, int* out)
{   // __reduce_add_sync: one sum per warp
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int s = __reduce_add_sync(0xffffffffu, v);
    if ((threadIdx.x & 31) == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) >> 5] = s;
}

extern "C" __global__ void segmented_max16(const float* in, float* out)
{   // a max over each 16 lanes with shuffle width 16
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 8; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o, 16));
    if ((threadIdx.x & 15) == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) >> 4] = v;
}

extern "C" __global__ void block_compact(const int* in, int* out, int* counts)
{   // keep the positive values of each block of 256, in order, with ballots and a shared scan
    __shared__ int warp_base[8];
    int t = threadIdx.x, w = t >> 5, l = t & 31;
    int v = in[blockIdx.x * 256 + t];
    unsigned keep = __ballot_sync(0xffffffffu, v > 0);
    if (l == 0) warp_base[w] = __popc(keep);
    __syncthreads();
    if (t == 0) {
        int acc = 0;
        for (int k = 0; k < 8; ++k) { int c = warp_base[k]; warp_base[k] = acc; acc += c; }
        counts[blockIdx.x] = acc;
    }
    __syncthreads();
    if (v > 0) out[blockIdx.x * 256 + warp_base[w] + __popc(keep & ((1u << l) - 1))] = v;
}

extern "C" __global__ void rows_runtime_trip(const float* a, float* out, int m)
{   // one thread per row of m floats, m known only at run time (every lane the same trip count)
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int j = 0; j < m; ++j) s += a[r * m + j];
    out[r] = s;
}

extern "C" __global__ void conv3x3_global(const float* in, const float* w, float* out, int n)
{   // naive 3x3 convolution straight from global memory (neighbours hit in L1)
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1) return;
    float acc = 0.f;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) acc += w[(dy + 1) * 3 + dx + 1] * in[(y + dy) * n + x + dx];
    out[y * n + x] = acc;
}

extern "C" __global__ void gather_int64(const long long* idx, const float* src, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = src[idx[i]];
}

extern "C" __global__ void scatter_perm(const int* perm, const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[perm[i]] = in[i];
}

extern "C" __global__ void fill_float4(float4* out, float v, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) out[i] = make_float4(v, v, v, v);
}

extern "C" __global__ void store_stride2(const float* in, float* out, int n)
{   // every other float written: half of each sector
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[2 * i] = in[i];
}

extern "C" __global__ void scale_in_place(float* a, float s, int n)
{   // read-modify-write: the store goes to a line the load just brought into L1
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * s;
}

extern "C" __global__ void transpose64(const float* in, float* out, int n)
{   // 64x64 tiles, block 64x4, 16 rows per thread, padded shared tile
    __shared__ float t[64][65];
    int x = blockIdx.x * 64 + threadIdx.x, y = blockIdx.y * 64 + threadIdx.y;
    for (int j = 0; j < 64; j += 4) t[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 64 + threadIdx.x;
    y = blockIdx.x * 64 + threadIdx.y;
    for (int j = 0; j < 64; j += 4) out[(y + j) * n + x] = t[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void matvec_ldg4(const float* __restrict__ A, const float* __restrict__ x, float* y, int n)
{   // each thread 4 rows, __ldg loads
    int r = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    float s0 = 0.f, s1 = 0.f, s2 = 0.f, s3 = 0.f;
    for (int j = 0; j < n; ++j) {
        float xv = __ldg(&x[j]);
        s0 += __ldg(&A[(size_t)(r + 0) * n + j]) * xv;
        s1 += __ldg(&A[(size_t)(r + 1) * n + j]) * xv;
        s2 += __ldg(&A[(size_t)(r + 2) * n + j]) * xv;
        s3 += __ldg(&A[(size_t)(r + 3) * n + j]) * xv;
    }
    y[r] = s0; y[r + 1] = s1; y[r + 2] = s2; y[r + 3] = s3;
}

extern "C" __global__ void shared_hist_int(const int* keys, int* hist, int n)
{   // 1,024 integer bins in shared memory, then added to global bins
    __shared__ int h[1024];
    for (int b = threadIdx.x; b < 1024; b += blockDim.x) h[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[keys[i] & 1023], 1);
    __syncthreads();
    for (int b = threadIdx.x; b < 1024; b += blockDim.x)
        if (h[b]) atomicAdd(&hist[b], h[b]);
}
