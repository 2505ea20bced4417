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
device at that width (:data:`AIEVEC_OPS`, from :data:`PROFILE`: each entry names
the FileCheck test of mlir-aie's test/Conversion/VectorToAIEVec/ that shows it);
otherwise the xdna design keeps the scalar body and the decision says which
construct stopped it and where mlir-aie shows it missing (:func:`stopped_why`).
Polynomial transcendentals (bit casts, ``fptosi``) have no aievec pattern, so
they are vectorized on the host only; aie2p's hardware exp/tanh/inv/rsqrt and
aie2's lookup-table exp of bf16 lanes (:data:`HARDWARE`) lower but are not the
oracle's functions, so no body uses them.
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

# ---- the profiles: what convert-vector-to-aievec lowers, per device, with the test that shows it ----------
#
# Read from mlir-aie at MLIR_AIE_TESTS (the commit kernel_library.MLIR_AIE_COMMIT names). aiecc runs
# convert-vector-to-aievec{aie-target=<arch> target-backend=llvmir} on core code (tools/aiecc/aiecc.cpp).
# Each row: device, ops, (element type, lanes) pairs, the test file (under test/Conversion/ unless a
# path is given) and the construct as that test writes it. Only what a test shows for that device,
# element type and width is admitted.
MLIR_AIE_TESTS = "1e400306479ef709a0f897e330cd51fc297f9a13"
_V = "VectorToAIEVec/"
_F16 = (("f32", 16), ("bf16", 16))
_I = (("i32", 16), ("i8", 64))
_PROFILE_ROWS: tuple[tuple[str, tuple, tuple, str, str], ...] = (
    ("aie2", ("addf", "subf"), _F16, _V + "test-arith-aie2.mlir", "arith.addf / arith.subf : vector<16xf32>, vector<16xbf16>"),
    ("aie2", ("addi", "subi"), _I, _V + "test-arith-aie2.mlir", "arith.addi / arith.subi : vector<16xi32>, vector<64xi8>"),
    ("aie2", ("mulf",), _F16, _V + "test_mul_elem.mlir", "arith.mulf : vector<16xf32>, vector<16xbf16>"),
    ("aie2", ("muli",), (("i32", 16),), _V + "test_mul_elem.mlir", "arith.muli : vector<16xi32>"),
    ("aie2", ("maximumf",), _F16, _V + "test-max.mlir", "arith.maximumf : vector<16xf32>, vector<16xbf16>"),
    ("aie2", ("maxsi",), _I, _V + "test-max.mlir", "arith.maxsi : vector<16xi32>, vector<64xi8>"),
    ("aie2", ("minimumf",), _F16, _V + "test-min.mlir", "arith.minimumf : vector<16xf32>, vector<16xbf16>"),
    ("aie2", ("minsi",), _I, _V + "test-min.mlir", "arith.minsi : vector<16xi32>, vector<64xi8>"),
    ("aie2", ("cmpf",), _F16, _V + "test-sel.mlir", "arith.cmpf ogt : vector<16xf32>; arith.cmpf ole : vector<16xbf16>"),
    ("aie2", ("cmpi",), _I, _V + "test-cmp.mlir", "arith.cmpi : vector<16xi32>, vector<64xi8>"),
    ("aie2", ("select",), _F16 + _I, _V + "test-sel.mlir", "arith.select : vector<16xi1>, vector<16xf32> / vector<16xbf16> / vector<16xi32>; vector<64xi1>, vector<64xi8>"),
    ("aie2", ("extf",), (("bf16", 16),), _V + "test_mul_elem.mlir", "arith.extf : vector<16xbf16> to vector<16xf32>"),
    ("aie2", ("truncf",), (("f32", 16),), _V + "test-trunc-ext.mlir",
     "arith.truncf : vector<16xf32> to vector<16xbf16> (its unprefixed RUN; LowerTruncFOpPattern is registered for "
     "every target by populateAIEVecCommonConversionPatterns)"),
    ("aie2", ("broadcast",), (("i32", 16), ("bf16", 16)), _V + "test_broadcast.mlir",
     "vector.broadcast : i32 to vector<16xi32>, bf16 to vector<16xbf16>"),
    ("aie2", ("reduction.add", "reduction.maximumf", "reduction.minimumf"), (("f32", 16),), _V + "test-reduce.mlir",
     "vector.reduction <add> (also with an accumulator) / <maximumf> / <minimumf> : vector<16xf32>"),
    ("aie2", ("reduction.add", "reduction.maxsi", "reduction.minsi"), _I, _V + "test-reduce.mlir",
     "vector.reduction <add> / <maxsi> / <minsi> : vector<16xi32>, vector<64xi8>"),
    ("aie2p", ("addf", "mulf"), _F16, _V + "test-f32-mul-add.mlir", "arith.addf / arith.mulf : vector<16xf32>, vector<16xbf16>"),
    ("aie2p", ("subf",), _F16, _V + "test-sub-aie2p.mlir", "arith.subf : vector<16xf32>, vector<16xbf16>"),
    ("aie2p", ("extf",), (("bf16", 16),), _V + "test-trunc-ext.mlir", "AIE2P: arith.extf : vector<16xbf16> to vector<16xf32>"),
    ("aie2p", ("truncf",), (("f32", 16),), _V + "test-trunc-ext.mlir", "AIE2P: arith.truncf : vector<16xf32> to vector<16xbf16>"),
    ("aie2p", ("reduction.add", "reduction.maximumf", "reduction.minimumf"), (("f32", 16),), _V + "test-reduce-aie2p.mlir",
     "vector.reduction <add> / <maximumf> / <minimumf> : vector<16xf32>"),
    ("aie2p", ("reduction.add", "reduction.maxsi", "reduction.minsi"), _I, _V + "test-reduce-aie2p.mlir",
     "vector.reduction <add> / <maxsi> / <minsi> : vector<16xi32>, vector<64xi8>"),
    # Two steps, each shown: the VectorToAIEVec pattern is in populateAIEVecV2CommonConversionPatterns, which
    # populateAIEVecV2PConversionPatterns also runs (aie-target=aie2p), and the aievec op it makes has an aie2p
    # lowering in populateAIEVecToLLVMAIE2pConversionPatterns whose test has an AIE2P prefix. f32 lanes are not
    # admitted: MaxOpAIE2pConversion / MinOpAIE2pConversion take integers and bf16 only ("unsupported element
    # data type"), so a 16 x f32 maximumf converts to an aievec.max aie2p cannot lower.
    ("aie2p", ("maximumf", "minimumf"), (("bf16", 16),), "AIEVecToLLVM/test-max-min.mlir",
     "arith.maximumf / minimumf : vector<16xbf16> -> aievec.max / min of the operands padded to vector<32xbf16> "
     "and aievec.ext of the low half (LowerVectorMinMaxOpToAIEVecMinMaxOp) -> AIE2P: xllvm.intr.aie2p.vmax.ltbf16 / "
     "vmin.gebf16 (and AIEVecToLLVM/test-ext-aie2p.mlir)"),
    ("aie2p", ("maxsi", "minsi"), (("i32", 16),), "AIEVecToLLVM/test-max-min.mlir",
     "arith.maxsi / minsi : vector<16xi32> -> aievec.max / min -> AIE2P: xllvm.intr.aie2p.vmax.lt32 / vmin.ge32"),
    ("aie2p", ("broadcast",), (("bf16", 16), ("f32", 16), ("i32", 16)), "AIEVecToLLVM/test-broadcast_scalar-aie2p.mlir",
     "vector.broadcast of a scalar -> aievec.broadcast_scalar (ConvertSplatToAIEBroadcastAIE2p: 256- and 512-bit "
     "results) -> llvm.insertelement + vector.shuffle: bf16 to vector<16xbf16> (bf16_broadcast_scalar_256bit_aie2p), "
     "f32 to vector<16xf32>, i32 to vector<16xi32>"),
)
# Lowered on aie2p, but to the core's hardware functions (exp2, tanh, reciprocal, inverse square root), and on aie2
# (exp) to lookup tables of bf16 arguments, whose results are not the oracle's: a generated body promises the oracle's numerics (bit-identical to the host
# target), so none uses them; mlir-aie's library kernels (kernel_library) are where such numerics are taken.
_HARDWARE_ROWS: tuple[tuple[str, tuple, tuple, str, str], ...] = (
    # aie2 (target-backend=llvmir): ComputeExpOpByLUTLLVMPattern, a call of getExpBf16 of aie_runtime_lib/AIE2/
    # lut_based_ops.cpp on bf16 lanes: exp of a bf16 argument from lookup tables, not the oracle's exp of an f32
    ("aie2", ("exp",), (("bf16", 16),), _V + "test_lut_based_ops.mlir",
     "math.exp : vector<16xbf16> -> call @getExpBf16 (lookup tables of aie_runtime_lib/AIE2/lut_based_ops.cpp; "
     "the argument is bf16, so softmax's x - max would be rounded to bf16 before exp)"),
    ("aie2p", ("exp",), (("bf16", 16),), _V + "test-exp-aie2p.mlir", "math.exp : vector<16xbf16> -> aievec.exp"),
    ("aie2p", ("tanh",), (("bf16", 16),), _V + "test-tanh-aie2p.mlir", "math.tanh : vector<16xbf16> -> aievec.tanh"),
    ("aie2p", ("inv",), (("f32", 16),), _V + "test-inv-aie2p.mlir",
     "arith.divf dense<1.0>, %x : vector<16xf32> -> aievec.inv (a general divf stays arith.divf)"),
    ("aie2p", ("rsqrt",), (("f32", 16),), "AIEVecToLLVM/test-rsqrt-aie2p.mlir",
     "math.rsqrt : vector<16xf32> -> 16 x xllvm.intr.aie2p.invsqrt (vector bf16 rsqrt is refused)"),
)


def _table(rows) -> dict[tuple[str, str, str, int], str]:
    return {(dev, op, t, n): f"test/Conversion/{test}: {construct}"
            for dev, ops, types, test, construct in rows for op in ops for t, n in types}


# (device, op, element type, lanes) -> the mlir-aie test (and construct) that shows it lowering there
PROFILE: dict[tuple[str, str, str, int], str] = _table(_PROFILE_ROWS)
HARDWARE: dict[tuple[str, str, str, int], str] = _table(_HARDWARE_ROWS)
# (op, element type, lanes) a generated body may use, per AIE generation
AIEVEC_OPS: dict[str, set] = {dev: {k[1:] for k in PROFILE if k[0] == dev} for dev in ("aie2", "aie2p")}

# Why a construct is missing, where mlir-aie shows it (at MLIR_AIE_TESTS):
_CONV = "lib/Dialect/AIEVec/Transforms/VectorToAIEVecConversions.cpp"
_NO_PATTERN = {"bitcast", "fptosi", "fptoui", "sitofp", "uitofp", "shli", "shrui", "remf", "remui", "remsi",
               "divsi", "divui", "maxui", "minui"}
# neg and abs keep their exact sign-bit bodies (bitcast of bf16 to i16): their vector forms are not usable either
_NEG = ("ComputeNegOpPattern rewrites arith.negf to aievec.neg, which lib/Conversion/AIEVecToLLVM/AIEVecToLLVM.cpp "
        "cannot lower at this commit (test/Conversion/AIEVecToLLVM/test-neg.mlir and test-neg-aie2p.mlir, and "
        "test/Conversion/VectorToAIEVec/test-negf-32-aie2p.mlir, come later)")
_ABS = ("ComputeAbsOpPattern rewrites math.absf to an emitc call of getAbs (vec_math.h), which only the C++ backend "
        "takes; aiecc runs target-backend=llvmir")
_NOTES = {"negf": _NEG, "absf": _ABS}
_SIGN_BIT = f"no arith.bitcast pattern; the vector neg/abs are no way out: {_NEG}; {_ABS}"


def missing_why(op: str, elem: str, lanes: int, device_profile: str) -> str:
    """Where mlir-aie shows that ``op`` on ``vector<lanes x elem>`` has no lowering a generated body can use."""
    at = f"mlir-aie {MLIR_AIE_TESTS[:8]}"
    hw = HARDWARE.get((device_profile, op, elem, lanes))
    if hw:
        return f"{at} {hw}: the hardware function, not the oracle's"
    if op in _NOTES:
        return f"{at}: {_NOTES[op]}"
    if op == "divf" and device_profile == "aie2p":
        return (f"{at} test/Conversion/VectorToAIEVec/test-inv-aie2p.mlir: a general arith.divf stays arith.divf; "
                "only dense<1.0> / x converts, to aievec.inv, the hardware reciprocal")
    if op == "bitcast" and elem in ("bf16", "f16"):  # the sign-bit neg / abs of a 16-bit float
        return f"{at} {_CONV}: {_SIGN_BIT}"
    if elem in ("i64", "f64"):
        return f"{at} {_CONV}: no 64-bit element type in configureAIEVecV2Legalizations' lane/width pairs"
    if op in _NO_PATTERN:
        return f"{at} {_CONV}: no arith.{op} pattern"
    other = [k for k in PROFILE if k[1:] == (op, elem, lanes) and k[0] != device_profile]
    if other:
        test = PROFILE[other[0]].split(":")[0]
        return f"{at}: only {test} converts it, for aie-target={other[0][0]}; no {device_profile} test does"
    return f"{at}: no test/Conversion/VectorToAIEVec test converts it for {device_profile}"


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


def admits(op: str, elem: str, lanes: int) -> bool:
    """Whether the current profile lowers ``op`` on ``vector<lanes x elem>`` (one without an aievec table, the
    host's, lowers everything)."""
    ops = AIEVEC_OPS.get(_profile.get())
    return ops is None or (op, elem, lanes) in ops


def on_npu() -> bool:
    """Whether bodies are being emitted for an AIE core (profile aie2 or aie2p), not the host."""
    return _profile.get() in ("aie2", "aie2p")


def emulated_f32_multiply() -> bool:
    """Whether the current profile's f32 vector multiply is emulated: on aie2 an ``arith.mulf`` on
    ``vector<16xf32>`` becomes 25 bf16 instructions (mlir-aie lib/Conversion/AIEVecToLLVM/AIEVecToLLVM.cpp,
    MulElemOpConversion, accuracy-safe), while a product of two widened bf16 vectors is one ``mul_elem``
    (test/Conversion/VectorToAIEVec/test_mul_elem.mlir, test_mul_elem_bf16_float). Bodies then multiply
    by pieces (:mod:`.vector_rows`)."""
    return _profile.get() == "aie2"


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

    def mul_add(self, x: str, y: str, z: str, ty: str) -> str:
        """x * y + z. On the host, ``vector.fma`` (convert-vector-to-llvm: ``llvm.intr.fmuladd``): llc fuses it
        into one rounding where the ISA variant has FMA (x86-64-v3, -v4, aarch64) and keeps the multiply and
        the add where it has none (x86-64 baseline), so the variants agree within the documented error
        bounds, not bit for bit. AIE cores and scalar stretches keep the two operations."""
        if self._scalar or on_npu() or ty != "f32":
            return super().mul_add(x, y, z, ty)
        return self.raw(f"vector.fma {x}, {y}, {z} : {self.vtype(ty)}")

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
    return [f"{op} on vector<{lanes}x{elem}>" for op, elem, lanes in _missing(ops, device_profile)]


def _missing(ops: set, device_profile: str) -> list[tuple[str, str, int]]:
    """The ops ``device_profile`` does not take: those mlir-aie has no pattern for first (they stop the body
    whatever else is added), then by name."""
    if device_profile == "host":
        return []
    allowed = AIEVEC_OPS[device_profile]
    out = [k for k in ops if k[0] not in _STRUCTURAL and k not in allowed]
    return sorted(out, key=lambda k: (k[0] not in _NO_PATTERN and k[1] not in ("i64", "f64"), k))


# npubuild op -> the construct of HARDWARE that computes it (recip: 1.0 / x; softmax: its exp)
_HARDWARE_FORM = {"exp": "exp", "softmax": "exp", "tanh": "tanh", "recip": "inv", "rsqrt": "rsqrt"}


def stopped_why(ops: set, device_profile: str, op_name: str = "") -> str:
    """Which construct stops a body on ``device_profile`` and where mlir-aie shows it missing ("" if none);
    for ``op_name``, also a hardware form that lowers there but is not the oracle's."""
    missing = _missing(ops, device_profile)
    if not missing:
        return ""
    op, elem, lanes = missing[0]
    rest = [f"{o} on vector<{n}x{e}>" for o, e, n in missing[1:4]]
    more = f"; also {', '.join(rest)}{' ...' if len(missing) > 4 else ''}" if rest else ""
    hw = [v for k, v in HARDWARE.items() if k[0] == device_profile and k[1] == _HARDWARE_FORM.get(op_name)]
    aside = f"; the device's own form lowers ({hw[0]}) but is not the oracle's, so no generated body uses it" if hw else ""
    return (f"no aievec lowering on {device_profile} for {op} on vector<{lanes}x{elem}> "
            f"({missing_why(op, elem, lanes, device_profile)}){more}{aside}")


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
        stopped = stopped_why(ops, device_profile, inst.op) if text else ""
        if stopped:
            text, why = None, stopped
    _decisions[(inst.key, device_profile)] = {"lanes": lanes if text else "scalar", "why": "" if text else why}
    return text


_decisions: dict[tuple[str, str], dict] = {}


def decision(inst: KernelInstance, device_profile: str) -> dict:
    """{"lanes": n | "scalar", "why": ...} of the last body emitted for ``inst`` on ``device_profile``
    (bodies of families without a vector form: scalar, and why)."""
    return _decisions.get((inst.key, device_profile)) or {"lanes": "scalar", "why": f"no vector body for '{inst.op}' yet"}
