// When does the H200's L2 read DRAM for a sector it did not have to read for a load?
// validation/typical15's byte_scatter_perm (random one-byte stores onto a 16 MB array while 80 MB of
// input streams through) read 14.9 MB more from DRAM than simgpu, which writes partial sectors
// byte-masked and never fills them; its atomic_rand_big (random atomicAdd on a 128 MB table) read
// 19 % less than simgpu, which fetches an atomic's missing sector pair (64 B) as for a load.
// Each kernel below is launched once, in the order of CASES; run.sh profiles them with ncu
// (caches flushed before each launch) and analyze.py prints the table.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

// one byte at `stride` bytes, `n` stores, written by a grid-stride loop
__global__ void st_byte(unsigned char* p, long long n, long long stride) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        p[i * stride] = (unsigned char)i;
}
// `bytes` (4, 16 or 32) at the start of every `stride`-byte block: uint4 stores
__global__ void st_vec(uint4* p, long long n, int per, long long stride16) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n * per; i += (long long)gridDim.x * blockDim.x)
        p[(i / per) * stride16 + (i % per)] = make_uint4((unsigned)i, 1u, 2u, 3u);
}
// a sector's 32 bytes written by 32 stores `sectors` threads apart (32 passes over the array)
__global__ void st_byte_late(unsigned char* p, long long sectors) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < 32 * sectors; i += (long long)gridDim.x * blockDim.x)
        p[(i % sectors) * 32 + i / sectors] = (unsigned char)i;
}
__global__ void atom_stride(unsigned* p, long long n, long long stride_words) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        atomicAdd(&p[i * stride_words], 1u);
}
__global__ void ld_stride(const unsigned* p, long long n, long long stride_words, unsigned* out) {
    unsigned s = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        s += p[i * stride_words];
    if (s == 0xdeadbeef) out[0] = s;
}
__global__ void atom_hash(unsigned* p, long long n, unsigned mask) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u;
        h ^= h >> 15;
        atomicAdd(&p[h & mask], 1u);
    }
}

int main() {
    const long long MB = 1 << 20;
    unsigned char* buf;
    cudaMalloc(&buf, 512 * MB);
    cudaMemset(buf, 0, 512 * MB);
    unsigned* out;
    cudaMalloc(&out, 64);
    dim3 g(132 * 8), b(256);
    // CASES (analyze.py keeps this order): name, bytes written or atomics, what it asks
    st_byte<<<g, b>>>(buf, 16 * MB / 32, 32);                       // 1 st_byte_s32_16mb
    st_byte<<<g, b>>>(buf, 256 * MB / 32, 32);                      // 2 st_byte_s32_256mb
    st_vec<<<g, b>>>((uint4*)buf, 256 * MB / 32, 2, 2);             // 3 st_full_256mb (32 of 32 B)
    st_vec<<<g, b>>>((uint4*)buf, 256 * MB / 32, 1, 2);             // 4 st_half_256mb (16 of 32 B)
    st_byte<<<g, b>>>(buf, 256 * MB / 64, 64);                      // 5 st_byte_s64_256mb
    st_byte<<<g, b>>>(buf, 256 * MB / 128, 128);                    // 6 st_byte_s128_256mb
    st_byte_late<<<g, b>>>(buf, 128 * MB / 32);                     // 7 st_byte_late_128mb
    st_byte_late<<<g, b>>>(buf, 16 * MB / 32);                      // 8 st_byte_late_16mb
    atom_stride<<<g, b>>>((unsigned*)buf, 16 * MB / 32, 8);         // 9 atom_s32_16mb
    atom_stride<<<g, b>>>((unsigned*)buf, 16 * MB / 64, 16);        // 10 atom_s64_16mb
    atom_stride<<<g, b>>>((unsigned*)buf, 16 * MB / 128, 32);       // 11 atom_s128_16mb
    ld_stride<<<g, b>>>((unsigned*)buf, 16 * MB / 64, 16, out);     // 12 ld_s64_16mb
    ld_stride<<<g, b>>>((unsigned*)buf, 16 * MB / 128, 32, out);    // 13 ld_s128_16mb
    atom_hash<<<g, b>>>((unsigned*)buf, 1 << 22, (unsigned)(16 * MB / 4 - 1));   // 14 atom_hash_16mb
    atom_hash<<<g, b>>>((unsigned*)buf, 1 << 22, (unsigned)(128 * MB / 4 - 1));  // 15 atom_hash_128mb
    atom_stride<<<g, b>>>((unsigned*)buf, 256 * MB / 64, 16);       // 16 atom_s64_256mb
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
