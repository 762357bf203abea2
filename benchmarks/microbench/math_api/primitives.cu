// The approximate PTX instructions themselves, one kernel each (inline PTX, so nothing is wrapped
// around them), for their SASS (nvcc + cuobjdump) and their results on the H200 (device.py --probe).
#define APPROX(name, type, ptx)                                                              \
    extern "C" __global__ void name(const type* a, type* out, int n) {                        \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                                          \
        if (i < n) { type r; asm(ptx : "=" RC(type) (r) : RC(type) (a[i])); out[i] = r; }      \
    }
#define RC(type) RC_##type
#define RC_float "f"
#define RC_double "d"
APPROX(p_rcp_f64, double, "rcp.approx.ftz.f64 %0, %1;")
APPROX(p_rsqrt_f64, double, "rsqrt.approx.f64 %0, %1;")
APPROX(p_rsqrt_ftz_f64, double, "rsqrt.approx.ftz.f64 %0, %1;")
APPROX(p_ex2_f32, float, "ex2.approx.f32 %0, %1;")
APPROX(p_ex2_ftz_f32, float, "ex2.approx.ftz.f32 %0, %1;")
APPROX(p_lg2_f32, float, "lg2.approx.f32 %0, %1;")
APPROX(p_rcp_f32, float, "rcp.approx.f32 %0, %1;")
APPROX(p_rcp_ftz_f32, float, "rcp.approx.ftz.f32 %0, %1;")
APPROX(p_rsqrt_f32, float, "rsqrt.approx.f32 %0, %1;")
APPROX(p_sqrt_f32, float, "sqrt.approx.f32 %0, %1;")
APPROX(p_sin_f32, float, "sin.approx.f32 %0, %1;")
APPROX(p_cos_f32, float, "cos.approx.f32 %0, %1;")
APPROX(p_tanh_f32, float, "tanh.approx.f32 %0, %1;")
