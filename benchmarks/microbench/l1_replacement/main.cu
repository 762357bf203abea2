// Host side of l1_replacement (nvcc -arch=sm_90 main.cu): the launches, one line each on stdout.
#include <cstdio>
#include "kernels.cu"

static const int ROUNDS = 4;

int main()
{
    int nsm = 0;
    cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0);
    int *buf, *out;
    if (cudaMalloc(&buf, (size_t)96 << 20) != cudaSuccess || cudaMalloc(&out, (size_t)16 << 20) != cudaSuccess) {
        fprintf(stderr, "no memory\n");
        return 1;
    }
    cudaMemset(buf, 1, (size_t)96 << 20);
    const int kbs[] = {208, 216, 220, 224, 228, 232, 240, 256, 288};
    struct { const char* name; void (*fn)(const int*, int, int, int*); int block; } sweeps[] = {
        {"lanes_nc", lanes_nc, 32}, {"lanes_ld", lanes_ld, 32}, {"rows_ld", rows_ld, 32},
        {"rows_nc", rows_nc, 32}, {"rows_ld", rows_ld, 256}, {"lanes_ld", lanes_ld, 256}};
    for (auto& s : sweeps)
        for (int kb : kbs) {
            s.fn<<<nsm, s.block>>>(buf, kb * 8, ROUNDS, out);
            printf("%s block %d lines %d rounds %d grid %d\n", s.name, s.block, kb * 8, ROUNDS, nsm);
        }
    for (int k = 5; k <= 8; ++k) {
        chunk<<<nsm * k, 256>>>(buf, 1, out);
        printf("chunk block 256 lines %d rounds 1 grid %d\n", k * 256, nsm * k);
    }
    // col_softmax's shape (8,192 columns: 32 CTAs of 8 warps, rows 32 KB apart) and padded rows
    for (int cols : {8192, 8192 + 32})
        for (int rows : {160, 192, 208, 224, 256}) {
            cols_ld<<<cols / 256, 256>>>((const float*)buf, rows, cols, ROUNDS, (float*)out);
            printf("cols_ld block 256 lines %d rounds %d grid %d cols %d\n", rows * 8, ROUNDS, cols / 256, cols);
        }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
