// DMMA (wmma m8n8k4 f64) latency and issue interval: clock64 around chains of n dependent
// wmma::mma_sync per warp, n = 64 and 4,096, with 1, 2, 4, 8 warps per sub-partition (132 CTAs of
// 128 * w threads). cycles per DMMA = (t(4096) - t(64)) / 4032.   ./dmma_latency
#include <cstdio>
#include <mma.h>
using namespace nvcuda;
__global__ void chain(long long* cycles, int n, double* sink, const double* zero)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::load_matrix_sync(fa, zero, 4);
    wmma::load_matrix_sync(fb, zero, 8);
    wmma::fill_fragment(fc, 1.0);
    __syncwarp();
    long long t0 = clock64();
    for (int i = 0; i < n; ++i) wmma::mma_sync(fc, fa, fb, fc);
    long long t1 = clock64();
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if ((threadIdx.x & 31) == 0) cycles[w] = t1 - t0;
    if (fc.x[0] == 12345.0) sink[w] = fc.x[1];
}
int main()
{
    long long* cyc; double *sink, *zero;
    cudaMalloc(&cyc, 132 * 32 * 8 * sizeof(long long)); cudaMalloc(&sink, 132 * 32 * 8 * 8);
    cudaMalloc(&zero, 64 * 8); cudaMemset(zero, 0, 64 * 8);
    for (int w = 1; w <= 8; w *= 2) {
        double per[2];
        int ns[2] = {64, 4096};
        for (int j = 0; j < 2; ++j) {
            chain<<<132, 128 * w>>>(cyc, ns[j], sink, zero);
            chain<<<132, 128 * w>>>(cyc, ns[j], sink, zero);
            cudaDeviceSynchronize();
            int nw = 132 * 4 * w;
            long long* h = new long long[nw];
            cudaMemcpy(h, cyc, nw * sizeof(long long), cudaMemcpyDeviceToHost);
            double s = 0; for (int i = 0; i < nw; ++i) s += h[i];
            per[j] = s / nw; delete[] h;
        }
        printf("latency dmma.m8n8k4.f64 warps_per_smsp %d cycles_per_inst %.2f\n", w, (per[1] - per[0]) / (4096 - 64));
    }
    return 0;
}
