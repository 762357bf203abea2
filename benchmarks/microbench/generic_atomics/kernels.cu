// Atomics on generic addresses (PTX `atom` without a state space, as cuda_fp16.hpp's __half2
// atomicAdd writes it, validation/typical20 atomic_half2_bins): what does ptxas make of them (ATOM.E
// with a shared fallback, not RED), and what does ncu count for them, beside the same atomics on
// .global addresses? Every kernel: one atomic per thread; `slot` picks the word.
#include <cuda_fp16.h>

__device__ __forceinline__ unsigned gen_add_u32(unsigned* p, unsigned v)
{ unsigned o; asm volatile("atom.add.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v) : "memory"); return o; }
__device__ __forceinline__ unsigned glob_add_u32(unsigned* p, unsigned v)
{ unsigned o; asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v) : "memory"); return o; }
__device__ __forceinline__ float gen_add_f32(float* p, float v)
{ float o; asm volatile("atom.add.f32 %0, [%1], %2;" : "=f"(o) : "l"(p), "f"(v) : "memory"); return o; }
__device__ __forceinline__ unsigned long long gen_add_u64(unsigned long long* p, unsigned long long v)
{ unsigned long long o; asm volatile("atom.add.u64 %0, [%1], %2;" : "=l"(o) : "l"(p), "l"(v) : "memory"); return o; }
__device__ __forceinline__ unsigned gen_add_f16x2(unsigned* p, unsigned v)
{ unsigned o; asm volatile("atom.add.noftz.f16x2 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v) : "memory"); return o; }
__device__ __forceinline__ unsigned glob_add_f16x2(unsigned* p, unsigned v)
{ unsigned o; asm volatile("atom.global.add.noftz.f16x2 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v) : "memory"); return o; }
__device__ __forceinline__ unsigned gen_cas_u32(unsigned* p, unsigned c, unsigned v)
{ unsigned o; asm volatile("atom.cas.b32 %0, [%1], %2, %3;" : "=r"(o) : "l"(p), "r"(c), "r"(v) : "memory"); return o; }

#define ONE_H2 0x3c003c00u  // two fp16 ones

// slot: 0 = each lane its own word (4 sectors a warp); 1 = all lanes of a warp on one word;
// 2 = random words of 16 KB (idx)
__device__ __forceinline__ int pick(int slot, const int* idx, int i)
{ return slot == 0 ? i : slot == 1 ? (i >> 5) : idx[i]; }

extern "C" __global__ void gen_u32(unsigned* a, const int* idx, unsigned* old, int slot, int use)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned o = gen_add_u32(a + pick(slot, idx, i), 1u);
    if (use) old[i] = o;
}
extern "C" __global__ void glob_u32(unsigned* a, const int* idx, unsigned* old, int slot, int use)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned o = glob_add_u32(a + pick(slot, idx, i), 1u);
    if (use) old[i] = o;
}
extern "C" __global__ void gen_f32(float* a, const int* idx, float* old, int slot, int use)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float o = gen_add_f32(a + pick(slot, idx, i), 1.0f);
    if (use) old[i] = o;
}
extern "C" __global__ void gen_u64(unsigned long long* a, const int* idx, unsigned long long* old, int slot, int use)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long o = gen_add_u64(a + pick(slot, idx, i), 1ull);
    if (use) old[i] = o;
}
extern "C" __global__ void gen_f16x2(unsigned* a, const int* idx, unsigned* old, int slot, int use)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned o = gen_add_f16x2(a + pick(slot, idx, i), ONE_H2);
    if (use) old[i] = o;
}
extern "C" __global__ void glob_f16x2(unsigned* a, const int* idx, unsigned* old, int slot, int use)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned o = glob_add_f16x2(a + pick(slot, idx, i), ONE_H2);
    if (use) old[i] = o;
}
extern "C" __global__ void gen_cas(unsigned* a, const int* idx, unsigned* old, int slot, int use)
{   // compare with 0: only the first lane on a word swaps
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned o = gen_cas_u32(a + pick(slot, idx, i), 0u, (unsigned)i + 1u);
    if (use) old[i] = o;
}
