"""``simgpu compare``: the crosscheck on the command line (a click command the CLI registers).

    simgpu compare gemm_tiled                                   # a built-in program, default size
    simgpu compare all                                          # every built-in program
    simgpu compare --suite calibration/specs.py --json out.json
    simgpu compare --kernel kernels.cu:vector_add --grid 16384 --block 256 \\
                   --arg rand:f32:4194304 --arg rand:f32:4194304 --arg zeros:f32:4194304 --arg i32:4194304

Exit status 1 when any output differs (simulated, real GPU and NumPy reference), 0 otherwise.
"""

from __future__ import annotations

import click
import numpy as np

_DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i8": np.int8, "i16": np.int16,
           "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32,
           "u64": np.uint64}


def parse_arg(text: str, rng: np.random.Generator):
    """One ``--arg``: ``i32:5`` / ``f32:1.5`` (scalars), ``rand:f32:N``, ``zeros:f32:N``, ``ones:f32:N``,
    ``arange:i32:N`` (arrays), ``file.npy`` (an array from disk)."""
    if text.endswith(".npy"):
        return np.load(text)
    parts = text.split(":")
    if len(parts) == 2 and parts[0] in _DTYPES:
        return _DTYPES[parts[0]](float(parts[1]) if parts[0].startswith("f") else int(parts[1], 0))
    if len(parts) == 3 and parts[1] in _DTYPES:
        kind, dt, n = parts[0], _DTYPES[parts[1]], int(parts[2], 0)
        if kind == "rand":
            if np.issubdtype(dt, np.floating):
                return rng.random(n).astype(dt)
            return rng.integers(0, 100, n).astype(dt)
        if kind == "zeros":
            return np.zeros(n, dt)
        if kind == "ones":
            return np.ones(n, dt)
        if kind == "arange":
            return np.arange(n).astype(dt)
    raise click.BadParameter(f"{text!r}: use i32:5, f32:1.5, rand:f32:N, zeros:f32:N, ones:f32:N, "
                             "arange:i32:N or a .npy file", param_hint="--arg")


def _dims(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    return tuple(int(x) for x in text.replace("x", ",").split(",") if x.strip())


def _size(items: tuple[str, ...]) -> dict[str, int] | None:
    out = {}
    for it in items:
        k, _, v = it.partition("=")
        if not v:
            raise click.BadParameter(f"{it!r}: use KEY=VALUE", param_hint="--size")
        out[k.strip()] = int(v, 0)
    return out or None


@click.command("compare", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("program", required=False)
@click.option("--suite", type=click.Path(exists=True, dir_okay=False), help="a specs.py suite file")
@click.option("--spec", "specs", multiple=True, help="only these specs of the suite (repeatable)")
@click.option("--kernel", "kernel_ref", metavar="FILE.cu:NAME", help="a kernel from a .cu file")
@click.option("--grid", help="grid, e.g. 128 or 32,32")
@click.option("--block", help="block, e.g. 256 or 32,8")
@click.option("--arg", "kargs", multiple=True, help="kernel argument (repeatable, in order): i32:N, f32:X, "
              "rand:f32:N, zeros:f32:N, ones:f32:N, arange:i32:N, file.npy")
@click.option("--output", "outputs", multiple=True, type=int, help="index of an output argument (repeatable)")
@click.option("--shared-mem", type=int, default=0, show_default=True, help="dynamic shared memory (bytes)")
@click.option("--size", "sizes", multiple=True, metavar="KEY=VALUE", help="program size parameter (repeatable)")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--gpu", "preset", default="h200", show_default=True, help="simulated GPU preset")
@click.option("--sim-only", is_flag=True, help="do not run on a real GPU even if one is present")
@click.option("--no-ncu", is_flag=True, help="do not profile with ncu")
@click.option("--metrics", help="comma-separated ncu metrics (default: all simgpu reports)")
@click.option("--runs", type=int, default=20, show_default=True, help="CUDA-event timed launches")
@click.option("--warmup", type=int, default=3, show_default=True, help="untimed launches first")
@click.option("--ncu-time-runs", type=int, default=7, show_default=True,
              help="launches per kernel for ncu's gpu__time_duration median (0: one sample)")
@click.option("--recorded", type=click.Path(exists=True, dir_okay=False),
              help="take the real side from a crosscheck JSON recorded on a GPU host (no GPU needed)")
@click.option("--ncu-timeout", type=float, default=540, show_default=True, help="seconds per ncu run")
@click.option("--ncu-log", "ncu_log_dir", type=click.Path(file_okay=False),
              help="keep ncu's raw CSV output here (ncu_1.csv, ncu_2.csv, ... and ncu_stderr.txt)")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), help="write the report as JSON")
@click.option("--markdown", "markdown_path", type=click.Path(dir_okay=False), help="write a Markdown report")
@click.option("--all-metrics", is_flag=True, help="show every metric row, also those only one side has")
@click.option("-q", "--quiet", is_flag=True, help="print only the summary")
def compare(program, suite, specs, kernel_ref, grid, block, kargs, outputs, shared_mem, sizes, seed, preset,
            sim_only, no_ncu, metrics, runs, warmup, ncu_time_runs, ncu_timeout, recorded, ncu_log_dir, json_path,
            markdown_path,
            all_metrics, quiet):
    """Run PROGRAM (a built-in program, or "all"), a --suite or a --kernel on the simulator and, on a
    GPU host, under CuPy and ncu; compare outputs, counters and times side by side."""
    from simgpu.crosscheck.api import crosscheck

    kw = {}
    if kernel_ref:
        path, sep, name = kernel_ref.rpartition(":")
        if not sep or not path:
            raise click.BadParameter("use FILE.cu:NAME", param_hint="--kernel")
        if grid is None or block is None:
            raise click.UsageError("--kernel needs --grid and --block")
        rng = np.random.default_rng(seed)
        kw.update(source=open(path).read(), kernel=name, grid=_dims(grid), block=_dims(block),
                  args=[parse_arg(a, rng) for a in kargs], outputs=list(outputs) or None, shared_mem=shared_mem)
    target = None
    programs = None
    if program == "all":
        programs = "all"
    elif program:
        target = program
    if not (program or suite or kernel_ref):
        raise click.UsageError("give PROGRAM, --suite FILE or --kernel FILE.cu:NAME")
    lines: list[str] = []

    def echo(text: str) -> None:
        if quiet:
            lines.append(text)
        else:
            click.echo(text)

    ncu_log = _ncu_logger(ncu_log_dir) if ncu_log_dir else None
    try:
        report = crosscheck(target, programs=programs, suite=suite, specs=list(specs) or None, size=_size(sizes),
                            seed=seed, preset=preset, real=not sim_only, ncu=not no_ncu,
                            metrics=metrics.split(",") if metrics else None, runs=runs, warmup=warmup,
                            ncu_time_runs=ncu_time_runs, ncu_timeout=ncu_timeout, json_path=json_path,
                            markdown_path=markdown_path, ncu_log=ncu_log, recorded=recorded,
                            echo=echo, all_metrics=all_metrics, **kw)
    except (KeyError, ValueError, FileNotFoundError, TypeError) as exc:
        raise click.ClickException(str(exc).strip("'\"")) from exc
    if quiet:
        if report.gpu_status:
            click.echo(report.gpu_status)
        click.echo(report.summary_table())
    raise SystemExit(report.exit_code)


def _ncu_logger(folder: str):
    """A ``crosscheck(ncu_log=...)`` callback that keeps every ncu run's output in ``folder``."""
    from pathlib import Path

    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    count = [0]

    def log(stdout: str, stderr: str, cmd: list[str]) -> None:
        count[0] += 1
        (root / f"ncu_{count[0]}.csv").write_text(stdout)
        with open(root / "ncu_stderr.txt", "a") as f:
            f.write(f"### run {count[0]}: {' '.join(cmd)}\n{stderr}\n")

    return log


def cli_compare(argv: list[str] | None = None) -> int:
    """Run ``simgpu compare`` with ``argv``; returns the exit status instead of exiting."""
    try:
        compare.main(args=argv, prog_name="simgpu compare", standalone_mode=False)
    except SystemExit as exc:
        return int(exc.code or 0)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    return 0


__all__ = ["cli_compare", "compare", "parse_arg"]

if __name__ == "__main__":  # python -m simgpu.crosscheck.command ...
    compare(prog_name="simgpu compare")
