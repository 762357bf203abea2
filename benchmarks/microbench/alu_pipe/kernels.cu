// alu_pipe: how many warp instructions a cycle one SM sub-partition issues to the pipe an op runs
// on. Every thread runs 8 independent chains of one op for `iters` steps between two clock64()
// reads (inline PTX, so NVVM and ptxas keep each op), with 32 warps on the SM (one CTA of 1024
// threads): enough independent work that the pipe, not the latency, sets the time. The FMA pipe
// (FFMA) is the control; FMNMX, FSETP + FSEL, LOP3, SHF and IADD3 run on the ALU; ffma_fmnmx
// alternates the two pipes. Lane 0 of each warp writes its cycles.
#define CHAINS8(OP) OP(a0) OP(a1) OP(a2) OP(a3) OP(a4) OP(a5) OP(a6) OP(a7)
#define KERNEL(NAME, T, INIT, STEP)                                                                   \
extern "C" __global__ void NAME(long long* out, T* io, int iters)                                     \
{                                                                                                     \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                    \
    T b = io[i], a0 = b + (T)1, a1 = b + (T)2, a2 = b + (T)3, a3 = b + (T)4, a4 = b + (T)5,           \
      a5 = b + (T)6, a6 = b + (T)7, a7 = b + (T)8;                                                    \
    INIT                                                                                              \
    __syncthreads();                                                                                  \
    long long t0 = clock64();                                                                         \
    _Pragma("unroll 1") for (int s = 0; s < iters; ++s) { STEP }                                      \
    long long t1 = clock64();                                                                         \
    io[i] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;                                                    \
    if ((threadIdx.x & 31) == 0) out[i >> 5] = t1 - t0;                                               \
}
#define FFMA(a) asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(a) : "f"(b));
#define FMNMX(a) asm volatile("max.f32 %0, %0, %1;" : "+f"(a) : "f"(b));
#define FSEL(a) asm volatile("{ .reg .pred p; setp.gt.f32 p, %0, %1; selp.f32 %0, %1, %0, p; }" : "+f"(a) : "f"(b));
#define LOP3(a) asm volatile("xor.b32 %0, %0, %1;" : "+r"(a) : "r"(b));
#define SHF(a) asm volatile("shf.l.wrap.b32 %0, %0, %0, %1;" : "+r"(a) : "r"(b));
#define IADD(a) asm volatile("add.u32 %0, %0, %1;" : "+r"(a) : "r"(b));
#define FFMA_FMNMX(a) FFMA(a) FMNMX(a)
KERNEL(ffma, float, , CHAINS8(FFMA) CHAINS8(FFMA))
KERNEL(fmnmx, float, , CHAINS8(FMNMX) CHAINS8(FMNMX))
KERNEL(fsetp_fsel, float, , CHAINS8(FSEL))
KERNEL(lop3, unsigned, , CHAINS8(LOP3) CHAINS8(LOP3))
KERNEL(shf, unsigned, , CHAINS8(SHF) CHAINS8(SHF))
KERNEL(iadd, unsigned, , CHAINS8(IADD) CHAINS8(IADD))
KERNEL(ffma_fmnmx, float, , CHAINS8(FFMA_FMNMX))
