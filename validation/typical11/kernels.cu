// validation/typical11: calls the way C++ code makes them, written 2026-12-02 after the call support
// (recursion, function pointers, virtual functions, device malloc, fns) and used to set nothing.

// ---- 1. recursion: each lane its own depth ------------------------------------------------------
__device__ int fib_rec(int n) { return n < 2 ? n : fib_rec(n - 1) + fib_rec(n - 2); }
extern "C" __global__ void fib_lanes(const int* n, int* out, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) out[i] = fib_rec(n[i]);
}

// ---- 2. a table of function pointers, chosen per element ----------------------------------------
__device__ float op_scale(float x) { return 1.5f * x; }
__device__ float op_shift(float x) { return x - 2.0f; }
__device__ float op_square(float x) { return x * x; }
__device__ float op_half(float x) { return 0.5f * x + 1.0f; }
__device__ float (*const ops[4])(float) = {op_scale, op_shift, op_square, op_half};
extern "C" __global__ void fptr_table(const float* x, const int* sel, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = ops[sel[i] & 3](x[i]);
}

// ---- 3. virtual functions on objects built in the kernel ----------------------------------------
struct Shape { __device__ virtual float area() const = 0; };
struct Circle : Shape { float r; __device__ Circle(float r_) : r(r_) {} __device__ float area() const override { return 3.14159265f * r * r; } };
struct Rect : Shape { float w, h; __device__ Rect(float w_, float h_) : w(w_), h(h_) {} __device__ float area() const override { return w * h; } };
extern "C" __global__ void virtual_area(const float* a, const float* b, const int* kind, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Circle c(a[i]);
    Rect r(a[i], b[i]);
    const Shape* s = kind[i] ? static_cast<const Shape*>(&r) : static_cast<const Shape*>(&c);
    out[i] = s->area();
}

// ---- 4. device malloc and free -----------------------------------------------------------------
extern "C" __global__ void malloc_scratch(const int* x, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int* p = (int*)malloc(16 * sizeof(int));
    if (p == nullptr) { out[i] = -1; return; }
    for (int k = 0; k < 16; ++k) p[k] = x[i] * k;
    int s = 0;
    for (int k = 0; k < 16; k += 3) s += p[k];
    out[i] = s;
    free(p);
}

// ---- 5. the k-th set bit (fns), and a call ptxas keeps ------------------------------------------
extern "C" __global__ void nth_set_bit(const unsigned* masks, const int* k, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __fns(masks[i], 0, k[i]);
}
__device__ __noinline__ float poly_noinline(float x, float a, float b) { return (a * x + b) * x + 1.0f; }
extern "C" __global__ void noinline_call(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = poly_noinline(x[i], 0.25f, -1.0f);
}
