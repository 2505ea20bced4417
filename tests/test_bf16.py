"""bf16 (``ml_dtypes.bfloat16``) end to end on the host: every op that takes bf16
compiles to a kernel.so without libgcc's bf16 helpers, and its results are the
oracle's (npubuild/ops/bf16.py: widen to f32, compute in f32, round once).

Comparison (``assert_close``):

* exact ops (``EXACT``: + - * /, max/min/relu, neg/abs, compares, where, clamp,
  fma, mod, rounding, casts, data movement, max/min reductions, arg-max/min)
  are bit-identical to the oracle; NaN positions must agree (a kernel's NaN is
  ``arith.truncf``'s canonical 0x7FC0, the oracle's keeps the sign), and of
  max/min/relu the sign of a zero may differ (test_host_target's rule);
* every other op is within **1 bf16 ulp** (adjacent bit patterns; +0 and -0
  are one value). Why: kernel and oracle compute the same f32 function, each to
  within a few f32 ulps (polynomial transcendentals: docs/kernels.md; sums in a
  different order or in float64), and then round once to bf16, whose ulp is
  2**16 f32 ulps. Two f32 values that close round to the same bf16 value or to
  neighbours; a result two bf16 ulps off means the f32 results differ by more
  than 2**16 f32 ulps, a bug. The inputs keep transcendentals away from their
  ill-conditioned ranges (|x| <= 8: sin/cos of large arguments lose absolute
  accuracy, which a relative bound cannot describe). Near zero results the
  bound is absolute, ``ABS_FLOOR`` = 2**-20: the f32 formulas cancel (gelu's
  ``1 + tanh``, ``x - mean``) with an error of a few f32 ulps of their O(1)
  intermediates, 8 * 2**-23 = 2**-20 for |x| <= 8, so a result far below that
  is noise in either computation.
"""
from __future__ import annotations

import subprocess

import ml_dtypes
import numpy as np
import pytest

from npubuild import ops
from npubuild.emitters import host as emitters
from npubuild.core.errors import UserError
from npubuild.runner.ref import run_oracle
from npubuild.specfile.instances import make_instance
from npubuild.toolchain import host as toolchain
from tests.hostkit import compile_kernels

BF16 = np.dtype(ml_dtypes.bfloat16)
LIBGCC_BF16 = ("__truncsfbf2", "__extendbfsf2")
ABS_FLOOR = 2.0**-20

# (op, shapes, attrs): one small instance of every op that takes bf16
CASES = [
    ("relu", [(4, 7)], {}), ("neg", [(4, 7)], {}), ("abs", [(4, 7)], {}),
    ("add", [(4, 7), (7,)], {}), ("sub", [(4, 7), (4, 7)], {}), ("mul", [(4, 7), (4, 7)], {}),
    ("div", [(4, 7), (4, 7)], {}), ("max", [(4, 7), (4, 7)], {}), ("min", [(4, 7), (4, 7)], {}),
    ("mod", [(4, 7), (4, 7)], {}), ("mod", [(4, 7), (4, 7)], {"fmod": True}), ("pow", [(4, 7), (4, 7)], {}),
    ("eq", [(4, 7), (4, 7)], {}), ("ne", [(4, 7), (4, 7)], {}), ("lt", [(4, 7), (4, 7)], {}),
    ("le", [(4, 7), (4, 7)], {}), ("gt", [(4, 7), (4, 7)], {}), ("ge", [(4, 7), (4, 7)], {}),
    ("where", [(4, 7), (4, 7), (4, 7)], {}), ("fma", [(4, 7), (4, 7), (4, 7)], {}),
    ("clamp", [(4, 7)], {"min": -1.3, "max": 2.7}),
    ("floor", [(4, 7)], {}), ("ceil", [(4, 7)], {}), ("round", [(4, 7)], {}), ("sign", [(4, 7)], {}),
    ("recip", [(4, 7)], {}), ("sqrt", [(4, 7)], {}), ("rsqrt", [(4, 7)], {}), ("log", [(4, 7)], {}),
    ("exp", [(4, 7)], {}), ("tanh", [(4, 7)], {}), ("sigmoid", [(4, 7)], {}), ("silu", [(4, 7)], {}),
    ("gelu", [(4, 7)], {"approximate": "tanh"}), ("gelu", [(4, 7)], {}), ("erf", [(4, 7)], {}),
    ("softplus", [(4, 7)], {}), ("elu", [(4, 7)], {}), ("leaky_relu", [(4, 7)], {}), ("hard_sigmoid", [(4, 7)], {}),
    ("hard_swish", [(4, 7)], {}), ("mish", [(4, 7)], {}), ("softsign", [(4, 7)], {}),
    ("log_sigmoid", [(4, 7)], {}), ("sin", [(4, 7)], {}), ("cos", [(4, 7)], {}),
    ("reduce_sum", [(4, 7)], {}), ("reduce_mean", [(4, 7)], {"axes": []}), ("reduce_prod", [(4, 7)], {}),
    ("reduce_max", [(4, 7)], {}), ("reduce_min", [(4, 7)], {"axes": [0]}),
    ("cumsum", [(4, 7)], {}), ("cumprod", [(4, 7)], {}), ("cummax", [(4, 7)], {}),
    ("argmax", [(4, 7)], {}), ("argmin", [(4, 7)], {"index_dtype": "i32"}),
    ("softmax", [(3, 16)], {}), ("rms_norm", [(3, 16), (16,)], {}), ("layer_norm", [(3, 16), (16,), (16,)], {}),
    ("group_norm", [(1, 4, 3), (4,), (4,)], {"num_groups": 2}),
    ("matmul", [(3, 8), (8, 5)], {}),
    ("rope", [(4, 8), (4, 2), (4, 2)], {"head_dim": 4}),
    ("attention", [(4, 8), (4, 8), (4, 8)], {"num_heads": 2, "head_dim": 4, "mask": "causal"}),
    ("attention", [(2, 8), (2, 4), (2, 4), (2, 5), (3, 4), (3, 4)],
     {"num_heads": 2, "head_dim": 4, "kv_num_heads": 1, "mask_kind": "additive", "softcap": 4.0}),
    ("matmul_nbits", [(2, 32), (3, 2, 8), (3, 2), (3, 1)], {"block_size": 16}),
    ("dequantize_nbits", [(3, 2, 16), (3, 2)], {"bits": 8, "block_size": 16}),
    ("pool", [(1, 2, 4, 4)], {"mode": "max", "kernel_size": [2, 2]}),
    ("pool", [(1, 2, 4, 4)], {"mode": "avg", "kernel_size": [2, 2]}),
    ("im2col", [(1, 2, 4, 4)], {"kernel_size": [2, 2]}),
    ("transpose", [(4, 7)], {}), ("reshape", [(4, 7)], {"shape": [28]}),
    ("pad", [(4, 7)], {"pads": [[1, 1], [0, 2]], "value": 1.1}),
    ("concat", [(4, 7), (2, 7)], {"axis": 0}), ("gather", [(4, 7), (5,)], {}),
    ("tile", [(4, 7)], {"reps": [2, 1]}), ("trilu", [(4, 7)], {}), ("reverse", [(4, 7)], {}),
    ("slice", [(4, 7)], {"axis": 1, "start": 1, "end": 4}), ("narrow", [(4, 7)], {"axis": 1, "start": 1, "length": 2}),
    ("expand", [(4, 1)], {"shape": [4, 3]}), ("stop_gradient", [(4, 7)], {}),
    # a last axis of 16 lanes: the vector body (npubuild/emitters/host/vector.py)
    ("add", [(2, 32), (2, 32)], {}), ("relu", [(2, 32)], {}), ("exp", [(2, 32)], {}),
    # every other bf16 op whose xdna body is vector<16> on npu1 (tests/test_xdna_profile.py BODIES)
    ("sub", [(2, 32), (2, 32)], {}), ("mul", [(2, 32), (2, 32)], {}), ("max", [(2, 32), (2, 32)], {}),
    ("min", [(2, 32), (2, 32)], {}), ("leaky_relu", [(2, 32)], {}), ("hard_sigmoid", [(2, 32)], {}),
    ("sign", [(2, 32)], {}),
]
# casts (op dtype, to): to and from bf16
CASTS = [("bf16", "f32"), ("f32", "bf16"), ("bf16", "f16"), ("f16", "bf16"), ("bf16", "i32"), ("i32", "bf16"),
         ("i64", "bf16"), ("bf16", "i8"), ("i8", "bf16"), ("bf16", "bool"), ("bool", "bf16")]

EXACT = {
    "relu", "neg", "abs", "add", "sub", "mul", "div", "max", "min", "mod", "eq", "ne", "lt", "le", "gt", "ge",
    "where", "fma", "clamp", "leaky_relu", "floor", "ceil", "round", "sign", "recip", "reduce_max", "reduce_min", "cummax",
    "argmax", "argmin", "pool", "im2col", "transpose", "reshape", "pad", "concat", "gather", "tile", "trilu",
    "reverse", "slice", "narrow", "expand", "stop_gradient", "cast",
}
# positive inputs only
POSITIVE = {"sqrt", "rsqrt", "log"}
ZERO_SIGN_FREE = {"max", "min", "relu"}


# the fast suite's representatives (every exact op the issue names, one of each other family);
# the rest run as slow
FAST = {"relu", "neg", "abs", "add", "mul", "max", "div", "eq", "where", "fma", "clamp", "exp", "tanh", "silu",
        "reduce_sum", "reduce_max", "argmax", "softmax", "rms_norm", "matmul", "transpose", "pad", "cast"}


def _instances():
    out = [make_instance(op, "bf16", shapes, attrs) for op, shapes, attrs in CASES]
    out += [make_instance("cast", src, [(64,)], {"to": dst}) for src, dst in CASTS]
    return out


INSTANCES = _instances()
PARAMS = [pytest.param(i, id=i.id, marks=() if i.op in FAST else pytest.mark.slow) for i in INSTANCES]


@pytest.fixture(scope="module")
def compiled(request, tmp_path_factory):
    """Kernels of the selected tests' instances and of every cast, compiled once (in parallel)."""
    chosen = {i.key: i for i in INSTANCES if i.op == "cast"}
    for item in request.session.items:
        inst = getattr(item, "callspec", None) and item.callspec.params.get("inst")
        if inst is not None and item.module is request.module:
            chosen[inst.key] = inst
    kernels = compile_kernels(chosen.values(), tmp_path_factory.mktemp("bf16"))
    yield kernels
    for k in kernels.values():
        k.close()


def _input(t, op: str, rng, to_int: bool = False) -> np.ndarray:
    """Random values for tensor ``t``; ``to_int``: a float -> int cast, whose NaN and
    out-of-range results NumPy leaves to the platform (test_host_select_movement checks
    the kernel's saturation rule), so no special values."""
    if t.dtype == "bool":
        return rng.random(t.shape) < 0.5
    if t.dtype == "u8":
        return rng.integers(0, 256, t.shape).astype(np.uint8)
    if t.dtype in ("i8", "i32", "i64"):
        if op == "gather":
            return rng.integers(0, 4, t.shape).astype(t.dtype.replace("i", "int"))
        return rng.integers(-300, 300, t.shape).astype({"i8": np.int8, "i32": np.int32, "i64": np.int64}[t.dtype])
    x = rng.normal(0.0, 3.0, t.shape)
    if op in POSITIVE:
        x = np.abs(x) + 0.05
    x = np.clip(x, -8.0, 8.0)
    if op in EXACT and not to_int and x.size >= 8:  # special values where the op is exact
        flat = x.reshape(-1)
        for i, v in enumerate((np.nan, np.inf, -np.inf, -0.0, 0.0, 1e30)):
            flat[(i * 5 + 3) % flat.size] = v
    with np.errstate(over="ignore"):  # f16: 1e30 becomes inf
        return x.astype({"f16": np.float16, "f32": np.float32, "bf16": BF16}[t.dtype])


def _ordered(a: np.ndarray) -> np.ndarray:
    """bf16 bit patterns as integers in the order of their values (+0 and -0 both 0)."""
    bits = a.view(np.uint16).astype(np.int32)
    return np.where(bits & 0x8000, -(bits & 0x7FFF), bits)


def assert_close(op: str, got: np.ndarray, want: np.ndarray, exact: bool) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape, want.shape)
    if got.dtype != BF16:  # bool, integers, f32, f16 outputs: exact values (NaN where NaN)
        same = (got == want) | ((got != got) & (want != want))
        assert same.all(), f"{op}: got {got[~same][:5]} want {want[~same][:5]}"
        return
    nan_g, nan_w = np.isnan(got), np.isnan(want)
    assert np.array_equal(nan_g, nan_w), f"{op}: NaN positions differ: got {got[nan_g != nan_w]} want {want[nan_g != nan_w]}"
    if exact:
        ok = (got.view(np.uint16) == want.view(np.uint16)) | nan_g
        if op in ZERO_SIGN_FREE:
            ok |= (got == 0) & (want == 0)
    else:
        near = np.abs(got.astype(np.float64) - want.astype(np.float64)) <= ABS_FLOOR
        ok = (np.abs(_ordered(got) - _ordered(want)) <= 1) | near | nan_g
    assert ok.all(), f"{op}: {(~ok).sum()} outside the bound, e.g. got {got[~ok][:5]} want {want[~ok][:5]}"


@pytest.mark.parametrize("inst", PARAMS)
def test_kernel_matches_oracle(inst, compiled):
    rng = np.random.default_rng(int(inst.key[:8], 16))
    to_int = inst.output.dtype in ("i8", "i32", "i64")
    inputs = [_input(t, inst.op, rng, to_int) for t in inst.inputs]
    with np.errstate(all="ignore"):
        want = run_oracle(inst.op, inputs, inst.attrs, inst.dtype, inst.output.dtype)
    got = compiled[inst.key](*inputs)
    assert_close(inst.op, got, want, inst.op in EXACT)


def test_no_libgcc_bf16_helpers(compiled):
    """arith-expand{include-bf16=true} made every bf16 extf/truncf integer code: no kernel
    imports a helper (the link would fail without libgcc's, but a libgcc that has them
    would hide it)."""
    assert len(compiled) >= len(CASTS)
    for kernel in compiled.values():
        so = kernel.so_path
        undefined = subprocess.run(["nm", "-D", "--undefined-only", str(so)], capture_output=True, text=True, check=True).stdout
        assert not [s for s in LIBGCC_BF16 if s in undefined], (so.name, undefined)


_RAW_BF16_ADD = """module {
  func.func @kernel(%a: memref<4xbf16>, %b: memref<4xbf16>, %out: memref<4xbf16>) {
    %c0 = arith.constant 0 : index
    %x = memref.load %a[%c0] : memref<4xbf16>
    %y = memref.load %b[%c0] : memref<4xbf16>
    %s = arith.addf %x, %y : bf16
    memref.store %s, %out[%c0] : memref<4xbf16>
    return
  }
}
"""


def test_bf16_arithmetic_reaching_llvm_would_need_the_helper(tmp_path):
    """The control for the check above: bf16 arithmetic that reaches LLVM unwidened is
    lowered through __truncsfbf2, which the kernel link refuses. The emitters compute
    the same add in f32 (test_no_bf16_arithmetic_in_any_body)."""
    with pytest.raises(UserError, match="__truncsfbf2"):
        toolchain.compile_shared_library(_RAW_BF16_ADD, tmp_path / "bad.so", tmp_path / "bad.log")
    adds = [ln for ln in emitters.emit(make_instance("add", "bf16", [(4,), (4,)], {})).splitlines() if "arith.addf" in ln]
    assert adds and all(ln.rstrip().endswith(": f32") for ln in adds)


def test_no_bf16_arithmetic_in_any_body():
    """bf16 values only move: load/store, extf/truncf, bitcast (sign bits), select, constants, broadcast
    (rms_norm / layer_norm bring their per-row f32 scalars to the lanes as bf16 pieces), and the vector
    maximumf / minimumf of max, min and relu, which select an operand: arith-expand makes them a compare and a
    select, and LLVM compares bf16 by extending it (no rounding, no __truncsfbf2: their kernels link and run in
    tests/test_vector_bodies.py)."""
    allowed = ("arith.extf", "arith.truncf", "arith.bitcast", "arith.select", "arith.constant", "vector.broadcast",
               "arith.maximumf", "arith.minimumf")
    for inst in INSTANCES:
        for ln in emitters.emit(inst).splitlines():
            s = ln.strip()
            if "bf16" not in s or s.startswith(("//", "func.func")):
                continue
            op = s.split(" = ", 1)[1].split()[0] if s.startswith("%") else s.split()[0]
            assert op in allowed or op.startswith(("memref.", "vector.transfer_")), (inst.id, s)


def test_int_to_bf16_rounds_through_f32_like_the_kernel(compiled):
    """2**24 + 2**16 + 1: f32 rounds it to 2**24 + 2**16 (a bf16 tie), which rounds to even
    2**24; rounding once gives 2**24 + 2**17. The oracle goes through f32, as the kernel."""
    x = np.full(64, 2**24 + 2**16 + 1, np.int32)
    want = run_oracle("cast", [x], {"to": "bf16"}, "i32", "bf16")
    assert float(want[0]) == 2.0**24
    assert float(x.astype(BF16)[0]) == 2.0**24 + 2.0**17  # ml_dtypes rounds an integer once
    got = compiled[make_instance("cast", "i32", [(64,)], {"to": "bf16"}).key](x)
    assert got.view(np.uint16).tolist() == want.view(np.uint16).tolist()


def test_f16_bf16_casts_round_once(compiled):
    """f16 -> bf16: f16's 11 bits do not fit bf16's 8 (one rounding from the exact f32);
    bf16 -> f16: bf16's range does not fit f16's (overflow to inf, underflow to 0)."""
    h = np.array([1 + 2.0**-10, 1 + 3 * 2.0**-9, 65504, -6e-8] + [0.0] * 60, np.float16)
    got = compiled[make_instance("cast", "f16", [(64,)], {"to": "bf16"}).key](h)
    assert got[:3].astype(np.float32).tolist() == [1.0, 1.0078125, 65536.0]
    assert got.view(np.uint16).tolist() == h.astype(np.float32).astype(BF16).view(np.uint16).tolist()
    b = np.array([1e30, -1e-30, 3.0, 70000] + [0.0] * 60, np.float32).astype(BF16)
    got = compiled[make_instance("cast", "bf16", [(64,)], {"to": "f16"}).key](b)
    assert got[:4].tolist() == [np.inf, -0.0, 3.0, np.inf]


def test_oracle_rounds_once_from_f32():
    """The oracle's rule: f32 result, rounded once; reductions accumulate wider than bf16."""
    x = np.array([1.0] + [2.0**-9] * 8, np.float32).astype(BF16)
    y = run_oracle("reduce_sum", [x], {"axes": [-1], "keepdims": False}, "bf16", "bf16")
    assert y.dtype == BF16 and float(y) == 1.015625  # bf16 accumulation would stay at 1.0
    assert float(np.add.reduce(x)) == 1.0
    a = np.array([[1 + 2.0**-7]], np.float32).astype(BF16)
    m = run_oracle("matmul", [a, a], {}, "bf16", "bf16")
    assert m.dtype == BF16 and float(m[0, 0]) == float(np.float32((1 + 2.0**-7) ** 2).astype(BF16))


def test_catalog_takes_bf16_wherever_it_takes_f16():
    for name, op in ops.REGISTRY.items():
        if "f16" in op.dtypes:
            assert "bf16" in op.dtypes, name


def test_ops_catalog_labels_the_xdna_floats():
    """`npubuild ops --json`: f32 on xdna is the soft-float path, bf16 the NPU's float; f16 is refused
    with a pointer to bf16."""
    from npubuild.engine.catalog import ops_catalog as _ops_catalog

    relu = next(o for o in _ops_catalog() if o["name"] == "relu")
    floats = relu["targets"]["xdna"]["floats"]
    assert floats["f32"].startswith("soft-float path") and floats["bf16"].startswith("the NPU's float")
    assert any("use bf16" in r for r in relu["targets"]["xdna"]["restrictions"])
    assert "bf16" in relu["dtypes"]
