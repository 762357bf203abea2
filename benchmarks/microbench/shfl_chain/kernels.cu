// shfl_chain: cycles a step of a dependent shuffle chain costs one warp, with and without an add
// after each shuffle, on int and float values. NVRTC's PTX wraps a float shuffle in two bit-cast
// movs (mov.b32 %r, %f ... mov.b32 %f, %r) that the SASS does not have; an int one has none.
// Each warp's lane 0 writes the cycles of its loop of `iters` x 8 steps.
#define CHAIN_KERNEL(NAME, T, STEP)                                                                  \
extern "C" __global__ void NAME(long long* out, T* io, int iters)                                     \
{                                                                                                     \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                    \
    T v = io[i];                                                                                      \
    __syncwarp();                                                                                     \
    long long t0 = clock64();                                                                         \
    for (int s = 0; s < iters; ++s) {                                                                 \
        _Pragma("unroll")                                                                             \
        for (int j = 0; j < 8; ++j) { STEP; }                                                         \
    }                                                                                                 \
    long long t1 = clock64();                                                                         \
    io[i] = v;                                                                                        \
    if ((threadIdx.x & 31) == 0) out[i >> 5] = t1 - t0;                                               \
}
CHAIN_KERNEL(int_shfl, int, v = __shfl_xor_sync(0xffffffffu, v, 1))
CHAIN_KERNEL(int_shfl_add, int, v += __shfl_xor_sync(0xffffffffu, v, 1))
CHAIN_KERNEL(float_shfl, float, v = __shfl_xor_sync(0xffffffffu, v, 1))
CHAIN_KERNEL(float_shfl_add, float, v += __shfl_xor_sync(0xffffffffu, v, 1))
CHAIN_KERNEL(float_fma, float, v = v * 0.999f + 0.5f)
