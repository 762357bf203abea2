"""PTX: the parsed module (ast) and the parser."""

from simgpu.frontend.ptx.ast import Function, Instruction, Module
from simgpu.frontend.ptx.parser import parse_ptx

__all__ = ["Function", "Instruction", "Module", "parse_ptx"]
