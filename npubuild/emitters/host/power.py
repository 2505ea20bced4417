"""Host emitter for ``pow`` with a tensor exponent (NumPy broadcasting): ``x ** y`` as
``exp(y · log|x|)`` in f32 (:mod:`.mathfns`, no libm), with the special cases of C99's ``pow``
(Annex F.9.4.4, which the float64 oracle ``numpy.power`` follows) decided before the formula:

* ``y == ±0`` or ``x == 1``: 1, even for NaN; otherwise a NaN operand gives NaN;
* ``|x| == 1`` and ``y == ±inf``: 1;
* a negative finite ``x`` with a finite non-integer ``y``: NaN;
* the sign: negative (sign bit set, so ``-0.0`` and ``-inf`` too) when ``x`` is negative and ``y`` an
  odd integer (every f32 of magnitude >= 2**24 is an even integer); the magnitude is
  ``exp(y · log|x|)``, whose infinities and zeros are the limits C99 lists (``pow(±0, y < 0) = inf``,
  ``pow(x, -inf) = inf`` for ``|x| < 1``, ...).

``y`` of 1, 2, 3 or -1 (squares, cubes, reciprocals: what models write) is multiplied out instead:
``x``, ``x·x``, ``(x·x)·x``, ``1/x``, exact where the power is representable (``2 ** 3 == 8``) and within
an ulp otherwise; C99's special cases hold for those products as they stand.

Accuracy: f32 is within ``(|y·ln|x|| + 4) · 2**-23`` relative of the oracle, plus ``2**-149``
absolute for subnormal results (the rounding of ``log|x|`` and of the product, magnified by exp,
plus exp's own ulp); f16 and bf16 are computed in
f32 and rounded once, within one ulp of their dtype. Vector body: the same f32 code on vector lanes
where the last axis allows it (host only: it uses bit casts, which aievec does not lower).
"""
from __future__ import annotations

import math
from typing import Callable

from ...specfile.instances import KernelInstance
from . import mathfns as M
from .elementwise import emit_elementwise
from .mlir_text import KernelBuilder, narrow, widen

_BIG_INT = 2.0**24  # every f32 at least this large is an even integer


def _i1(b: KernelBuilder, op: str, p: str, q: str) -> str:
    return b.op(f"arith.{op} {p}, {q} : i1")


def pow_f32(b: KernelBuilder, x: str, y: str) -> str:
    one, inf = M._c(b, 1.0), M._c(b, math.inf)
    ax, ay = M.fabs(b, x), M.fabs(b, y)
    r = M.exp_f32(b, M.mul(b, y, M.log_f32(b, ax)))
    # integer and parity of y, from its truncation where that is exact
    small = M.cmpf(b, "olt", ay, M._c(b, _BIG_INT))
    t = M.to_i32(b, M.select(b, small, y, M._c(b, 0.0)))
    whole_small = _i1(b, "andi", small, M.cmpf(b, "oeq", b.op(f"arith.sitofp {t} : i32 to f32"), y))
    whole = _i1(b, "ori", whole_small, _i1(b, "andi", M.cmpf(b, "oge", ay, M._c(b, _BIG_INT)),
                                            M.cmpf(b, "one", ay, inf)))
    low_bit = M.cmpi(b, "ne", M._bin(b, "andi", t, M._ci(b, 1), "i32"), M._ci(b, 0))
    odd = _i1(b, "andi", whole_small, low_bit)
    r = M.select(b, odd, M.xor_sign(b, r, x), r)
    # a negative finite base with a finite non-integer exponent has no real power
    neg_finite = _i1(b, "andi", M.cmpf(b, "olt", x, M._c(b, 0.0)), M.cmpf(b, "one", x, M._c(b, -math.inf)))
    fraction = _i1(b, "andi", M.cmpf(b, "olt", ay, inf), _i1(b, "xori", whole, b.int_const(1, "i1")))
    r = M.select(b, _i1(b, "andi", neg_finite, fraction), M._c(b, math.nan), r)
    # the exponents models write (squares, cubes, reciprocals): multiplied out, within an ulp and exact where
    # the power is representable; C99's special cases hold for these products as they stand
    sq = M.mul(b, x, x)
    for k, power in ((1.0, x), (2.0, sq), (3.0, M.mul(b, sq, x)), (-1.0, M.div(b, one, x))):
        r = M.select(b, M.cmpf(b, "oeq", y, M._c(b, k)), power, r)
    unit_inf = _i1(b, "andi", M.cmpf(b, "oeq", ax, one), M.cmpf(b, "oeq", ay, inf))
    trivial = _i1(b, "ori", M.cmpf(b, "oeq", y, M._c(b, 0.0)), M.cmpf(b, "oeq", x, one))
    return M.select(b, _i1(b, "ori", trivial, unit_inf), one, r)


def _pow(b: KernelBuilder, v, dt):
    """The binary scalar fn: f16 widened to f32 and rounded once (bf16 arrives widened)."""
    if dt == "f32":
        return pow_f32(b, v[0], v[1])
    return narrow(b, pow_f32(b, widen(b, v[0], dt), widen(b, v[1], dt)), dt)


def _emit_pow(inst: KernelInstance) -> str:
    return emit_elementwise(inst, _pow, "pow: exp(y log|x|) in f32 with C99's special cases, NumPy broadcasting")


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {"pow": _emit_pow}
