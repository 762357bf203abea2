// ready_first: loops ptxas unrolls where some loads address [base + imm] (nothing to compute) and
// others need an add per k (a column walk). Written 2026-12-05 after the rule went into the model
// (timing/isa.py hoisted_sequence, ready_first), to test it on kernels it was not made from:
// simgpu's times with the rule on and off are in predictions.txt, committed before the device run.
// Every kernel takes a per-blockIdx.y private slice (64-bit offsets, as naive_private_ab's).

extern "C" __global__ void vecmat_off(const float* x0, const float* M0, float* y, int K, int N)
{   // a contiguous vector beside a column walk (typical4 batched_vecmat's shape, private slices)
    const float* x = x0 + (size_t)blockIdx.y * K;
    const float* M = M0 + (size_t)blockIdx.y * K * N;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int k = 0; k < K; ++k) s += x[k] * M[(size_t)k * N + col];
    y[(size_t)blockIdx.y * N + col] = s;
}

extern "C" __global__ void dvecmat_off(const double* x0, const double* M0, double* y, int K, int N)
{   // the same in double
    const double* x = x0 + (size_t)blockIdx.y * K;
    const double* M = M0 + (size_t)blockIdx.y * K * N;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    double s = 0.0;
    for (int k = 0; k < K; ++k) s += x[k] * M[(size_t)k * N + col];
    y[(size_t)blockIdx.y * N + col] = s;
}

extern "C" __global__ void vecmat2_off(const float* x0, const float* M0, const float* P0, float* y, int K, int N)
{   // one contiguous vector beside two column walks
    const float* x = x0 + (size_t)blockIdx.y * K;
    const float* M = M0 + (size_t)blockIdx.y * K * N;
    const float* P = P0 + (size_t)blockIdx.y * K * N;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int k = 0; k < K; ++k) s += x[k] * (M[(size_t)k * N + col] - P[(size_t)k * N + col]);
    y[(size_t)blockIdx.y * N + col] = s;
}

extern "C" __global__ void colsum_off(const float* M0, float* y, int K, int N)
{   // a column walk alone: no load with a ready address, the rule changes nothing
    const float* M = M0 + (size_t)blockIdx.y * K * N;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int k = 0; k < K; ++k) s += M[(size_t)k * N + col];
    y[(size_t)blockIdx.y * N + col] = s;
}

extern "C" __global__ void vecmat_i32(const float* x, const float* M, float* y, int K, int N)
{   // 32-bit index arithmetic (the calibration gemm_naive's form), one shared matrix
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int k = 0; k < K; ++k) s += x[k] * M[k * N + col];
    y[col] = s;
}

extern "C" __global__ void vecmat_f2(const float2* x0, const float* M0, float* y, int K, int N)
{   // a float2 vector (two products a k) beside a column walk of two rows a k
    const float2* x = x0 + (size_t)blockIdx.y * K;
    const float* M = M0 + (size_t)blockIdx.y * 2 * K * N;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int k = 0; k < K; ++k) {
        float2 w = x[k];
        s += w.x * M[(size_t)(2 * k) * N + col] + w.y * M[(size_t)(2 * k + 1) * N + col];
    }
    y[(size_t)blockIdx.y * N + col] = s;
}
