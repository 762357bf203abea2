"""LaunchReport: what one launch did, with Nsight Compute's metric names.

`report.metrics[name]` holds the counters (ncu names, DESIGN.md "Metric semantics");
`report.instructions()` is the per-PTX-instruction breakdown (which line caused how many sectors,
wavefronts and misses); `str(report)` and the notebook's HTML view are the readable summary.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

SUMMARY_METRICS = [
    ("gpu__time_duration.sum", "kernel time (ns, timing model)"),
    ("sm__cycles_elapsed.max", "SM cycles elapsed (max)"),
    ("sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy (%)"),
    ("sm__inst_executed.avg.per_cycle_active", "IPC per SM"),
    ("smsp__inst_executed.sum", "warp instructions executed (SASS, estimated)"),
    ("simgpu__ptx_inst_executed.sum", "  PTX warp instructions executed"),
    ("smsp__thread_inst_executed.sum", "thread instructions executed (PTX)"),
    ("smsp__sass_inst_executed_op_global_ld.sum", "global load instructions"),
    ("smsp__sass_inst_executed_op_global_st.sum", "global store instructions"),
    ("smsp__sass_inst_executed_op_shared_ld.sum", "shared load instructions"),
    ("smsp__sass_inst_executed_op_shared_st.sum", "shared store instructions"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global load requests"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global load sectors"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "global store requests"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "global store sectors"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared load wavefronts"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared store wavefronts"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared load bank conflicts"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared store bank conflicts"),
    ("l1tex__t_sector_hit_rate.pct", "L1 sector hit rate (%)"),
    ("lts__t_sectors_srcunit_tex_op_read.sum", "L2 read sectors (from L1)"),
    ("lts__t_sectors_srcunit_tex_op_write.sum", "L2 write sectors (from L1)"),
    ("lts__t_sector_hit_rate.pct", "L2 sector hit rate (%)"),
    ("dram__bytes_read.sum", "DRAM bytes read"),
    ("dram__bytes_write.sum", "DRAM bytes written"),
    ("simgpu__dram_bytes_write_cold_start_lines.sum", "  of them ncu's cold-start dirty lines"),
]
_SHOWN_IF_NONZERO = {"simgpu__dram_bytes_write_cold_start_lines.sum"}


@dataclass
class LaunchReport:
    """Counters, occupancy and the per-instruction breakdown of one simulated launch."""

    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    gpu: str
    shared_static: int
    shared_dynamic: int
    registers_per_thread: int
    ctas_per_sm: int
    occupancy_limiter: str
    metrics: dict[str, float]
    per_pc: list[dict] = field(default_factory=list)
    host_seconds: float = 0.0  # the simulation's host time, compiling simgpu's numba code excluded
    compile_seconds: float = 0.0  # numba compiling simgpu's engine during this launch (first run on a machine)
    timing_seconds: float = 0.0  # the timing replay's host time (after the engine's run; compiling excluded)
    engine: str = "reference"
    trace: object = field(default=None, repr=False)  # ExecutionTrace when launched with trace=True
    sass_loops: tuple | None = field(default=None, repr=False)  # ptxas's loops (frontend/sass.py), for the timing
    linked: object = field(default=None, repr=False)  # the LinkedKernel (PTX instructions by pc)
    timing: object = field(default=None, repr=False)  # TimingResult of the timing model (cycles, stalls)
    registers_from: str = "estimated"  # "ptxas" (NVRTC's cubin), "given" (registers=) or "estimated" (PTX)
    printf: str = ""  # what the kernel's device printf wrote, in execution order (also printed at the end)

    @property
    def warp_instructions(self) -> int:
        """The PTX warp instructions the engine executed (what the simulator's speed is counted in);
        metrics["smsp__inst_executed.sum"] is ncu's SASS count, estimated by the timing model."""
        return int(self.metrics.get("simgpu__ptx_inst_executed.sum", 0))

    @property
    def simt_efficiency(self) -> float:
        """Active threads per PTX warp instruction / 32 (both counts from the engine's run)."""
        w = self.metrics.get("simgpu__ptx_inst_executed.sum", 0)
        t = self.metrics.get("smsp__thread_inst_executed.sum", 0)
        return t / (32.0 * w) if w else 0.0

    @property
    def sim_speed(self) -> float:
        """Simulated warp instructions per second of host time."""
        return self.warp_instructions / self.host_seconds if self.host_seconds > 0 else 0.0

    def instructions(self, top: int | None = None, sort_by: str | None = None) -> list[dict]:
        """Per PTX instruction: line, text, warps and threads that executed it, and memory counters."""
        rows = self.per_pc
        if sort_by:
            rows = sorted(rows, key=lambda r: -r.get(sort_by, 0))
        return rows[:top] if top else rows

    def __getitem__(self, name: str) -> float:
        return self.metrics[name]

    def summary_rows(self) -> list[tuple[str, str, str]]:
        rows = []
        for name, label in SUMMARY_METRICS:
            if name in self.metrics:
                v = self.metrics[name]
                if name in _SHOWN_IF_NONZERO and not v:
                    continue
                if self.timing is None and name == "simgpu__ptx_inst_executed.sum":
                    continue  # without the timing model smsp__inst_executed is this PTX count
                if self.timing is None and name == "smsp__inst_executed.sum":
                    label = "warp instructions executed (PTX; the SASS estimate needs timing)"
                rows.append((label, _fmt(v), name))
        return rows

    def _registers_text(self) -> str:
        if self.registers_from == "ptxas":
            return f"{self.registers_per_thread} registers/thread (ptxas, via NVRTC)"
        if self.registers_from == "given":
            return f"{self.registers_per_thread} registers/thread (given)"
        return f"~{self.registers_per_thread} registers/thread (estimated from the PTX)"

    def __str__(self) -> str:
        g = "x".join(str(x) for x in self.grid)
        b = "x".join(str(x) for x in self.block)
        lines = [
            f"simgpu launch report: {self.kernel}  grid {g}  block {b}  on {self.gpu}",
            f"  shared memory {self.shared_static} B static + {self.shared_dynamic} B dynamic per block; "
            f"{self._registers_text()}; {self.ctas_per_sm} blocks/SM "
            f"(limited by {self.occupancy_limiter})",
            f"  SIMT efficiency {100 * self.simt_efficiency:.1f}% "
            f"(threads per warp instruction / 32)",
        ]
        width = max(len(r[0]) for r in self.summary_rows()) if self.summary_rows() else 10
        for label, val, name in self.summary_rows():
            lines.append(f"  {label:<{width}}  {val:>14}   {name}")
        if self.timing is not None and getattr(self.timing, "stalls", None):
            tot = sum(self.timing.stalls.values()) or 1.0
            top = sorted(self.timing.stalls.items(), key=lambda kv: -kv[1])[:6]
            lines.append("  warp states (share of warp-cycles): "
                         + ", ".join(f"{k} {100 * v / tot:.0f}%" for k, v in top))
        hot = [r for r in self.per_pc if r.get("sectors", 0) or r.get("wavefronts", 0)]
        if hot:
            lines.append("  memory instructions (PTX line: warps, sectors or wavefronts per warp):")
            for r in hot[:12]:
                if "wavefronts" in r:
                    per = r["wavefronts"] / max(1, r["warps"])
                    what = f"{per:.2f} wavefronts/warp"
                else:
                    per = r.get("sectors", 0) / max(1, r.get("requests", r["warps"]) or 1)
                    what = f"{per:.2f} sectors/request"
                lines.append(f"    line {r['line']:>4}  {r['text'][:46]:<46} {r['warps']:>9} warps  {what}")
        kept = [r for r in self.per_pc if "value_of_line" in r or r.get("dropped_store")]
        if kept:
            lines.append("  no memory access, as ptxas compiles them (ptxas_memory=False issues them):")
            for r in kept[:8]:
                what = (f"value of line {r['value_of_line']}" if "value_of_line" in r
                        else "store overwritten before any read")
                ptx = r["text"].split("//")[-1].split(": ptxas")[0].strip()  # the PTX as written
                lines.append(f"    line {r['line']:>4}  {ptx[:46]:<46} {r['warps']:>9} warps  {what}")
            if len(kept) > 8:
                lines.append(f"    ... {len(kept) - 8} more (report.instructions())")
        if self.host_seconds:
            replay = f", then {self.timing_seconds:.2f} s of timing replay" if self.timing_seconds else ""
            lines.append(f"  simulated in {self.host_seconds:.2f} s on the host "
                         f"({self.sim_speed:,.0f} warp instructions/s, {self.engine} engine){replay}")
        if self.compile_seconds >= 0.5:
            lines.append(f"  and {self.compile_seconds:.0f} s compiling simgpu's engine (numba), once: later runs "
                         "load it from the cache")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        g = "x".join(str(x) for x in self.grid)
        b = "x".join(str(x) for x in self.block)
        rows = "".join(f"<tr><td>{html.escape(label)}</td><td style='text-align:right'>{html.escape(val)}</td>"
                       f"<td><code>{html.escape(name)}</code></td></tr>" for label, val, name in self.summary_rows())
        return (f"<div><b>{html.escape(self.kernel)}</b> grid {g}, block {b} on {html.escape(self.gpu)} — "
                f"SIMT efficiency {100 * self.simt_efficiency:.1f}%, {self.ctas_per_sm} blocks/SM "
                f"(limited by {html.escape(self.occupancy_limiter)})"
                f"<table>{rows}</table></div>")

    def __repr__(self) -> str:
        return f"<LaunchReport {self.kernel} grid={self.grid} block={self.block} " \
               f"warp_instructions={self.warp_instructions}>"


def _fmt(v: float) -> str:
    if isinstance(v, float) and not float(v).is_integer():
        return f"{v:,.2f}"
    return f"{int(v):,}"


def build_per_pc(lk, stats, mem_per_pc: dict[int, dict[str, float]] | None) -> list[dict]:
    rows = []
    mem_per_pc = mem_per_pc or {}
    for pc, ins in enumerate(lk.instructions):
        warps = int(stats.per_pc_warps[pc])
        if not warps:
            continue
        row = {"pc": pc, "line": ins.line, "text": ins.text, "function": lk.func_of_pc[pc], "warps": warps,
               "threads": int(stats.per_pc_threads[pc])}
        if pc in lk.reused_loads:  # a load ptxas does not issue: the PTX line whose value it takes
            row["value_of_line"] = lk.instructions[lk.reused_loads[pc]].line
        elif pc in lk.dropped_stores:  # a store ptxas drops: a later one overwrites it first
            row["dropped_store"] = True
        for k, v in mem_per_pc.get(pc, {}).items():
            row[k] = v
        rows.append(row)
    return rows


__all__ = ["LaunchReport", "build_per_pc"]
