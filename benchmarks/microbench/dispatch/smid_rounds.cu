// Where does the chip put the CTAs of a launch of several full rounds (more CTAs than SMs, all
// resident at once)? And which SMs form a GPC (clusters of 8 never leave one)?
//   ./smid_rounds N:THREADS:SMEM,...   RESULT {"n", "threads", "smem", "smid": [...]} per launch
//   ./smid_rounds clusters             RESULT {"cluster": 8, "smid": [[...], ...]} (SMs of each cluster)
// Every CTA spins 400,000 cycles, so no SM frees up while the launch is being placed.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("RESULT {\"error\": \"%s line %d\"}\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }

extern "C" __global__ void where(int* rec, int spin) {
    // the dynamic shared memory (launch argument) only limits the CTAs an SM holds; it is not touched
    if (threadIdx.x == 0) rec[blockIdx.x] = smid();
    long long c0 = clock64(); while (clock64() - c0 < spin) {}
}

extern "C" __global__ void __cluster_dims__(8, 1, 1) where_cluster(int* rec, int spin) {
    if (threadIdx.x == 0) rec[blockIdx.x] = smid();
    long long c0 = clock64(); while (clock64() - c0 < spin) {}
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    int* rec; CK(cudaMalloc(&rec, 8192 * 4));
    if (!strcmp(argv[1], "clusters")) {
        for (int rep = 0; rep < 4; ++rep) {
            int n = 8 * (16 + 4 * rep);  // 16-28 clusters: every GPC hosts several
            CK(cudaMemset(rec, 0xff, 8192 * 4));
            where_cluster<<<n, 128>>>(rec, 400000);
            CK(cudaDeviceSynchronize());
            std::vector<int> h(n);
            CK(cudaMemcpy(h.data(), rec, n * 4, cudaMemcpyDeviceToHost));
            printf("RESULT {\"cluster\": 8, \"smid\": [");
            for (int c = 0; c < n / 8; ++c) {
                printf("%s[", c ? "," : "");
                for (int i = 0; i < 8; ++i) printf("%s%d", i ? "," : "", h[c * 8 + i]);
                printf("]");
            }
            printf("]}\n");
        }
        return 0;
    }
    CK(cudaFuncSetAttribute(where, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    char* s = strdup(argv[1]);
    for (char* t = strtok(s, ","); t; t = strtok(0, ",")) {
        int n = 0, threads = 256, smem = 0;
        sscanf(t, "%d:%d:%d", &n, &threads, &smem);
        CK(cudaMemset(rec, 0xff, 8192 * 4));
        where<<<n, threads, smem>>>(rec, 400000);
        CK(cudaDeviceSynchronize());
        std::vector<int> h(n);
        CK(cudaMemcpy(h.data(), rec, n * 4, cudaMemcpyDeviceToHost));
        printf("RESULT {\"n\": %d, \"threads\": %d, \"smem\": %d, \"smid\": [", n, threads, smem);
        for (int i = 0; i < n; ++i) printf("%s%d", i ? "," : "", h[i]);
        printf("]}\n");
        fflush(stdout);
    }
    return 0;
}
