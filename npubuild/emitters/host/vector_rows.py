"""Vector bodies of the last-axis normalisations: softmax, rms_norm, layer_norm.

The scalar emitters' passes (:mod:`.normalize`) over ``vector<LANES x f32>``:
each pass over a row carries ``LANES`` partial results (``scf.for`` with a
vector ``iter_args``), folded once per row with ``vector.reduction``
(``<maximumf>`` for softmax's max, ``<add>`` for the sums: mlir-aie
test/Conversion/VectorToAIEVec/test-reduce.mlir lowers both at 16 x f32 on
aie2). softmax broadcasts the result back as f32; rms_norm and layer_norm
compute the per-row statistics in scalar f32 and bring them back as three
bf16 broadcasts (:meth:`_Rows.split`: aie2 broadcasts bf16, not f32,
test_broadcast.mlir), which makes them vector bodies on aie2. Narrow floats
are widened after the read and rounded once before the write, as in the
scalar bodies.

Numerics: the same operations per element as the scalar bodies, but each sum
is ``LANES`` interleaved partial sums added at the end instead of one running
sum. That changes the rounding of the sums, not the first-order bound
(n·u relative) that docs/kernels.md derives and tests/test_host_reduce_normalize.py
checks: a sum of n terms split into 16 partial sums of n/16 terms plus a 16-term
fold has an error bound of (n/16 + 15)·u, smaller than n·u.
"""
from __future__ import annotations

import math

from ...specfile.instances import KernelInstance
from . import mathfns
from .mathfns import _TINY, I, _bin, _c, _ci, cmpf, from_bits, mul, select, sub, to_bits
from .mlir_text import MLIR_TYPE, KernelBuilder, memref_type
from .mlir_text import narrow as from_acc
from .mlir_text import widen as to_acc
from .vector import LANES, VectorBuilder, _profile, admits, emulated_f32_multiply, stopped_why, take

F = "f32"  # every float is accumulated in f32 (reduce.ACC_FLOAT; f16 and bf16 widened exactly)


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

    def write_norm(self, y: str, iv: str, center: bool) -> None:
        """A norm's lanes ``y`` (already times gamma) plus beta when ``center`` (layer_norm), written."""
        if center:
            y = self.f("addf", y, self.read(self.b.in_args[2], self.b.inst.inputs[2].shape, iv, row=False))
        self.write(y, iv)

    def narrow(self, t: str) -> str:
        """The f32 lanes ``t`` rounded to bf16 (``vector<16xbf16>``)."""
        return self.b.op(f"arith.truncf {t} : {F} to bf16")

    def widen(self, v: str) -> str:
        """bf16 lanes widened exactly to f32: an operand a bf16 x bf16 product takes as one ``mul_elem``."""
        return self.b.op(f"arith.extf {v} : bf16 to {F}")

    def write_narrow(self, v: str, iv: str) -> None:
        """Store bf16 lanes ``v`` at ``iv`` of the output row (already rounded: no conversion)."""
        b = self.b
        b.line(f"vector.transfer_write {v}, {b.out_arg}[{', '.join([*self.outer, iv])}] {{in_bounds = [true]}} : "
               f"{b.vtype('bf16')}, {memref_type(self.shape, self.dt)}")
        b.vector_ops.add(("transfer_write", "bf16", b.lanes))

    def fold(self, init: str, body, kind: str | None, splat: bool = True) -> str:
        """A pass over the row carrying one vector (``body(iv, acc) -> acc``), then reduced by ``kind``
        and broadcast back (``splat`` False: the scalar f32; kind None: a pass without a carried value;
        returns "")."""
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
        return b.raw(f"vector.broadcast {s} : {F} to {self.vf}") if splat else s

    def split(self, s: str, count: int = 3) -> list[str]:
        """The scalar f32 ``s`` in the lanes: one broadcast f32 vector where the profile broadcasts f32 (the
        host; aie2p: test/Conversion/AIEVecToLLVM/test-broadcast_scalar-aie2p.mlir), else three f32 vectors
        (lo, mid, hi) whose exact sum is ``s``.

        aie2 has no f32 broadcast (test/Conversion/VectorToAIEVec/test_broadcast.mlir broadcasts i32 and
        bf16 only), so ``s`` is cut into three bf16 pieces by scalar code: hi = bf16(s), mid =
        bf16(s - hi), lo = bf16(s - hi - mid) (each subtraction exact: the remainders have at most 16
        and 8 significant bits), each broadcast as ``vector<16xbf16>`` and widened exactly. hi + mid + lo
        equals ``s`` for every finite ``s`` with |s| >= 2^-103 (lo is then a normal bf16; below that lo may be
        subnormal, which a core may flush: an absolute error under 2^-119). r = rsqrt(var + eps) is at least
        2^-64; inf and NaN give NaN in mid and lo.

        ``count`` 2: (lo, hi) only, hi + lo = ``s`` to 16 significant bits (relative error <= 2^-17): the
        bf16 pair mlir-aie's own aie_kernels/aie2/rms_norm.cc scales by ("the f32 scale rides in a bf16
        pair applied as two exact products accumulated in f32")."""
        b = self.b
        if admits("broadcast", F, b.lanes):
            return [b.raw(f"vector.broadcast {s} : {F} to {self.vf}")]
        pieces = []
        with b.scalar_ops():
            rest = s
            for k in range(count):
                p = b.op(f"arith.truncf {rest} : {F} to bf16")
                pieces.append(p)
                if k < count - 1:
                    rest = b.op(f"arith.subf {rest}, {b.op(f'arith.extf {p} : bf16 to {F}')} : {F}")
        vb = b.vtype("bf16")
        return [b.op(f"arith.extf {b.raw(f'vector.broadcast {p} : bf16 to {vb}')} : bf16 to {F}") for p in reversed(pieces)]

    def times(self, d: str, parts: list[str]) -> str:
        """``d`` times the scalar split into ``parts`` (lo, mid, hi): :func:`times_pieces`."""
        return times_pieces(self.b, d, parts)

    def pieces(self, t: str) -> list[str]:
        """The f32 lanes ``t`` as three widened bf16 vectors (lo, mid, hi) whose exact sum is ``t``: :func:`bf16_pieces`."""
        return bf16_pieces(self.b, t)

    def product(self, t: str, w: str) -> str:
        """``t`` times the widened bf16 lanes ``w``: one f32 multiply, or where that is emulated
        (:func:`.vector.emulated_f32_multiply`) ``t``'s three bf16 pieces each times ``w``, summed smallest first:
        (t_lo w + t_mid w) + t_hi w, three exact products and two f32 roundings."""
        if not emulated_f32_multiply():
            return self.f("mulf", t, w)
        return self.times(w, self.pieces(t))

    def minus(self, x: str, parts: list[str]) -> str:
        """``x`` minus the scalar split into ``parts`` (lo, mid, hi): ((x - hi) - mid) - lo (one part: x minus it)."""
        if len(parts) == 1:
            return self.f("subf", x, parts[0])
        lo, mid, hi = parts
        return self.f("subf", self.f("subf", self.f("subf", x, hi), mid), lo)


def bf16_pieces(b: KernelBuilder, t: str, count: int = 3) -> list[str]:
    """The f32 lanes ``t`` as ``count`` widened bf16 vectors, smallest first, each an operand a bf16 x bf16
    product takes as one ``mul_elem``: hi = bf16(t), then bf16 of what is left (each subtraction exact, as in
    :meth:`_Rows.split`, for |t| >= 2^-103 and finite ``t``). Three pieces sum to ``t`` exactly; two, (lo, hi),
    to its 16 leading significant bits (relative error <= 2^-17)."""
    out, rest = [], t
    for k in range(count):
        p = b.op(f"arith.extf {b.op(f'arith.truncf {rest} : {F} to bf16')} : bf16 to {F}")
        out.append(p)
        if k < count - 1:
            rest = b.op(f"arith.subf {rest}, {p} : {F}")
    return out[::-1]


def times_pieces(b: KernelBuilder, d: str, parts: list[str]) -> str:
    """``d`` times the value split into ``parts`` (smallest first): (d lo + d mid) + d hi, each product exact
    where ``d`` is widened bf16 (one part: d times it)."""
    first, *rest = (b.op(f"arith.mulf {d}, {p} : {F}") for p in parts)
    for p in rest:
        first = b.op(f"arith.addf {first}, {p} : {F}")
    return first


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
    """rms_norm / layer_norm: vector passes over the row, the per-row statistics in scalar f32.

    The row's sums are ``vector<16xf32>`` partial sums folded by ``vector.reduction <add>``; the
    mean (layer_norm), the variance and r = rsqrt(var + eps) are scalar f32 (one division and one
    rsqrt per row), and reach the lanes through :meth:`_Rows.split` (no f32 broadcast on aie2).
    Per element: d = x (rms_norm) or ((x - mean_hi) - mean_mid) - mean_lo, t = (d r_lo + d r_mid)
    + d r_hi, y = t gamma (+ beta), rounded once to the dtype; on aie2, whose f32 vector multiply is
    emulated, t gamma is taken by t's bf16 pieces (:meth:`_Rows.product`). Against the scalar body's d = x - mean and
    d r, each is at most 2 more f32 roundings (u = 2^-24 relative, well inside the bound of
    docs/kernels.md); tests/test_xdna_norms.py checks the host simulation bit for bit against a
    NumPy model of exactly these operations."""
    center = inst.op == "layer_norm"
    shape = inst.inputs[0].shape
    p_shape = inst.inputs[1].shape
    what = "two-pass mean and population variance" if center else "mean of squares"
    b = VectorBuilder(inst, f"{inst.op} over the last axis over vector<{lanes}x{F}>: {what} in f32, scalar rsqrt per row", lanes)
    x, g = b.in_args[0], b.in_args[1]
    zero = b.float_const(0.0, F)
    with b.scalar_ops():
        count = b.float_const(float(shape[-1]), F)
        eps = b.float_const(inst.attrs["eps"], F)
    with b.loop_nest(shape[:-1]) as outer:
        r = _Rows(b, outer)
        mean = None
        if center:
            total = r.fold(zero, lambda iv, a: r.f("addf", a, r.read(x, shape, iv)), "add", splat=False)
            with b.scalar_ops():
                mean = b.op(f"arith.divf {total}, {count} : {F}")
            mean = r.split(mean)

        def centred(iv):
            d = r.read(x, shape, iv)
            return r.minus(d, mean) if center else d

        def sq(iv, a):
            d = centred(iv)
            return r.f("addf", a, r.f("mulf", d, d))

        ss = r.fold(zero, sq, "add", splat=False)
        with b.scalar_ops():
            var = b.op(f"arith.divf {ss}, {count} : {F}")
            rs = mathfns.rsqrt(b, b.op(f"arith.addf {var}, {eps} : {F}"), F)
        rs = r.split(rs)

        def store(iv, _):
            r.write_norm(r.product(r.times(centred(iv), rs), r.read(g, p_shape, iv, row=False)), iv, center)

        r.fold("", store, None)
    return b


def emit_norm_bf16_products(inst: KernelInstance, lanes: int) -> VectorBuilder:
    """bf16 rms_norm / layer_norm where the f32 vector multiply is emulated (aie2): every product one
    bf16 x bf16 ``mul_elem`` (exact in f32), as mlir-aie's aie_kernels/aie2/rms_norm.cc computes.

    rms_norm: ss = sum x^2; r = rsqrt(ss / n + eps) in scalar f32 (three Newton steps,
    :func:`rsqrt_newton_f32`: each scalar float operation is a soft-float call on the core), brought to the
    lanes as the bf16 pair (hi, lo) of :meth:`_Rows.split`; t = x hi + x lo (f32); y = bf16(bf16(t) gamma).
    layer_norm: the mean m in scalar f32 as three bf16 pieces; d = bf16(((x - m_hi) - m_mid) - m_lo),
    stored in the output row; ss = sum d^2; r as for rms_norm; t = d hi + d lo; y = bf16(bf16(t) gamma + beta).

    Rounding the normalised value to bf16 before gamma is Hugging Face's LlamaRMSNorm
    (``weight * hidden_states.to(input_dtype)``); d rounded to bf16 is one more rounding of the centred
    value (relative 2^-8, bf16's unit roundoff, the output's own precision). Against the f32 form of
    :func:`emit_norm` each adds one bf16 rounding (docs/vectorization.md gives the bounds); tests/test_xdna_norms.py
    checks the host simulation bit for bit against a NumPy model of exactly these operations, and the bounds."""
    center = inst.op == "layer_norm"
    shape = inst.inputs[0].shape
    p_shape = inst.inputs[1].shape
    b = VectorBuilder(inst, f"{inst.op} over the last axis, bf16 x bf16 products into f32 lanes: statistics in "
                      f"f32, scalar rsqrt per row applied as a bf16 pair", lanes)
    x, g = b.in_args[0], b.in_args[1]
    zero = b.float_const(0.0, F)
    with b.scalar_ops():
        count = b.float_const(float(shape[-1]), F)
        eps = b.float_const(inst.attrs["eps"], F)
    with b.loop_nest(shape[:-1]) as outer:
        r = _Rows(b, outer)
        if center:
            total = r.fold(zero, lambda iv, a: r.f("addf", a, r.read(x, shape, iv)), "add", splat=False)
            with b.scalar_ops():
                mean = r.split(b.op(f"arith.divf {total}, {count} : {F}"))

            def sq(iv, a):
                d = r.narrow(r.minus(r.read(x, shape, iv), mean))
                r.write_narrow(d, iv)
                d = r.widen(d)
                return r.f("addf", a, r.f("mulf", d, d))
        else:
            def sq(iv, a):
                v = r.read(x, shape, iv)
                return r.f("addf", a, r.f("mulf", v, v))

        ss = r.fold(zero, sq, "add", splat=False)
        with b.scalar_ops():
            var = b.op(f"arith.divf {ss}, {count} : {F}")
            lo, hi = r.split(rsqrt_newton_f32(b, b.op(f"arith.addf {var}, {eps} : {F}")), 2)

        def store(iv, _):
            v = r.read(b.out_arg if center else x, shape, iv)
            t = r.widen(r.narrow(r.f("addf", r.f("mulf", v, hi), r.f("mulf", v, lo))))
            r.write_norm(r.f("mulf", t, r.read(g, p_shape, iv, row=False)), iv, center)

        r.fold("", store, None)
    return b


def rsqrt_newton_f32(b: KernelBuilder, x: str) -> str:
    """1 / sqrt(x) (f32) within 2^-22 relative, in 19 float operations instead of the correctly rounded
    :func:`.mathfns.rsqrt_f32`'s ~60: a subnormal x scaled by 2^24 first (its result by 2^12 after), the bit-trick
    seed 0x5F3759DF - bits(x) / 2 and three Newton steps y <- y (1.5 - (x / 2) (y y)) (each f32 operation
    rounded as written: a NumPy model replays it bit for bit). For a core without floating-point hardware,
    where each operation is a soft-float call.
    rsqrt(+-0) = inf, rsqrt(inf) = 0, rsqrt(x < 0) = NaN, NaN -> NaN."""
    small = cmpf(b, "olt", x, _c(b, _TINY))
    xs = select(b, small, mul(b, x, _c(b, 2.0**24)), x)
    half = mul(b, xs, _c(b, 0.5))
    y = from_bits(b, _bin(b, "subi", _ci(b, 0x5F3759DF), _bin(b, "shrui", to_bits(b, xs), _ci(b, 1), I), I))
    for _ in range(3):
        y = mul(b, y, sub(b, _c(b, 1.5), mul(b, half, mul(b, y, y))))
    y = mul(b, y, select(b, small, _c(b, 2.0**12), _c(b, 1.0)))
    y = select(b, cmpf(b, "oeq", x, _c(b, math.inf)), _c(b, 0.0), y)
    y = select(b, cmpf(b, "oeq", x, _c(b, 0.0)), _c(b, math.inf), y)
    return select(b, cmpf(b, "ult", x, _c(b, 0.0)), _c(b, math.nan), y)


def norm_form(inst: KernelInstance):
    """The emitter of a norm's vector body under the current profile."""
    if emulated_f32_multiply() and inst.dtype == "bf16":
        return emit_norm_bf16_products
    return emit_norm


def emit_row_shift(inst: KernelInstance):
    """The prologue a core runs before mlir-aie's aie2 softmax kernel, which subtracts no maximum: each row
    of the bf16 softmax chunk ``inst`` minus the row's maximum, rounded to bf16 (the kernel's exp takes bf16),
    as a function of the body's own signature (x -> y). A :class:`~.mlir_text.KernelText`, or None when the
    chunk has no vector form or the current profile does not lower every operation.

    The maximum is a vector pass of ``arith.maximumf`` on widened lanes folded by ``vector.reduction
    <maximumf>`` (test-max.mlir, test-reduce.mlir); being a bf16 value it reaches the lanes as one bf16
    broadcast (test_broadcast.mlir); then bf16(x - max) per element (f32 ``subf``, ``truncf``)."""
    lanes = vector_lanes(inst)
    if inst.op != "softmax" or inst.dtype != "bf16" or not lanes:
        return None
    b = VectorBuilder(inst, "softmax prologue: each row minus its maximum, rounded to bf16", lanes)
    shape = inst.inputs[0].shape
    x = b.in_args[0]
    with b.loop_nest(shape[:-1]) as outer:
        r = _Rows(b, outer)
        m = r.fold(b.float_const(float("-inf"), F), lambda iv, a: r.f("maximumf", a, r.read(x, shape, iv)),
                   "maximumf", splat=False)
        with b.scalar_ops():
            m = b.op(f"arith.truncf {m} : {F} to bf16")  # exact: a maximum of bf16 values
        m = r.widen(b.raw(f"vector.broadcast {m} : bf16 to {b.vtype('bf16')}"))
        r.fold("", lambda iv, _: r.write_narrow(r.narrow(r.f("subf", r.read(x, shape, iv), m)), iv), None)
    text = b.finish()
    return None if stopped_why(b.vector_ops, _profile.get()) else text


def emit(inst: KernelInstance) -> str | None:
    """The vector body of a last-axis softmax / rms_norm / layer_norm for the current profile, or None."""
    lanes = vector_lanes(inst)

    def make():
        b = (emit_softmax if inst.op == "softmax" else norm_form(inst))(inst, lanes)
        return b.finish(), b.vector_ops

    return take(inst, make if lanes else None, "" if lanes else "the last axis is not a whole number of vectors (or not a float)")


# ---- reductions over the last axis -----------------------------------------------------------------------

_REDUCTION_KIND = {  # combine kind -> (float op, int op, vector.reduction kind for floats, for ints)
    "sum": ("addf", "addi", "add", "add"),
    "prod": ("mulf", "muli", "mul", "mul"),
    "max": ("maximumf", "maxsi", "maximumf", "maxsi"),
    "min": ("minimumf", "minsi", "minimumf", "minsi"),
}


def emit_reduce(inst: KernelInstance, kind: str, mean: bool, acc_ty: str, identity) -> str | None:
    """A reduction over the last axis alone as a vector body, or None (scalar body).

    ``acc_ty`` is the accumulation type the scalar body uses and ``identity(b, ty)`` its start
    value. Each of the L lanes accumulates every L-th element; the lanes are folded by one
    ``vector.reduction`` (a float sum's with the identity -0.0 as its accumulator operand, so a
    sum of -0.0s stays -0.0 as in the scalar body; max/min need none). Integer sums and products wrap exactly as the scalar
    ones; max/min are exact; a float sum or product is rounded in another order (the bound
    of docs/kernels.md holds, see the module docstring).
    """
    x = inst.inputs[0]
    rank = len(x.shape)
    dt = x.dtype
    lanes = LANES.get(dt) if dt in MLIR_TYPE else None
    if rank == 0 or lanes is None or x.shape[-1] % lanes or dt == "bool":
        return take(inst, None, f"the last axis is not a whole number of {lanes or 'vector'} lanes")
    ty = acc_ty
    f_op, i_op, f_kind, i_kind = _REDUCTION_KIND[kind]
    is_f = ty.startswith(("f", "bf"))

    def make():
        b = VectorBuilder(inst, f"reduce {kind}{' / count' if mean else ''} over the last axis, {lanes} lanes accumulated in {ty}", lanes)
        with b.loop_nest(x.shape[:-1]) as outer:
            start = identity(b, ty)
            iv, res, acc = b.new_iv(), b.fresh(), b.fresh()
            vty = b.vtype(ty)
            b.line(f"{res} = scf.for {iv} = {b.index(0)} to {b.index(x.shape[-1])} step {b.index(lanes)} "
                   f"iter_args({acc} = {start}) -> ({vty}) {{")
            with b.indented():
                pad = b.scalar_const("0.0" if is_float_type(dt) else "0", MLIR_TYPE[dt])
                v = b.raw(f"vector.transfer_read {b.in_args[0]}[{', '.join([*outer, iv])}], {pad} {{in_bounds = [true]}} : "
                          f"{memref_type(x.shape, dt)}, {b.vtype(MLIR_TYPE[dt])}")
                if ty != MLIR_TYPE[dt]:
                    v = to_acc(b, v, dt)
                b.line(f"scf.yield {b.op(f'arith.{f_op if is_f else i_op} {acc}, {v} : {ty}')} : {vty}")
            b.line("}")
            seed = ""
            if is_f and kind == "sum":  # the form test-reduce.mlir shows with an accumulator
                with b.scalar_ops():
                    seed = f", {identity(b, ty)}"
            total = b.raw(f"vector.reduction <{f_kind if is_f else i_kind}>, {res}{seed} : {vty} into {ty}")
            with b.scalar_ops():
                if mean:
                    total = b.op(f"arith.divf {total}, {b.float_const(float(x.shape[-1]), 'f32')} : {ty}")
                if ty != MLIR_TYPE[dt]:
                    total = from_acc(b, total, dt)
                out_idx = list(outer) + ([b.index(0)] if inst.attrs["keepdims"] else [])
                b.store(total, b.out_arg, inst.output.shape, inst.output.dtype, out_idx)
        return b.finish(), b.vector_ops

    return take(inst, make, "")


def is_float_type(dtype: str) -> bool:
    return dtype in ("f32", "f16", "bf16")
