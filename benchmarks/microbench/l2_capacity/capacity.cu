// How much the H200's L2 holds, and what takes its room (issue 3: dram__bytes_write of streaming
// kernels with 34-88 MB footprints is 2-100 % of what they wrote, where simgpu's one 60 MB cache
// wrote nothing back). One kernel per question; every kernel is one CTA of 1,024 threads per SM (or
// one CTA in all) so that a spin barrier between its passes is safe. The passes p0..p1-1 run in one
// launch on the GPU; simgpu runs one launch per pass with warm caches (same accesses, same order).
//   reuse        read R bytes twice; pass p reads chunk (cta + p*shift) % ctas: shift 0 = the same SM
//                reads its lines again, shift ctas/2 = another SM (on either side)
//   write_read   write W bytes, then read R bytes of other data: the dirty lines the reads evict
//   write_reread write W bytes, then read them back (same SM, shift 0): whether a far write leaves a
//                copy on the writer's side (tex hits without fabric lookups)
//   vadd         c = a + b over n floats, 256-thread CTAs (the calibration vector_add at other sizes)
// Printed per launch, in launch order: kernel ctas bytes_r bytes_w shift.
#ifndef SIMGPU_NO_MAIN
#include <cstdio>
#include <cuda_runtime.h>
#endif

__device__ void grid_sync(unsigned *bar, unsigned target) {
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(bar, 1u);
        while (*(volatile unsigned *)bar < target) {}
        __threadfence();
    }
    __syncthreads();
}

__device__ float read_chunks(const float4 *a, long long n4, int chunk) {
    float v = 0.f;
    for (long long i = (long long)chunk * blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
        float4 x = a[i];
        v += x.x + x.y + x.z + x.w;
    }
    return v;
}

extern "C" __global__ void reuse(const float4 *a, long long n4, int p0, int p1, int shift, unsigned *bar,
                                 float *out) {
    float v = 0.f;
    for (int p = p0; p < p1; ++p) {
        if (p > p0) grid_sync(bar, gridDim.x * (p - p0));
        v += read_chunks(a, n4, (blockIdx.x + p * shift) % gridDim.x);
    }
    if (v == 12345.f) out[blockIdx.x] = v;
}

extern "C" __global__ void write_read(float4 *w, long long nw4, const float4 *r, long long nr4, int p0, int p1,
                                      int shift, unsigned *bar, float *out) {
    float v = 0.f;
    for (int p = p0; p < p1; ++p) {
        if (p > p0) grid_sync(bar, gridDim.x * (p - p0));
        if (p == 0) {
            for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < nw4;
                 i += (long long)gridDim.x * blockDim.x)
                w[i] = make_float4(1.f, 2.f, 3.f, 4.f);
        } else {
            v += read_chunks(r, nr4, (blockIdx.x + p * shift) % gridDim.x);
        }
    }
    if (v == 12345.f) out[blockIdx.x] = v;
}

extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

#ifndef SIMGPU_NO_MAIN
int main() {
    const long long MB = 1 << 20;
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    float4 *a, *b;
    float *o;
    unsigned *bar;
    cudaMalloc(&a, 72 * MB);
    cudaMalloc(&b, 72 * MB);
    cudaMalloc(&o, 1 * MB);
    cudaMalloc(&bar, 4096);
    cudaMemset(a, 0, 72 * MB);
    cudaMemset(b, 0, 72 * MB);
    auto reuse_run = [&](int ctas, long long bytes, int shift) {
        cudaMemset(bar, 0, 4096);
        reuse<<<ctas, 1024>>>(a, bytes / 16, 0, 2, shift, bar, o);
        printf("reuse %d %lld 0 %d\n", ctas, bytes, shift);
    };
    for (int mb : {16, 24, 28, 32, 36, 40, 44, 48, 52, 56, 64}) reuse_run(sms, mb * MB, 0);
    for (int mb : {24, 32, 40, 48, 56}) reuse_run(sms, mb * MB, sms / 2);
    for (int mb : {16, 24, 28, 32, 40, 48}) reuse_run(1, mb * MB, 0);
    auto wr = [&](long long wb, long long rb, int shift, const char *name, bool same) {
        cudaMemset(bar, 0, 4096);
        write_read<<<sms, 1024>>>(a, wb / 16, same ? a : b, rb / 16, 0, 2, shift, bar, o);
        printf("%s %d %lld %lld %d\n", name, sms, rb, wb, shift);
    };
    for (int mb : {8, 16, 24, 32, 40, 48, 56}) wr(8 * MB, mb * MB, 0, "write_read", false);
    for (int mb : {8, 16, 24, 32}) wr(24 * MB, mb * MB, 0, "write_read", false);
    wr(8 * MB, 8 * MB, 0, "write_reread", true);
    wr(8 * MB, 8 * MB, sms / 2, "write_reread", true);
    for (int m : {2, 3, 4, 5, 6}) {
        int n = m << 20;
        vadd<<<n / 256, 256>>>((float *)a, (float *)b, (float *)a + (8ll << 20), n);
        printf("vadd %d %lld %lld 0\n", n / 256, 8ll * n, 4ll * n);
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
#endif
