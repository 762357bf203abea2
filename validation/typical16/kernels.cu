// validation/typical16: each thread walks its own chunk or row of global memory (written 2026-12-04,
// used to set nothing). A warp's load then touches one line per lane, and the same lane reads the
// line again a few loads later: whether it still hits depends on how far the SM's other warps got
// in between (simgpu/timing/l1_order.py), and the load's cost on how many lines it looks up.

// Each thread sums its own 32 floats (128 B), one load in flight at a time.
extern "C" __global__ void chunk_sum_u1(const float* in, float* out, int n_threads) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_threads) return;
    const float* p = in + (size_t)t * 32;
    float s = 0.0f;
#pragma unroll 1
    for (int k = 0; k < 32; ++k) s += p[k] * (float)(k + 1);
    out[t] = s;
}

// The same, eight loads before the adds that wait for them.
extern "C" __global__ void chunk_sum_u8(const float* in, float* out, int n_threads) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_threads) return;
    const float* p = in + (size_t)t * 32;
    float s = 0.0f;
#pragma unroll 8
    for (int k = 0; k < 32; ++k) s += p[k] * (float)(k + 1);
    out[t] = s;
}

// The same 128 B per thread read as eight float4 loads.
extern "C" __global__ void chunk_sum_f4(const float4* in, float* out, int n_threads) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_threads) return;
    const float4* p = in + (size_t)t * 8;
    float s = 0.0f;
#pragma unroll 4
    for (int k = 0; k < 8; ++k) {
        float4 v = p[k];
        s += v.x * (float)(4 * k + 1) + v.y * (float)(4 * k + 2) + v.z * (float)(4 * k + 3) + v.w * (float)(4 * k + 4);
    }
    out[t] = s;
}

// 16 floats (64 B) per thread: two lanes share each line.
extern "C" __global__ void chunk_sum_64b(const float* in, float* out, int n_threads) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_threads) return;
    const float* p = in + (size_t)t * 16;
    float s = 0.0f;
#pragma unroll 4
    for (int k = 0; k < 16; ++k) s += p[k] * (float)(k + 1);
    out[t] = s;
}

// 64 ints (256 B, two lines) per thread: their largest.
extern "C" __global__ void chunk_max_256b(const int* in, int* out, int n_threads) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_threads) return;
    const int* p = in + (size_t)t * 64;
    int m = p[0];
#pragma unroll 4
    for (int k = 1; k < 64; ++k) m = max(m, p[k]);
    out[t] = m;
}

// Naive GEMV, a thread per row: y[r] = A[r, :] . x over 64 columns (x read by every lane alike).
extern "C" __global__ void row_dot_naive(const float* A, const float* x, float* y, int rows) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* a = A + (size_t)r * 64;
    float s = 0.0f;
    for (int j = 0; j < 64; ++j) s += a[j] * x[j];
    y[r] = s;
}

// Each thread's mean and variance of its own 32 floats, in two passes over them (the second pass
// re-reads what the first read, after the first pass's sum is known).
extern "C" __global__ void chunk_meanvar(const float* in, float2* out, int n_threads) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_threads) return;
    const float* p = in + (size_t)t * 32;
    float s = 0.0f;
#pragma unroll 4
    for (int k = 0; k < 32; ++k) s += p[k];
    float mean = s / 32.0f, q = 0.0f;
#pragma unroll 4
    for (int k = 0; k < 32; ++k) {
        float d = p[k] - mean;
        q += d * d;
    }
    out[t] = make_float2(mean, q / 32.0f);
}

// Rows 40 floats (160 B) apart, each thread summing the first 32 of its row: a row straddles lines.
extern "C" __global__ void pitched_row_sum(const float* in, float* out, int n_threads) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_threads) return;
    const float* p = in + (size_t)t * 40;
    float s = 0.0f;
#pragma unroll 4
    for (int k = 0; k < 32; ++k) s += p[k];
    out[t] = s;
}

// The control: the same sums with the chunks interleaved (element k of thread t at k * n + t), so
// every warp load is one coalesced 128-byte line.
extern "C" __global__ void interleaved_sum(const float* in, float* out, int n_threads) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_threads) return;
    float s = 0.0f;
#pragma unroll 4
    for (int k = 0; k < 32; ++k) s += in[(size_t)k * n_threads + t] * (float)(k + 1);
    out[t] = s;
}
