// Where do the L2's "membar" and other non-tex sectors come from? (l2_hit_rate README section 1: ncu
// counts 1.6k-76k of them per launch, all hits, in every L2 hit rate.) One factor per kernel: an
// empty grid, a spin without memory, full-line and partial-sector writes of several sizes, reads
// only, writes followed by a spin, a buffer written twice. Printed per launch, in launch order:
// kernel ctas threads bytes spin.
#include <cstdio>
#include <cuda_runtime.h>

extern "C" __global__ void empty_k() {}

extern "C" __global__ void spin_k(long long cycles, int *out) {
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
    if (threadIdx.x == 1023) out[0] = 1;  // never: no memory traffic
}

extern "C" __global__ void write_k(float *b, int n, int stride, long long spin) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n; i += gridDim.x * blockDim.x) b[(size_t)i * stride] = 1.f;
    long long t0 = clock64();
    while (clock64() - t0 < spin) {}
}

extern "C" __global__ void read_k(const float *a, float *out, int n) {
    float v = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += a[i];
    if (v == 12345.f) out[blockIdx.x] = v;
}

int main() {
    float *a, *b;
    int *o;
    size_t big = 64ull << 20;
    cudaMalloc(&a, big);
    cudaMalloc(&b, big);
    cudaMalloc(&o, 1 << 20);
    cudaMemset(a, 0, big);
    cudaMemset(b, 0, big);
    for (int ctas : {132, 1056, 8448}) { empty_k<<<ctas, 256>>>(); printf("empty %d 256 0 0\n", ctas); }
    for (long long c : {10000LL, 100000LL}) { spin_k<<<132, 256>>>(c, o); printf("spin %d 256 0 %lld\n", 132, c); }
    for (int mb : {1, 4, 16}) {
        int n = mb << 18;  // floats
        write_k<<<264, 256>>>(b, n, 1, 0); printf("write_full 264 256 %d 0\n", mb << 20);
        write_k<<<264, 256>>>(b, n / 2, 2, 0); printf("write_half 264 256 %d 0\n", mb << 20);
        read_k<<<264, 256>>>(a, (float *)o, n); printf("read 264 256 %d 0\n", mb << 20);
    }
    for (long long c : {20000LL, 200000LL}) {
        write_k<<<264, 256>>>(b, 1 << 20, 1, c); printf("write_full_spin 264 256 %d %lld\n", 4 << 20, c);
    }
    write_k<<<1056, 256>>>(b, 1 << 20, 1, 0); printf("write_full 1056 256 %d 0\n", 4 << 20);
    write_k<<<33, 256>>>(b, 1 << 20, 1, 0); printf("write_full 33 256 %d 0\n", 4 << 20);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
