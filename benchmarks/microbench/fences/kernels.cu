// fences: what a memory fence costs a warp on the GPU. Every warp's lane 0 writes the cycles of
// its loop of `iters` steps; a step is (a store to the warp's own word, if STORE) then the fence.
#define FENCE_KERNEL(NAME, STORE, FENCE)                                                              \
extern "C" __global__ void NAME(long long* out, int* scratch, int iters)                               \
{                                                                                                     \
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;                                             \
    int* mine = scratch + w * 32 + (threadIdx.x & 31);                                                \
    __syncthreads();                                                                                  \
    long long t0 = clock64();                                                                         \
    for (int s = 0; s < iters; ++s) {                                                                 \
        if (STORE) *(volatile int*)mine = s;                                                          \
        FENCE;                                                                                        \
    }                                                                                                 \
    long long t1 = clock64();                                                                         \
    if ((threadIdx.x & 31) == 0) out[w] = t1 - t0;                                                    \
}
FENCE_KERNEL(none, 0, asm volatile("" ::: "memory"))
FENCE_KERNEL(block_fence, 0, __threadfence_block())
FENCE_KERNEL(gpu_fence, 0, __threadfence())
FENCE_KERNEL(acq_rel_gpu, 0, asm volatile("fence.acq_rel.gpu;" ::: "memory"))
FENCE_KERNEL(system_fence, 0, __threadfence_system())
FENCE_KERNEL(store_only, 1, asm volatile("" ::: "memory"))
FENCE_KERNEL(store_gpu_fence, 1, __threadfence())
FENCE_KERNEL(store_block_fence, 1, __threadfence_block())
