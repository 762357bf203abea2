// validation/typical col_major_read with a record per CTA: its SM (%smid), the global timer when
// it started and when warp 0's load came back. Which SMs and how far apart in time are the 8 CTAs
// that read each sector? (simgpu merges their L1 misses before L2 far more than the H200 does.)
//   ./col_major > records.txt      (a line per CTA: cta sm t_start_ns t_loaded_ns)
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned long long gtimer() { unsigned long long r; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r)); return r; }

extern "C" __global__ void col_major_rec(const float* a, float* out, int rows, int cols, unsigned* rec_sm,
                                         unsigned long long* rec_t)
{
    unsigned long long t0 = gtimer();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0.f;
    if (i < rows * cols) {
        int r = i / cols, c = i % cols;
        v = a[c * rows + r];
        out[i] = v;
    }
    if (threadIdx.x == 0) {
        rec_sm[blockIdx.x] = smid();
        rec_t[2 * blockIdx.x] = t0;
        rec_t[2 * blockIdx.x + 1] = gtimer() + (v == 12345.f ? 1 : 0);  // after the load's data
    }
}

int main()
{
    const int rows = 1024, cols = 1024, n = rows * cols, ctas = n / 256;
    float *a, *out;
    unsigned* sm;
    unsigned long long* t;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMalloc(&sm, ctas * sizeof(unsigned));
    cudaMalloc(&t, 2 * ctas * sizeof(unsigned long long));
    cudaMemset(a, 0, n * sizeof(float));
    for (int rep = 0; rep < 3; ++rep) {
        cudaMemset(out, 0, n * sizeof(float));
        col_major_rec<<<ctas, 256>>>(a, out, rows, cols, sm, t);
        cudaDeviceSynchronize();
    }
    std::vector<unsigned> hs(ctas);
    std::vector<unsigned long long> ht(2 * ctas);
    cudaMemcpy(hs.data(), sm, ctas * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(ht.data(), t, 2 * ctas * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
    unsigned long long t_min = ht[0];
    for (int b = 0; b < ctas; ++b) t_min = ht[2 * b] < t_min ? ht[2 * b] : t_min;
    for (int b = 0; b < ctas; ++b)
        printf("%d %u %llu %llu\n", b, hs[b], ht[2 * b] - t_min, ht[2 * b + 1] - t_min);
    printf("# %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
