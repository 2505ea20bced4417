"""Host emitter for ``cast``, and the attr-value conversions other emitters share.

``cast`` from dtype ``s`` to ``attrs["to"]`` (every pair of
f32/f16/bf16/i8/u8/i32/i64/bool), elementwise:

* float -> float goes through f32: ``f16 -> f32`` and ``bf16 -> f32`` are
  exact; ``f32 -> f16`` and ``f32 -> bf16`` round to nearest even, overflow to
  +-inf, NaN stays NaN (as NumPy and ml_dtypes); ``f16 -> bf16`` and
  ``bf16 -> f16`` are one exact widening and one rounding (f16's 11 bits do
  not fit bf16's 8, and bf16's exponent range does not fit f16's);
* int -> float: rounds to nearest even (``i64 -> f32``, ``i32 -> f32`` for
  ``|x| > 2**24``); ``int -> f16`` goes through f32, which is exact whenever
  the f16 result is finite (every such integer is below 65520); ``int -> bf16``
  goes through f32 too, which rounds twice for ``|x| > 2**24``: the oracle
  (npubuild.ops.bf16) converts through f32 the same way, so the two agree
  (``x.astype(ml_dtypes.bfloat16)`` of an integer rounds once and can differ
  by one bf16 ulp);
* int -> int: sign-extends (u8: zero-extends) or wraps (keeps the low bits), as
  NumPy ``astype``; i8 <-> u8 keeps the byte;
* float -> int truncates toward zero (the oracle: ``np.trunc`` then ``astype``).
  NumPy's result for NaN and for values whose truncation is outside the
  destination's range is platform-specific (C undefined behaviour; LLVM's
  ``fptosi`` is poison there). The host kernel **saturates**: NaN -> 0,
  ``x >= 2**(bits-1)`` (including +inf) -> MAX, ``x < -2**(bits-1)`` (including
  -inf) -> MIN — the rule of LLVM's ``fptosi.sat``, Rust's ``as`` and Java;
  u8 saturates to [0, 255] the same way (``fptoui.sat``: ``x <= -1`` -> 0);
  Tests compare those inputs against this rule, not against NumPy;
* anything -> bool is ``x != 0`` (NaN -> True, -0.0 -> False, as NumPy);
  bool -> anything is 0 or 1.

ABI: a bool buffer is one byte per element holding 0 or 1, exactly NumPy's
bool layout. The kernel signature declares it ``memref<...xi8>`` (MLIR's
memref-to-LLVM lowering asserts on ``i1`` elements); ``KernelBuilder.load``
reads ``byte != 0`` and ``store`` writes ``extui`` of the i1 (see mlir_text).

The helpers ``float_attr_value`` and ``int_attr_value`` convert a float attr
(clamp bounds, the pad fill value) to a dtype with the same rules, at emit
time, in pure Python (no NumPy on the build path).
"""
from __future__ import annotations

import math
import struct
from typing import Callable

from ...specfile.instances import KernelInstance
from .elementwise import emit_elementwise
from .mlir_text import (
    INT_BITS,
    UNSIGNED,
    WIDENED_FLOATS,
    KernelBuilder,
    compute_dtype,
    int_max,
    int_min,
    is_float,
    mlir_type,
    narrow,
    widen,
)

# ---- emit-time conversions (Python) --------------------------------------------------------------


def float_attr_value(value: float, dtype: str) -> float:
    """``value`` rounded to the float dtype (nearest even, overflow -> +-inf), as NumPy."""
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        return value
    if dtype == "bf16":  # through f32, as the bf16 oracle rounds attrs (npubuild.ops.bf16)
        return _f32_to_bf16(float_attr_value(value, "f32"))
    fmt = {"f32": "<f", "f16": "<e"}[dtype]
    try:
        return struct.unpack(fmt, struct.pack(fmt, value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def _f32_to_bf16(value: float) -> float:
    """An f32 value rounded to bf16, nearest even (finite values may round to +-inf)."""
    if math.isnan(value) or math.isinf(value):
        return value
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def int_attr_value(value: float, dtype: str) -> int:
    """``value`` truncated toward zero into the int dtype, saturating; NaN -> 0 (see ``cast``)."""
    value = float(value)
    if math.isnan(value):
        return 0
    if math.isinf(value):
        return int_max(dtype) if value > 0 else int_min(dtype)
    return min(max(int(math.trunc(value)), int_min(dtype)), int_max(dtype))


def attr_constant(b: KernelBuilder, value: float, dtype: str) -> str:
    """A hoisted constant of ``dtype`` holding the float attr ``value`` converted as ``cast`` does."""
    if is_float(dtype):
        return b.float_const(float_attr_value(value, dtype), dtype)
    if dtype == "bool":
        return b.int_const(1 if float(value) != 0.0 or math.isnan(float(value)) else 0, "i1")
    return b.int_const(int_attr_value(value, dtype), dtype)


# ---- MLIR scalar conversion -------------------------------------------------------------------------


def _float_to_int(b: KernelBuilder, x: str, src: str, dst: str) -> str:
    """Truncate toward zero, saturating; NaN -> 0 (fptosi / fptoui only ever see in-range values).

    Signed: x in [-2**(bits-1), 2**(bits-1)) truncates in range; unsigned (u8): x in (-1, 2**bits)."""
    x = widen(b, x, src)  # f16, bf16 -> f32: exact
    bits = INT_BITS[dst]
    t = mlir_type(dst)
    unsigned = dst in UNSIGNED
    hi = b.float_const(2.0 ** (bits if unsigned else bits - 1), "f32")  # exact powers of two
    lo = b.float_const(-1.0 if unsigned else -(2.0 ** (bits - 1)), "f32")
    above_lo, below_lo = ("ogt", "ole") if unsigned else ("oge", "olt")
    ge_lo = b.op(f"arith.cmpf {above_lo}, {x}, {lo} : f32")
    lt_hi = b.op(f"arith.cmpf olt, {x}, {hi} : f32")
    in_range = b.op(f"arith.andi {ge_lo}, {lt_hi} : i1")  # false for NaN
    safe = b.op(f"arith.select {in_range}, {x}, {b.float_const(0.0, 'f32')} : f32")
    v = b.op(f"arith.{'fptoui' if unsigned else 'fptosi'} {safe} : f32 to {t}")
    too_big = b.op(f"arith.cmpf oge, {x}, {hi} : f32")
    v = b.op(f"arith.select {too_big}, {b.int_const(int_max(dst), dst)}, {v} : {t}")
    too_small = b.op(f"arith.cmpf {below_lo}, {x}, {lo} : f32")
    return b.op(f"arith.select {too_small}, {b.int_const(int_min(dst), dst)}, {v} : {t}")


def convert(b: KernelBuilder, x: str, src: str, dst: str) -> str:
    """The value ``x`` of dtype ``src`` converted to ``dst`` (the rules in the module docstring)."""
    if src == dst:
        return x
    ts, td = mlir_type(src), mlir_type(dst)
    if dst == "bool":
        if is_float(src):
            if src in WIDENED_FLOATS:  # no bf16 compare: in f32 (exact)
                x, src, ts = widen(b, x, src), compute_dtype(src), mlir_type(compute_dtype(src))
            return b.op(f"arith.cmpf une, {x}, {b.float_const(0.0, src)} : {ts}")  # NaN -> true
        return b.op(f"arith.cmpi ne, {x}, {b.int_const(0, src)} : {ts}")
    if src == "bool":
        if dst in WIDENED_FLOATS:  # no bf16 select: 0.0 or 1.0 in f32, narrowed (exact)
            return narrow(b, convert(b, x, src, compute_dtype(dst)), dst)
        if is_float(dst):
            return b.op(f"arith.select {x}, {b.float_const(1.0, dst)}, {b.float_const(0.0, dst)} : {td}")
        return b.op(f"arith.extui {x} : i1 to {td}")
    if is_float(src) and is_float(dst):
        return narrow(b, widen(b, x, src), dst)  # through f32: one exact widening, one rounding
    if is_float(src):
        return _float_to_int(b, x, src, dst)
    if is_float(dst):
        to_fp = "uitofp" if src in UNSIGNED else "sitofp"
        f = b.op(f"arith.{to_fp} {x} : {ts} to {mlir_type(compute_dtype(dst))}")
        return narrow(b, f, dst)  # f16, bf16: through f32
    if INT_BITS[dst] > INT_BITS[src]:
        return b.op(f"arith.{'extui' if src in UNSIGNED else 'extsi'} {x} : {ts} to {td}")
    if INT_BITS[dst] == INT_BITS[src]:  # i8 <-> u8: the same bits
        return x
    return b.op(f"arith.trunci {x} : {ts} to {td}")


def _emit_cast(inst: KernelInstance) -> str:
    dst = inst.attrs["to"]

    def fn(b: KernelBuilder, v, dt):
        return convert(b, v[0], dt, dst)

    return emit_elementwise(inst, fn, f"cast to {dst}", native=True)


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {"cast": _emit_cast}
