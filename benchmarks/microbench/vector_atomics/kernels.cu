// sm_90 vector atomics (atomicAdd on float2 / float4) and elect.sync, for their counters on the H200.
#include <cuda_fp16.h>
extern "C" __global__ void vec2_distinct(float2* acc, int n)
{   // every lane its own float2: 8 bytes per lane, 256 bytes per warp
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&acc[i], make_float2(1.0f, 2.0f));
}
extern "C" __global__ void vec4_distinct(float4* acc, int n)
{   // 16 bytes per lane, 512 bytes per warp
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&acc[i], make_float4(1.0f, 2.0f, 3.0f, 4.0f));
}
extern "C" __global__ void vec2_pairs(float2* acc, float2* old)
{   // lanes t and t + 16 of a warp on one float2, the old values used (an atom, not a red)
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, l = threadIdx.x & 31;
    old[blockIdx.x * blockDim.x + threadIdx.x] = atomicAdd(&acc[w * 16 + (l & 15)], make_float2(1.0f, float(l)));
}
extern "C" __global__ void vec4_bins(const int* bin, float4* hist, int n)
{   // a float4 histogram over 1,024 bins
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[bin[i]], make_float4(1.0f, 0.5f, 0.25f, 0.125f));
}
extern "C" __global__ void elect_count(const int* x, int* count, int n)
{   // the elected lane of each warp adds the warp's count of positives
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ballot = __ballot_sync(0xffffffffu, i < n && x[i] > 0);
    unsigned leader;
    asm volatile("{ .reg .pred q; elect.sync _|q, 0xffffffff; selp.u32 %0, 1, 0, q; }" : "=r"(leader));
    if (leader) atomicAdd(count, __popc(ballot));
}
