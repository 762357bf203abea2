// What passes the L1's shared-memory data pipe besides shared loads and stores? Each kernel isolates
// one candidate (%tid reads, %laneid, shuffles, barriers, shared memory declared, cp.async of 4, 8
// and 16 bytes, vote / redux / match); ncu's l1tex__data_pipe_lsu_wavefronts_mem_shared.sum against
// its _op_ld / _op_st / _op_atom parts tells what each adds (run.sh; compare.py beside simgpu).
// Kernels are extern "C" so that simgpu's NVRTC path launches the same code.

extern "C" __global__ void tid_x(float* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1.f; }

extern "C" __global__ void tid_xy(float* out)
{
    out[(blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x] = 1.f;
}

extern "C" __global__ void tid_xyz(float* out)
{
    out[((blockIdx.x * blockDim.z + threadIdx.z) * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x] = 1.f;
}

extern "C" __global__ void no_tid(float* out) { out[blockIdx.x] = 1.f; }

extern "C" __global__ void lane_id(float* out)
{
    unsigned l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    out[blockIdx.x * 32 + l] = 1.f;
}

extern "C" __global__ void shuffles(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = out[i];
    for (int r = 0; r < n; ++r) v += __shfl_xor_sync(0xffffffffu, v, 1 + (r & 15));
    out[i] = v;
}

extern "C" __global__ void bars(float* out, int n)
{   // barriers, no shared memory
    for (int r = 0; r < n; ++r) __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1.f;
}

extern "C" __global__ void smem_bars(float* out, int n)
{   // one conflict-free shared store and load, n barriers between
    __shared__ float s[1024];
    int t = threadIdx.x;
    s[t] = (float)t;
    for (int r = 0; r < n; ++r) __syncthreads();
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[blockDim.x - 1 - t];
}

extern "C" __global__ void smem_rounds(float* out, int n)
{   // n rounds of (barrier, conflict-free load and store): a reduction tree's shape without its idle lanes
    __shared__ float s[1024];
    int t = threadIdx.x;
    s[t] = (float)t;
    for (int r = 0; r < n; ++r) {
        __syncthreads();
        float v = s[(t + 32) & (blockDim.x - 1)];
        __syncthreads();
        s[t] = v + 1.f;
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[t];
}

extern "C" __global__ void smem_tree(float* out)
{   // a shared reduction tree: for k = 128 .. 1, lanes t < k add s[t + k] (warps go idle)
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = (float)t;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__device__ __forceinline__ void cp4(void* dst, const void* src)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(d), "l"(src));
}

__device__ __forceinline__ void cp8(void* dst, const void* src)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(d), "l"(src));
}

__device__ __forceinline__ void cp16(void* dst, const void* src)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src));
}

__device__ __forceinline__ void cp_wait()
{
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
}

extern "C" __global__ void cp_async_4(float* out, const float* in, int n)
{   // n rounds: each lane copies 4 bytes, a warp 128 contiguous bytes
    __shared__ float s[256];
    int t = threadIdx.x;
    float a = 0.f;
    for (int r = 0; r < n; ++r) {
        cp4(&s[t], &in[(size_t)(blockIdx.x * n + r) * blockDim.x + t]);
        cp_wait();
        __syncthreads();
        a += s[t];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = a;
}

extern "C" __global__ void cp_async_8(float* out, const float* in, int n)
{   // 8 bytes a lane: 256 contiguous bytes a warp
    __shared__ float2 s[256];
    int t = threadIdx.x;
    float a = 0.f;
    const float2* in2 = (const float2*)in;
    for (int r = 0; r < n; ++r) {
        cp8(&s[t], &in2[(size_t)(blockIdx.x * n + r) * blockDim.x + t]);
        cp_wait();
        __syncthreads();
        a += s[t].x + s[t].y;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = a;
}

extern "C" __global__ void cp_async_16(float* out, const float* in, int n)
{   // 16 bytes a lane: 512 contiguous bytes a warp
    __shared__ float4 s[256];
    int t = threadIdx.x;
    float a = 0.f;
    const float4* in4 = (const float4*)in;
    for (int r = 0; r < n; ++r) {
        cp16(&s[t], &in4[(size_t)(blockIdx.x * n + r) * blockDim.x + t]);
        cp_wait();
        __syncthreads();
        a += s[t].x + s[t].w;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = a;
}

extern "C" __global__ void cp_async_rows(float* out, const float* in, int n)
{   // gemm_cp_async's pattern: 16 x 16 threads, a warp copies 4 bytes a lane from two rows 1 KB apart
    __shared__ float s[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    float a = 0.f;
    for (int r = 0; r < n; ++r) {
        cp4(&s[ty][tx], &in[(size_t)(blockIdx.x * 16 + ty) * 256 + r * 16 + tx]);
        cp_wait();
        __syncthreads();
        a += s[tx][ty];
        __syncthreads();
    }
    out[(blockIdx.x * 16 + ty) * 16 + tx] = a;
}

extern "C" __global__ void vote_ballot(unsigned* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __ballot_sync(0xffffffffu, i & 1);
}

extern "C" __global__ void redux_add(int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __reduce_add_sync(0xffffffffu, i);
}

extern "C" __global__ void match_any(unsigned* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __match_any_sync(0xffffffffu, i >> 2);
}

#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cuda_runtime.h>

// The launches, in order (compare.py repeats them): name, grid, block, n.
int main()
{
    const int CTAS = 264, N = 1 << 22;
    float *out, *in;
    cudaMalloc(&out, N * 4 * sizeof(float));
    cudaMalloc(&in, N * 4 * sizeof(float));
    cudaMemset(in, 0, N * 4 * sizeof(float));
    cudaMemset(out, 0, N * 4 * sizeof(float));
    tid_x<<<CTAS, 256>>>(out);
    tid_xy<<<CTAS, dim3(16, 16)>>>(out);
    tid_xyz<<<CTAS, dim3(8, 8, 4)>>>(out);
    no_tid<<<CTAS, 256>>>(out);
    lane_id<<<CTAS, 32>>>(out);
    for (int n : {0, 1, 5, 16}) shuffles<<<CTAS, 256>>>(out, n);
    for (int n : {0, 1, 8, 32}) bars<<<CTAS, 256>>>(out, n);
    for (int n : {0, 1, 8, 32}) smem_bars<<<CTAS, 256>>>(out, n);
    for (int n : {1, 8}) smem_rounds<<<CTAS, 256>>>(out, n);
    smem_tree<<<CTAS, 256>>>(out);
    smem_tree<<<4 * CTAS, 256>>>(out);
    for (int n : {1, 8}) cp_async_4<<<CTAS, 256>>>(out, in, n);
    for (int n : {1, 8}) cp_async_8<<<CTAS, 256>>>(out, in, n);
    for (int n : {1, 8}) cp_async_16<<<CTAS, 256>>>(out, in, n);
    for (int n : {1, 8}) cp_async_rows<<<CTAS, dim3(16, 16)>>>(out, in, n);
    vote_ballot<<<CTAS, 256>>>((unsigned*)out);
    redux_add<<<CTAS, 256>>>((int*)out);
    match_any<<<CTAS, 256>>>((unsigned*)out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
#endif
