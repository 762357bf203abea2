// l1_recency: which lines the Hopper L1 gives up when a stream overflows it, the older ones or the
// ones read only once. One warp a CTA, one CTA an SM, each CTA its own region; lane i reads sector 0
// of its own line of each request (l1_geometry's sweep). In order: A (`a` lines) read `a_reps`
// times, B (`b` lines, after A) once, S (`s` new lines) once, then `last`: 0 nothing, 1 A again,
// 2 B again. The last phase's hits are the launch's hits less those of the same launch with last 0.
// Under LRU (or any recency order) B, read after A, outlives A; a policy that protects re-read
// lines keeps A when it was read more than once. Each lane writes its sum so no load is dropped.
// B once, S once, then the last phase (shared by both kernels): acc plus what they read.
__device__ __forceinline__ int b_s_last(const int* region, int a, int b, int s, int last, int lane, int acc)
{
    for (int i = lane; i < b; i += 32) acc += region[(size_t)(a + i) * 32];
    for (int i = lane; i < s; i += 32) acc += region[(size_t)(a + b + i) * 32];
    if (last == 1)
        for (int i = lane; i < a; i += 32) acc += region[(size_t)i * 32];
    if (last == 2)
        for (int i = lane; i < b; i += 32) acc += region[(size_t)(a + i) * 32];
    return acc;
}

extern "C" __global__ void phases(const int* buf, int a, int a_reps, int b, int s, int last, int* out)
{
    const int* region = buf + (size_t)blockIdx.x * (a + b + s) * 32;
    int lane = threadIdx.x & 31;
    int acc = 0;
    for (int r = 0; r < a_reps; ++r)
        for (int i = lane; i < a; i += 32) acc += region[(size_t)i * 32];
    out[blockIdx.x * 32 + lane] = b_s_last(region, a, b, s, last, lane, acc);
}

// The same phases with A read once and then stored `a_stores` times (word 1 of each line's sector 0,
// by inline PTX so that no store is merged away): does a store that hits a line protect it, as a
// second read does?
extern "C" __global__ void phases_stored(int* buf, int a, int a_stores, int b, int s, int last, int* out)
{
    int* region = buf + (size_t)blockIdx.x * (a + b + s) * 32;
    int lane = threadIdx.x & 31;
    int acc = 0;
    for (int i = lane; i < a; i += 32) acc += region[(size_t)i * 32];
    for (int r = 0; r < a_stores; ++r)
        for (int i = lane; i < a; i += 32)
            asm volatile("st.global.u32 [%0], %1;" :: "l"(region + (size_t)i * 32 + 1), "r"(acc + r) : "memory");
    out[blockIdx.x * 32 + lane] = b_s_last(region, a, b, s, last, lane, acc);
}
