// DMMA through nvcuda::wmma (8x8x4 doubles): how ptxas lowers its fragment loads and stores, and
// the results, on the H200.
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void dgemm_wmma_global(const double* A, const double* B, double* C, int n)
{   // one warp per 8x8 tile of C, A and B straight from global memory (row-major, ldm n)
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int tiles = n / 8, tr = warp / tiles, tc = warp % tiles;
    if (tr >= tiles) return;
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::fill_fragment(fc, 0.0);
    for (int k = 0; k < n; k += 4) {
        wmma::load_matrix_sync(fa, A + (size_t)tr * 8 * n + k, n);
        wmma::load_matrix_sync(fb, B + (size_t)k * n + tc * 8, n);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(C + (size_t)tr * 8 * n + tc * 8, fc, n, wmma::mem_row_major);
}
extern "C" __global__ void dgemm_wmma_col(const double* At, const double* Bt, double* C, int n)
{   // the same with A and B column-major (their transposes stored row-major), C column-major
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int tiles = n / 8, tr = warp / tiles, tc = warp % tiles;
    if (tr >= tiles) return;
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::fill_fragment(fc, 0.0);
    for (int k = 0; k < n; k += 4) {
        wmma::load_matrix_sync(fa, At + (size_t)k * n + tr * 8, n);
        wmma::load_matrix_sync(fb, Bt + (size_t)tc * 8 * n + k, n);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(C + (size_t)tc * 8 * n + tr * 8, fc, n, wmma::mem_col_major);
}
