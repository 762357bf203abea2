// validation/typical21: kernels written on 2026-12-06 after every model was set (used to set nothing):
// a paged-attention decode step (block table, online softmax), a lower-triangular solve in one CTA,
// diagonal sums of a batch of matrices, a bf16x2 GELU, a channel shuffle with run-time divisions,
// a double-precision Horner polynomial, a sampled dense-dense product over CSR rows, a 32 x 32 bit
// matrix transpose by ballots, sums of sorted keys' segments with warp shuffles and atomics, and
// int4 quantisation that packs two values a byte.
#include <cuda_bf16.h>

// ---- 1. paged attention, one decode step: a warp per (sequence, head), 128 dims, 16-token pages --
// K and V pages are [page][token 16][head][dim 128] floats; block_table[s * max_pages + p] names the
// physical page of sequence s's p-th 16 tokens; seq_len[s] tokens are attended to.
extern "C" __global__ void paged_attn_decode(const float* q, const float* kcache, const float* vcache,
                                             const int* block_table, const int* seq_len, float* out,
                                             int heads, int max_pages, float scale)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    int s = warp / heads, h = warp % heads;
    const float4 qv = reinterpret_cast<const float4*>(q + (size_t)warp * 128)[lane];
    float m = -INFINITY, l = 0.f;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    int n = seq_len[s];
    for (int t = 0; t < n; ++t) {
        int page = block_table[s * max_pages + (t >> 4)];
        size_t row = (((size_t)page * 16 + (t & 15)) * heads + h) * 128;
        float4 k = reinterpret_cast<const float4*>(kcache + row)[lane];
        float d = qv.x * k.x + qv.y * k.y + qv.z * k.z + qv.w * k.w;
        for (int o = 16; o > 0; o >>= 1) d += __shfl_xor_sync(0xffffffffu, d, o);
        d *= scale;
        float mn = fmaxf(m, d), c = __expf(m - mn), p = __expf(d - mn);
        float4 v = reinterpret_cast<const float4*>(vcache + row)[lane];
        acc.x = acc.x * c + p * v.x; acc.y = acc.y * c + p * v.y;
        acc.z = acc.z * c + p * v.z; acc.w = acc.w * c + p * v.w;
        l = l * c + p;
        m = mn;
    }
    float r = 1.f / l;
    reinterpret_cast<float4*>(out + (size_t)warp * 128)[lane] = make_float4(acc.x * r, acc.y * r, acc.z * r, acc.w * r);
}

// ---- 2. lower-triangular solve L x = b, one CTA, L column-major: a column per step, a barrier each --
extern "C" __global__ void trsv_lower_col(const float* L, const float* b, float* x, int n)
{
    extern __shared__ float rhs[];
    for (int i = threadIdx.x; i < n; i += blockDim.x) rhs[i] = b[i];
    __syncthreads();
    for (int j = 0; j < n; ++j) {
        float xj = rhs[j] / L[(size_t)j * n + j];
        for (int i = j + 1 + threadIdx.x; i < n; i += blockDim.x) rhs[i] -= L[(size_t)j * n + i] * xj;
        if (threadIdx.x == 0) x[j] = xj;
        __syncthreads();
    }
}

// ---- 3. diagonal sums of a batch of n x n matrices: a warp per matrix, lane i reads a[i][i] ------
extern "C" __global__ void diag_sum_batched(const float* a, float* out, int n)
{
    int mat = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    const float* m = a + (size_t)mat * n * n;
    float s = 0.f;
    for (int i = lane; i < n; i += 32) s += m[(size_t)i * (n + 1)];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) out[mat] = s;
}

// ---- 4. GELU (tanh form, written as x * sigmoid(2u)) on bf16 pairs, computed in fp32 -----------
extern "C" __global__ void gelu_bf16x2(const __nv_bfloat162* in, __nv_bfloat162* out, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n2) return;
    float2 v = __bfloat1622float2(in[i]);
    const float k0 = 0.7978845608f, k1 = 0.044715f;
    float a = v.x / (1.f + expf(-2.f * k0 * (v.x + k1 * v.x * v.x * v.x)));
    float b = v.y / (1.f + expf(-2.f * k0 * (v.y + k1 * v.y * v.y * v.y)));
    out[i] = __floats2bfloat162_rn(a, b);
}

// ---- 5. channel shuffle of an NCHW tensor: output channel c' = (c % g) * (C / g) + c / g -----------
// every divisor is a run-time value (integer division and remainder in the index arithmetic)
extern "C" __global__ void channel_shuffle(const float* in, float* out, int C, int HW, int groups, int total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    int p = i % HW, c = (i / HW) % C, nb = i / (HW * C);
    int cpg = C / groups;
    int co = (c % groups) * cpg + c / groups;
    out[((size_t)nb * C + co) * HW + p] = in[i];
}

// ---- 6. a degree-24 polynomial by Horner's rule in double precision ------------------------------
extern "C" __global__ void horner_f64(const double* x, const double* coef, double* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i], acc = coef[24];
#pragma unroll
    for (int k = 23; k >= 0; --k) acc = fma(acc, v, coef[k]);
    y[i] = acc;
}

// ---- 7. SDDMM over CSR: out[e] = dot(A[row(e)], B[col(e)]), 32 floats each, a warp per row -------
// lane j of the warp holds A[row][j]; each non-zero's B row is read whole by the warp (128 B)
extern "C" __global__ void sddmm_csr(const int* rowptr, const int* cols, const float* A, const float* B,
                                     float* out, int rows)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (row >= rows) return;
    float a = A[row * 32 + lane];
    for (int e = rowptr[row]; e < rowptr[row + 1]; ++e) {
        float d = a * B[cols[e] * 32 + lane];
        for (int o = 16; o > 0; o >>= 1) d += __shfl_xor_sync(0xffffffffu, d, o);
        if (lane == 0) out[e] = d;
    }
}

// ---- 8. 32 x 32 bit-matrix transpose: lane i holds row i; output row j = ballot of bit j ----------
extern "C" __global__ void bit_transpose32(const unsigned* in, unsigned* out)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    unsigned row = in[warp * 32 + lane], mine = 0;
    for (int j = 0; j < 32; ++j) {
        unsigned col = __ballot_sync(0xffffffffu, (row >> j) & 1u);
        if (lane == j) mine = col;
    }
    out[warp * 32 + lane] = mine;
}

// ---- 9. segment sums of sorted keys: a warp's segmented inclusive scan, the last lane of each run
// adds its partial to sums[key] (runs that cross warps meet in the atomics)
extern "C" __global__ void segment_sum_sorted(const int* keys, const int* vals, int* sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int k = i < n ? keys[i] : -1, v = i < n ? vals[i] : 0;
    for (int o = 1; o < 32; o <<= 1) {
        int kv = __shfl_up_sync(0xffffffffu, k, o), vv = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o && kv == k) v += vv;
    }
    int next = __shfl_down_sync(0xffffffffu, k, 1);
    if (i < n && (lane == 31 || next != k)) atomicAdd(&sums[k], v);
}

// ---- 10. int4 quantisation with a scale per 64-value row: two values a byte, a byte a thread -----
extern "C" __global__ void quant_int4_pack(const float* x, const float* scale, unsigned char* q, int n_bytes)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n_bytes) return;
    float2 v = reinterpret_cast<const float2*>(x)[i];
    float r = 1.f / scale[i >> 5];
    int lo = max(-8, min(7, __float2int_rn(v.x * r)));
    int hi = max(-8, min(7, __float2int_rn(v.y * r)));
    q[i] = (unsigned char)((lo & 15) | ((hi & 15) << 4));
}
