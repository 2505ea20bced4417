"""gelu's erf form (approximate: none) on npu1 and npu2: the bf16 lanes polynomial of
npubuild/emitters/host/gelu_lanes.py.

Each device's body is emitted under its aievec profile, compiled on the host with upstream MLIR and run on every
bf16 bit pattern (±0, subnormals, ±inf, NaNs, the clamp points included); its bits must be the NumPy model's
(gelu_lanes.model). The model is held to the documented tolerance against the oracle on every finite bf16."""
from __future__ import annotations

import math

import numpy as np
import pytest

from npubuild import ops
from npubuild.core.constants import numpy_dtype
from npubuild.emitters import aie
from npubuild.emitters import host as emitters
from npubuild.emitters.aie import kernel_library as kl
from npubuild.emitters.aie.rules_check import text_problems
from npubuild.emitters.aie.roofline import count_ops
from npubuild.emitters.host import gelu_lanes, vector
from npubuild.ops.registry import normalize_attrs
from npubuild.runner.host import HostKernel
from npubuild.specfile.instances import make_instance
from npubuild.targets.xdna.rules import problems
from tests.hostkit import compiled_library

BF16 = numpy_dtype("bf16")
EVERY = np.arange(1 << 16, dtype=np.uint16).view(BF16)  # every bf16 bit pattern


def _inst(shape=(64, 1024), dtype="bf16", attrs=None):
    return make_instance("gelu", dtype, [shape], attrs or {})


def _oracle(x):
    op = ops.REGISTRY["gelu"]
    return np.asarray(op.evaluate([x], normalize_attrs(op, {}), "bf16")).astype(np.float64)


@pytest.mark.parametrize("arch", ["aie2", "aie2p"])
def test_each_devices_body_is_the_model_bit_for_bit_on_every_bf16(arch):
    inst = _inst()
    with vector.profile(arch):
        text = emitters.emit(inst)
    assert vector.decision(inst, arch) == {"lanes": 16, "why": ""}
    assert "arith.bitcast" not in text and "fptosi" not in text
    kern = HostKernel(compiled_library(text, f"gelu_erf_{arch}"), inst.describe())
    got = kern(EVERY.reshape(64, 1024)).reshape(-1)
    want = gelu_lanes.model(EVERY, products=arch == "aie2")
    nan = np.isnan(want.astype(np.float32))
    assert np.array_equal(np.isnan(got.astype(np.float32)), nan) and nan.sum() == np.isnan(EVERY.astype(np.float32)).sum()
    assert got[~nan].view(np.uint16).tolist() == want[~nan].view(np.uint16).tolist()


@pytest.mark.parametrize("products", [False, True], ids=["f32", "bf16-products"])
def test_the_model_holds_its_tolerance_on_every_finite_bf16(products):
    x = EVERY[np.isfinite(EVERY.astype(np.float32))]
    y = gelu_lanes.model(x, products).astype(np.float64)
    ref = _oracle(x)
    err = np.abs(y - ref)
    assert (err <= gelu_lanes.ATOL + gelu_lanes.RTOL * np.abs(ref)).all()
    # against the exact gelu (math.erf in float64), before any rounding of the reference
    exact = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x.astype(np.float64)])
    err_exact = np.abs(y - exact)
    assert (err_exact <= gelu_lanes.ATOL + gelu_lanes.EXACT_RTOL * np.abs(exact)).all()
    # the documented shape of the error: within one bf16 ulp of the oracle for x >= -1 ...
    f = x.astype(np.float64)
    ulp = np.spacing(np.abs(ref).astype(np.float32).astype(BF16)).astype(np.float64)
    assert (err[f >= -1] <= ulp[f >= -1]).all()
    # ... the absolute error against the exact gelu largest on [-4, -1], and below -4, where the result is P(-4)
    assert err_exact[(f >= -4) & (f <= -2)].max() < 2.1e-4 and err_exact[(f >= -2) & (f <= -1)].max() < 8e-4
    tail = y[f < -4]
    assert (tail == tail[0]).all() and -1.3e-4 < tail[0] < 0
    # mlir-aie's gelu.cc entry (aie2) is held to rtol 2^-4, atol 2^-5 on [-6, 6]: this is 8x and 128x tighter
    tanh_form = kl.entries("gelu", "aie2")[0].tolerance
    assert gelu_lanes.RTOL * 8 <= tanh_form.rtol and gelu_lanes.ATOL * 128 <= tanh_form.atol


@pytest.mark.parametrize("products", [False, True], ids=["f32", "bf16-products"])
def test_the_bound_holds_where_the_core_truncates_to_bf16(products):
    """The AIE's conversion to bf16 follows the core's rounding mode: with every truncf rounding toward zero
    (the pieces, the rounded Horner steps and the result) both forms stay within the same bound."""
    x = EVERY[np.isfinite(EVERY.astype(np.float32))]
    y = gelu_lanes.model(x, products, truncate=True).astype(np.float64)
    assert np.count_nonzero(y != gelu_lanes.model(x, products).astype(np.float64)) > 1000  # another rounding indeed
    ref = _oracle(x)
    assert (np.abs(y - ref) <= gelu_lanes.ATOL + gelu_lanes.RTOL * np.abs(ref)).all()


@pytest.mark.parametrize("products", [False, True], ids=["f32", "bf16-products"])
def test_special_values(products):
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 4.0, -4.0, 1e38, -1e38, 2.0**-130], np.float32).astype(BF16)
    y = gelu_lanes.model(x, products).astype(np.float32)
    assert np.isnan(y[0]) and y[1] == np.inf
    assert y[2] == y[6] == y[8] and -1.3e-4 < y[2] < 0  # every x <= -4: the polynomial's value at -4
    assert y[3] == 0 and not np.signbit(y[3]) and y[4] == 0 and np.signbit(y[4])
    assert y[7] == np.float32(np.array(1e38, np.float32).astype(BF16))
    assert y[9] == np.float32(2.0**-131)  # 0.5 x, exactly representable


def test_both_devices_take_the_vector_body_and_their_designs_pass_the_rules():
    inst = _inst((64, 4096))
    for dev in ("npu1", "npu2"):
        opts = {"device": dev, "body": "auto"}
        assert text_problems(aie.emit(inst, opts)) == [], dev
        info = aie.body_info(inst, opts)
        assert info["source"] == "generated vector" and info["lanes"] == 16, (dev, info)
        # the manifest's abi.body and list --json say what it computes and within what, as for mlir-aie's kernels
        assert info["tolerance"]["rtol"] == gelu_lanes.RTOL and info["tolerance"]["atol"] == gelu_lanes.ATOL
        assert ("bf16 x bf16" in info["numerics"]) == (dev == "npu1"), info["numerics"]
    tanh = _inst((64, 4096), attrs={"approximate": "tanh"})  # the tanh form keeps mlir-aie's gelu.cc
    assert aie.body_info(tanh, {"device": "npu1", "body": "auto"})["source"] == "mlir-aie kernel"
    generated = aie.body_info(tanh, {"device": "npu1", "body": "generated"})  # the host's scalar body: its numerics
    assert generated["source"] == "scalar" and "tolerance" not in generated


def test_each_device_takes_its_form_and_the_roofline_counts_it():
    """aie2p multiplies f32 lanes (26 vector operations per 16 elements); aie2, whose f32 multiply is a 25-instruction
    emulation, takes the bf16 products form: 85 operations, every multiply a widened bf16 x bf16 product (one
    instruction), where the f32 form would cost 26 + 8 x 24."""
    inst = _inst((1, 16))
    texts = {}
    for arch in ("aie2", "aie2p"):
        with vector.profile(arch):
            texts[arch] = emitters.emit(inst)
    assert count_ops(texts["aie2p"], "aie2p") == {"vector_ops": 26, "softfloat_ops": 0, "scalar_ops": 0}
    assert count_ops(texts["aie2"], "aie2") == {"vector_ops": 85, "softfloat_ops": 0, "scalar_ops": 0}
    assert count_ops(texts["aie2p"], "aie2") == {"vector_ops": 26 + 8 * 24, "softfloat_ops": 0, "scalar_ops": 0}
    assert texts["aie2"].count("arith.mulf") == 19 and texts["aie2p"].count("arith.mulf") == 9


@pytest.mark.parametrize("shape, dtype, attrs, ok", [
    ((64, 4096), "bf16", {}, True),
    ((2, 3, 32), "bf16", {"approximate": "none"}, True),
    ((64, 100), "bf16", {}, False),  # the last axis is no multiple of 16: the host body would be scalar
    ((64, 4096), "f32", {}, False),  # f32 needs more than the polynomial's bf16 accuracy
    ((64, 4096), "f32", {"approximate": "tanh"}, True),
    ((64, 100), "bf16", {"approximate": "tanh"}, True),
])
def test_spec_time_rules_refuse_only_what_the_body_does_not_cover(shape, dtype, attrs, ok):
    attrs = normalize_attrs(ops.REGISTRY["gelu"], attrs)
    got = problems("gelu", [shape], attrs, dtype)
    assert (got == []) == ok, got
    if not ok:
        assert "bf16 with a last axis that is a multiple of 16" in got[0]
