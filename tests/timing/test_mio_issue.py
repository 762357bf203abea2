"""A sub-partition sends its memory instructions to the MIO at most one every config.ii_mio cycles
(ptxas never puts two of a warp's LDG / LDS / STG / STS / SHFL closer than 4 stall cycles)."""
import numpy as np
import pytest

import simgpu as sg
import simgpu.timing.model as timing_model
from simgpu.timing.config import default_config, overridden

SRC = r'''
extern "C" __global__ void burst(const float* a, float* out)
{
    const float* p = a + (threadIdx.x & 31);
    float v[16];
#pragma unroll
    for (int k = 0; k < 16; ++k) v[k] = __ldcg(p + k * 32);
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < 16; ++k) s += v[k];
    out[threadIdx.x] = s;
}
'''


def _load_issues(threads, **changes):
    """Per sub-partition the sorted issue cycles of every global load its warps issued."""
    with overridden(**changes):
        rep = sg.RawModule(code=SRC).get_function("burst")(
            (1,), (threads,), (sg.asarray(np.ones(16 * 32, np.float32)), sg.zeros(threads, np.float32)))
    rec, lk = rep.timing.record, rep.linked
    is_load = np.array([ins.opcode == "ld" and lk.mem_class[pc] == "global_ld"
                        for pc, ins in enumerate(lk.instructions)])
    sub = rec.sub_partition
    at = is_load[rec.pc]
    return {int(s): np.sort(rec.issue[at & (sub == s)]) for s in np.unique(sub)}


@pytest.mark.parametrize("threads", [32, 256])  # one warp; two warps on each sub-partition
def test_a_sub_partition_issues_a_memory_instruction_every_ii_mio_cycles(monkeypatch, threads):
    monkeypatch.setattr(timing_model, "RECORD_AUTO_LIMIT", 10**9)
    cfg = default_config()
    assert cfg.ii_mio == 4
    for t in _load_issues(threads).values():
        assert len(t) == 16 * threads // 32 // min(4, threads // 32)
        assert np.diff(t).min() >= cfg.ii_mio
    fast = _load_issues(threads, ii_mio=1)
    assert min(np.diff(t).min() for t in fast.values()) < 4  # without it, closer
