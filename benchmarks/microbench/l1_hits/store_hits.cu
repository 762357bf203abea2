// When does ncu count a global store sector as an L1 hit?  Every thread writes its own row of
// ROW floats with one scalar store per float (the flash_attn epilogue's pattern: a warp's store
// touches 32 sectors in 32 lines, and the next 7 stores hit the same sectors, the next 31 the same
// lines).  Varied: threads per CTA, the shared-memory carve-out (attribute, or dynamic shared
// memory that forces it), a spin between stores, a load of the row before the stores.
// Second set (mode != 0): stores to two rows in turn (is it the previous request that matters, or
// the time?), a reload of the stored row after a pause (do stores leave valid sectors?), a reload of
// the unwritten half of partly written sectors.
#include <cstdio>
#include <cuda_runtime.h>

#define ROW 64

__global__ void rowstore2(float* out, float* other, int mode, int zero, float v)
{
    float* row = out + (size_t)(blockIdx.x * blockDim.x + threadIdx.x) * ROW;
    float* row2 = out + (size_t)(gridDim.x * blockDim.x + blockIdx.x * blockDim.x + threadIdx.x) * ROW;
    if (mode == 1) {            // rows A and B in turn: A(d) follows B(d-1)
#pragma unroll
        for (int d = 0; d < ROW; ++d) { row[d] = v + d; row2[d] = v - d; }
        return;
    }
    const int step = mode == 3 ? 2 : 1;   // mode 3: only the even floats are written
#pragma unroll
    for (int d = 0; d < ROW; d += step) row[d] = v + d;
    if (mode == 0) return;
    long long t0 = clock64();
    while (clock64() - t0 < 4000) { }
    const float* back = row + zero;        // zero == 0 at run time: the compiler must reload
    float acc = 0.0f;
#pragma unroll
    for (int d = step - 1; d < ROW; d += step) acc += back[d];
    other[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void rowstore(float* out, int spin, int preload, float v)
{
    extern __shared__ float pad[];
    float* row = out + (size_t)(blockIdx.x * blockDim.x + threadIdx.x) * ROW;
    if (preload) v += row[0];
    if (blockDim.x == 1 << 30) pad[0] = v;   // keeps the shared array alive
#pragma unroll
    for (int d = 0; d < ROW; ++d) {
        row[d] = v + d;
        if (spin) {
            long long t0 = clock64();
            while (clock64() - t0 < spin) { }
        }
    }
}

static void run(const char* label, float* out, int grid, int block, int smem, int carveout, int spin, int preload)
{
    if (smem > 48 * 1024)
        cudaFuncSetAttribute(rowstore, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    cudaFuncSetAttribute(rowstore, cudaFuncAttributePreferredSharedMemoryCarveout, carveout);
    rowstore<<<grid, block, smem>>>(out, spin, preload, 1.0f);
    cudaDeviceSynchronize();
    printf("LAUNCH %s grid=%d block=%d smem=%d carveout=%d spin=%d preload=%d: %s\n", label, grid, block,
           smem, carveout, spin, preload, cudaGetErrorString(cudaGetLastError()));
}

static void run2(const char* label, float* out, float* other, int grid, int block, int mode)
{
    rowstore2<<<grid, block>>>(out, other, mode, 0, 1.0f);
    cudaDeviceSynchronize();
    printf("LAUNCH %s grid=%d block=%d mode=%d: %s\n", label, grid, block, mode,
           cudaGetErrorString(cudaGetLastError()));
}

int main()
{
    float* out;
    float* other;
    cudaMalloc(&out, (size_t)64 * 1024 * ROW * sizeof(float));
    cudaMalloc(&other, (size_t)64 * 1024 * sizeof(float));
    run2("b32_alternate", out, other, 8, 32, 1);
    run2("b32_store_reload", out, other, 8, 32, 2);
    run2("b32_half_reload", out, other, 8, 32, 3);
    run2("b64_store_reload", out, other, 4, 64, 2);
    run2("b64_half_reload", out, other, 4, 64, 3);
    run2("b32_264cta", out, other, 264, 32, 0);
    run("b32", out, 8, 32, 0, -1, 0, 0);
    run("b64", out, 4, 64, 0, -1, 0, 0);
    run("b128", out, 2, 128, 0, -1, 0, 0);
    run("b256", out, 1, 256, 0, -1, 0, 0);
    run("b32_smem20k", out, 8, 32, 20 * 1024, -1, 0, 0);
    run("b64_smem20k", out, 4, 64, 20 * 1024, -1, 0, 0);
    run("b32_carve100", out, 8, 32, 0, 100, 0, 0);
    run("b64_carve100", out, 4, 64, 0, 100, 0, 0);
    run("b32_carve0", out, 8, 32, 0, 0, 0, 0);
    run("b64_carve0", out, 4, 64, 0, 0, 0, 0);
    run("b32_smem200k", out, 8, 32, 200 * 1024, -1, 0, 0);
    run("b64_smem200k", out, 4, 64, 200 * 1024, -1, 0, 0);
    run("b64_spin2000", out, 4, 64, 0, -1, 2000, 0);
    run("b32_spin2000", out, 8, 32, 0, -1, 2000, 0);
    run("b32_preload", out, 8, 32, 0, -1, 0, 1);
    run("b64_preload", out, 4, 64, 0, -1, 0, 1);
    run("b32_132cta", out, 132, 32, 0, -1, 0, 0);
    run("b64_132cta", out, 132, 64, 0, -1, 0, 0);
    cudaFree(out);
    return 0;
}
