// What the GPU does with a .sync op whose member mask names live lanes that do not execute it
// (simgpu warns, exec/ops.py _warn_absent_members). One warp of 32 threads each; x[i] = 100 + i.
extern "C" __global__ void split_shuffles(const int* x, int* out) {
    // both arms shuffle with the full mask: the odd lanes read lane 0's x, the even lanes lane 1's 2x
    int lane = threadIdx.x % 32, v;
    if (lane & 1) v = __shfl_sync(0xffffffffu, x[threadIdx.x], 0);
    else v = __shfl_sync(0xffffffffu, 2 * x[threadIdx.x], 1);
    out[threadIdx.x] = v;
}
extern "C" __global__ void split_xor(const int* x, int* out) {
    // both arms exchange with the neighbour lane (which is in the other arm)
    int lane = threadIdx.x % 32, v;
    if (lane & 1) v = __shfl_xor_sync(0xffffffffu, x[threadIdx.x], 1);
    else v = __shfl_xor_sync(0xffffffffu, 1000 + x[threadIdx.x], 1);
    out[threadIdx.x] = v;
}
extern "C" __global__ void split_ballot(const int* x, int* out) {
    unsigned b;
    if (threadIdx.x < 8) b = __ballot_sync(0xffffffffu, x[threadIdx.x] & 1);
    else b = __ballot_sync(0xffffffffu, x[threadIdx.x] & 2);
    out[threadIdx.x] = (int)b;
}
extern "C" __global__ void split_syncwarp(int* out) {
    // each half writes its slot, __syncwarp() in its own arm, then reads the other half's slot
    __shared__ volatile int s[32];
    int lane = threadIdx.x;
    if (lane < 16) { s[lane] = 100 + lane; __syncwarp(); out[lane] = s[lane + 16]; }
    else { s[lane] = 100 + lane; __syncwarp(); out[lane] = s[lane - 16]; }
}
extern "C" __global__ void tail_reduce(const int* x, int* out, int n) {
    // lanes past n skip the shuffles but stay alive (undefined on the GPU: may hang)
    int i = threadIdx.x, v = -1;
    if (i < n) {
        v = x[i];
        for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    }
    out[i] = v;
}
extern "C" __global__ void exited_tail(const int* x, int* out, int n) {
    // the control: the lanes past n have returned, the full mask is fine
    int i = threadIdx.x;
    if (i >= n) return;
    int v = x[i];
    v += __shfl_xor_sync(0xffffffffu, v, 1);
    out[i] = v;
}
