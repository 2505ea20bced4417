"""resize end to end: attrs and the output size rule, host kernels against the oracle for every
coordinate transformation mode and nearest mode (nearest bit-exact, linear within the bound of
npubuild/emitters/host/resize.py), the index tables in the emitted text, and the refusal on xdna.

The values of ONNX's backend tests (test_resize_*: upsample and downsample, nearest and linear,
align_corners, pytorch_half_pixel, half_pixel_symmetric) and the nearest modes worked out from the
formulas are hand cases in tests/test_oracles.py.
"""
from __future__ import annotations

import numpy as np
import pytest

from npubuild import ops, targets
from npubuild.core.constants import numpy_dtype
from npubuild.core.errors import OpError, UnsupportedOnTarget
from npubuild.emitters import host as host_emitters
from npubuild.ops.registry import AttrError, normalize_attrs
from npubuild.ops.resize import COORDINATE_MODES, NEAREST_MODES
from npubuild.specfile.instances import make_instance

from .hostkit import assert_standard_dialects, compile_kernels
from .test_host_select_movement import assert_same

OP = ops.REGISTRY["resize"]


@pytest.mark.parametrize("attrs, why", [
    ({"scales": [1.0, 0.0]}, "'scales' of 'resize' must be positive finite numbers"),
    ({"scales": [1.0, "inf"]}, "must be positive finite"),
    ({"sizes": [2, 0]}, "'sizes' of 'resize' must be at least 1"),
    ({"coordinate_transformation_mode": "tf_crop_and_resize"}, "must be one of half_pixel"),
    ({"mode": "cubic"}, "must be one of nearest, linear"),
])
def test_bad_attrs(attrs, why):
    with pytest.raises(AttrError, match=why):
        normalize_attrs(OP, attrs)


@pytest.mark.parametrize("attrs, why", [
    ({}, "give exactly one of scales and sizes \\(neither is\\)"),
    ({"scales": [2, 2], "sizes": [4, 4]}, "\\(both are given\\)"),
    ({"scales": [2]}, r"scales \[2.0\] needs one entry per axis of x \[3, 4\]"),
    ({"scales": [1, 0.2]}, r"scale 0.2\d* leaves no element of an axis of 4"),
])
def test_shape_errors(attrs, why):
    with pytest.raises(OpError, match=why):
        OP.infer([(3, 4)], normalize_attrs(OP, attrs))


def test_output_size_is_the_floor_of_the_f32_scale():
    # 0.6 as an f32 is 0.60000002384...: 5 * 0.6000000238 = 3.0000001 -> 3; 7 * 2.3 (f32 2.2999999523) = 16.0999997 -> 16
    assert OP.infer([(5, 7)], normalize_attrs(OP, {"scales": [0.6, 2.3]})) == (3, 16)
    assert OP.infer([(5, 7)], normalize_attrs(OP, {"sizes": [1, 30]})) == (1, 30)


# ---- host kernels ------------------------------------------------------------------------------------


def _cases():
    out = []
    for ctm in COORDINATE_MODES:
        out.append(make_instance("resize", "f32", [(1, 2, 5, 7)], {"scales": [1, 1, 2.3, 0.6], "mode": "linear",
                                                                  "coordinate_transformation_mode": ctm}))
        out.append(make_instance("resize", "f32", [(2, 6, 5)], {"sizes": [2, 1, 11], "mode": "linear",
                                                               "coordinate_transformation_mode": ctm}))
        for nm in NEAREST_MODES:
            out.append(make_instance("resize", "f32", [(3, 9)], {"sizes": [7, 20], "nearest_mode": nm,
                                                                "coordinate_transformation_mode": ctm}))
    for dt in ("f16", "bf16"):
        out.append(make_instance("resize", dt, [(3, 4, 6)], {"sizes": [5, 4, 13], "mode": "linear"}))
        out.append(make_instance("resize", dt, [(3, 4, 6)], {"scales": [0.5, 1.0, 3.0]}))
    return out


HOST = _cases()


@pytest.fixture(scope="module")
def compiled():
    return compile_kernels(HOST)


@pytest.mark.parametrize("inst", HOST, ids=lambda i: i.id)
def test_host_kernel_matches_the_oracle(inst, compiled):
    rng = np.random.default_rng(int(inst.key[:8], 16))
    x = (rng.standard_normal(inst.inputs[0].shape) * 4).astype(np.float32).astype(numpy_dtype(inst.dtype))
    got = np.asarray(compiled[inst.key](x))
    want = np.asarray(OP.evaluate([x], inst.attrs, inst.dtype))
    if inst.attrs["mode"] == "nearest":
        assert_same(got, want, inst.id)
        return
    assert got.dtype == want.dtype and got.shape == want.shape
    k = sum(1 for i, o in zip(inst.inputs[0].shape, inst.output.shape) if i != o)
    # the kernel's f32 result and the oracle's float64 one each round once to the dtype: up to one ulp apart
    ulp = {"f32": 2.0**-23, "f16": 2.0**-10, "bf16": 2.0**-7}[inst.dtype]
    bound = 4 * k * 2.0**-24 * np.abs(x.astype(np.float64)).max() + ulp * np.abs(want.astype(np.float64))
    assert (np.abs(got.astype(np.float64) - want.astype(np.float64)) <= bound).all(), inst.id


def test_on_sample_outputs_ignore_their_neighbour(compiled):
    """Upsampling by 2 with align_corners puts every other output on an input sample: an inf next to
    it stays out of that output (the oracle and the kernel take the sample, not 0 * inf)."""
    inst = make_instance("resize", "f32", [(5,)], {"sizes": [9], "mode": "linear",
                                                   "coordinate_transformation_mode": "align_corners"})
    k = compile_kernels([inst])[inst.key]
    x = np.array([1.0, np.inf, 3.0, 4.0, 5.0], np.float32)
    want = np.array([1.0, np.inf, np.inf, np.inf, 3.0, 3.5, 4.0, 4.5, 5.0], np.float32)
    assert_same(np.asarray(OP.evaluate([x], inst.attrs, "f32")), want, "oracle")
    assert_same(k(x), want, "host")


def test_tables_are_module_constants_and_no_function_body():
    inst = HOST[0]
    text = host_emitters.emit(inst)
    assert_standard_dialects(text, inst.id)
    assert 'memref.global "private" constant @table0 : memref<11xi32>' in text  # 2.3 * 5 -> 11 rows
    assert "memref.get_global @table0" in text
    with pytest.raises(UnsupportedOnTarget, match="not a single kernel function"):
        host_emitters.kernel_function(inst)


def test_xdna_refuses_with_the_reason():
    attrs = normalize_attrs(OP, {"scales": [1, 1, 2, 2]})
    why = targets.get("xdna").supports("resize", [(1, 8, 16, 16)], "bf16", attrs)
    assert why.startswith("no NPU design for this op yet (")
    assert targets.get("host").supports("resize", [(1, 8, 16, 16)], "bf16", attrs) is None
