// Where the H200 puts the CTAs of launches with several CTAs per SM, and when they run.
//   ./rounds      RESULT {"name": ..., "smid": [...], "start": [...], "end": [...]} per launch
// 1. `where`: every CTA records %smid and spins, so all CTAs of a launch that fits are resident
//    together (full rounds: 1,056 CTAs of 256 threads = 8 per SM; 1,024 of 128 threads; 64x16 of 128).
// 2. Two GEMMs of validation/typical9 (batched_gemm_z: 16x16x8 CTAs of 256 threads, two waves;
//    mma_ldmatrix_gemm: 64x16 CTAs of 128 threads, one wave), each CTA recording %smid and
//    %globaltimer when its thread 0 starts and ends: how far apart CTAs that share data run.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("RESULT {\"error\": \"%s line %d\"}\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)
__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned long long gtime() { unsigned long long r; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r)); return r; }
__device__ __forceinline__ int cta() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }

extern "C" __global__ void where(int* sm, unsigned long long* t0, int spin) {
    if (threadIdx.x == 0 && threadIdx.y == 0) { sm[cta()] = smid(); t0[cta()] = gtime(); }
    long long c0 = clock64(); while (clock64() - c0 < spin) {}
}

#define BT 16
extern "C" __global__ void batched_gemm_z(const float* A, const float* B, float* C, int n, int* sm,
                                          unsigned long long* t0, unsigned long long* t1)
{
    if (threadIdx.x == 0 && threadIdx.y == 0) { sm[cta()] = smid(); t0[cta()] = gtime(); }
    __shared__ float As[BT][BT], Bs[BT][BT];
    const float* a = A + (size_t)blockIdx.z * n * n;
    const float* b = B + (size_t)blockIdx.z * n * n;
    int row = blockIdx.y * BT + threadIdx.y, col = blockIdx.x * BT + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += BT) {
        As[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < BT; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[(size_t)blockIdx.z * n * n + row * n + col] = acc;
    if (threadIdx.x == 0 && threadIdx.y == 0) t1[cta()] = gtime();
}

extern "C" __global__ void mma_ldmatrix_gemm(const __half* A, const __half* Bt, float* C, int M, int N, int K,
                                             int* sm, unsigned long long* t0, unsigned long long* t1)
{
    if (threadIdx.x == 0) { sm[cta()] = smid(); t0[cta()] = gtime(); }
    __shared__ __align__(16) __half As[64][16 + 8];
    __shared__ __align__(16) __half Bs[8][16 + 8];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int row0 = blockIdx.y * 64, col0 = blockIdx.x * 8;
    float c[4] = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int e = threadIdx.x; e < 64 * 2; e += blockDim.x) {
            int r = e >> 1, h = (e & 1) * 8;
            *reinterpret_cast<uint4*>(&As[r][h]) = *reinterpret_cast<const uint4*>(&A[(size_t)(row0 + r) * K + k0 + h]);
        }
        if (threadIdx.x < 16) {
            int r = threadIdx.x >> 1, h = (threadIdx.x & 1) * 8;
            *reinterpret_cast<uint4*>(&Bs[r][h]) = *reinterpret_cast<const uint4*>(&Bt[(size_t)(col0 + r) * K + k0 + h]);
        }
        __syncthreads();
        unsigned a0, a1, a2, a3, b0, b1;
        unsigned pa = (unsigned)__cvta_generic_to_shared(&As[warp * 16 + (lane & 15)][(lane >> 4) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(pa));
        unsigned pb = (unsigned)__cvta_generic_to_shared(&Bs[lane & 7][((lane >> 3) & 1) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(pb));
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        __syncthreads();
    }
    int r = row0 + warp * 16 + (lane >> 2), col = col0 + (lane & 3) * 2;
    *reinterpret_cast<float2*>(&C[(size_t)r * N + col]) = make_float2(c[0], c[1]);
    *reinterpret_cast<float2*>(&C[(size_t)(r + 8) * N + col]) = make_float2(c[2], c[3]);
    if (threadIdx.x == 0) t1[cta()] = gtime();
}

static int* d_sm; static unsigned long long *d_t0, *d_t1;
static void emit(const char* name, int n, bool has_end) {
    std::vector<int> sm(n); std::vector<unsigned long long> t0(n), t1(n);
    CK(cudaMemcpy(sm.data(), d_sm, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(t0.data(), d_t0, n * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(t1.data(), d_t1, n * 8, cudaMemcpyDeviceToHost));
    unsigned long long base = t0[0];
    for (int i = 0; i < n; ++i) base = t0[i] < base ? t0[i] : base;
    printf("RESULT {\"name\": \"%s\", \"smid\": [", name);
    for (int i = 0; i < n; ++i) printf("%s%d", i ? "," : "", sm[i]);
    printf("], \"start\": [");
    for (int i = 0; i < n; ++i) printf("%s%llu", i ? "," : "", t0[i] - base);
    printf("], \"end\": [");
    for (int i = 0; i < n; ++i) printf("%s%lld", i ? "," : "", has_end ? (long long)(t1[i] - base) : -1LL);
    printf("]}\n");
    fflush(stdout);
}

int main() {
    CK(cudaMalloc(&d_sm, 4096 * 4)); CK(cudaMalloc(&d_t0, 4096 * 8)); CK(cudaMalloc(&d_t1, 4096 * 8));
    for (int rep = 0; rep < 2; ++rep) {
        where<<<1056, 256>>>(d_sm, d_t0, 200000); CK(cudaDeviceSynchronize()); emit("where_1056x256", 1056, false);
        where<<<1024, 128>>>(d_sm, d_t0, 200000); CK(cudaDeviceSynchronize()); emit("where_1024x128", 1024, false);
        where<<<dim3(64, 16), 128>>>(d_sm, d_t0, 200000); CK(cudaDeviceSynchronize()); emit("where_64x16x128", 1024, false);
        where<<<528, 256>>>(d_sm, d_t0, 200000); CK(cudaDeviceSynchronize()); emit("where_528x256", 528, false);
    }
    int n = 256, b = 8;
    float *A, *B, *C; CK(cudaMalloc(&A, b * n * n * 4)); CK(cudaMalloc(&B, b * n * n * 4)); CK(cudaMalloc(&C, b * n * n * 4));
    CK(cudaMemset(A, 0, b * n * n * 4)); CK(cudaMemset(B, 0, b * n * n * 4));
    int M = 1024, N = 512, K = 256;
    __half *H, *Ht; float* D;
    CK(cudaMalloc(&H, M * K * 2)); CK(cudaMalloc(&Ht, N * K * 2)); CK(cudaMalloc(&D, M * N * 4));
    CK(cudaMemset(H, 0, M * K * 2)); CK(cudaMemset(Ht, 0, N * K * 2));
    for (int rep = 0; rep < 3; ++rep) {
        batched_gemm_z<<<dim3(16, 16, 8), dim3(16, 16)>>>(A, B, C, n, d_sm, d_t0, d_t1);
        CK(cudaDeviceSynchronize()); emit("batched_gemm_z", 2048, true);
        mma_ldmatrix_gemm<<<dim3(N / 8, M / 64), 128>>>(H, Ht, D, M, N, K, d_sm, d_t0, d_t1);
        CK(cudaDeviceSynchronize()); emit("mma_ldmatrix_gemm", 1024, true);
    }
    return 0;
}
