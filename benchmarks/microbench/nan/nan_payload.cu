extern "C" __global__ void k(const float* a, const float* b, const float* c, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    out[8 * i + 0] = __float_as_uint(__fadd_rn(x, y));
    out[8 * i + 1] = __float_as_uint(__fsub_rn(x, y));
    out[8 * i + 2] = __float_as_uint(__fmul_rn(x, y));
    out[8 * i + 3] = __float_as_uint(__fmaf_rn(x, y, z));
    out[8 * i + 4] = __float_as_uint(-x);
    out[8 * i + 5] = __float_as_uint(fabsf(x));
    out[8 * i + 6] = __float_as_uint(fmaxf(x, y));
    out[8 * i + 7] = __float_as_uint(__fadd_rn(y, x));
}
