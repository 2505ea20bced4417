"""Vector bodies of the last-axis normalisations: softmax, rms_norm, layer_norm.

The scalar emitters' passes (:mod:`.normalize`) over ``vector<LANES x f32>``:
each pass over a row carries ``LANES`` partial results (``scf.for`` with a
vector ``iter_args``), folded once per row with ``vector.reduction``
(``<maximumf>`` for softmax's max, ``<add>`` for the sums: mlir-aie
test/Conversion/VectorToAIEVec/test-reduce.mlir lowers both at 16 x f32 on
aie2), then broadcast back to the lanes. Narrow floats are widened after the
read and rounded once before the write, as in the scalar bodies.

Numerics: the same operations per element as the scalar bodies, but each sum
is ``LANES`` interleaved partial sums added at the end instead of one running
sum. That changes the rounding of the sums, not the first-order bound
(n·u relative) that docs/kernels.md derives and tests/test_host_reduce_normalize.py
checks: a sum of n terms split into 16 partial sums of n/16 terms plus a 16-term
fold has an error bound of (n/16 + 15)·u, smaller than n·u.
"""
from __future__ import annotations

from ...spec.instances import KernelInstance
from . import mathfns
from .mlir_text import MLIR_TYPE, memref_type
from .reduce import ACC_FLOAT, from_acc, to_acc
from .vector import LANES, VectorBuilder, take

F = ACC_FLOAT


def vector_lanes(inst: KernelInstance) -> int | None:
    """Lanes of the vector body of a last-axis normalisation, or None (scalar body)."""
    x = inst.inputs[0]
    if inst.op == "softmax" and inst.attrs["axis"] not in (-1, len(x.shape) - 1):
        return None
    dtypes = {t.dtype for t in (*inst.inputs, inst.output)}
    lanes = LANES.get(x.dtype) if x.dtype in MLIR_TYPE else None
    if len(dtypes) != 1 or lanes is None or not x.shape or x.shape[-1] % lanes or not x.dtype.startswith(("f", "bf")):
        return None
    return lanes


class _Rows:
    """Emission helpers for one row of the last axis inside the outer loops ``outer``."""

    def __init__(self, b: VectorBuilder, outer: list[str]):
        self.b, self.outer = b, outer
        self.shape = b.inst.inputs[0].shape
        self.dt = b.inst.dtype
        self.vf = b.vtype(F)

    def f(self, op: str, x: str, y: str) -> str:
        return self.b.op(f"arith.{op} {x}, {y} : {F}")

    def read(self, arg: str, shape, iv: str, row: bool = True) -> str:
        """The lanes of ``arg`` at ``iv`` of the last axis, widened to f32."""
        b = self.b
        ty = MLIR_TYPE[self.dt]
        idx = [*self.outer, iv] if row else [iv]
        pad = b.scalar_const("0.0", ty)
        v = b.raw(f"vector.transfer_read {arg}[{', '.join(idx)}], {pad} {{in_bounds = [true]}} : {memref_type(shape, self.dt)}, {b.vtype(ty)}")
        return to_acc(b, v, self.dt)

    def write(self, y: str, iv: str) -> None:
        b = self.b
        y = from_acc(b, y, self.dt)
        b.line(
            f"vector.transfer_write {y}, {b.out_arg}[{', '.join([*self.outer, iv])}] {{in_bounds = [true]}} : "
            f"{b.vtype(MLIR_TYPE[self.dt])}, {memref_type(self.shape, self.dt)}"
        )
        b.vector_ops.add(("transfer_write", MLIR_TYPE[self.dt], b.lanes))

    def fold(self, init: str, body, kind: str | None) -> str:
        """A pass over the row carrying one vector (``body(iv, acc) -> acc``), then reduced by ``kind``
        and broadcast back (kind None: a pass without a carried value; returns "")."""
        b = self.b
        iv = b.new_iv()
        head = f"scf.for {iv} = {b.index(0)} to {b.index(self.shape[-1])} step {b.index(b.lanes)}"
        if kind is None:
            b.line(head + " {")
            with b.indented():
                body(iv, None)
            b.line("}")
            return ""
        res, acc = b.fresh(), b.fresh()
        b.line(f"{res} = {head} iter_args({acc} = {init}) -> ({self.vf}) {{")
        with b.indented():
            b.line(f"scf.yield {body(iv, acc)} : {self.vf}")
        b.line("}")
        s = b.raw(f"vector.reduction <{kind}>, {res} : {self.vf} into {F}")
        return b.raw(f"vector.broadcast {s} : {F} to {self.vf}")


def emit_softmax(inst: KernelInstance, lanes: int) -> VectorBuilder:
    b = VectorBuilder(inst, f"softmax along the last axis over vector<{lanes}x{F}>: max, sum of exp(x - max), exp(x - max) / sum", lanes)
    shape = inst.inputs[0].shape
    x = b.in_args[0]
    with b.loop_nest(shape[:-1]) as outer:
        r = _Rows(b, outer)
        m = r.fold(b.float_const(float("-inf"), F), lambda iv, a: r.f("maximumf", a, r.read(x, shape, iv)), "maximumf")

        def e_at(iv):
            return mathfns.exp(b, r.f("subf", r.read(x, shape, iv), m), F)

        s = r.fold(b.float_const(0.0, F), lambda iv, a: r.f("addf", a, e_at(iv)), "add")
        r.fold("", lambda iv, _: r.write(r.f("divf", e_at(iv), s), iv), None)
    return b


def emit_norm(inst: KernelInstance, lanes: int) -> VectorBuilder:
    center = inst.op == "layer_norm"
    shape = inst.inputs[0].shape
    p_shape = inst.inputs[1].shape
    what = "two-pass mean and population variance" if center else "mean of squares"
    b = VectorBuilder(inst, f"{inst.op} over the last axis over vector<{lanes}x{F}>: {what} in f32, rsqrt", lanes)
    x, g = b.in_args[0], b.in_args[1]
    zero = b.float_const(0.0, F)
    count = b.float_const(float(shape[-1]), F)
    with b.loop_nest(shape[:-1]) as outer:
        r = _Rows(b, outer)
        mean = None
        if center:
            mean = r.f("divf", r.fold(zero, lambda iv, a: r.f("addf", a, r.read(x, shape, iv)), "add"), count)

        def sq(iv, a):
            d = r.read(x, shape, iv)
            d = r.f("subf", d, mean) if center else d
            return r.f("addf", a, r.f("mulf", d, d))

        var = r.f("divf", r.fold(zero, sq, "add"), count)
        rs = mathfns.rsqrt(b, r.f("addf", var, b.float_const(inst.attrs["eps"], F)), F)

        def store(iv, _):
            d = r.read(x, shape, iv)
            d = r.f("subf", d, mean) if center else d
            y = r.f("mulf", r.f("mulf", d, rs), r.read(g, p_shape, iv, row=False))
            if center:
                y = r.f("addf", y, r.read(b.in_args[2], p_shape, iv, row=False))
            r.write(y, iv)

        r.fold("", store, None)
    return b


def emit(inst: KernelInstance) -> str | None:
    """The vector body of a last-axis softmax / rms_norm / layer_norm for the current profile, or None."""
    lanes = vector_lanes(inst)

    def make():
        b = (emit_softmax if inst.op == "softmax" else emit_norm)(inst, lanes)
        return b.finish(), b.vector_ops

    return take(inst, make if lanes else None, "" if lanes else "the last axis is not a whole number of vectors (or not a float)")
