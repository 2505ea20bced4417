"""Host emitters for reductions, scans and arg-max/min.

* ``reduce_sum/mean/max/min/prod`` over any set of axes (``[]`` = all), with or
  without ``keepdims``: a loop nest over the kept dims, and inside it a nest of
  ``scf.for`` over the reduced dims (row-major order) that carries the
  accumulator in ``iter_args``.
* ``cumsum/cumprod/cummax`` along any axis, ``exclusive`` and/or ``reverse``:
  a loop nest over the other dims and one ``scf.for`` along the axis carrying
  the running value; ``reverse`` walks the axis from its end.
* ``argmax/argmin`` along any axis, ``keepdims``, ``select_last_index``:
  one ``scf.for`` along the axis carrying (best value, best index).

Numerics (the oracles accumulate floats in float64 and round once):

* integers are exact: sums and products accumulate in the op's dtype with
  two's-complement wrap-around, which equals the oracle's int64 result reduced
  modulo 2^bits;
* float sums, means and products (and cumsum/cumprod) accumulate in f32,
  sequentially in row-major order; f16 and bf16 inputs are widened to f32
  exactly and the f32 result is rounded once to f16 / bf16. With u = 2^-24,
  a sum of n terms is within (n-1)·u·Σ|x_i| of the exact sum (Higham, *Accuracy and Stability of
  Numerical Algorithms*, §4.2), a mean additionally within u·|mean| (one
  division), a product of n terms within (n-1)·u·|product| relative; the
  result's rounding to the output dtype adds half an ulp of that dtype.
  Unlike the float64 oracle, an f32 intermediate can overflow (or underflow,
  for products) where a float64 one would not. The sum's accumulator starts
  at -0.0 (the IEEE additive identity), so a sum of -0.0s is -0.0.
* ``reduce_max/min`` and ``cummax`` are exact and propagate NaN like NumPy
  (``arith.maximumf``/``minimumf`` as arith-expand lowers them: of equal zeros
  the later one; NumPy may return either zero, which compares equal);
* ``argmax/argmin`` follow ``np.argmax``/``np.argmin``: the first maximum
  (minimum) wins, and the first NaN wins over everything; ``-0.0 == +0.0``.
  With ``select_last_index`` the axis is searched from its end with the same
  rule, exactly what the oracle's ``flip`` + ``argmax`` does (so the *last*
  NaN wins).

Rank-0 inputs are treated as one element along the (only) axis.
"""
from __future__ import annotations

from typing import Callable, Sequence

from ...ops.registry import norm_axis
from ...specfile.instances import KernelInstance
from . import vector_rows
from .mlir_text import WIDENED_FLOATS, KernelBuilder, compute_dtype, is_float, mlir_type, widen

ACC_FLOAT = "f32"  # float accumulation type for f32, f16 and bf16 inputs


# ---- shared helpers (also used by normalize.py) ---------------------------------------------------


def acc_type(dtype: str) -> str:
    """The MLIR type a value of ``dtype`` is accumulated in."""
    return ACC_FLOAT if is_float(dtype) else mlir_type(dtype)


def to_acc(b: KernelBuilder, v: str, dtype: str) -> str:
    """Widen a loaded value to its accumulation type (f16 -> f32 is exact)."""
    if is_float(dtype) and mlir_type(dtype) != ACC_FLOAT:
        return b.op(f"arith.extf {v} : {mlir_type(dtype)} to {ACC_FLOAT}")
    return v


def from_acc(b: KernelBuilder, v: str, dtype: str) -> str:
    """Round an accumulated value to ``dtype`` (f32 -> f16: round to nearest even)."""
    if is_float(dtype) and mlir_type(dtype) != ACC_FLOAT:
        return b.op(f"arith.truncf {v} : {ACC_FLOAT} to {mlir_type(dtype)}")
    return v


def for_acc(
    b: KernelBuilder,
    extents: Sequence[int],
    inits: Sequence[tuple[str, str]],
    body: Callable[[list[str], list[str]], list[str]],
) -> list[str]:
    """Nested ``scf.for`` loops over ``extents`` (outermost first) carrying values.

    ``inits`` are (initial value, MLIR type) pairs; ``body(ivs, carried)`` emits
    the innermost body and returns the new carried values. Returns the values
    after the last iteration (the inits themselves if ``extents`` is empty and
    ``body`` is then called once with no induction variables).
    """
    types = [t for _, t in inits]

    def nest(level: int, ivs: list[str], carried: list[str]) -> list[str]:
        if level == len(extents):
            return list(body(ivs, carried))
        iv = b.new_iv()
        head = f"scf.for {iv} = {b.index(0)} to {b.index(extents[level])} step {b.index(1)}"
        if not carried:
            b.line(head + " {")
            with b.indented():
                nest(level + 1, ivs + [iv], [])
            b.line("}")
            return []
        res = b.fresh()
        args = [b.fresh() for _ in carried]
        iter_args = ", ".join(f"{a} = {c}" for a, c in zip(args, carried))
        lhs = res if len(carried) == 1 else f"{res}:{len(carried)}"
        b.line(f"{lhs} = {head} iter_args({iter_args}) -> ({', '.join(types)}) {{")
        with b.indented():
            new = nest(level + 1, ivs + [iv], args)
            b.line(f"scf.yield {', '.join(new)} : {', '.join(types)}")
        b.line("}")
        return [res] if len(carried) == 1 else [f"{res}#{k}" for k in range(len(carried))]

    return nest(0, [], [v for v, _ in inits])


def axis_index(b: KernelBuilder, iv: str, length: int, reverse: bool) -> str:
    """``iv`` or, walking backwards, ``length - 1 - iv``."""
    if not reverse:
        return iv
    return b.op(f"arith.subi {b.index(length - 1)}, {iv} : index")


def insert_axis(outer_ivs: list[str], axis: int, rank: int, axis_iv: str) -> list[str]:
    """The full index: ``outer_ivs`` (every dim but ``axis``) with ``axis_iv`` put back."""
    if rank == 0:
        return []
    return outer_ivs[:axis] + [axis_iv] + outer_ivs[axis:]


def axis_split(shape, axis: int) -> tuple[list[int], int]:
    """(the other dims, the axis length); a rank-0 shape is one element on its axis."""
    if not shape:
        return [], 1
    return list(shape[:axis]) + list(shape[axis + 1 :]), shape[axis]


# ---- reductions ------------------------------------------------------------------------------------


def _reduce_axes(inst: KernelInstance) -> tuple[int, ...]:
    rank = len(inst.inputs[0].shape)
    axes = inst.attrs["axes"]
    if not axes:
        return tuple(range(rank))
    return tuple(sorted(norm_axis(a, rank) for a in axes))


def combine(kind: str, b: KernelBuilder, acc: str, x: str, ty: str) -> str:
    f = ty.startswith("f")
    op = {
        "sum": "addf" if f else "addi",
        "prod": "mulf" if f else "muli",
        "max": "maximumf" if f else "maxsi",
        "min": "minimumf" if f else "minsi",
    }[kind]
    return b.op(f"arith.{op} {acc}, {x} : {ty}")


def _identity(kind: str, b: KernelBuilder, dtype: str, ty: str) -> str:
    """The accumulator's start value, in type ``ty`` (the accumulation or the value type)."""
    if ty.startswith("f"):
        v = {"sum": -0.0, "prod": 1.0, "max": float("-inf"), "min": float("inf")}[kind]
        return b.float_const(v, ty)  # float MLIR type names are our dtype names
    bits = int(ty[1:])
    v = {"sum": 0, "prod": 1, "max": -(1 << (bits - 1)), "min": (1 << (bits - 1)) - 1}[kind]
    return b.int_const(v, ty)


# reduce op -> (combine kind, divide by the count)
_REDUCE = {
    "reduce_sum": ("sum", False),
    "reduce_mean": ("sum", True),
    "reduce_prod": ("prod", False),
    "reduce_max": ("max", False),
    "reduce_min": ("min", False),
}


def emit_reduce(inst: KernelInstance) -> str:
    kind, mean = _REDUCE[inst.op]
    dt = inst.dtype
    x_shape = inst.inputs[0].shape
    rank = len(x_shape)
    axes = _reduce_axes(inst)
    keep = [d for d in range(rank) if d not in axes]
    keepdims = inst.attrs["keepdims"]
    # max/min are exact in the value type (bf16: in f32, which no bf16 compare needs);
    # sums and products accumulate in f32 / the int type
    ty = acc_type(dt) if kind in ("sum", "prod") or dt in WIDENED_FLOATS else mlir_type(dt)
    reduced = [x_shape[d] for d in axes]
    if axes == (rank - 1,) and x_shape[-1]:  # the last axis alone: a vector body where the length allows it
        lifted = vector_rows.emit_reduce(inst, kind, mean, ty, lambda b, t: _identity(kind, b, dt, t))
        if lifted is not None:
            return lifted
    b = KernelBuilder(inst, f"reduce {kind}{' / count' if mean else ''} over axes {list(axes)}, "
                      f"accumulated in {ty}")
    out_shape = inst.output.shape
    with b.loop_nest([x_shape[d] for d in keep]) as kept_ivs:
        kept = dict(zip(keep, kept_ivs))

        def body(red_ivs, carried):
            red = dict(zip(axes, red_ivs))
            idx = [kept[d] if d in kept else red[d] for d in range(rank)]
            x = b.load(b.in_args[0], x_shape, dt, idx)
            if ty != mlir_type(dt):
                x = to_acc(b, x, dt)
            return [combine(kind, b, carried[0], x, ty)]

        # the sum of nothing is +0.0 (NumPy's and ONNX's); of something, the sum starts at -0.0 to keep -0.0 + -0.0
        empty_sum = kind == "sum" and 0 in reduced and ty.startswith("f")
        start = b.float_const(0.0, ty) if empty_sum else _identity(kind, b, dt, ty)
        (acc,) = for_acc(b, reduced, [(start, ty)], body)
        if mean:
            count = 1
            for d in axes:
                count *= x_shape[d]
            acc = b.op(f"arith.divf {acc}, {b.float_const(float(count), 'f32')} : {ty}")
        if ty != mlir_type(dt):
            acc = from_acc(b, acc, dt)
        if keepdims:
            out_idx = [kept[d] if d in kept else b.index(0) for d in range(rank)]
        else:
            out_idx = list(kept_ivs)
        b.store(acc, b.out_arg, out_shape, inst.output.dtype, out_idx)
    return b.finish()


# ---- scans -----------------------------------------------------------------------------------------

_SCAN_KIND = {"cumsum": "sum", "cumprod": "prod", "cummax": "max"}


def emit_scan(inst: KernelInstance) -> str:
    kind = _SCAN_KIND[inst.op]
    dt = inst.dtype
    shape = inst.inputs[0].shape
    rank = len(shape)
    axis = norm_axis(inst.attrs["axis"], rank)
    exclusive, reverse = inst.attrs["exclusive"], inst.attrs["reverse"]
    ty = acc_type(dt) if kind in ("sum", "prod") or dt in WIDENED_FLOATS else mlir_type(dt)
    b = KernelBuilder(
        inst,
        f"running {kind} along axis {axis}{', exclusive' if exclusive else ''}"
        f"{', from the end' if reverse else ''}, accumulated in {ty}",
    )
    others, length = axis_split(shape, axis)
    with b.loop_nest(others) as outer:

        def body(ivs, carried):
            (acc,) = carried
            j = axis_index(b, ivs[0], length, reverse)
            idx = insert_axis(outer, axis, rank, j)
            x = b.load(b.in_args[0], shape, dt, idx)
            if ty != mlir_type(dt):
                x = to_acc(b, x, dt)
            new = combine(kind, b, acc, x, ty)
            y = acc if exclusive else new
            if ty != mlir_type(dt):
                y = from_acc(b, y, dt)
            b.store(y, b.out_arg, shape, dt, idx)
            return [new]

        for_acc(b, [length], [(_identity(kind, b, dt, ty), ty)], body)
    return b.finish()


# ---- argmax / argmin -------------------------------------------------------------------------------


def _load_compared(b: KernelBuilder, shape, dt: str, idx: list[str]) -> str:
    """An element of the input in the type it is compared in (bf16: widened to f32)."""
    x = b.load(b.in_args[0], shape, dt, idx)
    return widen(b, x, dt) if dt in WIDENED_FLOATS else x


def emit_arg(inst: KernelInstance) -> str:
    is_max = inst.op == "argmax"
    dt = inst.dtype
    shape = inst.inputs[0].shape
    rank = len(shape)
    axis = norm_axis(inst.attrs["axis"], rank)
    last = inst.attrs["select_last_index"]
    keepdims = inst.attrs["keepdims"]
    t = mlir_type(compute_dtype(dt) if dt in WIDENED_FLOATS else dt)  # bf16 is compared in f32 (exact)
    b = KernelBuilder(
        inst,
        f"index of the {'first' if not last else 'last'} {'maximum' if is_max else 'minimum'} along axis {axis} "
        f"(a NaN wins, as np.{inst.op})",
    )
    others, length = axis_split(shape, axis)
    out_shape = inst.output.shape
    with b.loop_nest(others) as outer:
        # start from the first element searched, then search the rest with a strict
        # comparison (ties keep the earlier one); floats: unordered-greater is
        # "x > best or x is NaN", taken only while best is not NaN.
        j0 = b.index(length - 1 if last else 0)
        first = _load_compared(b, shape, dt, insert_axis(outer, axis, rank, j0))

        def body(ivs, carried):
            best, best_j = carried
            k = b.op(f"arith.addi {ivs[0]}, {b.index(1)} : index")
            j = axis_index(b, k, length, last)
            x = _load_compared(b, shape, dt, insert_axis(outer, axis, rank, j))
            if is_float(dt):
                better = b.op(f"arith.cmpf {'ugt' if is_max else 'ult'}, {x}, {best} : {t}")
                best_ok = b.op(f"arith.cmpf ord, {best}, {best} : {t}")
                take = b.op(f"arith.andi {better}, {best_ok} : i1")
            else:
                take = b.op(f"arith.cmpi {'sgt' if is_max else 'slt'}, {x}, {best} : {t}")
            nb = b.op(f"arith.select {take}, {x}, {best} : {t}")
            nj = b.op(f"arith.select {take}, {j}, {best_j} : index")
            return [nb, nj]

        _, idx = for_acc(b, [length - 1], [(first, t), (j0, "index")], body) if length > 1 else (first, j0)
        it = inst.output.dtype  # index_dtype: i64 or i32
        idx_int = b.op(f"arith.index_cast {idx} : index to {mlir_type(it)}")
        if keepdims:
            out_idx = insert_axis(outer, axis, rank, b.index(0)) if rank else [b.index(0)]
        else:
            out_idx = list(outer)
        b.store(idx_int, b.out_arg, out_shape, it, out_idx)
    return b.finish()


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {
    **{name: emit_reduce for name in _REDUCE},
    **{name: emit_scan for name in _SCAN_KIND},
    "argmax": emit_arg,
    "argmin": emit_arg,
}
