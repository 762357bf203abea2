// Does the L1 keep its lines from one launch to the next? Each CTA (one per SM) reads the 64 KB of
// its SM (%smid picks the region, so a CTA placed on another SM in the next launch still reads what
// that SM read before) `reads` times; the program launches it twice, reads = 1 then 1 (across
// launches) and once with reads = 2 (within a launch, the control). Printed per launch: reads.
#include <cstdio>
#include <cuda_runtime.h>

__device__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }

extern "C" __global__ void touch(const float *buf, float *out, int reads) {
    const float *p = buf + (size_t)smid() * (64 * 1024 / 4);
    float v = 0.f;
    for (int r = 0; r < reads; ++r)
        for (int i = threadIdx.x; i < 64 * 1024 / 4; i += blockDim.x) v += p[i];
    if (v == 12345.f) out[blockIdx.x] = v;
}

int main() {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    float *buf, *out;
    cudaMalloc(&buf, (size_t)(sms + 8) * 64 * 1024);
    cudaMalloc(&out, 4096);
    cudaMemset(buf, 0, (size_t)(sms + 8) * 64 * 1024);
    touch<<<sms, 256>>>(buf, out, 1); printf("touch 1 first\n");
    touch<<<sms, 256>>>(buf, out, 1); printf("touch 1 again\n");
    touch<<<sms, 256>>>(buf, out, 2); printf("touch 2 within\n");
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
