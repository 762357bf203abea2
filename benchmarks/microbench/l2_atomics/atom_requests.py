"""Device run: how many L1TEX requests and L2 sectors does one warp atomic make? Every kind of
global atomic (ATOM with its result used: add, CAS, exch, on 32 and 64 bits; RED: add on 32-bit ints
and doubles), 1 ... 32 active lanes, lanes one word / one sector / one line apart (each lane its own
address). One launch per case (1,024 warps); run under ncu, which counts the requests and sectors:

    ncu --metrics M --csv --log-file atom_requests_ncu.csv python atom_requests.py atom_requests_cases.json

The cases' order is the launches' order (atom_requests_cases.json); compare_atom_requests.py runs the same
launches in simgpu and prints both.
"""

import json
import sys

import numpy as np

SRC = r'''
#define BODY(T, EXPR)                                                                            \
    int lane = threadIdx.x & 31, warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;            \
    if (lane < lanes) {                                                                            \
        T* p = (T*)buf + ((size_t)warp * 32 + lane) * stride;                                      \
        EXPR;                                                                                      \
    }
extern "C" __global__ void add32(int* buf, int* out, int lanes, int stride)
{ BODY(int, out[blockIdx.x * blockDim.x + threadIdx.x] = atomicAdd(p, 1)) }
extern "C" __global__ void cas32(int* buf, int* out, int lanes, int stride)
{ BODY(int, out[blockIdx.x * blockDim.x + threadIdx.x] = atomicCAS(p, 0, lane + 1)) }
extern "C" __global__ void exch32(int* buf, int* out, int lanes, int stride)
{ BODY(int, out[blockIdx.x * blockDim.x + threadIdx.x] = atomicExch(p, lane)) }
extern "C" __global__ void addf32(int* buf, int* out, int lanes, int stride)
{ BODY(float, out[blockIdx.x * blockDim.x + threadIdx.x] = __float_as_int(atomicAdd(p, 1.f))) }
extern "C" __global__ void add64(int* buf, int* out, int lanes, int stride)
{ BODY(unsigned long long, out[blockIdx.x * blockDim.x + threadIdx.x] = (int)atomicAdd(p, 1ull)) }
extern "C" __global__ void cas64(int* buf, int* out, int lanes, int stride)
{ BODY(unsigned long long, out[blockIdx.x * blockDim.x + threadIdx.x] = (int)atomicCAS(p, 0ull, 1ull)) }
extern "C" __global__ void red32(int* buf, int* out, int lanes, int stride)
{ BODY(int, atomicAdd(p, 1)) }
extern "C" __global__ void redf64(int* buf, int* out, int lanes, int stride)
{ BODY(double, atomicAdd(p, 1.0)) }
'''
KERNELS = ("add32", "cas32", "exch32", "addf32", "add64", "cas64", "red32", "redf64")
LANES = (1, 2, 8, 15, 16, 17, 24, 32)
STRIDE_BYTES = (4, 8, 32, 128)  # lanes one word, one double, one sector, one line apart
WARPS = 1024
BLOCK = 256


def cases() -> list[dict]:
    out = []
    for k in KERNELS:
        size = 8 if k in ("add64", "cas64", "redf64") else 4
        for sb in STRIDE_BYTES:
            if sb < size:
                continue
            for n in LANES:
                out.append({"kernel": k, "lanes": n, "stride": sb // size, "elem_bytes": size,
                            "stride_bytes": sb, "warps": WARPS, "block": BLOCK})
    return out


def buffer_words() -> int:
    return WARPS * 32 * 128 // 4


def main() -> None:
    import cupy as cp

    mod = cp.RawModule(code=SRC)
    buf = cp.zeros(buffer_words(), cp.int32)
    out = cp.zeros(WARPS * 32, cp.int32)
    todo = cases()
    for c in todo:
        buf.fill(0)
        mod.get_function(c["kernel"])((WARPS * 32 // BLOCK,), (BLOCK,),
                                      (buf, out, np.int32(c["lanes"]), np.int32(c["stride"])))
    cp.cuda.runtime.deviceSynchronize()
    if len(sys.argv) > 1:
        json.dump(todo, open(sys.argv[1], "w"), indent=0)


if __name__ == "__main__":
    main()
