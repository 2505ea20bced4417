"""mlir-aie's own AIE kernels (``aie_kernels/<arch>/*.cc``) as an alternative
xdna compute body: which kernel computes which npubuild op, how a core calls
it, and what it computes.

Every entry was read from the mlir-aie sources at commit
``1e400306479ef709a0f897e330cd51fc297f9a13`` (main, 2026-03-14), except the
kernels added after it (:data:`READ_LATER`, each with its commit: aie2p relu,
add and mul, tanh and sigmoid on both archs); the file,
the ``extern "C"`` prototype and the fixed element counts are recorded per
entry and checked against the sources by tests/test_xdna_kernel_library.py.

A prologue
----------
aie2/softmax.cc subtracts no row maximum (its exp overflows where npubuild's
softmax does not), so it is taken only behind a *prologue*
(:attr:`LibraryKernel.prologue`, :data:`ROW_SHIFT`): each core first writes its
row minus the row's maximum, rounded to bf16 (the kernel's ``getExpBf16``
takes bf16 anyway), into a local buffer with npubuild's generated vector
function ``@shift`` (``vector_rows.emit_row_shift``: ``maximumf``, a
``vector.reduction``, a bf16 broadcast, ``subf`` and ``truncf``, each an
aievec lowering of the aie2 profile), then calls the kernel on that buffer.
softmax(x) = softmax(x - max) exactly; the rounding of x - max is in the
entry's numerics and tolerance.

What a kernel takes
-------------------
Most kernels have their element count compiled in: ``bf16_relu``,
``eltwise_add_bf16_vector``, ``gelu_bf16`` ... all call their template with
``1024`` (e.g. ``aie_kernels/aie2/relu.cc``: ``relu(a_in, c_out, 1024)``), and
mlir-aie's examples feed them objects of exactly 1024 elements
(``programming_examples/ml/relu/relu.py``, ``gelu/gelu.py``, ``silu/silu.py``:
``line_size = 1024``; ``eltwise_add/eltwise_add.py``, ``eltwise_mul``:
``per_tile_elements = 1024``). A core therefore calls such a kernel on a chunk
of exactly 1024 elements (:attr:`LibraryKernel.fixed_elems`). Row kernels
(softmax, reduce_max) take the row length as an ``int32_t`` and must be called
once per row, on a chunk of one row whose length is a multiple of their vector
width (their loops step by whole vectors and have no tail).

``tanh_bf16`` and ``sigmoid_bf16`` take the element count as an ``int`` (their
loops step by v32bfloat16 to it; aie2/tanh.cc and aie2p/sigmoid.cc compile
``TANH_ELEMS`` / ``SIGMOID_ELEMS`` in instead when defined). mlir-aie's IRON
kernel factory (``python/iron/kernels/activation.py``: ``tanh()``, ``sigmoid()``)
builds them for tiles of 1024 with ``-DTANH_ELEMS=`` / ``-DSIGMOID_ELEMS=`` the
tile and passes the tile as a trailing ``np.int32``; the catalog does the same:
chunks of exactly 1024 elements, the count passed as ``i32`` 1024.

A call passes the chunk's FIFO objects themselves: the declaration uses the
chunk's own static, identity-layout memref types: aiecc lowers calls with
the bare-pointer convention (tools/aiecc/aiecc.cpp: ``ConvertFuncToLLVMPassOptions{
/*useBarePtrCallConv=*/true}``), so a ``memref<1x1024xbf16>`` reaches the C
function as ``bfloat16 *``, as ``memref<64x64xi8>`` does for ``mm.cc`` in
:mod:`.gemm`.

What is left out, and why
-------------------------
See :data:`LEFT_OUT`: kernels whose semantics differ from every npubuild op
(fixed gamma/beta, an interleaved cos/sin table) or that
compute an op npubuild's xdna target does not take. The aie2p tanh and sigmoid
kernels are in the catalog: their hardware ``aie::tanh`` is modelled as for
aie2p gelu and silu (below), their tolerances leaving room for it.

Numerics
--------
Each entry has a NumPy model of the kernel's arithmetic (:func:`model`), read
from the source: where the source rounds to bf16 (every ``aie::vector<bfloat16>``
result of ``aie::mul``/``aie::add``), the model rounds to bf16 (to nearest
even; the AIE's conversion rounding mode is the core's setting, so
:attr:`LibraryKernel.tolerance` also covers truncation), and the lookup
tables of ``aie_runtime_lib/AIE2/lut_based_ops.cpp`` are reproduced exactly
(the tests compare them with the source's tables when the mirror is there).
Hardware ``aie::tanh``/``aie::exp2``/``aie::inv`` (aie2p: gelu, silu, tanh,
sigmoid, exp, softmax) are modelled as the exact function rounded to bf16.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from ...ops.registry import numel
from ..host.mlir_text import memref_type
from .devices import device

MLIR_AIE_COMMIT = "1e400306479ef709a0f897e330cd51fc297f9a13"
# Kernels added to mlir-aie after MLIR_AIE_COMMIT, read at the commit named here (the
# installed mlir-aie may lack them: targets/xdna passes the missing sources as
# ``unavailable_kernels`` and the core keeps the generated body, saying so).
READ_LATER: dict[str, str] = {
    "aie2p/relu.cc": "5c87847cf87e760efb42d4f07ef148e141dd5341",
    "aie2p/add.cc": "08c791150ea62803920cd79f4c0360e7512dc59a",
    "aie2p/mul.cc": "c53d46173959d763c07c2115cc642344566cee53",
    "aie2p/tanh.cc": "11616b5576d3ae6aab1e37f01348dcabb3334142",
    "aie2p/sigmoid.cc": "40bc3cc96a868dee7cfc5bf5e0d69c70afb4d1ac",
    # at ee2670f1 aie2/tanh.cc loops to the runtime count; bc8cb012 adds the TANH_ELEMS define the
    # entry passes (with the count 1024 as the argument too, the call is right at either commit)
    "aie2/tanh.cc": "bc8cb01298e9886c7110c5f7ef19342d5bece434",
    "aie2/sigmoid.cc": "0618648ba69b464bd167af38f4b5cfd9442c448e",
}


def read_at(source: str) -> str:
    """The mlir-aie commit ``source`` (``aie2p/relu.cc`` ...) was read at."""
    return READ_LATER.get(source, MLIR_AIE_COMMIT)

# Peano's archive of the kernel object with lut_based_ops.o on aie2: mlir-aie's
# examples do the same (programming_examples/ml/gelu/Makefile: build/kernels.a
# from gelu.cc.o + lut_based_ops.o, linked as Kernel("gelu_bf16", "kernels.a", ...)).
LUT_RUNTIME = "aie_runtime_lib/AIE2/lut_based_ops.cpp"  # relative to the mlir-aie prefix
LUT_INCLUDE = "aie_runtime_lib/AIE2"



@dataclass(frozen=True)
class Tolerance:
    """Kernel output vs npubuild's oracle: ``|y - ref| <= atol + rtol * |ref|`` for inputs in ``domain``."""

    rtol: float
    atol: float
    domain: tuple[float, float]  # input range the bound holds on
    why: str


@dataclass(frozen=True)
class LibraryKernel:
    op: str
    dtype: str
    arch: str  # aie2 (npu1) or aie2p (npu2)
    source: str  # relative to the aie_kernels/ directory
    symbol: str
    prototype: str  # the extern "C" prototype as in the source (whitespace joined)
    args: tuple[str, ...]  # call order: "in0", "in1", "out", "n" (int32 element count: the row's, or fixed_elems)
    kind: str  # "fixed": exactly fixed_elems elements per call; "row": one row of n elements per call
    fixed_elems: int = 0
    multiple: int = 16  # elements per loop iteration (the row length must be a multiple)
    min_elems: int = 0
    align: int = 32  # bytes: the widest vector the kernel loads/stores (v16bfloat16: 32, v32bfloat16: 64)
    lut: bool = False  # needs aie_runtime_lib/AIE2/lut_based_ops.{h,cpp}
    # what the core computes before the call, into a local buffer the kernel then reads ("" none; ROW_SHIFT: the
    # row minus its maximum, for a softmax kernel that subtracts none)
    prologue: str = ""
    defines: tuple[str, ...] = ()
    attrs: tuple[tuple[str, object], ...] = ()  # attrs the instance must have (e.g. gelu approximate=tanh)
    example: str = ""  # the mlir-aie example that calls it and the chunk it passes
    numerics: str = ""
    tolerance: Tolerance = field(default=None)  # type: ignore[assignment]

    @property
    def stem(self) -> str:
        return self.source.rsplit("/", 1)[-1].rsplit(".", 1)[0]

    @property
    def object_name(self) -> str:
        """Basename of the linked file; aiecc copies linked files by basename, so it names the
        whole configuration (arch, source, dtype, defines). An archive on aie2 when the LUT runtime is linked too."""
        d = "".join(f"_{x.replace('=', '-')}" for x in self.defines)
        return f"aiek_{self.arch}_{self.stem}_{self.dtype}{d}{'.a' if self.lut else '.o'}"

    @property
    def lanes(self) -> int:
        """Elements per vector the kernel computes with (its widest load)."""
        from ...core.constants import DTYPE_BYTES

        return self.align // DTYPE_BYTES[self.dtype]

    @property
    def chunk_rule(self) -> str:
        if self.kind == "fixed" and "n" in self.args:
            macro = "".join(f", compiled in as {d}" for d in self.defines)
            return f"exactly {self.fixed_elems} elements per call (passed as int32{macro})"
        if self.kind == "fixed":
            return f"exactly {self.fixed_elems} elements per call (compiled into {self.symbol})"
        extra = f", at least {self.min_elems}" if self.min_elems else ""
        after = f"; the core first writes the {self.prologue} (bf16) to a local buffer, the call's input" if self.prologue else ""
        return f"one row per call, its length a multiple of {self.multiple}{extra} (passed as int32){after}"

    def describe(self) -> dict:
        return {
            "op": self.op, "dtype": self.dtype, "arch": self.arch, "source": f"aie_kernels/{self.source}",
            "symbol": self.symbol, "prototype": self.prototype, "object": self.object_name,
            "chunk": self.chunk_rule, "align": self.align, "lut_runtime": self.lut, "attrs": dict(self.attrs),
            "example": self.example, "numerics": self.numerics, "read_at": read_at(self.source),
            "tolerance": {"rtol": self.tolerance.rtol, "atol": self.tolerance.atol,
                          "domain": list(self.tolerance.domain), "why": self.tolerance.why},
        }


ROW_SHIFT = "row minus its maximum"
_BF16_ROUND = "each bf16 result rounded once (to nearest even, or truncated: the core's rounding mode)"
_ONE_ULP = Tolerance(2.0**-7, 0.0, (-1e4, 1e4), "one bf16 rounding of the f32 result; 2^-7 covers truncation")
# mlir-aie's own callers of the runtime-count kernels (tanh.cc, sigmoid.cc): the IRON kernel factory
_FACTORY = ("python/iron/kernels/activation.py: {op}(tile_size=1024) compiles \"{op}_bf16\" with "
            "-D{macro}={{tile_size}}, arg_types [tile_ty, tile_ty, np.int32], the tile size passed as the "
            "trailing int (tiles of at least 1024 elements, in multiples of 32)")

CATALOG: tuple[LibraryKernel, ...] = (
    # ---- aie2 (npu1) ---------------------------------------------------------------------------------------------
    LibraryKernel(
        "relu", "bf16", "aie2", "aie2/relu.cc", "bf16_relu",
        "void bf16_relu(bfloat16 *a_in, bfloat16 *c_out)",
        ("in0", "out"), "fixed", 1024, 32, align=64,
        example="programming_examples/ml/relu/relu.py: Kernel(\"bf16_relu\", \"relu.cc.o\", [line_type, line_type]), line_size = 1024",
        numerics="max(x, 0) on v32bfloat16: exact",
        tolerance=Tolerance(0.0, 0.0, (-1e4, 1e4), "max is exact"),
    ),
    LibraryKernel(
        "add", "bf16", "aie2", "aie2/add.cc", "eltwise_add_bf16_vector",
        "void eltwise_add_bf16_vector(bfloat16 *a_in, bfloat16 *b_in, bfloat16 *c_out)",
        ("in0", "in1", "out"), "fixed", 1024, 16,
        example="programming_examples/ml/eltwise_add/eltwise_add.py: Kernel(\"eltwise_add_bf16_vector\", \"add.o\", "
        "[tile_ty, tile_ty, tile_ty]), per_tile_elements = 1024",
        numerics=f"aie::add of bf16 x16 vectors: the f32 sum, {_BF16_ROUND}",
        tolerance=_ONE_ULP,
    ),
    LibraryKernel(
        "mul", "bf16", "aie2", "aie2/mul.cc", "eltwise_mul_bf16_vector",
        "void eltwise_mul_bf16_vector(bfloat16 *a_in, bfloat16 *b_in, bfloat16 *c_out)",
        ("in0", "in1", "out"), "fixed", 1024, 16,
        example="programming_examples/ml/eltwise_mul/eltwise_mul.py: Kernel(\"eltwise_mul_bf16_vector\", \"mul.o\", "
        "[tile_ty, tile_ty, tile_ty]), per_tile_elements = 1024",
        numerics=f"aie::mul of bf16 x16 vectors: the exact product, {_BF16_ROUND}",
        tolerance=_ONE_ULP,
    ),
    LibraryKernel(
        "gelu", "bf16", "aie2", "aie2/gelu.cc", "gelu_bf16",
        "void gelu_bf16(bfloat16 *restrict input, bfloat16 *restrict output)",
        ("in0", "out"), "fixed", 1024, 16, lut=True, attrs=(("approximate", "tanh"),),
        example="programming_examples/ml/gelu/gelu.py: Kernel(\"gelu_bf16\", \"kernels.a\", [line_type, line_type]), line_size = 1024",
        numerics="0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) with every step rounded to bf16 and the constants in bf16; "
        "tanh is getTanhBf16: 32 linear pieces of width 1/4 on [-4, 4) (aie_runtime_lib/AIE2/lut_based_ops.cpp tanh_lut_ab), "
        "saturated outside",
        tolerance=Tolerance(2.0**-4, 2.0**-5, (-6.0, 6.0),
                            "tanh's linear pieces are off by up to 0.0051; bf16 constants and 7 bf16 roundings"),
    ),
    LibraryKernel(
        "silu", "bf16", "aie2", "aie2/silu.cc", "silu_bf16",
        "void silu_bf16(bfloat16 *restrict input, bfloat16 *restrict output)",
        ("in0", "out"), "fixed", 1024, 16, lut=True,
        example="programming_examples/ml/silu/silu.py: Kernel(\"silu_bf16\", \"kernels.a\", [line_type, line_type]), line_size = 1024",
        numerics="x * 0.5 (1 + tanh(x / 2)) (= x sigmoid(x)), each step rounded to bf16; tanh as for gelu (LUT pieces)",
        tolerance=Tolerance(2.0**-4, 2.0**-5, (-8.0, 8.0), "tanh's linear pieces (<= 0.0051) scaled by x/2; 4 bf16 roundings"),
    ),
    LibraryKernel(
        "exp", "bf16", "aie2", "aie2/bf16_exp.cc", "exp_bf16_1024",
        "void exp_bf16_1024(bfloat16 *a_in, bfloat16 *c_out)",
        ("in0", "out"), "fixed", 1024, 16, lut=True,
        example="no example calls exp_bf16_1024 directly; its loop is AIE_LOOP_RANGE(64, 64) over v16: 1024 elements",
        numerics="getExpBf16: x as fixed point with 8 fraction bits (floor), e^int(x) from exp_ilut (bf16, e^88 for "
        "x >= 89) times e^frac from exp_flut (bf16), the f32 product rounded to bf16",
        tolerance=Tolerance(2.0**-6, 0.0, (-80.0, 80.0),
                            "x truncated to 1/256 (<= 0.39%), two bf16 table values and the final rounding"),
    ),
    LibraryKernel(
        "reduce_max", "bf16", "aie2", "aie2/reduce_max.cc", "reduce_max_vector_bfloat16",
        "void reduce_max_vector_bfloat16(bfloat16 *a_in, bfloat16 *c_out, int32_t input_size)",
        ("in0", "out", "n"), "row", 0, 32, 256, align=64,
        example="programming_examples/basic/vector_reduce_max/multi_column_designs/row_wise_vector_reduce_max.py: "
        "Kernel(\"reduce_max_vector_bfloat16\", \"reduce_max.cc.o\", [op_ty, out_ty, np.int32]), one object per call",
        numerics="max over v32bfloat16 from std::numeric_limits<bfloat16>::lowest(): exact for finite inputs "
        "(a row of only -inf gives -3.39e38, NaN is not propagated)",
        tolerance=Tolerance(0.0, 0.0, (-1e4, 1e4), "max is exact"),
    ),
    LibraryKernel(
        "softmax", "bf16", "aie2", "aie2/softmax.cc", "softmax_bf16",
        "void softmax_bf16(bfloat16 *restrict input, bfloat16 *restrict output, const int32_t input_size)",
        ("in0", "out", "n"), "row", 0, 16, lut=True, prologue=ROW_SHIFT,
        example="programming_examples/ml/softmax/softmax.py (npu1: kernels.a of softmax.cc.o + lut_based_ops.o): "
        "Kernel(\"softmax_bf16\", \"kernels.a\", [tile_ty, tile_ty, np.int32]), called as softmax_kernel(elem_in_a, "
        "elem_out, n); the kernel subtracts no row maximum, so each core first writes its row minus the row's "
        "maximum (bf16) into a local buffer, npubuild's generated prologue, and calls the kernel on that",
        numerics="prologue: bf16(x - max(row)); then getExpBf16 of it stored as bf16, summed into 16 f32 lanes and "
        "folded, (bfloat16)aie::inv(sum) (modelled as the exact reciprocal rounded to bf16), products rounded to bf16",
        tolerance=Tolerance(2.0**-5, 2.0**-12, (-8.0, 8.0),
                            "x - max rounded to bf16 before the lookup (steps of 2^-5 below 8: e^(2^-6) is 1.6%), "
                            "the fixed-point exp (<= 0.39%), bf16 exp, 1/sum and product; at most 1% measured on "
                            "normal rows, 4.4% on uniform rows where the value is under 2^-12"),
    ),
    LibraryKernel(
        "tanh", "bf16", "aie2", "aie2/tanh.cc", "tanh_bf16",
        "void tanh_bf16(bfloat16 *restrict input, bfloat16 *restrict output, int input_size)",
        ("in0", "out", "n"), "fixed", 1024, 32, align=64, lut=True, defines=("TANH_ELEMS=1024",),
        example=_FACTORY.format(op="tanh", macro="TANH_ELEMS"),
        numerics="getTanhBf16 on each 16-lane half of a v32bfloat16 (the LUT pieces as for gelu), concatenated: "
        "slope * x + offset in f32, rounded to bf16",
        tolerance=Tolerance(2.0**-5, 2.0**-7, (-1e4, 1e4),
                            "the linear pieces are off by up to 0.0049 on bf16 inputs (2% at x = 0.24, where the "
                            "piece is y = x), and one rounding: 0.0078 at most truncated; 3x margin on every bf16 input"),
    ),
    LibraryKernel(
        "sigmoid", "bf16", "aie2", "aie2/sigmoid.cc", "sigmoid_bf16",
        "void sigmoid_bf16(bfloat16 *restrict input, bfloat16 *restrict output, int input_size)",
        ("in0", "out", "n"), "fixed", 1024, 32, align=64, lut=True,
        example=_FACTORY.format(op="sigmoid", macro="SIGMOID_ELEMS") + "; aie2/sigmoid.cc has no SIGMOID_ELEMS: "
        "its loop runs to the int32 count",
        numerics="0.5 (1 + tanh(x * 0.5)) on v32bfloat16: x * 0.5 stored as bf16, getTanhBf16 on each half (LUT pieces), "
        "+ 1 and * 0.5 each rounded to bf16",
        tolerance=Tolerance(2.0**-6, 2.0**-7, (-1e4, 1e4),
                            "1 + tanh in bf16 has steps of 2^-8 below 1 and 2^-7 above: up to 2^-8 off (0 for "
                            "x <= -6.9, where sigmoid < 2^-9); the LUT's 0.0049 halves; 3x margin on every bf16 "
                            "input in either rounding mode"),
    ),
    # ---- aie2p (npu2) --------------------------------------------------------------------------------------------
    LibraryKernel(
        "gelu", "bf16", "aie2p", "aie2p/gelu.cc", "gelu_bf16",
        "void gelu_bf16(bfloat16 *restrict input, bfloat16 *restrict output)",
        ("in0", "out"), "fixed", 1024, 16, attrs=(("approximate", "tanh"),),
        example="programming_examples/ml/gelu/gelu.py (npu2: kernels.a of gelu.cc.o only), line_size = 1024",
        numerics="0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), every step rounded to bf16, tanh is aie::tanh<bfloat16>",
        tolerance=Tolerance(2.0**-5, 2.0**-6, (-6.0, 6.0), "bf16 constants (sqrt(2/pi) = 0.796875) and 7 bf16 roundings"),
    ),
    LibraryKernel(
        "silu", "bf16", "aie2p", "aie2p/silu.cc", "silu_bf16",
        "void silu_bf16(bfloat16 *restrict input, bfloat16 *restrict output)",
        ("in0", "out"), "fixed", 1024, 16,
        example="programming_examples/ml/silu/silu.py (npu2), line_size = 1024",
        numerics="x * 0.5 (1 + tanh(x / 2)), tanh is aie::tanh<bfloat16>, each step rounded to bf16",
        tolerance=Tolerance(2.0**-5, 2.0**-7, (-8.0, 8.0), "4 bf16 roundings"),
    ),
    LibraryKernel(
        "exp", "bf16", "aie2p", "aie2p/bf16_exp.cc", "exp_bf16_1024",
        "void exp_bf16_1024(bfloat16 *a_in, bfloat16 *c_out)",
        ("in0", "out"), "fixed", 1024, 16,
        example="no example calls exp_bf16_1024 directly; exp_bf16_func<1024> steps v16: 1024 elements",
        numerics="aie::exp2<bfloat16>(x * log2e) with log2e broadcast as bf16 (1.4453125, not 1.4426950): "
        "exp(1.001814 x), rounded to bf16",
        tolerance=Tolerance(2.0**-6, 0.0, (-4.0, 4.0),
                            "log2e in bf16 makes it exp(x)^1.001814: 0.73% at |x| = 4, growing with |x|"),
    ),
    LibraryKernel(
        "relu", "bf16", "aie2p", "aie2p/relu.cc", "bf16_relu",
        "void bf16_relu(bfloat16 *a_in, bfloat16 *c_out)",
        ("in0", "out"), "fixed", 1024, 32, align=64,
        example="the extern \"C\" wrapper calls relu_vectorized_bf16(a_in, c_out, 1024); same symbol and chunk as "
        "aie2/relu.cc, which programming_examples/ml/relu/relu.py calls with line_size = 1024",
        numerics="aie::max(input, zeros) on vector<bfloat16, 32>: exact",
        tolerance=Tolerance(0.0, 0.0, (-1e4, 1e4), "max is exact"),
    ),
    LibraryKernel(
        "add", "bf16", "aie2p", "aie2p/add.cc", "eltwise_add_bf16_vector",
        "void eltwise_add_bf16_vector(bfloat16 *a_in, bfloat16 *b_in, bfloat16 *c_out)",
        ("in0", "in1", "out"), "fixed", 1024, 32, align=64,
        example="eltwise_vadd<bfloat16, bfloat16, 1024> with vec_factor = 32; same symbol and chunk as aie2/add.cc "
        "(programming_examples/ml/eltwise_add: per_tile_elements = 1024)",
        numerics=f"aie::add of bf16 x32 vectors into aie::vector<bfloat16, 32>: the f32 sum, {_BF16_ROUND}",
        tolerance=_ONE_ULP,
    ),
    LibraryKernel(
        "mul", "bf16", "aie2p", "aie2p/mul.cc", "eltwise_mul_bf16_vector",
        "void eltwise_mul_bf16_vector(bfloat16 *a_in, bfloat16 *b_in, bfloat16 *c_out)",
        ("in0", "in1", "out"), "fixed", 1024, 32, align=64,
        example="eltwise_vmul<bfloat16, bfloat16, 1024> with vec_factor = 32; same symbol and chunk as aie2/mul.cc "
        "(programming_examples/ml/eltwise_mul: per_tile_elements = 1024)",
        numerics=f"aie::mul(A0, B0).to_vector<bfloat16>() of bf16 x32 vectors: the exact f32 product, {_BF16_ROUND}",
        tolerance=_ONE_ULP,
    ),
    LibraryKernel(
        "softmax", "bf16", "aie2p", "aie2p/softmax.cc", "softmax_bf16",
        "void softmax_bf16(bfloat16 *restrict input, bfloat16 *restrict output, const int32_t input_size)",
        ("in0", "out", "n"), "row", 0, 32, align=64,
        example="programming_examples/ml/softmax/softmax.py: Kernel(\"softmax_bf16\", \"kernels.a\", "
        "[tile_ty, tile_ty, np.int32]), n = 1024, called as softmax_kernel(elem_in_a, elem_out, n)",
        numerics="max of bf16(x * 1.4453125) (from -32768), exp2 of the f32 difference rounded to bf16, summed in f32, "
        "aie::inv of the sum rounded to bf16, products rounded to bf16",
        tolerance=Tolerance(2.0**-5, 2.0**-9, (-8.0, 8.0),
                            "log2e in bf16 sharpens the distribution by 0.18% of the spread; bf16 1/sum and roundings"),
    ),
    LibraryKernel(
        "tanh", "bf16", "aie2p", "aie2p/tanh.cc", "tanh_bf16",
        "void tanh_bf16(bfloat16 *restrict input, bfloat16 *restrict output, int input_size)",
        ("in0", "out", "n"), "fixed", 1024, 32, align=64,
        example=_FACTORY.format(op="tanh", macro="TANH_ELEMS") + "; aie2p/tanh.cc has no TANH_ELEMS: its loop runs "
        "to the int32 count (num_elems = vector_size)",
        numerics="aie::tanh<bfloat16> of each 16-lane half widened to f32 (acc.from_vector, to_vector<float>: exact), "
        "the hardware tanh rounded to bf16",
        tolerance=Tolerance(2.0**-6, 0.0, (-1e4, 1e4),
                            "one bf16 rounding of tanh (2^-8 relative to nearest, 2^-7 truncated); as much again "
                            "for the hardware tanh, modelled as exact"),
    ),
    LibraryKernel(
        "sigmoid", "bf16", "aie2p", "aie2p/sigmoid.cc", "sigmoid_bf16",
        "void sigmoid_bf16(bfloat16 *restrict input, bfloat16 *restrict output, int input_size)",
        ("in0", "out", "n"), "fixed", 1024, 32, align=64, defines=("SIGMOID_ELEMS=1024",),
        example=_FACTORY.format(op="sigmoid", macro="SIGMOID_ELEMS"),
        numerics="0.5 (1 + tanh(x * 0.5)): x * 0.5 kept in the accumulator (exact), aie::tanh<bfloat16> of its f32, "
        "+ 1 and * 0.5 each rounded to bf16",
        tolerance=Tolerance(2.0**-7, 2.0**-7, (-1e4, 1e4),
                            "1 + tanh in bf16 has steps of 2^-8 below 1 and 2^-7 above: up to 2^-8 off (0 for "
                            "x <= -6.94, where sigmoid < 2^-9) in either rounding mode; 3x margin on every bf16 input"),
    ),
)

LEFT_OUT: dict[str, str] = {
    "aie2/bf16_softmax.cc": "scalar loops (no faster than the generated body); its 1 + ln2 f + 0.24 f^2 exp is off by 9% "
    "and its 2^int bit trick wraps to -inf for inputs more than ~88 below the row maximum",
    "aie2/swiglu.cc": "swiglu (x w1) silu(x w2) is not an npubuild op",
    "aie2p/swiglu.cc": "swiglu (x w1) silu(x w2) is not an npubuild op",
    "aie2/scale.cc": "vector_scalar_mul (int32/int16 times a scalar) is not an npubuild op (xdna mul takes no broadcast)",
    "aie2/reduce_add.cc": "int32 only, and npubuild's xdna reductions are f32/bf16",
    "aie2/reduce_min.cc": "int32 only, and npubuild's xdna reductions are f32/bf16",
    "aie2p/layer_norm.cc": "gamma = 1, beta = 0 and eps = 1e-5 are compiled in, while npubuild's layer_norm takes "
    "gamma and beta as inputs and eps as an attr; it also sums the row in bf16",
    "aie2p/rms_norm.cc": "gamma = 1 and eps = 1e-5 are compiled in, while npubuild's rms_norm takes gamma as an input",
    "aie2p/rope.cc": "rotates interleaved pairs with one interleaved cos/sin table; npubuild's rope takes cos and sin "
    "as separate inputs (and defaults to the neox halves)",
}


def left_out(op: str, device_name: str) -> str:
    """Why mlir-aie's kernel named after ``op`` on ``device_name``'s arch is not in the catalog ("" if none is left out)."""
    src = f"{_arch(device_name)}/{op}.cc"
    return f"aie_kernels/{src} is left out: {LEFT_OUT[src]}" if src in LEFT_OUT else ""


def entries(op: str | None = None, arch: str | None = None) -> list[LibraryKernel]:
    return [e for e in CATALOG if (op is None or e.op == op) and (arch is None or e.arch == arch)]


# ---- choosing -------------------------------------------------------------------------------------------------------


def _arch(device_name: str) -> str:
    # an unknown name is UnsupportedOnTarget naming the known devices
    return device({"device": device_name}).arch


def _last_axis(inst) -> bool:
    rank = len(inst.inputs[0].shape)
    a = inst.attrs
    if inst.op == "softmax":
        return a["axis"] in (-1, rank - 1)
    return list(a["axes"]) in ([-1], [rank - 1])


def _entry(inst, arch: str) -> tuple[LibraryKernel | None, str | None]:
    """The catalog entry for ``inst``'s op, dtype and attrs on ``arch`` (any shapes), or the reason there is none."""
    cands = entries(inst.op, arch)
    if not cands:
        other = sorted({e.arch for e in entries(inst.op)})
        return None, f"no mlir-aie kernel for {inst.op} on {arch}" + (f" (only {', '.join(other)})" if other else "")
    e = next((c for c in cands if c.dtype == inst.dtype), None)
    if e is None:
        return None, f"mlir-aie's {cands[0].symbol} takes {cands[0].dtype}, not {inst.dtype}"
    attrs = inst.attrs
    for k, v in e.attrs:
        if attrs.get(k) != v:
            return None, f"mlir-aie's {e.symbol} computes {k}={v}, the instance has {k}={attrs.get(k)}"
    if any(t.shape != inst.inputs[0].shape for t in inst.inputs):
        return None, f"mlir-aie's {e.symbol} takes operands of one shape"
    if e.kind == "row":
        if not _last_axis(inst):
            return None, f"mlir-aie's {e.symbol} works along the last axis only"
        row = inst.inputs[0].shape[-1] if inst.inputs[0].shape else 1
        if row % e.multiple or row < e.min_elems:
            least = f", at least {e.min_elems}" if e.min_elems else ""
            return None, f"mlir-aie's {e.symbol} takes rows of a multiple of {e.multiple} elements{least}, not {row}"
    return e, None


@dataclass(frozen=True)
class ChunkRule:
    """What the design planner must give each core call when a kernel family uses the library kernel:
    ``elements`` per chunk (fixed kernels: pad the flattened tensors to a multiple) or ``rows`` per
    chunk (row kernels: one row, whatever its length), with every FIFO buffer on the core aligned to
    ``align`` bytes (the kernel's vector loads; aie-assign-buffer-addresses places buffers back to back
    after the stack without aligning them: lib/Dialect/AIE/Transforms/AIEAssignBuffers.cpp)."""

    kernel: LibraryKernel
    elements: int = 0
    rows: int = 0

    @property
    def align(self) -> int:
        return self.kernel.align


def chunk_rule(inst, device_name: str) -> ChunkRule | None:
    """For a whole kernel instance (before chunking): the chunk the library kernel needs, or None
    when no library kernel computes the op, dtype, attrs and row length (:func:`chunk_problem` says why)."""
    e, _ = _entry(inst, _arch(device_name))
    if e is None:
        return None
    return ChunkRule(e, elements=e.fixed_elems) if e.kind == "fixed" else ChunkRule(e, rows=1)


def chunk_problem(inst, device_name: str) -> str | None:
    return _entry(inst, _arch(device_name))[1]


def why_not(inst, device_name: str) -> str | None:
    """None when a library kernel computes the chunk instance ``inst`` (one call) on ``device_name``, else the reason."""
    e, why = _entry(inst, _arch(device_name))
    if e is None:
        return why
    n = numel(inst.inputs[0].shape)
    if e.kind == "fixed":
        if n != e.fixed_elems or numel(inst.output.shape) != n:
            return f"mlir-aie's {e.symbol} takes chunks of exactly {e.fixed_elems} elements, this chunk has {n}"
        return None
    row = inst.inputs[0].shape[-1] if inst.inputs[0].shape else 1
    if n != row:
        return f"mlir-aie's {e.symbol} takes one row per call, this chunk has {n // row} rows"
    if not inst.output.shape:
        return f"mlir-aie's {e.symbol} writes a memref of one element; give the chunk a row axis (shape [1, {row}])"
    return None


def library_kernel(inst, device_name: str) -> LibraryKernel | None:
    """The entry that computes the chunk instance ``inst`` in one call, or None (:func:`why_not`)."""
    if why_not(inst, device_name) is not None:
        return None
    return _entry(inst, _arch(device_name))[0]


# ---- what a core emits ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class KernelCall:
    """How a core calls a library kernel on one chunk, instead of ``func.call @body``.

    ``types`` are the chunk's memref types (inputs, then the output) plus ``i32``
    for a row length; ``call_lines`` and ``declaration`` follow mlir-aie
    ``test/npu-xrt/add_one_func_link_with_peano/aie.mlir`` (func-level
    ``link_with``, an ``i32`` count from ``arith.constant``) and the core-level
    spelling :mod:`.gemm` emits for older mlir-aie (``link_with`` beside
    ``stack_size`` on ``aie.core``; deprecated since #2922).
    """

    kernel: LibraryKernel
    types: tuple[str, ...]  # in the kernel's argument order
    roles: tuple[str, ...]
    count: int  # the int32 element count ("n"): the row length, or a fixed kernel's chunk; 0 when the kernel takes none

    @property
    def symbol(self) -> str:
        return self.kernel.symbol

    @property
    def object_name(self) -> str:
        return self.kernel.object_name

    @property
    def align(self) -> int:
        """Bytes every argument buffer must be aligned to (see :class:`ChunkRule`)."""
        return self.kernel.align

    def declaration(self, link_with: str = "func") -> str:
        """The ``func.func private`` line (inside ``aie.device``, unindented)."""
        if link_with not in ("func", "core"):
            raise ValueError(f"unknown link_with placement {link_with!r} (expected func or core)")
        attrs = f' attributes {{link_with = "{self.object_name}"}}' if link_with == "func" else ""
        return f"func.func private @{self.symbol}({', '.join(self.types)}){attrs}"

    def core_attr(self, link_with: str = "func") -> str:
        """The attribute the ``aie.core`` op gets besides ``stack_size`` ("" with func-level link_with)."""
        return f'link_with = "{self.object_name}"' if link_with == "core" else ""

    def constant_lines(self, prefix: str = "%kn") -> list[str]:
        """Lines defining the i32 row length once per core (before the loops); none without one."""
        return [f"{prefix} = arith.constant {self.count} : i32"] if self.count else []

    def call_lines(self, inputs: list[str], output: str, count: str = "%kn") -> list[str]:
        """The call on the chunk: ``inputs`` are the SSA names of the input memrefs in the op's order,
        ``output`` the output memref's; ``count`` names the i32 from :meth:`constant_lines`."""
        n_in = sum(1 for r in self.roles if r.startswith("in"))
        if len(inputs) != n_in:
            raise ValueError(f"{self.symbol} takes {n_in} input(s), got {len(inputs)}")
        names = {f"in{k}": v for k, v in enumerate(inputs)} | {"out": output, "n": count}
        args = ", ".join(names[r] for r in self.roles)
        return [f"func.call @{self.symbol}({args}) : ({', '.join(self.types)}) -> ()"]

    def describe(self) -> dict:
        """JSON-safe record for the manifest / abi (body source, kernel, object)."""
        return {"body_source": "mlir-aie", **self.kernel.describe(), "row_length": self.count or None}


def kernel_call(inst, device_name: str) -> KernelCall | None:
    """What a core on ``device_name`` emits to run the chunk instance ``inst`` (Design.body) with
    mlir-aie's kernel, or None when no library kernel computes it (:func:`why_not` says why). Pure."""
    e = library_kernel(inst, device_name)
    if e is None:
        return None
    ins = [memref_type(t.shape, t.dtype) for t in inst.inputs]
    out = memref_type(inst.output.shape, inst.output.dtype)
    by_role = {f"in{k}": ty for k, ty in enumerate(ins)} | {"out": out, "n": "i32"}
    # the int32 count: a row kernel's row length; a fixed kernel's chunk, fixed_elems (why_not checked it)
    count = (e.fixed_elems if e.kind == "fixed" else inst.inputs[0].shape[-1]) if "n" in e.args else 0
    return KernelCall(e, tuple(by_role[r] for r in e.args), e.args, count)


def catalog_json() -> str:
    return json.dumps({"commit": MLIR_AIE_COMMIT, "kernels": [e.describe() for e in CATALOG], "left_out": LEFT_OUT},
                      indent=1, sort_keys=True)


def model(entry: LibraryKernel, inputs: list):
    """The kernel's arithmetic in NumPy (bf16 in, bf16 out): see :mod:`.kernel_numerics`."""
    from ...core.constants import numpy_dtype
    from .kernel_numerics import MODELS

    return MODELS[(entry.op, entry.arch)](*inputs).astype(numpy_dtype(entry.dtype))
