"""Host emitter for einsum: one loop nest over the output labels and, inside it, an ``scf.for`` nest
over the summed labels (in their order of first appearance) carrying the accumulator.

Each term multiplies the operands left to right and is added to the accumulator: floats in f32
(f16 and bf16 widened exactly, the sum rounded once to the dtype), integers in their own type
(wrapping, which is the oracle's int64 result modulo 2**bits). The accumulator starts at -0.0, the
additive identity, so a product of one term keeps its sign. Against the float64 oracle the f32 sum
of n terms is within (n-1)·u·Σ|terms| plus the products' own rounding (u = 2**-24 per product of
more than two operands), and half an ulp of the output dtype.

An ``...`` axis of size 1 in one operand broadcasts: it is read at index 0.
"""
from __future__ import annotations

from typing import Callable

from ...ops.einsum import parse
from ...specfile.instances import KernelInstance
from .mlir_text import KernelBuilder, is_float
from .reduce import acc_type, combine, for_acc, from_acc, to_acc


def _emit_einsum(inst: KernelInstance) -> str:
    eq = inst.attrs["equation"]
    plan = parse(eq, inst.shapes)
    b = KernelBuilder(inst, f"einsum {eq!r}: f32 sum of products over {', '.join(plan.summed) or 'nothing'}")
    dt = inst.dtype
    acc_t = acc_type(dt)
    out = inst.output
    with b.loop_nest(out.shape) as out_ivs:
        at = dict(zip(plan.output, out_ivs))

        def body(sum_ivs, carried):
            ivs = {**at, **dict(zip(plan.summed, sum_ivs))}
            prod = None
            for arg, t, labels in zip(b.in_args, inst.inputs, plan.terms):
                idx = [ivs[lb] if d == plan.extents[lb] else b.index(0) for lb, d in zip(labels, t.shape)]
                v = to_acc(b, b.load(arg, t.shape, t.dtype, idx), t.dtype)
                prod = v if prod is None else combine("prod", b, prod, v, acc_t)
            return [combine("sum", b, carried[0], prod, acc_t)]

        extents = [plan.extents[lb] for lb in plan.summed]
        # -0.0 keeps a single negative-zero product's sign; a sum of no term is +0.0, as numpy.einsum gives
        zero = b.float_const(0.0 if 0 in extents else -0.0, acc_t) if is_float(dt) else b.int_const(0, acc_t)
        (acc,) = for_acc(b, extents, [(zero, acc_t)], body)
        b.store(from_acc(b, acc, dt), b.out_arg, out.shape, out.dtype, out_ivs)
    return b.finish()


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {"einsum": _emit_einsum}
