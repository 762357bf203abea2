// How big is the H200's L1 beside each shared-memory carveout, and how does it index its sets?
// One warp per SM (132 CTAs of 32 threads), each lane one 128-byte line per load (sector 0), a
// region of `lines` lines `stride` lines apart from line `base`, swept `rounds` times. ncu gives
// per launch the load sectors, their L1 hits and the carveout the driver chose (run.sh).
//   capacity: carveout C (preferred-carveout attribute), sweeps of 256 - C - 14 .. 256 - C + 2 KB
//   base:     216 / 212 KB sweeps at the 32 KB carveout starting 0 .. 69 lines past a 2 MB boundary
//   stride:   200 / 216 KB worth of lines at strides of 1 .. 32,768 lines (128 B .. 4 MB) and some
//             odd strides, at the 32 KB carveout: which address bits pick the set
#include <cstdio>
__global__ void sweep(const int* __restrict__ buf, long long base, int lines, long long stride, int rounds,
                      int* out)
{
    int acc = 0;
    for (int r = 0; r < rounds; ++r)
        for (int i = threadIdx.x; i < lines; i += 32) acc += buf[(base + (long long)i * stride) * 32];
    if (acc == 0x7fffffff) out[blockIdx.x] = acc;
}
static const int ROUNDS = 4;
static void launch(const int* buf, long long base, int lines, long long stride, int pct, const char* what,
                   int* out)
{
    cudaFuncSetAttribute(sweep, cudaFuncAttributePreferredSharedMemoryCarveout, pct);
    sweep<<<132, 32>>>(buf, base, lines, stride, ROUNDS, out);
    printf("%s carveout_pct %d base %lld lines %d stride %lld\n", what, pct, base, lines, stride);
}
int main()
{
    const size_t bytes = (size_t)8 << 30;  // 8 GB: 1,728 lines 4 MB apart
    int *buf, *out;
    if (cudaMalloc(&buf, bytes) != cudaSuccess) { fprintf(stderr, "no 8 GB\n"); return 1; }
    cudaMemset(buf, 0, bytes);
    cudaMalloc(&out, 4096);
    const int carve_kb[] = {0, 8, 16, 32, 64, 132};
    for (int c : carve_kb) {
        int pct = c * 100 / 228;  // rounded down: the driver rounds up to the next carveout
        for (int kb = 256 - c - 14; kb <= 256 - c + 2; ++kb) launch(buf, 0, kb * 8, 1, pct, "capacity", out);
    }
    const int bases[] = {0, 1, 3, 8, 17, 31, 32, 69};
    for (int kb : {212, 216})
        for (int b : bases) launch(buf, 16384 + b, kb * 8, 1, 14, "base", out);
    for (int kb : {200, 216})
        for (long long s = 1; s <= 32768; s *= 2) launch(buf, 0, kb * 8, s, 14, "stride", out);
    for (long long s : {3, 5, 7, 31, 33, 96, 1000})
        launch(buf, 0, 216 * 8, s, 14, "stride", out);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
