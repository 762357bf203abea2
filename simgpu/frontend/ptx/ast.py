"""The parsed form of a PTX module: plain dataclasses, close to the text a learner reads."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Reg:
    """A register operand (`%r1`, `%p2`), after scope resolution (names are made unique)."""

    name: str


@dataclass(frozen=True)
class Imm:
    """An immediate: integers keep their value; floats keep their IEEE bits (`0f3F800000`)."""

    value: int | float
    is_float: bool = False
    float_bits: int | None = None  # raw bits for 0fXXXXXXXX (32-bit) / 0dXXXXXXXXXXXXXXXX (64-bit)
    float_width: int = 0


@dataclass(frozen=True)
class Special:
    """A special register such as `%tid.x`, `%laneid`, `%clock64`."""

    name: str


@dataclass(frozen=True)
class Sym:
    """A symbol used as a value: a variable's address, a function name, a label."""

    name: str


@dataclass(frozen=True)
class Addr:
    """A memory operand `[base+offset]`: base is a register, a symbol, or None (absolute)."""

    base: Reg | Sym | None
    offset: int = 0


@dataclass(frozen=True)
class Vec:
    """A vector operand `{%f1, %f2, %f3, %f4}` (elements may be `_`, a sink, as None)."""

    elems: tuple[Reg | Imm | None, ...]


Operand = Reg | Imm | Special | Sym | Addr | Vec | None


@dataclass
class Instruction:
    """One PTX instruction: `@!%p1 add.lo.s32 %r1, %r2, 4;`."""

    opcode: str  # "add"
    mods: tuple[str, ...]  # ("lo", "s32"), without dots, in source order
    operands: list[Operand]
    guard: Reg | None = None
    guard_negated: bool = False
    line: int = 0  # line number in the PTX text (1-based)
    text: str = ""  # the instruction as written, for error messages and pictures
    # the first instruction after `.pragma "nounroll";` (NVVM marks the loops ptxas must not unroll
    # again: its remainder loops and those a user's #pragma unroll already unrolled)
    nounroll: bool = False

    @property
    def full_opcode(self) -> str:
        return ".".join((self.opcode,) + self.mods)


@dataclass
class Variable:
    """A state-space variable: `.shared .align 4 .b8 tile[4096];`, `.param .u64 p0`, `.global .u32 g;`."""

    name: str
    space: str  # "shared", "global", "const", "local", "param"
    type: str  # "b8", "u32", ...
    size: int  # bytes in total
    align: int
    extern: bool = False  # extern .shared: dynamic shared memory
    init: bytes | None = None  # initial value for .global / .const
    line: int = 0
    # (byte offset, symbol) of initializer elements that are an address (`{0, f}`, `generic(v)`):
    # filled in when the module is loaded (runtime/module.py), their bytes in `init` 0 until then
    relocations: tuple[tuple[int, str], ...] = ()


@dataclass
class Function:
    """A `.entry` kernel or a `.func` device function."""

    name: str
    is_entry: bool
    params: list[Variable] = field(default_factory=list)
    returns: list[Variable] = field(default_factory=list)
    registers: dict[str, str] = field(default_factory=dict)  # unique name -> type ("pred", "b32", ...)
    variables: list[Variable] = field(default_factory=list)  # .local/.shared/.param declared in the body
    body: list[Instruction] = field(default_factory=list)
    labels: dict[str, int] = field(default_factory=dict)  # label -> index into body
    line: int = 0
    max_ntid: tuple[int, ...] | None = None
    reqntid: tuple[int, ...] | None = None
    # thread-block cluster shape (.reqnctapercluster, from __cluster_dims__), .explicitcluster and
    # .maxclusterrank; None / False: not declared (every CTA is a cluster of one)
    cluster_dims: tuple[int, ...] | None = None
    explicit_cluster: bool = False
    max_cluster_rank: int | None = None
    is_decl_only: bool = False


@dataclass
class Module:
    """A whole PTX module: header directives, module-scope variables, functions."""

    version: str = ""
    target: str = ""
    address_size: int = 64
    variables: list[Variable] = field(default_factory=list)
    functions: dict[str, Function] = field(default_factory=dict)
    source: str = ""

    @property
    def kernels(self) -> list[str]:
        return [f.name for f in self.functions.values() if f.is_entry]
