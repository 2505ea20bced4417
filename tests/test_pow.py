"""pow with a tensor exponent end to end: the special cases of C99 pow (Annex F.9.4.4, which ONNX Pow
and numpy.power follow) written out by hand, checked against the oracle and bit-exactly against the
host kernels; exact small-integer powers; random operands within the documented bound of
npubuild/emitters/host/power.py; vector and scalar bodies identical; the xdna design through the
simulator with the body each device gets.
"""
from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from npubuild import ops
from npubuild.emitters import aie
from npubuild.emitters import host as host_emitters
from npubuild.emitters.host import vector
from npubuild.ops.registry import normalize_attrs
from npubuild.specfile.instances import make_instance

from .design_sim import compile_body, run_design
from .hostkit import assert_standard_dialects, compile_kernels
from .test_host_select_movement import assert_same

OP = ops.REGISTRY["pow"]
INF, NAN = math.inf, math.nan

# (x, y, x ** y) from C99 F.9.4.4, one row per rule, and the exact powers the kernel multiplies out
SPECIAL = [
    (NAN, 0.0, 1.0), (NAN, -0.0, 1.0), (-INF, 0.0, 1.0),  # pow(x, ±0) = 1 for any x
    (1.0, NAN, 1.0), (1.0, INF, 1.0), (1.0, -3.5, 1.0),  # pow(+1, y) = 1 for any y
    (NAN, 2.5, NAN), (2.0, NAN, NAN), (-1.0, NAN, NAN),
    (-1.0, INF, 1.0), (-1.0, -INF, 1.0),
    (0.5, -INF, INF), (-0.5, -INF, INF), (2.0, -INF, 0.0), (-2.0, -INF, 0.0),
    (0.5, INF, 0.0), (-0.5, INF, 0.0), (2.0, INF, INF), (-2.0, INF, INF),
    (0.0, -3.0, INF), (-0.0, -3.0, -INF), (-0.0, -2.0, INF), (-0.0, -0.5, INF), (0.0, -INF, INF),
    (0.0, 3.0, 0.0), (-0.0, 3.0, -0.0), (-0.0, 2.0, 0.0), (-0.0, 0.5, 0.0), (-0.0, INF, 0.0),
    (-INF, -3.0, -0.0), (-INF, -2.0, 0.0), (-INF, -0.5, 0.0), (-INF, 3.0, -INF), (-INF, 2.0, INF), (-INF, 0.5, INF),
    (INF, -0.5, 0.0), (INF, 0.5, INF), (INF, -INF, 0.0), (INF, INF, INF),
    (-2.0, 0.5, NAN), (-8.0, 1.0 / 3.0, NAN), (-1.5, -2.5, NAN),  # negative finite base, non-integer exponent
    (-2.0, 3.0, -8.0), (-2.0, 2.0, 4.0), (-2.0, -1.0, -0.5), (-2.0, 2.0**24, INF),
    (2.0, 3.0, 8.0), (3.0, 2.0, 9.0), (2.0, -1.0, 0.5), (5.0, 1.0, 5.0), (4.0, 0.5, 2.0), (2.0, 10.0, 1024.0),
    (1.5, 2.0, 2.25), (-0.5, -3.0, -8.0), (2.0, -149.0, 2.0**-149), (2.0, 128.0, INF),
]


def _special_arrays(dtype):
    x = np.array([r[0] for r in SPECIAL], np.float32)
    y = np.array([r[1] for r in SPECIAL], np.float32)
    want = np.array([r[2] for r in SPECIAL], np.float32)
    return x, y, want


def test_entry():
    assert OP.family == "binary" and OP.inputs == ("x", "y") and OP.dtypes == ("f32", "f16", "bf16")
    assert OP.infer([(4, 1, 3), (2, 1)], normalize_attrs(OP, {})) == (4, 2, 3)


def test_oracle_follows_c99():
    x, y, want = _special_arrays("f32")
    got = OP.evaluate([x, y], {}, "f32")
    assert_same(np.asarray(got), want, "oracle")


SHAPES = [(len(SPECIAL),), (len(SPECIAL),)]
HOST = [make_instance("pow", "f32", SHAPES, {}),
        make_instance("pow", "f32", [(8, 64), (64,)], {}),  # vector body, broadcast exponent
        make_instance("pow", "f32", [(4096,), (4096,)], {}),
        make_instance("pow", "f16", [(4096,), (4096,)], {}),
        make_instance("pow", "bf16", [(4096,), (4096,)], {}),
        make_instance("pow", "bf16", [(7, 1), (1, 5)], {})]


@pytest.fixture(scope="module")
def compiled():
    return compile_kernels(HOST)


def test_host_special_cases_are_bit_exact(compiled):
    x, y, want = _special_arrays("f32")
    assert_same(compiled[HOST[0].key](x, y), want, "host")


def _operands(shape_x, shape_y, dtype, rng):
    npdt = ml_dtypes.bfloat16 if dtype == "bf16" else np.dtype({"f32": np.float32, "f16": np.float16}[dtype])
    x = (np.abs(rng.standard_normal(shape_x)) * 4).astype(np.float32)
    x[..., ::5] *= -1  # negative bases: NaN unless the exponent is an integer
    y = (rng.standard_normal(shape_y) * 6).astype(np.float32)
    y[..., ::3] = np.round(y[..., ::3])
    return x.astype(npdt), y.astype(npdt)


@pytest.mark.parametrize("inst", HOST[1:], ids=lambda i: i.id)
def test_host_within_the_documented_bound(inst, compiled):
    rng = np.random.default_rng(int(inst.key[:8], 16))
    x, y = _operands(inst.inputs[0].shape, inst.inputs[1].shape, inst.dtype, rng)
    got = np.asarray(compiled[inst.key](x, y))
    want = np.asarray(OP.evaluate([x, y], {}, inst.dtype))
    assert got.dtype == want.dtype and got.shape == want.shape
    g, w = got.astype(np.float64), want.astype(np.float64)
    assert np.array_equal(np.isnan(g), np.isnan(w)) and np.array_equal(np.isinf(g), np.isinf(w))
    fin = np.isfinite(w)
    if inst.dtype == "f32":
        with np.errstate(divide="ignore", invalid="ignore"):
            xb, yb = np.broadcast_arrays(x.astype(np.float64), y.astype(np.float64))
            p = np.nan_to_num(np.abs(yb * np.log(np.abs(xb))), posinf=0.0)
        bound = (p + 4) * 2.0**-23 * np.abs(w) + 2.0**-149
    else:  # computed in f32, rounded once: one ulp of the dtype
        eps = 2.0**-10 if inst.dtype == "f16" else 2.0**-7
        tiny = 2.0**-24 if inst.dtype == "f16" else 2.0**-133
        bound = eps * np.abs(w) + tiny
    with np.errstate(invalid="ignore"):  # inf - inf where both are inf: those are left out by fin
        err = np.abs(g - w)
    assert (err[fin] <= bound[fin]).all(), inst.id


def _on_the_baseline(kern, monkeypatch):
    """``kern`` reloaded at the baseline ISA level, which fuses no multiply-add: the level whose vector body matches the
    scalar body (and a core's) bit for bit; the wider levels fuse pow's exp/log polynomials (tests/test_host_isa.py holds
    them to the error bound)."""
    from npubuild.core import host_isa

    kern.close()  # the level is picked when the library is loaded
    monkeypatch.setenv(host_isa.ENV, host_isa.levels()[0].name)
    return kern


def test_vector_body_is_the_scalar_body(compiled, monkeypatch):
    inst = HOST[1]
    vec_text = host_emitters.emit(inst)
    assert "vector<16xf32>" in vec_text
    with vector.profile("scalar"):
        scalar = make_instance("pow", "f32", [(8, 64), (64,)], {})
        scalar_text = host_emitters.emit(scalar)
    assert "vector<" not in scalar_text
    assert_standard_dialects(vec_text) and assert_standard_dialects(scalar_text)
    from .hostkit import compiled_library
    from npubuild.runner.host import HostKernel

    k = HostKernel(compiled_library(scalar_text, "pow_scalar"), scalar.describe())
    x, y = _operands((8, 64), (64,), "f32", np.random.default_rng(5))
    assert_same(_on_the_baseline(compiled[inst.key], monkeypatch)(x, y), k(x, y), "vector vs scalar")
    compiled[inst.key].close()


@pytest.mark.parametrize("device", ["npu1", "npu2"])
def test_xdna_design_matches_the_host_kernel(device, compiled, tmp_path, monkeypatch):
    inst = make_instance("pow", "f32", [(4096,), (4096,)], {})
    design = aie.design_for(inst, {"device": device})
    body = compile_body(aie.emit(inst, {"device": device}), design.body, tmp_path)
    x, y = _operands((4096,), (4096,), "f32", np.random.default_rng(9))
    got = np.asarray(run_design(design, {"x": x, "y": y}, body)).reshape(4096)
    assert_same(got, _on_the_baseline(compiled[HOST[2].key], monkeypatch)(x, y), device)
    compiled[HOST[2].key].close()
    assert aie.body_info(inst, {"device": device})["lanes"] == "scalar"  # bit casts: aievec lowers none
