"""Host emitters for the unary math ops (transcendentals, activations, rounding).

Everything is expanded into plain ``arith`` operations by
:mod:`.mathfns` (no ``math`` dialect, no libm): the bodies must also run on the
NPU's AIE cores. f16 is computed in f32 and rounded once.

Semantics (the reference is the op's NumPy oracle evaluated exactly, i.e. in
float64 and rounded to the dtype; accuracy per op in docs/kernels.md):

* NaN in -> NaN out for every op.
* Infinities give the mathematical limit. Where the oracle's formula evaluates
  ``inf * 0`` or ``inf / inf`` the kernel returns the limit instead of NumPy's
  NaN: ``silu(-inf) = gelu(-inf) = mish(-inf) = hard_swish(-inf) = -0.0``,
  ``softsign(+-inf) = +-1``.
* floor/ceil/round/sign are exact (bit-exact with NumPy, including -0.0 and
  |x| >= 2^23); round is half to even.
* leaky_relu, hard_sigmoid, hard_swish and softsign evaluate the oracle's formula in the
  same order, so f32 results are bit-exact with NumPy's f32 evaluation
  (attrs rounded to f32 as NumPy does with Python scalars).
* exp overflows to inf above 88.72 and underflows gradually (subnormals,
  rounded once) down to -103.97, then 0 (f16: computed in f32, so the f16
  limits are the f16 rounding of the f32 result).
"""
from __future__ import annotations

import math
from typing import Callable

from ...specfile.instances import KernelInstance
from . import gelu_lanes
from . import mathfns as M
from . import trig
from . import vector
from .elementwise import emit_elementwise
from .mlir_text import KernelBuilder, is_float, mlir_type

F = M.F
I = M.I

# (builder, f32 value, attrs) -> f32 value
F32Fn = Callable[[KernelBuilder, str, dict], str]


def _float_op(core: F32Fn):
    """Scalar fn for emit_elementwise: f16 -> f32 -> core -> f16 (one rounding; bf16 arrives widened)."""

    def fn(b: KernelBuilder, v, dt):
        attrs = b.inst.attrs
        return M.via_f32(lambda bb, x: core(bb, x, attrs), b, v[0], dt)

    return fn


def _plain(f32fn):
    return lambda b, x, a: f32fn(b, x)


# ---- rounding ---------------------------------------------------------------------------------


def _round_even(b, x):
    """Nearest integer, ties to even (exact): (|x| + 2^23) - 2^23 for |x| < 2^23,
    sign restored with copysign (so -0.4 -> -0.0); |x| >= 2^23, inf, NaN: x."""
    a = M.fabs(b, x)
    r = M.sub(b, M.add(b, a, M._c(b, 2.0**23)), M._c(b, 2.0**23))
    r = M.copysign(b, r, x)
    return M.select(b, M.cmpf(b, "olt", a, M._c(b, 2.0**23)), r, x)


def _floor(b, x, a):
    r = _round_even(b, x)
    r = M.select(b, M.cmpf(b, "ogt", r, x), M.sub(b, r, M._c(b, 1.0)), r)
    return M.copysign(b, r, x)  # floor(-0.0) = -0.0; r - 1 never gives -0


def _ceil(b, x, a):
    r = _round_even(b, x)
    r = M.select(b, M.cmpf(b, "olt", r, x), M.add(b, r, M._c(b, 1.0)), r)
    return M.copysign(b, r, x)  # ceil(-0.5) = -0.0


def _round(b, x, a):
    return _round_even(b, x)


def _sign(b: KernelBuilder, v, dt):
    x = v[0]
    t = mlir_type(dt)
    if is_float(dt):
        zero, one, m_one = (b.float_const(c, dt) for c in (0.0, 1.0, -1.0))
        r = b.op(f"arith.select {b.op(f'arith.cmpf olt, {x}, {zero} : {t}')}, {m_one}, {zero} : {t}")
        r = b.op(f"arith.select {b.op(f'arith.cmpf ogt, {x}, {zero} : {t}')}, {one}, {r} : {t}")
        return b.op(f"arith.select {b.op(f'arith.cmpf uno, {x}, {x} : {t}')}, {x}, {r} : {t}")  # NaN
    zero, one, m_one = (b.int_const(c, dt) for c in (0, 1, -1))
    r = b.op(f"arith.select {b.op(f'arith.cmpi slt, {x}, {zero} : {t}')}, {m_one}, {zero} : {t}")
    return b.op(f"arith.select {b.op(f'arith.cmpi sgt, {x}, {zero} : {t}')}, {one}, {r} : {t}")


# ---- activations ------------------------------------------------------------------------------

_SILU_LO = -110.0  # silu(x) rounds to -0.0 below -103; clamping keeps e^x * x from overflowing


def _silu(b, x, a):
    """x / (1 + e^-x); for x < 0 as (x * e^x) / (1 + e^x) with x * e^x = ldexp(x * p, k)
    rounded once (no double rounding in the subnormal range)."""
    xc = M.clamp(b, x, _SILU_LO, math.inf)
    p, k = M.exp_parts(b, M.neg(b, M.fabs(b, xc)))  # e^-|x| = p * 2^k
    e = M.ldexp(b, p, k)
    num = M.select(b, M.cmpf(b, "oge", x, M._c(b, 0.0)), x, M.ldexp(b, M.mul(b, xc, p), k))
    r = M.div_by_one_plus(b, num, e)
    return M.select(b, M.is_nan(b, x), x, r)


_INV_SQRT2 = 0.7071067811865476
_GELU_SMALL = M._ERF_T * math.sqrt(2.0)  # |x| below: erf polynomial of x / sqrt(2)
_GELU_CLAMP = 15.0  # |x| beyond: gelu = x (x > 0) or -0.0 (x < 0) in f32


def _gelu_erf(b, x):
    """0.5 x (1 + erf(x / sqrt 2)) = x (1 - erfc(t) / 2) (x >= 0) or x erfc(t) / 2
    (x < 0), t = |x| / sqrt 2, with t^2 = x^2 / 2 exact for e^(-t^2)."""
    half, one = M._c(b, 0.5), M._c(b, 1.0)
    small = M.mul(b, M.mul(b, half, x), M.add(b, one, M.erf_small(b, M.mul(b, x, M._c(b, _INV_SQRT2)))))
    xc = M.clamp(b, x, -_GELU_CLAMP, _GELU_CLAMP)
    ac = M.fabs(b, xc)
    t = M.clamp(b, M.mul(b, ac, M._c(b, _INV_SQRT2)), M._ERF_T, M._ERFC_MAX)
    hi, lo = M.two_prod(b, ac, ac)
    vt, k = M.erfc_parts(b, t, M.mul(b, hi, half), M.mul(b, lo, half), times_t=True)  # t erfc(t)
    # x < 0: x erfc(t) / 2 = -(t erfc(t)) / sqrt(2), since x / t = -sqrt(2)
    neg_ = M.ldexp(b, M.mul(b, vt, M._c(b, -_INV_SQRT2)), k)
    pos = M.mul(b, x, M.sub(b, one, M.mul(b, half, M.div(b, M.ldexp(b, vt, k), t))))
    big = M.select(b, M.cmpf(b, "olt", x, M._c(b, 0.0)), neg_, pos)
    r = M.select(b, M.cmpf(b, "olt", M.fabs(b, x), M._c(b, _GELU_SMALL)), small, big)
    return M.select(b, M.is_nan(b, x), x, r)


_GELU_C2 = 2.0 * math.sqrt(2.0 / math.pi)  # 2 * sqrt(2/pi)
_GELU_K = 0.044715
_GELU_T_CLAMP = 12.0  # |x| beyond: gelu_tanh = x (x > 0) or -0.0 (x < 0) in f32


def _split_const(v: float):
    hi = M.f32(v)
    return hi, M.f32(v - hi)


def _gelu_tanh(b, x):
    """0.5 x (1 + tanh(y)) = x * sigmoid(2y), y = sqrt(2/pi) (x + 0.044715 x^3).
    v = 2y is computed as an unevaluated sum vh + vl (error-free products and sums)
    because e^v amplifies an absolute error of v: a plain f32 evaluation would
    lose ~|v| * 2^-22 (tens of ULPs for x < -3)."""
    xc = M.clamp(b, x, -_GELU_T_CLAMP, _GELU_T_CLAMP)
    # v = x (c + c k x^2): x^2 = sh + sl and c k sh = ph + pl exactly, w = c + ph by 2Sum, v = x wh
    # exactly, and the small terms in wl (what they leave out is below 2^-44 |v|)
    sh, sl = M.two_prod(b, xc, xc)
    ckh, ckl = _split_const(_GELU_C2 * _GELU_K)
    ch, cl = _split_const(_GELU_C2)
    ph, pl = M.two_prod(b, M._c(b, ckh), sh)
    wh, wl = M.two_sum(b, M._c(b, ch), ph)
    small = M.add(b, M.add(b, M.mul(b, M._c(b, ckh), sl), M.mul(b, M._c(b, ckl), sh)), M._c(b, cl))
    wl = M.add(b, wl, M.add(b, pl, small))
    vh, vl = M.two_prod(b, xc, wh)
    vh, vl = M.fast_two_sum(b, vh, M.add(b, vl, M.mul(b, xc, wl)))
    # e^-|v| = p * 2^k * (1 + wl), wl = -sign(v) * vl
    p, k = M.exp_parts(b, M.neg(b, M.fabs(b, vh)))
    wl = M.neg(b, M.xor_sign(b, vl, vh))
    p = M.mul(b, p, M.add(b, M._c(b, 1.0), wl))
    e = M.ldexp(b, p, k)
    num = M.select(b, M.cmpf(b, "oge", x, M._c(b, 0.0)), x, M.ldexp(b, M.mul(b, xc, p), k))  # v >= 0 iff x >= 0
    r = M.div_by_one_plus(b, num, e)
    return M.select(b, M.is_nan(b, x), x, r)


def _gelu(b, x, a):
    return _gelu_tanh(b, x) if a["approximate"] == "tanh" else _gelu_erf(b, x)


def _softplus_parts(b, x):
    """log1p(e^-|x|), the common part of softplus and log_sigmoid."""
    e = M.exp_f32(b, M.neg(b, M.fabs(b, x)))
    return M.log1p_f32(b, e)


def _softplus(b, x, a):
    """max(x, 0) + log1p(e^-|x|)."""
    l = _softplus_parts(b, x)
    r = M.select(b, M.cmpf(b, "ogt", x, M._c(b, 0.0)), M.add(b, x, l), l)
    return M.select(b, M.is_nan(b, x), x, r)


def _log_sigmoid(b, x, a):
    """min(x, 0) - log1p(e^-|x|) (= -softplus(-x))."""
    l = _softplus_parts(b, x)
    r = M.select(b, M.cmpf(b, "olt", x, M._c(b, 0.0)), M.sub(b, x, l), M.neg(b, l))
    return M.select(b, M.is_nan(b, x), x, r)


def _elu(b, x, a):
    """x if x > 0 else alpha * expm1(x); elu(+-0) = alpha * (+0.0) as the oracle's
    alpha * (e^0 - 1)."""
    em1 = M.expm1_f32(b, M.clamp(b, x, -math.inf, 0.0))
    em1 = M.select(b, M.cmpf(b, "oeq", x, M._c(b, 0.0)), M._c(b, 0.0), em1)
    neg_ = M.mul(b, M._c(b, float(a["alpha"])), em1)
    r = M.select(b, M.cmpf(b, "ogt", x, M._c(b, 0.0)), x, neg_)
    return M.select(b, M.is_nan(b, x), x, r)


def _leaky_relu(b, x, a):
    """x > 0 ? x : alpha * x, the oracle's compare, product and select (bit-exact; NaN gives alpha * NaN,
    NaN). Only ops convert-vector-to-aievec lowers on aie2 (mlir-aie test/Conversion/VectorToAIEVec/:
    test-cmp.mlir's veccmp_f32 is ``arith.cmpf ogt`` on vector<16xf32>, test-sel.mlir selects
    vector<16xf32>, test_mul_elem.mlir multiplies it), so npu1 cores get the vector body; aie2p has
    no tested cmpf/select lowering, so npu2 cores run it scalar (vector.AIEVEC_OPS)."""
    r = M.mul(b, M._c(b, float(a["alpha"])), x)
    return M.select(b, M.cmpf(b, "ogt", x, M._c(b, 0.0)), x, r)


def _hard_sigmoid(b, x, a):
    """clip(alpha * x + beta, 0, 1) in the oracle's order (NaN propagates)."""
    y = M.add(b, M.mul(b, M._c(b, float(a["alpha"])), x), M._c(b, float(a["beta"])))
    return _clip01(b, y)


def _clip01(b, y):
    zero, one = M._c(b, 0.0), M._c(b, 1.0)
    y = M.select(b, M.cmpf(b, "olt", y, zero), zero, y)  # NaN stays
    return M.select(b, M.cmpf(b, "ogt", y, one), one, y)


def _hard_swish(b, x, a):
    """x * clip(x / 6 + 1/2, 0, 1) in the oracle's order; hard_swish(-inf) = -0.0."""
    y = _clip01(b, M.add(b, M.div(b, x, M._c(b, 6.0)), M._c(b, 0.5)))
    r = M.mul(b, x, y)
    return M.select(b, M.cmpf(b, "oeq", x, M._c(b, -math.inf)), M._c(b, -0.0), r)


def _softsign(b, x, a):
    """x / (1 + |x|); softsign(+-inf) = +-1."""
    r = M.div(b, x, M.add(b, M._c(b, 1.0), M.fabs(b, x)))
    inf = M.cmpf(b, "oeq", M.fabs(b, x), M._c(b, math.inf))
    return M.select(b, inf, M.copysign(b, M._c(b, 1.0), x), r)


_MISH_HI = 20.0  # tanh(softplus(x)) == 1 in f32 beyond


def _mish(b, x, a):
    """x * tanh(softplus(x)) = x * n / (n + 2), n = u (u + 2), u = e^x. For x <= 0
    the product x * u is formed as ldexp(x * p, k) (one rounding into the
    subnormal range). mish(-inf) = -0.0, mish(inf) = inf."""
    xc = M.clamp(b, x, _SILU_LO, _MISH_HI)
    p, k = M.exp_parts(b, xc)
    u = M.ldexp(b, p, k)
    two = M._c(b, 2.0)
    u2 = M.add(b, u, two)
    n = M.mul(b, u, u2)
    den = M.add(b, n, two)
    one = M._c(b, 1.0)
    pos = M.mul(b, x, M.sub(b, one, M.div(b, two, den)))  # n / (n + 2) = 1 - 2 / (n + 2)
    # x <= 0: x u (u + 2) / (n + 2) = x u (1 - u (u + 1) / (n + 2)), the subtracted term small
    xu = M.ldexp(b, M.mul(b, xc, p), k)
    neg_ = M.mul(b, xu, M.sub(b, one, M.div(b, M.mul(b, u, M.add(b, u, one)), den)))
    r = M.select(b, M.cmpf(b, "ogt", x, M._c(b, 0.0)), pos, neg_)
    return M.select(b, M.is_nan(b, x), x, r)


# ---- table --------------------------------------------------------------------------------------

_FLOAT_OPS: dict[str, F32Fn] = {
    "exp": _plain(M.exp_f32),
    "log": _plain(M.log_f32),
    "sqrt": _plain(M.sqrt_f32),
    "rsqrt": _plain(M.rsqrt_f32),
    "tanh": _plain(M.tanh_f32),
    "recip": _plain(M.recip_f32),
    "sigmoid": _plain(M.sigmoid_f32),
    "silu": _silu,
    "gelu": _gelu,
    "floor": _floor,
    "ceil": _ceil,
    "round": _round,
    "softplus": _softplus,
    "elu": _elu,
    "leaky_relu": _leaky_relu,
    "hard_sigmoid": _hard_sigmoid,
    "hard_swish": _hard_swish,
    "mish": _mish,
    "softsign": _softsign,
    "log_sigmoid": _log_sigmoid,
    "sin": _plain(trig.sin_f32),
    "cos": _plain(trig.cos_f32),
    "erf": _plain(M.erf_f32),
}


def _make(fn, title: str) -> Callable[[KernelInstance], str]:
    def emit(inst: KernelInstance) -> str:
        return emit_elementwise(inst, fn, title)

    return emit


def _emit_gelu(inst: KernelInstance) -> str:
    """gelu; the bf16 erf form on an AIE core's lanes is :mod:`.gelu_lanes`' polynomial (its bit-cast-free body)."""
    lanes = gelu_lanes.emit_lanes if inst.attrs["approximate"] == "none" and inst.dtype == "bf16" else None
    form = " as a bf16-lanes polynomial (gelu_lanes)" if lanes and vector.on_npu() else ""
    return emit_elementwise(inst, _float_op(_gelu), f"elementwise unary math (gelu{form})", npu_lanes=lanes)


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {
    **{name: _make(_float_op(core), f"elementwise unary math ({name})") for name, core in _FLOAT_OPS.items()},
    "gelu": _emit_gelu,
    "sign": _make(_sign, "elementwise unary math (sign)"),
}
