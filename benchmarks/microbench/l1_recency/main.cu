// Host side of l1_recency (nvcc -arch=sm_90 main.cu): the launches, one line each on stdout;
// `main store`: the store variant's (run_store.sh).
#include <cstdio>
#include <cstring>
#include "kernels.cu"

int main(int argc, char** argv)
{
    int nsm = 0;
    cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0);
    int *buf, *out;
    if (cudaMalloc(&buf, (size_t)64 << 20) != cudaSuccess || cudaMalloc(&out, (size_t)1 << 20) != cudaSuccess) {
        fprintf(stderr, "no memory\n");
        return 1;
    }
    cudaMemset(buf, 1, (size_t)64 << 20);
    const int a = 64 * 8, b = 64 * 8;  // 64 KB each (8 lines a KB)
    if (argc > 1 && !strcmp(argv[1], "store")) {  // run_store.sh: A read once, then stored 0, 1 or 3 times
        for (int stores : {0, 1, 3})
            for (int s_kb : {32, 64, 96, 128, 160})
                for (int last = 0; last < 3; ++last) {
                    phases_stored<<<nsm, 32>>>(buf, a, stores, b, s_kb * 8, last, out);
                    // `a_reps` is the number of stores, so table.py reads these launches as the others
                    printf("phases_stored a %d a_reps %d b %d s %d last %d grid %d\n", a, stores, b, s_kb * 8, last, nsm);
                }
    } else {
        for (int reps : {1, 4})
            for (int s_kb : {32, 64, 80, 96, 112, 128, 160})
                for (int last = 0; last < 3; ++last) {
                    phases<<<nsm, 32>>>(buf, a, reps, b, s_kb * 8, last, out);
                    printf("phases a %d a_reps %d b %d s %d last %d grid %d\n", a, reps, b, s_kb * 8, last, nsm);
                }
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
