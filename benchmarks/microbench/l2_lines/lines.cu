// How many L2 hits per ns does the H200 serve when each warp load spreads over more lines? Every
// SM (8 CTAs of 256 threads) reads a 24 MB buffer that sits in L2 (read once before): each warp
// load takes 32 floats lane_bytes apart (4: one line, four sectors; 32: eight lines of four
// sectors; 64: sixteen lines of two; 128 and up: 32 lines, one sector each). main() times each
// pattern with events (the median of 7 runs after a warm-up) and prints ns, sectors and lines.
extern "C" __global__ void read_lines(const float* buf, float* out, int lane_bytes, int iters, long long span)
{
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    long long gw = (long long)blockIdx.x * (blockDim.x >> 5) + w;
    long long step = 32LL * lane_bytes;
    long long pos = (gw * step * 4) % span;
    const char* b = (const char*)buf;
    float s = 0.f;
    for (int i = 0; i < iters; i += 4) {
        float a0 = *(const float*)(b + pos + (long long)l * lane_bytes);
        float a1 = *(const float*)(b + (pos + step) % span + (long long)l * lane_bytes);
        float a2 = *(const float*)(b + (pos + 2 * step) % span + (long long)l * lane_bytes);
        float a3 = *(const float*)(b + (pos + 3 * step) % span + (long long)l * lane_bytes);
        s += a0 + a1 + a2 + a3;
        pos = (pos + 4 * step * 1056 * 8) % span;  // the next four loads skip the other warps'
    }
    if (s == -1.f) out[0] = s;
}

#ifndef __CUDACC_RTC__
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

int main()
{
    const int ctas = 1056, threads = 256, iters = 64;
    const long long span = 24LL << 20;
    float *buf, *out;
    cudaMalloc(&buf, span + 64 * 1024);
    cudaMalloc(&out, 64);
    cudaMemset(buf, 0, span + 64 * 1024);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    printf("lane_bytes ns_median warp_loads sectors lines\n");
    for (int lane : {4, 8, 16, 32, 64, 128, 256}) {
        long long sectors_per = lane >= 32 ? 32 : 32 * lane / 32;  // sectors per warp load
        long long lines_per = lane >= 128 ? 32 : 32 * lane / 128;
        if (lines_per < 1) lines_per = 1;
        read_lines<<<ctas, threads>>>(buf, out, lane, iters, span);  // warm-up: data into L2
        std::vector<float> t;
        for (int r = 0; r < 7; ++r) {
            cudaEventRecord(e0);
            read_lines<<<ctas, threads>>>(buf, out, lane, iters, span);
            cudaEventRecord(e1);
            cudaEventSynchronize(e1);
            float ms;
            cudaEventElapsedTime(&ms, e0, e1);
            t.push_back(ms * 1e6f);
        }
        std::sort(t.begin(), t.end());
        long long loads = (long long)ctas * (threads / 32) * iters;
        printf("%d %.0f %lld %lld %lld\n", lane, t[3], loads, loads * sectors_per, loads * lines_per);
    }
    printf("lines: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
#endif
