// One loop, five ways of giving its trip count: ptxas proves the warp converged at the SHFL for
// some (no guard: loads move up across the shuffles) and guards it for others (WARPSYNC / BRA.DIV:
// nothing moves across). Every launch does the same work: lens[] holds `steps` for every warp.
#define BODY                                                              \
    for (int k = 0; k < m; ++k) {                                         \
        float v = x[(size_t)k * n + i];                                   \
        s += (v - __shfl_down_sync(0xffffffffu, v, 1)) * 0.75f;           \
    }                                                                     \
    y[i] = s;

// the kernel parameter: uniform
extern "C" __global__ void steps_param(const float* x, const int* lens, float* y, int steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, m = steps;
    float s = 0.f;
    BODY
}

// loaded per warp (lens[i / 32]): varying as far as ptxas knows
extern "C" __global__ void steps_per_warp(const float* x, const int* lens, float* y, int steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, m = lens[i >> 5];
    float s = 0.f;
    BODY
}

// loaded per block (lens[blockIdx.x]): a load from a uniform address is uniform
extern "C" __global__ void steps_per_block(const float* x, const int* lens, float* y, int steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, m = lens[blockIdx.x];
    float s = 0.f;
    BODY
}

// loaded per warp, then lane 0's value handed to all: an idx shuffle of a uniform lane is uniform
extern "C" __global__ void steps_broadcast(const float* x, const int* lens, float* y, int steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, m = __shfl_sync(0xffffffffu, lens[i >> 5], 0);
    float s = 0.f;
    BODY
}

// the parameter, after an early return of a thread-dependent test: lanes that left do not count
extern "C" __global__ void steps_after_return(const float* x, const int* lens, float* y, int steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, m = steps;
    if (i >= n) return;
    float s = 0.f;
    BODY
}
