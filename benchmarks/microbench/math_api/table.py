"""The CUDA math API, one kernel per function, with the inputs every run uses (simgpu and the H200).

`FUNCTIONS` is the one list: (kernel name, operand type, result type, expression over the operands
x, y, z and the int m). `cuda_source()` writes kernels.cu from it; `generate_inputs()` draws each
operand type's pools (special values first, then random ones drawn with fixed seeds) and `inputs()`
reads back the pools the H200's run saved (results/inputs.npz), so simgpu and the device run the
very same numbers; `run_all(module, backend, pools)` launches every kernel and returns the results
as raw bits, which is what is compared (bit for bit, or in units in the last place).

Types: f float, d double, h half and b bf16 (passed as their 16-bit patterns), i int, u unsigned,
l long long, q unsigned long long. A kernel named `fm_*` is compiled with `--use_fast_math`
(FAST_MATH, its own module), the way many real kernels are built.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

N = 512  # inputs per kernel (16 warps)

C_TYPE = {"f": "float", "d": "double", "h": "unsigned short", "b": "unsigned short", "i": "int",
          "u": "unsigned int", "l": "long long", "q": "unsigned long long"}
NP_TYPE = {"f": np.float32, "d": np.float64, "h": np.uint16, "b": np.uint16, "i": np.int32,
           "u": np.uint32, "l": np.int64, "q": np.uint64}
# how an operand is read from its pool / a result written, for the 16-bit float types
LOAD = {"h": "__ushort_as_half({})", "b": "__ushort_as_bfloat16({})"}
STORE = {"h": "__half_as_ushort({})", "b": "__bfloat16_as_ushort({})"}
VALUE_TYPE = {"h": "__half", "b": "__nv_bfloat16"}


def _f(names: str, t: str = "f", r: str | None = None, arity: int = 1, suffix: str = "") -> list:
    """Entries for plain math functions: `name(x)`, `name(x, y)` or `name(x, y, z)`."""
    args = ", ".join("xyz"[:arity])
    return [(f"{t}_{n}", t, r or t, f"{n}{suffix}({args})") for n in names.split()]


_F1 = ("acosf acoshf asinf asinhf atanf atanhf cbrtf ceilf cosf coshf cospif cyl_bessel_i0f cyl_bessel_i1f "
       "erfcf erfcinvf erfcxf erff erfinvf exp10f exp2f expf expm1f fabsf floorf j0f j1f lgammaf log10f "
       "log1pf log2f logbf logf nearbyintf normcdff normcdfinvf rcbrtf rintf roundf rsqrtf sinf sinhf "
       "sinpif sqrtf tanf tanhf tgammaf truncf y0f y1f __cosf __exp10f __expf __log10f __log2f __logf "
       "__saturatef __sinf __tanf __frsqrt_rn")
_F2 = ("atan2f copysignf fdimf fmaxf fminf fmodf hypotf nextafterf powf remainderf rhypotf __powf "
       "__fdividef")
_ROUNDED = [(f"f_{op}_{rm}", "f", "f", f"__{op}_{rm}(x, y)") for op in ("fadd", "fsub", "fmul", "fdiv")
            for rm in ("rn", "rz", "ru", "rd")]
_ROUNDED += [(f"f_fmaf_{rm}", "f", "f", f"__fmaf_{rm}(x, y, z)") for rm in ("rn", "rz", "ru", "rd")]
_ROUNDED += [(f"f_frcp_{rm}", "f", "f", f"__frcp_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")]
_ROUNDED += [(f"f_fsqrt_{rm}", "f", "f", f"__fsqrt_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")]

_D1 = ("acos acosh asin asinh atan atanh cbrt ceil cos cosh cospi cyl_bessel_i0 cyl_bessel_i1 erfc erfcinv "
       "erfcx erf erfinv exp10 exp2 exp expm1 fabs floor j0 j1 lgamma log10 log1p log2 logb log nearbyint "
       "normcdf normcdfinv rcbrt rint round rsqrt sin sinh sinpi sqrt tan tanh tgamma trunc y0 y1")
_D2 = "atan2 copysign fdim fmax fmin fmod hypot nextafter pow remainder rhypot"
_DROUNDED = [(f"d_{op}_{rm}", "d", "d", f"__{op}_{rm}(x, y)") for op in ("dadd", "dsub", "dmul", "ddiv")
             for rm in ("rn", "rz", "ru", "rd")]
_DROUNDED += [(f"d_fma_{rm}", "d", "d", f"__fma_{rm}(x, y, z)") for rm in ("rn", "rz", "ru", "rd")]
_DROUNDED += [(f"d_drcp_{rm}", "d", "d", f"__drcp_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")]
_DROUNDED += [(f"d_dsqrt_{rm}", "d", "d", f"__dsqrt_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")]

# functions with an int operand (m) or an out-pointer (helpers in the source prelude)
_SPECIAL = [
    ("f_ldexpf", "f", "f", "ldexpf(x, m)"), ("f_scalbnf", "f", "f", "scalbnf(x, m)"),
    ("f_jnf", "f", "f", "jnf(m & 7, x)"), ("f_ynf", "f", "f", "ynf(m & 7, x)"),
    ("f_ilogbf", "f", "i", "ilogbf(x)"), ("f_lrintf", "f", "l", "lrintf(x)"), ("f_llroundf", "f", "l", "llroundf(x)"),
    ("f_frexpf_m", "f", "f", "frexpf_m(x)"), ("f_frexpf_e", "f", "i", "frexpf_e(x)"),
    ("f_modff_i", "f", "f", "modff_i(x)"), ("f_sincosf_s", "f", "f", "sincosf_s(x)"),
    ("f_sincosf_c", "f", "f", "sincosf_c(x)"), ("f_sincospif_c", "f", "f", "sincospif_c(x)"),
    ("f_remquof_q", "f", "i", "remquof_q(x, y)"), ("f_norm3df", "f", "f", "norm3df(x, y, z)"),
    ("f_rnorm3df", "f", "f", "rnorm3df(x, y, z)"), ("f_fmaf", "f", "f", "fmaf(x, y, z)"),
    ("f_isnan", "f", "i", "isnan(x) ? 1 : 0"), ("f_isinf", "f", "i", "isinf(x) ? 1 : 0"),
    ("f_signbit", "f", "i", "signbit(x) ? 1 : 0"), ("f_div", "f", "f", "x / y"), ("f_rcp", "f", "f", "1.0f / x"),
    ("f_sqrt_div", "f", "f", "x / sqrtf(y)"),
    ("d_ldexp", "d", "d", "ldexp(x, m)"), ("d_jn", "d", "d", "jn(m & 7, x)"), ("d_yn", "d", "d", "yn(m & 7, x)"),
    ("d_ilogb", "d", "i", "ilogb(x)"), ("d_llround", "d", "l", "llround(x)"),
    ("d_frexp_m", "d", "d", "frexp_m(x)"), ("d_sincos_s", "d", "d", "sincos_s(x)"),
    ("d_remquo_q", "d", "i", "remquo_q(x, y)"), ("d_norm3d", "d", "d", "norm3d(x, y, z)"),
    ("d_fma", "d", "d", "fma(x, y, z)"), ("d_div", "d", "d", "x / y"), ("d_rcp", "d", "d", "1.0 / x"),
]

_CONVERT = [
    *[(f"c_float2int_{rm}", "f", "i", f"__float2int_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    *[(f"c_float2uint_{rm}", "f", "u", f"__float2uint_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    *[(f"c_float2ll_{rm}", "f", "l", f"__float2ll_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    *[(f"c_double2float_{rm}", "d", "f", f"__double2float_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    *[(f"c_double2int_{rm}", "d", "i", f"__double2int_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    *[(f"c_double2ull_{rm}", "d", "q", f"__double2ull_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    *[(f"c_int2float_{rm}", "i", "f", f"__int2float_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    *[(f"c_uint2float_{rm}", "u", "f", f"__uint2float_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    *[(f"c_ll2float_{rm}", "l", "f", f"__ll2float_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    *[(f"c_ll2double_{rm}", "l", "d", f"__ll2double_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    *[(f"c_ull2float_{rm}", "q", "f", f"__ull2float_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    ("c_cast_f2i", "f", "i", "(int)x"), ("c_cast_f2u", "f", "u", "(unsigned)x"), ("c_cast_d2l", "d", "l", "(long long)x"),
    ("c_cast_f2d", "f", "d", "(double)x"), ("c_cast_f2h", "f", "h", "__float2half(x)"),
    *[(f"c_float2half_{rm}", "f", "h", f"__float2half_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    *[(f"c_float2bf16_{rm}", "f", "b", f"__float2bfloat16_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    ("c_double2half", "d", "h", "__double2half(x)"), ("c_double2bf16", "d", "b", "__double2bfloat16(x)"),
    ("c_half2float", "h", "f", "__half2float(x)"), ("c_bf162float", "b", "f", "__bfloat162float(x)"),
    *[(f"c_half2int_{rm}", "h", "i", f"__half2int_{rm}(x)") for rm in ("rn", "rz", "ru", "rd")],
    ("c_int2half_rn", "i", "h", "__int2half_rn(x)"), ("c_half2short_rz", "h", "i", "(int)__half2short_rz(x)"),
    ("c_bf162int_rn", "b", "i", "__bfloat162int_rn(x)"),
    ("c_float2ull_rn", "f", "q", "__float2ull_rn(x)"), ("c_double2uint_rn", "d", "u", "__double2uint_rn(x)"),
    ("c_double2ll_rz", "d", "l", "__double2ll_rz(x)"), ("c_cast_f2s16", "f", "i", "(int)(short)x"),
    ("c_cast_d2u16", "d", "u", "(unsigned)(unsigned short)x"), ("c_cast_h2ll", "h", "l", "(long long)__half2float(x)"),
    ("c_half2ll_rz", "h", "l", "__half2ll_rz(x)"), ("c_half2ushort_rn", "h", "u", "(unsigned)__half2ushort_rn(x)"),
]

_INT = [
    ("i_brev", "u", "u", "__brev(x)"), ("i_byte_perm", "u", "u", "__byte_perm(x, y, z)"),
    ("i_clz", "i", "i", "__clz(x)"), ("i_ffs", "i", "i", "__ffs(x)"), ("i_popc", "u", "i", "__popc(x)"),
    ("i_funnelshift_l", "u", "u", "__funnelshift_l(x, y, z)"), ("i_funnelshift_lc", "u", "u", "__funnelshift_lc(x, y, z)"),
    ("i_funnelshift_r", "u", "u", "__funnelshift_r(x, y, z)"), ("i_funnelshift_rc", "u", "u", "__funnelshift_rc(x, y, z)"),
    ("i_hadd", "i", "i", "__hadd(x, y)"), ("i_rhadd", "i", "i", "__rhadd(x, y)"),
    ("i_uhadd", "u", "u", "__uhadd(x, y)"), ("i_urhadd", "u", "u", "__urhadd(x, y)"),
    ("i_mul24", "i", "i", "__mul24(x, y)"), ("i_umul24", "u", "u", "__umul24(x, y)"),
    ("i_mulhi", "i", "i", "__mulhi(x, y)"), ("i_umulhi", "u", "u", "__umulhi(x, y)"),
    ("i_sad", "i", "u", "__sad(x, y, (unsigned)z)"), ("i_usad", "u", "u", "__usad(x, y, z)"),
    ("i_div", "i", "i", "x / (y == 0 ? 1 : y)"), ("i_mod", "i", "i", "x % (y == 0 ? 1 : y)"),
    ("i_udiv", "u", "u", "x / (y == 0u ? 1u : y)"), ("i_umod", "u", "u", "x % (y == 0u ? 1u : y)"),
    ("i_shl", "u", "u", "x << (y & 31)"), ("i_sar", "i", "i", "x >> (y & 31)"), ("i_shr_wide", "u", "u", "y >= 32u ? 0u : x >> y"),
    ("i_min", "i", "i", "min(x, y)"), ("i_umax", "u", "u", "max(x, y)"), ("i_abs", "i", "i", "abs(x)"),
    ("i_dp4a", "i", "i", "__dp4a(x, y, z)"), ("i_dp4a_u", "u", "u", "__dp4a(x, y, z)"),
    ("i_dp2a_lo", "i", "i", "__dp2a_lo(x, y, z)"), ("i_dp2a_hi", "u", "u", "__dp2a_hi(x, y, z)"),
    ("i_vabsdiffs4", "u", "u", "__vabsdiffs4(x, y)"), ("i_vadd2", "u", "u", "__vadd2(x, y)"),
    ("i_vaddss4", "u", "u", "__vaddss4(x, y)"), ("i_vsub4", "u", "u", "__vsub4(x, y)"),
    ("i_vcmpgtu4", "u", "u", "__vcmpgtu4(x, y)"), ("i_vmaxs2", "u", "u", "__vmaxs2(x, y)"),
    ("i_vminu4", "u", "u", "__vminu4(x, y)"), ("i_vsads4", "u", "u", "__vsads4(x, y)"),
    ("i_vavgu4", "u", "u", "__vavgu4(x, y)"), ("i_vneg2", "u", "u", "__vneg2(x)"), ("i_vabs4", "u", "u", "__vabs4(x)"),
    ("i_vhaddu2", "u", "u", "__vhaddu2(x, y)"), ("i_vseteq4", "u", "u", "__vseteq4(x, y)"),
    ("l_brevll", "q", "q", "__brevll(x)"), ("l_clzll", "l", "i", "__clzll(x)"), ("l_ffsll", "l", "i", "__ffsll(x)"),
    ("l_popcll", "q", "i", "__popcll(x)"), ("l_mul64hi", "l", "l", "__mul64hi(x, y)"),
    ("l_umul64hi", "q", "q", "__umul64hi(x, y)"), ("l_div", "l", "l", "x / (y == 0 ? 1 : y)"),
    ("l_mod", "l", "l", "x % (y == 0 ? 1 : y)"), ("l_udiv", "q", "q", "x / (y == 0ull ? 1ull : y)"),
    ("l_umod", "q", "q", "x % (y == 0ull ? 1ull : y)"), ("l_mul", "l", "l", "x * y"),
    ("l_sar", "l", "l", "x >> (y & 63)"), ("l_shl", "q", "q", "x << (y & 63)"),
    # Hopper's DPX intrinsics
    ("i_vimax3_s32", "i", "i", "__vimax3_s32(x, y, z)"), ("i_vimax3_s32_relu", "i", "i", "__vimax3_s32_relu(x, y, z)"),
    ("i_viaddmax_s32", "i", "i", "__viaddmax_s32(x, y, z)"),
    ("i_viaddmax_s32_relu", "i", "i", "__viaddmax_s32_relu(x, y, z)"),
    ("i_vimin3_s32_relu", "i", "i", "__vimin3_s32_relu(x, y, z)"), ("i_vimax_s32_relu", "i", "i", "__vimax_s32_relu(x, y)"),
    ("i_vibmax_s32", "i", "i", "vibmax_packed(x, y)"), ("i_viaddmin_u32", "u", "u", "__viaddmin_u32(x, y, z)"),
    ("i_vimax3_s16x2_relu", "u", "u", "__vimax3_s16x2_relu(x, y, z)"), ("i_viaddmin_u16x2", "u", "u", "__viaddmin_u16x2(x, y, z)"),
    ("i_vimin3_u16x2", "u", "u", "__vimin3_u16x2(x, y, z)"), ("i_viaddmax_s16x2_relu", "u", "u", "__viaddmax_s16x2_relu(x, y, z)"),
]

_HALF = [
    *[(f"h_{n}", "h", "h", f"{n}(x, y)") for n in ("__hadd", "__hsub", "__hmul", "__hdiv", "__hmax", "__hmin",
                                                   "__hmax_nan", "__hmin_nan", "__hadd_sat", "__hmul_sat")],
    *[(f"h_{n}", "h", "h", f"{n}(x, y, z)") for n in ("__hfma", "__hfma_sat", "__hfma_relu")],
    *[(f"h_{n}", "h", "h", f"{n}(x)") for n in ("__hneg", "__habs", "hsqrt", "hrsqrt", "hrcp", "hexp", "hexp2",
                                                "hexp10", "hlog", "hlog2", "hlog10", "hsin", "hcos", "hceil",
                                                "hfloor", "htrunc", "hrint", "htanh")],
    *[(f"h_{n}", "h", "i", f"{n}(x, y) ? 1 : 0") for n in ("__heq", "__hlt", "__hgeu", "__hne")],
    ("h___hisnan", "h", "i", "__hisnan(x) ? 1 : 0"), ("h___hisinf", "h", "i", "__hisinf(x)"),
    ("h_h2_mul", "h", "h", "__low2half(__hmul2(__halves2half2(x, y), __halves2half2(y, z)))"),
    ("h_h2_exp", "h", "h", "__high2half(h2exp(__halves2half2(y, x)))"),
    ("h_h2_fma_hi", "h", "h", "__high2half(__hfma2(__halves2half2(z, x), __halves2half2(x, y), __halves2half2(y, z)))"),
    *[(f"b_{n}", "b", "b", f"{n}(x, y)") for n in ("__hadd", "__hsub", "__hmul", "__hdiv", "__hmax", "__hmin")],
    ("b___hfma", "b", "b", "__hfma(x, y, z)"),
    *[(f"b_{n}", "b", "b", f"{n}(x)") for n in ("hsqrt", "hrcp", "hexp", "hlog", "hsin", "hcos", "hfloor",
                                                "hrint", "htanh")],
]

_FAST = [(f"fm_{n}", "f", "f", expr) for n, expr in (
    ("expf", "expf(x)"), ("logf", "logf(x)"), ("sinf", "sinf(x)"), ("cosf", "cosf(x)"), ("tanf", "tanf(x)"),
    ("powf", "powf(x, y)"), ("sqrtf", "sqrtf(x)"), ("rsqrtf", "rsqrtf(x)"), ("div", "x / y"), ("rcp", "1.0f / x"),
    ("exp2f", "exp2f(x)"), ("log2f", "log2f(x)"), ("exp10f", "exp10f(x)"), ("tanhf", "tanhf(x)"),
    ("add", "x + y"), ("mul", "x * y"), ("fma", "x * y + z"), ("fmaxf", "fmaxf(x, y)"), ("f2i", "(float)(int)x"))]

FUNCTIONS: list[tuple[str, str, str, str]] = (
    _f(_F1) + _f(_F2, arity=2) + _ROUNDED + _f(_D1, "d") + _f(_D2, "d", arity=2) + _DROUNDED + _SPECIAL
    + _CONVERT + _INT + _HALF + _FAST)

PRELUDE = r"""#include <cuda_fp16.h>
#include <cuda_bf16.h>
// functions that answer through a pointer, as one value per kernel
__device__ float frexpf_m(float x) { int e; return frexpf(x, &e); }
__device__ int frexpf_e(float x) { int e; frexpf(x, &e); return e; }
__device__ float modff_i(float x) { float i; modff(x, &i); return i; }
__device__ float sincosf_s(float x) { float s, c; sincosf(x, &s, &c); return s; }
__device__ float sincosf_c(float x) { float s, c; sincosf(x, &s, &c); return c; }
__device__ float sincospif_c(float x) { float s, c; sincospif(x, &s, &c); return c; }
__device__ int remquof_q(float x, float y) { int q; remquof(x, y, &q); return q; }
__device__ double frexp_m(double x) { int e; return frexp(x, &e); }
__device__ double sincos_s(double x) { double s, c; sincos(x, &s, &c); return s; }
__device__ int remquo_q(double x, double y) { int q; remquo(x, y, &q); return q; }
__device__ int vibmax_packed(int x, int y) { bool p; int r = __vibmax_s32(x, y, &p); return r ^ (p ? 0x40000000 : 0); }
"""


def kernel_source(name: str, t: str, r: str, expr: str) -> str:
    """One kernel: out[i] = expr over operand i of the pools a, b, c (type t) and k (int)."""
    ct, cr = C_TYPE[t], C_TYPE[r]
    vt = VALUE_TYPE.get(t, ct)
    load = LOAD.get(t, "{}")
    value = STORE[r].format(f"({expr})") if r in STORE else f"({cr})({expr})"
    return (f'extern "C" __global__ void {name}(const {ct}* a, const {ct}* b, const {ct}* c, const int* k, '
            f"{cr}* out, int n) {{\n"
            f"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i >= n) return;\n"
            f"    {vt} x = {load.format('a[i]')}, y = {load.format('b[i]')}, z = {load.format('c[i]')};\n"
            f"    int m = k[i];\n    (void)y; (void)z; (void)m;\n    out[i] = {value};\n}}\n")


FAST_MATH = ("--use_fast_math",)


def cuda_source(fast: bool = False) -> str:
    """kernels.cu (fast=False: every kernel but fm_*) or the fast-math module's source (fm_* only)."""
    body = [kernel_source(*f) for f in FUNCTIONS if f[0].startswith("fm_") == fast]
    return PRELUDE + "\n" + "\n".join(body)


_F32_SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 1e-45, -1e-45, 1e-40,
                 -3e-39, 1.1754944e-38, -1.1754944e-38, 3.4028235e38, -3.4028235e38, np.pi, -np.pi, np.pi / 2,
                 np.pi / 4, 3 * np.pi / 2, 1e10, -1e10, 1e30, 0.1, -0.1, 100.0, 88.72, 89.0, -87.3, -104.0,
                 -150.0, 126.0, 127.0, 128.0, 1e-7, 0.9999999, 1.0000001, -0.99999994, 3.0, 4.5, -2.5, 10.0,
                 16777216.0, 16777217.0, 2147483647.0, 2147483648.0, -2147483648.0, -2147483904.0,
                 4294967295.0, 4294967296.0, 9.2233720e18, -9.2233720e18, 65504.0, 65520.0, 6e-8, 1e-5,
                 0.75, 1.5, 25.0, 1e5, 11.0, -11.0, 35.0, 171.6]
_F64_SPECIALS = [*_F32_SPECIALS[:16], 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                 -1.7976931348623157e308, 1e300, 1e-300, 709.78, 710.0, -745.1, -746.0, 1e16, 9007199254740993.0,
                 1.8446744073709552e19, 1e-320, 0.49999999999999994, 2.5, 3.5, -0.5, 171.62, 172.0]


def _floats(rng, specials, lo_exp: int, hi_exp: int, dtype) -> np.ndarray:
    """Special values, then log-uniform magnitudes with random signs, then uniform in [-10, 10)."""
    k = (N - len(specials)) // 2
    mag = 10.0 ** rng.uniform(lo_exp, hi_exp, k) * rng.choice([-1.0, 1.0], k)
    uni = rng.uniform(-10, 10, N - len(specials) - k)
    with np.errstate(over="ignore"):
        return np.concatenate([np.array(specials, np.float64), mag, uni]).astype(dtype)


def _bits16(rng, specials: list[int]) -> np.ndarray:
    """16-bit float patterns: specials, then random patterns, then random patterns of modest exponent."""
    k = (N - len(specials)) // 2
    anyb = rng.integers(0, 1 << 16, k)
    modest = (rng.integers(0, 2, N - len(specials) - k) << 15) | rng.integers(0x3000, 0x4A00, N - len(specials) - k)
    return np.concatenate([np.array(specials), anyb, modest]).astype(np.uint16)


_H_SPECIALS = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x3C00, 0xBC00, 0x0001, 0x8001, 0x03FF, 0x0400, 0x7BFF,
               0xFBFF, 0x3800, 0x4000, 0x4248, 0x3555, 0x7C01, 0xFE00, 0x5640, 0x4900]
_B_SPECIALS = [0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x3F80, 0xBF80, 0x0001, 0x8001, 0x007F, 0x0080, 0x7F7F,
               0xFF7F, 0x3F00, 0x4000, 0x4049, 0x3EAB, 0x7F81, 0x42C8, 0x4120]


def _ints(rng, dtype) -> np.ndarray:
    info = np.iinfo(dtype)
    edges = [0, 1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 255, 256, 0x7F7F7F7F, 0x80808080 % (int(info.max) + 1),
             int(info.max), int(info.max) - 1]
    if info.min < 0:
        edges += [-1, -2, -3, -31, -32, -128, int(info.min), int(info.min) + 1]
    bits = 8 * np.dtype(dtype).itemsize
    edges = np.array([e % (1 << bits) for e in edges], np.uint64).astype(f"u{bits // 8}").view(dtype)
    k = (N - len(edges)) // 2
    wide = rng.integers(info.min, info.max, k, dtype=dtype, endpoint=True)
    small = rng.integers(max(info.min, -300), 300, N - len(edges) - k).astype(dtype)
    return np.concatenate([edges, wide, small])


# the pools the H200's run used, saved by device.py
RECORDED_INPUTS = Path(__file__).resolve().parent / "results" / "inputs.npz"


def generate_inputs() -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each operand type's three pools (x, y, z) plus 'm', the int pool, from fixed seeds.

    The same seeds do not give the same bits everywhere: `10.0 ** u` (in _floats) is NumPy's pow,
    which with AVX-512 is a SIMD routine that rounds ~3 % of the doubles one ulp away from the
    libm pow used without it. So the device run saves what it drew (save_inputs) and everything
    compared with it reads that back (inputs), rather than drawing again."""
    pools = {}
    for t in C_TYPE:
        three = []
        for j in range(3):
            rng = np.random.default_rng(1000 * j + sorted(C_TYPE).index(t))
            if t == "f":
                p = _floats(rng, _F32_SPECIALS, -38, 38, np.float32)
            elif t == "d":
                p = _floats(rng, _F64_SPECIALS, -300, 300, np.float64)
            elif t == "h":
                p = _bits16(rng, _H_SPECIALS)
            elif t == "b":
                p = _bits16(rng, _B_SPECIALS)
            else:
                p = _ints(rng, NP_TYPE[t])
            # y and z see the specials in another order, so special pairs meet
            three.append(p if j == 0 else np.concatenate([np.roll(p[:80], 7 * j), rng.permutation(p[80:])]))
        pools[t] = tuple(three)
    rng = np.random.default_rng(99)
    m = np.concatenate([np.arange(-40, 40), rng.integers(-300, 300, N - 80)]).astype(np.int32)
    pools["m"] = (m, m, m)
    return pools


def save_inputs(pools: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]], path: str | Path) -> None:
    """Write the pools as x / y / z arrays per operand type ('d0', 'd1', 'd2', ...)."""
    np.savez_compressed(path, **{f"{t}{j}": pool[j] for t, pool in pools.items() for j in range(3)})


def inputs(path: str | Path = RECORDED_INPUTS) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The pools a device run saved (save_inputs): the numbers its results are for."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"{path}: no recorded math_api inputs; a device run (run.sh) writes them "
                                "beside its results")
    with np.load(path) as f:
        return {t: (f[f"{t}0"], f[f"{t}1"], f[f"{t}2"]) for t in [*C_TYPE, "m"]}


def run_all(modules: dict[bool, object], launch, pools: dict) -> dict[str, np.ndarray]:
    """Launch every kernel on `pools` (inputs() / generate_inputs()); `modules[fast]` has
    get_function, `launch(kernel, args)` runs one launch of N threads (blocks of 128) and returns the
    output array (host NumPy). Returns raw results."""
    out = {}
    for name, t, r, _ in FUNCTIONS:
        kernel = modules[name.startswith("fm_")].get_function(name)
        x, y, z = pools[t]
        out[name] = launch(kernel, [x, y, z, pools["m"][0], np.zeros(N, NP_TYPE[r]), np.int32(N)])
    return out


def probe_inputs() -> dict[str, np.ndarray]:
    """Inputs for each instruction of primitives.cu: 16,384 per instruction, dense enough to see how
    the H200's approximation depends on its operand (for f64: numbers that differ only in their low
    32 bits, which MUFU.RCP64H / RSQ64H do not read)."""
    rng = np.random.default_rng(7)
    k = 1 << 14
    hi = rng.integers(0x3C000000, 0x44000000, k // 4, dtype=np.uint64) << np.uint64(32)
    lows = [np.zeros(k // 4, np.uint64), np.full(k // 4, 0xFFFFFFFF, np.uint64),
            rng.integers(0, 1 << 32, k // 4, dtype=np.uint64), rng.integers(0, 1 << 32, k // 4, dtype=np.uint64)]
    f64 = np.concatenate([hi | lo for lo in lows]).view(np.float64)
    mant = np.arange(k, dtype=np.uint32) << np.uint32(9)  # 2**14 evenly spaced mantissas
    f32 = {
        "ex2": rng.uniform(-126, 128, k), "lg2": (np.uint32(0x3F800000) | mant).view(np.float32) * 2.0 ** rng.integers(-20, 20, k),
        "rcp": (np.uint32(0x3F800000) | mant).view(np.float32), "sin": rng.uniform(-4, 4, k), "tanh": rng.uniform(-10, 10, k),
    }
    out = {f"p_{n}_f64": f64 for n in ("rcp", "rsqrt", "rsqrt_ftz")}
    out.update({"p_ex2_f32": f32["ex2"], "p_ex2_ftz_f32": f32["ex2"], "p_lg2_f32": f32["lg2"], "p_rcp_f32": f32["rcp"],
                "p_rcp_ftz_f32": f32["rcp"] * 2.0 ** 100, "p_rsqrt_f32": np.concatenate([f32["rcp"][::2], 2 * f32["rcp"][::2]]),
                "p_sqrt_f32": np.concatenate([f32["rcp"][::2], 2 * f32["rcp"][::2]]), "p_sin_f32": f32["sin"],
                "p_cos_f32": f32["sin"], "p_tanh_f32": f32["tanh"]})
    return {n: v.astype(np.float64 if n.endswith("f64") else np.float32) for n, v in out.items()}
