"""CuPy-shaped modules and kernels: `RawModule(code=...)`, `.get_function(name)`, `RawKernel`.

Source is CUDA C (compiled by NVRTC for the current preset's architecture) or PTX text. The
parsed module is kept; each kernel is linked once and launched any number of times.
"""

from __future__ import annotations

import os
import re

import numpy as np

from simgpu.errors import CompileError, LaunchError, UnsupportedInstructionError
from simgpu.exec.memory import CONST_WINDOW
from simgpu.exec.program import LinkedKernel, function_addresses, link_kernel
from simgpu.frontend.cubin import MachineCode, read_cubin
from simgpu.frontend.nvrtc import compile_to_cubin, compile_to_ptx_named
from simgpu.frontend.ptx import Module, parse_ptx
from simgpu.frontend.ptx.cas_loops import lower_shared_cas_loops
from simgpu.frontend.sass import with_loops
from simgpu.runtime.arrays import DeviceArray
from simgpu.runtime.device import current_gpu


def looks_like_ptx(text: str) -> bool:
    return bool(re.search(r"^\s*\.version\s+\d", text, re.M)) and ".entry" in text


class RawModule:
    """A module of kernels from CUDA C source (`code=`), PTX text (`ptx=`) or a `.cu`/`.ptx` `path=`."""

    def __init__(self, code: str | None = None, *, path: str | None = None, options: tuple | list = (),
                 ptx: str | None = None, name_expressions=None, backend: str = "nvrtc", name: str | None = None,
                 enable_cooperative_groups: bool = False, **_ignored) -> None:
        if sum(x is not None for x in (code, path, ptx)) != 1:
            raise ValueError("RawModule needs exactly one of code=, path= or ptx=")
        self.options = tuple(options)
        self.enable_cooperative_groups = bool(enable_cooperative_groups)  # CuPy's: launches are cooperative
        self.source_name = name or "kernel.cu"
        if path is not None:
            with open(path) as f:
                text = f.read()
            self.source_name = os.path.basename(path)
            if path.endswith(".ptx") or looks_like_ptx(text):
                ptx = text
            else:
                code = text
        if code is not None and looks_like_ptx(code):
            ptx, code = code, None
        self.code = code
        self.name_expressions = tuple(name_expressions or ())
        if self.name_expressions and code is None:
            raise ValueError("RawModule(name_expressions=...) needs CUDA C source (code= or a .cu path): "
                             "PTX has no templates left to instantiate")
        self._sass_arch = current_gpu().sass_arch
        self._machine_code: dict[str, MachineCode] | None = None
        # name expression (e.g. "scale<float, 4>") -> its mangled name, for get_function
        self._lowered: dict[str, str] = {}
        if ptx is None:
            ptx, self._lowered = compile_to_ptx_named(code, self.options, arch=current_gpu().nvrtc_arch,
                                                      name=self.source_name, name_expressions=self.name_expressions)
        self.ptx: str = ptx
        self.module: Module = parse_ptx(ptx)
        self._linked: dict[tuple[str, bool, bool], LinkedKernel] = {}
        self._cas_module: Module | None = None  # self.module with shared atomic adds as CAS loops
        self._globals: dict[str, DeviceArray] = {}
        self._const_offsets: dict[str, int] = {}
        self._allocate_module_variables()

    def _allocate_module_variables(self) -> None:
        const_off = 0
        for v in self.module.variables:
            if v.space not in ("global", "const") or v.size == 0:
                continue
            arr = DeviceArray((v.size,), np.uint8)
            if v.init is not None:
                arr._host_view()[...] = np.frombuffer(v.init, dtype=np.uint8)
            self._globals[v.name] = arr
            if v.space == "const":
                const_off = -(-const_off // max(v.align, 1)) * max(v.align, 1)
                self._const_offsets[v.name] = const_off
                const_off += v.size
        self._const_size = const_off
        self._apply_relocations()

    def _apply_relocations(self) -> None:
        """Write the addresses a variable's initializer names (a vtable's functions, a table of
        pointers to other variables) into its bytes, as the CUDA loader does."""
        funcs = function_addresses(self.module)
        for v in self.module.variables:
            for offset, name in v.relocations:
                if name in funcs:
                    addr = funcs[name]
                elif name in self._const_offsets:
                    addr = CONST_WINDOW + self._const_offsets[name]
                elif name in self._globals:
                    addr = self._globals[name].ptr
                else:
                    raise UnsupportedInstructionError(f"PTX line {v.line}: the initializer of {v.name} names {name}, "
                                                      "which is no function or variable of the module")
                self._globals[v.name]._host_view()[offset:offset + 8] = np.frombuffer(
                    np.uint64(addr).tobytes(), np.uint8)

    def const_buffer(self) -> np.ndarray:
        """The constant bank as the kernels see it now (copied from the module's .const variables)."""
        buf = np.zeros(max(16, -(-self._const_size // 16) * 16), dtype=np.uint8)
        for name, off in self._const_offsets.items():
            arr = self._globals[name]
            buf[off:off + arr.nbytes] = arr._host_view()
        return buf

    def get_global(self, name: str) -> DeviceArray:
        """The bytes of a module-scope `__device__` or `__constant__` variable (a device array)."""
        if name not in self._globals:
            raise KeyError(f"no __device__/__constant__ variable {name!r}; the module has "
                           f"{sorted(self._globals) or 'none'}")
        return self._globals[name]

    @property
    def kernel_names(self) -> list[str]:
        return self.module.kernels

    def _resolve_name(self, name: str) -> str:
        names = self.module.kernels
        if name in names:
            return name
        lowered = self._lowered.get(name) or self._lowered.get(name.lstrip("&"))
        if lowered in names:
            return lowered
        mangled = [n for n in names if n.startswith("_Z") and re.match(rf"_Z\d*?{len(name)}{re.escape(name)}", n)]
        if len(mangled) == 1:
            return mangled[0]
        hint = ""
        if "<" in name and name not in self._lowered:
            hint = (" (a template instance is found by the name expression it was compiled with: "
                    f"RawModule(..., name_expressions=[{name!r}]))")
        elif any(n.startswith("_Z") for n in names):
            hint = " (C++ names are mangled: declare the kernel extern \"C\")"
        raise LaunchError(f"no kernel named {name!r} in the module; it has: {', '.join(names) or 'no kernels'}{hint}")

    def linked(self, name: str, cas_loops: bool = True, ptxas_memory: bool = True) -> LinkedKernel:
        """Kernel `name` linked for execution; `cas_loops`: with its shared-memory f32/f64/u64 atomic
        adds as the CAS loops ptxas makes of them (frontend/ptx/cas_loops.py), else as single atomics;
        `ptxas_memory`: without the loads and stores ptxas does not issue (exec/ptxas_memory.py)."""
        key = (name, bool(cas_loops), bool(ptxas_memory))
        if key not in self._linked:
            module = self.module
            if cas_loops:
                if self._cas_module is None:
                    self._cas_module = lower_shared_cas_loops(self.module)
                module = self._cas_module
            globals_addr = {n: a.ptr for n, a in self._globals.items() if n not in self._const_offsets}
            self._linked[key] = link_kernel(module, name, globals_addr, self._const_offsets,
                                            ptxas_memory=ptxas_memory)
        return self._linked[key]

    def machine_code(self, name: str) -> MachineCode | None:
        """Registers and SASS size of kernel `name` as ptxas (inside NVRTC) compiles the module's CUDA C
        for the real architecture (frontend/cubin.py); None for a module given as PTX, or if NVRTC
        cannot make a cubin (simgpu then estimates them from the PTX)."""
        if self.code is None:
            return None
        if self._machine_code is None:
            try:
                cubin = compile_to_cubin(self.code, self.options, arch=self._sass_arch, name=self.source_name,
                                         name_expressions=self.name_expressions)
                self._machine_code = with_loops(read_cubin(cubin), cubin)
            except (CompileError, ValueError):
                self._machine_code = {}
        return self._machine_code.get(name)

    def get_function(self, name: str) -> RawKernel:
        return RawKernel(module=self, name=self._resolve_name(name))


class RawKernel:
    """A kernel ready to launch: `kernel(grid, block, args, shared_mem=0)` returns a LaunchReport.

    Also constructible as CuPy's `RawKernel(code, name, options=())`.
    """

    def __init__(self, code: str | None = None, name: str | None = None, options: tuple | list = (), *,
                 module: RawModule | None = None, **kwargs) -> None:
        if module is None:
            if code is None or name is None:
                raise ValueError("RawKernel(code, name) needs both the source and the kernel name")
            module = RawModule(code=code, options=options, **kwargs)
            name = module._resolve_name(name)
        self.module = module
        self.name = name
        self.max_dynamic_shared_size_bytes = 0  # CuPy's opt-in attribute (cudaFuncSetAttribute)
        # CuPy's cudaFuncAttributePreferredSharedMemoryCarveout: percent of the largest carveout
        # wanted for shared memory (0-100), -1 for no preference; the L1 gets the rest
        self.preferred_shared_memory_carveout = -1
        self.registers_per_thread: int | None = None  # override ptxas's count (num_regs)

    @property
    def linked(self) -> LinkedKernel:
        return self.module.linked(self.name)

    @property
    def machine_code(self) -> MachineCode | None:
        """ptxas's registers and SASS size for this kernel (RawModule.machine_code), or None."""
        return self.module.machine_code(self.name)

    def register_count(self, limits=None, override: int | None = None) -> tuple[int, str]:
        """(registers per thread, where the number comes from): `override` or the kernel's
        registers_per_thread ("given"), else ptxas's count via NVRTC, at least the GPU's minimum
        ("ptxas"), else the estimate from the PTX ("estimated")."""
        if override or self.registers_per_thread:
            return int(override or self.registers_per_thread), "given"
        mc = self.machine_code
        if mc is not None:
            limits = limits if limits is not None else current_gpu().limits
            return max(mc.registers, limits.min_registers_per_thread), "ptxas"
        return self.linked.registers_per_thread, "estimated"

    @property
    def num_regs(self) -> int:
        """Registers per thread, as a launch on the current GPU uses them (register_count)."""
        return self.register_count()[0]

    @property
    def attributes(self) -> dict:
        lk = self.linked
        return {"num_regs": self.num_regs,
                "shared_size_bytes": lk.shared_static, "local_size_bytes": lk.local_size,
                "max_dynamic_shared_size_bytes": self.max_dynamic_shared_size_bytes,
                "preferred_shared_memory_carveout": self.preferred_shared_memory_carveout}

    def __call__(self, grid, block, args, *, shared_mem: int = 0, stream=None, **options):
        from simgpu.runtime.launch import launch

        return launch(self, grid, block, args, shared_mem=shared_mem, **options)

    def __repr__(self) -> str:
        return f"<simgpu.RawKernel {self.name}>"
