// branch_regions: cycles a loop step costs one warp when its work sits behind a branch. Each step
// is 12 dependent FFMAs (more than ptxas predicates: timing/config.py if_convert_max_instructions),
// unconditional (`straight`), behind a uniform branch (`uniform_if`, on the loop counter and a parameter: no BSSY),
// behind a lane-dependent branch every lane takes (`lane_if_all`: BSSY / BSYNC, no divergence),
// one half of the lanes takes (`lane_if_half`), and an if / else whose halves both run
// (`lane_ifelse_half`; its else is 6 FMUL + FMNMX pairs, which the compiler cannot merge with the
// then side into selects). Each warp's lane 0 writes the cycles of its loop of `iters` steps.
#define FMA12(v) v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; \
                 v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; \
                 v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; \
                 v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f;
#define MAX2(v) v = fmaxf(v * 1.001f, 0.5f); v = fmaxf(v * 1.001f, 0.5f);
#define FMA12B(v) MAX2(v) MAX2(v) MAX2(v) MAX2(v) MAX2(v) MAX2(v)
#define STEP_KERNEL(NAME, STEP)                                                                       \
extern "C" __global__ void NAME(long long* out, float* io, int iters, int lim)                        \
{                                                                                                     \
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;                           \
    float v = io[i];                                                                                  \
    __syncwarp();                                                                                     \
    long long t0 = clock64();                                                                         \
    for (int s = 0; s < iters; ++s) { STEP }                                                          \
    long long t1 = clock64();                                                                         \
    io[i] = v;                                                                                        \
    if (lane == 0) out[i >> 5] = t1 - t0;                                                             \
}
STEP_KERNEL(straight, FMA12(v))
STEP_KERNEL(uniform_if, if (s < lim * 1000) { FMA12(v) })
STEP_KERNEL(lane_if_all, if (lane < lim) { FMA12(v) })
STEP_KERNEL(lane_if_half, if (lane < lim - 16) { FMA12(v) })
STEP_KERNEL(lane_ifelse_half, if (lane < lim - 16) { FMA12(v) } else { FMA12B(v) })
// The same steps in loops kept rolled (`#pragma unroll 1`), so that ptxas cannot merge the regions
// of consecutive steps (it merged the unrolled lane_if loops' four per-step regions into two): one
// BSSY / BSYNC region a step, and the split's cost a step where the lanes go both ways. mulmax_r1
// is the else side alone: 12 FMUL -> FMNMX -> FMUL links a step, each crossing between the FMA
// pipe and the ALU (timing/config.py lat_cross_pipe).
#define STEP_KERNEL_R1(NAME, STEP)                                                                    \
extern "C" __global__ void NAME(long long* out, float* io, int iters, int lim)                        \
{                                                                                                     \
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;                           \
    float v = io[i];                                                                                  \
    __syncwarp();                                                                                     \
    long long t0 = clock64();                                                                         \
    _Pragma("unroll 1") for (int s = 0; s < iters; ++s) { STEP }                                      \
    long long t1 = clock64();                                                                         \
    io[i] = v;                                                                                        \
    if (lane == 0) out[i >> 5] = t1 - t0;                                                             \
}
STEP_KERNEL_R1(straight_r1, FMA12(v))
STEP_KERNEL_R1(lane_if_all_r1, if (lane < lim) { FMA12(v) })
STEP_KERNEL_R1(lane_if_half_r1, if (lane < lim - 16) { FMA12(v) })
STEP_KERNEL_R1(lane_ifelse_half_r1, if (lane < lim - 16) { FMA12(v) } else { FMA12B(v) })
STEP_KERNEL_R1(mulmax_r1, FMA12B(v))
