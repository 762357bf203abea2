// Where does the H200 put the CTAs of a launch with fewer CTAs than SMs (or a few more)?
// Each CTA records %smid; one launch per grid size, 256 threads per CTA (16x16 for the 2-D grids).
//   ./smid_map N1,N2,...        RESULT {"n": N, "smid": [...]} per launch (2-D grid when N is 64 -> 8x8)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("RESULT {\"error\": \"%s line %d\"}\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
extern "C" __global__ void where(int* rec, int spin) {
    int b = blockIdx.x + gridDim.x * blockIdx.y;
    if (threadIdx.x == 0 && threadIdx.y == 0) rec[b] = smid();
    // stay resident a while, so that no CTA runs on an SM another CTA of this launch has just left
    long long c0 = clock64(); while (clock64() - c0 < spin) {}
}
int main(int argc, char** argv) {
    if (argc < 2) return 2;
    std::vector<int> ns; { char* s = strdup(argv[1]); for (char* t = strtok(s, ","); t; t = strtok(0, ",")) ns.push_back(atoi(t)); }
    int* rec; CK(cudaMalloc(&rec, 4096 * 4));
    for (int n : ns) {
        CK(cudaMemset(rec, 0xff, 4096 * 4));
        bool two_d = n < 0;  // -N: a sqrt(N) x sqrt(N) grid of 16x16 threads
        int m = two_d ? -n : n, side = 1;
        while (side * side < m) ++side;
        if (two_d) where<<<dim3(side, side), dim3(16, 16)>>>(rec, 200000);
        else where<<<m, 256>>>(rec, 200000);
        CK(cudaDeviceSynchronize());
        std::vector<int> h(m);
        CK(cudaMemcpy(h.data(), rec, m * 4, cudaMemcpyDeviceToHost));
        printf("RESULT {\"n\": %d, \"two_d\": %d, \"smid\": [", m, two_d ? 1 : 0);
        for (int i = 0; i < m; ++i) printf("%s%d", i ? "," : "", h[i]);
        printf("]}\n");
        fflush(stdout);
    }
    return 0;
}
