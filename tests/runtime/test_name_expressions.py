"""CuPy's RawModule(name_expressions=...): templated kernels found by the name the user wrote."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg
from simgpu.errors import CompileError, LaunchError

SRC = r"""
template <typename T, int K>
__global__ void scale(const T* x, T* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * (T)K;
}
"""


def test_template_instances_launch_by_their_name_expressions():
    mod = sg.RawModule(code=SRC, name_expressions=["scale<float, 3>", "scale<int, 5>"])
    x = np.arange(100, dtype=np.float32)
    y = sg.zeros(100, dtype=np.float32)
    mod.get_function("scale<float, 3>")((1,), (128,), (sg.asarray(x), y, np.int32(100)))
    np.testing.assert_array_equal(y.get(), x * 3)
    xi = np.arange(100, dtype=np.int32)
    yi = sg.zeros(100, dtype=np.int32)
    mod.get_function("scale<int, 5>")((1,), (128,), (sg.asarray(xi), yi, np.int32(100)))
    np.testing.assert_array_equal(yi.get(), xi * 5)


def test_the_real_compiler_sees_the_instances_too():
    # machine_code (registers, SASS size) comes from a cubin; it must hold the instances as well
    mod = sg.RawModule(code=SRC, name_expressions=["scale<float, 3>"])
    kernel = mod.get_function("scale<float, 3>")
    assert mod.machine_code(kernel.name) is not None


def test_an_instance_not_asked_for_says_how_to_ask():
    mod = sg.RawModule(code=SRC, name_expressions=["scale<float, 3>"])
    with pytest.raises(LaunchError, match="name_expressions"):
        mod.get_function("scale<double, 2>")


def test_a_name_expression_that_names_nothing_is_a_compile_error():
    with pytest.raises(CompileError, match="nope<int>"):
        sg.RawModule(code=SRC, name_expressions=["nope<int>"])


def test_name_expressions_need_source_not_ptx():
    ptx = sg.RawModule(code='extern "C" __global__ void k() {}').ptx
    with pytest.raises(ValueError, match="name_expressions"):
        sg.RawModule(ptx=ptx, name_expressions=["k"])
