"""conv_transpose end to end: attrs and shape rule (ONNX ConvTranspose's output size formula), the
oracle against the definition written as a plain-Python loop over input pixels and taps, host kernels
within the f32 summation bound of npubuild/emitters/host/conv.py, and the refusal on xdna.

ONNX's own examples (plain, strides with pads, dilations, output_padding with groups) are hand cases in
tests/test_oracles.py.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from npubuild import ops, targets
from npubuild.core.constants import numpy_dtype
from npubuild.core.errors import OpError
from npubuild.emitters import host as host_emitters
from npubuild.ops.registry import AttrError, normalize_attrs
from npubuild.specfile.instances import make_instance

from .hostkit import assert_standard_dialects, compile_kernels

OP = ops.REGISTRY["conv_transpose"]


@pytest.mark.parametrize("attrs, why", [
    ({"strides": [0, 1]}, "'strides' of 'conv_transpose' must be at least 1"),
    ({"pads": [1, 1]}, "'pads' of 'conv_transpose' must have 4 entries"),
    ({"pads": [0, 0, -1, 0]}, "must be non-negative"),
    ({"dilations": [1]}, "must have 2 entries"),
    ({"output_padding": [-1, 0]}, "must be non-negative"),
    ({"group": 0}, "'group' of 'conv_transpose' must be at least 1"),
])
def test_bad_attrs(attrs, why):
    with pytest.raises(AttrError, match=why):
        normalize_attrs(OP, attrs)


@pytest.mark.parametrize("shapes, attrs, why", [
    ([(1, 2, 3), (2, 1, 3, 3)], {}, r"x must be \[N, C, H, W\]"),
    ([(1, 2, 3, 3), (3, 1, 3, 3)], {}, "must have x's 2 input channels first"),
    ([(1, 3, 3, 3), (3, 1, 3, 3)], {"group": 2}, "group 2 must divide the 3 input channels"),
    ([(1, 1, 2, 2), (1, 1, 1, 1)], {"pads": [1, 0, 1, 0]}, "leave an output of 0 x 2"),
])
def test_shape_errors(shapes, attrs, why):
    with pytest.raises(OpError, match=why):
        OP.infer(shapes, normalize_attrs(OP, attrs))


def test_output_size_is_onnx_formula():
    # Ho = sh·(H-1) + oph + dh·(kH-1) + 1 - top - bottom
    a = normalize_attrs(OP, {"strides": [3, 2], "dilations": [2, 1], "pads": [1, 0, 2, 1], "output_padding": [2, 1],
                             "group": 2})
    assert OP.infer([(2, 4, 5, 6), (4, 3, 3, 2)], a) == (2, 6, 3 * 4 + 2 + 2 * 2 + 1 - 3, 2 * 5 + 1 + 1 + 1 - 1)


def scatter_loop(x, w, a):
    """The definition: every input pixel adds x·w over the kernel taps of its group's output channels
    (math.fsum of float64 products: exact sums of f32 products)."""
    strides, dil, pads, group = a["strides"], a["dilations"], a["pads"], a["group"]
    n, c, h, wd = x.shape
    _, mg, kh, kw = w.shape
    ho, wo = OP.infer([x.shape, w.shape], a)[2:]
    terms: dict = {}
    for b, ci, i, j, p, q, mi in itertools.product(range(n), range(c), range(h), range(wd), range(kh), range(kw), range(mg)):
        oh, ow = i * strides[0] - pads[0] + p * dil[0], j * strides[1] - pads[1] + q * dil[1]
        if 0 <= oh < ho and 0 <= ow < wo:
            m = (ci // (c // group)) * mg + mi
            terms.setdefault((b, m, oh, ow), []).append(float(x[b, ci, i, j]) * float(w[ci, mi, p, q]))
    import math

    y = np.zeros((n, mg * group, ho, wo))
    for k, v in terms.items():
        y[k] = math.fsum(v)
    return y


GEOMETRIES = [
    ([(1, 1, 3, 3), (1, 2, 3, 3)], {}),
    ([(2, 3, 4, 5), (3, 2, 3, 3)], {"strides": [2, 2], "pads": [1, 1, 1, 1], "output_padding": [1, 1]}),
    ([(1, 4, 3, 4), (4, 1, 2, 3)], {"strides": [3, 1], "dilations": [2, 3], "pads": [0, 2, 1, 0], "group": 2}),
    ([(1, 6, 2, 2), (6, 1, 3, 3)], {"strides": [2, 2], "group": 6}),  # depthwise
    ([(1, 2, 2, 3), (2, 3, 4, 4)], {"strides": [2, 3], "pads": [1, 2, 1, 2], "output_padding": [0, 2]}),
]


@pytest.mark.parametrize("shapes, attrs", GEOMETRIES)
def test_oracle_is_the_definitions_scatter(shapes, attrs):
    rng = np.random.default_rng(2)
    x, w = (rng.integers(-5, 6, s).astype(np.float32) for s in shapes)  # small integers: every sum is exact
    a = normalize_attrs(OP, attrs)
    np.testing.assert_array_equal(OP.evaluate([x, w], a, "f32"), scatter_loop(x, w, a).astype(np.float32))


HOST = [make_instance("conv_transpose", dt, shapes, attrs) for shapes, attrs in GEOMETRIES for dt in ("f32", "bf16")]
HOST += [make_instance("conv_transpose", "f16", *GEOMETRIES[1])]


@pytest.fixture(scope="module")
def compiled():
    return compile_kernels(HOST)


@pytest.mark.parametrize("inst", HOST, ids=lambda i: i.id)
def test_host_kernel_within_the_summation_bound(inst, compiled):
    rng = np.random.default_rng(int(inst.key[:8], 16))
    x, w = (rng.standard_normal(t.shape).astype(np.float32).astype(numpy_dtype(t.dtype)) for t in inst.inputs)
    got = np.asarray(compiled[inst.key](x, w)).astype(np.float64)
    want = np.asarray(OP.evaluate([x, w], inst.attrs, inst.dtype))
    assert want.dtype == numpy_dtype(inst.dtype) and got.shape == want.shape
    want = want.astype(np.float64)
    g = inst.shapes
    n_terms = g[1][0] // inst.attrs["group"] * g[1][2] * g[1][3]
    abs_sum = scatter_loop(np.abs(x.astype(np.float64)), np.abs(w.astype(np.float64)), inst.attrs)
    half_ulp = {"f32": 2.0**-24, "f16": 2.0**-11, "bf16": 2.0**-8}[inst.dtype]
    bound = (n_terms + 1) * 2.0**-24 * abs_sum + half_ulp * np.abs(want)
    assert (np.abs(got - want) <= bound).all(), inst.id


def test_a_tap_that_reads_no_pixel_adds_nothing(compiled):
    """An inf in x reaches only the outputs its taps land on: the others are not inf·0 = NaN."""
    inst = HOST[2]  # strides 2 with pads and output_padding
    x = np.ones(inst.inputs[0].shape, np.float32)
    x[0, 0, 0, 0] = np.inf
    w = np.ones(inst.inputs[1].shape, np.float32)
    got = np.asarray(compiled[inst.key](x, w))
    want = OP.evaluate([x, w], inst.attrs, "f32")
    assert not np.isnan(got).any() and np.array_equal(np.isinf(got), np.isinf(want)) and np.isinf(got).any()


def test_emitted_text_is_standard_dialects():
    for inst in HOST:
        assert_standard_dialects(host_emitters.emit(inst), inst.id)


def test_xdna_refuses_with_the_reason():
    shapes = [(1, 8, 8, 8), (8, 8, 3, 3)]
    attrs = normalize_attrs(OP, {"strides": [2, 2]})
    why = targets.get("xdna").supports("conv_transpose", shapes, "bf16", attrs)
    assert why.startswith("no NPU design for this op yet (")
    assert targets.get("host").supports("conv_transpose", shapes, "bf16", attrs) is None
