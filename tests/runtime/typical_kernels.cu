extern "C" __global__ void softmax_rows(const float* __restrict__ x, float* y, int n)
{   // one block per row, blockDim 128, shared reduction
    __shared__ float red[128];
    const float* row = x + blockIdx.x * n;
    float m = -1e30f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) m = fmaxf(m, row[i]);
    red[threadIdx.x] = m; __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) { if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]); __syncthreads(); }
    m = red[0]; __syncthreads();
    float sum = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) sum += __expf(row[i] - m);
    red[threadIdx.x] = sum; __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) { if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s]; __syncthreads(); }
    sum = red[0];
    for (int i = threadIdx.x; i < n; i += blockDim.x) y[blockIdx.x * n + i] = __expf(row[i] - m) / sum;
}

extern "C" __global__ void warp_scan(const int* __restrict__ in, int* out)
{
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 1; o < 32; o <<= 1) { int u = __shfl_up_sync(0xffffffff, v, o); if ((threadIdx.x & 31) >= o) v += u; }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}


extern "C" __global__ void dp4a_dot(const int* __restrict__ a, const int* __restrict__ b, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __dp4a(a[i], b[i], 0);
}

extern "C" __global__ void double_stencil(const double* __restrict__ in, double* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (i < n - 1) out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
}

extern "C" __global__ void bitonic_shared(int* data)
{   // sort 256 ints in one block
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = data[t]; __syncthreads();
    for (int k = 2; k <= 256; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            int ixj = t ^ j;
            if (ixj > t) {
                bool up = (t & k) == 0;
                if ((s[t] > s[ixj]) == up) { int tmp = s[t]; s[t] = s[ixj]; s[ixj] = tmp; }
            }
            __syncthreads();
        }
    data[t] = s[t];
}

extern "C" __global__ void conv2d_3x3(const float* __restrict__ in, const float* __restrict__ w, float* out, int H, int W)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= W - 1 || y >= H - 1) return;
    float acc = 0.f;
#pragma unroll
    for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
        for (int dx = -1; dx <= 1; ++dx) acc += w[(dy + 1) * 3 + dx + 1] * in[(y + dy) * W + x + dx];
    out[y * W + x] = acc;
}

extern "C" __global__ void compact(const float* __restrict__ in, float* out, int* count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0.5f) { int k = atomicAdd(count, 1); out[k] = in[i]; }
}

extern "C" __global__ void char_count(const unsigned char* __restrict__ s, unsigned int* hist, int n)
{
    __shared__ unsigned int h[256];
    h[threadIdx.x] = 0; __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&h[s[i]], 1u);
    __syncthreads();
    atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
}
