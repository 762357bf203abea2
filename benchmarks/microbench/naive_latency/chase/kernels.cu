// One warp walks a column of an int matrix with dependent loads (each address adds the previous
// value, which is 0): the latency of one load of naive_latency's B walk, from DRAM or from L2.
// Lanes 0-15 read 16 consecutive ints of a row, lanes 16-31 the same (as gemm_naive's two rows).
extern "C" __global__ void col_chase(const int* B, int* out, int K, int stride, int passes)
{
    int col = threadIdx.x & 15;
    int x = 0;
    for (int p = 0; p < passes; ++p)
        for (int k = 0; k < K; ++k) x = __ldcg(&B[(size_t)k * stride + col + x]);
    out[threadIdx.x] = x;
}
