"""Helpers shared by the host emitters: dtype -> MLIR type, memref types and a
small builder for a ``@kernel`` function with loop nests.

The text is deterministic: SSA names are numbered in emission order, constants
are hoisted to the top of the function in first-use order, and nothing depends
on dict/set iteration over unordered data or on the environment.

ABI (``use-bare-ptr-memref-call-conv``): ``void kernel(T0 *in0, ..., Tout *out)``,
contiguous row-major buffers whose static shapes are baked into the text.
The module also exports ``npubuild_abi`` (:func:`abi_global`): the kernel's
id, key, op and tensors as NUL-terminated JSON, which the runtime reads from
the library and checks against the manifest before the first call.
bool buffers are ``memref<...xi8>``, one byte per element holding 0/1 (NumPy's
layout): MLIR's memref lowering rejects sub-byte element types (``i1``), so
``load``/``store`` convert (load: ``byte != 0``; store: ``extui``) and bool
*values* are ``i1`` everywhere else.
"""
from __future__ import annotations

import contextlib
import dataclasses
import math
import struct
from dataclasses import dataclass

from ...core.canonical import canonical_json
from ...core.constants import ABI_SYMBOL, ABI_VERSION, DTYPE_BYTES
from ...ops.registry import numel
from ...specfile.instances import KernelInstance

# our dtype -> MLIR scalar type
MLIR_TYPE = {"f32": "f32", "f16": "f16", "bf16": "bf16", "i8": "i8", "u8": "i8", "i4": "i8", "u4": "i8", "i32": "i32", "i64": "i64", "bool": "i1"}
# our dtype -> memref element type (bool is one byte in memory holding 0/1, as in NumPy)
MEMREF_ELEMENT = {**MLIR_TYPE, "bool": "i8"}
# float dtype -> same-width integer type (for sign-bit manipulation)
FLOAT_BITS_TYPE = {"f32": "i32", "f16": "i16", "bf16": "i16"}
FLOAT_SIGN_MASK = {"f32": 0x80000000, "f16": 0x8000, "bf16": 0x8000}
INT_BITS = {"i8": 8, "u8": 8, "i32": 32, "i64": 64}
# Integer dtypes read as unsigned: MLIR integers are signless, so u8 is an i8 whose operations
# are the unsigned ones (extui, uitofp, fptoui, cmpi ult, ...)
UNSIGNED = ("u8",)

# Narrow floats and the float they are computed in: loaded, widened exactly with
# ``arith.extf``, computed in the wider float, rounded once with ``arith.truncf``
# (round to nearest even).
COMPUTE_FLOAT = {"f16": "f32", "bf16": "f32"}
# Narrow floats no float arithmetic, compare or select ever sees: every value is
# widened first. x86 has no bf16 arithmetic, and LLVM would compute it through
# libgcc's ``__extendbfsf2``/``__truncsfbf2``; AIE cores only extend and truncate
# bf16 scalars (llvm-aie AIELegalizerHelper legalizeG_FPEXT/G_FPTRUNC). The host
# pipeline's ``arith-expand{include-bf16=true}`` turns the extf/truncf into integer
# operations. (f16 bodies still write some f16 arithmetic, which LLVM widens to f32
# itself, exactly as NumPy's f16 loops compute.)
WIDENED_FLOATS = ("bf16",)


def is_float(dtype: str) -> bool:
    return dtype in FLOAT_BITS_TYPE


def compute_dtype(dtype: str) -> str:
    """The dtype a value of ``dtype`` is computed in (f16, bf16: f32; others: itself)."""
    return COMPUTE_FLOAT.get(dtype, dtype)


def widen(b: "KernelBuilder", x: str, dtype: str) -> str:
    """``x`` of ``dtype`` as a value of ``compute_dtype(dtype)`` (exact)."""
    if dtype not in COMPUTE_FLOAT:
        return x
    return b.op(f"arith.extf {x} : {MLIR_TYPE[dtype]} to {MLIR_TYPE[COMPUTE_FLOAT[dtype]]}")


def narrow(b: "KernelBuilder", x: str, dtype: str) -> str:
    """``x`` of ``compute_dtype(dtype)`` rounded once to ``dtype`` (nearest even)."""
    if dtype not in COMPUTE_FLOAT:
        return x
    return b.op(f"arith.truncf {x} : {MLIR_TYPE[COMPUTE_FLOAT[dtype]]} to {MLIR_TYPE[dtype]}")


def mlir_type(dtype: str) -> str:
    return MLIR_TYPE[dtype]


def memref_type(shape, dtype: str) -> str:
    if 0 in shape:
        # a tensor without elements: the lowering's bare-pointer convention refuses a 0 after the first dim
        # (memref<3x0xf32>), so the zeros go first; the buffer is empty either way, and every loop over it
        # runs zero times, so no access depends on the order (the rank, which loads use, is kept)
        shape = sorted(shape, key=lambda d: d != 0)
    dims = "".join(f"{d}x" for d in shape)
    return f"memref<{dims}{MEMREF_ELEMENT[dtype]}>"


def negate_float(b: "KernelBuilder", x: str, dtype: str) -> str:
    """``-x`` as a flip of the sign bit on the same-width integer.

    Not ``arith.negf``: llvm-aie has no scalar G_FNEG legalization rule for AIE2 /
    AIE2P (xdna-review.md item 10), and the bit flip is exact for every value,
    NaN and -0.0 included, as negation is in IEEE 754.
    """
    it = FLOAT_BITS_TYPE[dtype]
    width = int(it[1:])
    mask = b.int_const(FLOAT_SIGN_MASK[dtype] - (1 << width), it)  # the sign bit, as a signed literal
    bits = b.op(f"arith.bitcast {x} : {MLIR_TYPE[dtype]} to {it}")
    flipped = b.op(f"arith.xori {bits}, {mask} : {it}")
    return b.op(f"arith.bitcast {flipped} : {it} to {MLIR_TYPE[dtype]}")


def int_min(dtype: str) -> int:
    return 0 if dtype in UNSIGNED else -(1 << (INT_BITS[dtype] - 1))


def int_max(dtype: str) -> int:
    return (1 << INT_BITS[dtype]) - 1 if dtype in UNSIGNED else (1 << (INT_BITS[dtype] - 1)) - 1


def float_literal(value: float, dtype: str) -> str:
    """An exact MLIR float literal (hex bit pattern for non-finite values and -0.0)."""
    value = float(value)
    if math.isfinite(value) and not (value == 0.0 and math.copysign(1.0, value) < 0):
        # repr round-trips through double; MLIR rounds the decimal to the type.
        # MLIR's float literals need a '.' before any exponent ("1e-05" is refused).
        text = repr(value)
        if "." not in text:
            mant, _, exp = text.partition("e")
            text = f"{mant}.0" + (f"e{exp}" if exp else "")
        return text
    if dtype == "f32":
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        return f"0x{bits:08X}"
    if dtype == "f16":
        bits = struct.unpack("<H", struct.pack("<e", value))[0]
        return f"0x{bits:04X}"
    if dtype == "bf16":  # inf, NaN and -0.0 are the top half of their f32 patterns
        bits = struct.unpack("<I", struct.pack("<f", value))[0] >> 16
        return f"0x{bits:04X}"
    raise ValueError(dtype)


def kernel_abi(inst: KernelInstance, functions: dict | None = None) -> dict:
    """What the compiled kernel takes and gives; ``functions``: further exported entry points."""

    def tensor(name: str, t) -> dict:
        return {"name": name, "shape": list(t.shape), "dtype": t.dtype, "bytes": numel(t.shape) * DTYPE_BYTES[t.dtype]}

    abi = {
        "abi": ABI_VERSION,
        "id": inst.id,
        "key": inst.key,
        "op": inst.op,
        "dtype": inst.dtype,
        "inputs": [tensor(n, t) for n, t in zip(inst.input_names, inst.inputs)],
        "outputs": [tensor(inst.opdef.output, inst.output)],
    }
    if functions:
        abi["functions"] = functions
    return abi


def abi_global(abi: dict) -> str:
    """A public constant memref global holding the ABI's JSON and a NUL: the memref
    lowering makes it an exported ``[N x i8]`` constant, and the hex form keeps the
    line free of quotes and escapes."""
    data = canonical_json(abi).encode() + b"\0"
    return f'  memref.global constant @{ABI_SYMBOL} : memref<{len(data)}xi8> = dense<"0x{data.hex().upper()}">'


def with_abi(text: str, abi: dict) -> str:
    """The module text with the ABI global as its first member."""
    head, sep, rest = text.partition("module {\n")
    if not sep:
        raise ValueError("emitted text has no 'module {' line")
    return head + sep + abi_global(abi) + "\n" + rest


def broadcast_indices(out_ivs: list[str], in_shape, out_shape, zero: str) -> list[str]:
    """NumPy broadcasting: input dim i aligns right with the output; size-1 dims read index 0."""
    offset = len(out_shape) - len(in_shape)
    idx = []
    for i, d in enumerate(in_shape):
        od = out_shape[offset + i]
        idx.append(zero if (d == 1 and od != 1) else out_ivs[offset + i])
    return idx


def _sanitize(name: str) -> str:
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)


@dataclass(frozen=True)
class KernelFunction:
    """One ``func.func`` as data: its name, ``%arg: type`` parameters and body lines (indented
    from the function's own column), so a target that places the function elsewhere (xdna puts it
    inside ``aie.device`` as each core's ``@body``) renames and indents it instead of cutting text."""

    name: str
    params: tuple[str, ...]
    body: tuple[str, ...]

    def renamed(self, name: str) -> "KernelFunction":
        return dataclasses.replace(self, name=name)

    def lines(self, indent: str = "") -> list[str]:
        text = [f"func.func @{self.name}({', '.join(self.params)}) {{", *self.body, "  return", "}"]
        return [indent + ln for ln in text]


class KernelText(str):
    """A kernel module's text that also keeps its ``func.func @kernel`` as a :class:`KernelFunction`
    (``function``). It is an ordinary ``str`` to every emitter that returns it, and pickles as one."""

    function: KernelFunction

    def __new__(cls, text: str, function: KernelFunction):
        obj = super().__new__(cls, text)
        obj.function = function
        return obj

    def __reduce__(self):
        return str, (str(self),)


class KernelBuilder:
    """Builds ``func.func @kernel(<inputs>..., <output>)`` from a KernelInstance.

    ``args`` maps each input name and the output name to its SSA argument name.
    """

    def __init__(self, inst: KernelInstance, title: str):
        self.inst = inst
        self.title = title
        self._consts: dict[tuple[str, str], str] = {}
        self._const_lines: list[str] = []
        self._body: list[str] = []
        self._globals: list[str] = []
        self._indent = 2
        self._n = 0
        self._n_iv = 0
        self.in_args = [f"%in_{_sanitize(n)}" for n in inst.input_names]
        self.out_arg = f"%out_{_sanitize(inst.opdef.output)}"

    # -- values ----------------------------------------------------------------------
    def fresh(self) -> str:
        name = f"%v{self._n}"
        self._n += 1
        return name

    def const(self, literal: str, ty: str) -> str:
        """A hoisted ``arith.constant`` (one per distinct literal/type)."""
        k = (literal, ty)
        if k not in self._consts:
            try:
                v = int(literal)
                name = f"%c{'m' if v < 0 else ''}{abs(v)}" + ("" if ty == "index" else f"_{ty}")
            except ValueError:
                name = f"%cst{len(self._consts)}_{ty}"
            self._consts[k] = name
            self._const_lines.append(f"  {name} = arith.constant {literal} : {ty}")
        return self._consts[k]

    def table(self, values, dtype: str) -> str:
        """A constant 1-D memref of ``values`` (a ``memref.global`` of the module, read with
        ``memref.get_global`` at the top of the body): per-axis index and weight tables computed at emit
        time. A kernel with tables is a whole module, not a single function (:func:`emit` keeps it; xdna
        cannot place it as a core's body)."""
        name = f"table{len(self._globals)}"
        ty = f"memref<{len(values)}x{MLIR_TYPE[dtype]}>"
        literals = ", ".join(float_literal(v, dtype) if is_float(dtype) else str(int(v)) for v in values)
        self._globals.append(f'  memref.global "private" constant @{name} : {ty} = dense<[{literals}]>')
        self._const_lines.append(f"  %{name} = memref.get_global @{name} : {ty}")
        return f"%{name}"

    def index(self, n: int) -> str:
        return self.const(str(int(n)), "index")

    def int_const(self, n: int, dtype_or_type: str) -> str:
        ty = MLIR_TYPE.get(dtype_or_type, dtype_or_type)
        if dtype_or_type in UNSIGNED and n >= 1 << (INT_BITS[dtype_or_type] - 1):
            n -= 1 << INT_BITS[dtype_or_type]  # the same bits, written as the signless type's signed value
        return self.const(str(int(n)), ty)

    def float_const(self, x: float, dtype: str) -> str:
        return self.const(float_literal(x, dtype), MLIR_TYPE[dtype])

    def mul_add(self, x: str, y: str, z: str, ty: str) -> str:
        """x * y + z of float type ``ty``: a multiply and an add, each rounded (a host vector builder may
        fuse them: :meth:`.vector.VectorBuilder.mul_add`)."""
        return self.op(f"arith.addf {self.op(f'arith.mulf {x}, {y} : {ty}')}, {z} : {ty}")

    def op(self, rhs: str) -> str:
        """Emit ``%vN = <rhs>`` in the current block; return ``%vN``."""
        name = self.fresh()
        self.line(f"{name} = {rhs}")
        return name

    def line(self, text: str) -> None:
        self._body.append(" " * self._indent + text)

    # -- structure -------------------------------------------------------------------
    def new_iv(self) -> str:
        """A fresh induction-variable name."""
        iv = f"%i{self._n_iv}"
        self._n_iv += 1
        return iv

    @contextlib.contextmanager
    def indented(self):
        """Lines emitted inside are one block deeper (a region's body)."""
        self._indent += 2
        try:
            yield
        finally:
            self._indent -= 2

    @contextlib.contextmanager
    def loop_nest(self, shape):
        """``scf.for`` loops over ``shape`` (outermost first); yields the induction vars."""
        ivs = []
        for d in shape:
            iv = self.new_iv()
            self.line(f"scf.for {iv} = {self.index(0)} to {self.index(d)} step {self.index(1)} {{")
            self._indent += 2
            ivs.append(iv)
        try:
            yield ivs
        finally:
            for _ in shape:
                self._indent -= 2
                self.line("}")

    def load(self, memref: str, shape, dtype: str, idx: list[str]) -> str:
        """The element as a value of ``mlir_type(dtype)`` (bool: an i1 from its byte)."""
        v = self.op(f"memref.load {memref}[{', '.join(idx)}] : {memref_type(shape, dtype)}")
        if dtype == "bool":
            v = self.op(f"arith.cmpi ne, {v}, {self.int_const(0, 'i8')} : i8")
        return v

    def store(self, value: str, memref: str, shape, dtype: str, idx: list[str]) -> None:
        """Store a value of ``mlir_type(dtype)`` (bool: an i1, written as a 0/1 byte)."""
        if dtype == "bool":
            value = self.op(f"arith.extui {value} : i1 to i8")
        self.line(f"memref.store {value}, {memref}[{', '.join(idx)}] : {memref_type(shape, dtype)}")

    def finish(self) -> str:
        inst = self.inst
        params = [f"{a}: {memref_type(t.shape, t.dtype)}" for a, t in zip(self.in_args, inst.inputs)]
        params.append(f"{self.out_arg}: {memref_type(inst.output.shape, inst.output.dtype)}")
        sig = ", ".join(
            f"{n}: {'x'.join(map(str, t.shape)) or 'scalar'} {t.dtype}" for n, t in zip(inst.input_names, inst.inputs)
        )
        out = f"{inst.opdef.output}: {'x'.join(map(str, inst.output.shape)) or 'scalar'} {inst.output.dtype}"
        header = [
            f"// npubuild host kernel {inst.id}",
            f"// op: {inst.op} ({self.title}), dtype: {inst.dtype}, attrs: {inst.attrs_json}",
            f"// inputs: {sig}; output: {out}",
            "// C ABI: void kernel(" + ", ".join(f"{t.dtype} *{n}" for n, t in zip(inst.input_names, inst.inputs))
            + f", {inst.output.dtype} *{inst.opdef.output}); contiguous row-major buffers",
            "module {",
        ]
        fn = KernelFunction("kernel", tuple(params), tuple(self._const_lines + self._body))
        if self._globals:  # not one function: the tables are module members
            return "\n".join(header + self._globals + fn.lines("  ") + ["}", ""])
        return KernelText("\n".join(header + fn.lines("  ") + ["}", ""]), fn)
