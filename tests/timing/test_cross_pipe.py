"""A result read by another SASS unit than the one that made it costs lat_cross_pipe more
(isa._cross_pipe_latency): FMA pipe -> ALU or MIO, FP32 ALU op -> FMA pipe or MIO, as ptxas's stall
counts say (validation/sass_pair_stalls.py)."""

import numpy as np

import simgpu as sg
from simgpu.timing.config import TimingConfig, overridden
from simgpu.timing.isa import build_static

# one warp, `n` trips of a loop kept rolled: a chain of `fmaxf(v * c, 0.5f)` (FMUL -> FMNMX ->
# FMUL ...: every link crosses) or of FFMAs (none does), then the result stored (the last FFMA or
# FMNMX -> STG crosses too)
CHAINS = r'''
extern "C" __global__ void mulmax(float* io, int n)
{
    float v = io[threadIdx.x];
    #pragma unroll 1
    for (int s = 0; s < n; ++s) { v = fmaxf(v * 1.001f, 0.5f); v = fmaxf(v * 1.001f, 0.5f); }
    io[threadIdx.x] = v;
}
#define MM(v) v = fmaxf(v * 1.001f, 0.5f);
#define MM4(v) MM(v) MM(v) MM(v) MM(v)
extern "C" __global__ void straight8(float* io, int n) { float v = io[threadIdx.x]; MM4(v) MM4(v) io[threadIdx.x] = v; }
extern "C" __global__ void straight16(float* io, int n)
{ float v = io[threadIdx.x]; MM4(v) MM4(v) MM4(v) MM4(v) io[threadIdx.x] = v; }
extern "C" __global__ void ffma(float* io, int n)
{
    float v = io[threadIdx.x];
    #pragma unroll 1
    for (int s = 0; s < n; ++s) { v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; }
    io[threadIdx.x] = v;
}
extern "C" __global__ void imad_and(int* io, int n)
{
    int v = io[threadIdx.x];
    #pragma unroll 1
    for (int s = 0; s < n; ++s) { v = (v * 7 + s) & 0xffff; }
    io[threadIdx.x] = v;
}
'''


def _lats(name: str, opcode: str, cfg: TimingConfig | None = None, f32: bool = False) -> list[int]:
    """The static latencies of `name`'s `opcode` instructions (only the .f32 ones with f32)."""
    lk = sg.RawModule(code=CHAINS).linked(name)
    st = build_static(lk, cfg or TimingConfig())
    return [int(st.lat[pc]) for pc, ins in enumerate(lk.instructions)
            if ins.opcode == opcode and (not f32 or "f32" in ins.mods)]


def test_fmul_and_fmnmx_feeding_each_other_cross():
    cfg = TimingConfig()
    assert set(_lats("mulmax", "mul", f32=True)) == {cfg.lat_fp32 + cfg.lat_cross_pipe}
    assert set(_lats("mulmax", "max", f32=True)) == {cfg.lat_fp32 + cfg.lat_cross_pipe}


def test_an_ffma_chain_stays_in_its_pipe():
    """FFMA -> FFMA: 4. The last FFMA of a trip also feeds the store after the loop, so it crosses."""
    cfg = TimingConfig()
    lats = _lats("ffma", "fma")
    assert sorted(lats) == [cfg.lat_fp32] * (len(lats) - 1) + [cfg.lat_fp32 + cfg.lat_cross_pipe]


def test_imad_feeding_a_logical_op_crosses():
    cfg = TimingConfig()
    assert set(_lats("imad_and", "mad")) == {cfg.lat_imad + cfg.lat_cross_pipe}
    assert set(_lats("imad_and", "and")) == {cfg.lat_int}  # integer ALU ops keep lat_int


def test_off_gives_the_pipe_latency():
    cfg = TimingConfig(lat_cross_pipe=0)
    assert set(_lats("mulmax", "mul", cfg, True)) == set(_lats("mulmax", "max", cfg, True)) == {cfg.lat_fp32}


def _cycles(name: str, n: int, **config) -> int:
    io = sg.asarray(np.ones(32, np.float32))
    with overridden(**config):
        rep = sg.RawModule(code=CHAINS).get_function(name)((1,), (32,), (io, np.int32(n)))
    return int(rep.metrics["gpc__cycles_elapsed.max"])


def test_each_crossing_link_of_the_chain_costs_its_cycles():
    """Straight code, 8 or 16 `fmaxf(v * c, 0.5f)` steps, two crossing links each: raising
    lat_cross_pipe by 2 moves the 8 more steps' 16 links by 32 cycles."""
    def growth(name):
        return _cycles(name, 1, lat_cross_pipe=3) - _cycles(name, 1, lat_cross_pipe=1)
    assert growth("straight16") - growth("straight8") == 2 * 16
