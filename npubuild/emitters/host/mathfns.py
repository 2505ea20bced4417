"""Scalar math functions expanded into plain ``arith`` operations.

Every public function has the signature ``fn(b: KernelBuilder, x: str, dtype:
str) -> str``: it emits the operations computing ``fn(x)`` for the scalar SSA
value ``x`` of element type ``dtype`` ("f32" or "f16") into the current block of
``b`` and returns the SSA name of the result (same type as ``x``).

No ``math`` dialect and no library calls: the same bodies are meant to run on
the NPU's AIE cores, which have no libm. The building blocks are f32 ``+ - * /``,
compares, selects, ``fptosi``/``sitofp`` of values known to be in range, and
integer/bit operations through ``arith.bitcast`` (building 2^k for exp,
extracting the exponent for log). No f64, no i64. Polynomials and range
reductions go through :func:`mul_add`: a multiply and an add, which a host vector
body lets llc fuse where the ISA variant has FMA (x86-64-v3, -v4); the error-free
transformations (Dekker products, 2Sum) use plain operations, exact either way.

* f16 is computed in f32 (``arith.extf``) and rounded once (``arith.truncf``).
* NaN in -> NaN out; infinities give the limits; see each function.
* The accuracy of each function (measured against float64 references) is in
  docs/kernels.md and asserted in tests/test_host_unary_math.py.

Public: exp, expm1, log, log1p, tanh, sigmoid, erf, erfc, sqrt, rsqrt, recip
(sin and cos: :mod:`.trig`). The ``*_f32`` functions take and return f32 values (for emitters that
already compute in f32, e.g. fused kernels).
"""
from __future__ import annotations

import math
import struct
from typing import Callable

from .mlir_text import KernelBuilder, compute_dtype, narrow, negate_float, widen

F = "f32"
I = "i32"


def f32(v: float) -> float:
    """``v`` rounded to the nearest f32 (as a Python float)."""
    return struct.unpack("<f", struct.pack("<f", float(v)))[0]


# ---- tiny f32 / i32 emission helpers ----------------------------------------------------------


def _c(b: KernelBuilder, v: float) -> str:
    return b.float_const(f32(v), F)


def _ci(b: KernelBuilder, n: int) -> str:
    return b.int_const(n, I)


def _bin(b: KernelBuilder, op: str, x: str, y: str, ty: str = F) -> str:
    return b.op(f"arith.{op} {x}, {y} : {ty}")


def add(b, x, y):
    return _bin(b, "addf", x, y)


def sub(b, x, y):
    return _bin(b, "subf", x, y)


def mul(b, x, y):
    return _bin(b, "mulf", x, y)


def div(b, x, y):
    return _bin(b, "divf", x, y)


def neg(b, x):
    return negate_float(b, x, "f32")


def cmpf(b, pred: str, x, y):
    return b.op(f"arith.cmpf {pred}, {x}, {y} : {F}")


def cmpi(b, pred: str, x, y):
    return b.op(f"arith.cmpi {pred}, {x}, {y} : {I}")


def select(b, cond, x, y, ty: str = F):
    return b.op(f"arith.select {cond}, {x}, {y} : {ty}")


def to_bits(b, x):
    return b.op(f"arith.bitcast {x} : {F} to {I}")


def from_bits(b, n):
    return b.op(f"arith.bitcast {n} : {I} to {F}")


def is_nan(b, x):
    return cmpf(b, "uno", x, x)


def fabs(b, x):
    return from_bits(b, _bin(b, "andi", to_bits(b, x), _ci(b, 0x7FFFFFFF), I))


def keep_nan_zero(b, x):
    """i1: x is NaN or +-0 (odd functions return x itself there, sign of zero kept)."""
    return cmpf(b, "ueq", x, _c(b, 0.0))


def copysign(b, mag, sign_src):
    """|mag| with the sign bit of ``sign_src`` (``mag`` must be non-negative or -0/+0)."""
    sbit = _bin(b, "andi", to_bits(b, sign_src), _ci(b, -0x80000000), I)
    m = _bin(b, "andi", to_bits(b, mag), _ci(b, 0x7FFFFFFF), I)
    return from_bits(b, _bin(b, "ori", m, sbit, I))


def xor_sign(b, x, sign_src):
    """``x`` with its sign flipped where ``sign_src`` is negative (sign bit set)."""
    sbit = _bin(b, "andi", to_bits(b, sign_src), _ci(b, -0x80000000), I)
    return from_bits(b, _bin(b, "xori", to_bits(b, x), sbit, I))


def clamp(b, x, lo: float, hi: float):
    """min(max(x, lo), hi) with NaN -> lo (a finite value safe to convert to int)."""
    c_lo, c_hi = _c(b, lo), _c(b, hi)
    x = select(b, cmpf(b, "ogt", x, c_lo), x, c_lo)
    return select(b, cmpf(b, "olt", x, c_hi), x, c_hi)


def clamp_above(b, x, hi: float):
    """min(x, hi) with NaN -> hi."""
    c = _c(b, hi)
    return select(b, cmpf(b, "olt", x, c), x, c)


def mul_add(b, x, y, z):
    """x * y + z (f32): fused into one rounding in host vector bodies on CPUs with FMA (KernelBuilder.mul_add)."""
    return b.mul_add(x, y, z, F)


def poly(b, x, coeffs) -> str:
    """Horner: coeffs[0]*x^n + ... + coeffs[n] (highest degree first), one mul_add per step."""
    acc = _c(b, coeffs[0])
    for c in coeffs[1:]:
        acc = mul_add(b, acc, x, _c(b, c))
    return acc


# 1.5 * 2^23: (t + M) - M rounds t to the nearest integer (ties to even) for |t| < 2^22
_ROUND_MAGIC = 12582912.0


def round_small(b, t):
    """t rounded to an integer (ties to even), as f32; requires |t| < 2^22."""
    m = _c(b, _ROUND_MAGIC)
    return sub(b, add(b, t, m), m)


def to_i32(b, x):
    """fptosi; ``x`` must be a finite integer-valued float in i32 range."""
    return b.op(f"arith.fptosi {x} : {F} to {I}")


def pow2(b, k):
    """2^k as f32 for an i32 ``k`` in [-126, 127]."""
    e = _bin(b, "addi", k, _ci(b, 127), I)
    return from_bits(b, _bin(b, "shli", e, _ci(b, 23), I))


def ldexp(b, v, k):
    """v * 2^k for i32 k in [-252, 254], rounded once (gradual underflow, overflow to inf)."""
    k1 = _bin(b, "shrsi", k, _ci(b, 1), I)
    k2 = _bin(b, "subi", k, k1, I)
    return mul(b, mul(b, v, pow2(b, k1)), pow2(b, k2))


def two_prod(b, x, y):
    """(hi, lo) with hi + lo == x * y exactly (Dekker, no FMA; no overflow checks)."""
    hi = mul(b, x, y)
    xh, xl = _split(b, x)
    yh, yl = _split(b, y)
    err = sub(b, mul(b, xh, yh), hi)
    err = add(b, err, mul(b, xh, yl))
    err = add(b, err, mul(b, xl, yh))
    lo = add(b, err, mul(b, xl, yl))
    return hi, lo


def _split(b, x):
    """Veltkamp split of an f32 into two 12-bit halves: x == hi + lo."""
    t = mul(b, x, _c(b, 4097.0))  # 2^12 + 1
    hi = sub(b, t, sub(b, t, x))
    return hi, sub(b, x, hi)


# ---- exp ----------------------------------------------------------------------------------------

_LOG2E = 1.4426950408889634
_LN2_HI = 0.693359375  # 9 significant bits: k * _LN2_HI is exact for |k| < 2^15
_LN2_LO = -2.12194440e-4  # ln 2 - _LN2_HI
# Cephes expf: e^r - 1 - r ~ r^2 * P(r) on [-ln2/2, ln2/2]
_EXP_P = (1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1)
# Beyond these bounds exp is inf / rounds to 0 in f32; the reduced formula gives exactly that.
_EXP_HI = 89.0
_EXP_LO = -110.0  # below -103.97 e^x rounds to 0; -110 leaves room for callers
# that scale the mantissa (x * e^x with |x| <= 110 still rounds to 0 there)


def exp_parts(b, x):
    """(p, k): e^x == p * 2^k with p in [0.7, 1.42], k an i32 in [-159, 129].

    x is clamped to [-110, 89] first (NaN -> -110); callers handle NaN.
    ldexp(p, k) then rounds once (gradual underflow, overflow to inf).
    """
    kf, r = exp_reduce(b, clamp(b, x, _EXP_LO, _EXP_HI))
    p = add(b, mul_add(b, poly(b, r, _EXP_P), mul(b, r, r), r), _c(b, 1.0))
    return p, to_i32(b, kf)


def exp_reduce(b, x):
    """(kf, r): x = kf ln2 + r, kf = round(x log2 e) as f32, |r| <= ln2/2 (Cody-Waite: kf * _LN2_HI is
    exact, fused or not); |x| < 2^22 / log2 e."""
    kf = round_small(b, mul(b, x, _c(b, _LOG2E)))
    r = mul_add(b, kf, _c(b, -_LN2_HI), x)
    return kf, mul_add(b, kf, _c(b, -_LN2_LO), r)


def exp_f32(b: KernelBuilder, x: str) -> str:
    """e^x (f32). exp(x) = inf for x >= 88.7228, subnormal below -87.34 (gradual
    underflow, rounded once), 0 below -103.97; exp(-inf) = 0, exp(inf) = inf."""
    p, k = exp_parts(b, x)
    return select(b, is_nan(b, x), x, ldexp(b, p, k))


# ---- log, log1p -------------------------------------------------------------------------------

# Cephes logf: log(1 + f) ~ f - f^2/2 + f^3 * P(f) for 1 + f in [sqrt(1/2), sqrt(2)]
_LOG_P = (
    7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
    -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1,
)
_TINY = 1.1754943508222875e-38  # 2^-126, the smallest normal f32


def log_f32(b: KernelBuilder, x: str) -> str:
    """log(x) (f32): x = m * 2^e with m in [sqrt(1/2), sqrt(2)), log(m) by a
    polynomial in f = m - 1 (exact), + e * ln2 in two parts. Subnormals are
    scaled by 2^23 first. log(0) = -inf, log(x < 0) = NaN, log(inf) = inf."""
    sub_ = cmpf(b, "olt", x, _c(b, _TINY))
    xs = select(b, sub_, mul(b, x, _c(b, 2.0**23)), x)
    eadj = select(b, sub_, _ci(b, -23), _ci(b, 0), I)
    bits = to_bits(b, xs)
    e = _bin(b, "subi", _bin(b, "shrui", bits, _ci(b, 23), I), _ci(b, 127), I)
    e = _bin(b, "addi", e, eadj, I)
    mbits = _bin(b, "ori", _bin(b, "andi", bits, _ci(b, 0x7FFFFF), I), _ci(b, 0x3F800000), I)
    m = from_bits(b, mbits)  # [1, 2)
    big = cmpf(b, "ogt", m, _c(b, 1.4142135623730951))
    m = select(b, big, mul(b, m, _c(b, 0.5)), m)
    e = select(b, big, _bin(b, "addi", e, _ci(b, 1), I), e, I)
    f = sub(b, m, _c(b, 1.0))
    ef = b.op(f"arith.sitofp {e} : {I} to {F}")
    z = mul(b, f, f)
    y = mul(b, mul(b, f, z), poly(b, f, _LOG_P))
    y = add(b, y, mul(b, ef, _c(b, _LN2_LO)))
    y = sub(b, y, mul(b, z, _c(b, 0.5)))
    r = add(b, f, y)
    r = add(b, r, mul(b, ef, _c(b, _LN2_HI)))
    inf = _c(b, math.inf)
    r = select(b, cmpf(b, "oeq", x, inf), inf, r)
    r = select(b, cmpf(b, "oeq", x, _c(b, 0.0)), _c(b, -math.inf), r)
    return select(b, cmpf(b, "ult", x, _c(b, 0.0)), _c(b, math.nan), r)  # x < 0 or NaN


def log1p_f32(b: KernelBuilder, x: str) -> str:
    """log(1 + x) (f32): log(w) for w = 1 + x rounded, plus the correction
    (x - (w - 1)) / w for the rounding of w. log1p(-1) = -inf, x < -1 -> NaN."""
    one = _c(b, 1.0)
    w = add(b, x, one)
    corr = div(b, sub(b, x, sub(b, w, one)), w)
    ok = b.op(f"arith.andi {cmpf(b, 'ogt', w, _c(b, 0.0))}, {cmpf(b, 'olt', w, _c(b, math.inf))} : i1")
    corr = select(b, ok, corr, _c(b, 0.0))
    return select(b, keep_nan_zero(b, x), x, add(b, log_f32(b, w), corr))  # log1p(-0.0) = -0.0


def expm1_f32(b: KernelBuilder, x: str) -> str:
    """e^x - 1 (f32): 2^k * (p - 1) + (2^k - 1) with e^r = p from exp_parts; for
    k = 0 (|x| < ln2/2) that is p - 1 computed as r + r^2 * P(r) without
    cancellation. expm1(-inf) = -1, expm1(x > 88.72) = inf."""
    xc = clamp(b, x, -30.0, _EXP_HI)
    kf = round_small(b, mul(b, xc, _c(b, _LOG2E)))
    r = sub(b, xc, mul(b, kf, _c(b, _LN2_HI)))
    r = sub(b, r, mul(b, kf, _c(b, _LN2_LO)))
    z = mul(b, r, r)
    pm1 = add(b, mul(b, poly(b, r, _EXP_P), z), r)  # e^r - 1
    k = to_i32(b, kf)
    big = cmpi(b, "sgt", k, _ci(b, 100))
    sk = pow2(b, select(b, big, _ci(b, 0), k, I))  # 2^k, exact for k <= 100
    small_res = add(b, mul(b, sk, pm1), sub(b, sk, _c(b, 1.0)))
    big_res = ldexp(b, add(b, pm1, _c(b, 1.0)), k)  # the -1 is negligible
    res = select(b, big, big_res, small_res)
    return select(b, keep_nan_zero(b, x), x, res)  # expm1(-0.0) = -0.0


# ---- tanh, sigmoid ------------------------------------------------------------------------------

# Cephes tanhf: tanh(x) = x + x^3 * P(x^2) for |x| < 0.625
_TANH_P = (-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1)
_TANH_SMALL = 0.625
_TANH_CLAMP = 10.0  # tanh(x) rounds to +-1 in f32 beyond |x| = 9.01


def exp_normal(b, x):
    """e^x (f32) for x in [-87, 88] (no NaN): exp_parts' reduction and polynomial, 2^k applied by adding k
    to the exponent bits (exact: the result is normal), without exp_f32's clamps, NaN and subnormal cases."""
    kf, r = exp_reduce(b, x)
    p = add(b, mul_add(b, poly(b, r, _EXP_P), mul(b, r, r), r), _c(b, 1.0))
    k = _bin(b, "shli", to_i32(b, kf), _ci(b, 23), I)
    return from_bits(b, _bin(b, "addi", to_bits(b, p), k, I))


def tanh_f32(b: KernelBuilder, x: str) -> str:
    """tanh(x) (f32): odd polynomial for |x| < 0.625; else sign(x) * (1 - 2 /
    (e^(2|x|) + 1)) with |x| clamped to 10 (tanh = 1 in f32 beyond 9.01)."""
    a = fabs(b, x)
    z = mul(b, x, x)
    small = mul_add(b, mul(b, z, x), poly(b, z, _TANH_P), x)
    ac = clamp_above(b, a, _TANH_CLAMP)
    e = exp_normal(b, add(b, ac, ac))
    big = copysign(b, sub(b, _c(b, 1.0), div(b, _c(b, 2.0), add(b, e, _c(b, 1.0)))), x)
    res = select(b, cmpf(b, "olt", a, _c(b, _TANH_SMALL)), small, big)
    return select(b, keep_nan_zero(b, x), x, res)


def sigmoid_f32(b: KernelBuilder, x: str) -> str:
    """1 / (1 + e^-x) (f32) as num / (1 + e^-|x|) with num = 1 (x >= 0) or
    e^-|x| (x < 0): one exp, one division, no cancellation."""
    e = exp_f32(b, neg(b, fabs(b, x)))
    num = select(b, cmpf(b, "oge", x, _c(b, 0.0)), _c(b, 1.0), e)
    return div_by_one_plus(b, num, e)


def div_by_one_plus(b: KernelBuilder, num: str, e: str) -> str:
    """num / (1 + e) for e in [0, 1], with the rounding error of 1 + e corrected
    (d + dl == 1 + e exactly; num / (d + dl) ~ q - q * dl / d)."""
    one = _c(b, 1.0)
    d = add(b, one, e)
    dl = add(b, sub(b, one, d), e)  # exact (Fast2Sum, 1 >= e)
    q = div(b, num, d)
    qc = sub(b, q, div(b, mul(b, q, dl), d))
    # no correction for q = +-0 (keeps the sign of zero) or +-inf (would give inf - inf)
    aq = fabs(b, q)
    mid = b.op(f"arith.andi {cmpf(b, 'ogt', aq, _c(b, 0.0))}, {cmpf(b, 'olt', aq, _c(b, math.inf))} : i1")
    return select(b, mid, qc, q)


# ---- erf, erfc ----------------------------------------------------------------------------------

_ERF_T = 0.875  # below: erf(x) = x + x * P(x^2); above: 1 - erfc(|x|)
# erf(x)/x - 1 ~ P(x^2) on [0, 0.875] (fitted minimax; max abs error 1e-9)
_ERF_P = (
    7.796895079081878e-05, -0.0008012895123101771, 0.005190033931285143, -0.026855116710066795,
    0.11283620446920395, -0.3761262893676758, 0.12837916612625122,
)
# erfc(t) = e^(-t^2) * G / t; G ~ poly(t - 1.6875) on [0.875, 2.5] (A) and
# poly(1/t - 0.247619...) on [2.5, 10.5] (B), fitted, max rel error 4e-8
_ERFC_SPLIT = 2.5
_ERFC_MAX = 10.5  # erfc(t) < 2^-149 / 2 beyond
_ERFC_A_SHIFT = 1.6875
_ERFC_A = (
    7.040737546049058e-05, -0.0002301771310158074, 0.0005182909080758691, -0.001376718282699585,
    0.0036067510955035686, -0.00861146580427885, 0.018824707716703415, -0.03672543913125992,
    0.060141973197460175, 0.49508151412010193,
)
_ERFC_B_SHIFT = 0.24761904776096344
_ERFC_B = (
    0.0, 0.0, 0.0, 0.42571282386779785, -0.27987274527549744, -0.026049930602312088,
    0.21976792812347412, -0.16934122145175934, -0.11864420771598816, 0.5482812523841858,
)


def erf_small(b: KernelBuilder, x: str) -> str:
    """erf(x) for |x| <= 0.875 (f32)."""
    return add(b, mul(b, x, poly(b, mul(b, x, x), _ERF_P)), x)


def erfc_parts(b: KernelBuilder, t: str, sq_hi: str, sq_lo: str, times_t: bool = False):
    """(v, k): erfc(t) == v * 2^k for t in [0.875, 10.5] (f32), where t^2 ==
    sq_hi + sq_lo exactly (the caller computes the square without rounding:
    e^(-t^2) amplifies an error of t^2 by t^2). v is normal; the caller may
    scale it before applying 2^k with ldexp (one rounding, gradual underflow).
    ``times_t``: return t * erfc(t) instead (saves the division)."""
    in_a = cmpf(b, "olt", t, _c(b, _ERFC_SPLIT))
    rt = div(b, _c(b, 1.0), t)
    w = select(b, in_a, sub(b, t, _c(b, _ERFC_A_SHIFT)), sub(b, rt, _c(b, _ERFC_B_SHIFT)))
    acc = None
    for ca, cb in zip(_ERFC_A, _ERFC_B):
        c = _c(b, ca) if ca == cb else select(b, in_a, _c(b, ca), _c(b, cb))
        acc = c if acc is None else add(b, mul(b, acc, w), c)
    p, k = exp_parts(b, neg(b, sq_hi))
    p = sub(b, p, mul(b, p, sq_lo))  # e^(-lo) ~ 1 - lo, |lo| <= 2^-17
    v = mul(b, p, acc)
    return (v if times_t else div(b, v, t)), k


def square_exact(b: KernelBuilder, x: str):
    """(hi, lo) with hi + lo == x * x (no overflow / underflow checks)."""
    return two_prod(b, x, x)


def erf_f32(b: KernelBuilder, x: str) -> str:
    """erf(x) (f32): x + x * P(x^2) for |x| < 0.875, else sign(x) * (1 - erfc(|x|)),
    with erfc from erfc_parts; |x| is clamped to 4 (erf = 1 in f32 beyond 3.92)."""
    a = fabs(b, x)
    small = erf_small(b, x)
    t = clamp(b, a, _ERF_T, 4.0)
    hi, lo = square_exact(b, t)
    v, k = erfc_parts(b, t, hi, lo)
    big = copysign(b, sub(b, _c(b, 1.0), ldexp(b, v, k)), x)
    res = select(b, cmpf(b, "olt", a, _c(b, _ERF_T)), small, big)
    return select(b, is_nan(b, x), x, res)


def erfc_f32(b: KernelBuilder, x: str) -> str:
    """erfc(x) = 1 - erf(x) (f32), accurate (relative) in the tail x > 0.875."""
    a = fabs(b, x)
    one = _c(b, 1.0)
    small = sub(b, one, erf_small(b, x))
    t = clamp(b, a, _ERF_T, _ERFC_MAX)
    hi, lo = square_exact(b, t)
    v, k = erfc_parts(b, t, hi, lo)
    tail = ldexp(b, v, k)
    tail = select(b, cmpf(b, "ogt", a, _c(b, _ERFC_MAX)), _c(b, 0.0), tail)
    big = select(b, cmpf(b, "olt", x, _c(b, 0.0)), sub(b, _c(b, 2.0), tail), tail)
    res = select(b, cmpf(b, "olt", a, _c(b, _ERF_T)), small, big)
    return select(b, is_nan(b, x), x, res)


# ---- error-free sums -----------------------------------------------------------------------------


def two_sum(b, x, y):
    """(s, e) with s + e == x + y exactly (Knuth)."""
    s = add(b, x, y)
    bb = sub(b, s, x)
    e = add(b, sub(b, x, sub(b, s, bb)), sub(b, y, bb))
    return s, e


def fast_two_sum(b, x, y):
    """(s, e) with s + e == x + y exactly, for |x| >= |y| (Dekker's Fast2Sum)."""
    s = add(b, x, y)
    return s, sub(b, y, sub(b, s, x))


# ---- sqrt, rsqrt, recip -------------------------------------------------------------------------


def sqrt_f32(b: KernelBuilder, x: str) -> str:
    """sqrt(x) (f32), correctly rounded: x = m * 2^(2h) with m in [1, 4);
    rsqrt(m) by the bit-trick seed + 3 Newton steps; s = m * y corrected once
    with the exact residual m - s^2 (Dekker product), then a final +-1 ulp fix
    from the exact residual so that s is the nearest f32 to sqrt(m).
    sqrt(+-0) = +-0, sqrt(x < 0) = NaN, sqrt(inf) = inf."""
    sub_ = cmpf(b, "olt", x, _c(b, _TINY))
    xs = select(b, sub_, mul(b, x, _c(b, 2.0**24)), x)
    hadj = select(b, sub_, _ci(b, -12), _ci(b, 0), I)
    bits = to_bits(b, xs)
    e = _bin(b, "subi", _bin(b, "shrui", bits, _ci(b, 23), I), _ci(b, 127), I)
    h = _bin(b, "shrsi", e, _ci(b, 1), I)
    me = _bin(b, "addi", _bin(b, "subi", e, _bin(b, "shli", h, _ci(b, 1), I), I), _ci(b, 127), I)
    mbits = _bin(b, "ori", _bin(b, "andi", bits, _ci(b, 0x7FFFFF), I), _bin(b, "shli", me, _ci(b, 23), I), I)
    m = from_bits(b, mbits)  # [1, 4)
    y = from_bits(b, _bin(b, "subi", _ci(b, 0x5F3759DF), _bin(b, "shrui", mbits, _ci(b, 1), I), I))
    half_m = mul(b, m, _c(b, 0.5))
    for _ in range(3):
        y = mul(b, y, sub(b, _c(b, 1.5), mul(b, half_m, mul(b, y, y))))
    s = mul(b, m, y)
    hi, lo = two_prod(b, s, s)
    s = add(b, s, mul(b, sub(b, sub(b, m, hi), lo), mul(b, y, _c(b, 0.5))))
    # s in [1, 2]: ulp 2^-23. Round to nearest from the exact residual r = m - s^2
    # (a multiple of 2^-46, as is s * ulp): r > s*ulp -> s + ulp; r <= -s*ulp -> s - ulp.
    hi, lo = two_prod(b, s, s)
    r = sub(b, sub(b, m, hi), lo)
    u = _c(b, 2.0**-23)
    su = mul(b, s, u)
    s = select(b, cmpf(b, "ogt", r, su), add(b, s, u), select(b, cmpf(b, "ole", r, neg(b, su)), sub(b, s, u), s))
    res = mul(b, s, pow2(b, _bin(b, "addi", h, hadj, I)))
    inf = _c(b, math.inf)
    res = select(b, cmpf(b, "oeq", x, inf), inf, res)
    res = select(b, cmpf(b, "oeq", x, _c(b, 0.0)), x, res)  # keeps the sign of -0.0
    return select(b, cmpf(b, "ult", x, _c(b, 0.0)), _c(b, math.nan), res)


def rsqrt_f32(b: KernelBuilder, x: str) -> str:
    """1 / sqrt(x) (f32): the correctly rounded sqrt, then one IEEE division.
    rsqrt(+0) = inf, rsqrt(-0) = -inf (as 1/sqrt(-0.0)), rsqrt(inf) = 0."""
    return div(b, _c(b, 1.0), sqrt_f32(b, x))


def recip_f32(b: KernelBuilder, x: str) -> str:
    """1 / x (f32): one IEEE division (arith.divf), correctly rounded."""
    return div(b, _c(b, 1.0), x)


# ---- dtype wrapper ----------------------------------------------------------------------------


def via_f32(core: Callable[[KernelBuilder, str], str], b: KernelBuilder, x: str, dtype: str) -> str:
    """Apply an f32 builder ``core(b, x)`` to ``x`` of ``dtype``: a narrow float
    (f16, bf16) is extended to f32 and the result rounded back once."""
    if dtype == "f32":
        return core(b, x)
    if compute_dtype(dtype) == "f32":
        return narrow(b, core(b, widen(b, x, dtype)), dtype)
    raise ValueError(f"mathfns: unsupported dtype {dtype!r} (f32, f16, bf16)")


def exp(b: KernelBuilder, x: str, dtype: str) -> str:
    """e^x. f32: <= 1 ULP (see docs); overflow to inf at x > 88.72, gradual
    underflow (subnormals) down to x = -103.97, then 0."""
    return via_f32(exp_f32, b, x, dtype)


def log(b: KernelBuilder, x: str, dtype: str) -> str:
    """Natural logarithm. log(0) = -inf, log(x < 0) = NaN, log(inf) = inf."""
    return via_f32(log_f32, b, x, dtype)


def log1p(b: KernelBuilder, x: str, dtype: str) -> str:
    """log(1 + x), accurate near 0."""
    return via_f32(log1p_f32, b, x, dtype)


def expm1(b: KernelBuilder, x: str, dtype: str) -> str:
    """e^x - 1, accurate near 0."""
    return via_f32(expm1_f32, b, x, dtype)


def tanh(b: KernelBuilder, x: str, dtype: str) -> str:
    """Hyperbolic tangent; tanh(+-inf) = +-1."""
    return via_f32(tanh_f32, b, x, dtype)


def sigmoid(b: KernelBuilder, x: str, dtype: str) -> str:
    """1 / (1 + e^-x); sigmoid(-inf) = 0, sigmoid(inf) = 1."""
    return via_f32(sigmoid_f32, b, x, dtype)


def erf(b: KernelBuilder, x: str, dtype: str) -> str:
    """Gauss error function; erf(+-inf) = +-1."""
    return via_f32(erf_f32, b, x, dtype)


def erfc(b: KernelBuilder, x: str, dtype: str) -> str:
    """1 - erf(x), relative accuracy in the right tail."""
    return via_f32(erfc_f32, b, x, dtype)


def sqrt(b: KernelBuilder, x: str, dtype: str) -> str:
    """Square root, correctly rounded. sqrt(-0.0) = -0.0, sqrt(x < 0) = NaN."""
    return via_f32(sqrt_f32, b, x, dtype)


def rsqrt(b: KernelBuilder, x: str, dtype: str) -> str:
    """1 / sqrt(x). rsqrt(+0) = inf, rsqrt(-0) = -inf, rsqrt(x < 0) = NaN."""
    return via_f32(rsqrt_f32, b, x, dtype)


def recip(b: KernelBuilder, x: str, dtype: str) -> str:
    """1 / x (f16: computed in f32 and rounded once, which is exact rounding)."""
    return via_f32(recip_f32, b, x, dtype)
