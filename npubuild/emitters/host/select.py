"""Host emitters for compare (eq ne lt le gt ge), select (where, fma, clamp) and mod.

All broadcast like NumPy (``emit_elementwise``). Semantics, matching the NumPy
oracles bit for bit:

* compare: floats use IEEE ordered predicates, so any comparison with NaN is
  false except ``ne``, which is true (``une``); -0.0 == +0.0. The output is
  bool (one byte holding 0/1, see ``cast``).
* ``where``: ``cond ? a : b``, bit-exact (NaN payloads and signed zeros kept).
* ``fma``: ``a * b + c`` with two roundings (not fused), as NumPy computes it;
  f16 rounds the product to f16 before the add, as NumPy's f16 loops do;
  bf16, like every op here, runs the f32 body on widened inputs (the product
  of two bf16 values is exact in f32) and rounds once (``computed_wide``).
* ``clamp`` on floats is NumPy's ``clip``: ``x < min -> min``, then
  ``> max -> max``; a NaN ``x`` stays NaN and a NaN bound makes every element
  NaN; ``clip(-0.0, 0.0, ..)`` keeps -0.0 (x is only replaced when it
  compares strictly beyond a bound); ``min > max`` gives ``max``. The bounds
  are first rounded to the dtype (NEP 50: f16 bounds beyond 65504 become inf).
* ``clamp`` on integers: the oracle clips in float64 and casts back, i.e. the
  result is ``min(max(x, trunc(min)), trunc(max))`` with the bounds truncated
  toward zero and saturated to the dtype; a NaN bound gives 0 (``cast``'s
  rule for NaN). The kernel computes that in exact integer arithmetic: where
  the oracle is exact (in-range bounds, int64 ``|x| <= 2**53``) they agree;
  outside that NumPy's answer is rounded or platform-specific.
* ``mod`` (``fmod: false``, ``np.mod``): the result has the divisor's sign;
  floats follow NumPy's ``npy_remainder`` exactly: ``r = fmod(a, b)``, then
  ``r + b`` when ``r != 0`` and the signs of ``r`` and ``b`` differ, and a zero
  result gets ``b``'s sign; ``mod(a, 0)``, ``mod(+-inf, b)`` and NaN operands
  give NaN, ``mod(-1, inf) == inf``.
* ``mod`` with ``fmod: true`` (``np.fmod``, C ``fmod``): the result has the
  dividend's sign (zero too) and is exact.
* integer ``mod``/``fmod``: ``x % 0 == 0`` and ``MIN % -1 == 0`` (NumPy's
  results); nothing divides by zero or overflows (UB in LLVM).

Float ``fmod`` is computed without libm (no ``frem``, which lowers to a call):
the significands are integers ``ma * 2**ea``, ``mb * 2**eb``; the remainder is
``ma * 2**(ea - eb) mod mb``, done in chunks of shifts that fit in 64 bits
(7 chunks for f32, 1 for f16), then scaled back by ``2**eb`` exactly.
"""
from __future__ import annotations

import math
from typing import Callable

from ...specfile.instances import KernelInstance
from .cast import float_attr_value, int_attr_value
from .elementwise import emit_elementwise
from .mlir_text import (
    FLOAT_BITS_TYPE,
    FLOAT_SIGN_MASK,
    UNSIGNED,
    KernelBuilder,
    int_min,
    is_float,
    mlir_type,
)

# ---- compare -------------------------------------------------------------------------------------

_FLOAT_PRED = {"eq": "oeq", "ne": "une", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge"}
_INT_PRED = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}
_UINT_PRED = {"eq": "eq", "ne": "ne", "lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge"}


def _compare(name: str):
    def fn(b: KernelBuilder, v, dt):
        if is_float(dt):
            return b.op(f"arith.cmpf {_FLOAT_PRED[name]}, {v[0]}, {v[1]} : {mlir_type(dt)}")
        pred = (_UINT_PRED if dt in UNSIGNED else _INT_PRED)[name]
        return b.op(f"arith.cmpi {pred}, {v[0]}, {v[1]} : {mlir_type(dt)}")

    return fn


# ---- where / fma ---------------------------------------------------------------------------------


def _where(b: KernelBuilder, v, dt):
    return b.op(f"arith.select {v[0]}, {v[1]}, {v[2]} : {mlir_type(dt)}")


def _fma(b: KernelBuilder, v, dt):
    a, x, c = v
    if dt == "f16":  # NumPy: each f16 op computed in f32, rounded to f16
        a32, x32, c32 = (b.op(f"arith.extf {u} : f16 to f32") for u in (a, x, c))
        p = b.op(f"arith.mulf {a32}, {x32} : f32")
        p16 = b.op(f"arith.truncf {p} : f32 to f16")
        p32 = b.op(f"arith.extf {p16} : f16 to f32")
        s = b.op(f"arith.addf {p32}, {c32} : f32")
        return b.op(f"arith.truncf {s} : f32 to f16")
    t = mlir_type(dt)
    p = b.op(f"arith.mulf {a}, {x} : {t}")  # no fastmath flags: LLVM does not contract
    return b.op(f"arith.addf {p}, {c} : {t}")


# ---- clamp ---------------------------------------------------------------------------------------


def _clamp(attrs: dict):
    def fn(b: KernelBuilder, v, dt):
        x = v[0]
        t = mlir_type(dt)
        if is_float(dt):
            lo, hi = float_attr_value(attrs["min"], dt), float_attr_value(attrs["max"], dt)
            if math.isnan(lo) or math.isnan(hi):
                return b.float_const(math.nan, dt)  # NumPy: every element NaN
            r = x
            if lo != -math.inf:
                below = b.op(f"arith.cmpf olt, {r}, {b.float_const(lo, dt)} : {t}")
                r = b.op(f"arith.select {below}, {b.float_const(lo, dt)}, {r} : {t}")
            if hi != math.inf:
                above = b.op(f"arith.cmpf ogt, {r}, {b.float_const(hi, dt)} : {t}")
                r = b.op(f"arith.select {above}, {b.float_const(hi, dt)}, {r} : {t}")
            return r
        if math.isnan(attrs["min"]) or math.isnan(attrs["max"]):
            return b.int_const(0, dt)
        lo, hi = int_attr_value(attrs["min"], dt), int_attr_value(attrs["max"], dt)
        r = x
        if lo > int_min(dt):
            r = b.op(f"arith.maxsi {r}, {b.int_const(lo, dt)} : {t}")
        if hi < -int_min(dt) - 1:
            r = b.op(f"arith.minsi {r}, {b.int_const(hi, dt)} : {t}")
        return r

    return fn


# ---- mod -----------------------------------------------------------------------------------------

# float dtype -> (mantissa bits, chunk shift, number of chunks, work float, its bits type,
#                 its mantissa bits, its exponent bias, our exponent bias)
_FMOD = {
    # f32: significand < 2**24, so a shift of 40 stays below 2**64; exponent gap <= 253 -> 7 chunks
    "f32": (23, 40, 7, "f64", "i64", 52, 1023, 127),
    # f16: significand < 2**11, shift <= 53; exponent gap <= 29 -> 1 chunk
    "f16": (10, 53, 1, "f32", "i32", 23, 127, 15),
}


def _signed(v: int, bits: int) -> int:
    """The two's-complement reading of the unsigned ``v`` (for MLIR integer literals)."""
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


def _fmod_float(b: KernelBuilder, a: str, c: str, dt: str) -> str:
    """C fmod(a, c), exact: the result has a's sign; NaN when c == 0, a is inf or either is NaN."""
    mb_bits, chunk, n_chunks, wf, wbits, wmb, wbias, bias = _FMOD[dt]
    t, it = mlir_type(dt), FLOAT_BITS_TYPE[dt]
    width = int(it[1:])
    sign = FLOAT_SIGN_MASK[dt]
    inf_bits = ((1 << (width - 1 - mb_bits)) - 1) << mb_bits

    def k(v: int, ty: str) -> str:
        return b.int_const(_signed(v, int(ty[1:])), ty)

    a_bits = b.op(f"arith.bitcast {a} : {t} to {it}")
    c_bits = b.op(f"arith.bitcast {c} : {t} to {it}")
    a_mag = b.op(f"arith.andi {a_bits}, {k(sign - 1, it)} : {it}")
    c_mag = b.op(f"arith.andi {c_bits}, {k(sign - 1, it)} : {it}")
    a_sign = b.op(f"arith.andi {a_bits}, {k(sign, it)} : {it}")

    def significand(mag):
        """(m, e) with |x| = m * 2**(e - bias - mb_bits), e >= 1 (subnormals: e = 1, no hidden bit)."""
        w = b.op(f"arith.extui {mag} : {it} to i64")
        e = b.op(f"arith.shrui {w}, {k(mb_bits, 'i64')} : i64")
        m = b.op(f"arith.andi {w}, {k((1 << mb_bits) - 1, 'i64')} : i64")
        normal = b.op(f"arith.cmpi ne, {e}, {k(0, 'i64')} : i64")
        m_h = b.op(f"arith.ori {m}, {k(1 << mb_bits, 'i64')} : i64")
        m = b.op(f"arith.select {normal}, {m_h}, {m} : i64")
        e = b.op(f"arith.maxui {e}, {k(1, 'i64')} : i64")
        return m, e

    ma, ea = significand(a_mag)
    mc, ec = significand(c_mag)
    mc_zero = b.op(f"arith.cmpi eq, {mc}, {k(0, 'i64')} : i64")
    mc = b.op(f"arith.select {mc_zero}, {k(1, 'i64')}, {mc} : i64")  # c == 0: result is NaN anyway
    r = b.op(f"arith.remui {ma}, {mc} : i64")
    gap = b.op(f"arith.subi {ea}, {ec} : i64")
    gap = b.op(f"arith.maxsi {gap}, {k(0, 'i64')} : i64")  # |a| < |c|: result is a anyway
    for step in range(n_chunks):
        s = b.op(f"arith.minui {gap}, {k(chunk, 'i64')} : i64")
        r = b.op(f"arith.shli {r}, {s} : i64")
        r = b.op(f"arith.remui {r}, {mc} : i64")
        if step + 1 < n_chunks:
            gap = b.op(f"arith.subi {gap}, {s} : i64")
    # |result| = r * 2**(ec - bias - mb_bits): exact in the work float, and in dt
    rf = b.op(f"arith.uitofp {r} : i64 to {wf}")
    e_w = b.op(f"arith.addi {ec}, {k(wbias - bias - mb_bits, 'i64')} : i64")
    if wbits != "i64":
        e_w = b.op(f"arith.trunci {e_w} : i64 to {wbits}")
    scale_bits = b.op(f"arith.shli {e_w}, {k(wmb, wbits)} : {wbits}")
    scale = b.op(f"arith.bitcast {scale_bits} : {wbits} to {wf}")
    mag_w = b.op(f"arith.mulf {rf}, {scale} : {wf}")
    mag = b.op(f"arith.truncf {mag_w} : {wf} to {t}")
    mag_bits = b.op(f"arith.bitcast {mag} : {t} to {it}")
    res_bits = b.op(f"arith.ori {mag_bits}, {a_sign} : {it}")
    res = b.op(f"arith.bitcast {res_bits} : {it} to {t}")
    smaller = b.op(f"arith.cmpi ult, {a_mag}, {c_mag} : {it}")  # also: c = +-inf, a finite
    res = b.op(f"arith.select {smaller}, {a}, {res} : {t}")
    a_inf_nan = b.op(f"arith.cmpi uge, {a_mag}, {k(inf_bits, it)} : {it}")
    c_nan = b.op(f"arith.cmpi ugt, {c_mag}, {k(inf_bits, it)} : {it}")
    c_zero = b.op(f"arith.cmpi eq, {c_mag}, {k(0, it)} : {it}")
    nan = b.op(f"arith.ori {a_inf_nan}, {c_nan} : i1")
    nan = b.op(f"arith.ori {nan}, {c_zero} : i1")
    return b.op(f"arith.select {nan}, {b.float_const(math.nan, dt)}, {res} : {t}")


def _mod_float(b: KernelBuilder, a: str, c: str, dt: str, fmod: bool) -> str:
    r = _fmod_float(b, a, c, dt)
    if fmod:
        return r
    t, it = mlir_type(dt), FLOAT_BITS_TYPE[dt]
    zero = b.float_const(0.0, dt)
    # npy_remainder: adjust a non-zero (or NaN) remainder whose sign differs from c's
    r_nz = b.op(f"arith.cmpf une, {r}, {zero} : {t}")
    r_neg = b.op(f"arith.cmpf olt, {r}, {zero} : {t}")
    c_neg = b.op(f"arith.cmpf olt, {c}, {zero} : {t}")
    differ = b.op(f"arith.xori {r_neg}, {c_neg} : i1")
    adjust = b.op(f"arith.andi {r_nz}, {differ} : i1")
    r_plus = b.op(f"arith.addf {r}, {c} : {t}")
    r = b.op(f"arith.select {adjust}, {r_plus}, {r} : {t}")
    # a zero remainder takes c's sign
    c_bits = b.op(f"arith.bitcast {c} : {t} to {it}")
    width = int(it[1:])
    z_bits = b.op(f"arith.andi {c_bits}, {b.int_const(_signed(FLOAT_SIGN_MASK[dt], width), it)} : {it}")
    signed_zero = b.op(f"arith.bitcast {z_bits} : {it} to {t}")
    return b.op(f"arith.select {r_nz}, {r}, {signed_zero} : {t}")


def _mod_int(b: KernelBuilder, a: str, c: str, dt: str, fmod: bool) -> str:
    t = mlir_type(dt)
    zero, one, minus_one = (b.int_const(n, dt) for n in (0, 1, -1))
    # x % 0 == 0 and x % -1 == 0 (MIN % -1 would overflow): divide by 1 instead
    c_zero = b.op(f"arith.cmpi eq, {c}, {zero} : {t}")
    c_m1 = b.op(f"arith.cmpi eq, {c}, {minus_one} : {t}")
    bad = b.op(f"arith.ori {c_zero}, {c_m1} : i1")
    d = b.op(f"arith.select {bad}, {one}, {c} : {t}")
    r = b.op(f"arith.remsi {a}, {d} : {t}")  # C remainder: the dividend's sign
    if fmod:
        return r
    r_nz = b.op(f"arith.cmpi ne, {r}, {zero} : {t}")
    r_neg = b.op(f"arith.cmpi slt, {r}, {zero} : {t}")
    d_neg = b.op(f"arith.cmpi slt, {d}, {zero} : {t}")
    differ = b.op(f"arith.xori {r_neg}, {d_neg} : i1")
    adjust = b.op(f"arith.andi {r_nz}, {differ} : i1")
    r_plus = b.op(f"arith.addi {r}, {d} : {t}")
    return b.op(f"arith.select {adjust}, {r_plus}, {r} : {t}")


def _mod(attrs: dict):
    fmod = bool(attrs["fmod"])

    def fn(b: KernelBuilder, v, dt):
        if is_float(dt):
            return _mod_float(b, v[0], v[1], dt, fmod)
        return _mod_int(b, v[0], v[1], dt, fmod)

    return fn


# ---- registration --------------------------------------------------------------------------------


def _fixed(fn, title: str) -> Callable[[KernelInstance], str]:
    return lambda inst: emit_elementwise(inst, fn, title)


def _with_attrs(make, title: str) -> Callable[[KernelInstance], str]:
    return lambda inst: emit_elementwise(inst, make(inst.attrs), title)


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {
    **{name: _fixed(_compare(name), "compare, NumPy broadcasting") for name in _FLOAT_PRED},
    "where": _fixed(_where, "select, NumPy broadcasting"),
    "fma": _fixed(_fma, "a * b + c, two roundings, NumPy broadcasting"),
    "clamp": _with_attrs(_clamp, "clamp as np.clip"),
    "mod": _with_attrs(_mod, "remainder, NumPy broadcasting"),
}
