"""The pictures: divergence, bank map, sector map, cache hits over time, roofline, occupancy, timeline.

Each function returns a matplotlib Figure (built without pyplot, so it works under Agg, in tests and
in notebooks, where the Figure displays itself). Inputs are what a learner has at hand: a
LaunchReport launched with trace=True, a Stepper (simgpu.core.stepper), a launch recorded by
simgpu.viz.capture(), or an Access (one memory instruction's addresses) for the bank and sector maps.
"""

from __future__ import annotations

import numpy as np

from simgpu.memory import banks as _banks
from simgpu.memory.coalescer import coalesce
from simgpu.viz._common import CLASS_COLORS, CLASSES, classes_of, measurement, need_trace, new_figure, resolve

# --------------------------------------------------------------------------------- divergence


def _warp_history(trace, uid: int):
    steps, masks, pcs = [], [], []
    for i, (pc, ws, act) in enumerate(zip(trace.step_pc, trace.step_warps, trace.step_active)):
        hit = np.flatnonzero(ws == uid)
        if len(hit):
            steps.append(i)
            masks.append(int(act[hit[0]]))
            pcs.append(int(pc))
    return np.array(steps, np.int64), np.array(masks, np.uint64), np.array(pcs, np.int64)


def divergence(source, warp: int = 0, max_steps: int = 120, label_instructions: bool | None = None):
    """Active lanes over time for one warp: a 32-row strip per issued instruction (green = active).

    warp: launch-wide warp id (0 = first warp of CTA 0). Columns are the warp's own instructions in
    issue order; a column's label is its PTX line. Vertical lines mark where the active mask changed
    (a divergent branch split the warp, or its paths reconverged).
    """
    src = resolve(source)
    trace = need_trace(src, "divergence()")
    lk = src.linked
    steps, masks, pcs = _warp_history(trace, warp)
    fig = new_figure(11, 4.2)
    if not len(steps):
        ax = fig.add_subplot()
        ax.text(0.5, 0.5, f"warp {warp} issued no instruction", ha="center", va="center")
        ax.set_axis_off()
        return fig
    n_all = len(steps)
    steps, masks, pcs = steps[:max_steps], masks[:max_steps], pcs[:max_steps]
    n = len(steps)
    lanes = ((masks[None, :] >> np.arange(32, dtype=np.uint64)[:, None]) & np.uint64(1)).astype(float)
    gs = fig.add_gridspec(2, 1, height_ratios=[5, 1])
    ax = fig.add_subplot(gs[0])
    from matplotlib.colors import ListedColormap

    ax.imshow(lanes, aspect="auto", cmap=ListedColormap(["#e6e6e6", "#2a9d4b"]), vmin=0, vmax=1,
              interpolation="nearest", origin="upper")
    ax.set_ylabel("lane")
    ax.set_yticks([0, 8, 16, 24, 31])
    change = np.flatnonzero(masks[1:] != masks[:-1]) + 1
    for c in change:
        ax.axvline(c - 0.5, color="#c44e52", lw=1.2)
    ax.set_xticks(np.arange(n) - 0.5, minor=True)
    ax.grid(which="minor", axis="x", color="white", lw=0.5)
    ax.tick_params(which="minor", length=0)
    if label_instructions is None:
        label_instructions = n <= 45
    ax2 = fig.add_subplot(gs[1], sharex=ax)
    counts = lanes.sum(axis=0)
    ax2.bar(np.arange(n), counts, color=["#2a9d4b" if c == 32 else "#e0a458" for c in counts], width=0.9)
    ax2.set_ylim(0, 32)
    ax2.set_yticks([0, 16, 32])
    ax2.set_ylabel("active")
    if lk is not None:
        lines = [lk.instructions[p].line for p in pcs]
        texts = [lk.instructions[p].text for p in pcs]
    else:
        lines, texts = list(pcs), [str(p) for p in pcs]
    if label_instructions:
        ax2.set_xticks(np.arange(n))
        ax2.set_xticklabels([f"{t[:26]}  ({ln})" for t, ln in zip(texts, lines)], rotation=90, fontsize=7,
                            family="monospace")
        ax2.set_xlabel("the warp's instructions in issue order (PTX text and line)")
    else:
        ticks = np.arange(0, n, max(1, n // 24))
        ax2.set_xticks(ticks)
        ax2.set_xticklabels([str(lines[i]) for i in ticks], fontsize=7)
        ax2.set_xlabel("the warp's instructions in issue order (labels: PTX line)")
    ax.tick_params(axis="x", labelbottom=False)
    cta = trace.cta_of_warp()[warp] if warp < trace.num_warps else -1
    eff = counts.mean() / 32
    name = lk.name if lk is not None else ""
    ax.set_title(f"{name}: warp {warp} (CTA {cta}) - {n_all} instructions"
                 + (f", first {n} shown" if n < n_all else "")
                 + f", {100 * eff:.0f}% of lanes active on average; red lines: the active mask changed",
                 fontsize=10)
    return fig


# --------------------------------------------------------------------------------- bank map


def _bank_layout(a: np.ndarray, m: np.ndarray, size: int, op: str):
    """Per phase: list of (bank, word, lanes) and the phase's wavefronts, following memory/banks.py."""
    nwords, lanes_per_phase = _banks._phase_layout(size)
    atom = op == "atom"
    if nwords > 1 and not atom and bool(_banks.pair_packed(a[None, :], m[None, :])[0]):
        lanes_per_phase *= 2
    phases = []
    for p0 in range(0, 32, lanes_per_phase):
        cells: dict[tuple[int, int], list[int]] = {}
        order: list[tuple[int, int]] = []
        for lane in range(p0, p0 + lanes_per_phase):
            if not m[lane]:
                continue
            for j in range(nwords):
                word = int(a[lane]) // 4 + j
                key = (word, lane if atom else -1)
                if key not in cells:
                    cells[key] = []
                    order.append(key)
                cells[key].append(lane)
        if not order:
            continue
        per_bank: dict[int, list[tuple[int, list[int]]]] = {}
        for key in order:
            per_bank.setdefault(key[0] % 32, []).append((key[0], cells[key]))
        phases.append((p0, p0 + lanes_per_phase - 1, per_bank, max(len(v) for v in per_bank.values())))
    return phases


def bank_map(access, warp: int = 0):
    """Lanes -> shared-memory banks for one warp of one shared-memory instruction.

    Top: each lane's arrow to its bank (red: the bank holds more than one distinct word, so the
    warp needs extra wavefronts; green: conflict-free). Bottom: each bank's column holds one cell per
    distinct word the warp touches there, stacked; the number of rows is the number of wavefronts
    (lanes reading the same word share one cell: a broadcast, no conflict). `access` is an Access
    (stepper.last_access, stepper.access_at(line=...), a captured launch's access_at(...)).
    """
    if access is None:
        raise ValueError("bank_map() needs an Access of a shared-memory instruction (e.g. stepper.access_at(line=L))")
    if access.space != "shared":
        raise ValueError(f"bank_map() draws shared-memory accesses; line {access.line} is a {access.space} access")
    a = np.asarray(access.addr[warp]).astype(np.int64)
    m = np.asarray(access.mask[warp], bool)
    wf, ideal = _banks.shared_wavefronts(a[None, :], m[None, :], access.size, access.op)
    wf, ideal = int(wf[0]), int(ideal[0])
    phases = _bank_layout(a, m, access.size, access.op)
    total_rows = sum(p[3] for p in phases)
    fig = new_figure(12, 3.2 + 0.22 * min(total_rows, 34))
    gs = fig.add_gridspec(2, 1, height_ratios=[2.2, max(1.5, 0.22 * min(total_rows, 34))])
    ax = fig.add_subplot(gs[0])
    conflict_banks = {b for p in phases for b, v in p[2].items() if len(v) > 1}
    nwords = max(1, access.size // 4)
    from matplotlib.collections import LineCollection

    segs, cols = [], []
    for lane in np.flatnonzero(m):
        for j in range(nwords):
            b = (int(a[lane]) // 4 + j) % 32
            segs.append([(lane, 1), (b, 0)])
            cols.append("#c44e52" if b in conflict_banks else "#2a9d4b")
    ax.add_collection(LineCollection(segs, colors=cols, linewidths=1.0, alpha=0.8))
    ax.scatter(np.arange(32), np.ones(32), c=["#333333" if x else "#cccccc" for x in m], s=30, zorder=3)
    for b in range(32):
        ax.add_patch(_rect(b - 0.4, -0.12, 0.8, 0.12, "#c44e52" if b in conflict_banks else "#9ecae1"))
    ax.set_xlim(-0.8, 31.8)
    ax.set_ylim(-0.25, 1.15)
    ax.set_yticks([0, 1])
    ax.set_yticklabels(["bank", "lane"])
    ax.set_xticks(range(32))
    ax.tick_params(axis="x", labelsize=7)
    extra = wf - ideal
    verdict = "no bank conflict" if extra == 0 else f"{extra} extra wavefront(s) = bank conflicts"
    ax.set_title(f"PTX line {access.line}: {access.text}\n{access.size}-byte {access.op} by "
                 f"{int(m.sum())} lanes -> {wf} wavefront(s), ideal {ideal}: {verdict}", fontsize=10)
    for s in ("top", "right"):
        ax.spines[s].set_visible(False)
    ax2 = fig.add_subplot(gs[1])
    row = 0
    cmap_rows = ["#2a9d4b", "#e0a458", "#d9534f"]
    for (p0, p1, per_bank, nrows) in phases:
        for b, cells in per_bank.items():
            for r, (_word, lanes) in enumerate(cells):
                color = cmap_rows[min(r, 2)] if r else "#2a9d4b"
                ax2.add_patch(_rect(b - 0.45, row + r + 0.05, 0.9, 0.9, color, alpha=0.85))
                label = ",".join(str(x) for x in lanes[:3]) + ("+" if len(lanes) > 3 else "")
                if total_rows <= 40:
                    ax2.text(b, row + r + 0.5, label, ha="center", va="center", fontsize=6 if len(label) > 3 else 7,
                             color="white")
        if len(phases) > 1:
            ax2.axhline(row + nrows, color="#555555", lw=0.8, ls="--")
            ax2.text(32.0, row + nrows / 2, f"lanes {p0}-{p1}", fontsize=7, va="center")
        row += nrows
    ax2.set_xlim(-0.8, 31.8 if len(phases) == 1 else 35)
    ax2.set_ylim(row + 0.1, -0.1)
    ax2.set_xticks(range(32))
    ax2.tick_params(axis="x", labelsize=7)
    worst = max(((b, cells) for ph in phases for b, cells in ph[2].items()), key=lambda t: len(t[1]), default=None)
    why = ""
    if worst is not None and len(worst[1]) > 1:
        addrs = ", ".join(str(4 * w) for w, _ in worst[1][:6]) + (", ..." if len(worst[1]) > 6 else "")
        why = (f"\nbank {worst[0]} holds {len(worst[1])} different words (byte offsets {addrs}): "
               f"one wavefront each")
    ax2.set_xlabel("bank (4-byte word address mod 32); numbers in a cell: the lanes reading that word" + why)
    ax2.set_ylabel("wavefront")
    step = max(1, row // 8)
    ax2.set_yticks(np.arange(0, row, step) + 0.5)
    ax2.set_yticklabels([str(i + 1) for i in range(0, row, step)])
    return fig


def _rect(x, y, w, h, color, alpha=1.0):
    from matplotlib.patches import Rectangle

    return Rectangle((x, y), w, h, facecolor=color, edgecolor="white", lw=0.5, alpha=alpha)


# --------------------------------------------------------------------------------- sector map


def sector_map(access, warp: int = 0, max_lines: int = 32):
    """Lanes -> 32-byte sectors and 128-byte lines for one warp of one global (or local) access.

    Each touched 128-byte line is drawn as four sector boxes (shaded: the warp touches that sector);
    lines that are far apart are drawn side by side with their addresses below. The title gives
    the sectors the warp needs and the fewest it could need for its bytes.
    """
    if access is None:
        raise ValueError("sector_map() needs an Access of a global-memory instruction")
    if access.space == "shared":
        raise ValueError(f"line {access.line} is a shared-memory access: use bank_map()")
    a = np.asarray(access.addr[warp]).astype(np.int64)
    m = np.asarray(access.mask[warp], bool)
    size = access.size
    co = coalesce(a[None, :], m[None, :], size)
    nsec, nlines = int(co.sectors[0]), int(co.lines[0])
    act = np.flatnonzero(m)
    ideal = -(-len(act) * size // 32) if len(act) else 0
    lines = sorted({int(x) >> 7 for x in a[act]} | {(int(x) + size - 1) >> 7 for x in a[act]})
    shown = lines[:max_lines]
    slot = {ln: i for i, ln in enumerate(shown)}
    gap = 24
    width = 128 + gap

    def xpos(addr):
        ln = addr >> 7
        return slot[ln] * width + (addr & 127) if ln in slot else None

    touched = {int(s) for s in co.sector_id}
    n_cols = len(a)
    fig = new_figure(12, 3.6)
    ax = fig.add_subplot()
    total_w = max(1, len(shown)) * width - gap
    lane_x = np.linspace(0, total_w, n_cols)
    for i, ln in enumerate(shown):
        x0 = i * width
        for s in range(4):
            sid = ln * 4 + s
            ax.add_patch(_rect(x0 + 32 * s, 0, 32, 0.35, "#dd8452" if sid in touched else "#eeeeee"))
        ax.add_patch(_rect(x0, 0, 128, 0.35, "none"))
        ax.plot([x0, x0 + 128, x0 + 128, x0, x0], [0, 0, 0.35, 0.35, 0], color="#333333", lw=1)
        if len(shown) <= 16 or i % max(1, len(shown) // 16) == 0:
            ax.text(x0 + 64, -0.08, f"line 0x{(ln << 7) & 0xFFFFFF:06x}", ha="center", va="top", fontsize=6.5)
    from matplotlib.collections import LineCollection

    segs = []
    for lane in np.flatnonzero(m):
        x = xpos(int(a[lane]))
        if x is not None:
            segs.append([(lane_x[lane], 1), (x + size / 2, 0.36)])
    ax.add_collection(LineCollection(segs, colors="#4c72b0", linewidths=0.7, alpha=0.7))
    ax.scatter(lane_x, np.ones(n_cols), c=["#333333" if x else "#cccccc" for x in m], s=14, zorder=3)
    ax.set_xlim(-gap, total_w + gap)
    ax.set_ylim(-0.3, 1.12)
    ax.set_yticks([0.17, 1])
    ax.set_yticklabels(["128-B lines\n(4 sectors)", "lanes" if n_cols == 32 else "lane words"])
    ax.set_xticks([])
    for s in ("top", "right", "bottom"):
        ax.spines[s].set_visible(False)
    more = f" ({len(lines) - len(shown)} more lines not drawn)" if len(lines) > len(shown) else ""
    verdict = "fully coalesced" if nsec <= ideal else f"{nsec / max(1, ideal):.1f}x the sectors it needs"
    ax.set_title(f"PTX line {access.line}: {access.text}\n{int(m.sum())} lanes x {size} B -> {nsec} sectors "
                 f"in {nlines} line(s); the bytes fit in {ideal} sector(s): {verdict}{more}", fontsize=10)
    return fig


# --------------------------------------------------------------------------------- cache hits


def cache_hits(source, bins: int = 60):
    """Global/local sectors over the launch's issue steps: L1 hits, L2 hits and DRAM (L2 misses),
    with the cumulative L1 and L2 hit rates below."""
    src = resolve(source)
    trace = need_trace(src, "cache_hits()")
    S = max(1, trace.n_steps)
    nb = max(1, min(bins, S))
    l1 = np.zeros(nb)
    l2 = np.zeros(nb)
    dram = np.zeros(nb)
    st = np.zeros(nb)
    shared_wf = np.zeros(nb)
    for ev in trace.memory:
        b = min(nb - 1, ev.step * nb // S)
        if ev.space == "shared":
            shared_wf[b] += float(np.sum(ev.wavefronts)) if ev.wavefronts is not None else 0
            continue
        sec = float(np.sum(ev.sectors))
        h1 = float(np.sum(ev.l1_hit_sectors))
        h2 = float(np.sum(ev.l2_hit_sectors))
        if ev.op == "st":
            st[b] += sec
            continue
        l1[b] += h1
        l2[b] += h2
        dram[b] += max(sec - h1 - h2, 0.0)
    fig = new_figure(11, 5)
    ax, ax2 = fig.subplots(2, 1, sharex=True, height_ratios=[3, 1.6])
    x = (np.arange(nb) + 0.5) * S / nb
    w = S / nb * 0.9
    ax.bar(x, l1, w, color="#2a9d4b", label="load sectors: L1 hit")
    ax.bar(x, l2, w, bottom=l1, color="#e0a458", label="load sectors: L1 miss, L2 hit")
    ax.bar(x, dram, w, bottom=l1 + l2, color="#c44e52", label="load sectors: L2 miss (DRAM)")
    if st.any():
        ax.bar(x, -st, w, color="#8172b3", label="store sectors (write-through to L2), drawn below 0")
    ax.axhline(0, color="#333333", lw=0.6)
    ax.set_ylabel("sectors per bin")
    ax.legend(fontsize=8, loc="upper right")
    name = src.linked.name if src.linked is not None else ""
    ax.set_title(f"{name}: where the global/local sectors came from, over the launch "
                 f"({S} issue steps in {nb} bins)", fontsize=10)
    loads = l1 + l2 + dram
    c_all = np.cumsum(loads)
    with np.errstate(invalid="ignore", divide="ignore"):
        r1 = np.where(c_all > 0, 100 * np.cumsum(l1) / c_all, np.nan)
        miss = np.cumsum(l2 + dram)
        r2 = np.where(miss > 0, 100 * np.cumsum(l2) / miss, np.nan)
    ax2.plot(x, r1, color="#2a9d4b", label="L1 hit rate so far (loads)")
    ax2.plot(x, r2, color="#e0a458", label="L2 hit rate so far (L1 misses)")
    ax2.set_ylim(-5, 105)
    ax2.set_ylabel("%")
    ax2.set_xlabel("issue step of the functional engine")
    ax2.legend(fontsize=8, loc="lower right")
    if not (loads.any() or st.any()):
        ax.text(0.5, 0.5, "no global or local memory accesses", transform=ax.transAxes, ha="center")
    return fig


# --------------------------------------------------------------------------------- roofline

_FLOPS = {"fma": 2, "mad": 2, "add": 1, "sub": 1, "mul": 1}


def count_flops(report) -> dict[str, float]:
    """FP32 / FP64 / FP16 floating-point operations from the per-instruction rows (FMA = 2)."""
    from simgpu.viz._common import opcode_of

    out = {"f32": 0.0, "f64": 0.0, "f16": 0.0}
    for row in report.instructions():
        parts = opcode_of(row["text"]).split(".")
        if parts[0] not in _FLOPS:
            continue
        for t in ("f32", "f64", "f16", "f16x2", "bf16", "bf16x2"):
            if t in parts:
                k = "f32" if t == "f32" else ("f64" if t == "f64" else "f16")
                mult = 2 if t.endswith("x2") else 1
                out[k] += _FLOPS[parts[0]] * mult * float(row["threads"])
                break
    return out


def roofline(source, gpu=None, timing=None, label: str | None = None, ax=None, memory: str = "dram"):
    """The FP32 roofline of a GPU preset with the kernel placed on it.

    Peak FP32 = SMs x 128 FMA/cycle x 2 FLOPs x SM clock; memory roofs: HBM and L2 read bandwidth
    measured on the H200 (simgpu/arch/h200_measurements.json). The kernel's arithmetic intensity
    is its FP32 FLOPs (counted from the PTX instructions it executed) over its DRAM bytes (read,
    plus the bytes its stores sent to L2, which reach DRAM when L2 writes them back). Its height is
    the achieved rate when simulated time is known (`timing`: a TimingResult, or True to run the
    timing model), otherwise the roof at that intensity (drawn hollow: an upper bound).
    `source` may also be a list of (label, source) pairs to place several kernels. memory="l2"
    measures intensity against the bytes L1 exchanged with L2 instead (shows on-chip reuse, e.g. tiling).
    """
    from simgpu.viz._common import gpu_by_name

    items = source if isinstance(source, list) else [(label, source)]
    first = resolve(items[0][1])
    cfg = gpu_by_name(gpu) if gpu is not None else first.gpu
    if cfg is None:
        from simgpu.arch import get_preset

        cfg = get_preset("h200")
    clock = cfg.sm_clock_mhz * 1e6
    peak = cfg.num_sms * 128 * 2 * clock
    bw = measurement("bw_dram_read_GBps", 4553.15) * 1e9
    bw_l2 = measurement("bw_l2_read_GBps", 9668.47) * 1e9
    if ax is None:
        fig = new_figure(8, 5.2)
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    ai = np.logspace(-2, 4, 400)
    ax.loglog(ai, np.minimum(peak, bw * ai) / 1e12, color="#333333", lw=2, label="HBM roof")
    ax.loglog(ai, np.minimum(peak, bw_l2 * ai) / 1e12, color="#999999", lw=1, ls="--", label="L2 roof")
    ridge = peak / bw
    ax.axvline(ridge, color="#bbbbbb", lw=0.8, ls=":")
    ax.text(ridge * 1.1, peak / 1e12 * 0.5, f"ridge {ridge:.0f} FLOP/B", fontsize=8, color="#666666")
    ax.text(0.012, peak / 1e12 * 1.15, f"peak FP32 {peak / 1e12:.1f} TFLOP/s ({cfg.num_sms} SMs x 128 x 2 x "
            f"{cfg.sm_clock_mhz:.0f} MHz)", fontsize=8)
    ax.text(0.012, bw * 0.012 / 1e12 * 1.6, f"HBM {bw / 1e12:.2f} TB/s (measured)", fontsize=8, rotation=0)
    colors = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860"]
    notes = []
    for i, (lab, s) in enumerate(items):
        src = resolve(s)
        rep = src.report
        if rep is None:
            raise ValueError("roofline() needs a finished launch (a LaunchReport or a finished stepper)")
        fl = count_flops(rep)["f32"]
        mt = rep.metrics
        wr = max(mt.get("dram__bytes_write.sum", 0.0), 32.0 * mt.get("lts__t_sectors_srcunit_tex_op_write.sum", 0.0))
        byts = mt.get("dram__bytes_read.sum", 0.0) + wr
        if memory == "l2":
            byts = 32.0 * (mt.get("lts__t_sectors_srcunit_tex_op_read.sum", 0.0)
                           + mt.get("lts__t_sectors_srcunit_tex_op_write.sum", 0.0))
        tr = timing if len(items) == 1 else None
        if tr is True:
            tr = simulate(src)
        if fl <= 0:
            gbps = byts / (float(tr.metrics["gpu__time_duration.sum"]) * 1e-9) / 1e9 if tr is not None else None
            ax.text(0.02, 0.03 + 0.06 * i, f"{lab or rep.kernel}: no FP32 arithmetic (0 FLOP), {byts:,.0f} DRAM bytes: "
                    "pure data movement, off the chart" + (f" ({gbps:.0f} GB/s)" if gbps else ""),
                    transform=ax.transAxes, fontsize=8, color=colors[i % len(colors)])
            continue
        x = fl / byts if byts else 1e4
        t_ns = None
        if tr is not None:
            t_ns = float(tr.metrics["gpu__time_duration.sum"])
        c = colors[i % len(colors)]
        name = lab or rep.kernel
        if t_ns:
            y = fl / (t_ns * 1e-9) / 1e12
            ax.plot([x], [max(y, 1e-6)], "o", color=c, ms=9, label=f"{name}: {fl:,.0f} FLOP, {byts:,.0f} B, "
                    f"{t_ns / 1e3:.1f} us simulated")
        else:
            y = min(peak, (bw_l2 if memory == "l2" else bw) * x) / 1e12
            ax.plot([x], [y], "o", mfc="none", mec=c, mew=2, ms=10,
                    label=f"{name}: {fl:,.0f} FLOP, {byts:,.0f} B (bound at its intensity)")
            notes.append(name)
        ax.annotate(f"{x:.2f} FLOP/B", (x, y), textcoords="offset points", xytext=(6, -12), fontsize=8, color=c)
    ax.set_xlabel("arithmetic intensity (FP32 FLOP per " + ("byte between L1 and L2)" if memory == "l2"
                                                            else "DRAM byte)"))
    ax.set_ylabel("TFLOP/s")
    ax.set_xlim(1e-2, 1e4)
    ax.set_ylim(1e-3, peak / 1e12 * 3)
    ax.set_title(f"Roofline of the {cfg.name}", fontsize=10)
    ax.legend(fontsize=7.5, loc="lower right")
    ax.grid(True, which="major", color="#eeeeee")
    return fig


def simulate(source, policy: str = "gto"):
    """Run the timing model on a traced launch (None when simgpu.timing has no simulate_timing)."""
    try:
        from simgpu.timing.model import simulate_timing
    except ImportError:
        return None
    src = resolve(source)
    rep = src.report
    trace = need_trace(src, "the timing model")
    return simulate_timing(src.linked, trace, src.gpu, grid=rep.grid, block=rep.block, ctas_per_sm=rep.ctas_per_sm,
                           registers_per_thread=rep.registers_per_thread, policy=policy,
                           sass_loops=rep.sass_loops)


# --------------------------------------------------------------------------------- occupancy


def occupancy_limits(gpu, threads: int, regs: int, shared_per_cta: int) -> dict[str, int]:
    """CTAs per SM each limit allows (simgpu.runtime.launch.occupancy_limits)."""
    from simgpu.runtime.launch import occupancy_limits as limits

    return limits(gpu, threads, regs, shared_per_cta)


def occupancy(source=None, *, gpu=None, threads: int | None = None, registers: int | None = None,
              shared_mem: int | None = None):
    """Which limit binds: CTAs per SM allowed by warps, blocks, registers and shared memory, and the
    SM's 64 warp slots as filled by the resident CTAs. Pass a report (or stepper), or
    gpu=, threads=, registers=, shared_mem= (bytes per CTA, static + dynamic)."""
    from simgpu.runtime.launch import occupancy as occ_fn
    from simgpu.viz._common import gpu_by_name

    if source is not None:
        src = resolve(source)
        rep = src.report
        if rep is not None:
            cfg = gpu_by_name(gpu) or src.gpu
            threads = threads or int(np.prod(rep.block))
            registers = registers or rep.registers_per_thread
            shared_mem = shared_mem if shared_mem is not None else rep.shared_static + rep.shared_dynamic
            name = rep.kernel
        else:  # an unfinished stepper
            p = src.stepper.prepared
            cfg = gpu_by_name(gpu) or p.gpu
            threads = threads or int(np.prod(p.block))
            registers = registers or p.registers
            shared_mem = shared_mem if shared_mem is not None else p.linked.shared_static + p.shared_dynamic
            name = p.linked.name
    else:
        cfg = gpu_by_name(gpu or "h200")
        name = "launch"
    if threads is None or registers is None or shared_mem is None:
        raise ValueError("occupancy() needs a report, or threads=, registers= and shared_mem=")
    lim = cfg.limits
    by = occupancy_limits(cfg, threads, registers, shared_mem)
    occ = occ_fn(cfg, threads, registers, shared_mem)
    wpc = occ.warps_per_cta
    fig = new_figure(11, 3.8)
    ax, ax2 = fig.subplots(1, 2, width_ratios=[1.1, 1])
    names = list(by)
    vals = [by[k] for k in names]
    cols = ["#c44e52" if k == occ.limiter else "#9ecae1" for k in names]
    ax.barh(names, vals, color=cols)
    detail = {
        "warps": f"{lim.max_warps_per_sm} warps / {wpc} per CTA",
        "blocks": f"at most {lim.max_ctas_per_sm} CTAs per SM",
        "registers": f"{lim.registers_per_sm:,} regs / ({registers} x {threads} threads, by 256)",
        "shared memory": f"{lim.shared_mem_per_sm:,} B / ({shared_mem:,} + 1,024 reserved)",
    }
    for i, k in enumerate(names):
        ax.text(vals[i] + 0.3, i, f"{vals[i]}  ({detail[k]})", va="center", fontsize=8)
    ax.set_xlim(0, max(vals) * 1.9 + 1)
    ax.invert_yaxis()
    ax.set_xlabel("CTAs per SM this limit allows")
    ax.set_title(f"{name}: {threads} threads, {registers} regs/thread, {shared_mem:,} B shared per CTA\n"
                 f"-> {occ.ctas_per_sm} CTA(s)/SM, limited by {occ.limiter} (red)", fontsize=9.5)
    slots = lim.max_warps_per_sm
    used = min(slots, occ.ctas_per_sm * wpc)
    cols8 = 8
    from matplotlib.colors import to_rgba

    palette = ["#4c72b0", "#55a868", "#dd8452", "#8172b3"]
    for s in range(slots):
        r, c = divmod(s, cols8)
        color = to_rgba(palette[(s // wpc) % 4]) if s < used else to_rgba("#eeeeee")
        ax2.add_patch(_rect(c, r, 0.95, 0.95, color))
    ax2.set_xlim(0, cols8)
    ax2.set_ylim(slots // cols8, 0)
    ax2.set_aspect("equal")
    ax2.set_axis_off()
    ax2.set_title(f"the SM's {slots} warp slots: {used} used = {100 * used / slots:.0f}% theoretical occupancy\n"
                  f"(colour = CTA, {wpc} warp(s) each)", fontsize=9.5)
    return fig


# --------------------------------------------------------------------------------- timeline


def _warp_rows(trace, max_warps: int, sm: int | None):
    sm_of = trace.sm_of_warp()
    cta_of = trace.cta_of_warp()
    uids = np.arange(trace.num_warps)
    if sm is not None:
        uids = uids[sm_of == sm]
    order = np.lexsort((uids, sm_of[uids]))
    uids = uids[order][:max_warps]
    return uids, sm_of, cta_of


def timeline(source, timing=None, max_warps: int = 48, sm: int | None = None, bins: int = 400,
             policy: str = "gto"):
    """Which warp issued what, when: one row per warp (grouped by SM), coloured by instruction class.

    With timing (a TimingResult, or True to run simgpu.timing on the trace) the x axis is cycles and
    the gaps between a warp's issues are shaded by the stall reason that dominates its next
    instruction (per-pc totals from the timing model). Without it the x axis is the functional
    engine's issue steps: the order of work, not its duration (a clearly labelled fallback).
    """
    src = resolve(source)
    trace = need_trace(src, "timeline()")
    lk = src.linked
    cls = classes_of(lk)
    if timing is True:
        timing = simulate(src, policy=policy)
    uids, sm_of, cta_of = _warp_rows(trace, max_warps, sm)
    row_of = {int(u): i for i, u in enumerate(uids)}
    nrow = len(uids)
    from matplotlib.colors import to_rgba

    white = np.array(to_rgba("#ffffff"))
    fig = new_figure(12, 1.6 + 0.16 * max(nrow, 8) + (1.8 if timing is not None else 0))
    if timing is not None:
        gs = fig.add_gridspec(2, 2, width_ratios=[5, 1.25], height_ratios=[max(3, 0.16 * nrow), 1.8])
        sax = fig.add_subplot(gs[1, 0])
    else:
        gs = fig.add_gridspec(1, 2, width_ratios=[5, 1.25])
        sax = None
    ax = fig.add_subplot(gs[0, 0])
    lax = fig.add_subplot(gs[0, 1])
    lax.set_axis_off()
    img = np.tile(white, (max(nrow, 1), bins, 1))
    class_rgba = np.array([to_rgba(c) for c in CLASS_COLORS])
    warps_s, pcs_s, steps_s = trace.warp_streams()
    used_classes = set()
    used_reasons = set()
    reason_names = []
    stall_panel = None
    if timing is not None and getattr(timing, "issue_cycle", None) is not None:
        from simgpu.timing.config import default_config
        from simgpu.timing.isa import K_FREE, build_static

        st = build_static(lk, default_config())
        keep = st.kind[pcs_s] != K_FREE
        w_k, p_k = warps_s[keep], pcs_s[keep]
        cyc = np.asarray(timing.issue_cycle)
        if len(cyc) != len(w_k):
            timing = None
        else:
            span = max(1, int(cyc.max()) + 1)
            reason_names = ["waiting"]
            wait_rgba = np.array(to_rgba("#dcdcdc"))
            ws_ = timing.timeline.get("warp_start") if hasattr(timing, "timeline") else None
            for u in uids:
                r = row_of[int(u)]
                sel = np.flatnonzero(w_k == u)
                if not len(sel):
                    continue
                b = np.minimum(cyc[sel] * bins // span, bins - 1)
                lo = int(ws_[u]) * bins // span if ws_ is not None else int(b[0])
                img[r, max(0, lo):int(b[-1]) + 1] = wait_rgba  # resident: waiting unless it issues
                img[r, b] = class_rgba[cls[p_k[sel]]]
                used_classes.update(cls[p_k[sel]].tolist())
            used_reasons.add(0)
            ax.set_xlabel(f"cycles (timing model, {getattr(timing, 'extra', {}).get('policy', policy)} scheduler; "
                          f"{span:,} cycles in {bins} columns)")
            xmax = span
            stall_panel = {k: v for k, v in timing.stalls.items() if v > 0}
    if timing is None or not reason_names:
        S = max(1, trace.n_steps)
        if S < bins:
            bins = S
            img = img[:, :bins]
        for u in uids:
            r = row_of[int(u)]
            sel = warps_s == u
            b = np.minimum(steps_s[sel] * bins // S, bins - 1)
            img[r, b] = class_rgba[cls[pcs_s[sel]]]
            used_classes.update(cls[pcs_s[sel]].tolist())
        ax.set_xlabel(f"issue step of the functional engine ({S:,} steps in {bins} columns) - order of work, "
                      "not cycles: pass timing=True for the timing model")
        xmax = S
    ax.imshow(img, aspect="auto", interpolation="nearest", extent=(0, xmax, nrow - 0.5, -0.5))
    labels = [f"SM{sm_of[u]} CTA{cta_of[u]} w{u}" for u in uids]
    step = max(1, nrow // 24)
    ax.set_yticks(range(0, nrow, step))
    ax.set_yticklabels(labels[::step], fontsize=7)
    prev_sm = None
    for i, u in enumerate(uids):
        if prev_sm is not None and sm_of[u] != prev_sm:
            ax.axhline(i - 0.5, color="#333333", lw=0.8)
        prev_sm = sm_of[u]
    more = trace.num_warps - nrow if sm is None else 0
    ax.set_title(f"{lk.name}: warp timeline ({nrow} warps" + (f", {more} more not shown" if more > 0 else "")
                 + ")", fontsize=10)
    from matplotlib.patches import Patch

    handles = [Patch(color=CLASS_COLORS[i], label=CLASSES[i]) for i in sorted(used_classes)]
    if used_reasons:
        handles.append(Patch(color="#dcdcdc", label="resident, not issuing"))
    lax.legend(handles=handles, loc="upper left", fontsize=7.5, frameon=False, title="issued", title_fontsize=8)
    if sax is not None:
        if stall_panel:
            names = sorted(stall_panel, key=lambda k: -stall_panel[k])
            tot = sum(stall_panel.values())
            rc = _reason_colors(names)
            sax.barh(names[::-1], [100 * stall_panel[k] / tot for k in names[::-1]], color=rc[::-1],
                     edgecolor="#888888", lw=0.5)
            sax.set_xlabel("% of warp-cycles (all warps): what the warps were doing, from the timing model "
                           "(ncu's warp states)")
            sax.tick_params(axis="y", labelsize=7.5)
        else:
            sax.set_axis_off()
    return fig


def _reason_colors(names):
    from matplotlib.colors import to_rgba

    base = {"long_scoreboard": "#f4b6b6", "short_scoreboard": "#f7d6a0", "wait": "#d9d9d9", "barrier": "#c9b3e6",
            "not_selected": "#cfe3f3", "math_pipe_throttle": "#b8e0c2", "lg_throttle": "#f2c6e0",
            "mio_throttle": "#e8e0a8", "branch_resolving": "#d6cbb8", "drain": "#bdbdbd",
            "no_instruction": "#e0e0e0", "dispatch_stall": "#c0c0c0", "membar": "#8c564b", "selected": "#ffffff"}
    return np.array([to_rgba(base.get(n, "#dddddd")) for n in names])


# --------------------------------------------------------------------------------- scheduler timeline


def scheduler_timeline(view, sm: int | None = None, cycles: tuple[int, int] | None = None, mark: int | None = None,
                       max_warps: int = 64):
    """Each warp of one SM, cycle by cycle, coloured by its state (ncu's names), grouped by scheduler.

    view: a CycleView (report.timing.cycle_view(), stepper.cycles()), or a LaunchReport / TimingResult
    to take one from. One row per warp resident on `sm` (default: the SM of the launch's first CTA,
    view.first_sm) during cycles=(a, b) (default: the first 600
    cycles of that SM), in blocks of the SM's sub-partitions, each one scheduler issuing at most one
    warp per cycle (dark green: selected). mark: a cycle to draw a line at (default: the view's cursor,
    once moved, when it lies in the range). `simgpu.viz.pictures.scheduler_timeline`.
    """
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Patch

    from simgpu.timing.cycles import STATES, state_color

    if not hasattr(view, "states"):
        timing = getattr(view, "timing", view)
        if timing is None or not hasattr(timing, "cycle_view"):
            raise ValueError("scheduler_timeline() needs a CycleView, a TimingResult or a LaunchReport with timing")
        view = timing.cycle_view()
    rec = view.record
    if sm is None:
        sm = view.first_sm
    if cycles is None:
        on = rec.warp_sm == sm
        a = int(rec.warp_start[on].min()) if on.any() else 0
        cycles = (a, min(a + 600, max(view.cycles, a + 1)))
    a, b = int(cycles[0]), int(cycles[1])
    warps, codes = view.states(sm=sm, cycles=(a, b))
    warps, codes = warps[:max_warps], codes[:max_warps]
    nrow = len(warps)
    palette = np.array([to_rgba(state_color(n)) for n in STATES] + [to_rgba("#ffffff")])
    img = palette[np.where(codes < 0, len(STATES), codes)] if nrow else np.ones((1, b - a, 4))
    fig = new_figure(12, 1.4 + 0.17 * max(nrow, 6))
    gs = fig.add_gridspec(1, 2, width_ratios=[5, 1.1])
    ax = fig.add_subplot(gs[0, 0])
    lax = fig.add_subplot(gs[0, 1])
    lax.set_axis_off()
    ax.imshow(img, aspect="auto", interpolation="nearest", extent=(a, b, max(nrow, 1) - 0.5, -0.5))
    sub = rec.warp_slot[warps] % rec.n_sub if nrow else np.zeros(0, np.int64)
    ax.set_yticks(range(nrow))
    ax.set_yticklabels([f"SP{int(p)} w{int(w)}" for p, w in zip(sub, warps)], fontsize=7)
    for i in range(1, nrow):
        if sub[i] != sub[i - 1]:
            ax.axhline(i - 0.5, color="#333333", lw=0.9)
    if mark is None and 0 < view.cycle and a <= view.cycle < b:
        mark = view.cycle
    if mark is not None:
        ax.axvline(mark + 0.5, color="#d62728", lw=1.0)
    ax.set_xlabel(f"cycle (timing model, {view.policy} scheduler); each scheduler issues at most one warp a cycle")
    name = view.linked.name if view.linked is not None else ""
    ax.set_title(f"{name}: SM{sm}, cycles {a:,}-{b - 1:,}, {nrow} warps by sub-partition", fontsize=10)
    used = np.unique(codes[codes >= 0]) if nrow else []
    lax.legend(handles=[Patch(color=state_color(STATES[int(c)]), label=STATES[int(c)]) for c in used]
               + [Patch(facecolor="#ffffff", edgecolor="#999999", label="not resident")],
               loc="upper left", fontsize=7.5, frameon=False, title="warp state", title_fontsize=8)
    return fig
