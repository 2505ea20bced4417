"""leaky_relu end to end: catalog entry and attr check, oracle (hand-computed values), host kernels
(bit-exact against the oracle for f32, f16 and bf16, vector and scalar bodies), and the xdna designs
(run through tests/design_sim.py, vector bodies on npu1, scalar on npu2).

The expected values of the oracle cases are worked out with plain Python (``struct`` rounding to f32,
f16 and bf16), never with the NumPy expression the oracle uses.
"""
from __future__ import annotations

import math
import struct
import textwrap

import ml_dtypes
import numpy as np
import pytest

from npubuild import ops, targets
from npubuild.emitters import aie
from npubuild.emitters import host as host_emitters
from npubuild.emitters.host import vector
from npubuild.core.errors import SpecError
from npubuild.emitters.aie.devices import XDNA_F16_TEXT
from npubuild.ops.registry import AttrError, normalize_attrs
from npubuild.specfile.instances import make_instance

from .design_sim import compile_body, run_design
from .hostkit import assert_standard_dialects, compile_kernels

OP = ops.REGISTRY["leaky_relu"]
BF16 = np.dtype(ml_dtypes.bfloat16)
NP = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16), "bf16": BF16}
UINT = {"f32": np.uint32, "f16": np.uint16, "bf16": np.uint16}
INF, NAN = math.inf, math.nan


# ---- plain-Python rounding (independent of NumPy and of the oracle) ----------------------------


def f32(v: float) -> float:
    if math.isnan(v):
        return v
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:  # beyond the largest f32 once rounded
        return math.copysign(INF, v)


def f16(v: float) -> float:
    return struct.unpack("<e", struct.pack("<e", v))[0]


def bf16(v: float) -> float:
    """v (an f32 value) rounded to bf16, nearest even, by its bit pattern."""
    if math.isnan(v):
        return v
    bits = struct.unpack("<I", struct.pack("<f", v))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def leaky(x: float, alpha: float) -> float:
    """The definition: x > 0 ? x : f32(alpha) * x, the product rounded to f32."""
    return x if x > 0 else f32(f32(alpha) * x)


def _bits_equal(got: np.ndarray, want: np.ndarray, dt: str) -> np.ndarray:
    """Bit-identical, or NaN in both (a kernel's NaN payload may differ from NumPy's)."""
    got, want = np.asarray(got), np.asarray(want)
    return (got.view(UINT[dt]) == want.view(UINT[dt])) | (np.isnan(got.astype(np.float32)) & np.isnan(want.astype(np.float32)))


# ---- the catalog entry -----------------------------------------------------------------------


def test_catalog_entry():
    assert OP.family == "unary" and OP.inputs == ("x",) and OP.dtypes == ("f32", "f16", "bf16")
    assert normalize_attrs(OP, {}) == {"alpha": 0.01}
    assert normalize_attrs(OP, {"alpha": -2}) == {"alpha": -2.0}  # PyTorch takes any slope
    assert OP.infer([(2, 3, 5)], {"alpha": 0.01}) == (2, 3, 5)
    assert make_instance("leaky_relu", "f32", [(4, 8)], None).id == "leaky_relu_f32_4x8"
    assert make_instance("leaky_relu", "f32", [(4, 8)], {"alpha": 0.2}).id == "leaky_relu_f32_4x8_alpha-0.2"


@pytest.mark.parametrize("alpha", [INF, "-inf", "nan", 1e39])
def test_alpha_must_be_a_finite_f32(alpha):
    with pytest.raises(AttrError, match=r"attr 'alpha' of 'leaky_relu' must be a finite number of at most 3.4e38") as e:
        normalize_attrs(OP, {"alpha": alpha})
    assert e.value.attr == "alpha"


def test_bad_alpha_is_one_error_at_its_spec_line(tmp_path):
    """One diagnostic per bad value, at the attr's line (not one per shape), for a kernel family and a graph node."""
    from npubuild.specfile.load import load_specs

    k = tmp_path / "specs" / "kernels" / "k.yaml"
    k.parent.mkdir(parents=True)
    k.write_text(textwrap.dedent("""\
        kernels:
          act:
            op: leaky_relu
            attrs: {alpha: .inf}
            shapes:
              - [64]
              - [8, 32]
        """))
    g = tmp_path / "specs" / "graphs" / "g.yaml"
    g.parent.mkdir(parents=True)
    g.write_text(textwrap.dedent("""\
        graphs:
          g:
            inputs: {x: {shape: [8, 256]}}
            nodes:
              h: {op: leaky_relu, inputs: [x], attrs: {alpha: .nan}}
            outputs: [h]
        """))
    with pytest.raises(SpecError) as e:
        load_specs(tmp_path / "specs", tmp_path)
    why = "must be a finite number of at most 3.4e38 in magnitude (an f32), got"
    assert sorted(str(d) for d in e.value.diagnostics) == [
        f"specs/graphs/g.yaml:5: node 'h' of graph 'g': attr 'alpha' of 'leaky_relu' {why} nan",
        f"specs/kernels/k.yaml:4: kernel family 'act': attr 'alpha' of 'leaky_relu' {why} inf",
    ]


def test_ops_command_record():
    from npubuild.engine.catalog import describe_op, ops_catalog

    rec = next(o for o in ops_catalog() if o["name"] == "leaky_relu")
    assert rec["attrs"] == [{"name": "alpha", "type": "float", "default": 0.01, "doc": OP.attrs[0].doc}]
    assert rec["targets"]["host"]["status"] == "emitted" and rec["targets"]["xdna"]["status"] == "emitted"
    assert rec["targets"]["xdna"]["design"].startswith("flat")
    assert any("no f16 tensors" in r for r in rec["targets"]["xdna"]["restrictions"])
    text = "\n".join(describe_op(rec))
    assert text.startswith("leaky_relu (unary): x if x > 0 else alpha * x")
    assert 'alpha (float, default 0.01)' in text


# ---- the oracle ----------------------------------------------------------------------------------

X = [-2.0, -0.5, -0.0, 0.0, 1.5, 3.0e38, -3.0e38, INF, -INF, NAN]


@pytest.mark.parametrize("alpha", [0.01, 0.2, 0.0, -0.5, 1.0, 7.0])
def test_oracle_f32(alpha):
    with np.errstate(all="ignore"):  # 0 * -inf, 7 * -3e38
        y = OP.evaluate([np.array(X, np.float32)], {"alpha": alpha}, "f32")
    assert y.dtype == np.float32 and y.shape == (len(X),)
    want = np.array([leaky(f32(v), alpha) for v in X], np.float32)
    assert _bits_equal(y, want, "f32").all(), (y, want)


def test_oracle_signs_of_zero_and_specials():
    y = OP.evaluate([np.array([-0.0, 0.0, -INF, INF, NAN], np.float32)], {"alpha": 0.01}, "f32")
    assert math.copysign(1, y[0]) == -1 and math.copysign(1, y[1]) == 1  # 0.01 * -0.0 = -0.0; +0.0 is 0.01 * +0.0
    assert y[2] == -INF and y[3] == INF and math.isnan(y[4])
    # a negative slope turns +0.0 into -0.0: PyTorch's x > 0 ? x : alpha * x (ONNX's x >= 0 would keep +0.0)
    y = OP.evaluate([np.array([0.0, -2.0], np.float32)], {"alpha": -0.5}, "f32")
    assert math.copysign(1, y[0]) == -1 and y[1] == 1.0
    with np.errstate(all="ignore"):
        # alpha = 7: the product overflows to -inf in f32; alpha = 0 at -inf: 0 * -inf is NaN, as in PyTorch
        assert OP.evaluate([np.array([-1e38], np.float32)], {"alpha": 7.0}, "f32")[0] == -INF
        assert math.isnan(OP.evaluate([np.array([-INF], np.float32)], {"alpha": 0.0}, "f32")[0])


def test_oracle_bf16_rounds_the_f32_product_once():
    xs = [-3.0, -1.0 - 2.0**-7, -255.0, 2.0**-7 + 1.0, -0.0]
    y = OP.evaluate([np.array(xs, np.float32).astype(BF16)], {"alpha": 0.01}, "bf16")
    assert y.dtype == BF16
    want = [bf16(leaky(v, 0.01)) for v in xs]
    assert [float(v) for v in y.astype(np.float32)] == want
    assert math.copysign(1, float(y[-1])) == -1


def test_oracle_f16_is_computed_in_f32():
    """f16 x f32(alpha) in f32, rounded once to f16: -5 * 0.01 gives f16(-0.05) = -0.04998779296875,
    where NumPy's own f16 arithmetic (alpha rounded to f16 first, 0.010002) would give -0.050018310546875."""
    y = OP.evaluate([np.array([-5.0, -3.0, 2.5], np.float16)], {"alpha": 0.01}, "f16")
    assert y.dtype == np.float16
    assert y.tolist() == [f16(leaky(-5.0, 0.01)), f16(leaky(-3.0, 0.01)), 2.5]
    assert float(y[0]) == f16(-0.05) == -0.04998779296875
    assert float(np.float16(0.01) * np.float16(-5.0)) == -0.050018310546875


# ---- host kernels --------------------------------------------------------------------------------

N16 = 1 << 16
# (dtype, shape, alpha): vector bodies (last axis a multiple of 16), scalar ones (7, rank 0), every
# 16-bit pattern of f16 and bf16, and slopes of both signs
HOST_CASES = [
    ("f32", (64, 1024), 0.01), ("f32", (3, 7), 0.01), ("f32", (), 0.01), ("f32", (4, 32), -0.5),
    ("f32", (2, 48), 0.0), ("f32", (16,), 7.0),
    ("f16", (N16,), 0.01), ("f16", (5, 7), 0.2),
    ("bf16", (N16,), 0.01), ("bf16", (N16,), 0.3), ("bf16", (3, 7), 0.01),
]


def _host_inst(dt, shape, alpha):
    return make_instance("leaky_relu", dt, [shape], {"alpha": alpha})


@pytest.fixture(scope="module")
def host_kernels(tmp_path_factory):
    insts = [_host_inst(*c) for c in HOST_CASES]
    compiled = compile_kernels(insts, tmp_path_factory.mktemp("leaky_relu"))
    yield {c: compiled[i.key] for c, i in zip(HOST_CASES, insts)}
    for k in compiled.values():
        k.close()


def _input(dt, shape, rng):
    n = math.prod(shape)
    if dt != "f32" and n == N16:  # every bit pattern
        return np.arange(N16, dtype=np.uint32).astype(np.uint16).view(NP[dt]).reshape(shape)
    x = rng.standard_normal(n) * rng.choice([1e-3, 1.0, 1e4], n)
    with np.errstate(over="ignore"):  # |x| beyond f16's range: inf
        x = x.astype(np.float32)
    specials = np.array([NAN, INF, -INF, -0.0, 0.0, 3.0e38, -3.0e38, 1e-45, -1e-45, -1.17549435e-38], np.float32)
    x[: min(n, specials.size)] = specials[: min(n, specials.size)]
    with np.errstate(over="ignore"):
        return x.astype(NP[dt]).reshape(shape)


@pytest.mark.parametrize("case", HOST_CASES, ids=[f"{dt}-{'x'.join(map(str, s)) or 'scalar'}-a{a}" for dt, s, a in HOST_CASES])
def test_host_kernel_is_the_oracle_bit_for_bit(case, host_kernels):
    dt, shape, alpha = case
    x = _input(dt, shape, np.random.default_rng(len(shape) + int(abs(alpha) * 100)))
    got = host_kernels[case](x)
    with np.errstate(all="ignore"):
        want = np.asarray(OP.evaluate([x], {"alpha": alpha}, dt))
    assert got.dtype == want.dtype and got.shape == want.shape
    ok = _bits_equal(got, want, dt)
    assert ok.all(), f"{(~ok).sum()} differ, e.g. x={x[~ok][:4]} got={got[~ok][:4]} want={want[~ok][:4]}"


def test_host_bodies_vectorize_where_the_last_axis_allows_and_use_standard_dialects():
    for dt, shape, alpha in HOST_CASES:
        inst = _host_inst(dt, shape, alpha)
        text = host_emitters.emit(inst)
        assert_standard_dialects(text, inst.id)
        if dt != "i64":
            assert "f64" not in text, inst.id
        vec = bool(shape) and shape[-1] % 16 == 0
        assert ("vector.transfer_read" in text) == vec, inst.id
        if vec:
            assert f"arith.select" in text and "vector<16xi1>, vector<16xf32>" in text, inst.id


def test_vector_body_is_bit_identical_to_the_scalar_body(tmp_path):
    from npubuild.runner.host import HostKernel
    from npubuild.toolchain import host as toolchain

    inst = _host_inst("bf16", (8, 64), 0.01)
    vec = compile_kernels([inst], tmp_path)[inst.key]
    with vector.profile("scalar"):
        scalar_text = host_emitters.emit(inst)
    assert "vector." not in scalar_text
    so = tmp_path / "scalar.so"
    toolchain.compile_shared_library(scalar_text, so, tmp_path / "scalar.log")
    scal = HostKernel(so, inst.describe())
    x = _input("bf16", (8, 64), np.random.default_rng(3))
    assert vec(x).tobytes() == scal(x).tobytes()


# ---- xdna designs --------------------------------------------------------------------------------

XDNA_CASES = [
    ("f32", (32, 1024), 0.01, "npu1"), ("f32", (32, 1024), 0.01, "npu2"),
    ("bf16", (64, 1024), 0.01, "npu1"), ("bf16", (64, 1024), 0.2, "npu2"),
    ("f32", (4099,), 0.01, "npu1"),  # padded to whole chunks
]


@pytest.mark.parametrize("case", XDNA_CASES, ids=[f"{dt}-{'x'.join(map(str, s))}-a{a}@{d}" for dt, s, a, d in XDNA_CASES])
def test_xdna_design_computes_the_oracle(case, tmp_path):
    """The emitted aie.mlir's body, compiled on the host, run through the design's data movement
    (tests/design_sim.py), gives the oracle's bits: the body is the host kernel's arithmetic per chunk."""
    dt, shape, alpha, device = case
    inst = _host_inst(dt, shape, alpha)
    options = {"device": device}
    text = aie.emit(inst, options)
    design = aie.design_for(inst, options)
    body = compile_body(text, design.body, tmp_path)
    x = _input(dt, shape, np.random.default_rng(11))
    got = np.asarray(run_design(design, {"x": x}, body)).reshape(shape)
    with np.errstate(all="ignore"):
        want = np.asarray(OP.evaluate([x], {"alpha": alpha}, dt))
    ok = _bits_equal(got.astype(want.dtype), want, dt)
    assert ok.all(), f"{(~ok).sum()} differ"
    assert design.split.kind == "flat" and len(design.cores) == (16 if device == "npu1" else 32)


def _body_text(aie_text: str) -> str:
    start = aie_text.index("func.func @body(")
    return aie_text[start:aie_text.index("\n  }\n", start)]


@pytest.mark.parametrize("dt", ["f32", "bf16"])
def test_npu1_cores_get_the_vector_body_npu2_cores_the_scalar_one(dt):
    inst = _host_inst(dt, (64, 4096), 0.01)
    npu1 = _body_text(aie.emit(inst, {"device": "npu1"}))
    # each vector op is one convert-vector-to-aievec lowers on aie2 (vector.AIEVEC_OPS: test-cmp.mlir
    # veccmp_f32 "arith.cmpf ogt ... vector<16xf32>", test-sel.mlir, test_mul_elem.mlir, test-trunc-ext.mlir)
    assert "arith.cmpf ogt" in npu1 and "arith.mulf" in npu1
    assert "arith.select" in npu1 and "vector<16xi1>, vector<16xf32>" in npu1
    assert aie.body_info(inst, {"device": "npu1"}) == {"source": "generated vector", "lanes": 16, "why": ""}
    npu2 = _body_text(aie.emit(inst, {"device": "npu2"}))
    assert "vector." not in npu2 and "arith.cmpf ogt" in npu2
    info = aie.body_info(inst, {"device": "npu2"})
    assert info["lanes"] == "scalar" and "cmpf on vector<16xf32>" in info["why"] and "select" in info["why"]


def test_no_mlir_aie_kernel_so_every_body_setting_gives_the_generated_body():
    from npubuild.emitters.aie.summary import op_bodies

    bodies = op_bodies("leaky_relu", ["f32", "bf16"])
    for dev, arch in (("npu1", "aie2"), ("npu2", "aie2p")):
        for dt in ("f32", "bf16"):
            b = bodies[dev][dt]
            assert b["mlir_aie"] == {"kernel": None, "why": f"no mlir-aie kernel for leaky_relu on {arch}"}
            assert b["auto"] == "generated"
    inst = _host_inst("bf16", (64, 4096), 0.01)
    assert aie.emit(inst, {"device": "npu1", "body": "mlir-aie"}) == aie.emit(inst, {"device": "npu1"})


def test_f16_is_refused_on_xdna_with_the_pointer_to_bf16():
    xdna = targets.get("xdna")
    assert xdna.supports("leaky_relu", [(64,)], "f16", {"alpha": 0.01}) == XDNA_F16_TEXT
    assert "use bf16" in XDNA_F16_TEXT
    assert XDNA_F16_TEXT in [r.text for r in xdna.restrictions("leaky_relu")]
    assert xdna.supports("leaky_relu", [(64,)], "bf16", {"alpha": 0.01}) is None
