"""Host emitters for gather_elements and scatter_elements (every dtype the ops take; bit-exact).

* ``gather_elements``: one loop over indices; the index is wrapped (``+n`` when negative) and an
  index outside ``[-n, n)`` (which the oracle rejects) gives **0** (false) without a read, as
  ``gather`` does (npubuild/emitters/host/movement.py).
* ``scatter_elements``: data is copied to the output, then the updates are applied one by one in
  row-major order of ``indices`` (the oracle's order), each combined with the value already there;
  O(data + indices). Floats combine in f32: f32 in the output itself, f16 and bf16 in an f32 scratch
  copy rounded into the output once at the end. Integers combine in their own type (wrapping). An
  out-of-range index addresses nothing.
"""
from __future__ import annotations

from typing import Callable

from ...ops.registry import norm_axis
from ...specfile.instances import KernelInstance
from .mlir_text import KernelBuilder, mlir_type
from .movement import wrapped_index, zero_of
from .nn import free_scratch, scratch
from .reduce import acc_type, combine, from_acc, to_acc

# scatter_elements reduction -> the combine kind of the reductions (reduce.combine)
_KIND = {"add": "sum", "mul": "prod", "max": "max", "min": "min"}


def _emit_gather_elements(inst: KernelInstance) -> str:
    data, indices, out = inst.inputs[0], inst.inputs[1], inst.output
    ax = norm_axis(inst.attrs["axis"], len(data.shape))
    b = KernelBuilder(inst, f"gather_elements axis {ax}; out-of-range index -> 0")
    it, t = indices.dtype, mlir_type(out.dtype)
    with b.loop_nest(out.shape) as ivs:
        j, ok = wrapped_index(b, b.load(b.in_args[1], indices.shape, it, list(ivs)), data.shape[ax], it)
        j = b.op(f"arith.select {ok}, {j}, {b.int_const(0, it)} : {mlir_type(it)}")
        src = list(ivs)
        src[ax] = b.op(f"arith.index_cast {j} : {mlir_type(it)} to index")
        v = b.load(b.in_args[0], data.shape, data.dtype, src)
        b.store(b.op(f"arith.select {ok}, {v}, {zero_of(b, out.dtype)} : {t}"), b.out_arg, out.shape, out.dtype, ivs)
    return b.finish()


def _emit_scatter_elements(inst: KernelInstance) -> str:
    data, indices, updates = inst.inputs
    ax = norm_axis(inst.attrs["axis"], len(data.shape))
    reduction = inst.attrs["reduction"]
    b = KernelBuilder(inst, f"scatter_elements axis {ax} reduction {reduction}, updates in row-major order")
    dt, it = data.dtype, indices.dtype
    acc_t = acc_type(dt)
    # f16 and bf16 combine in an f32 copy of data, rounded into the output once at the end
    wide = acc_t != mlir_type(dt)
    frees: list = []
    buf, buf_dt = (scratch(b, data.shape, "f32", frees), "f32") if wide else (b.out_arg, dt)
    with b.loop_nest(data.shape) as ivs:
        b.store(to_acc(b, b.load(b.in_args[0], data.shape, dt, list(ivs)), dt), buf, data.shape, buf_dt, ivs)
    with b.loop_nest(indices.shape) as ivs:
        j, ok = wrapped_index(b, b.load(b.in_args[1], indices.shape, it, list(ivs)), data.shape[ax], it)
        # an out-of-range index updates nothing: it rewrites element 0 of the axis with its own value
        j = b.op(f"arith.select {ok}, {j}, {b.int_const(0, it)} : {mlir_type(it)}")
        at = list(ivs)
        at[ax] = b.op(f"arith.index_cast {j} : {mlir_type(it)} to index")
        old = b.load(buf, data.shape, buf_dt, at)
        u = to_acc(b, b.load(b.in_args[2], updates.shape, dt, list(ivs)), dt)
        new = u if reduction == "none" else combine(_KIND[reduction], b, old, u, acc_t)
        b.store(b.op(f"arith.select {ok}, {new}, {old} : {acc_t}"), buf, data.shape, buf_dt, at)
    if wide:
        with b.loop_nest(data.shape) as ivs:
            b.store(from_acc(b, b.load(buf, data.shape, "f32", list(ivs)), dt), b.out_arg, data.shape, dt, ivs)
    free_scratch(b, frees)
    return b.finish()


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {
    "gather_elements": _emit_gather_elements,
    "scatter_elements": _emit_scatter_elements,
}
