"""Host emitter for topk: k passes over the axis, with no scratch memory. Pass j takes the first
element, in the op's order, of those that come strictly after the one pass j-1 took (value first,
then index: equal values are taken in index order); ``output`` stores its value or its index.
O(n·k) per row, exact (compares only: bf16 and f16 are compared widened to f32; NaN is the largest
value, ``-0.0 == +0.0``), so the result is the oracle's, bit for bit.
"""
from __future__ import annotations

from typing import Callable

from ...ops.registry import norm_axis
from ...specfile.instances import KernelInstance
from .mlir_text import KernelBuilder, is_float, mlir_type
from .reduce import axis_split, for_acc, insert_axis, to_acc


def _not(b: KernelBuilder, p: str) -> str:
    return b.op(f"arith.xori {p}, {b.int_const(1, 'i1')} : i1")


def _before(b: KernelBuilder, a: tuple[str, str], c: tuple[str, str], largest: bool, ty: str) -> str:
    """i1: element ``a`` (value, index) comes strictly before ``c`` in the selection order."""
    (av, ai), (cv, ci) = a, c
    if ty.startswith("f"):
        a_nan = b.op(f"arith.cmpf uno, {av}, {av} : {ty}")
        c_nan = b.op(f"arith.cmpf uno, {cv}, {cv} : {ty}")
        # NaN is the largest value: "a > c" is a NaN over a number, or ordered greater
        a_over = b.op(f"arith.andi {a_nan}, {_not(b, c_nan)} : i1")
        c_over = b.op(f"arith.andi {c_nan}, {_not(b, a_nan)} : i1")
        gt = b.op(f"arith.ori {b.op(f'arith.cmpf ogt, {av}, {cv} : {ty}')}, {a_over} : i1")
        lt = b.op(f"arith.ori {b.op(f'arith.cmpf olt, {av}, {cv} : {ty}')}, {c_over} : i1")
        eq = b.op(f"arith.ori {b.op(f'arith.cmpf oeq, {av}, {cv} : {ty}')}, {b.op(f'arith.andi {a_nan}, {c_nan} : i1')} : i1")
    else:
        gt = b.op(f"arith.cmpi sgt, {av}, {cv} : {ty}")
        lt = b.op(f"arith.cmpi slt, {av}, {cv} : {ty}")
        eq = b.op(f"arith.cmpi eq, {av}, {cv} : {ty}")
    lower_index = b.op(f"arith.andi {eq}, {b.op(f'arith.cmpi ult, {ai}, {ci} : index')} : i1")
    return b.op(f"arith.ori {gt if largest else lt}, {lower_index} : i1")


def _emit_topk(inst: KernelInstance) -> str:
    a = inst.attrs
    x, out = inst.inputs[0], inst.output
    dt = x.dtype
    ty = "f32" if is_float(dt) else mlir_type(dt)
    rank = len(x.shape)
    axis = norm_axis(a["axis"], rank)
    k, largest = a["k"], a["largest"]
    b = KernelBuilder(inst, f"top {k} {'largest' if largest else 'smallest'} along axis {axis} ({a['output']}), "
                            "k passes, ties by lower index, NaN largest")
    others, n = axis_split(x.shape, axis)
    with b.loop_nest(others) as outer:

        def load(j):
            return to_acc(b, b.load(b.in_args[0], x.shape, dt, insert_axis(outer, axis, rank, j)), dt)

        def one_pass(js, prev):
            pv, pi, have_prev = prev

            def scan(ivs, best):
                bv, bi, found = best
                e = (load(ivs[0]), ivs[0])
                after_prev = b.op(f"arith.ori {_not(b, have_prev)}, {_before(b, (pv, pi), e, largest, ty)} : i1")
                better = b.op(f"arith.ori {_not(b, found)}, {_before(b, e, (bv, bi), largest, ty)} : i1")
                take = b.op(f"arith.andi {after_prev}, {better} : i1")
                return [b.op(f"arith.select {take}, {e[0]}, {bv} : {ty}"),
                        b.op(f"arith.select {take}, {e[1]}, {bi} : index"),
                        b.op(f"arith.ori {found}, {take} : i1")]

            bv, bi, _ = for_acc(b, [n], [(pv, ty), (pi, "index"), (b.int_const(0, "i1"), "i1")], scan)
            at = insert_axis(outer, axis, rank, js[0])
            if a["output"] == "indices":
                it = out.dtype
                b.store(b.op(f"arith.index_cast {bi} : index to {mlir_type(it)}"), b.out_arg, out.shape, it, at)
            else:
                b.store(b.load(b.in_args[0], x.shape, dt, insert_axis(outer, axis, rank, bi)), b.out_arg, out.shape,
                        dt, at)
            return [bv, bi, b.int_const(1, "i1")]

        for_acc(b, [k], [(load(b.index(0)), ty), (b.index(0), "index"), (b.int_const(0, "i1"), "i1")], one_pass)
    return b.finish()


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {"topk": _emit_topk}
