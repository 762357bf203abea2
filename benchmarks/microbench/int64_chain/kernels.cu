// int64_chain: what one link of a 64-bit address chain costs a warp, and how fast one warp issues
// global loads that need no address arithmetic. ptxas turns a loop's `p += stride` into IMAD.WIDE
// (stride x 4 + p) or IADD3 + IADD3.X (a 64-bit add: low half, then high half with the carry);
// simgpu's PTX add.s64 took the 32-bit add's 5 cycles. loads_in_flight's burst (a chain of IMAD.WIDE,
// an LDG on each link) took ~7.7 cycles a load on the H200.
//
// chain_<ptr|i64|i32>: one warp's dependent chain of LINKS `p += stride` links, clock64 before and
// after (checked in the SASS: one link per add).
// issue_<N>: each warp issues N independent ld.global.cg.f32 at [p + k * 128] (immediate offsets,
// no arithmetic between them), clock64 before and after the last issue, then sums them.

#define LINKS 64

// p += stride on a pointer (ptxas: IMAD.WIDE stride, 4, p per link, as in the burst and column
// walks), or on a 64-bit integer (IADD3 + IADD3.X); each intermediate value is used off the chain
// (an XOR into acc), so ptxas cannot jump to the end with one multiply.
extern "C" __global__ void chain_ptr(const float* a, int stride, unsigned* out, long long* st)
{
    const float* p = a + threadIdx.x;
    unsigned acc = 0;
    long long t0 = clock64();
#pragma unroll
    for (int k = 0; k < LINKS; ++k) {
        p += stride;
        acc ^= (unsigned)(size_t)p ^ (unsigned)((size_t)p >> 32);
    }
    long long t1 = clock64();
    out[threadIdx.x] = acc;
    if (threadIdx.x == 0) st[0] = t0, st[1] = t1;
}

extern "C" __global__ void chain_i64(long long a, long long stride, unsigned* out, long long* st)
{
    long long p = a + threadIdx.x;
    unsigned acc = 0;
    long long t0 = clock64();
#pragma unroll
    for (int k = 0; k < LINKS; ++k) {
        p += stride;
        acc ^= (unsigned)p ^ (unsigned)(p >> 32);
    }
    long long t1 = clock64();
    out[threadIdx.x] = acc;
    if (threadIdx.x == 0) st[0] = t0, st[1] = t1;
}

extern "C" __global__ void chain_i32(int a, int stride, unsigned* out, long long* st)
{
    int p = a + threadIdx.x;
    unsigned acc = 0;
    long long t0 = clock64();
#pragma unroll
    for (int k = 0; k < LINKS; ++k) {
        p += stride;
        acc ^= (unsigned)p * 0u + (unsigned)p;
    }
    long long t1 = clock64();
    out[threadIdx.x] = acc;
    if (threadIdx.x == 0) st[0] = t0, st[1] = t1;
}

template <int N>
__device__ void issue(const float* a, float* out, long long* st)
{
    const float* p = a + (threadIdx.x & 31);
    float v[N];
    long long t0 = clock64();
#pragma unroll
    for (int k = 0; k < N; ++k) v[k] = __ldcg(p + k * 32);
    long long t1 = clock64();
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < N; ++k) s += v[k];
    if (s == -1.f) out[0] = s;
    if ((threadIdx.x & 31) == 0) st[2 * (threadIdx.x >> 5)] = t0, st[2 * (threadIdx.x >> 5) + 1] = t1;
}

#define ISSUE(N) \
    extern "C" __global__ void issue_##N(const float* a, float* out, long long* st) { issue<N>(a, out, st); }
ISSUE(4) ISSUE(8) ISSUE(16) ISSUE(32)
