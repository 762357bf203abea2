"""The `simgpu` command: list and run built-in programs, print PTX or SASS, run a kernel from a .cu
file, validate against real-GPU measurements, and compare with a real GPU."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import TypeVar

import click
import numpy as np

import simgpu as sg
from simgpu.arch import PRESETS

T = TypeVar("T")
_DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i32": np.int32, "u32": np.uint32,
           "i64": np.int64, "u64": np.uint64, "i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16}


def _parse_size(items: tuple[str, ...]) -> dict[str, int]:
    size = {}
    for item in items:
        if "=" not in item:
            raise click.BadParameter(f"size entries look like name=value (e.g. M=256), got {item!r}",
                                     param_hint="--size")
        k, v = item.split("=", 1)
        try:
            size[k.strip()] = int(v)
        except ValueError:
            raise click.BadParameter(f"size {k} must be an integer, got {v!r}", param_hint="--size") from None
    return size


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(sg.__version__, prog_name="simgpu")
def main() -> None:
    """simgpu: run real CUDA kernels on a simulated NVIDIA GPU (H200 by default)."""


@main.command("list")
def list_programs() -> None:
    """List the built-in programs."""
    from simgpu.programs import PROGRAMS

    width = max(len(n) for n in PROGRAMS)
    for name, prog in PROGRAMS.items():
        size = ", ".join(f"{k}={v}" for k, v in prog.default_size.items())
        click.echo(f"{name:<{width}}  {prog.description}  [{size}]")


@main.command("run")
@click.argument("program")
@click.option("--arch", "--gpu", "arch", default="h200", show_default=True, type=click.Choice(sorted(PRESETS)),
              help="GPU preset to simulate.")
@click.option("--size", "sizes", multiple=True, metavar="NAME=VALUE", help="Override a problem size (repeatable).")
@click.option("--large", is_flag=True, help="Use the program's large size (slower).")
@click.option("--seed", default=0, show_default=True, help="Seed of the random inputs.")
@click.option("--per-instruction", is_flag=True, help="Also print the per-PTX-instruction breakdown.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), help="Write the metrics as JSON.")
def run_program(program: str, arch: str, sizes: tuple[str, ...], large: bool, seed: int, per_instruction: bool,
                json_path: str | None) -> None:
    """Run a built-in PROGRAM on the simulated GPU, verify it against NumPy and print its report."""
    from simgpu.programs import get_program

    try:
        prog = get_program(program)
    except KeyError as exc:
        raise click.ClickException(str(exc.args[0]) if exc.args else str(exc)) from None
    size = dict(prog.large_size) if large else {}
    size.update(_parse_size(sizes))
    result = prog.run(size=size or None, arch=arch, seed=seed)
    for _kernel, report in result.launches:
        click.echo(str(report))
        if per_instruction:
            _print_instructions(report)
        click.echo()
    try:
        result.verify()
        click.echo(f"{program}: output matches the NumPy reference (size {result.size})")
        ok = True
    except AssertionError as exc:
        click.echo(f"{program}: output DIFFERS from the NumPy reference: {exc}", err=True)
        ok = False
    if json_path:
        with open(json_path, "w") as f:
            json.dump({"program": program, "size": result.size, "arch": arch, "verified": ok,
                       "launches": [{"kernel": k, "metrics": r.metrics} for k, r in result.launches]}, f, indent=1)
    if not ok:
        sys.exit(1)


def _print_instructions(report) -> None:
    click.echo("  per PTX instruction:")
    for row in report.instructions():
        extra = ""
        if "sectors" in row:
            extra = f"  requests {row.get('requests', 0):,.0f} sectors {row['sectors']:,.0f} " \
                    f"L1 hit {row.get('l1_hits', 0):,.0f} miss {row.get('l1_misses', 0):,.0f}"
        elif "wavefronts" in row:
            extra = f"  wavefronts {row['wavefronts']:,.0f} conflicts {row.get('bank_conflicts', 0):,.0f}"
        click.echo(f"    line {row['line']:>4} {row['text'][:50]:<50} warps {row['warps']:>9,}{extra}")


def _compiled(source: str, compile_code: Callable[[str], T]) -> T:
    """compile_code(the text of SOURCE), with NVRTC's errors as a command-line error."""
    with open(source) as f:
        code = f.read()
    try:
        return compile_code(code)
    except sg.CompileError as exc:
        raise click.ClickException(str(exc)) from None


@main.command("ptx")
@click.argument("source", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the PTX here instead of stdout.")
@click.option("--option", "options", multiple=True, help="An NVRTC option, e.g. -DTILE=32 (repeatable).")
@click.option("--arch", "--gpu", "arch", default="h200", type=click.Choice(sorted(PRESETS)))
def print_ptx(source: str, output: str | None, options: tuple[str, ...], arch: str) -> None:
    """Compile a CUDA C SOURCE file with NVRTC and print its PTX."""
    from simgpu.frontend.nvrtc import compile_to_ptx

    ptx = _compiled(source, lambda code: compile_to_ptx(code, options, arch=sg.get_preset(arch).nvrtc_arch,
                                                        name=source))
    if output:
        with open(output, "w") as f:
            f.write(ptx)
    else:
        click.echo(ptx)


@main.command("sass")
@click.argument("source", type=click.Path(exists=True, dir_okay=False))
@click.option("--kernel", "kernels", multiple=True, help="Only this kernel (repeatable; default: all).")
@click.option("--option", "options", multiple=True, help="An NVRTC option, e.g. -DTILE=32 (repeatable).")
@click.option("--arch", "--gpu", "arch", default="h200", type=click.Choice(sorted(PRESETS)))
def print_sass(source: str, kernels: tuple[str, ...], options: tuple[str, ...], arch: str) -> None:
    """Compile a CUDA C SOURCE file with NVRTC to the real architecture's machine code and print
    each kernel's SASS with its scheduling control bits (stall, yield, scoreboards set and waited
    on), its registers and the loops with global loads the timing model reads."""
    from simgpu.frontend.cubin import read_cubin
    from simgpu.frontend.nvrtc import compile_to_cubin
    from simgpu.frontend.sass import find_nvdisasm, kernel_loops, nvdisasm_functions, run_nvdisasm
    from simgpu.frontend.sass_listing import format_listing, sass_listing

    tool = find_nvdisasm()
    if tool is None:
        raise click.ClickException("nvdisasm not found: install the nvidia-cuda-nvdisasm wheel (a simgpu "
                                   "dependency), put nvdisasm on PATH or point SIMGPU_NVDISASM at it")
    cubin = _compiled(source, lambda code: compile_to_cubin(code, options, arch=sg.get_preset(arch).sass_arch,
                                                            name=source))
    text = run_nvdisasm(cubin, tool, "-c", "-hex")
    if text is None:
        raise click.ClickException(f"nvdisasm ({tool}) could not disassemble the cubin of {source}")
    listing, bodies, codes = sass_listing(text), nvdisasm_functions(text), read_cubin(cubin)
    unknown = [k for k in kernels if k not in listing]
    if unknown:
        raise click.ClickException(f"{source} has no kernel {', '.join(map(repr, unknown))}; "
                                   f"its kernels: {', '.join(sorted(listing))}")
    for name in kernels or sorted(listing):
        mc = codes.get(name)
        loops = kernel_loops(bodies.get(name, ""))
        click.echo(f"== {name}: {mc.registers if mc else '?'} registers, {len(listing[name])} instructions")
        for i, loop in enumerate(loops):
            click.echo(f"   innermost loop {i} with global loads: {loop.loads} loads, "
                       f"{loop.loaded_ahead} registers of loaded values before the first use")
        click.echo(format_listing(listing[name]))
        click.echo()


_ARG = re.compile(r"^(?:(?P<fill>zeros|ones|rand|arange):)?(?P<dt>[a-z]+\d+)(?:\[(?P<n>\d+)\]|:(?P<val>[-+.\deE]+))$")


def _make_arg(text: str, rng: np.random.Generator):
    m = _ARG.match(text.strip())
    if not m or m.group("dt") not in _DTYPES:
        raise click.BadParameter(
            f"{text!r}: use DTYPE[N] for a random device array (e.g. f32[1024]), zeros:f32[N], ones:f32[N], "
            f"arange:i32[N], or DTYPE:VALUE for a scalar (e.g. i32:1024); dtypes {', '.join(_DTYPES)}",
            param_hint="--arg")
    dt = _DTYPES[m.group("dt")]
    if m.group("val") is not None:
        return np.array(m.group("val"), dtype=np.float64).astype(dt)[()]
    n = int(m.group("n"))
    fill = m.group("fill") or "rand"
    if fill == "zeros":
        host = np.zeros(n, dt)
    elif fill == "ones":
        host = np.ones(n, dt)
    elif fill == "arange":
        host = np.arange(n).astype(dt)
    elif np.issubdtype(dt, np.floating):
        host = rng.random(n).astype(dt)
    else:
        host = rng.integers(0, 100, n).astype(dt)
    return sg.asarray(host)


def _dims(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.replace("x", ",").split(",") if x)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a launch shape like 256 or 32,8 or 32x8") from None


@main.command("kernel")
@click.argument("source", type=click.Path(exists=True, dir_okay=False))
@click.argument("name")
@click.option("--grid", required=True, help="Grid shape, e.g. 64 or 32,32.")
@click.option("--block", required=True, help="Block shape, e.g. 256 or 32,8.")
@click.option("--arg", "args", multiple=True, help="A kernel argument in order: f32[N] (random array), "
              "zeros:f32[N], ones:f32[N], arange:i32[N], or i32:1024 (scalar).")
@click.option("--shared-mem", default=0, show_default=True, help="Dynamic shared memory in bytes.")
@click.option("--option", "options", multiple=True, help="An NVRTC option (repeatable).")
@click.option("--arch", "--gpu", "arch", default="h200", type=click.Choice(sorted(PRESETS)))
@click.option("--seed", default=0, show_default=True)
@click.option("--per-instruction", is_flag=True, help="Also print the per-PTX-instruction breakdown.")
def run_kernel(source: str, name: str, grid: str, block: str, args: tuple[str, ...], shared_mem: int,
               options: tuple[str, ...], arch: str, seed: int, per_instruction: bool) -> None:
    """Run kernel NAME from a .cu (or .ptx) SOURCE file with generated inputs and print its report."""
    rng = np.random.default_rng(seed)
    with sg.use_gpu(arch):
        try:
            module = sg.RawModule(path=source, options=options)
            kernel = module.get_function(name)
            kargs = tuple(_make_arg(a, rng) for a in args)
            report = kernel(_dims(grid), _dims(block), kargs, shared_mem=shared_mem)
        except sg.SimGPUError as exc:
            raise click.ClickException(str(exc)) from None
    click.echo(str(report))
    if per_instruction:
        _print_instructions(report)


@main.command("validate")
@click.argument("specs", type=click.Path(exists=True, dir_okay=False))
@click.argument("measurements", type=click.Path(exists=True, dir_okay=False), required=False)
@click.option("--kernels", type=click.Path(exists=True, dir_okay=False),
              help="The .cu file of the kernels (default: kernels.cu beside SPECS).")
@click.option("--only", multiple=True, help="Run only the named specs (repeatable).")
@click.option("--arch", "--gpu", "arch", default="h200", type=click.Choice(sorted(PRESETS)))
@click.option("--strict", is_flag=True, help="Exit non-zero when a metric check fails (outputs always count).")
def validate(specs: str, measurements: str | None, kernels: str | None, only: tuple[str, ...], arch: str,
             strict: bool) -> None:
    """Run the kernels of a suite (SPECS.py) and compare with MEASUREMENTS.json from a real GPU."""
    from simgpu.validate import format_results, run_suite

    results = run_suite(specs, measurements, kernels, only=list(only) or None, gpu=arch,
                        progress=lambda n: click.echo(f"running {n} ...", err=True))
    click.echo(format_results(results))
    bad_outputs = [r.name for r in results if not r.outputs_ok]
    bad_checks = [r.name for r in results for row in r.rows if row.passed is False]
    if bad_outputs or (strict and bad_checks):
        sys.exit(1)


def _register_optional() -> None:
    try:
        from simgpu.crosscheck.command import compare
    except Exception:  # pragma: no cover - the cross-check package is optional at import time
        return
    main.add_command(compare)


_register_optional()


if __name__ == "__main__":  # pragma: no cover
    main()
