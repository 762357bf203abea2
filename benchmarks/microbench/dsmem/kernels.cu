// dsmem: what distributed shared memory and the cluster barrier cost on the GPU (thread-block
// clusters, sm_90). Every kernel writes clock64() differences; run.py turns them into cycles a step.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CHASE_N 1024

// One thread of rank 0 follows a chain of CHASE_N indices: through its own shared memory by name
// (dsmem_chase_lds: LDS), or through rank `rank`'s by map_shared_rank (dsmem_chase: rank 0 its own
// memory by a generic pointer, rank 1 the other CTA's). (NVRTC 13.5 crashes on one kernel doing
// both through `mode == 2 ? cl.map_shared_rank(nxt, 1) : nxt`.)
// thread 0 of rank 0 walks `steps` links from index 0 through `chain`; its cycles and the end index
template <typename Ptr>
__device__ __forceinline__ void timed_walk(Ptr chain, long long* out, int steps)
{
    int j = 0;
    long long t0 = clock64();
    for (int s = 0; s < steps; ++s) j = chain[j];
    long long t1 = clock64();
    out[0] = t1 - t0;
    out[1] = j;
}

__device__ __forceinline__ void fill_chain(int* nxt)
{
    for (int i = threadIdx.x; i < CHASE_N; i += blockDim.x) nxt[i] = (i * 97 + 13) & (CHASE_N - 1);
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) dsmem_chase_lds(long long* out, int steps)
{
    __shared__ int nxt[CHASE_N];
    cg::cluster_group cl = cg::this_cluster();
    fill_chain(nxt);
    cl.sync();
    if (cl.block_rank() == 0 && threadIdx.x == 0) timed_walk(nxt, out, steps);
    cl.sync();
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) dsmem_chase(long long* out, int steps, int rank)
{
    __shared__ int nxt[CHASE_N];
    cg::cluster_group cl = cg::this_cluster();
    fill_chain(nxt);
    cl.sync();
    if (cl.block_rank() == 0 && threadIdx.x == 0) timed_walk((volatile int*)cl.map_shared_rank(nxt, rank), out, steps);
    cl.sync();
}

// The same walk through a generic pointer NVRTC cannot prove shared (a noinline function's argument
// that may point to global memory): LD, not LDS, so the address goes through the generic window at
// run time. mode 0: the CTA's own shared memory, 1: rank 1's (map_shared_rank), 2: a global chain.
__device__ __noinline__ int generic_walk(const int* chain, int steps, long long* out)
{
    int j = 0;
    long long t0 = clock64();
    for (int s = 0; s < steps; ++s) j = ((const volatile int*)chain)[j];
    out[0] = clock64() - t0;
    return j;
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) dsmem_chase_generic(long long* out, const int* chain_g,
                                                                           int steps, int mode)
{
    __shared__ int nxt[CHASE_N];
    cg::cluster_group cl = cg::this_cluster();
    fill_chain(nxt);
    cl.sync();
    if (cl.block_rank() == 0 && threadIdx.x == 0) {
        const int* p = mode == 0 ? nxt : mode == 1 ? cl.map_shared_rank(nxt, 1) : chain_g;
        out[1] = generic_walk(p, steps, out);
    }
    cl.sync();
}

// `iters` cluster barriers (cl.sync(): barrier.cluster.arrive + wait) back to back; thread 0 of
// every CTA writes its cycles. SYNC_KERNEL(name, size).
#define SYNC_KERNEL(NAME, SIZE)                                                                      \
extern "C" __global__ void __cluster_dims__(SIZE, 1, 1) NAME(long long* out, int iters)               \
{                                                                                                     \
    cg::cluster_group cl = cg::this_cluster();                                                        \
    cl.sync();                                                                                        \
    long long t0 = clock64();                                                                         \
    for (int s = 0; s < iters; ++s) cl.sync();                                                        \
    long long t1 = clock64();                                                                         \
    if (threadIdx.x == 0) out[blockIdx.x] = t1 - t0;                                                  \
}
SYNC_KERNEL(cluster_sync2, 2)
SYNC_KERNEL(cluster_sync4, 4)
SYNC_KERNEL(cluster_sync8, 8)

// the same with __syncthreads(), for comparison
extern "C" __global__ void block_sync(long long* out, int iters)
{
    __syncthreads();
    long long t0 = clock64();
    for (int s = 0; s < iters; ++s) __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) out[blockIdx.x] = t1 - t0;
}

// Every thread reads `iters` words of rank (r+1)'s shared memory (remote = 1) or its own (0), both
// through map_shared_rank, eight independent loads in flight, coalesced: throughput per SM.
extern "C" __global__ void __cluster_dims__(2, 1, 1) dsmem_stream(long long* out, float* sink, int iters, int remote)
{
    __shared__ float buf[4096];
    cg::cluster_group cl = cg::this_cluster();
    for (int i = threadIdx.x; i < 4096; i += blockDim.x) buf[i] = (float)i;
    cl.sync();
    const volatile float* src = cl.map_shared_rank(buf, (cl.block_rank() + remote) & 1);
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    long long t0 = clock64();
    for (int s = 0; s < iters; s += 8) {
#pragma unroll
        for (int u = 0; u < 8; ++u) acc[u] += src[(threadIdx.x + (s + u) * 32) & 4095];
    }
    long long t1 = clock64();
    float a = 0.f;
    for (int u = 0; u < 8; ++u) a += acc[u];
    sink[blockIdx.x * blockDim.x + threadIdx.x] = a;
    if (threadIdx.x == 0) out[blockIdx.x] = t1 - t0;
    cl.sync();
}

// Every thread adds 1 to `iters` bins of 1,024 in rank (r+1)'s shared memory (remote = 1) or its own.
extern "C" __global__ void __cluster_dims__(2, 1, 1) dsmem_atomics(long long* out, unsigned* total, int iters, int remote)
{
    __shared__ unsigned bins[1024];
    cg::cluster_group cl = cg::this_cluster();
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) bins[i] = 0;
    cl.sync();
    unsigned* dst = cl.map_shared_rank(bins, (cl.block_rank() + remote) & 1);
    long long t0 = clock64();
    for (int s = 0; s < iters; ++s) atomicAdd(&dst[(threadIdx.x * 7 + s * 33) & 1023], 1u);
    long long t1 = clock64();
    cl.sync();
    unsigned c = 0;
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) c += bins[i];
    atomicAdd(total, c);
    if (threadIdx.x == 0) out[blockIdx.x] = t1 - t0;
}
