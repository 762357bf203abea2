"""ptxas's redundant-load elimination (exec/reuse_loads.py): a second plain load of the same address
operand with nothing between that may write or order memory is a register copy, and makes no request."""

import numpy as np
import pytest
from ptxprobes import HEADER, against_sass, asm_kernels

import simgpu as sg
from simgpu.exec.program import _defs_uses
from simgpu.exec.reuse_loads import find_reused_loads
from simgpu.frontend.ptx.parser import parse_ptx


def _kernel(body: str) -> str:
    """A kernel with a = the thread's word of p0, b = its word of p1 and %sa a shared address,
    `body` in between, and %x + %y stored to p2."""
    return HEADER + f"""
.visible .entry k(.param .u64 p0, .param .u64 p1, .param .u64 p2, .param .u32 n)
{{
  .reg .pred %p;
  .reg .b32 %t, %x, %y, %z, %w, %sa, %nn;
  .reg .f32 %f<8>;
  .reg .b16 %h;
  .reg .b64 %a, %b, %o, %off;
  .shared .align 4 .b32 sh[64];
  mov.u32 %t, %tid.x;
  ld.param.u32 %nn, [n];
  mul.wide.u32 %off, %t, 16;
  ld.param.u64 %a, [p0];
  cvta.to.global.u64 %a, %a;
  add.s64 %a, %a, %off;
  ld.param.u64 %b, [p1];
  cvta.to.global.u64 %b, %b;
  add.s64 %b, %b, %off;
  mov.u32 %sa, sh;
  and.b32 %w, %t, 63;
  shl.b32 %w, %w, 2;
  add.u32 %sa, %sa, %w;
  mov.u32 %z, 0;
{body}
  add.u32 %x, %x, %y;
  add.u32 %x, %x, %z;
  ld.param.u64 %o, [p2];
  cvta.to.global.u64 %o, %o;
  mul.wide.u32 %off, %t, 4;
  add.s64 %o, %o, %off;
  st.global.u32 [%o], %x;
  ret;
}}
"""


def _reused(body: str) -> dict[int, int]:
    fn = parse_ptx(_kernel(body)).functions["k"]
    return {fn.body[i].line: fn.body[j].line for i, j in find_reused_loads(fn, _defs_uses).items()}


@pytest.mark.parametrize("between,merged", [
    ("add.u32 %z, %t, 1;", True),
    ("shfl.sync.bfly.b32 %z, %x, 1, 31, -1;", True),
    ("ld.global.u32 %z, [%b];", True),                    # another load
    ("ld.volatile.global.u32 %z, [%b];", True),           # even an ordered one (ptxas merges across it)
    ("st.shared.u32 [%sa], %t;", True),                   # a store to another state space
    ("st.global.u32 [%b], %t;", False),                   # may alias
    ("atom.global.add.u32 %z, [%b], 1;", False),
    ("red.global.add.u32 [%b], 1;", False),
    ("bar.sync 0;", False),
    ("bar.warp.sync -1;", False),
    ("membar.cta;", False),
    ("fence.acq_rel.cta;", False),
    ("add.s64 %a, %a, 0;", False),                        # the address register written
    ("mov.u32 %x, 7;", False),                            # the first load's register written
])
def test_global_loads_merged_or_not(between, merged):
    body = f"  ld.global.u32 %x, [%a];\n  {between}\n  ld.global.u32 %y, [%a];"
    assert bool(_reused(body)) is merged


def test_what_never_merges_and_what_ends_which_space():
    assert not _reused("  ld.global.u32 %x, [%a];\n  ld.global.u32 %y, [%a+4];")           # another offset
    assert not _reused("  ld.volatile.global.u32 %x, [%a];\n  ld.volatile.global.u32 %y, [%a];")
    assert not _reused("  ld.relaxed.gpu.global.u32 %x, [%a];\n  ld.relaxed.gpu.global.u32 %y, [%a];")
    assert not _reused("  ld.global.u32 %x, [%a];\n  ld.global.cg.u32 %y, [%a];")          # other cache op
    assert not _reused("  @%p ld.global.u32 %x, [%a];\n  ld.global.u32 %y, [%a];")          # guarded
    # a sign-extended byte: in a 16-bit register it is not the 32-bit register's bits
    assert _reused("  ld.global.s8 %x, [%a];\n  ld.global.s8 %y, [%a];")
    assert not _reused("  ld.global.s8 %h, [%a];\n  ld.global.s8 %y, [%a];")
    # .nc: read-only for the kernel, merged across stores and barriers alike
    assert _reused("  ld.global.nc.u32 %x, [%a];\n  st.global.u32 [%a], %t;\n  bar.sync 0;\n"
                   "  ld.global.nc.u32 %y, [%a];")
    # shared loads: ended by shared stores and barriers, not by global stores or atomics
    sh = "  ld.shared.u32 %x, [%sa];\n  {}\n  ld.shared.u32 %y, [%sa];"
    assert _reused(sh.format("st.global.u32 [%b], %t;"))
    assert _reused(sh.format("red.global.add.u32 [%b], 1;"))
    assert not _reused(sh.format("st.shared.u32 [%sa+4], %t;"))
    assert not _reused(sh.format("bar.sync 0;"))
    # generic loads may be either: both kinds of store end them
    gen = "  ld.u32 %x, [%a];\n  {}\n  ld.u32 %y, [%a];"
    assert _reused(gen.format("add.u32 %z, %t, 1;"))
    assert not _reused(gen.format("st.shared.u32 [%sa], %t;"))
    assert not _reused(gen.format("st.global.u32 [%b], %t;"))


def test_across_blocks_only_where_every_path_is_clean():
    diamond = """  ld.global.u32 %x, [%a];
  setp.gt.u32 %p, %t, 5;
  @%p bra L1;
  {}
  bra L2;
L1:
  add.u32 %z, %z, 2;
L2:
  ld.global.u32 %y, [%a];"""
    assert _reused(diamond.format("add.u32 %z, %z, 1;"))
    assert not _reused(diamond.format("st.global.u32 [%b], %t;"))
    # a load in a loop is not its own earlier load (the entry path does not have it)
    loop = """L0:
  ld.global.u32 %y, [%a];
  add.u32 %z, %z, %y;
  setp.lt.u32 %p, %z, 100;
  @%p bra L0;
  mov.u32 %x, 0;"""
    assert not _reused(loop)


def _run(body: str, n: int = 64):
    k = sg.RawModule(ptx=_kernel(body)).get_function("k")
    a = sg.asarray(np.arange(4 * n, dtype=np.uint32) * 3 + 1)
    b = sg.asarray(np.zeros(4 * n, np.uint32))
    out = sg.zeros(n, dtype=np.uint32)
    report = k((1,), (n,), (a, b, out, np.int32(n)))
    return out.get(), report.metrics


def test_reused_loads_execute_as_copies_and_make_no_request():
    got, m = _run("  ld.global.u32 %x, [%a];\n  shfl.sync.bfly.b32 %z, %x, 1, 31, -1;\n"
                  "  ld.global.u32 %y, [%a];")
    a = np.arange(4 * 64, dtype=np.uint32)[::4] * 3 + 1
    assert np.array_equal(got, 2 * a + a.reshape(-1, 2)[:, ::-1].reshape(-1))
    assert m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 2      # one load a warp, not two
    assert m["smsp__sass_inst_executed_op_global_ld.sum"] == 2
    # a store between: both loads issue
    _, m = _run("  ld.global.u32 %x, [%a];\n  st.global.u32 [%b], %t;\n  ld.global.u32 %y, [%a];")
    assert m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 4


def test_a_reused_vector_load_copies_every_element():
    body = """  ld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%a];
  ld.global.v4.f32 {%f4, %f5, %f6, %f7}, [%a];
  mov.b32 %x, %f3;
  mov.b32 %y, %f7;"""
    got, m = _run(body)
    a = np.arange(4 * 64, dtype=np.uint32) * 3 + 1
    assert np.array_equal(got, 2 * a.reshape(-1, 4)[:, 3])
    assert m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 2


# ---- against ptxas itself: NVRTC's cubin of each probe, its load instructions in nvdisasm's listing
_BETWEEN = {
    "plain": "add.u32 %2, %2, 1;", "shfl": "shfl.sync.bfly.b32 %2, %0, 1, 31, -1;",
    "st_shared": "st.shared.u32 [%5], %0;", "st_global": "st.global.u32 [%4], %0;",
    "warpsync": "bar.warp.sync -1;", "bar_sync": "bar.sync 0;", "membar": "membar.cta;",
    "fence": "fence.acq_rel.cta;", "atom": "atom.global.add.u32 %2, [%4], 1;", "red": "red.global.add.u32 [%4], 1;",
    "ld_volatile": "ld.volatile.global.u32 %2, [%4];", "ld_acquire": "ld.acquire.gpu.global.u32 %2, [%4];",
    "ld_other": "ld.global.u32 %2, [%4];", "nanosleep": "nanosleep.u32 10;",
}
_LOADS = {"global": "ld.global.u32", "generic": "ld.u32", "nc": "ld.global.nc.u32", "cs": "ld.global.cs.u32",
          "shared": "ld.shared.u32"}
_OTHERS = {  # a vector pair; a pair in two blocks, with and without a store on one path between
    "v4": "ld.global.v4.u32 {%0, %1, %2, %%v0}, [%3]; ld.global.v4.u32 {%%v1, %%v2, %%v3, %2}, [%3];",
    "blocks_clean": "ld.global.u32 %0, [%3]; setp.gt.u32 p, %0, 5; @p bra L1; add.u32 %1, %0, 3; "
                    "L1: ld.global.u32 %1, [%3];",
    "blocks_store": "ld.global.u32 %0, [%3]; setp.gt.u32 p, %0, 5; @p bra L1; st.global.u32 [%4], %0; "
                    "L1: ld.global.u32 %1, [%3];",
}


def _probes() -> dict[str, str]:
    out = {}
    for kn, ld in _LOADS.items():
        addr = "%5" if kn == "shared" else "%3"
        for bn, between in _BETWEEN.items():
            if (kn, bn) != ("shared", "st_shared"):  # a store to the loads' own address: forwarded
                out[f"k_{kn}_{bn}"] = f"{ld} %0, [{addr}]; {between} {ld} %1, [{addr}];"
    for name, asm in _OTHERS.items():
        regs = ".reg .pred p; .reg .b32 %%v<4>;" if name == "v4" else ".reg .pred p;"
        out[f"k_{name}"] = regs + " " + asm
    return out


def test_the_same_loads_as_ptxas_merges():
    """For each probe (two identical loads with one instruction between, in each state space; a
    vector pair; a pair in two blocks, with and without a store on the path between), the loads
    simgpu issues = the load instructions of ptxas's SASS (and the stores too)."""
    probes = _probes()
    counts = against_sass(asm_kernels(probes))
    if counts is None:
        pytest.skip("nvdisasm is not available")
    assert set(counts) == set(probes)
    wrong = {name: c for name, c in counts.items() if c[0] != c[1]}
    assert not wrong, wrong
    assert counts["k_global_shfl"][0] == (2, 1) and counts["k_global_st_global"][0] == (3, 2)
