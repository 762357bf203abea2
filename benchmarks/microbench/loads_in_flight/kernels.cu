// loads_in_flight: how many loads can a warp keep in flight, and what does issuing them cost?
// ptxas unrolls NVVM's counted loops once more (simgpu/timing/unroll.py), so a thread of
// validation/typical10 dgemv_t_cols has 16 loads in flight where the PTX has 4; simgpu then runs
// such loops 13-35 % fast. Two kernels separate the two limits that could be missing:
//
// col_stream_<t>_<U>: a thread per column streams down its column of a row-major matrix (from
//   DRAM), U independent loads a trip (#pragma unroll 1 on the trip loop: ptxas keeps U), as
//   dgemv_t_cols / col_sum_double / gemv_cols do. Kernel time against U: memory-level parallelism.
// burst_<N>_<ca|cg>: each warp issues N independent loads back to back (32 lanes lane_bytes apart;
//   load k k * 32 * lane_bytes further on), L1-resident (ca, after an in-kernel warm pass) or
//   L2-resident (cg). Lane 0 stamps clock64 before the loads (t0), after the last one issued (t1)
//   and after their sum (t2): t1 - t0 against N shows when the LSU queue stops the warp's issue.

template <typename T, int U>
__device__ void col_pitch(const T* __restrict__ a, T* y, int rows, int cols, int pitch)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    T s = 0;
#pragma unroll 1
    for (int r = 0; r < rows; r += U) {
        T v[U];
#pragma unroll
        for (int u = 0; u < U; ++u) v[u] = a[(size_t)(r + u) * pitch + c];
#pragma unroll
        for (int u = 0; u < U; ++u) s += v[u];
    }
    y[c] = s;
}

#define COL_STREAM(tag, T, U) \
    extern "C" __global__ void col_stream_##tag##_##U(const T* __restrict__ a, T* y, int rows, int cols) \
    { col_pitch<T, U>(a, y, rows, cols, cols); }
COL_STREAM(f, float, 1) COL_STREAM(f, float, 2) COL_STREAM(f, float, 4) COL_STREAM(f, float, 8)
COL_STREAM(f, float, 16) COL_STREAM(f, float, 32)
COL_STREAM(d, double, 1) COL_STREAM(d, double, 2) COL_STREAM(d, double, 4) COL_STREAM(d, double, 8)
COL_STREAM(d, double, 16) COL_STREAM(d, double, 32)

// col_pitch_f_<U>: col_stream's floats with rows `pitch` floats apart (pitch >= cols): which of the
//   SMs in flight, the warps an SM, the row stride or the L2 (a warm, L2-resident matrix) sets the
//   time each further line in flight adds to a trip (sweep.py).
#define COL_PITCH(U) \
    extern "C" __global__ void col_pitch_f_##U(const float* __restrict__ a, float* y, int rows, int cols, int pitch) \
    { col_pitch<float, U>(a, y, rows, cols, pitch); }
COL_PITCH(1) COL_PITCH(4) COL_PITCH(16)

template <int N, bool CG>
__device__ float load_one(const float* p)
{
    return CG ? __ldcg(p) : __ldca(p);
}

template <int N, bool CG>
__device__ void burst(const float* a, float* out, long long* st, int lane_bytes, int zero)
{
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    size_t step = (size_t)32 * lane_bytes;
    const char* p = (const char*)a + (size_t)l * lane_bytes;
    float warm = 0.f;
#pragma unroll 1
    for (int k = 0; k < N; ++k) warm += load_one<N, CG>((const float*)(p + k * step));
    const char* q = p + zero;  // zero = 0 at run time: ptxas cannot merge these loads with the warm pass
    __syncthreads();
    long long t0 = clock64();
    float v[N];
#pragma unroll
    for (int k = 0; k < N; ++k) v[k] = load_one<N, CG>((const float*)(q + k * step));
    long long t1 = clock64();
    float s = warm;
#pragma unroll
    for (int k = 0; k < N; ++k) s += v[k];
    if (s == -1.f) out[0] = s;
    long long t2 = clock64();
    if (l == 0) {
        long long* o = st + 3 * (blockIdx.x * (blockDim.x >> 5) + w);
        o[0] = t0, o[1] = t1, o[2] = t2;
    }
}

#define BURST(N) \
    extern "C" __global__ void burst_##N##_ca(const float* a, float* out, long long* st, int lane_bytes, int zero) \
    { burst<N, false>(a, out, st, lane_bytes, zero); } \
    extern "C" __global__ void burst_##N##_cg(const float* a, float* out, long long* st, int lane_bytes, int zero) \
    { burst<N, true>(a, out, st, lane_bytes, zero); }
BURST(1) BURST(2) BURST(4) BURST(8) BURST(16) BURST(32) BURST(64)
