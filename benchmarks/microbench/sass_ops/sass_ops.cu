// How many SASS instructions (and cycles) a PTX op that ptxas expands into a sequence costs: integer
// div / rem (32 and 64 bits, 64-bit with operands below and above 2^32), div.rn / sqrt.rn / rcp.rn
// in f32 and f64. One warp runs a dependent chain of N ops; ncu's smsp__inst_executed.sum of each
// kernel minus the add-only baseline's, over N, is the op's dynamic SASS count; clock64 around the
// chain gives its latency. ./sass_ops prints the clocks; run under ncu for the counts (run.sh).
#include <cstdio>
#include <cstdint>
#define N 1024

#define CHAIN(name, T, init, step)                                                          \
    extern "C" __global__ void name(T* out, long long* clk, T b, T c) {                    \
        T x = (T)(init) + (T)threadIdx.x;                                                    \
        long long t0 = clock64();                                                             \
        for (int i = 0; i < N; ++i) { x = step; }                                             \
        long long t1 = clock64();                                                             \
        out[threadIdx.x] = x;                                                                 \
        if (threadIdx.x == 0) clk[0] = t1 - t0;                                               \
    }

CHAIN(base_u32, uint32_t, 1000u, x + b)
CHAIN(div_u32, uint32_t, 1000000u, x / b + c)
CHAIN(rem_u32, uint32_t, 1000000u, x % b + c)
CHAIN(div_s32, int32_t, 1000000, x / b + c)
CHAIN(rem_s32, int32_t, 1000000, x % b + c)
// the divisor on the chain: ptxas cannot compute its reciprocal before the loop (I2F, MUFU.RCP, F2I
// at every division, config sass_idiv32_reciprocal / lat_idiv32_reciprocal); or_base_u32 is the
// chain without the division
CHAIN(or_base_u32, uint32_t, 1000u, (x | 1u) + b)
CHAIN(div_u32_recip, uint32_t, 1000000u, b / (x | 1u) + c)
CHAIN(rem_u32_recip, uint32_t, 1000000u, b % (x | 1u) + c)
CHAIN(div_s32_recip, int32_t, 1000000, b / (x | 1) + c)
CHAIN(base_u64, uint64_t, 1000ull, x + b)
CHAIN(div_u64_small, uint64_t, 1000000ull, x / b + c)
CHAIN(rem_u64_small, uint64_t, 1000000ull, x % b + c)
CHAIN(div_s64_small, int64_t, 1000000ll, x / b + c)
CHAIN(div_u64_big, uint64_t, 1ull << 45, x / b + (1ull << 44))
CHAIN(rem_u64_big, uint64_t, 1ull << 45, (x % b) + (1ull << 44))
CHAIN(base_f32, float, 1.5f, x + b)
CHAIN(div_f32, float, 1.5f, x / b + c)
CHAIN(sqrt_f32, float, 1.5f, sqrtf(x) + c)
CHAIN(rcp_f32, float, 1.5f, 1.0f / x + c)
CHAIN(fdividef_f32, float, 1.5f, __fdividef(x, b) + c)
CHAIN(base_f64, double, 1.5, x + b)
CHAIN(div_f64, double, 1.5, x / b + c)
CHAIN(sqrt_f64, double, 1.5, sqrt(x) + c)
CHAIN(rcp_f64, double, 1.5, 1.0 / x + c)

template <class T> void run(const char* name, void (*k)(T*, long long*, T, T), T b, T c) {
    T* out; long long* clk; long long h = 0;
    cudaMalloc(&out, 32 * sizeof(T)); cudaMalloc(&clk, sizeof(long long));
    k<<<1, 32>>>(out, clk, b, c);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(&h, clk, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%-16s cycles_per_op %.2f %s\n", name, (double)h / N, e == cudaSuccess ? "" : cudaGetErrorString(e));
    cudaFree(out); cudaFree(clk);
}

int main() {
    run<uint32_t>("base_u32", base_u32, 3u, 7u);
    run<uint32_t>("div_u32", div_u32, 3u, 7u);
    run<uint32_t>("rem_u32", rem_u32, 1000u, 700u);
    run<int32_t>("div_s32", div_s32, 3, 7);
    run<int32_t>("rem_s32", rem_s32, 1000, 700);
    run<uint32_t>("or_base_u32", or_base_u32, 3u, 7u);
    run<uint32_t>("div_u32_recip", div_u32_recip, 4000000000u, 7u);
    run<uint32_t>("rem_u32_recip", rem_u32_recip, 4000000000u, 7u);
    run<int32_t>("div_s32_recip", div_s32_recip, 2000000000, 7);
    run<uint64_t>("base_u64", base_u64, 3ull, 7ull);
    run<uint64_t>("div_u64_small", div_u64_small, 3ull, 7ull);
    run<uint64_t>("rem_u64_small", rem_u64_small, 1000ull, 700ull);
    run<int64_t>("div_s64_small", div_s64_small, 3ll, 7ll);
    run<uint64_t>("div_u64_big", div_u64_big, 3ull, 0ull);
    run<uint64_t>("rem_u64_big", rem_u64_big, (1ull << 40) + 12345ull, 0ull);
    run<float>("base_f32", base_f32, 1.0001f, 0.5f);
    run<float>("div_f32", div_f32, 1.7f, 0.5f);
    run<float>("sqrt_f32", sqrt_f32, 0.f, 0.5f);
    run<float>("rcp_f32", rcp_f32, 0.f, 0.5f);
    run<float>("fdividef_f32", fdividef_f32, 1.7f, 0.5f);
    run<double>("base_f64", base_f64, 1.0001, 0.5);
    run<double>("div_f64", div_f64, 1.7, 0.5);
    run<double>("sqrt_f64", sqrt_f64, 0., 0.5);
    run<double>("rcp_f64", rcp_f64, 0., 0.5);
    return 0;
}
