// Which lines does the H200's L1 keep when it overflows? One warp per SM (132 CTAs of 32 threads,
// no shared memory: a 224 KB L1 by the driver's 32 KB carve-out, ../l2_hit_rate), each lane one
// 128-byte line per load (sector 0), so the L1 holds one sector per line.
//   cyclic:  N KB swept 8 times (N = 208..240 KB in 2 KB steps): where the first losses start
//   hot:     a hot block of H KB read once after every S KB of a 4 MB stream (H = 32, 64, 128, 192;
//            S = 16, 64): LRU keeps the hot block when H + S fits; random replacement loses part
// ncu gives per launch the load sectors and their L1 hits (run.sh).
#include <cstdio>
__global__ void cyclic(const int* __restrict__ buf, int lines, int rounds, int* out)
{
    int acc = 0;
    for (int r = 0; r < rounds; ++r)
        for (int i = threadIdx.x; i < lines; i += 32) acc += buf[(size_t)i * 32];
    if (acc == 0x7fffffff) out[blockIdx.x] = acc;
}
__global__ void hot(const int* __restrict__ buf, int hot_lines, int step_lines, int stream_lines, int* out)
{   // hot block: lines [0, hot_lines); stream: lines [hot_lines, hot_lines + stream_lines)
    int acc = 0;
    for (int s = 0; s < stream_lines; s += step_lines) {
        for (int i = threadIdx.x; i < hot_lines; i += 32) acc += buf[(size_t)i * 32];
        for (int i = threadIdx.x; i < step_lines; i += 32) acc += buf[(size_t)(hot_lines + s + i) * 32];
    }
    if (acc == 0x7fffffff) out[blockIdx.x] = acc;
}
int main()
{
    int *buf, *out;
    cudaMalloc(&buf, (size_t)64 << 20);
    cudaMemset(buf, 0, (size_t)64 << 20);
    cudaMalloc(&out, 4096);
    for (int kb = 208; kb <= 240; kb += 2) {
        cyclic<<<132, 32>>>(buf, kb * 8, 8, out);
        printf("cyclic %d KB\n", kb);
    }
    for (int h : {32, 64, 128, 192})
        for (int s : {16, 64}) {
            hot<<<132, 32>>>(buf, h * 8, s * 8, 4096 * 8, out);
            printf("hot %d KB step %d KB\n", h, s);
        }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
