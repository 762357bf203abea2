// warp_drift: how far apart an SM's warps get in time, measured from inside the kernel.
// Each warp's lane 0 writes clock64() (the SM's cycle counter) at the top of every loop iteration,
// and its SM id once. Two kernels whose L1 hits depend on that drift (simgpu/timing/l1_order.py):
//  * wmma_drift: validation/typical7's wmma_gemm_f16 (one warp per 16x16 tile of C, fragments from
//    global memory), 64 k-steps of 16;
//  * rows_drift: a warp per row of 1,024 floats read twice (validation/typical13 cross_entropy_rows'
//    pattern), 32 steps a pass, 64 in all.
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }

extern "C" __global__ void wmma_drift(const __half* A, const __half* B, float* C, int n,
                                      long long* stamps, int* sm_of_warp)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    int tiles = n / 16, ti = warp / tiles, tj = warp % tiles, steps = n / 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.f);
    if (lane == 0) sm_of_warp[warp] = smid();
    for (int s = 0; s < steps; ++s) {
        long long t = clock64();
        if (lane == 0) stamps[(size_t)warp * steps + s] = t;
        wmma::load_matrix_sync(a, A + (size_t)ti * 16 * n + s * 16, n);
        wmma::load_matrix_sync(b, B + (size_t)tj * 16 * n + s * 16, n);
        wmma::mma_sync(c, a, b, c);
    }
    wmma::store_matrix_sync(C + (size_t)ti * 16 * n + tj * 16, c, n, wmma::mem_row_major);
}

extern "C" __global__ void rows_drift(const float* x, float* out, int row_floats, long long* stamps, int* sm_of_warp)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    const float* row = x + (size_t)warp * row_floats;
    int steps = 2 * row_floats / 32;
    if (lane == 0) sm_of_warp[warp] = smid();
    float s = 0.f;
    for (int k = 0; k < steps; ++k) {
        long long t = clock64();
        if (lane == 0) stamps[(size_t)warp * steps + k] = t;
        s += row[(k % (row_floats / 32)) * 32 + lane];
    }
    if (lane == 0) out[warp] = s;
}
