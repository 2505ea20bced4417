"""Host emitters for gather_elements and scatter_elements (every dtype the ops take; bit-exact).

Each output element is computed where it is stored, so no element is written twice and the result
does not depend on the order of stores:

* ``gather_elements``: one loop over indices; the index is wrapped (``+n`` when negative) and an
  index outside ``[-n, n)`` (which the oracle rejects) gives **0** (false) without a read, as
  ``gather`` does (npubuild/emitters/host/movement.py).
* ``scatter_elements``: one loop over the output; each element starts from data's value and walks
  the indexed axis of ``indices`` (the positions that share its other coordinates), combining every
  update addressed to it in that order, which is the row-major order of the oracle. Floats combine
  in f32 (f16, bf16 widened, rounded once at the store), integers in their own type (wrapping).
  An out-of-range index addresses nothing.
"""
from __future__ import annotations

from typing import Callable

from ...ops.registry import norm_axis
from ...specfile.instances import KernelInstance
from .mlir_text import KernelBuilder, mlir_type
from .movement import wrapped_index, zero_of
from .reduce import acc_type, combine, for_acc, from_acc, to_acc

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
    b = KernelBuilder(inst, f"scatter_elements axis {ax} reduction {reduction}, computed per output element")
    dt, it = data.dtype, indices.dtype
    acc_t = acc_type(dt)
    with b.loop_nest(data.shape) as ivs:
        acc0 = to_acc(b, b.load(b.in_args[0], data.shape, dt, list(ivs)), dt)
        # off the axis, indices may be shorter than data: elements past it receive no update
        inside, at = None, list(ivs)
        for d, (m, n) in enumerate(zip(indices.shape, data.shape)):
            if d != ax and m < n:
                ok = b.op(f"arith.cmpi ult, {ivs[d]}, {b.index(m)} : index")
                inside = ok if inside is None else b.op(f"arith.andi {inside}, {ok} : i1")
                at[d] = b.op(f"arith.select {ok}, {ivs[d]}, {b.index(0)} : index")
        target = b.op(f"arith.index_cast {ivs[ax]} : index to {mlir_type(it)}")

        def body(ks, carried):
            pos = list(at)
            pos[ax] = ks[0]
            # an out-of-range index wraps to no value in [0, n), so it equals no target
            j, _ = wrapped_index(b, b.load(b.in_args[1], indices.shape, it, pos), data.shape[ax], it)
            hit = b.op(f"arith.cmpi eq, {j}, {target} : {mlir_type(it)}")
            if inside is not None:
                hit = b.op(f"arith.andi {hit}, {inside} : i1")
            u = to_acc(b, b.load(b.in_args[2], updates.shape, dt, pos), dt)
            new = u if reduction == "none" else combine(_KIND[reduction], b, carried[0], u, acc_t)
            return [b.op(f"arith.select {hit}, {new}, {carried[0]} : {acc_t}")]

        (acc,) = for_acc(b, [indices.shape[ax]], [(acc0, acc_t)], body)
        b.store(from_acc(b, acc, dt), b.out_arg, data.shape, dt, ivs)
    return b.finish()


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {
    "gather_elements": _emit_gather_elements,
    "scatter_elements": _emit_scatter_elements,
}
