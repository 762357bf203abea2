// Reductions: out = sum(x) over n float32 values, three ways, plus a histogram.
//
// Every kernel starts with a grid-stride loop: thread i adds x[i], x[i + G], x[i + 2G], ... where
// G = gridDim.x * blockDim.x, so any grid size covers any n.  They differ in how the per-thread
// sums of a block are combined and how the blocks' results are combined:
//
//   reduce_shared        tree in (dynamic) shared memory, __syncthreads between levels; one partial
//                        per block, then a second launch of the same kernel with one block sums the
//                        partials.  blockDim.x must be a power of two; shared_mem = blockDim.x * 4.
//   reduce_warp_shuffle  each warp sums its 32 values in registers with __shfl_down_sync (no shared
//                        memory, no barrier); the warps' sums go through a 32-float shared array.
//                        Two launches, like reduce_shared.  blockDim.x a multiple of 32.
//   reduce_atomic        shuffle within warps, then one atomicAdd per warp onto *out (zeroed first):
//                        a single launch.  Float atomics make the summation order depend on timing
//                        on a real GPU, so the last bits of the result can change run to run.

#define FULL_MASK 0xffffffffu

extern "C" __global__ void reduce_shared(const float* __restrict__ x, float* __restrict__ partial, int n)
{
    extern __shared__ float sdata[];                 // blockDim.x floats, sized at launch
    const int tid = threadIdx.x;

    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
        sum += x[i];
    sdata[tid] = sum;
    __syncthreads();

    // halve the active threads each step: 256 -> 128 -> ... -> 1 (divergent for the last 5 steps)
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}

__device__ __forceinline__ float warp_sum(float v)
{
    // after step k lane i holds the sum of lanes i .. i + 2^(k+1) - 1; lane 0 ends with all 32
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

extern "C" __global__ void reduce_warp_shuffle(const float* __restrict__ x, float* __restrict__ partial, int n)
{
    __shared__ float warp_sums[32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int num_warps = blockDim.x / 32;

    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += x[i];
    sum = warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();

    if (warp == 0) {                                  // the first warp sums the warps' sums
        sum = lane < num_warps ? warp_sums[lane] : 0.0f;
        sum = warp_sum(sum);
        if (lane == 0)
            partial[blockIdx.x] = sum;
    }
}

extern "C" __global__ void reduce_atomic(const float* __restrict__ x, float* __restrict__ out, int n)
{
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += x[i];
    sum = warp_sum(sum);
    if (threadIdx.x % 32 == 0)
        atomicAdd(out, sum);                          // one global atomic per warp
}

// Histogram of n integer values in [0, num_bins): each block counts into its own copy in shared
// memory (shared atomics are fast, and contention is limited to the block), then adds its copy
// to the global histogram with one global atomic per bin.  shared_mem = num_bins * 4.
extern "C" __global__ void histogram(const int* __restrict__ values, unsigned int* __restrict__ bins,
                                     int n, int num_bins)
{
    extern __shared__ unsigned int local_bins[];
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x)
        local_bins[b] = 0u;
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = values[i];
        if (v >= 0 && v < num_bins)                   // ignore out-of-range values
            atomicAdd(&local_bins[v], 1u);
    }
    __syncthreads();

    for (int b = threadIdx.x; b < num_bins; b += blockDim.x)
        if (local_bins[b] != 0u)
            atomicAdd(&bins[b], local_bins[b]);
}
