"""What the xdna designs cannot run, as data: per op name, the restrictions of the reference NPU
design (last-axis rows, one streamed axis, 32-bit cells, f32/bf16 compute ...), and the two element
type rules that hold for every op (no i64 tensor: the shim DMA; no f16 tensor: Peano).

The op catalog (:mod:`npubuild.ops`) says what an op is and nothing about a target; these are facts
of this target. A restriction is a :class:`npubuild.ops.registry.Restriction` (``text`` says what
the NPU needs, ``check(shapes, attrs, dtype)`` is True when it can run the combination). The build
asks through the registry (``npubuild.targets.get("xdna")``): ``restrictions(op)`` for the texts
``npubuild ops`` prints and the checks the spec loader runs (npubuild.engine.plan injects them, so that
a failed one is an error at the spec line), and ``supports(op, shapes, dtype, attrs)``.
"""
from __future__ import annotations

from ...emitters.aie.devices import NO_XDNA_DESIGN, XDNA_F16_TEXT, XDNA_I64_TEXT, XDNA_SUB_BYTE_TEXT, XDNA_U8_TEXT
from ...ops.registry import (
    REGISTRY,
    OpDef,
    Restriction,
    broadcast_shapes,
    last_axis,
    normalize_attrs,
    only_dtypes,
    tensor_dtypes,
)

# ---- the checks -----------------------------------------------------------------------------


def _same_shape(shapes, attrs, dtype) -> bool:
    return all(s == shapes[0] for s in shapes)


def _single_last_axis(shapes, attrs, dtype) -> bool:
    rank = len(shapes[0])
    axes = attrs["axes"]
    return rank > 0 and len(axes) == 1 and axes[0] % rank == rank - 1


def _transpose_2d(shapes, attrs, dtype) -> bool:
    # perm [] reverses the axes (ONNX default): [1, 0] for a 2-D input
    return len(shapes[0]) == 2 and list(attrs["perm"]) in ([], [1, 0])


def _expand_one_axis(shapes, attrs, dtype) -> bool:
    x, shape = tuple(shapes[0]), tuple(attrs["shape"])
    out = broadcast_shapes(x, shape)
    return len(shape) == len(x) and sum(1 for d, o in zip(x, out) if d == 1 and o > 1) == 1


def _one_padded_axis(shapes, attrs, dtype) -> bool:
    return sum(1 for p in attrs["pads"] if list(p) != [0, 0]) == 1


def _batch_one(shapes, attrs, dtype) -> bool:
    return len(shapes[0]) == 2 or shapes[0][0] == 1


def _pool_divides_by_window(shapes, attrs, dtype) -> bool:
    return attrs["mode"] != "avg" or attrs["count_include_pad"] or list(attrs["pads"]) == [0, 0]


# gelu's erf form runs as one body only: the bf16 lanes polynomial (emitters/host/gelu_lanes.py); its host body
# (bit casts, fptosi) would be a scalar soft-float loop on a core, thousands of times slower than the DMA
GELU_ERF_TEXT = ("approximate: none (the erf form) needs bf16 with a last axis that is a multiple of 16: the NPU "
                 "computes it as a bf16 vector polynomial (within 2^-12 + 2^-8 |gelu|); for f32 or other shapes "
                 "set approximate: tanh, or build the kernel for host")


def _gelu_form_runs(shapes, attrs, dtype) -> bool:
    x = shapes[0]
    return attrs["approximate"] == "tanh" or (dtype == "bf16" and len(x) > 0 and x[-1] % 16 == 0)


# ---- the restrictions shared by several ops ---------------------------------------------------

# the float dtypes the NPU bodies take: f32, and bf16 (widened to f32 inside the body)
XDNA_FLOATS = ("f32", "bf16")
FLOAT_ONLY = only_dtypes(XDNA_FLOATS, "the NPU kernels compute in f32; bf16 is widened to f32 and rounded back once")
# the NPU kernels of the reference design stream equal-length buffers: no broadcasting
NO_BROADCAST = Restriction("all inputs must have the same shape (no broadcasting)", _same_shape)
# the reference design's NPU engines move 32-bit cells and split a tensor around one axis
# (outer x axis x inner): every movement op
CELL32 = only_dtypes(("f32", "i32"), "the NPU data-movement engines move 32-bit cells")
# transpose runs on the DMAs alone (emitters/aie/dma_transpose.py): a mem tile's transposing pattern has an
# inner-most stride other than 1, which mlir-aie refuses on sub-32-bit elements (DMABDOp::verify,
# test/dialect/AIE/nd-dma-bad-stride.mlir)
TRANSPOSE32 = only_dtypes(("f32", "i32", "bf16"), "the DMAs transpose 32-bit words (f32, i32); bf16 adds a core "
                          "shuffle of 4x8 blocks, on npu1 only (rows a multiple of 4, columns of 8)")

BINARY = ("add", "sub", "mul", "div", "max", "min", "mod", "pow")
COMPARE = ("eq", "ne", "lt", "le", "gt", "ge")
REDUCE = ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod")
SCAN = ("cumsum", "cumprod", "cummax")
ARG = ("argmax", "argmin")
MOVEMENT = ("reshape", "transpose", "narrow", "slice", "reverse", "tile", "expand", "trilu", "concat", "gather",
            "pad", "stop_gradient")



def no_design(why: str) -> Restriction:
    """An op with no NPU design yet: every instance is refused at spec time, with ``why``."""
    return Restriction(f"no NPU design for this op yet ({why}); build it for host or ref (targets: [ref, host])",
                       lambda shapes, attrs, dtype: False, refuses_every_instance=True)


# ops refused on xdna whatever their shapes: the generic whole-tensor design around the host body is not
# checked against the simulator for them, so the build says so rather than emit an unproven design
NO_DESIGN = {
    "gather_elements": no_design("data-dependent addressing across the whole tensor: one core would hold data "
                                 "and indices whole, and no chunked design is written"),
    "scatter_elements": no_design("data-dependent addressing across the whole tensor: one core would hold data, "
                                  "indices and updates whole, and no chunked design is written"),
    "einsum": no_design("a contraction over any labels; the NPU's GEMM design is matmul's (mm.cc): write a "
                        "2-D matrix product as matmul"),
    "conv_transpose": no_design("every output row gathers from several input rows and the whole kernel; no "
                                "tiled design is written (im2col + matmul is the NPU's convolution path)"),
    "topk": no_design("k selection passes over each whole row, data-dependent; no chunked design is written"),
    "resize": no_design("its kernel reads emit-time index tables, module constants a core body does not carry"),
    # the emitter has none either (emitters.aie.devices.NO_XDNA_DESIGN says what is missing)
    **{op: no_design(why) for op, why in NO_XDNA_DESIGN.items()},
}

# ---- per op -------------------------------------------------------------------------------------

# op name -> its restrictions on xdna, in the order `npubuild ops` prints them and the spec loader
# reports them (the element type rules below come after these)
BY_OP: dict[str, tuple[Restriction, ...]] = {
    # elementwise
    "gelu": (Restriction(GELU_ERF_TEXT, _gelu_form_runs),),
    **dict.fromkeys(BINARY, (NO_BROADCAST, Restriction("f32 or bf16 only", lambda s, a, dt: dt in XDNA_FLOATS))),
    **dict.fromkeys(COMPARE, (NO_BROADCAST,)),
    "where": (NO_BROADCAST,),
    "fma": (NO_BROADCAST,),
    "cast": (Restriction(
        "only f32 <-> i32 and f32 <-> bf16",
        lambda s, a, dt: (dt, a["to"]) in (("f32", "i32"), ("i32", "f32"), ("f32", "bf16"), ("bf16", "f32")),
    ),),
    # movement: the op's own, then the 32-bit cells
    **dict.fromkeys(MOVEMENT, (CELL32,)),
    "transpose": (Restriction("transpose only 2-D with perm [1, 0]", _transpose_2d), TRANSPOSE32),
    "reverse": (Restriction("reverse a single axis", lambda s, a, dt: len(a["axes"]) == 1), CELL32),
    "tile": (Restriction("tile exactly one repeated axis (one reps entry != 1)",
                         lambda s, a, dt: sum(r != 1 for r in a["reps"]) == 1), CELL32),
    "expand": (Restriction("expand a single broadcast axis (same rank, exactly one size-1 axis grows)", _expand_one_axis),
               CELL32),
    "trilu": (Restriction("trilu only on 2-D inputs (no batch)", lambda s, a, dt: len(s[0]) == 2), CELL32),
    "concat": (Restriction("concat exactly 2 inputs", lambda s, a, dt: len(s) == 2), CELL32),
    "pad": (Restriction("pad a single axis (one non-zero [before, after] pair)", _one_padded_axis),
            Restriction("pad only in constant mode", lambda s, a, dt: a["mode"] == "constant"), CELL32),
    # normalize: rows of the last axis (group_norm: N * num_groups rows of one group each)
    "softmax": (Restriction("softmax only over the last axis", last_axis("axis")), FLOAT_ONLY),
    "rms_norm": (FLOAT_ONLY,),
    "layer_norm": (FLOAT_ONLY,),
    "group_norm": (Restriction("group_norm needs rank >= 3 input (N, C, spatial...)", lambda s, a, dt: len(s[0]) >= 3),
                   FLOAT_ONLY),
    # reduce, scan, arg: rows of the last axis only
    **dict.fromkeys(REDUCE, (Restriction("a single reduced axis, the last (axes: [-1])", _single_last_axis), FLOAT_ONLY)),
    **dict.fromkeys(SCAN, (Restriction("scan only over the last axis", last_axis("axis")),
                           Restriction("no reverse scan (reverse: false)", lambda s, a, dt: not a["reverse"]),
                           FLOAT_ONLY)),
    **dict.fromkeys(ARG, (Restriction("arg-max/min only over the last axis", last_axis("axis")), FLOAT_ONLY)),
    # nn
    "rope": (FLOAT_ONLY,),
    "attention": (Restriction("attention with batch 1 only (q rank 2, or rank 3 with B = 1)", _batch_one),
                  Restriction("k and v with as many tokens as q (S == Skv)", lambda s, a, dt: s[1][-2] == s[0][-2]),
                  Restriction("q, k and v only: no mask input, past_key or past_value (the xdna design streams q "
                              "and sends k and v whole; it has no buffers for a mask or a cache): mask with "
                              "mask: causal, or run the step on host", lambda s, a, dt: len(s) == 3),
                  Restriction("kv_num_heads 0 or num_heads (grouped-query heads are not in the checked xdna design)",
                              lambda s, a, dt: a["kv_num_heads"] in (0, a["num_heads"])),
                  Restriction("softcap 0 (the checked xdna design has no tanh on the scores)",
                              lambda s, a, dt: a["softcap"] == 0),
                  FLOAT_ONLY),
    "pool": (Restriction("avg pooling with padding needs count_include_pad: true (the NPU divides by kh*kw)",
                         _pool_divides_by_window),
             FLOAT_ONLY),
    "im2col": (FLOAT_ONLY,),
    **{op: (r,) for op, r in NO_DESIGN.items()},
    "matmul": (only_dtypes(("i8", "bf16"), "the NPU GEMM computes in int8 with int32 accumulation, or in "
                           "bf16 with f32 accumulation; f32 would be soft-float"),),
}

# ---- every op: the element types the NPU path cannot carry ----------------------------------

# Element types the NPU path cannot carry, whatever the op (xdna-review.md items 1, 3):
# * i64: ``aiex.npu.dma_memcpy_nd`` refuses elements wider than the shim's 32-bit
#   address granularity (mlir-aie AIEXDialect.cpp, NpuDmaMemcpyNdOp::verify:
#   "Maximum element bit width allowed is ...").
# * f16: Peano legalizes every 16-bit float as bfloat16 (llvm-aie
#   AIELegalizerHelper.cpp legalizeG_FPEXT: "We only handle bfloat16 to single
#   precision conversion"), so an f16 body would compute wrong values silently.
#   bf16 is the NPU's float: the same legalizer extends and truncates it to and
#   from f32, which is what every bf16 body does around its f32 arithmetic.
# The texts are in npubuild.ops.registry, where the xdna emitter's own last check
# (emitters/aie _check_element_types) reads them too.
# * u8: no design is checked with it (XDNA_U8_TEXT); i4, u4: nor with 4-bit codes.
BANNED_DTYPES = (("i64", XDNA_I64_TEXT), ("f16", XDNA_F16_TEXT), ("u8", XDNA_U8_TEXT),
                 ("i4", XDNA_SUB_BYTE_TEXT), ("u4", XDNA_SUB_BYTE_TEXT))

# A tensor without elements (a dimension of 0) gives the shim DMA no transfer to describe and a core
# nothing to stream. An instance whose output is empty is built for no target (nothing to compute; the
# runtime gives the empty output), so only an empty input with a non-empty output is refused.
EMPTY_INPUT_TEXT = ("no input without elements (a dimension of 0) when the output has some: the NPU streams "
                    "none; build such a kernel for host or ref")


def _no_empty_input(op: OpDef) -> Restriction:
    def check(shapes, attrs, dtype) -> bool:
        if all(0 not in s for s in shapes):
            return True
        return 0 in op.infer([tuple(s) for s in shapes], attrs)

    return Restriction(EMPTY_INPUT_TEXT, check)


def _dtype_restriction(op: OpDef, banned: str, text: str) -> Restriction:
    return Restriction(text, lambda shapes, attrs, dtype: banned not in tensor_dtypes(op, len(shapes), attrs, dtype))


def _may_use(op: OpDef, banned: str) -> bool:
    """Whether some instance of ``op`` can have a ``banned`` tensor (probed over its dtypes and str attr choices)."""
    variants: list[dict] = [{}]
    for a in op.attrs:
        if a.kind == "str" and a.choices:
            variants = [{**v, a.name: c} for v in variants for c in a.choices]
    defaults = {a.name: a.default for a in op.attrs if not a.required}
    n = max(len(op.inputs), 1)
    for dt in op.dtypes:
        for v in variants:
            try:
                if banned in tensor_dtypes(op, n, {**defaults, **v}, dt):
                    return True
            except (KeyError, TypeError, ValueError):
                return True  # a signature that needs a required attr: keep the check
    return False


# op name -> (the OpDef they were made for, its restrictions): an op registered again is probed again
_MADE: dict[str, tuple[OpDef, tuple[Restriction, ...]]] = {}


def restrictions(op: str) -> tuple[Restriction, ...]:
    """The restrictions of op ``op`` on xdna: its own (:data:`BY_OP`), then no i64 and no f16 tensor
    where some instance of it could have one; () for an op the catalog does not have."""
    opdef = REGISTRY.get(op)
    if opdef is None:
        return ()
    made = _MADE.get(op)
    if made is None or made[0] is not opdef:
        rules = BY_OP.get(op, ()) + tuple(_dtype_restriction(opdef, b, t) for b, t in BANNED_DTYPES if _may_use(opdef, b))
        rules += (_no_empty_input(opdef),)
        made = _MADE[op] = (opdef, rules)
    return made[1]


def problems(op: str, shapes, attrs: dict, dtype: str) -> list[str]:
    """The texts of the restrictions the combination fails, in order (empty: xdna can run it)."""
    return [r.text for r in restrictions(op) if not r.check(shapes, attrs, dtype)]


def supports(op: str, shapes=None, dtype: str | None = None, attrs: dict | None = None) -> str | None:
    """None when xdna builds ``op`` (given ``shapes`` and ``dtype``: that combination); otherwise the reason.

    Without an emitter the answer is "not yet emitted" whatever the shapes: that is a note (the kernel
    is built on ref only), where a failed restriction is a user error the spec loader reports at the
    spec line (it runs :func:`restrictions` itself, npubuild.engine.plan.restriction_checks, to keep the
    two apart). Given shapes and dtype, the failed restrictions' texts follow, joined by "; ";
    ``attrs`` are the normalized attrs (None: the op's defaults)."""
    from ...emitters.aie import has_emitter

    if op in NO_XDNA_DESIGN:  # no design, and the spec loader refuses it with this text (its BY_OP restriction)
        return NO_XDNA_DESIGN[op]
    if not has_emitter(op):
        return "not yet emitted"
    if shapes is None or dtype is None or op not in REGISTRY:
        return None
    if attrs is None:
        attrs = normalize_attrs(REGISTRY[op], {})
    return "; ".join(problems(op, [tuple(s) for s in shapes], attrs, dtype)) or None
