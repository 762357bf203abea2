// gpc_inflight: where does the time each further line in flight adds come from -- the SM, its TPC,
// its GPC, its L2 side or the whole chip? (benchmarks/microbench/loads_in_flight README section 2:
// 32 SMs of 4 warps and 132 SMs of 1 warp, the same ~2,100 lines in flight, both took +636 cycles a
// trip at U = 16; both also put ~260 lines in flight per GPC.)
//
// walk_<U>: one CTA per SM (a 132-CTA grid); only the CTAs on the SMs that rank[] names work (the
// first CTA to claim an SM), each on its own 128-float column block of a row-major matrix, U
// independent loads a trip (`#pragma unroll 1` keeps U as written), lanes >= `lanes` idle (one
// sector a request at lanes = 8). Lane 0 of each warp stamps clock64 before and after its walk:
// cycles a trip without the launch's overhead.

__device__ __forceinline__ unsigned smid()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
    return r;
}

template <int U>
__device__ void walk(const float* __restrict__ a, float* y, const int* __restrict__ rank, int* claim,
                     long long* st, int rows, int pitch, int lanes)
{
    __shared__ int my;
    if (threadIdx.x == 0) {
        int r = rank[smid()];
        my = r >= 0 && atomicAdd(&claim[smid()], 1) == 0 ? r : -1;
    }
    __syncthreads();
    if (my < 0) return;
    int c = my * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    float s = 0.f;
    long long t0 = clock64();
    if (lane < lanes) {
#pragma unroll 1
        for (int r = 0; r < rows; r += U) {
            float v[U];
#pragma unroll
            for (int u = 0; u < U; ++u) v[u] = a[(size_t)(r + u) * pitch + c];
#pragma unroll
            for (int u = 0; u < U; ++u) s += v[u];
        }
    }
    long long t1 = clock64();
    y[c] = s;
    if (lane == 0) {
        long long* o = st + 2 * (my * (blockDim.x >> 5) + (threadIdx.x >> 5));
        o[0] = t0, o[1] = t1;
    }
}

#define WALK(U) \
    extern "C" __global__ void walk_##U(const float* __restrict__ a, float* y, const int* __restrict__ rank, \
                                        int* claim, long long* st, int rows, int pitch, int lanes) \
    { walk<U>(a, y, rank, claim, st, rows, pitch, lanes); }
WALK(1) WALK(2) WALK(4) WALK(8) WALK(16) WALK(32)
