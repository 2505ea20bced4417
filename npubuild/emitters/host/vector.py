"""Vector bodies: elementwise kernels emitted with the MLIR ``vector`` dialect.

The scalar bodies of the elementwise families (``fn(b, values, dtype)``, built
from ``arith`` ops and :mod:`.mathfns`) are reused unchanged: a
:class:`VectorBuilder` gives every value the type ``vector<LANES x T>`` instead
of ``T`` (constants become splats), and the loop over the last axis steps by
``LANES`` with ``vector.transfer_read`` / ``transfer_write`` — the form aiecc
lowers with ``convert-vector-to-aievec`` (mlir-aie test/aiecc/
cpp_aie2p_vector_add.mlir: ``transfer_read`` of ``vector<16xbf16>`` with
``in_bounds = [true]``, ``arith.addf``, ``transfer_write``). The host pipeline
lowers the same text through ``convert-vector-to-llvm``.

Lanes are the widths aievec converts (:data:`LANES`): 16 for f32 and i32 and 64
for i8 (one 512-bit register), 16 for bf16 (its arithmetic runs on 16-lane f32
accumulators). A kernel is vectorized when its output's last
axis is a multiple of the lanes (tails are not handled by scalar loops: such
shapes keep the scalar body, and the reason is recorded) and every input
either covers that axis or is broadcast along it.

Profiles: the host takes every vector body. An AIE device takes it only when
each vector operation in it is one ``convert-vector-to-aievec`` lowers for that
device at that width (:data:`AIEVEC_OPS`, each entry from a FileCheck test of
mlir-aie's test/Conversion/VectorToAIEVec/); otherwise the xdna design keeps
the scalar body and :func:`body_info` says which operation stopped it.
Polynomial transcendentals (bit casts, ``fptosi``) have no aievec pattern, so
they are vectorized on the host only.
"""
from __future__ import annotations

import contextlib
import contextvars
import re
from typing import Callable

from ...specfile.instances import KernelInstance
from .mlir_text import MLIR_TYPE, KernelBuilder, broadcast_indices, memref_type

# element dtype -> lanes of a vector body (the widths of the aievec tests cited below)
LANES = {"f32": 16, "bf16": 16, "f16": 16, "i32": 16, "i8": 64}

_COMMON_FLOAT = {"addf", "subf", "mulf", "maximumf", "minimumf", "cmpf", "select"}
_COMMON_INT = {"addi", "subi", "maxsi", "minsi", "cmpi", "select"}
# (op, element type, lanes) convert-vector-to-aievec lowers, per AIE generation:
# aie2: test-arith-aie2.mlir (addf/subf bf16, f32; addi/subi i32 x16, i8 x64),
#   test_mul_elem.mlir (mulf bf16/f32 x16, muli i32 x16), test-max.mlir / test-min.mlir
#   (maximumf/minimumf bf16/f32 x16, maxsi/minsi i32 x16, i8 x64), test-sel.mlir and
#   test-cmp.mlir (cmpf bf16/f32 x16, cmpi i32 x16 / i8 x64, select), test-trunc-ext.mlir
#   (extf bf16 x16, truncf f32 x16), test_broadcast.mlir (broadcast of a scalar i32 / bf16),
#   test-reduce.mlir (vector.reduction <add> <maximumf> <minimumf> of f32 x16, the f32 <add> also
#   with an accumulator operand; <add> <maxsi> <minsi> of i32 x16 and i8 x64).
# aie2p: test-f32-mul-add.mlir (addf/mulf bf16/f32 x16), test-sub-aie2p.mlir (subf,
#   extf), test-trunc-ext.mlir's AIE2P prefix (extf/truncf), test-reduce-aie2p.mlir (the same
#   reductions as aie2). Nothing else is tested for aie2p, so nothing else is taken there.
AIEVEC_OPS: dict[str, set] = {
    "aie2": (
        {(op, t, 16) for op in _COMMON_FLOAT for t in ("f32", "bf16")}
        | {(op, "i32", 16) for op in _COMMON_INT | {"muli"}}
        | {(op, "i8", 64) for op in _COMMON_INT}
        | {("extf", "bf16", 16), ("truncf", "f32", 16), ("broadcast", "i32", 16), ("broadcast", "bf16", 16)}
        | {(f"reduction.{k}", "f32", 16) for k in ("add", "maximumf", "minimumf")}
        | {(f"reduction.{k}", t, n) for k in ("add", "maxsi", "minsi") for t, n in (("i32", 16), ("i8", 64))}
    ),
    "aie2p": (
        {(op, t, 16) for op in ("addf", "subf", "mulf") for t in ("f32", "bf16")}
        | {("extf", "bf16", 16), ("truncf", "f32", 16)}
        | {(f"reduction.{k}", "f32", 16) for k in ("add", "maximumf", "minimumf")}
        | {(f"reduction.{k}", t, n) for k in ("add", "maxsi", "minsi") for t, n in (("i32", 16), ("i8", 64))}
    ),
}
# not converted by aievec, lowered as they are: splat constants and the memory ops
_STRUCTURAL = {"constant", "transfer_read", "transfer_write"}

_SCALAR_TYPE = re.compile(r"(?<![\w<])(bf16|f16|f32|f64|i1|i8|i16|i32|i64)(?![\w>])")
_VECTOR_TYPE = re.compile(r"vector<(\d+)x(\w+)>")

_profile: contextvars.ContextVar[str] = contextvars.ContextVar("npubuild_vector_profile", default="host")


@contextlib.contextmanager
def profile(name: str):
    """Emit bodies for ``name`` ("host", "aie2", "aie2p"; "scalar": no vector bodies) inside the block."""
    token = _profile.set(name)
    try:
        yield
    finally:
        _profile.reset(token)


class CannotLift(ValueError):
    """A scalar body uses an operation the vector builder cannot lift (the kernel keeps its scalar body)."""


class VectorBuilder(KernelBuilder):
    """A KernelBuilder whose values are ``vector<lanes x T>``: scalar op text is lifted."""

    def __init__(self, inst: KernelInstance, title: str, lanes: int):
        super().__init__(inst, title)
        self.lanes = lanes
        self.vector_ops: set[tuple[str, str, int]] = set()
        self._scalar = False

    @contextlib.contextmanager
    def scalar_ops(self):
        """Inside the block, op() and the constants are plain scalars (after a reduction)."""
        self._scalar = True
        try:
            yield
        finally:
            self._scalar = False

    def vtype(self, scalar: str) -> str:
        return f"vector<{self.lanes}x{scalar}>"

    def scalar_const(self, literal: str, ty: str) -> str:
        return super().const(literal, ty)

    def const(self, literal: str, ty: str) -> str:
        if ty == "index" or self._scalar:
            return super().const(literal, ty)
        if ty == "i1":
            literal = "true" if literal not in ("0", "false") else "false"
        vty = self.vtype(ty)
        k = (literal, vty)
        if k not in self._consts:
            name = f"%vc{len(self._consts)}"
            self._consts[k] = name
            self._const_lines.append(f"  {name} = arith.constant dense<{literal}> : {vty}")
        return self._consts[k]

    def op(self, rhs: str) -> str:
        if self._scalar:
            return super().op(rhs)
        head, sep, types = rhs.rpartition(" : ")
        if not sep or "index" in types or "vector<" in types or "memref<" in types or not _SCALAR_TYPE.search(types):
            raise CannotLift(f"cannot lift {rhs.split()[0]} : {types}")
        opname = head.split()[0]
        if opname == "arith.select":
            types = f"{self.vtype('i1')}, {_SCALAR_TYPE.sub(lambda m: self.vtype(m.group(1)), types)}"
        else:
            types = _SCALAR_TYPE.sub(lambda m: self.vtype(m.group(1)), types)
        self._note(opname, types)
        return super().op(f"{head} : {types}")

    def raw(self, rhs: str) -> str:
        """Emit ``rhs`` as written (memory ops, broadcasts)."""
        opname = rhs.split()[0]
        if opname == "vector.reduction":  # aievec's patterns differ per combining kind
            opname += "." + rhs.split()[1].strip("<>,")
        m = _VECTOR_TYPE.search(rhs)
        if m:
            self._note(opname, m.group(0))
        return super().op(rhs)

    def _note(self, opname: str, types: str) -> None:
        vecs = _VECTOR_TYPE.findall(types)
        lanes, elem = vecs[1] if opname == "arith.select" and len(vecs) > 1 else vecs[0]
        self.vector_ops.add((opname.split(".", 1)[1], elem, int(lanes)))


# ---- when a kernel is vectorized ----------------------------------------------------------------


def vector_plan(inst: KernelInstance) -> tuple[int | None, str]:
    """(lanes, "") when the elementwise kernel ``inst`` gets a vector body, else (None, why not)."""
    out = inst.output
    dtypes = sorted({t.dtype for t in (*inst.inputs, out)})
    widths = {LANES.get(dt) if dt in MLIR_TYPE else None for dt in dtypes}
    if None in widths:
        return None, f"no vector lanes for {', '.join(dt for dt in dtypes if LANES.get(dt) is None)}"
    if len(widths) != 1:  # e.g. a cast between i8 (64 lanes) and f32 (16)
        return None, f"element types {', '.join(dtypes)} have different lane counts"
    lanes = widths.pop()
    if not out.shape or out.shape[-1] % lanes:
        return None, f"the last axis ({out.shape[-1] if out.shape else 'scalar'}) is not a multiple of {lanes} lanes"
    for t in inst.inputs:
        if t.shape and t.shape[-1] not in (1, out.shape[-1]):
            return None, "an input is broadcast inside the last axis"
    return lanes, ""


def emit_elementwise(inst: KernelInstance, fn: Callable, title: str) -> tuple[str, set] | None:
    """The vector body of an elementwise kernel and the vector ops it uses, or None (scalar)."""
    lanes, _ = vector_plan(inst)
    if lanes is None:
        return None
    b = VectorBuilder(inst, f"{title}, vector<{lanes}x{MLIR_TYPE[inst.output.dtype]}>", lanes)
    out = inst.output
    outer = out.shape[:-1]
    with b.loop_nest(outer) as ivs:
        j = b.new_iv()
        b.line(f"scf.for {j} = {b.index(0)} to {b.index(out.shape[-1])} step {b.index(lanes)} {{")
        with b.indented():
            vals = [_read(b, arg, t, [*ivs, j], out.shape) for arg, t in zip(b.in_args, inst.inputs)]
            result = fn(b, vals, inst.dtype)
            idx = ", ".join([*ivs, j])
            b.line(
                f"vector.transfer_write {result}, {b.out_arg}[{idx}] {{in_bounds = [true]}} : "
                f"{b.vtype(MLIR_TYPE[out.dtype])}, {memref_type(out.shape, out.dtype)}"
            )
            b.vector_ops.add(("transfer_write", MLIR_TYPE[out.dtype], lanes))
        b.line("}")
    return b.finish(), b.vector_ops


def _read(b: VectorBuilder, arg: str, t, out_ivs: list[str], out_shape) -> str:
    """The input's lanes at ``out_ivs``: a vector read along the last axis, or a broadcast scalar."""
    ty = MLIR_TYPE[t.dtype]
    zero = b.index(0)
    idx = broadcast_indices(out_ivs, t.shape, out_shape, zero)
    mt = memref_type(t.shape, t.dtype)
    if t.shape and t.shape[-1] == out_shape[-1]:
        pad = b.scalar_const("0" if ty.startswith("i") else "0.0", ty)
        return b.raw(f"vector.transfer_read {arg}[{', '.join(idx)}], {pad} {{in_bounds = [true]}} : {mt}, {b.vtype(ty)}")
    s = KernelBuilder.op(b, f"memref.load {arg}[{', '.join(idx)}] : {mt}")
    return b.raw(f"vector.broadcast {s} : {ty} to {b.vtype(ty)}")


# ---- profiles --------------------------------------------------------------------------------


def unlowered(ops: set, device_profile: str) -> list[str]:
    """The vector ops of a body that ``device_profile``'s aievec conversion has no pattern for."""
    if device_profile == "host":
        return []
    allowed = AIEVEC_OPS[device_profile]
    return sorted(
        f"{op} on vector<{lanes}x{elem}>" for op, elem, lanes in ops if op not in _STRUCTURAL and (op, elem, lanes) not in allowed
    )


def choose(inst: KernelInstance, fn: Callable, title: str) -> str | None:
    """The vector body of an elementwise kernel for the current profile, or None (scalar body)."""
    lanes, why = vector_plan(inst)
    return take(inst, (lambda: emit_elementwise(inst, fn, title)) if lanes else None, why)


def _made(make: Callable[[], tuple[str, set]]) -> tuple[str | None, set, str]:
    try:
        text, ops = make()
    except CannotLift as e:
        return None, set(), str(e)
    return text, ops, ""


def take(inst: KernelInstance, make: Callable[[], tuple[str, set]] | None, why: str) -> str | None:
    """``make()``'s vector body if the current profile lowers all its ops, else None.

    ``make`` is None when the shape has no vector form (``why`` says why). The
    decision is kept (:func:`decision`) so the build can say what each body is."""
    device_profile = _profile.get()
    text = lanes = None
    if device_profile == "scalar":
        why = "scalar bodies asked for"
    elif make is not None:
        text, ops, why = _made(make)
        lanes = max((n for _, _, n in ops), default=None)
        missing = unlowered(ops, device_profile) if text else []
        if missing:
            text, why = None, f"no aievec lowering on {device_profile} for {', '.join(missing[:3])}"
    _decisions[(inst.key, device_profile)] = {"lanes": lanes if text else "scalar", "why": "" if text else why}
    return text


_decisions: dict[tuple[str, str], dict] = {}


def decision(inst: KernelInstance, device_profile: str) -> dict:
    """{"lanes": n | "scalar", "why": ...} of the last body emitted for ``inst`` on ``device_profile``
    (bodies of families without a vector form: scalar, and why)."""
    return _decisions.get((inst.key, device_profile)) or {"lanes": "scalar", "why": f"no vector body for '{inst.op}' yet"}
