// validation/typical22: kernels written on 2026-12-06 to test simgpu's model of what ptxas does to
// the loads and stores NVVM leaves in the PTX (simgpu/exec/ptxas_memory.py: loads that repeat one,
// loads of what the thread just stored, stores a later one overwrites, loop-invariant loads beside
// shuffles and ballots), in code shaped as people write it, with two controls where nothing may go.
// Predicted before any GPU ran them (results/predicted_2026-12-06.txt).

// ---- 1. an all-reduce into global memory: each step adds a partner's partial to out[i] in place --
extern "C" __global__ void allreduce_inplace(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = x[i];
    for (int o = 16; o > 0; o >>= 1) out[i] += __shfl_xor_sync(0xffffffffu, out[i], o);
}

// ---- 2. per-row counts above the row's threshold: a warp per row, a ballot per 32 columns ---------
extern "C" __global__ void ballot_row_counts(const float* a, const float* thr, int* counts, int rows, int cols)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (row >= rows) return;
    int c = 0;
    for (int j = lane; j < cols; j += 32)
        c += __popc(__ballot_sync(0xffffffffu, a[(size_t)row * cols + j] > thr[row]));
    if (lane == 0) counts[row] = c;
}

// ---- 3. a neighbour-difference filter with one global gain, read in the loop --------------------
extern "C" __global__ void shfl_gain_filter(const float* x, const float* gain, float* y, int steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int k = 0; k < steps; ++k) {
        float v = x[(size_t)k * n + i];
        s += (v - __shfl_down_sync(0xffffffffu, v, 1)) * gain[0];
    }
    y[i] = s;
}

// ---- 4. a block-table gather: each warp sums 32-float rows of its sequence's 8-row pages ----------
extern "C" __global__ void block_table_rowsum(const float* pool, const int* table, const int* lens, float* out,
                                              int max_pages)
{
    int seq = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    float acc = 0.f, mx = -INFINITY;
    for (int t = 0; t < lens[seq]; ++t) {
        int page = table[seq * max_pages + (t >> 3)];
        float v = pool[((size_t)page * 8 + (t & 7)) * 32 + lane];
        float m = v;
        for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
        mx = fmaxf(mx, m);
        acc += v;
    }
    out[seq * 32 + lane] = acc + mx;
}

// ---- 5. the all-reduce of 1 in shared memory, then a neighbour's result out ----------------------
extern "C" __global__ void smem_allreduce(const float* x, float* out)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = x[i];
    for (int o = 16; o > 0; o >>= 1) s[t] += __shfl_xor_sync(0xffffffffu, s[t], o);
    __syncthreads();
    out[i] = s[(t + 32) & 255];
}

// ---- 6. control: the gain's load stays in the loop, a store to y may change it -------------------
extern "C" __global__ void gain_filter_store(const float* x, const float* gain, float* y, int steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < steps; ++k) {
        float v = x[(size_t)k * n + i];
        y[(size_t)k * n + i] = (v - __shfl_down_sync(0xffffffffu, v, 1)) * gain[0];
    }
}

// ---- 7. control: __syncwarp between the updates keeps every load and store of out[i] -------------
extern "C" __global__ void accumulate_syncwarp(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] += x[i];
    __syncwarp();
    out[i] += 2.f * x[i];
    __syncwarp();
    out[i] += 3.f * x[i];
}
