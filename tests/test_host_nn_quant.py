"""Host kernels of rope, attention, pool, im2col, quantize, dequantize and matmul
vs their oracles.

Every kernel is compiled once per session, in parallel (``tests.hostkit``).

* Bit-exact: im2col (every dtype), max pooling (NaN positions equal; +-0 equal),
  quantize, dequantize, and matmul i8 (the reference int8 GEMM: random inputs,
  all-zero rows and columns, exact .5 ties, tiny/huge/inf/NaN rows).
* Against the float64 oracle with an error *bound* derived from the kernel's f32
  arithmetic (below, per op): rope, attention, sum/avg pooling and matmul f32.
  The bounds are first-order rounding-error bounds, not fitted numbers, so they
  scale with the reduction lengths and do not flake; ``-s`` prints the measured
  errors (max ULPs of the output dtype and the largest fraction of the bound used).
"""
from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest

from npubuild.emitters import host as emitters
from npubuild.core.constants import numpy_dtype
from npubuild.ops.quant import CODE_RANGE
from npubuild.ops.registry import NUMPY_DTYPE
from npubuild.specfile.instances import make_instance

from .hostkit import assert_standard_dialects, compile_kernels

# ---- error bounds ---------------------------------------------------------------------------------
#
# Every f32 + - * / rounds with relative error at most U32; a recursive f32 sum of
# n terms is off by at most (n-1)·U32·Σ|x_i| (Higham, §3.1, first order).
U32 = 2.0**-24
# The oracle rounds its float64 result to the output dtype once and the kernel
# rounds its f32 result once (f16 output): they may differ by one rounding each.
U_OUT = {"f32": 2.0**-24, "f16": 2.0**-11, "bf16": 2.0**-8}
# Results in the subnormal range round to an absolute step: allow one.
TINY = {dt: float(np.finfo(numpy_dtype(dt)).smallest_subnormal) for dt in ("f32", "f16", "bf16")}
# Second-order terms and the bound's own float64 evaluation.
BOUND_SAFETY = 1.25
# mathfns.exp is within 1 ULP of e^x (docs/kernels.md); counted as 2·U32.
EXP_REL = 2 * U32

# ---- cases -----------------------------------------------------------------------------------------

ROPE = [  # (dtype, x shape, attrs); cos and sin are [tokens, n_rot/2]
    ("f32", (4, 32), {"head_dim": 8}),
    ("f32", (2, 3, 24), {"head_dim": 12, "n_rot": 6, "style": "gptj"}),
    ("f32", (2, 3, 24), {"head_dim": 12, "n_rot": 8}),
    ("f32", (16,), {"head_dim": 16, "style": "gptj"}),
    ("f32", (2, 2, 2, 64), {"head_dim": 32, "n_rot": 2, "style": "gptj"}),
    ("f16", (3, 32), {"head_dim": 16, "style": "gptj"}),
    ("f16", (2, 2, 16), {"head_dim": 8, "n_rot": 4}),
    ("bf16", (3, 32), {"head_dim": 16}),
]
ATTENTION = [  # (dtype, q shape, k/v shape, attrs)
    ("f32", (6, 32), (6, 32), {"num_heads": 2, "head_dim": 16}),
    ("f32", (6, 32), (6, 32), {"num_heads": 4, "head_dim": 8, "mask": "causal"}),
    ("f32", (2, 5, 24), (2, 9, 24), {"num_heads": 3, "head_dim": 8, "mask": "causal", "scale": 0.25}),
    ("f32", (2, 4, 16), (2, 7, 16), {"num_heads": 1, "head_dim": 16}),
    ("f32", (1, 1, 8), (1, 1, 8), {"num_heads": 2, "head_dim": 4, "mask": "causal"}),
    ("f32", (1, 40, 64), (1, 40, 64), {"num_heads": 2, "head_dim": 32, "mask": "causal"}),
    ("f16", (5, 16), (5, 16), {"num_heads": 2, "head_dim": 8, "mask": "causal"}),
    ("f16", (2, 3, 16), (2, 6, 16), {"num_heads": 4, "head_dim": 4, "scale": 1.0}),
    ("bf16", (5, 16), (5, 16), {"num_heads": 2, "head_dim": 8, "mask": "causal"}),
]
_GEOMS = [  # (x shape, kernel, strides, pads)
    ((2, 3, 7, 8), [3, 3], [2, 2], [1, 1]),
    ((1, 2, 6, 6), [2, 2], [2, 2], [0, 0]),
    ((2, 2, 9, 7), [3, 2], [1, 2], [1, 1]),
    ((1, 1, 5, 5), [5, 5], [1, 1], [2, 2]),
    ((1, 3, 4, 5), [1, 1], [1, 1], [0, 0]),
]
POOL = (
    [("f32", g[0], {"mode": m, "kernel_size": g[1], "strides": g[2], "pads": g[3]}) for m in ("max", "avg", "sum") for g in _GEOMS]
    + [("f32", g[0], {"mode": "avg", "kernel_size": g[1], "strides": g[2], "pads": g[3], "count_include_pad": True})
       for g in _GEOMS if g[3] != [0, 0]]
    + [("f16", g[0], {"mode": m, "kernel_size": g[1], "strides": g[2], "pads": g[3]}) for m in ("max", "avg", "sum") for g in _GEOMS[:2]]
    + [("f16", (1, 2, 6, 5), {"mode": "avg", "kernel_size": [3, 3], "pads": [1, 1], "count_include_pad": True})]
    + [("bf16", _GEOMS[0][0], {"mode": m, "kernel_size": _GEOMS[0][1], "strides": _GEOMS[0][2], "pads": _GEOMS[0][3]})
       for m in ("max", "avg")]
)
IM2COL = (
    [(dt, (2, 3, 7, 8), {"kernel_size": [3, 3], "strides": [2, 1], "pads": [1, 2], "dilations": [2, 1]})
     for dt in ("f32", "f16", "bf16", "i8", "i32", "i64")]
    + [
        ("f32", (1, 2, 5, 5), {"kernel_size": [2, 3]}),
        ("f32", (2, 1, 6, 7), {"kernel_size": [3, 3], "strides": [3, 2], "pads": [1, 0]}),
        ("f32", (1, 4, 4, 4), {"kernel_size": [1, 1]}),
        ("f32", (1, 2, 4, 6), {"kernel_size": [2, 2], "pads": [3, 1], "dilations": [1, 3]}),
    ]
)
QUANTIZE = [  # (x shape, attrs)
    ((3, 4, 5), {"scales": [0.05]}),
    ((64,), {"scales": [0.5], "zero_points": [-7]}),  # x/scale exact: real .5 ties
    ((3, 4, 5), {"scales": [0.05, 0.1, 0.25, 1e-3], "zero_points": [1, -3, 0, 100], "axis": 1}),
    ((2, 6), {"scales": [0.5, 0.25, 1.0, 2.0, 0.125, 3.0], "axis": -1}),
    ((3, 8), {"scales": [0.02, 0.5, 7.0], "zero_points": [-128, 127, 0], "axis": 0}),
]
DEQUANTIZE = [
    ((256,), {"scales": [0.05]}),
    ((2, 256), {"scales": [0.05], "zero_points": [-3]}),
    ((3, 256), {"scales": [0.05, 1e-3, 7.0], "zero_points": [1, -128, 127], "axis": 0}),
    ((2, 4, 32), {"scales": [0.5, 0.1, 2.0, 3e-5], "axis": 1}),
]
QUANTIZE_U8 = [  # ONNX QuantizeLinear to uint8: zero points in [0, 255], saturation at 0 and 255
    ((64,), {"scales": [0.5], "zero_points": [128]}),
    ((3, 4, 5), {"scales": [0.05, 0.1, 0.25, 1e-3], "zero_points": [0, 255, 17, 128], "axis": 1}),
    ((2, 6), {"scales": [0.02]}),
]
DEQUANTIZE_U8 = [
    ((256,), {"scales": [0.05], "zero_points": [128]}),
    ((3, 256), {"scales": [0.05, 1e-3, 7.0], "zero_points": [0, 255, 200], "axis": 0}),
]
QUANTIZE_4BIT = [  # ONNX int4 / uint4: one code per byte (ml_dtypes), saturation at [-8, 7] / [0, 15]
    ("i4", (64,), {"scales": [0.5]}),
    ("i4", (3, 4, 5), {"scales": [0.05, 0.1, 0.25, 1e-3], "zero_points": [0, -8, 7, 3], "axis": 1}),
    ("u4", (64,), {"scales": [0.5], "zero_points": [8]}),
    ("u4", (2, 6), {"scales": [0.02]}),
]
DEQUANTIZE_4BIT = [
    ("i4", (2, 16), {"scales": [0.05], "zero_points": [-3]}),
    ("u4", (3, 16), {"scales": [0.05, 1e-3, 7.0], "zero_points": [0, 15, 8], "axis": 0}),
]
MATMUL = [  # (dtype, a shape, b shape)
    ("f32", (4, 16), (16, 8)),
    ("f32", (2, 3, 37), (37, 5)),
    ("f32", (1, 1), (1, 1)),
    ("f32", (8, 300), (300, 12)),
    ("f32", (2, 6, 40), (40, 32)),  # the vector body: 4-row blocks and a 2-row remainder, 2 x 16 columns
    ("f32", (5, 130), (130, 48)),  # the vector body, one 16-column vector per panel
    ("i8", (4, 16), (16, 8)),
    ("i8", (2, 3, 37), (37, 5)),
    ("i8", (1, 1), (1, 1)),
    ("i8", (1, 300), (300, 256)),  # b's code table (75 KiB) is heap scratch
    ("i8", (6, 8), (8, 5)),  # the hand-made edge cases
]


def _instances():
    out = []
    for dt, xs, at in ROPE:
        t, half = math.prod(xs[:-1]), (at.get("n_rot") or at["head_dim"]) // 2
        out.append(make_instance("rope", dt, [xs, (t, half), (t, half)], at))
    for dt, qs, ks, at in ATTENTION:
        out.append(make_instance("attention", dt, [qs, ks, ks], at))
    out += [make_instance("pool", dt, [xs], at) for dt, xs, at in POOL]
    out += [make_instance("im2col", dt, [xs], at) for dt, xs, at in IM2COL]
    out += [make_instance("quantize", "i8", [xs], at) for xs, at in QUANTIZE]
    out += [make_instance("dequantize", "i8", [xs], at) for xs, at in DEQUANTIZE]
    out += [make_instance("quantize", "u8", [xs], at) for xs, at in QUANTIZE_U8]
    out += [make_instance("dequantize", "u8", [xs], at) for xs, at in DEQUANTIZE_U8]
    out += [make_instance("quantize", dt, [xs], at) for dt, xs, at in QUANTIZE_4BIT]
    out += [make_instance("dequantize", dt, [xs], at) for dt, xs, at in DEQUANTIZE_4BIT]
    out += [make_instance("matmul", dt, [a, b], None) for dt, a, b in MATMUL]
    return out


INSTANCES = _instances()
MEASURED: dict = {}


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    ks = compile_kernels(INSTANCES, tmp_path_factory.mktemp("nn_quant_kernels"))
    yield ks
    for k in ks.values():
        k.close()
    if MEASURED:
        print("\n[nn/quant] measured errors vs the float64 oracle (max ULPs of the output dtype, max fraction of the bound):")
        for (op, dt), (ulps, frac) in sorted(MEASURED.items()):
            print(f"  {op:10s} {dt}: {ulps:6.2f} ulp, {frac:.3f} of bound")


def _ids(insts):
    return [i.id for i in insts]


def _of(op):
    return [i for i in INSTANCES if i.op == op]


def _oracle(inst, inputs):
    with np.errstate(all="ignore"):
        return np.asarray(inst.opdef.evaluate(list(inputs), inst.attrs, inst.dtype))


def _rng(inst):
    return np.random.default_rng(int(inst.key[:8], 16))


def _is_float(a) -> bool:
    return a.dtype.kind == "f" or a.dtype == numpy_dtype("bf16")


def assert_exact(inst, got, want):
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape, want.shape)
    if _is_float(got):
        nan_g, nan_w = np.isnan(got), np.isnan(want)
        assert np.array_equal(nan_g, nan_w), f"{inst.id}: NaN positions differ"
        ut = {2: np.uint16, 4: np.uint32}[got.dtype.itemsize]
        bad = ~((got.view(ut) == want.view(ut)) | nan_g | ((got == 0) & (want == 0)))
    else:
        bad = got != want
    assert not bad.any(), f"{inst.id}: {bad.sum()} mismatches, e.g. got {got[bad][:5]} want {want[bad][:5]}"


def assert_within(inst, got, want, bound):
    """|got - want| <= bound elementwise (bound: float64, the f32 error of the kernel);
    non-finite expected values must match exactly."""
    dt = inst.output.dtype
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape, want.shape)
    fin = np.isfinite(want)
    assert np.array_equal(np.isnan(got), np.isnan(want)), f"{inst.id}: NaN positions differ"
    assert np.array_equal(got[~fin & ~np.isnan(want)], want[~fin & ~np.isnan(want)]), f"{inst.id}: infinities differ"
    g, w = got[fin].astype(np.float64), want[fin].astype(np.float64)
    tol = BOUND_SAFETY * np.asarray(bound, np.float64)[fin] + 2 * U_OUT[dt] * np.abs(w) + TINY[dt]
    err = np.abs(g - w)
    bad = err > tol
    assert not bad.any(), (
        f"{inst.id}: {bad.sum()} elements off by more than the bound, e.g. got {g[bad][:4]} want {w[bad][:4]} "
        f"(error {err[bad][:4]}, bound {tol[bad][:4]})"
    )
    if err.size:
        ulps = float(np.max(err / np.spacing(np.abs(want[fin])).astype(np.float64)))
        frac = float(np.max(err / tol))
        key = (inst.op + ("" if inst.op != "pool" else "-" + inst.attrs["mode"]), dt)
        old = MEASURED.get(key, (0.0, 0.0))
        MEASURED[key] = (max(old[0], ulps), max(old[1], frac))


def _normal(rng, shape, dt, scale=1.0):
    return (rng.normal(0.0, scale, size=shape)).astype(numpy_dtype(dt))


# ---- rope ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("inst", _of("rope"), ids=_ids(_of("rope")))
def test_rope(inst, kernels):
    rng = _rng(inst)
    dt = inst.dtype
    x = _normal(rng, inst.inputs[0].shape, dt, 4.0)
    theta = rng.uniform(-50, 50, size=inst.inputs[1].shape)
    cos, sin = np.cos(theta).astype(x.dtype), np.sin(theta).astype(x.dtype)
    got = kernels[inst.key](x, cos, sin)
    want = _oracle(inst, [x, cos, sin])
    # f32 kernel: fl(fl(a·c) - fl(b·s)) is within 2·U32·(|a·c| + |b·s|); that magnitude,
    # per element, is the larger of the rotation of |x| by (|cos|, +|sin|) and by (|cos|, -|sin|).
    ax, ac, asn = (np.abs(v).astype(np.float64) for v in (x, cos, sin))
    mag = np.maximum(_oracle(inst, [ax, ac, asn]), _oracle(inst, [ax, ac, -asn]))
    assert_within(inst, got, want, 2 * U32 * mag)
    # dims past n_rot are copies
    hd = inst.attrs["head_dim"]
    n_rot = inst.attrs["n_rot"] or hd
    g, xv = got.reshape(-1, hd), x.reshape(-1, hd)
    assert np.array_equal(g[:, n_rot:].view(np.uint8), xv[:, n_rot:].view(np.uint8))


# ---- attention --------------------------------------------------------------------------------------


def _attention_bound(inst, q, k, v):
    """First-order bound of the kernel's error (see docs/kernels.md).

    With A = |scale|·max_j Σ_d |q_d k_d| over the keys a query sees, every score is
    within (D+2)·U32·A (f32 dot, the scaling, the rounding of scale itself), s_j - max
    within another 2·U32·A, and exp adds EXP_REL: each e_j has relative error
    δ <= (D+4)·U32·A + EXP_REL. The sums over Skv keys add (Skv-1)·U32 each, the
    products and the division one U32 each, so with M = Σ_j p_j |v_j|:
    |out - exact| <= M·(2δ + (2·Skv + 1)·U32).
    """
    a = inst.attrs
    nh, hd = a["num_heads"], a["head_dim"]
    scale = a["scale"] or 1.0 / math.sqrt(hd)

    def heads(x):
        x = np.abs(x.astype(np.float64))
        x = x.reshape((1,) + x.shape if x.ndim == 2 else x.shape)
        return x.reshape(x.shape[0], x.shape[1], nh, hd).transpose(0, 2, 1, 3)

    s_len, kv_len = q.shape[-2], k.shape[-2]
    qk = heads(q) @ heads(k).transpose(0, 1, 3, 2) * abs(scale)  # [B, H, S, Skv]
    if a["mask"] == "causal":
        allowed = np.arange(kv_len)[None, :] <= np.arange(s_len)[:, None] + (kv_len - s_len)
        qk = np.where(allowed, qk, 0.0)
    big_a = qk.max(axis=-1)  # [B, H, S]
    delta = (hd + 4) * U32 * big_a + EXP_REL
    rel = 2 * delta + (2 * kv_len + 1) * U32  # [B, H, S]
    rel = np.repeat(rel.transpose(0, 2, 1), hd, axis=-1).reshape(q.shape)
    m = _oracle(inst, [q.astype(np.float64), k.astype(np.float64), np.abs(v.astype(np.float64))])
    return rel * m


@pytest.mark.parametrize("inst", _of("attention"), ids=_ids(_of("attention")))
def test_attention(inst, kernels):
    rng = _rng(inst)
    q, k, v = (_normal(rng, t.shape, inst.dtype) for t in inst.inputs)
    got = kernels[inst.key](q, k, v)
    want = _oracle(inst, [q, k, v])
    assert_within(inst, got, want, _attention_bound(inst, q, k, v))


def test_attention_causal_mask_is_bottom_right_aligned(kernels):
    """With S < Skv query i sees keys j <= i + Skv - S: changing a later key must
    not change it, and the last query sees every key."""
    inst = next(i for i in _of("attention") if i.attrs["mask"] == "causal" and i.inputs[1].shape[-2] > i.inputs[0].shape[-2])
    rng = _rng(inst)
    q, k, v = (_normal(rng, t.shape, inst.dtype) for t in inst.inputs)
    base = kernels[inst.key](q, k, v)
    s_len, kv_len = q.shape[-2], k.shape[-2]
    k2, v2 = k.copy(), v.copy()
    k2[:, -1, :] += 3.0
    v2[:, -1, :] += 3.0
    moved = kernels[inst.key](q, k2, v2)
    assert np.array_equal(moved[:, : s_len - 1], base[:, : s_len - 1])
    assert not np.array_equal(moved[:, s_len - 1], base[:, s_len - 1])
    assert kv_len - s_len > 0


# ---- pool -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("inst", _of("pool"), ids=_ids(_of("pool")))
def test_pool(inst, kernels):
    rng = _rng(inst)
    dt, a = inst.dtype, inst.attrs
    x = _normal(rng, inst.inputs[0].shape, dt, 10.0)
    if a["mode"] == "max":  # NaN propagates, -inf/+inf are ordinary values
        flat = x.reshape(-1)
        for val in (np.nan, np.inf, -np.inf, -0.0):
            flat[rng.integers(flat.size)] = val
    got = kernels[inst.key](x)
    want = _oracle(inst, [x])
    if a["mode"] == "max":
        assert_exact(inst, got, want)
        return
    # f32 sum of n <= kh·kw taps: (n-1)·U32·Σ|x|; avg divides once more (U32·|y|, in U_OUT slack for f32,
    # added here for f16 output).
    kh, kw = a["kernel_size"]
    abs_pool = _oracle(inst, [np.abs(x.astype(np.float64))])
    assert_within(inst, got, want, (kh * kw - 1) * U32 * abs_pool + U32 * np.abs(want.astype(np.float64)))


# ---- im2col -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("inst", _of("im2col"), ids=_ids(_of("im2col")))
def test_im2col(inst, kernels):
    rng = _rng(inst)
    t = inst.inputs[0]
    if t.dtype in ("f32", "f16", "bf16"):
        x = _normal(rng, t.shape, t.dtype, 10.0)
        x.reshape(-1)[:3] = [np.nan, -np.inf, -0.0]
    else:
        ii = np.iinfo(NUMPY_DTYPE[t.dtype])
        x = rng.integers(ii.min, ii.max, size=t.shape, dtype=NUMPY_DTYPE[t.dtype], endpoint=True)
    got = kernels[inst.key](x)
    want = _oracle(inst, [x])
    assert_exact(inst, got, want)
    if _is_float(got):  # padding is +0.0, and -0.0 stays -0.0
        assert np.array_equal(np.signbit(got), np.signbit(want))


# ---- quantize / dequantize ----------------------------------------------------------------------------


@pytest.mark.parametrize("inst", _of("quantize"), ids=_ids(_of("quantize")))
def test_quantize(inst, kernels):
    rng = _rng(inst)
    shape = inst.inputs[0].shape
    scales = np.float32(inst.attrs["scales"][0])
    x = (rng.normal(0.0, 60.0, size=shape) * scales).astype(np.float32)  # spans past the saturation points
    flat = x.reshape(-1)
    n = flat.size
    # exact ties (half-integers times a power-of-two scale), specials, huge values
    flat[: n // 3] = ((rng.integers(-300, 300, size=n // 3) + 0.5) * 0.5).astype(np.float32)
    flat[-6:] = [np.nan, np.inf, -np.inf, 3e38, -3e38, -0.0]
    got = kernels[inst.key](x)
    want = _oracle(inst, [x])
    assert_exact(inst, got, want)
    if inst.dtype in ("i4", "u4"):  # the byte ml_dtypes holds: the code's nibble, high bits 0
        assert np.array_equal(got.view(np.uint8), want.view(np.uint8))
        assert (got.view(np.uint8) < 16).all()


@pytest.mark.parametrize("inst", _of("dequantize"), ids=_ids(_of("dequantize")))
def test_dequantize(inst, kernels):
    shape = inst.inputs[0].shape
    lo, hi = CODE_RANGE[inst.dtype]
    codes = lo + np.arange(math.prod(shape)) % (hi - lo + 1)  # every code in every channel
    q = codes.astype(numpy_dtype(inst.dtype)).reshape(shape)
    got = kernels[inst.key](q)
    assert_exact(inst, got, _oracle(inst, [q]))


# ---- matmul -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("inst", [i for i in _of("matmul") if i.dtype == "f32"], ids=_ids([i for i in _of("matmul") if i.dtype == "f32"]))
def test_matmul_f32(inst, kernels):
    rng = _rng(inst)
    a, b = (_normal(rng, t.shape, "f32", 3.0) for t in inst.inputs)
    got = kernels[inst.key](a, b)
    want = _oracle(inst, [a, b])
    kk = b.shape[0]
    # K products and K-1 additions in f32: K·U32·(|a| @ |b|)
    assert_within(inst, got, want, kk * U32 * (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))))


def _i8_inputs(inst, rng):
    a_shape, b_shape = inst.inputs[0].shape, inst.inputs[1].shape
    # rows and columns of very different magnitudes
    a = rng.normal(size=a_shape) * np.exp(rng.uniform(-8, 8, size=a_shape[:-1] + (1,)))
    b = rng.normal(size=b_shape) * np.exp(rng.uniform(-8, 8, size=(1, b_shape[1])))
    return a.astype(np.float32), b.astype(np.float32)


def _i8_edge_inputs():
    """a [6, 8], b [8, 5]: zero rows/columns, exact .5 ties, tiny/huge/inf/NaN."""
    a = np.array(
        [
            [0.0] * 8,  # all zero: scale 1, codes 0
            [127.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 126.5],  # scale 1, inv 1: ties round away
            [63.5, 0.25, -0.75, 1.25, -1.25, 62.75, -0.25, 3.0],  # scale 0.5, inv 2: ties
            [1e-40, -1e-40, 5e-41, 0.0, 1e-45, -3e-41, 0.0, 2e-40],  # subnormal scale, inv = inf
            [np.nan, 1.0, -2.0, 3.0, np.inf, 0.5, -0.5, 0.0],  # inf amax: inv 0, inf*0 = NaN -> 0
            [np.nan, 1.0, -2.0, 3.0, 4.0, 0.5, -0.5, -127.0],  # NaN ignored by amax, code 0
        ],
        np.float32,
    )
    b = np.zeros((8, 5), np.float32)  # column 0 stays zero
    b[:, 1] = [127.0, 0.5, -0.5, 1.5, -2.5, 3.5, -126.5, 0.0]  # scale 1
    b[:, 2] = [254.0, 5.0, -3.0, 1.0, -1.0, 7.0, 0.0, -9.0]  # scale 2: b/2 ties
    b[:, 3] = [3.0, -1.0, 2.0, 0.0, 1.0, -2.0, 0.5, 0.25]
    b[:, 4] = [1e30, -3e38, 1.0, -1.0, 2e-38, 0.0, 5e37, 7.0]
    return a, b


@pytest.mark.parametrize("inst", [i for i in _of("matmul") if i.dtype == "i8"], ids=_ids([i for i in _of("matmul") if i.dtype == "i8"]))
def test_matmul_i8_is_the_reference_gemm(inst, kernels):
    rng = _rng(inst)
    if inst.inputs[0].shape == (6, 8):
        a, b = _i8_edge_inputs()
    else:
        a, b = _i8_inputs(inst, rng)
        a.reshape(-1, a.shape[-1])[0] = 0.0  # an all-zero row
        b[:, -1] = 0.0  # and column
    got = kernels[inst.key](a, b)
    assert_exact(inst, got, _oracle(inst, [a, b]))


# ---- emitted text ------------------------------------------------------------------------------------


def test_emitted_text_is_deterministic_and_standard_dialects():
    for inst in INSTANCES:
        text = emitters.emit(inst)
        assert emitters.emit(inst) == text
        assert_standard_dialects(text, inst.id)
    code = (
        "import sys\nfrom npubuild.specfile.instances import make_instance\nfrom npubuild.emitters import host\n"
        "sys.stdout.write(host.emit(make_instance('attention', 'f32', [(2, 5, 24), (2, 9, 24), (2, 9, 24)], "
        "{'num_heads': 3, 'head_dim': 8, 'mask': 'causal', 'scale': 0.25})))"
    )
    env = dict(os.environ, PYTHONHASHSEED="4321")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    inst = make_instance("attention", "f32", [(2, 5, 24), (2, 9, 24), (2, 9, 24)], {"num_heads": 3, "head_dim": 8, "mask": "causal", "scale": 0.25})
    assert other == emitters.emit(inst)


def test_registered():
    assert {"rope", "attention", "pool", "im2col", "quantize", "dequantize", "matmul"} <= set(emitters.EMITTERS)
