"""topk end to end: entry and shape rule, the oracle against the definition's order written as a plain
Python sort key (ties by lower index, NaN largest, -0.0 == +0.0), host kernels bit-exact against the
oracle for every dtype with many ties, and the refusal on xdna.

ONNX's own examples (largest, smallest, the tie rule) are hand cases in tests/test_oracles.py.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from npubuild import ops, targets
from npubuild.core.constants import numpy_dtype
from npubuild.core.errors import OpError
from npubuild.emitters import host as host_emitters
from npubuild.ops.registry import normalize_attrs
from npubuild.specfile.instances import make_instance

from .hostkit import assert_standard_dialects, compile_kernels
from .test_host_select_movement import assert_same

OP = ops.REGISTRY["topk"]


def test_entry_and_signature():
    a = normalize_attrs(OP, {"k": 2})
    assert a == {"k": 2, "axis": -1, "largest": True, "sorted": True, "output": "values", "index_dtype": "i64"}
    assert OP.signature("bf16", 1, a) == (["bf16"], "bf16")
    assert OP.signature("bf16", 1, {**a, "output": "indices", "index_dtype": "i32"}) == (["bf16"], "i32")
    assert OP.infer([(3, 7, 5)], {**a, "axis": 1}) == (3, 2, 5)


@pytest.mark.parametrize("shape, attrs, why", [
    ((4, 3), {"k": 4}, r"k 4 must be between 0 and the length 3 of axis -1 of x \[4, 3\]"),
    ((4, 3), {"k": -1}, "k -1 must be between 0"),
    ((4, 3), {"k": 1, "axis": 2}, "axis 2 is out of range for rank 2"),
    ((), {"k": 1}, "x must have rank >= 1"),
])
def test_shape_errors(shape, attrs, why):
    with pytest.raises(OpError, match=why):
        OP.infer([shape], normalize_attrs(OP, attrs))


def _key(v: float, i: int, largest: bool):
    """The definition's order as a sort key: NaN above every number, then the value, then the index."""
    nan = math.isnan(v)
    value = 0.0 if nan else v + 0.0  # -0.0 + 0.0 == +0.0: the zeros are one value
    return ((-1 if nan else 0, -value) if largest else (1 if nan else 0, value)), i


def topk_loop(x: np.ndarray, k: int, axis: int, largest: bool):
    x = np.moveaxis(x, axis, -1)
    vals, idx = np.empty(x.shape[:-1] + (k,), x.dtype), np.empty(x.shape[:-1] + (k,), np.int64)
    for pos in np.ndindex(*x.shape[:-1]):
        row = [float(v) for v in x[pos]]
        order = sorted(range(len(row)), key=lambda i: _key(row[i], i, largest))[:k]
        idx[pos] = order
        vals[pos] = x[pos][order]
    return np.moveaxis(vals, -1, axis), np.moveaxis(idx, -1, axis)


def _ties(shape, dtype, rng):
    """Few distinct values (many ties), and for floats NaN, +-inf, +-0.0 among them."""
    x = rng.integers(-3, 4, size=shape).astype(np.float32)
    if dtype in ("f32", "f16", "bf16"):
        flat = x.reshape(-1)
        picks = rng.choice(flat.size, size=min(flat.size, 12), replace=False)
        flat[picks] = [np.nan, np.inf, -np.inf, -0.0, 0.0, np.nan, -0.0, np.inf, 2.0, -np.inf, np.nan, -0.0][: len(picks)]
    return x.astype(numpy_dtype(dtype))


CASES = [("f32", (6, 11), 4, -1), ("f32", (3, 7, 5), 7, 1), ("f16", (5, 9), 3, 0), ("bf16", (4, 16), 5, 1),
         ("i8", (5, 9), 9, 1), ("i32", (2, 3, 8), 2, 2), ("i64", (10,), 6, 0)]


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("dt, shape, k, axis", CASES)
def test_oracle_is_the_definitions_order(dt, shape, k, axis, largest):
    x = _ties(shape, dt, np.random.default_rng(k * 10 + axis))
    want_v, want_i = topk_loop(x, k, axis % len(shape), largest)
    attrs = normalize_attrs(OP, {"k": k, "axis": axis, "largest": largest})
    assert_same(np.asarray(OP.evaluate([x], attrs, dt)), want_v, "values")
    assert_same(np.asarray(OP.evaluate([x], {**attrs, "output": "indices"}, dt)), want_i, "indices")


HOST = [make_instance("topk", dt, [shape], {"k": k, "axis": axis, "largest": largest, "output": out,
                                            "index_dtype": "i32" if dt == "bf16" else "i64"})
        for dt, shape, k, axis in CASES for largest in (True, False) for out in ("values", "indices")]


@pytest.fixture(scope="module")
def compiled():
    return compile_kernels(HOST)


@pytest.mark.parametrize("inst", HOST, ids=lambda i: i.id)
def test_host_kernel_is_bit_exact(inst, compiled):
    x = _ties(inst.inputs[0].shape, inst.dtype, np.random.default_rng(int(inst.key[:8], 16)))
    want = np.asarray(OP.evaluate([x], inst.attrs, inst.dtype))
    assert_same(np.asarray(compiled[inst.key](x)), want.astype(numpy_dtype(inst.output.dtype)), inst.id)


def test_k_zero_is_an_empty_output():
    inst = make_instance("topk", "f32", [(4, 3)], {"k": 0})
    assert inst.output.shape == (4, 0) and inst.empty
    assert OP.evaluate([np.ones((4, 3), np.float32)], inst.attrs, "f32").shape == (4, 0)


def test_sorted_false_gives_the_sorted_order():
    x = np.array([[1.0, 9.0, 3.0, 7.0]], np.float32)
    a = normalize_attrs(OP, {"k": 3})
    assert np.array_equal(OP.evaluate([x], {**a, "sorted": False}, "f32"), OP.evaluate([x], a, "f32"))


def test_emitted_text_is_standard_dialects():
    for inst in HOST[::6]:
        assert_standard_dialects(host_emitters.emit(inst), inst.id)


def test_xdna_refuses_with_the_reason():
    attrs = normalize_attrs(OP, {"k": 8, "output": "indices", "index_dtype": "i32"})
    why = targets.get("xdna").supports("topk", [(16, 1024)], "bf16", attrs)
    assert why.startswith("no NPU design for this op yet (k selection passes")
    assert targets.get("host").supports("topk", [(16, 1024)], "bf16", attrs) is None
