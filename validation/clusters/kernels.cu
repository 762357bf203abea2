// validation/clusters: thread-block clusters with distributed shared memory (written 2026-12-01,
// used to set nothing): a sum over the 4 CTAs of a cluster read from each other's shared memory, a
// histogram whose bins are spread over the shared memory of a cluster's 4 CTAs (atomics to peers),
// and a 1-D stencil whose halo comes from the neighbouring CTAs' shared memory.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_sum4(const int* x, int* out)
{
    __shared__ int s[256];
    cg::cluster_group cl = cg::this_cluster();
    s[threadIdx.x] = x[blockIdx.x * 256 + threadIdx.x];
    cl.sync();
    int acc = 0;
    for (unsigned q = 0; q < 4; ++q) acc += cl.map_shared_rank(s, q)[threadIdx.x];
    cl.sync();
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// 8,192 bins over a cluster of 4: CTA r holds bins [2048 r, 2048 r + 2048)
extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_hist(const int* keys, int* hist, int per_cta)
{
    __shared__ int bins[2048];
    cg::cluster_group cl = cg::this_cluster();
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) bins[i] = 0;
    cl.sync();
    const int* k = keys + (size_t)blockIdx.x * per_cta;
    for (int i = threadIdx.x; i < per_cta; i += blockDim.x) {
        int b = k[i];
        atomicAdd(cl.map_shared_rank(bins, b / 2048) + (b % 2048), 1);
    }
    cl.sync();
    int* h = hist + (size_t)(blockIdx.x / 4) * 8192 + cl.block_rank() * 2048;
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) h[i] = bins[i];
}

// y[i] = x[i-2] + 2 x[i-1] + 3 x[i] + 2 x[i+1] + x[i+2] within each cluster's 8 x 256 elements,
// the two halo elements on each side read from the neighbouring CTA's shared memory (zero at the
// cluster's ends)
extern "C" __global__ void __cluster_dims__(8, 1, 1) cluster_halo(const float* x, float* y)
{
    __shared__ float s[256];
    cg::cluster_group cl = cg::this_cluster();
    const int t = threadIdx.x, r = cl.block_rank();
    s[t] = x[blockIdx.x * 256 + t];
    cl.sync();
    float v[5];
    for (int d = -2; d <= 2; ++d) {
        int j = t + d;
        if (j < 0) v[d + 2] = r > 0 ? cl.map_shared_rank(s, r - 1)[256 + j] : 0.f;
        else if (j >= 256) v[d + 2] = r < 7 ? cl.map_shared_rank(s, r + 1)[j - 256] : 0.f;
        else v[d + 2] = s[j];
    }
    cl.sync();
    y[blockIdx.x * 256 + t] = v[0] + 2.f * v[1] + 3.f * v[2] + 2.f * v[3] + v[4];
}
