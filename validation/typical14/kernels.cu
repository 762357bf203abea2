// validation/typical14: kernels people write (fourteenth batch, 2026-12-03), used to set nothing.

// Per-bin spinlock: each thread takes its bin's lock with atomicCAS, updates two plain counters,
// and releases it. Threads of one warp contend for one lock, which needs Volta's independent
// thread scheduling to make progress.
extern "C" __global__ void lock_bins_spin(const int* keys, int* locks, int* count, long long* total, int n,
                                          int bins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i];
    int b = k % bins;
    bool done = false;
    while (!done) {
        if (atomicCAS(&locks[b], 0, 1) == 0) {
            __threadfence();
            volatile int* vc = count;
            volatile long long* vt = total;
            vc[b] = vc[b] + 1;
            vt[b] = vt[b] + k;
            __threadfence();
            atomicExch(&locks[b], 0);
            done = true;
        }
    }
}

// A tiny stack machine: each thread runs its own program of 16 op codes through a switch.
extern "C" __global__ void switch_interp(const unsigned char* prog, const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = x[i];
    float reg = 1.0f;
    const unsigned char* p = prog + (size_t)(i & 1023) * 16;
    for (int pc = 0; pc < 16; ++pc) {
        switch (p[pc]) {
            case 0: acc += reg; break;
            case 1: acc *= 1.5f; break;
            case 2: reg = acc; break;
            case 3: acc -= 0.25f * reg; break;
            case 4: acc = fabsf(acc); break;
            case 5: reg += 2.0f; break;
            case 6: acc = fminf(acc, 100.0f); break;
            case 7: acc = acc * acc * 0.01f; break;
            default: break;
        }
    }
    out[i] = acc + reg;
}

// RGB (uchar3, 3 bytes a pixel) to 8-bit gray, BT.601 weights in fixed point.
extern "C" __global__ void rgb_to_gray_uchar3(const uchar3* rgb, unsigned char* gray, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    uchar3 p = rgb[y * w + x];
    gray[y * w + x] = (unsigned char)((77 * p.x + 150 * p.y + 29 * p.z + 128) >> 8);
}

// Causal softmax: a warp a row, row r reads its first r + 1 scores (the rest of the row is 0).
extern "C" __global__ void causal_softmax_rows(const float* s, float* p, int rows, int cols) {
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float* in = s + (size_t)row * cols;
    float* o = p + (size_t)row * cols;
    int len = row % cols + 1;
    float mx = __int_as_float(0xff800000);  // -inf
    for (int j = lane; j < len; j += 32) mx = fmaxf(mx, in[j]);
    for (int d = 16; d > 0; d >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, d));
    float sum = 0.0f;
    for (int j = lane; j < len; j += 32) sum += __expf(in[j] - mx);
    for (int d = 16; d > 0; d >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, d);
    float inv = 1.0f / sum;
    for (int j = lane; j < cols; j += 32) o[j] = j < len ? __expf(in[j] - mx) * inv : 0.0f;
}

// Bit tricks in inline PTX: the lane id, a byte permute, a bit-field extract and a non-caching load.
extern "C" __global__ void inline_asm_bits(const unsigned* a, const unsigned* b, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned lane, x, y, perm, field;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("ld.global.nc.L1::no_allocate.u32 %0, [%1];" : "=r"(x) : "l"(a + i));
    y = b[i];
    asm("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(perm) : "r"(x), "r"(y));
    asm("bfe.u32 %0, %1, %2, 5;" : "=r"(field) : "r"(perm), "r"(lane & 27));
    out[i] = perm ^ (field << 3) ^ lane;
}

// col2im for a 3x3 convolution (stride 1, padding 1): every column entry is added back to its
// pixel with a float atomic; the (channel, ky, kx, y, x) indices come from runtime divisions.
extern "C" __global__ void col2im_atomic(const float* col, float* img, int c, int h, int w) {
    long long total = (long long)c * 9 * h * w;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total; t += stride) {
        int x = (int)(t % w);
        int y = (int)((t / w) % h);
        int k = (int)((t / ((long long)w * h)) % 9);
        int ch = (int)(t / ((long long)w * h * 9));
        int iy = y + k / 3 - 1, ix = x + k % 3 - 1;
        if (iy >= 0 && iy < h && ix >= 0 && ix < w) atomicAdd(&img[((size_t)ch * h + iy) * w + ix], col[t]);
    }
}

// Batched tridiagonal solves (Thomas algorithm), one system of 32 unknowns a thread, the systems
// interleaved so that a warp's loads coalesce; the forward sweep's c' and d' live in local arrays.
extern "C" __global__ void thomas_batched(const float* a, const float* b, const float* c, const float* d,
                                          float* x, int systems) {
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= systems) return;
    float cp[32], dp[32];
    cp[0] = c[s] / b[s];
    dp[0] = d[s] / b[s];
    for (int k = 1; k < 32; ++k) {
        size_t at = (size_t)k * systems + s;
        float m = 1.0f / (b[at] - a[at] * cp[k - 1]);
        cp[k] = c[at] * m;
        dp[k] = (d[at] - a[at] * dp[k - 1]) * m;
    }
    float v = dp[31];
    x[(size_t)31 * systems + s] = v;
    for (int k = 30; k >= 0; --k) {
        v = dp[k] - cp[k] * v;
        x[(size_t)k * systems + s] = v;
    }
}

// A block reduction written once as a template and instantiated for two block sizes: double
// partial sums, a shared tree down to a warp, then double shuffles.
template <int BLOCK>
__device__ void reduce_tpl(const float* x, double* partial, int n) {
    __shared__ double sh[BLOCK];
    double v = 0.0;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) v += (double)x[i];
    sh[threadIdx.x] = v;
    __syncthreads();
#pragma unroll
    for (int s = BLOCK / 2; s >= 32; s >>= 1) {
        if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x < 32) {
        v = sh[threadIdx.x];
        for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
        if (threadIdx.x == 0) partial[blockIdx.x] = v;
    }
}
extern "C" __global__ void reduce_tpl128(const float* x, double* partial, int n) { reduce_tpl<128>(x, partial, n); }
extern "C" __global__ void reduce_tpl512(const float* x, double* partial, int n) { reduce_tpl<512>(x, partial, n); }

// Mark random indices in a bitset with atomicOr.
extern "C" __global__ void bitset_atomic_or(const int* idx, unsigned* bits, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int k = idx[i];
        atomicOr(&bits[k >> 5], 1u << (k & 31));
    }
}

// Hamming distances of 256-bit codes (four 64-bit words, read as two ulonglong2) to one query.
extern "C" __global__ void hamming_popc_u64(const ulonglong2* codes, const unsigned long long* query, int* dist,
                                            int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    ulonglong2 lo = codes[2 * i], hi = codes[2 * i + 1];
    dist[i] = __popcll(lo.x ^ query[0]) + __popcll(lo.y ^ query[1]) + __popcll(hi.x ^ query[2]) +
              __popcll(hi.y ^ query[3]);
}

// Sort 32 64-bit keys a warp (bitonic network over shuffles), write them back in order.
extern "C" __global__ void warp_sort_i64(const long long* in, long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    long long v = i < n ? in[i] : 0x7fffffffffffffffLL;
    for (int k = 2; k <= 32; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            long long o = __shfl_xor_sync(0xffffffffu, v, j);
            bool up = (lane & k) == 0;
            bool lower = (lane & j) == 0;
            v = (lower == up) ? min(v, o) : max(v, o);
        }
    }
    if (i < n) out[i] = v;
}
