"""CUDA C -> PTX with NVIDIA's NVRTC, loaded with ctypes from the `nvidia-cuda-nvrtc` wheel.

NVRTC needs no GPU and no driver. Compiled PTX is cached on disk, keyed by the source, the
options and the NVRTC version, so a second launch of the same kernel costs nothing.

NVRTC itself can crash on valid code (NVRTC 13.5 dies with SIGSEGV on a cluster kernel whose
loop reads through `cond ? cl.map_shared_rank(p, r) : p`: benchmarks/microbench/dsmem), which
would take the user's Python process with it, without a word. So where the platform can fork, an
uncached compile runs in a forked child (a few milliseconds against NVRTC's 0.1-1 s), and a crash
there is a CompileError naming the signal, the source and the NVRTC version.
"""

from __future__ import annotations

import ctypes
import faulthandler
import glob
import hashlib
import json
import os
import pickle
import signal
import sys
import warnings
from functools import lru_cache
from pathlib import Path

from simgpu.errors import CompileError

_SEARCH_ENV = "SIMGPU_NVRTC"  # a path to libnvrtc.so, to override the search


def _candidate_libraries() -> list[str]:
    found: list[str] = []
    if os.environ.get(_SEARCH_ENV):
        found.append(os.environ[_SEARCH_ENV])
    for base in sys.path:
        if not base or not os.path.isdir(os.path.join(base, "nvidia")):
            continue
        for pattern in ("nvidia/cu*/lib/libnvrtc.so*", "nvidia/cuda_nvrtc/lib/libnvrtc.so*",
                        "nvidia/cu*/bin/nvrtc64_*.dll", "nvidia/cuda_nvrtc/bin/nvrtc64_*.dll"):
            found += sorted(glob.glob(os.path.join(base, pattern)), reverse=True)
    found += ["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"]
    return [p for p in found if "builtins" not in os.path.basename(p)]


@lru_cache(maxsize=1)
def _library() -> ctypes.CDLL:
    errors = []
    for path in _candidate_libraries():
        try:
            lib = ctypes.CDLL(path)
        except OSError as exc:
            errors.append(f"{path}: {exc}")
            continue
        lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        return lib
    raise CompileError(
        "NVRTC was not found: install the `nvidia-cuda-nvrtc` wheel (pip install nvidia-cuda-nvrtc) "
        f"or set {_SEARCH_ENV} to the path of libnvrtc.so, or pass PTX instead of CUDA C",
        "\n".join(errors[-3:]),
    )


@lru_cache(maxsize=1)
def nvrtc_version() -> tuple[int, int]:
    """The (major, minor) version of the NVRTC library in use."""
    lib = _library()
    major, minor = ctypes.c_int(), ctypes.c_int()
    _check(lib, lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)), "nvrtcVersion")
    return major.value, minor.value


def _check(lib: ctypes.CDLL, status: int, what: str) -> None:
    if status != 0:
        msg = lib.nvrtcGetErrorString(status).decode()
        raise CompileError(f"{what} failed: {msg}")


def cache_dir() -> Path:
    """Where compiled PTX is kept (SIMGPU_CACHE_DIR, else ~/.cache/simgpu/ptx)."""
    root = os.environ.get("SIMGPU_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "simgpu"
    )
    return Path(root) / "ptx"


_INCLUDE_ENV = "SIMGPU_CUDA_INCLUDE"  # a directory with the CUDA headers, to override the search


# simgpu's C and C++ standard headers for device code (searched last)
STD_INCLUDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


@lru_cache(maxsize=1)
def default_include_dirs() -> tuple[str, ...]:
    """Where `#include <cuda_fp16.h>` and friends are found: NVRTC has no search path of its own
    and its wheel ships no CUDA headers. In order: $SIMGPU_CUDA_INCLUDE; a CUDA toolkit
    ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda); the include directory of NVIDIA's runtime wheel;
    numba's copy of cuda_fp16.h (numba is a dependency, so half precision always compiles); last,
    simgpu's own C and C++ standard headers for device code (<cstdint>, <cfloat>, <climits>,
    <cmath>, <cstdio>, <cassert>, ...: frontend/include/README.md), which nvcc would take from the
    host compiler."""
    dirs: list[str] = []
    if os.environ.get(_INCLUDE_ENV):
        dirs.append(os.environ[_INCLUDE_ENV])
    for env in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(env):
            dirs.append(os.path.join(os.environ[env], "include"))
    dirs.append("/usr/local/cuda/include")
    for base in sys.path:
        if base and os.path.isdir(os.path.join(base, "nvidia")):
            dirs += sorted(glob.glob(os.path.join(base, "nvidia", "cu*", "include")))
            dirs += sorted(glob.glob(os.path.join(base, "nvidia", "cuda_runtime", "include")))
    try:
        import numba

        dirs.append(os.path.join(os.path.dirname(numba.__file__), "cuda"))
    except ImportError:
        pass
    found: list[str] = []
    for d in dirs:
        if os.path.isfile(os.path.join(d, "cuda_fp16.h")) and d not in found:
            found.append(d)
            # CUDA 13 keeps libcu++ (<cuda/std/...>, which cooperative_groups.h includes) in
            # include/cccl, and nvcc adds it by itself
            cccl = os.path.join(d, "cccl")
            if os.path.isdir(os.path.join(cccl, "cuda")):
                found.append(cccl)
    found.append(STD_INCLUDE_DIR)
    return tuple(found)


# included before every source, as nvcc's implicit cuda_runtime.h brings INFINITY, INT_MIN, FLT_MAX
# and int32_t without an #include (frontend/include/simgpu_prelude.h)
PRELUDE = "simgpu_prelude.h"


def nvcc_like_options() -> tuple[str, ...]:
    """-I for the CUDA headers found and simgpu's standard headers, the prelude, and __int128: what
    NVRTC needs to compile a kernel written for nvcc (also given to CuPy by the crosscheck)."""
    # nvcc takes __int128 in device code on Linux; NVRTC only with --device-int128 (since 11.5)
    return tuple(f"-I{d}" for d in default_include_dirs()) + (f"--pre-include={PRELUDE}", "--device-int128")


def _with_includes(opts: tuple[str, ...]) -> tuple[str, ...]:
    """The user's options, then nvcc_like_options (the user's -I are searched first)."""
    return opts + nvcc_like_options()


def _has_arch_option(options: tuple[str, ...]) -> bool:
    return any(o.startswith(("-arch", "--gpu-architecture")) for o in options)


def compile_to_ptx(
    source: str,
    options: tuple[str, ...] | list[str] = (),
    arch: str = "compute_90",
    name: str = "kernel.cu",
    use_cache: bool = True,
) -> str:
    """Compile CUDA C `source` to PTX text for `arch`; raise CompileError with NVRTC's log."""
    return compile_to_ptx_named(source, options, arch, name, (), use_cache)[0]


def compile_to_ptx_named(
    source: str,
    options: tuple[str, ...] | list[str] = (),
    arch: str = "compute_90",
    name: str = "kernel.cu",
    name_expressions: tuple[str, ...] | list[str] = (),
    use_cache: bool = True,
) -> tuple[str, dict[str, str]]:
    """As compile_to_ptx, with NVRTC name expressions (CuPy's RawModule(name_expressions=...)): each
    expression, e.g. "scale<float, 4>" or "&kernel<2>", is instantiated and its mangled (lowered)
    name returned in the dict, so templated kernels can be found by the name the user wrote."""
    opts = tuple(str(o) for o in options)
    if not _has_arch_option(opts):
        opts = (f"--gpu-architecture={arch}",) + opts
    data, lowered = _cached(source, _with_includes(opts), name, "ptx", use_cache, tuple(name_expressions))
    return data.decode(), lowered


def compile_to_cubin(
    source: str,
    options: tuple[str, ...] | list[str] = (),
    arch: str = "sm_90",
    name: str = "kernel.cu",
    use_cache: bool = True,
    name_expressions: tuple[str, ...] | list[str] = (),
) -> bytes:
    """Compile CUDA C `source` to a cubin (ELF with SASS) for the real architecture `arch`, as
    ptxas inside NVRTC makes it; any architecture option in `options` is replaced by `arch`.
    name_expressions instantiate templated kernels as compile_to_ptx_named does."""
    opts = tuple(str(o) for o in options)
    skip_next = False
    kept = []
    for o in opts:
        if skip_next:
            skip_next = False
            continue
        if o in ("-arch", "--gpu-architecture"):
            skip_next = True
            continue
        if not _has_arch_option((o,)):
            kept.append(o)
    return _cached(source, _with_includes((f"--gpu-architecture={arch}", *kept)), name, "cubin", use_cache,
                   tuple(name_expressions))[0]


def _cached(source: str, opts: tuple[str, ...], name: str, output: str, use_cache: bool,
            name_expressions: tuple[str, ...] = ()) -> tuple[bytes, dict[str, str]]:
    """NVRTC's `output` ("ptx" or "cubin") for source and options, and the lowered name of each name
    expression, from the disk cache if there."""
    version = nvrtc_version()
    key = hashlib.sha256(repr((source, opts, name, version) + ((name_expressions,) if name_expressions else ()))
                         .encode()).hexdigest()[:32]
    path = cache_dir() / f"{key}.{output}"
    names_path = path.with_suffix(f".{output}.names.json")
    if use_cache and path.exists() and (not name_expressions or names_path.exists()):
        lowered = json.loads(names_path.read_text()) if name_expressions else {}
        return path.read_bytes(), lowered
    data, lowered = _compile_isolated(source, opts, name, output, name_expressions)
    if use_cache:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if name_expressions:
                _write_atomically(names_path, json.dumps(lowered).encode())
            _write_atomically(path, data)
        except OSError:
            pass  # a read-only cache is not an error; we just compile again next time
    return data, lowered


def _write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def _compile_isolated(source: str, options: tuple[str, ...], name: str, output: str = "ptx",
                      name_expressions: tuple[str, ...] = ()) -> tuple[bytes, dict[str, str]]:
    """_compile_uncached in a forked child, so that NVRTC crashing (a signal) is a CompileError
    here rather than the end of this process (module docstring); in-process where there is no fork."""
    if not hasattr(os, "fork"):
        return _compile_uncached(source, options, name, output, name_expressions)
    _library()  # loaded (or its absence reported) here, once, not in every child
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():  # Python 3.12+ warns on forking a process with threads (numba's)
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: compile, send the result or the error back, and leave at once
        code = 0
        try:
            faulthandler.disable()  # a crash is reported by the parent, not dumped here
            os.close(read_end)
            try:
                reply = ("ok", _compile_uncached(source, options, name, output, name_expressions))
            except CompileError as e:
                reply = ("error", (e.message, e.log))
            except BaseException as e:  # noqa: BLE001 - anything else goes back to the parent as text
                reply = ("error", (f"NVRTC compile of {name} failed: {type(e).__name__}: {e}", ""))
            with os.fdopen(write_end, "wb") as f:
                f.write(pickle.dumps(reply))
        except BaseException:  # noqa: BLE001 - the child must never return into the caller's code
            code = 1
        os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as f:
        payload = f.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) or not payload:
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        what = f"signal {signal.Signals(sig).name}" if sig else f"exit status {os.WEXITSTATUS(status)}"
        major, minor = nvrtc_version()
        raise CompileError(
            f"NVRTC {major}.{minor} crashed ({what}) while compiling {name} to {output} with options "
            f"{' '.join(options)}: a bug in NVRTC itself, which a valid kernel can hit. Rewriting the "
            "construct it chokes on usually avoids it (NVRTC 13.5: a loop that reads through "
            "`cond ? cluster.map_shared_rank(p, r) : p`; map_shared_rank(p, cond ? r : own_rank) "
            "compiles), or another NVRTC (SIMGPU_NVRTC=/path/to/libnvrtc.so).")
    kind, value = pickle.loads(payload)
    if kind == "error":
        raise CompileError(*value)
    return value


def _compile_uncached(source: str, options: tuple[str, ...], name: str, output: str = "ptx",
                      name_expressions: tuple[str, ...] = ()) -> tuple[bytes, dict[str, str]]:
    lib = _library()
    prog = ctypes.c_void_p()
    _check(lib, lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None),
           "nvrtcCreateProgram")
    try:
        for expr in name_expressions:
            _check(lib, lib.nvrtcAddNameExpression(prog, expr.encode()), f"nvrtcAddNameExpression({expr!r})")
        arr = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
        status = lib.nvrtcCompileProgram(prog, len(options), arr)
        size = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log_buf = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(prog, log_buf)
        log = log_buf.value.decode(errors="replace").strip()
        if status != 0:
            msg = lib.nvrtcGetErrorString(status).decode()
            raise CompileError(f"NVRTC could not compile {name} ({msg}):", log)
        lowered = {}
        for expr in name_expressions:
            out = ctypes.c_char_p()
            status = lib.nvrtcGetLoweredName(prog, expr.encode(), ctypes.byref(out))
            if status != 0:
                raise CompileError(f"NVRTC has no lowered name for the name expression {expr!r} in {name} "
                                   f"({lib.nvrtcGetErrorString(status).decode()}): is it a __global__ function "
                                   "or template instance declared in the source?", log)
            lowered[expr] = out.value.decode()
        if output == "cubin":
            _check(lib, lib.nvrtcGetCUBINSize(prog, ctypes.byref(size)), "nvrtcGetCUBINSize")
            buf = ctypes.create_string_buffer(size.value)
            _check(lib, lib.nvrtcGetCUBIN(prog, buf), "nvrtcGetCUBIN")
            return buf.raw, lowered
        lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
        ptx_buf = ctypes.create_string_buffer(size.value)
        _check(lib, lib.nvrtcGetPTX(prog, ptx_buf), "nvrtcGetPTX")
        return ptx_buf.value, lowered
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(prog))
