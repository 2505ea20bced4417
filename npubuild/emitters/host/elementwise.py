"""Host emitters for elementwise unary and binary ops (NumPy broadcasting).

Semantics (they match the NumPy oracle; where NumPy itself is not consistent,
the choice is written here and in the docs):

* integers wrap (two's complement) like NumPy: ``neg(MIN) == MIN``,
  ``abs(MIN) == MIN``, ``add``/``sub``/``mul`` modulo 2^bits;
* integer ``div`` is floor division; ``x // 0 == 0`` and ``MIN // -1 == MIN``
  (NumPy's results, which it reports with a RuntimeWarning);
* float ``max``/``min``/``relu`` are ``arith.maximumf``/``minimumf`` as
  ``arith-expand`` lowers them (the host pipeline runs it, and so does aiecc on
  core code): ``select(a > b, a, b)`` plus NaN propagation, so NaN propagates,
  ``relu(-0.0) == +0.0``, and of a +0.0/-0.0 pair the second operand is
  returned. (NumPy also returns one argument or the other depending on the
  dtype's loop; values compare equal either way.)
* float ``neg`` flips and ``abs`` clears the sign bit (exact for -0.0 and NaN);
* f16 arithmetic is computed in f32 and rounded once (exact for + - * /, as in
  NumPy);
* bf16 (``mlir_text.WIDENED_FLOATS``): every bf16 input is widened to f32, the
  op's f32 body runs, and a bf16 result is rounded once (the oracle's rule,
  npubuild.ops.bf16); ``neg``/``abs`` stay sign-bit operations on the i16
  pattern, and ``cast`` converts itself (``native``).
"""
from __future__ import annotations

from typing import Callable

from ...specfile.instances import KernelInstance
from . import vector
from .mlir_text import (
    FLOAT_BITS_TYPE,
    FLOAT_SIGN_MASK,
    WIDENED_FLOATS,
    KernelBuilder,
    broadcast_indices,
    compute_dtype,
    int_min,
    is_float,
    mlir_type,
    narrow,
    negate_float,
    widen,
)

# (builder, scalar operands, dtype) -> result value
ScalarFn = Callable[[KernelBuilder, list, str], str]


# ---- scalar bodies ----------------------------------------------------------------------


def _relu(b: KernelBuilder, v, dt):
    t = mlir_type(dt)
    if is_float(dt):
        return b.op(f"arith.maximumf {v[0]}, {b.float_const(0.0, dt)} : {t}")
    return b.op(f"arith.maxsi {v[0]}, {b.int_const(0, dt)} : {t}")


def _neg(b: KernelBuilder, v, dt):
    t = mlir_type(dt)
    if is_float(dt):
        return negate_float(b, v[0], dt)
    return b.op(f"arith.subi {b.int_const(0, dt)}, {v[0]} : {t}")  # wraps: neg(MIN) == MIN


def _abs(b: KernelBuilder, v, dt):
    t = mlir_type(dt)
    if is_float(dt):
        it = FLOAT_BITS_TYPE[dt]
        bits = b.op(f"arith.bitcast {v[0]} : {t} to {it}")
        mask = b.int_const(FLOAT_SIGN_MASK[dt] - 1, it)  # all bits but the sign
        cleared = b.op(f"arith.andi {bits}, {mask} : {it}")
        return b.op(f"arith.bitcast {cleared} : {it} to {t}")
    zero = b.int_const(0, dt)
    neg = b.op(f"arith.subi {zero}, {v[0]} : {t}")
    is_neg = b.op(f"arith.cmpi slt, {v[0]}, {zero} : {t}")
    return b.op(f"arith.select {is_neg}, {neg}, {v[0]} : {t}")  # abs(MIN) == MIN


def _arith(float_op: str, int_op: str) -> ScalarFn:
    def fn(b: KernelBuilder, v, dt):
        return b.op(f"arith.{float_op if is_float(dt) else int_op} {v[0]}, {v[1]} : {mlir_type(dt)}")

    return fn


def _div(b: KernelBuilder, v, dt):
    t = mlir_type(dt)
    x, y = v
    if is_float(dt):
        return b.op(f"arith.divf {x}, {y} : {t}")
    # NumPy floor_divide: x // 0 == 0, MIN // -1 == MIN. Division by zero and
    # MIN / -1 are UB in LLVM even under a select, so divide by 1 in those cases.
    zero, one, minus_one, mn = (b.int_const(c, dt) for c in (0, 1, -1, int_min(dt)))
    y_zero = b.op(f"arith.cmpi eq, {y}, {zero} : {t}")
    y_m1 = b.op(f"arith.cmpi eq, {y}, {minus_one} : {t}")
    x_min = b.op(f"arith.cmpi eq, {x}, {mn} : {t}")
    ovf = b.op(f"arith.andi {y_m1}, {x_min} : i1")
    bad = b.op(f"arith.ori {y_zero}, {ovf} : i1")
    d = b.op(f"arith.select {bad}, {one}, {y} : {t}")
    q = b.op(f"arith.divsi {x}, {d} : {t}")  # truncating; x / 1 == x == MIN in the overflow case
    r = b.op(f"arith.remsi {x}, {d} : {t}")
    r_nz = b.op(f"arith.cmpi ne, {r}, {zero} : {t}")
    r_neg = b.op(f"arith.cmpi slt, {r}, {zero} : {t}")
    d_neg = b.op(f"arith.cmpi slt, {d}, {zero} : {t}")
    signs_differ = b.op(f"arith.xori {r_neg}, {d_neg} : i1")
    adjust = b.op(f"arith.andi {r_nz}, {signs_differ} : i1")
    q_minus = b.op(f"arith.subi {q}, {one} : {t}")
    floor_q = b.op(f"arith.select {adjust}, {q_minus}, {q} : {t}")
    return b.op(f"arith.select {y_zero}, {zero}, {floor_q} : {t}")


def _neg_lanes(b: KernelBuilder, v, dt):
    """-x as -0.0 - x, computed in the compute float (bf16 widened and rounded back, exactly: the host has no
    bf16 subtraction): exact for every number, -0.0 and inf (-0.0 - +0.0 = -0.0, -0.0 - -0.0 = +0.0)."""
    cdt = compute_dtype(dt)
    r = b.op(f"arith.subf {b.float_const(-0.0, cdt)}, {widen(b, v[0], dt)} : {mlir_type(cdt)}")
    return narrow(b, r, dt)


def _abs_lanes(b: KernelBuilder, v, dt):
    """|x| as maximumf(x, -x) on the dtype's lanes, plus +0.0 in the compute float: of two zeros maximumf
    returns the second operand (arith-expand's select; the core's vmax is not documented for them), and
    -0.0 + +0.0 = +0.0."""
    m = b.op(f"arith.maximumf {v[0]}, {_neg_lanes(b, v, dt)} : {mlir_type(dt)}")
    cdt = compute_dtype(dt)
    return narrow(b, b.op(f"arith.addf {widen(b, m, dt)}, {b.float_const(0.0, cdt)} : {mlir_type(cdt)}"), dt)


UNARY: dict[str, ScalarFn] = {"relu": _relu, "neg": _neg, "abs": _abs}
# The float sign-bit bodies on an AIE core's lanes: aiecc lowers no vector bit cast, and no vector negf or absf
# (vector.missing_why, test_xdna_profile.py); the forms below use arith ops the profiles take on the dtype's
# lanes, and differ from the sign-bit operation only in the sign of a NaN (the core's vector subtract keeps it).
NPU_LANES: dict[str, ScalarFn] = {"neg": _neg_lanes, "abs": _abs_lanes}
BINARY: dict[str, ScalarFn] = {
    "add": _arith("addf", "addi"),
    "sub": _arith("subf", "subi"),
    "mul": _arith("mulf", "muli"),
    "div": _div,
    "max": _arith("maximumf", "maxsi"),
    "min": _arith("minimumf", "minsi"),
}


# ---- the kernel ------------------------------------------------------------------------------


def computed_wide(inst: KernelInstance, fn: ScalarFn) -> ScalarFn:
    """``fn`` for a widened-float instance (bf16): its bf16 operands are widened to
    f32, ``fn`` runs on f32, and a result of the op's dtype is rounded back once.
    Written with ``b.op`` only, so a vector builder lifts it like ``fn``."""
    if inst.dtype not in WIDENED_FLOATS:
        return fn
    in_dtypes = [t.dtype for t in inst.inputs]
    narrow_result = inst.output.dtype == inst.dtype

    def wide(b: KernelBuilder, v, dt):
        vals = [widen(b, x, d) if d in WIDENED_FLOATS else x for x, d in zip(v, in_dtypes)]
        r = fn(b, vals, compute_dtype(dt))
        return narrow(b, r, dt) if narrow_result else r

    return wide


def emit_elementwise(inst: KernelInstance, fn: ScalarFn, title: str, native: bool = False,
                     selecting: bool = False, npu_lanes: ScalarFn | None = None) -> str:
    """One loop nest over the output; each input is read at the broadcast index.

    ``fn`` runs through :func:`computed_wide` unless ``native`` (it takes the
    dtype's own values: sign-bit operations, conversions).

    Where the shape allows it (and, for an AIE body, the device lowers every op),
    the same ``fn`` is emitted over vectors instead (:mod:`.vector`). A
    ``selecting`` op returns one of its operands, so its vector body runs on the
    dtype's own lanes: nothing is rounded, and aie2p compares bf16 lanes, not f32
    ones (:data:`.vector.PROFILE`). Its scalar body still widens: AIE cores and
    x86 have no scalar bf16 compare. ``npu_lanes``: the vector form an AIE core's
    body takes instead of ``fn`` for a float dtype (:data:`NPU_LANES`)."""
    wide = fn if native else computed_wide(inst, fn)
    lanes_fn = fn if selecting else wide
    if npu_lanes is not None and is_float(inst.dtype) and vector.on_npu():
        lanes_fn = npu_lanes
    lifted = vector.choose(inst, lanes_fn, title)
    if lifted is not None:
        return lifted
    fn = wide
    b = KernelBuilder(inst, title)
    out_shape = inst.output.shape
    with b.loop_nest(out_shape) as ivs:
        zero = b.index(0) if out_shape else ""  # rank 0: every input is rank 0 too
        vals = [
            b.load(arg, t.shape, t.dtype, broadcast_indices(ivs, t.shape, out_shape, zero))
            for arg, t in zip(b.in_args, inst.inputs)
        ]
        result = fn(b, vals, inst.dtype)
        b.store(result, b.out_arg, out_shape, inst.output.dtype, ivs)
    return b.finish()


def _make(fn: ScalarFn, title: str, native: bool = False, selecting: bool = False,
          npu_lanes: ScalarFn | None = None) -> Callable[[KernelInstance], str]:
    def emit(inst: KernelInstance) -> str:
        return emit_elementwise(inst, fn, title, native, selecting, npu_lanes)

    return emit


# exact sign-bit operations: bf16 stays bf16 (bitcast to i16)
_NATIVE = ("neg", "abs")
# the result is one of the operands (maximumf / minimumf)
_SELECTING = ("relu", "max", "min")

EMITTERS: dict[str, Callable[[KernelInstance], str]] = {
    **{name: _make(fn, "elementwise unary", name in _NATIVE, name in _SELECTING, NPU_LANES.get(name))
       for name, fn in UNARY.items()},
    **{name: _make(fn, "elementwise binary, NumPy broadcasting", selecting=name in _SELECTING)
       for name, fn in BINARY.items()},
}
