// Latency of one shared-memory atomic on the H200, in SM cycles: a chain of `n` atomics where each
// address depends on the previous result (one warp, `lanes` active lanes on their own words in
// their own banks). The f32 add is ptxas's CAS loop taking one trip; the others are one ATOMS each.
// Prints cycles per atomic for each kind; run.sh runs it after cas.cu.
#include <cstdio>
#include <cuda_runtime.h>

template <int KIND>
__global__ void chain(unsigned* out, int n, unsigned zero) {
    __shared__ unsigned s[64];
    __shared__ float f[64];
    const int lane = threadIdx.x;
    s[lane] = 0u; f[lane] = 0.f;
    __syncwarp();
    unsigned v = 0u;
    float x = 0.f;
    long long t0 = clock64();
    for (int i = 0; i < n; ++i) {
        const int at = lane + (int)(v & zero) + ((int)x & (int)zero);
        if (KIND == 0) v = s[at];                              // LDS
        if (KIND == 1) v = atomicAdd(&s[at], 1u);              // ATOMS.ADD
        if (KIND == 2) v = atomicCAS(&s[at], v, v + 1u);       // ATOMS.CAS
        if (KIND == 3) v = atomicExch(&s[at], v + 1u);         // ATOMS.EXCH
        if (KIND == 4) x = atomicAdd(&f[at], 1.0f);            // LDS + FADD + ATOMS.CAST.SPIN loop
    }
    long long t1 = clock64();
    if (lane == 0) out[KIND] = (unsigned)((t1 - t0) / n);
    if (v == 12345u || x == -1.f) out[8] = v;
}

int main() {
    unsigned* d;
    cudaMalloc(&d, 64 * sizeof(unsigned));
    const char* names[] = {"lds", "atoms_add_u32", "atoms_cas_u32", "atoms_exch_u32", "f32_add_cas_loop"};
    for (int lanes : {1, 32}) {
        chain<0><<<1, lanes>>>(d, 4096, 0u);
        chain<1><<<1, lanes>>>(d, 4096, 0u);
        chain<2><<<1, lanes>>>(d, 4096, 0u);
        chain<3><<<1, lanes>>>(d, 4096, 0u);
        chain<4><<<1, lanes>>>(d, 4096, 0u);
        unsigned h[64];
        cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
        for (int k = 0; k < 5; ++k) printf("lanes %2d %-18s %u cycles\n", lanes, names[k], h[k]);
    }
    printf("latency: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
