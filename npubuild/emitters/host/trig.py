"""sin and cos expanded into plain ``arith`` operations (the conventions of :mod:`.mathfns`):
Cody-Waite reduction by pi/2 in five parts, then the Cephes polynomial of the quadrant."""
from __future__ import annotations

import math

from .mathfns import (
    I, KernelBuilder, _bin, _c, _ci, add, clamp, cmpf, cmpi, fabs, mul, neg, poly, round_small, select, sub,
    to_i32, two_sum, via_f32,
)

_TWO_OVER_PI = 0.6366197723675814
# pi/2 = _PIO2[0] + ... + _PIO2[4]: four parts of <= 11 significant bits (j * part is
# exact for |j| <= 2^13) and the f32-rounded rest (pi/2 to ~68 bits)
_PIO2 = (1.5703125, 0.0004837512969970703, 7.549533620476723e-08, 2.5632829192545614e-12, 6.123234262925839e-17)
SINCOS_EXACT_RANGE = 12867.0  # |x| <= this: |j| <= 8192, exact Cody-Waite reduction
_SINCOS_CLAMP = 6.5e6  # |x| * 2/pi < 2^22 (the rounding trick); larger |x| -> see _sincos
# Cephes sinf/cosf on [-pi/4, pi/4]
_SIN_P = (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)
_COS_P = (2.443315711809948e-05, -1.388731625493765e-03, 4.166664568298827e-02)


def _sincos(b: KernelBuilder, x: str, quadrant_offset: int) -> str:
    xc = clamp(b, x, -_SINCOS_CLAMP, _SINCOS_CLAMP)
    jf = round_small(b, mul(b, xc, _c(b, _TWO_OVER_PI)))
    p = [_c(b, v) for v in _PIO2]
    r1 = sub(b, xc, mul(b, jf, p[0]))  # exact
    s, e1 = two_sum(b, r1, neg(b, mul(b, jf, p[1])))
    s, e2 = two_sum(b, s, neg(b, mul(b, jf, p[2])))
    t = sub(b, sub(b, add(b, e1, e2), mul(b, jf, p[3])), mul(b, jf, p[4]))
    rh, rl = two_sum(b, s, t)
    z = mul(b, rh, rh)
    sin_r = add(b, rh, add(b, rl, mul(b, mul(b, rh, z), poly(b, z, _SIN_P))))
    cos_r = add(b, sub(b, mul(b, mul(b, z, z), poly(b, z, _COS_P)), mul(b, z, _c(b, 0.5))), _c(b, 1.0))
    cos_r = sub(b, cos_r, mul(b, rh, rl))
    q = _bin(b, "addi", to_i32(b, jf), _ci(b, quadrant_offset), I)
    odd = cmpi(b, "ne", _bin(b, "andi", q, _ci(b, 1), I), _ci(b, 0))
    negate = cmpi(b, "ne", _bin(b, "andi", q, _ci(b, 2), I), _ci(b, 0))
    v = select(b, odd, cos_r, sin_r)
    v = select(b, negate, neg(b, v), v)
    v = clamp(b, v, -1.0, 1.0)  # keeps |x| > 12867 (inexact reduction) in range
    if quadrant_offset == 0:
        v = select(b, cmpf(b, "oeq", x, _c(b, 0.0)), x, v)  # sin(-0.0) = -0.0
    bad = cmpf(b, "uge", fabs(b, x), _c(b, math.inf))  # NaN or inf -> NaN
    return select(b, bad, _c(b, math.nan), v)


def sin_f32(b: KernelBuilder, x: str) -> str:
    """sin(x) (f32): x - j * pi/2 (Cody-Waite, exact for |x| <= 12867), then the
    sin or cos polynomial of the quadrant. sin(+-inf) = NaN, sin(-0) = -0."""
    return _sincos(b, x, 0)


def cos_f32(b: KernelBuilder, x: str) -> str:
    """cos(x) (f32): as sin_f32, one quadrant on. cos(+-inf) = NaN."""
    return _sincos(b, x, 1)


def sin(b: KernelBuilder, x: str, dtype: str) -> str:
    """Sine; accurate for |x| <= 12867 (see SINCOS_EXACT_RANGE); sin(+-inf) = NaN."""
    return via_f32(sin_f32, b, x, dtype)


def cos(b: KernelBuilder, x: str, dtype: str) -> str:
    """Cosine; accurate for |x| <= 12867 (see SINCOS_EXACT_RANGE); cos(+-inf) = NaN."""
    return via_f32(cos_f32, b, x, dtype)
