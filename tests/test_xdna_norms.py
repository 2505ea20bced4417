"""rms_norm and layer_norm as generated vector bodies on npu1 (aie2) and npu2 (aie2p), and what keeps softmax's
generated body on npu1 scalar.

The body (npubuild.emitters.host.vector_rows.emit_norm) is checked bit for bit against a NumPy model of
its own operations: 16 interleaved f32 partial sums folded in lane order, the per-row mean / variance /
rsqrt in scalar f32, each per-row scalar cut into three bf16 pieces (aie2 broadcasts bf16, not f32:
mlir-aie test/Conversion/VectorToAIEVec/test_broadcast.mlir) and applied piece by piece."""
from __future__ import annotations

import re

import numpy as np
import pytest

from npubuild.core.constants import numpy_dtype
from npubuild.emitters import aie
from npubuild.emitters import host as emitters
from npubuild.emitters.aie.rules_check import text_problems
from npubuild.emitters.host import vector
from npubuild.runner.host import HostKernel
from npubuild.specfile.instances import make_instance
from tests.hostkit import compiled_library

F32 = np.float32
BF16 = numpy_dtype("bf16")


def _fold(acc: np.ndarray) -> F32:
    """vector.reduction <add> as the host lowers it: the lanes added in order."""
    s = acc[0]
    for v in acc[1:]:
        s = F32(s + v)
    return s


def _split(s: F32) -> tuple[F32, F32, F32]:
    """(lo, mid, hi): the three bf16 pieces of s, widened back to f32."""
    pieces, rest = [], F32(s)
    for _ in range(3):
        p = F32(np.array(rest, F32).astype(BF16).astype(F32))
        pieces.append(p)
        rest = F32(rest - p)
    return pieces[2], pieces[1], pieces[0]


def _pieces(t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(lo, mid, hi): the lanes t cut into three bf16 pieces, widened back to f32 (the body's _Rows.pieces)."""
    out, rest = [], t
    for k in range(3):
        p = rest.astype(BF16).astype(F32)
        out.append(p)
        if k < 2:
            rest = rest - p
    return out[2], out[1], out[0]


def model(op: str, x: np.ndarray, gamma: np.ndarray, beta: np.ndarray | None, eps: float,
          aie2: bool = False) -> np.ndarray:
    """The body's arithmetic in f32 (x, gamma, beta already widened), before the final rounding. ``aie2``: the
    npu1 body, which brings each per-row scalar to the lanes as three bf16 pieces (aie2 broadcasts no f32) and
    takes t * gamma by t's bf16 pieces (its f32 vector multiply is emulated); the host and aie2p broadcast the
    f32 scalar and multiply once."""
    n = x.shape[-1]
    rows = x.reshape(-1, n)
    out = np.empty_like(rows)

    def lanes(s):
        return _split(s) if aie2 else (s,)

    def minus(v, parts):
        for p in reversed(parts):  # hi first
            v = v - p
        return v

    def times(v, parts):
        if len(parts) == 1:
            return v * parts[0]
        lo, mid, hi = parts
        return (v * lo + v * mid) + v * hi

    with np.errstate(all="ignore"):
        for i, row in enumerate(rows):
            d = row
            if op == "layer_norm":
                acc = np.zeros(16, F32)
                for k in range(0, n, 16):
                    acc = acc + row[k:k + 16]
                d = minus(row, lanes(F32(_fold(acc) / F32(n))))
            acc = np.zeros(16, F32)
            for k in range(0, n, 16):
                acc = acc + d[k:k + 16] * d[k:k + 16]
            r = F32(F32(1.0) / np.sqrt(F32(F32(_fold(acc) / F32(n)) + F32(eps))))
            t = times(d, lanes(r))
            y = times(gamma, _pieces(t)) if aie2 else t * gamma
            out[i] = y + beta if op == "layer_norm" else y
    return out.reshape(x.shape)


def rsqrt_newton(v: F32) -> F32:
    """npubuild.emitters.host.vector_rows.rsqrt_newton_f32 in NumPy f32, operation for operation."""
    v = F32(v)
    if np.isnan(v) or v < 0:
        return F32(np.nan)
    if v == 0:
        return F32(np.inf)
    if np.isinf(v):
        return F32(0.0)
    small = v < F32(2.0**-126)
    xs = F32(v * F32(2.0**24)) if small else v
    half = F32(xs * F32(0.5))
    y = F32((np.uint32(0x5F3759DF) - (np.array(xs, F32).view(np.uint32) >> np.uint32(1))).astype(np.uint32).view(F32))
    for _ in range(3):
        y = F32(y * F32(F32(1.5) - F32(half * F32(y * y))))
    return F32(y * F32(2.0**12 if small else 1.0))


def test_the_newton_rsqrt_is_within_its_documented_bound():
    """vector_rows.rsqrt_newton_f32 (replayed by rsqrt_newton, which the bodies above match bit for bit): within
    2^-22 of 1/sqrt(x) for every positive f32 sampled, normal or subnormal, and the special values."""
    rng = np.random.default_rng(3)
    mant = rng.random(40000) + 1.0
    v = (mant * np.float64(2.0) ** rng.integers(-149, 128, mant.size)).astype(F32)
    v = v[np.isfinite(v) & (v > 0)]
    got = np.array([rsqrt_newton(x) for x in v], np.float64)
    assert np.max(np.abs(got * np.sqrt(v.astype(np.float64)) - 1.0)) < 2.0**-22
    assert rsqrt_newton(F32(0.0)) == np.inf and rsqrt_newton(F32(np.inf)) == 0.0
    assert np.isnan(rsqrt_newton(F32(-1.0))) and np.isnan(rsqrt_newton(F32(np.nan)))


def model_bf16_products(op: str, x: np.ndarray, gamma: np.ndarray, beta: np.ndarray | None, eps: float) -> np.ndarray:
    """The npu1 body of bf16 norms (vector_rows.emit_norm_bf16_products) in f32, before the final rounding: every
    product bf16 x bf16 (exact in f32); d (layer_norm) and the normalised value rounded to bf16; r as a bf16 pair."""
    n = x.shape[-1]
    rows = x.reshape(-1, n)
    out = np.empty_like(rows)

    def bf(v):
        return v.astype(BF16).astype(F32)

    with np.errstate(all="ignore"):
        for i, row in enumerate(rows):
            d = row
            if op == "layer_norm":
                acc = np.zeros(16, F32)
                for k in range(0, n, 16):
                    acc = acc + row[k:k + 16]
                lo, mid, hi = _split(F32(_fold(acc) / F32(n)))
                d = bf(((row - hi) - mid) - lo)
            acc = np.zeros(16, F32)
            for k in range(0, n, 16):
                acc = acc + d[k:k + 16] * d[k:k + 16]
            r = rsqrt_newton(F32(F32(_fold(acc) / F32(n)) + F32(eps)))
            r_hi = F32(np.array(r, F32).astype(BF16).astype(F32))
            r_lo = F32(np.array(F32(r - r_hi), F32).astype(BF16).astype(F32))
            y = bf(d * r_hi + d * r_lo) * gamma
            out[i] = y + beta if op == "layer_norm" else y
    return out.reshape(x.shape)


CASES = [
    ("rms_norm", "bf16", (6, 64), {}),
    ("rms_norm", "f32", (3, 128), {"eps": 1e-3}),
    ("layer_norm", "bf16", (6, 64), {}),
    ("layer_norm", "f32", (2, 3, 32), {}),
    ("layer_norm", "bf16", (2, 1024), {"eps": 1e-6}),
]


def _inst(op, dt, shape, attrs):
    p = (shape[-1],)
    return make_instance(op, dt, [shape, p] + ([p] if op == "layer_norm" else []), attrs)


def _inputs(inst, rng):
    dt = numpy_dtype(inst.dtype)
    x = (rng.standard_normal(inst.inputs[0].shape) * 3 + 5).astype(dt)
    rows = x.reshape(-1, x.shape[-1])
    rows[1, :4] = np.array([1e30, -2.5e-3, 0.0, -0.0], dt)  # a large value: sum of squares near the f32 top
    if rows.shape[0] > 2:
        rows[2, 7] = np.inf
    if rows.shape[0] > 4:
        rows[3, :] = dt.type(0.0)  # rsqrt(eps), d = 0
        rows[4, 3] = np.nan
    p = [(rng.standard_normal(t.shape) * 2).astype(dt) for t in inst.inputs[1:]]
    return [x, *p]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[1]}-{'x'.join(map(str, c[2]))}" for c in CASES])
def test_each_devices_body_is_its_numpy_model_bit_for_bit(case):
    op, dt, shape, attrs = case
    inst = _inst(op, dt, shape, attrs)
    xs = _inputs(inst, np.random.default_rng(len(shape) + shape[-1]))
    wide = [a.astype(F32) for a in xs]
    # npu1 (aie2: scalars and t * gamma by bf16 pieces), npu2 (aie2p) and the host target (f32 broadcasts)
    for arch, piecewise in (("aie2", True), ("aie2p", False), ("host", False)):
        with vector.profile(arch):
            text = emitters.emit(inst)
        assert vector.decision(inst, arch)["lanes"] == 16 and "vector.reduction <add>" in text
        kern = HostKernel(compiled_library(text, f"norm_{arch}_{inst.id}"), inst.describe())
        got = kern(*xs)
        beta = wide[2] if op == "layer_norm" else None
        if arch == "aie2" and dt == "bf16":
            want = model_bf16_products(op, wide[0], wide[1], beta, inst.attrs["eps"])
        else:
            want = model(op, wide[0], wide[1], beta, inst.attrs["eps"], piecewise)
        want = want.astype(numpy_dtype(dt))
        nan = np.isnan(want.astype(F32))
        assert np.array_equal(np.isnan(got.astype(F32)), nan)
        assert got[~nan].tobytes() == want[~nan].tobytes(), (inst.id, arch)


def test_the_split_of_a_scalar_is_exact():
    rng = np.random.default_rng(0)
    for s in np.concatenate([rng.standard_normal(2000) * 10.0 ** rng.integers(-30, 30, 2000), [1.0, 3.0e38]]).astype(F32):
        lo, mid, hi = _split(s)
        assert np.float64(lo) + np.float64(mid) + np.float64(hi) == np.float64(s), s


SHAPE = (64, 1024)


def _norm_inst(op):
    return _inst(op, "bf16", SHAPE, {})


@pytest.mark.parametrize("op", ["rms_norm", "layer_norm"])
def test_both_devices_run_the_norms_as_vector_bodies(op):
    inst = _norm_inst(op)
    chunk = aie.design_for(inst, {"device": "npu1", "body": "auto"}).body
    for dev in ("npu1", "npu2"):
        opts = {"device": dev, "body": "auto"}
        text = aie.emit(inst, opts)
        assert text_problems(text) == [], (op, dev)
        info = aie.body_info(inst, opts)
        assert info["source"] == "generated vector" and info["lanes"] == 16, (dev, info)
        assert "vector.broadcast" in text
    # the chunk sizes differ per device; aie2p's body is the host's (f32 broadcasts), aie2's works by bf16 pieces
    bodies = []
    for arch in ("aie2", "aie2p"):
        with vector.profile(arch):
            bodies.append(emitters.emit(chunk))
    assert bodies[1] == emitters.emit(chunk) != bodies[0]
    assert "vector.broadcast" in bodies[1] and " : f32 to vector<16xf32>" in bodies[1]
    assert " : f32 to vector<16xf32>" not in bodies[0] and " : bf16 to vector<16xbf16>" in bodies[0]
    # aie2p's broadcast of an f32 scalar: the conversion pattern and its aie2p lowering's test
    assert "test-broadcast_scalar-aie2p.mlir" in vector.PROFILE[("aie2p", "broadcast", "f32", 16)]


def test_npu1_softmax_has_no_generated_vector_body_and_says_which_construct_stops_it():
    """The generated body stays scalar on npu1 (xdna_bodies = "generated"); "auto" runs mlir-aie's aie2/softmax.cc
    behind the row-max prologue instead (tests/test_xdna_library_designs.py)."""
    inst = make_instance("softmax", "bf16", [list(SHAPE)], {"axis": -1})
    assert aie.body_info(inst, {"device": "npu1", "body": "auto"})["source"] == "mlir-aie kernel"
    info = aie.body_info(inst, {"device": "npu1", "body": "generated"})
    assert info["source"] not in ("generated vector", "mlir-aie kernel"), info
    # the exp expansion's bit casts; aievec's LUT exp (test_lut_based_ops.mlir) takes bf16, not the f32 x - max
    assert "bitcast on vector<16xi32>" in info["why"] and "VectorToAIEVecConversions.cpp" in info["why"], info
    assert "test_lut_based_ops.mlir" in info["why"] and "getExpBf16" in info["why"], info
    assert ("exp", "bf16", 16) not in vector.AIEVEC_OPS["aie2"] and ("aie2", "exp", "bf16", 16) in vector.HARDWARE


@pytest.mark.parametrize("op", ["rms_norm", "layer_norm"])
def test_the_npu1_bf16_norms_stay_within_their_rounding_bound(op):
    """The npu1 bf16 body (its model above, bit for bit) against the exact norm: rms_norm rounds twice to bf16
    (the normalised value, then times gamma), layer_norm three times (d, the normalised value, the result), each a
    relative 2^-8 (bf16's unit roundoff) of what it rounds; the f32 statistics, the bf16 pair of r (2^-17) and the
    Newton rsqrt (2^-22) add far less. The bound is taken relative to |t gamma| (+ |beta|), as the roundings are."""
    rng = np.random.default_rng(7)
    bound = (2 if op == "rms_norm" else 3) * 2.0**-8 + 2.0**-14
    for trial in range(4):
        x = (rng.standard_normal((8, 1024)) * (1 + 3 * trial) + 5 * trial).astype(BF16).astype(F32)
        g = (rng.standard_normal(1024) * 2).astype(BF16).astype(F32)
        b = rng.standard_normal(1024).astype(BF16).astype(F32) if op == "layer_norm" else None
        y = model_bf16_products(op, x, g, b, 1e-5).astype(BF16).astype(np.float64)
        xd = x.astype(np.float64)
        c = xd - xd.mean(-1, keepdims=True) if op == "layer_norm" else xd
        t = c / np.sqrt((c * c).mean(-1, keepdims=True) + 1e-5)
        ref, scale = t * g, np.abs(t * g)
        if b is not None:
            ref, scale = ref + b, scale + np.abs(b)
        assert np.max(np.abs(y - ref) / scale) <= bound, (op, trial)
