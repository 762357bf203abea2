// Thirteenth batch of kernels nobody calibrated on (written 2026-12-03, set nothing): the shapes of
// kernels people write for attention, search, graphs, clustering, losses, sparse and dense algebra
// and images, with the warts such kernels have: a teaching FlashAttention that keeps O, l and m in
// global memory and conflicts on every shared access, a binary search whose warps diverge, a BFS
// push with atomicMin, k-means with a shared histogram, rows of 1,000 classes that start anywhere in
// a line, a tiled GEMM and a transpose on sizes that are not multiples of their tiles, per-channel
// statistics with float atomics, a row-per-warp SpMM, a median filter whose window lives in local
// memory, and a bias + GELU on float4 with a broadcast row.

#define NEG_INF __int_as_float(0xff800000)

// ---- attention: the widely copied "minimal" FlashAttention forward ------------------------------
// grid (batch, heads), one warp per CTA; Br = Bc = 32 rows per tile, head dim 32. Thread tx owns
// query row tx of every Q tile; O, l and m are read back and written after every K/V tile.
#define FA_B 32
#define FA_D 32
extern "C" __global__ void fa_minimal(const float* Q, const float* K, const float* V, int N, int Tc, int Tr,
                                      float scale, float* l, float* m, float* O)
{
    int tx = threadIdx.x, bx = blockIdx.x, by = blockIdx.y;
    int qkv_off = (bx * gridDim.y * N * FA_D) + (by * N * FA_D);
    int lm_off = (bx * gridDim.y * N) + (by * N);
    __shared__ float Qi[FA_B * FA_D], Kj[FA_B * FA_D], Vj[FA_B * FA_D], S[FA_B * FA_B];
    for (int j = 0; j < Tc; j++) {
        for (int x = 0; x < FA_D; x++) {
            Kj[tx * FA_D + x] = K[qkv_off + (FA_B * FA_D * j) + (tx * FA_D) + x];
            Vj[tx * FA_D + x] = V[qkv_off + (FA_B * FA_D * j) + (tx * FA_D) + x];
        }
        __syncthreads();
        for (int i = 0; i < Tr; i++) {
            for (int x = 0; x < FA_D; x++)
                Qi[tx * FA_D + x] = Q[qkv_off + (FA_B * FA_D * i) + (tx * FA_D) + x];
            float row_m_prev = m[lm_off + FA_B * i + tx];
            float row_l_prev = l[lm_off + FA_B * i + tx];
            float row_m = NEG_INF;
            for (int y = 0; y < FA_B; y++) {
                float sum = 0;
                for (int x = 0; x < FA_D; x++) sum += Qi[tx * FA_D + x] * Kj[y * FA_D + x];
                sum *= scale;
                S[FA_B * tx + y] = sum;
                if (sum > row_m) row_m = sum;
            }
            float row_l = 0;
            for (int y = 0; y < FA_B; y++) {
                S[FA_B * tx + y] = __expf(S[FA_B * tx + y] - row_m);
                row_l += S[FA_B * tx + y];
            }
            float row_m_new = fmaxf(row_m_prev, row_m);
            float row_l_new = __expf(row_m_prev - row_m_new) * row_l_prev + __expf(row_m - row_m_new) * row_l;
            for (int x = 0; x < FA_D; x++) {
                float pv = 0;
                for (int y = 0; y < FA_B; y++) pv += S[FA_B * tx + y] * Vj[y * FA_D + x];
                int o = qkv_off + (FA_B * FA_D * i) + (tx * FA_D) + x;
                O[o] = (1 / row_l_new) * ((row_l_prev * __expf(row_m_prev - row_m_new) * O[o])
                                          + (__expf(row_m - row_m_new) * pv));
            }
            m[lm_off + FA_B * i + tx] = row_m_new;
            l[lm_off + FA_B * i + tx] = row_l_new;
        }
        __syncthreads();
    }
}

// ---- search: lower_bound of random keys in a sorted 4 MB array -----------------------------------
// every lane reads the same first midpoints (one sector), then the warp fans out over the array
extern "C" __global__ void lower_bound_search(const int* sorted, int n, const int* queries, int* out, int q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= q) return;
    int key = queries[i];
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (sorted[mid] < key) lo = mid + 1; else hi = mid;
    }
    out[i] = lo;
}

// ---- graphs: one level of a push-style BFS over a CSR graph ------------------------------------
// a thread per vertex; the frontier's threads walk their edges and atomicMin their neighbours
extern "C" __global__ void bfs_push_min(const int* row_ptr, const int* col, const int* dist_in, int* dist,
                                        int level, int nv)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nv || dist_in[v] != level) return;
    for (int e = row_ptr[v]; e < row_ptr[v + 1]; e++)
        atomicMin(&dist[col[e]], level + 1);
}

// ---- clustering: k-means assignment with the centroids and a histogram in shared memory --------
#define KM_K 32
extern "C" __global__ void kmeans_assign(const float4* pts, const float4* cent, int* assign, int* counts, int n)
{
    __shared__ float4 c[KM_K];
    __shared__ int cnt[KM_K];
    int t = threadIdx.x;
    if (t < KM_K) { c[t] = cent[t]; cnt[t] = 0; }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) {
        float4 p = pts[i];
        float best = 3.4e38f;
        int bi = 0;
        for (int k = 0; k < KM_K; k++) {
            float4 q = c[k];
            float dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z, dw = p.w - q.w;
            float d = dx * dx + dy * dy + dz * dz + dw * dw;
            if (d < best) { best = d; bi = k; }
        }
        assign[i] = bi;
        atomicAdd(&cnt[bi], 1);
    }
    __syncthreads();
    if (t < KM_K && cnt[t]) atomicAdd(&counts[t], cnt[t]);
}

// ---- losses: softmax cross-entropy, a warp per row of 1,000 classes (rows start off a line) ----
extern "C" __global__ void cross_entropy_rows(const float* logits, const int* labels, float* loss, int rows,
                                              int classes)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (warp >= rows) return;
    const float* x = logits + (size_t)warp * classes;
    float mx = -3.4e38f;
    for (int c = lane; c < classes; c += 32) mx = fmaxf(mx, x[c]);
    for (int o = 16; o; o >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffff, mx, o));
    float s = 0;
    for (int c = lane; c < classes; c += 32) s += __expf(x[c] - mx);
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    if (lane == 0) loss[warp] = logf(s) + mx - x[labels[warp]];
}

// ---- dense algebra: 16x16 tiled GEMM on sizes that are not multiples of 16 ---------------------
#define GT 16
extern "C" __global__ void gemm_tiled_edges(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[GT][GT], Bs[GT][GT];
    int r = blockIdx.y * GT + threadIdx.y, c = blockIdx.x * GT + threadIdx.x;
    float acc = 0;
    for (int t = 0; t < K; t += GT) {
        As[threadIdx.y][threadIdx.x] = (r < M && t + threadIdx.x < K) ? A[r * K + t + threadIdx.x] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (t + threadIdx.y < K && c < N) ? B[(t + threadIdx.y) * N + c] : 0.0f;
        __syncthreads();
        for (int k = 0; k < GT; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (r < M && c < N) C[r * N + c] = acc;
}

// ---- layout: 32x32 padded-tile transpose of a 1,000 x 3,000 matrix (partial tiles on both edges)
extern "C" __global__ void transpose_edges(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// ---- normalisation: per-channel sum and sum of squares of an NCHW tensor -----------------------
// grid (channels, samples): a CTA reduces one plane, then two float atomics per CTA
extern "C" __global__ void batchnorm_stats(const float* x, float* sum, float* sumsq, int C, int HW)
{
    __shared__ float ps[8], pq[8];
    int c = blockIdx.x, nidx = blockIdx.y, t = threadIdx.x;
    const float* plane = x + ((size_t)nidx * C + c) * HW;
    float s = 0, q = 0;
    for (int i = t; i < HW; i += blockDim.x) { float v = plane[i]; s += v; q += v * v; }
    for (int o = 16; o; o >>= 1) {
        s += __shfl_xor_sync(0xffffffff, s, o);
        q += __shfl_xor_sync(0xffffffff, q, o);
    }
    if ((t & 31) == 0) { ps[t >> 5] = s; pq[t >> 5] = q; }
    __syncthreads();
    if (t == 0) {
        for (int w = 1; w < (int)(blockDim.x >> 5); w++) { s += ps[w]; q += pq[w]; }
        atomicAdd(&sum[c], s);
        atomicAdd(&sumsq[c], q);
    }
}

// ---- sparse algebra: CSR x dense (64 columns), a warp per row, a float2 of B's row per lane -----
extern "C" __global__ void spmm_csr_rowwarp(const int* row_ptr, const int* col, const float* val, const float2* B,
                                            float2* C, int rows)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (row >= rows) return;
    float2 acc = make_float2(0.0f, 0.0f);
    for (int e = row_ptr[row]; e < row_ptr[row + 1]; e++) {
        float a = val[e];
        float2 b = B[col[e] * 32 + lane];
        acc.x += a * b.x;
        acc.y += a * b.y;
    }
    C[row * 32 + lane] = acc;
}

// ---- images: 3x3 median with the window in a local array (a partial selection sort) ------------
extern "C" __global__ void median3x3_local(const float* in, float* out, int h, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float win[9];
    int k = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int yy = min(max(y + dy, 0), h - 1), xx = min(max(x + dx, 0), w - 1);
            win[k++] = in[yy * w + xx];
        }
#pragma unroll 1
    for (int i = 0; i < 5; i++) {
        int mi = i;
#pragma unroll 1
        for (int j = i + 1; j < 9; j++)
            if (win[j] < win[mi]) mi = j;
        float t = win[i]; win[i] = win[mi]; win[mi] = t;
    }
    out[y * w + x] = win[4];
}

// ---- elementwise: bias + tanh-GELU on float4, the bias row re-read by every row ----------------
extern "C" __global__ void bias_gelu_vec4(const float4* x, const float4* bias, float4* out, int rows, int cols4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows * cols4) return;
    float4 v = x[i], b = bias[i % cols4];
    float in[4] = {v.x + b.x, v.y + b.y, v.z + b.z, v.w + b.w}, r[4];
#pragma unroll
    for (int k = 0; k < 4; k++)
        r[k] = 0.5f * in[k] * (1.0f + tanhf(0.7978845608f * (in[k] + 0.044715f * in[k] * in[k] * in[k])));
    out[i] = make_float4(r[0], r[1], r[2], r[3]);
}
