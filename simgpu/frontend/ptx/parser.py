"""PTX text -> Module.

A small tokenizer and a recursive-descent parser for the subset of PTX that NVRTC and hand
writers produce for ordinary kernels: module directives, module-scope variables, `.entry` and
`.func` definitions, nested `{ }` scopes (names declared in a scope are made unique), labels,
guarded instructions and their operands. Errors name the PTX line.
"""

from __future__ import annotations

import functools
import re
import struct

from simgpu.errors import PTXParseError, UnsupportedInstructionError
from simgpu.frontend.ptx.ast import (
    Addr,
    Function,
    Imm,
    Instruction,
    Module,
    Operand,
    Reg,
    Special,
    Sym,
    Variable,
    Vec,
)

_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\r]+)
  | (?P<nl>\n)
  | (?P<lcomment>//[^\n]*)
  | (?P<bcomment>/\*.*?\*/)
  | (?P<string>"[^"\n]*")
  | (?P<fhex>0[fF][0-9a-fA-F]{8}|0[dD][0-9a-fA-F]{16})
  | (?P<num>0[xX][0-9a-fA-F]+U?|0[bB][01]+U?|\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+U?)
  | (?P<ident>[.%$A-Za-z_][\w$.]*(?:::[\w$.]+)*)  # .shared::cta, .sp::ordered_metadata
  | (?P<punct>[{}()\[\],;:+\-=<>@!|*/&])
    """,
    re.VERBOSE | re.DOTALL,
)

SPECIAL_REGISTERS = {
    "%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid",
    "%gridid", "%clock", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
    "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt", "%lanemask_ge",
    "%dynamic_smem_size", "%total_smem_size", "%clusterid", "%nclusterid", "%cluster_ctaid",
    "%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster",
    *(f"%envreg{i}" for i in range(32)),  # driver-set; %envreg1:%envreg2 = the grid-sync workspace
    "%clock_hi",
    # known to PTX, refused when read (core/wave.py): performance-monitor counters, the driver's
    # reserved shared-memory window, the CUDA graph handle
    *(f"%pm{i}" for i in range(8)), *(f"%pm{i}_64" for i in range(8)), "%reserved_smem_offset_begin",
    "%reserved_smem_offset_end", "%reserved_smem_offset_cap", "%reserved_smem_offset_0", "%reserved_smem_offset_1",
    "%aggr_smem_size", "%current_graph_exec",
}

# texture and surface instructions (PTX ISA 9.7.10-9.7.11)
_TEXTURE_OPCODES = {"tex", "tld4", "txq", "istypep", "suld", "sust", "sured", "suq"}

_TYPE_SIZES = {
    "b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "f16": 2, "bf16": 2,
    "b32": 4, "u32": 4, "s32": 4, "f32": 4, "f16x2": 4, "bf16x2": 4, "tf32": 4,
    "b64": 8, "u64": 8, "s64": 8, "f64": 8, "pred": 1, "b128": 16,
}

_SPACES = {".reg", ".shared", ".global", ".const", ".local", ".param", ".tex", ".sreg"}
# a declaration's state space glued to what follows it (`.reg.b32`, `.shared.align`): split apart
_GLUED_DECL = re.compile(r"^\.(?:reg|shared|global|const|local|param)(?:\.[A-Za-z_]\w*)+$")


class _Tok:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind: str, text: str, line: int) -> None:
        self.kind, self.text, self.line = kind, text, line

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"{self.text!r}@{self.line}"


def _tokenize(text: str) -> list[_Tok]:
    toks: list[_Tok] = []
    line = 1
    pos = 0
    n = len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if not m:
            raise PTXParseError(f"PTX line {line}: unexpected character {text[pos]!r}")
        kind = m.lastgroup
        s = m.group()
        if kind == "nl":
            line += 1
        elif kind == "bcomment":
            line += s.count("\n")
        elif kind == "ident" and _GLUED_DECL.match(s):
            # `.reg.b32 f;` (CUDA's cuda_bf16.h inline asm) is `.reg .b32 f;` written without the space
            toks.extend(_Tok(kind, "." + part, line) for part in s[1:].split("."))
        elif kind not in ("ws", "lcomment"):
            toks.append(_Tok(kind, s, line))
        pos = m.end()
    toks.append(_Tok("eof", "", line))
    return toks


def _parse_int(text: str) -> int:
    t = text.rstrip("U")
    if t.lower().startswith("0x"):
        return int(t, 16)
    if t.lower().startswith("0b"):
        return int(t, 2)
    if len(t) > 1 and t.startswith("0") and t.isdigit():
        return int(t, 8)
    return int(t)


def _float_imm(text: str) -> Imm:
    bits = int(text[2:], 16)
    if text[1] in "fF":
        return Imm(struct.unpack("<f", struct.pack("<I", bits))[0], True, bits, 32)
    return Imm(struct.unpack("<d", struct.pack("<Q", bits))[0], True, bits, 64)


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokenize(text)
        self.i = 0
        self.module = Module(source=text)
        self.scopes: list[dict[str, str]] = []  # name -> unique name, innermost last
        self.unique_counter = 0
        self.func: Function | None = None

    # -- token helpers -------------------------------------------------------------------------
    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def next(self) -> _Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def peek(self, k: int = 1) -> _Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def accept(self, text: str) -> bool:
        if self.tok.text == text:
            self.i += 1
            return True
        return False

    def expect(self, text: str) -> _Tok:
        if self.tok.text != text:
            self.error(f"expected {text!r}, found {self.tok.text or 'end of file'!r}")
        return self.next()

    def error(self, msg: str, line: int | None = None):
        raise PTXParseError(f"PTX line {line or self.tok.line}: {msg}")

    # -- module level --------------------------------------------------------------------------
    def parse(self) -> Module:
        while self.tok.kind != "eof":
            t = self.tok
            if t.text == ".version":
                self.next()
                self.module.version = self.next().text
            elif t.text == ".target":
                self.next()
                targets = [self.next().text]
                while self.accept(","):
                    targets.append(self.next().text)
                self.module.target = ",".join(targets)
            elif t.text == ".address_size":
                self.next()
                self.module.address_size = int(self.next().text)
            elif t.text in (".visible", ".extern", ".weak", ".common"):
                self.next()
            elif t.text in (".entry", ".func"):
                self.parse_function()
            elif t.text in (".global", ".const", ".shared", ".tex", ".surfref", ".texref", ".samplerref"):
                var = self.parse_variable(module_scope=True)
                self.module.variables.extend(var)
            elif t.text in (".file", ".loc", ".section", ".pragma"):
                self.skip_directive()
            elif t.text == ";":
                self.next()
            else:
                self.error(f"unexpected {t.text!r} at module scope")
        return self.module

    def skip_directive(self) -> None:
        if self.tok.text == ".section":
            while self.tok.text not in ("{", "eof"):
                self.next()
            depth = 0
            while self.tok.kind != "eof":
                t = self.next().text
                if t == "{":
                    depth += 1
                elif t == "}":
                    depth -= 1
                    if depth == 0:
                        return
            return
        line = self.tok.line
        while self.tok.kind != "eof" and self.tok.text != ";" and self.tok.line == line:
            self.next()
        self.accept(";")

    # -- declarations --------------------------------------------------------------------------
    def parse_variable(self, module_scope: bool = False, extern: bool = False) -> list[Variable]:
        """Parse `.space [.align N] [.vN] .type name[dims] [= init];` (maybe a list of names)."""
        line = self.tok.line
        space = self.next().text[1:]
        align = 0
        vec = 1
        vtype = None
        while self.tok.text.startswith(".") and self.tok.kind == "ident":
            d = self.next().text
            if d == ".align":
                align = _parse_int(self.next().text)
            elif d in (".v2", ".v4", ".v8"):
                vec = int(d[2:])
            elif d[1:] in _TYPE_SIZES:
                vtype = d[1:]
            elif d in (".ptr", ".global", ".shared", ".const", ".local"):
                pass  # .ptr.space.align attributes on kernel params
            else:
                pass  # other attributes (.attribute, .managed) are ignored
        if vtype is None:
            self.error(f"variable declaration without a type in .{space}")
        out = []
        while True:
            name_tok = self.next()
            if name_tok.kind != "ident":
                self.error(f"expected a variable name, found {name_tok.text!r}")
            name = name_tok.text
            count = 1
            dims_unknown = False
            if self.accept("<"):
                # parameterised names: %r<6> declares %r0..%r5
                n = _parse_int(self.next().text)
                self.expect(">")
                out.extend(
                    Variable(f"{name}{k}", space, vtype, _TYPE_SIZES[vtype] * vec, align or _TYPE_SIZES[vtype])
                    for k in range(n)
                )
            else:
                while self.accept("["):
                    if self.tok.text == "]":
                        dims_unknown = True
                    else:
                        count *= _parse_int(self.next().text)
                    self.expect("]")
                elem = _TYPE_SIZES[vtype] * vec
                init, relocs = None, ()
                if self.accept("="):
                    init, relocs = self.parse_initializer(vtype, elem * count)
                var = Variable(name, space, vtype, 0 if dims_unknown else elem * count,
                               align or _TYPE_SIZES[vtype], extern=extern or dims_unknown, init=init, line=line,
                               relocations=relocs)
                out.append(var)
            if not (self.tok.text == "," and not self.peek().text.startswith(".")):
                break
            self.next()
        if not module_scope or self.tok.text == ";":
            self.accept(";")
        return out

    def parse_initializer(self, vtype: str, total: int) -> tuple[bytes, tuple[tuple[int, str], ...]]:
        """The initial bytes, and (byte offset, symbol) for each element that is the address of a
        function or variable (`f`, `generic(v)`), left 0 here; 64-bit elements only, as ptxas."""
        values: list[Imm] = []
        relocs: list[tuple[int, str]] = []

        def value() -> None:
            if self.accept("{"):
                while not self.accept("}"):
                    value()
                    self.accept(",")
                return
            neg = self.accept("-")
            t = self.next()
            if t.kind == "fhex":
                imm = _float_imm(t.text)
                values.append(Imm(-imm.value if neg else imm.value, True))
            elif t.kind == "num":
                v = float(t.text) if ("." in t.text or "e" in t.text.lower()) and not t.text.lower().startswith("0x") \
                    else _parse_int(t.text)
                values.append(Imm(-v if neg else v, isinstance(v, float)))
            elif t.kind == "ident" and not neg and _TYPE_SIZES[vtype] == 8:
                name = t.text
                if name == "generic" and self.accept("("):
                    name = self.next().text
                    self.expect(")")
                relocs.append((8 * len(values), name))
                values.append(Imm(0))
            else:
                self.error(f"unsupported initializer {t.text!r}: only a 64-bit element can hold the address "
                           "of a function or variable")

        value()
        fmt = {"f32": "<f", "f64": "<d"}.get(vtype)
        size = _TYPE_SIZES[vtype]
        data = bytearray()
        for v in values:
            if fmt:
                data += struct.pack(fmt, float(v.value))
            else:
                data += (int(v.value) & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
        data = bytes(data[:total]).ljust(total, b"\0")
        return data, tuple(r for r in relocs if r[0] < total)

    def declare(self, name: str) -> str:
        """Give a body-scoped name a unique spelling so nested scopes can reuse names."""
        if len(self.scopes) <= 2:  # module params and the function body keep their spelling
            self.scopes[-1][name] = name
            return name
        self.unique_counter += 1
        unique = f"{name}#{self.unique_counter}"
        self.scopes[-1][name] = unique
        return unique

    def named(self, name: str) -> Reg | Sym:
        """A name as an operand: a register if it starts with % or was declared with .reg (inline
        asm in CUDA's headers declares `.reg .f16 low;` in a nested scope), else a symbol."""
        unique = self.resolve(name)
        if name.startswith("%") or (self.func is not None and unique in self.func.registers):
            return Reg(unique)
        return Sym(unique)

    def resolve(self, name: str) -> str:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return name

    # -- functions -----------------------------------------------------------------------------
    def parse_param_list(self) -> list[Variable]:
        params: list[Variable] = []
        self.expect("(")
        while not self.accept(")"):
            if self.tok.text in (".param", ".reg"):
                params.extend(self.parse_variable())
            elif not self.accept(","):
                self.error(f"unexpected {self.tok.text!r} in a parameter list")
        return params

    def parse_function(self) -> None:
        kind_tok = self.next()
        is_entry = kind_tok.text == ".entry"
        returns: list[Variable] = []
        if not is_entry and self.tok.text == "(":
            returns = self.parse_param_list()
        name_tok = self.next()
        fn = Function(name=name_tok.text, is_entry=is_entry, returns=returns, line=name_tok.line)
        if self.tok.text == "(":
            fn.params = self.parse_param_list()
        while self.tok.text.startswith(".") and self.tok.text not in ("{",):
            d = self.next().text
            nums: list[int] = []
            while self.tok.kind == "num":
                nums.append(_parse_int(self.next().text))
                if not self.accept(","):
                    break
            if d == ".maxntid":
                fn.max_ntid = tuple(nums)
            elif d == ".reqntid":
                fn.reqntid = tuple(nums)
            elif d == ".reqnctapercluster":
                fn.cluster_dims = tuple(nums) + (1,) * (3 - len(nums))
            elif d == ".explicitcluster":
                fn.explicit_cluster = True
            elif d == ".maxclusterrank":
                fn.max_cluster_rank = nums[0] if nums else None
            elif d == ".noreturn":
                pass
        if self.accept(";"):
            fn.is_decl_only = True
            self.module.functions.setdefault(fn.name, fn)
            return
        self.func = fn
        self.scopes = [{}]
        for p in fn.params + fn.returns:
            self.scopes[0][p.name] = p.name
        self.parse_block(fn)
        self.func = None
        self.module.functions[fn.name] = fn

    def parse_block(self, fn: Function) -> None:
        self.expect("{")
        self.scopes.append({})
        nounroll = False
        while not self.accept("}"):
            t = self.tok
            if t.kind == "eof":
                self.error(f"end of file inside the body of {fn.name}")
            if t.text == "{":
                self.parse_block(fn)
                continue
            if t.text == ";":
                self.next()
                continue
            if t.kind == "ident" and self.peek().text == ":" and not t.text.startswith("."):
                self.next()
                self.next()
                if self.tok.text == ".callprototype":  # `proto: .callprototype (...) _ (...);`, an
                    self.skip_directive()  # indirect call's signature: no label, no instruction
                    continue
                fn.labels[self.declare_label(t.text)] = len(fn.body)
                continue
            if t.text == ".reg":
                line = t.line
                for v in self.parse_variable():
                    if v.name in SPECIAL_REGISTERS:
                        self.error(f"register {v.name} has the name of a special register; ptxas rejects it", line)
                    if v.name in self.scopes[-1] and len(self.scopes) == 2:
                        self.error(f"register {v.name} declared twice", line)
                    fn.registers[self.declare(v.name)] = v.type
                continue
            if t.text in (".local", ".shared", ".param", ".global", ".const"):
                for v in self.parse_variable():
                    v.name = self.declare(v.name)
                    fn.variables.append(v)
                continue
            if t.text == ".extern":
                self.next()
                for v in self.parse_variable(extern=True):
                    v.name = self.declare(v.name)
                    fn.variables.append(v)
                continue
            if t.text == ".pragma":
                nounroll = nounroll or '"nounroll"' in self.peek().text
                self.skip_directive()
                continue
            if t.text in (".loc", ".file"):
                self.skip_directive()
                continue
            if t.text.startswith(".") and t.text in (".maxnreg", ".maxntid", ".reqntid", ".minnctapersm"):
                self.skip_directive()
                continue
            fn.body.append(self.parse_instruction())
            fn.body[-1].nounroll, nounroll = nounroll, False
        self.scopes.pop()

    def declare_label(self, name: str) -> str:
        # labels are function-scoped in practice; keep their spelling
        return name

    # -- instructions --------------------------------------------------------------------------
    def parse_instruction(self) -> Instruction:
        start = self.i
        line = self.tok.line
        guard = None
        negated = False
        if self.accept("@"):
            negated = self.accept("!")
            g = self.next()
            guard = Reg(self.resolve(g.text))
        op_tok = self.next()
        if op_tok.kind != "ident":
            self.error(f"expected an instruction, found {op_tok.text!r}", line)
        parts = op_tok.text.split(".")
        opcode, mods = parts[0], tuple(p for p in parts[1:] if p)
        operands: list[Operand] = []
        if opcode == "call":
            operands = self.parse_call_operands()
        elif opcode in _TEXTURE_OPCODES:  # its [texture, {coordinates}] operand is no memory address
            raise UnsupportedInstructionError(
                f"PTX line {line}: {op_tok.text}: textures and surfaces (tex1Dfetch, tex2D, surf2Dwrite, "
                "cudaTextureObject_t, ...) are not supported by simgpu; read the array through a pointer instead")
        elif (opcode, mods[:3]) == ("cp", ("async", "bulk", "tensor")) or opcode == "tensormap":
            # its [tensorMap, {coordinates}] operand is no address simgpu reads
            raise UnsupportedInstructionError(
                f"PTX line {line}: {op_tok.text}: tensor-map TMA (cp.async.bulk.tensor, tensormap) is not supported "
                "by simgpu; the 1-D bulk copy (cp.async.bulk, cuda::memcpy_async on a cuda::barrier) is")
        else:
            while self.tok.text != ";":
                if self.tok.kind == "eof":
                    self.error("missing ';' after instruction", line)
                operands.append(self.parse_operand())
                if not self.accept(","):
                    if self.tok.text == "|":  # setp d|p, ... ; shfl d|p
                        self.next()
                        operands.append(self.parse_operand())
                        self.accept(",")
                        continue
                    break
        if not self.accept(";"):
            self.error(f"expected ';' after {op_tok.text}, found {self.tok.text!r}", line)
        text = " ".join(t.text for t in self.toks[start:self.i - 1])
        text = text.replace(" ,", ",").replace("[ ", "[").replace(" ]", "]").replace(" + ", "+")
        return Instruction(opcode, mods, operands, guard, negated, line, text)

    def parse_call_operands(self) -> list[Operand]:
        """`call.uni (retval0), func, (param0, param1);` -> [Vec(rets), Sym(func), Vec(args)]."""
        rets: list = []
        args: list = []
        if self.tok.text == "(":
            self.next()
            while not self.accept(")"):
                rets.append(self.parse_operand())
                self.accept(",")
            self.expect(",")
        target = self.next()
        if self.accept(","):
            if self.accept("("):
                while not self.accept(")"):
                    args.append(self.parse_operand())
                    self.accept(",")
            if self.accept(","):  # prototype / jump table of an indirect call
                self.next()
        return [Vec(tuple(rets)), Sym(self.resolve(target.text)), Vec(tuple(args))]

    def parse_operand(self) -> Operand:
        t = self.tok
        if t.text == "[":
            return self.parse_address()
        if t.text == "{":
            self.next()
            elems = []
            while not self.accept("}"):
                e = self.parse_operand()
                elems.append(e)
                self.accept(",")
            return Vec(tuple(elems))
        if t.text == "-" or t.text == "!":
            self.next()
            inner = self.parse_operand()
            if isinstance(inner, Imm):
                if t.text == "-":
                    if inner.is_float:
                        return Imm(-inner.value, True)
                    return Imm(-inner.value)
            if t.text == "!" and isinstance(inner, Reg):
                return Reg("!" + inner.name)  # negated predicate source
            self.error(f"cannot negate operand {self.toks[self.i - 1].text!r}")
        self.next()
        if t.kind == "fhex":
            return _float_imm(t.text)
        if t.kind == "num":
            if "." in t.text or ("e" in t.text.lower() and not t.text.lower().startswith("0x")):
                return Imm(float(t.text), True)
            return Imm(_parse_int(t.text))
        if t.kind == "ident":
            name = t.text
            if name == "_":
                return None
            base = name.split(".")[0]
            if base in SPECIAL_REGISTERS:
                return Special(name)
            if name in ("WARP_SZ",):
                return Imm(32)
            return self.named(name)
        self.error(f"unexpected operand {t.text!r}")

    def parse_address(self) -> Addr:
        self.expect("[")
        base: Reg | Sym | None = None
        offset = 0
        sign = 1
        while not self.accept("]"):
            t = self.next()
            if t.text == "+":
                sign = 1
                continue
            if t.text == "-":
                sign = -sign
                continue
            if t.kind == "num":
                offset += sign * _parse_int(t.text)
                sign = 1
            elif t.kind == "ident":
                if base is not None:
                    self.error(f"address with two bases: {t.text!r}")
                base = self.named(t.text)
            elif t.kind == "eof":
                self.error("unterminated address")
            else:
                self.error(f"unexpected {t.text!r} in an address")
        return Addr(base, offset)


@functools.lru_cache(maxsize=64)
def parse_ptx(text: str) -> Module:
    """Parse PTX text into a Module; raise PTXParseError naming the line on bad input.

    Modules are read-only once parsed, so the same text gives the same Module object (a program
    that builds a RawModule per run parses its PTX once per process)."""
    return _Parser(text).parse()
