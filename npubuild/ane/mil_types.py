"""MIL type and shape inference: every op of a parsed program gets the result
types MIL gives it, and a declared result type that disagrees is an error.

:func:`infer_program` walks each function of a :class:`~.mil_model.MilProgram`
(``parse_mil`` / ``load_mil`` run it on every program they read, so consumers
only ever see consistent programs). Per op it checks the operands the way
coremltools 9.0 checks an op's ``input_spec`` (``coremltools/converters/mil/mil/
input_type.py``: no unknown inputs, required ones present, ``const`` ones
constant, each dtype in its type domain, inputs sharing a domain of one dtype),
then applies the op's rule (:mod:`.mil_shapes`) and compares the result with
what the text declares: ``file:line: matmul 'u': declared tensor<fp16, [1, 128,
1, 1]> but MIL infers tensor<fp16, [1, 1, 1, 128]> (x tensor<...>, y ...)``. A
``?`` dimension matches anything; the more specific of the two types is what
later ops see.

The op table below lists, per op, its inputs and type domains as coremltools
defines them for the function's opset (``ios15``..``ios18`` / ``CoreML5``..
``CoreML9``; a function without one is read as ios18): iOS17 gave many ops a
second domain ``U`` for their parameters (``defs/iOS17/*.py``) where iOS15 had
one ``T`` for all, and an op coremltools redefines in a later opset (gather's
``batch_dims`` from iOS16, topk's ``output_indices_dtype`` from iOS17, ...) has
one Spec per definition (``Spec.later``). The source file of each group is named
beside it. The rules are in :mod:`.mil_shapes` and, per op family, in
:mod:`.mil_shapes_gather`, :mod:`.mil_shapes_pool`, :mod:`.mil_shapes_tensor`,
:mod:`.mil_shapes_transform`, :mod:`.mil_shapes_image` and :mod:`.mil_shapes_rnn`.

``rms_norm`` is no MIL op (coremltools has none; its torch frontend decomposes
it): npubuild reads it as an **extension op** (:func:`.mil_shapes.rms_norm`),
records its lines in :attr:`MilProgram.extensions`, and refuses it where a
program must be pure MIL (``pure=True``). Any other op name is an error.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace

from . import mil_shapes as R
from . import mil_shapes_gather as G
from . import mil_shapes_image as IM
from . import mil_shapes_pool as P
from . import mil_shapes_rnn as RNN
from . import mil_shapes_tensor as TO
from . import mil_shapes_transform as TR
from .mil_model import MilError, MilFunction, MilProgram, MilType, OPSETS, Ref, opset_version
from ..ops.lazy_numpy import np
from .mil_shapes import Bad, Operands, T, broadcast, known, like_x, need_rank, norm_axis

FLOAT = ("fp16", "fp32")
NUM = ("fp16", "fp32", "int32")
ANY15 = ("fp16", "fp32", "int32", "bool")
ANY17 = ("fp16", "fp32", "int8", "uint8", "int16", "uint16", "int32", "bool")
#: extension ops: read and planned by npubuild, refused by Core ML (docs/ane.md)
EXTENSIONS = ("rms_norm",)
DEFAULT_VERSION = 18  # a function without an opset: the newest one npubuild knows


@dataclass(frozen=True)
class Spec:
    """An op's inputs (name -> ``[=]DOMAIN[?]``: ``=`` constant, ``?`` optional) and rule.

    DOMAIN is a type-domain letter of ``domains`` (``T``, ``U``, ``M``: inputs with
    the same letter share a dtype), or ``i32``, ``int`` (int32; int8/16/32 from
    iOS17), ``bool``, ``str``, ``S`` (a state), ``*`` (a tuple of tensors, checked
    by the rule). With ``split17``, ``U`` is its own domain from iOS17 on and part
    of ``T`` before, as coremltools' iOS17 definitions split them."""

    inputs: dict
    rule: object
    domains: dict = field(default_factory=lambda: {"T": FLOAT})
    domains17: dict | None = None
    split17: bool = False
    since: int = 15
    later: tuple = ()  # the op's redefinitions in later opsets (each Spec's ``since`` says from which)

    def at(self, version: int) -> "Spec":
        """The definition in force at iOS ``version``: the newest of ``later`` from that version or before."""
        spec = self
        for s in self.later:
            if version >= s.since:
                spec = s
        return spec


def _spec(inputs: str, rule, domains=None, **kw) -> Spec:
    """``_spec("x:T alpha:=U", rule, ...)``: inputs as ``name:flags`` words."""
    ins = dict(w.split(":") for w in inputs.split())
    return Spec(ins, rule, domains or {"T": FLOAT, "U": FLOAT}, **kw)


def _versions(first: Spec, *later: Spec) -> Spec:
    """An op coremltools redefines in later opsets (defs/iOS16, iOS17, iOS18): each later Spec's
    ``since`` is the opset its definition starts at."""
    return replace(first, later=later)


# ---- rules of the elementwise ops and activations (the others are in mil_shapes) ----------------------------


def binary(a: Operands, dtype: str | None = None) -> list[T]:
    """x op y with broadcasting; the dtype is x's (the spec made x's and y's equal), or bool
    for comparisons (defs/iOS15/elementwise_binary.py)."""
    x, y = a.type("x"), a.type("y")
    return [T(dtype or x.dtype, broadcast(x.shape, y.shape))]


def compare(a: Operands) -> list[T]:
    return binary(a, "bool")


def select(a: Operands) -> list[T]:
    """defs/iOS15/control_flow.py select: a and b broadcast; the dtype is theirs. coremltools'
    inference leaves cond out of the result shape (cond [3, 1] with a, b [4] gives [4]), so does this."""
    x, y = a.type("a"), a.type("b")
    return [T(x.dtype, broadcast(x.shape, y.shape))]


def softmax(a: Operands) -> list[T]:
    """defs/iOS15/activation.py: axis defaults to -1 (the last axis)."""
    x = a.type("x")
    if x.shape is not None:
        norm_axis(a.int("axis", -1), len(x.shape))
    return like_x(a)


GELU_MODES = ("EXACT", "TANH_APPROXIMATION", "SIGMOID_APPROXIMATION")


def gelu(a: Operands) -> list[T]:
    """defs/iOS15/activation.py: mode defaults to EXACT (the erf form)."""
    mode = a.text("mode", "EXACT")
    if mode not in GELU_MODES:
        raise Bad(f"mode {mode!r} is not one of {', '.join(GELU_MODES)}")
    return like_x(a)


def clip(a: Operands) -> list[T]:
    """defs/iOS17/elementwise_unary.py adds alpha < beta to iOS15's clip."""
    lo, hi = np.asarray(a.const("alpha")), np.asarray(a.const("beta"))
    if lo.size != 1 or hi.size != 1:
        raise Bad("alpha and beta must be single values")
    if a.version >= 17 and float(lo.reshape(-1)[0]) >= float(hi.reshape(-1)[0]):
        raise Bad(f"alpha ({lo.item()}) must be smaller than beta ({hi.item()})")
    return like_x(a)


def per_channel(a: Operands, params=("alpha",), ranks=(3, 4, 5)) -> list[T]:
    """prelu (rank 3 to 5) / softplus_parametric (rank 3 or more), defs/iOS15/activation.py: one
    parameter value per channel (dim 1)."""
    x = a.type("x")
    shape = need_rank(x)
    if len(shape) < ranks[0] or (ranks[-1] is not None and len(shape) > ranks[-1]):
        raise Bad(f"x has rank {len(shape)}; it must be rank {ranks[0]}" + (f" to {ranks[-1]}" if ranks[-1] else " or more"))
    for p in params:
        v = np.asarray(a.const(p))
        if v.ndim != 1 or (known(shape[1]) and v.shape[0] != shape[1]):
            raise Bad(f"{p} has shape {list(v.shape)}; it needs one value per channel ([{shape[1]}])")
    return like_x(a)


def softplus_parametric(a: Operands) -> list[T]:
    return per_channel(a, ("alpha", "beta"), (3, None))


CAST15 = ("fp16", "fp32", "int32", "bool")
CAST17 = ("fp16", "fp32", "int8", "uint8", "int16", "uint16", "int32", "bool")


def cast(a: Operands) -> list[T]:
    """defs/iOS15/elementwise_unary.py (iOS17 adds 8- and 16-bit integers): x's shape, dtype ``dtype``."""
    dtype = a.text("dtype")
    allowed = CAST17 if a.version >= 17 else CAST15
    if dtype not in allowed:
        raise Bad(f"dtype {dtype!r} is not one of {', '.join(allowed)} (iOS{a.version})")
    return [T(dtype, a.type("x").shape)]


# ---- rules of ops added from real programs (iOS17/quantization_ops.py; tensor_transformation.py ones: mil_shapes_transform) --


def quantize(a: Operands) -> list[T]:
    """defs/iOS17/quantization_ops.py quantize: the result is input's shape in output_dtype (uint8 or
    int8, zero_point's dtype); scale is not all 0; scale and zero_point are scalars (no axis) or vectors
    of input's dim ``axis``."""
    x = a.type("input")
    out = a.text("output_dtype")
    if out not in ("uint8", "int8"):
        raise Bad(f"output_dtype {out!r} is not uint8 or int8")
    if a.has("zero_point") and a.type("zero_point").dtype != out:
        raise Bad(f"zero_point is {a.type('zero_point').dtype} but output_dtype is {out}")
    scale = np.asarray(a.const("scale"))
    if np.all(scale == 0):
        raise Bad("scale is 0")
    zp = np.asarray(a.const("zero_point")) if a.has("zero_point") else None
    if scale.ndim == 0:
        if a.has("axis"):
            raise Bad("axis is given but scale is a scalar")
        if zp is not None and zp.ndim != 0:
            raise Bad("zero_point must be a scalar when scale is one")
    elif scale.ndim == 1:
        xs = need_rank(x, "input")
        if not a.has("axis"):
            raise Bad("scale is a vector, so axis is needed")
        axis = norm_axis(a.int("axis"), len(xs))
        for k, v in (("scale", scale), ("zero_point", zp)):
            if v is not None and (v.ndim != 1 or (known(xs[axis]) and v.shape[0] != xs[axis])):
                raise Bad(f"{k} is {list(v.shape)}; it must be [{xs[axis]}], input's dim {axis} (input {R.dims(xs)})")
    else:
        raise Bad(f"scale has rank {scale.ndim}; it must be a scalar or a vector")
    return [T(out, x.shape)]


SPECS: dict[str, Spec] = {}

# elementwise binary, broadcasting (defs/iOS15/elementwise_binary.py)
for _op in ("add", "sub", "mul", "real_div", "floor_div", "mod", "pow", "minimum", "maximum"):
    SPECS[_op] = _spec("x:T y:T", binary, {"T": NUM})
for _op in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
    SPECS[_op] = _spec("x:T y:T", compare, {"T": NUM})
for _op in ("logical_and", "logical_or", "logical_xor"):
    SPECS[_op] = _spec("x:T y:T", compare, {"T": ("bool",)})
# elementwise unary and activations (defs/iOS15/elementwise_unary.py, activation.py; iOS17 ones)
for _op in ("acos", "asin", "atan", "atanh", "ceil", "cos", "cosh", "erf", "exp", "floor", "round", "sin", "sinh",
            "sqrt", "tan", "tanh", "relu", "relu6", "sigmoid", "silu", "softplus", "softsign"):
    SPECS[_op] = _spec("x:T", like_x)
for _op in ("abs", "exp2", "sign", "square"):
    SPECS[_op] = _spec("x:T", like_x, {"T": NUM})
SPECS["logical_not"] = _spec("x:T", like_x, {"T": ("bool",)})
for _op in ("inverse", "log", "rsqrt"):
    SPECS[_op] = _spec("x:T epsilon:=U?", like_x, split17=True)
SPECS["clip"] = _spec("x:T alpha:=T beta:=T", clip)
SPECS["threshold"] = _spec("x:T alpha:=T", like_x, {"T": NUM})
for _op in ("elu", "leaky_relu", "thresholded_relu"):
    SPECS[_op] = _spec("x:T alpha:=U", like_x, split17=True)
for _op in ("clamped_relu", "linear_activation", "scaled_tanh", "sigmoid_hard"):
    SPECS[_op] = _spec("x:T alpha:=U beta:=U", like_x, split17=True)
SPECS["prelu"] = _spec("x:T alpha:=U", per_channel, split17=True)
SPECS["softplus_parametric"] = _spec("x:T alpha:=U beta:=U", softplus_parametric, split17=True)
SPECS["gelu"] = _spec("x:T mode:=str?", gelu)
SPECS["softmax"] = _spec("x:T axis:=i32?", softmax)
SPECS["cast"] = _spec("x:T dtype:=str", cast, {"T": ANY15}, domains17={"T": ANY17})
SPECS["identity"] = _spec("x:any", like_x)
SPECS["select"] = _spec("cond:bool a:T b:T", select, {"T": ANY15})  # defs/iOS15/control_flow.py
# linear algebra (defs/iOS15/linear.py, conv.py; defs/iOS17/linear.py, conv.py)
SPECS["matmul"] = _spec("x:T y:U transpose_x:=bool? transpose_y:=bool?", R.matmul, {"T": NUM, "U": NUM}, split17=True)
SPECS["linear"] = _spec("x:T weight:=U bias:=U?", R.linear, {"T": NUM, "U": NUM}, split17=True)
SPECS["conv"] = _spec("x:T weight:U bias:U? strides:=i32? pad_type:=str? pad:=i32? dilations:=i32? groups:=i32?",
                      R.conv, split17=True)
# shapes (defs/iOS15/tensor_transformation.py, tensor_operation.py; defs/iOS17/tensor_transformation.py)
_MOVE = {"T": ANY15}, {"T": ANY17}
SPECS["reshape"] = _spec("x:T shape:int", R.reshape, _MOVE[0], domains17=_MOVE[1])
SPECS["transpose"] = _spec("x:T perm:=i32", R.transpose, _MOVE[0], domains17=_MOVE[1])
SPECS["squeeze"] = _spec("x:T axes:=i32?", R.squeeze, _MOVE[0], domains17=_MOVE[1])
SPECS["expand_dims"] = _spec("x:T axes:=i32", R.expand_dims, _MOVE[0], domains17=_MOVE[1])
SPECS["slice_by_index"] = _spec("x:T begin:int end:int stride:=int? begin_mask:=bool? end_mask:=bool? squeeze_mask:=bool?",
                                R.slice_by_index, _MOVE[0], domains17=_MOVE[1])
SPECS["concat"] = _spec("values:* axis:=i32 interleave:=bool?", R.concat)
SPECS["stack"] = _spec("values:* axis:=i32", R.stack)
SPECS["split"] = _spec("x:T num_splits:=i32? split_sizes:=i32? axis:=i32", R.split, _MOVE[0])
SPECS["tile"] = _spec("x:T reps:i32", R.tile, _MOVE[0])
SPECS["slice_by_size"] = _spec("x:T begin:U size:U", TR.slice_by_size, {"T": ANY15, "U": ("int32",)},
                               domains17={"T": ANY17, "U": ("int8", "int16", "int32")})
SPECS["depth_to_space"] = _spec("x:T block_size:=i32", TR.depth_to_space)
SPECS["space_to_depth"] = _spec("x:T block_size:=i32", TR.space_to_depth)
# quantization (defs/iOS17/quantization_ops.py)
SPECS["quantize"] = _spec("input:T zero_point:=D? scale:=T axis:=i32? output_dtype:=str", quantize,
                          {"T": FLOAT, "D": ("uint8", "int8")}, since=17)
# reductions and normalisation (defs/iOS15/reduction.py, normalization.py; iOS17 ones)
for _op in ("sum", "mean", "max", "min", "prod", "l1_norm", "l2_norm", "log_sum", "log_sum_exp", "sum_square"):
    SPECS[f"reduce_{_op}"] = _spec("x:T axes:=i32? keep_dims:=bool?", R.reduce, {"T": NUM})
for _op in ("reduce_argmax", "reduce_argmin"):
    SPECS[_op] = _spec("x:T axis:=i32? keep_dims:=bool? output_dtype:=str?", R.reduce_arg, {"T": NUM})
SPECS["layer_norm"] = _spec("x:T axes:=i32? gamma:=U? beta:=U? epsilon:=U?", R.layer_norm, split17=True)
SPECS["batch_norm"] = _spec("x:T mean:=U variance:=U gamma:=U? beta:=U? epsilon:=U?", like_x, split17=True)
SPECS["instance_norm"] = _spec("x:T gamma:=U? beta:=U? epsilon:=U?", like_x, split17=True)
SPECS["l2_norm"] = _spec("x:T epsilon:=U?", R.l2_norm, split17=True)
SPECS["local_response_norm"] = _spec("x:T size:=i32 alpha:=U? beta:=U? k:=U?", like_x, split17=True)
# iOS18 (defs/iOS18/transformers.py, states.py; coreml_update_state: defs/coreml_dialect/ops.py)
SPECS["scaled_dot_product_attention"] = _spec("query:T key:T value:T attn_mask:M?", R.sdpa,
                                              {"T": FLOAT, "M": ("bool", *FLOAT)}, since=18)
SPECS["read_state"] = _spec("input:S", R.read_state, since=18)
SPECS["coreml_update_state"] = _spec("state:S value:T", R.coreml_update_state, {"T": ANY17}, since=18)
SPECS["write_state"] = _spec("input:S data:T", R.write_state, {"T": ANY17}, since=18)
# gather and scatter (defs/iOS15/scatter_gather.py; iOS16: int16/uint16 indices, batch_dims; iOS17: 8-bit, validate_indices)
_IDX16 = ("int32", "uint16", "int16")
_IDX17 = ("int32", "int16", "uint16", "int8", "uint8")
_GATHER17 = ("fp16", "fp32", "int32", "int16", "uint16", "int8", "uint8")
SPECS["gather"] = _versions(
    _spec("x:T indices:i32 axis:=i32?", G.gather, {"T": NUM}),
    _spec("x:T indices:I axis:=i32? batch_dims:=i32?", G.gather, {"T": NUM, "I": _IDX16}, since=16),
    _spec("x:T indices:I axis:=i32? batch_dims:=i32? validate_indices:=bool?", G.gather, {"T": _GATHER17, "I": _IDX17},
          since=17))
SPECS["gather_along_axis"] = _versions(
    _spec("x:T indices:i32 axis:=i32?", G.gather_along_axis, {"T": NUM}),
    _spec("x:T indices:I axis:=i32?", G.gather_along_axis, {"T": NUM, "I": _IDX16}, since=16),
    _spec("x:T indices:I axis:=i32? validate_indices:=bool?", G.gather_along_axis, {"T": _GATHER17, "I": _IDX17}, since=17))
SPECS["gather_nd"] = _versions(
    _spec("x:T indices:i32", G.gather_nd, {"T": NUM}),
    _spec("x:T indices:I batch_dims:=i32?", G.gather_nd, {"T": NUM, "I": _IDX16}, since=16),
    _spec("x:T indices:I batch_dims:=i32? validate_indices:=bool?", G.gather_nd, {"T": _GATHER17, "I": _IDX17}, since=17))
for _op, _rule, _axis in (("scatter", G.scatter, "axis:=i32? "), ("scatter_along_axis", G.scatter_along_axis, "axis:=i32? "),
                          ("scatter_nd", G.scatter_nd, "")):
    SPECS[_op] = _versions(_spec(f"data:T indices:i32 updates:T {_axis}mode:=str?", _rule, {"T": NUM}),
                           _spec(f"data:T indices:i32 updates:T {_axis}mode:=str? validate_indices:=bool?", _rule,
                                 {"T": NUM}, since=17))
# pooling and transposed / quantized convolution (defs/iOS15/pool.py, conv.py; defs/iOS17/conv.py)
_POOL = "x:T kernel_sizes:=i32 strides:=i32? pad_type:=str pad:=i32? ceil_mode:=bool?"
SPECS["max_pool"] = _spec(_POOL, P.pool)
SPECS["avg_pool"] = _spec(_POOL + " exclude_padding_from_average:=bool?", P.pool)
SPECS["l2_pool"] = _spec(_POOL, P.l2_pool)
_CONVT = "pad:=i32? output_shape:=i32? pad_type:=str? strides:=i32? dilations:=i32? groups:=i32?"
SPECS["conv_transpose"] = _versions(_spec("x:T weight:=T bias:=T? " + _CONVT, P.conv_transpose),
                                    _spec("x:T weight:U bias:U? " + _CONVT, P.conv_transpose, since=17))
SPECS["conv_quantized"] = _spec("x:T weight:U bias:=U? quantization_type:=str nbits:=i32? quant_scale:=T quant_bias:=T "
                                "strides:=i32? pad_type:=str? pad:=i32? dilations:=i32? groups:=i32?", R.conv,
                                {"T": FLOAT, "U": ("uint8",)})
# tensor operations (defs/iOS15/tensor_operation.py; defs/iOS16, iOS17/tensor_operation.py)
SPECS["band_part"] = _spec("x:T lower:=i32? upper:=i32?", like_x, {"T": ANY15})
SPECS["cumsum"] = _spec("x:T axis:=i32? exclusive:=bool? reverse:=bool?", TO.cumsum, {"T": NUM})
SPECS["fill"] = _spec("shape:i32 value:=T?", TO.fill, {"T": ANY15})
SPECS["fill_like"] = _spec("ref_tensor:T value:=U?", TO.fill_like, {"T": ANY15, "U": ANY15}, since=16)
SPECS["non_zero"] = _spec("x:T", TO.non_zero, {"T": ANY15})
SPECS["one_hot"] = _spec("indices:i32 one_hot_vector_size:i32 axis:=i32? on_value:=T? off_value:=T?", TO.one_hot, {"T": ANY15})
SPECS["pad"] = _spec("x:T pad:i32 mode:=str? constant_val:=T?", TO.pad)
SPECS["range_1d"] = _spec("end:T start:T step:T", TO.range_1d, {"T": NUM})
SPECS["argsort"] = _spec("x:T axis:=i32? ascending:=bool?", TO.argsort, {"T": NUM})
_TOPK = "x:T k:=i32? axis:=i32? ascending:=bool?"
SPECS["topk"] = _versions(
    _spec(_TOPK, TO.topk, {"T": NUM}),
    _spec(_TOPK + " sort:=bool? return_indices:=bool?", TO.topk, {"T": NUM}, since=16),
    _spec("x:T k:=K? axis:=i32? ascending:=bool? sort:=bool? return_indices:=bool? output_indices_dtype:=str?", TO.topk,
          {"T": ("fp16", "fp32", "int8", "int16", "int32", "uint8", "uint16"), "K": ("int8", "int16", "int32")}, since=17))
SPECS["flatten2d"] = _spec("x:T axis:=i32?", TO.flatten2d, {"T": ANY15})
SPECS["shape"] = _spec("x:T", TO.shape, {"T": ANY15})
SPECS["non_maximum_suppression"] = _versions(
    _spec("boxes:T scores:T iou_threshold:=T score_threshold:=T max_boxes:=i32 per_class_suppression:=bool?",
          TO.non_maximum_suppression),
    _spec("boxes:T scores:T iou_threshold:=T max_boxes:=i32 per_class_suppression:=bool?", TO.non_maximum_suppression,
          since=17))
# random (defs/iOS15/random.py)
SPECS["random_bernoulli"] = _spec("shape:i32 prob:=T? seed:=i32?", TO.random_bernoulli)
SPECS["random_normal"] = _spec("shape:i32 mean:=T? stddev:=T? seed:=i32?", TO.random_normal)
SPECS["random_uniform"] = _spec("shape:i32 low:=T? high:=T? seed:=i32?", TO.random_uniform)
SPECS["random_categorical"] = _spec("x:T mode:=str? size:=i32? seed:=i32?", TO.random_categorical)
# dequantize (defs/iOS17/quantization_ops.py)
SPECS["dequantize"] = _spec("input:Q zero_point:=Q? scale:=D axis:=i32?", TO.dequantize,
                            {"Q": ("uint8", "int8"), "D": FLOAT}, since=17)
# rearranging (defs/iOS15/tensor_transformation.py; defs/iOS16, iOS17, iOS18/tensor_transformation.py; iOS15/linear.py)
SPECS["reverse"] = _spec("x:T axes:=i32?", like_x, _MOVE[0], domains17=_MOVE[1])
SPECS["reverse_sequence"] = _versions(
    _spec("x:T lengths:i32 seq_axis:=i32? batch_axis:=i32?", like_x, _MOVE[0]),
    _spec("x:T lengths:U seq_axis:=i32? batch_axis:=i32?", like_x, {"T": ANY17, "U": ("int8", "int16", "int32")}, since=17))
SPECS["sliding_windows"] = _spec("x:T axis:=i32 size:=i32 stride:=i32?", TR.sliding_windows, {"T": NUM},
                                 domains17={"T": ANY17})
SPECS["pixel_shuffle"] = _spec("x:T upscale_factor:=i32", TR.pixel_shuffle)
SPECS["pixel_unshuffle"] = _spec("x:T downscale_factor:=u32", TR.pixel_unshuffle, since=16)
SPECS["space_to_batch"] = _spec("x:T block_shape:=i32 paddings:=i32", TR.space_to_batch)
SPECS["batch_to_space"] = _spec("x:T block_shape:=i32 crops:=i32", TR.batch_to_space)
SPECS["reshape_like"] = _spec("x:T ref_tensors:* begins:* ends:* end_masks:*", TR.reshape_like, _MOVE[0],
                              domains17={"T": ANY17}, since=16)
SPECS["slice_update"] = _spec("x:T update:T begin:U end:U stride:=U? begin_mask:=bool? end_mask:=bool? squeeze_mask:=bool?",
                              TR.slice_update, {"T": ANY17, "U": ("int8", "int16", "int32")}, since=18)
SPECS["einsum"] = _spec("values:* equation:=str", TR.einsum)
# image resizing (defs/iOS15/image_resizing.py; defs/iOS16, iOS17/image_resizing.py)
SPECS["upsample_nearest_neighbor"] = _spec("x:T scale_factor_height:=U? scale_factor_width:=U?", IM.upsample,
                                           {"T": FLOAT, "U": ("fp32", "int32")})
_UPB = "x:T scale_factor_height:=U? scale_factor_width:=U? align_corners:=bool?"
SPECS["upsample_bilinear"] = _versions(
    _spec(_UPB, IM.upsample, {"T": FLOAT, "U": ("int32", "fp32")}),
    _spec(_UPB + " half_pixel_centers:=bool?", IM.upsample, {"T": FLOAT, "U": ("int32", "fp32")}, since=16))
SPECS["resize_nearest_neighbor"] = _spec("x:T target_size_height:=i32 target_size_width:=i32", IM.resize_nearest_neighbor)
SPECS["resize_bilinear"] = _spec("x:T target_size_height:=i32? target_size_width:=i32? sampling_mode:=str?",
                                 IM.resize_bilinear)
_CROPR = ("target_height:=i32? target_width:=i32? normalized_coordinates:=bool? spatial_scale:=f32? "
          "box_coordinate_mode:=str? sampling_mode:=str?")
SPECS["crop_resize"] = _versions(
    _spec("x:T roi:T " + _CROPR, IM.crop_resize),
    _spec("x:T roi:T " + _CROPR + " pad_value:=T?", IM.crop_resize, since=16),
    _spec("x:T boxes:B box_indices:I? " + _CROPR + " pad_value:=T?", IM.crop_resize,
          {"T": FLOAT, "B": ("fp16", "fp32", "uint16"), "I": ("uint16", "int32")}, since=17))
SPECS["crop"] = _spec("x:T crop_height:=i32 crop_width:=i32", IM.crop)
SPECS["affine"] = _spec("x:T transform_matrix:T output_height:=i32 output_width:=i32 sampling_mode:=str padding_mode:=str "
                        "padding_value:=T coordinates_mode:=str align_corners:=bool", IM.affine)
_RESAMPLE = "x:T coordinates:U sampling_mode:=str padding_mode:=str padding_value:=T coordinates_mode:=str align_corners:=bool"
SPECS["resample"] = _versions(
    _spec(_RESAMPLE, IM.resample, {"T": FLOAT, "U": ("int32", "fp32")}),
    _spec(_RESAMPLE, IM.resample, {"T": FLOAT, "U": ("int32", "fp16", "fp32")}, since=16),
    _spec(_RESAMPLE, IM.resample, {"T": FLOAT, "U": ("int8", "uint8", "int16", "uint16", "int32", "fp16", "fp32")}, since=17))
SPECS["resize"] = _spec("x:T shape:U resized_dims:=u32 interpolation_mode:=str? sampling_mode:=str?", IM.resize,
                        {"T": NUM, "U": ("int32", "int16", "uint16", "uint32")}, since=17)
# recurrent (defs/iOS15/recurrent.py: fp32 only; iOS17: fp16 too; iOS18: gru's reset_after, input_bias)
_RNN = "x:T initial_h:T weight_ih:=T weight_hh:=T bias:=T? direction:=str? output_sequence:=bool?"
_GRU = _RNN + " recurrent_activation:=str? activation:=str?"
_LSTM = (_RNN + " initial_c:T peephole:=T? weight_ih_back:=T? weight_hh_back:=T? bias_back:=T? peephole_back:=T? "
         "recurrent_activation:=str? cell_activation:=str? activation:=str? clip:=T?")
_F32 = {"T": ("fp32",)}
SPECS["gru"] = _versions(_spec(_GRU, RNN.gru, _F32), _spec(_GRU, RNN.gru, since=17),
                         _spec(_GRU + " reset_after:=bool? input_bias:=T?", RNN.gru, since=18))
SPECS["lstm"] = _versions(_spec(_LSTM, RNN.lstm, _F32), _spec(_LSTM, RNN.lstm, since=17))
SPECS["rnn"] = _versions(_spec(_RNN + " activation:=str?", RNN.rnn, _F32), _spec(_RNN + " activation:=str?", RNN.rnn, since=17))
# npubuild's extension op (docs/ane.md)
SPECS["rms_norm"] = _spec("x:T w:T? eps:=U?", R.rms_norm, split17=True)


def _fixed(dom: str, version: int):
    """The dtypes of a domain that is not a shared letter; None for any."""
    return {"i32": ("int32",), "int": ("int8", "int16", "int32") if version >= 17 else ("int32",),
            "bool": ("bool",), "str": ("string",), "u32": ("uint32",), "f32": ("fp32",)}.get(dom)


def check_operands(op, spec: Spec, a: Operands, version: int) -> None:
    """coremltools' input checks (mil/input_type.py validate_inputs, mil/operation.py): raises Bad."""
    for k in op.args:
        if k not in spec.inputs:
            raise Bad(f"unknown input '{k}' (MIL's {op.op} takes {', '.join(spec.inputs)})")
    domains = spec.domains17 if version >= 17 and spec.domains17 else spec.domains
    groups: dict[str, tuple[str, T]] = {}
    deferred: list = []
    for k, flags in spec.inputs.items():
        const, optional, dom = flags.startswith("="), flags.endswith("?"), flags.strip("=?")
        if k not in op.args:
            if not optional:
                raise Bad(f"input '{k}' is missing (MIL's {op.op} needs {', '.join(n for n, f in spec.inputs.items() if not f.endswith('?'))})")
            continue
        v = op.args[k]
        if dom == "*":
            for t in a.tuple(k):
                if t.state:
                    raise Bad(f"'{k}' holds a state; only read_state, coreml_update_state and write_state take one")
            continue
        if isinstance(v, tuple):
            raise Bad(f"'{k}' is a tuple; {op.op} takes one value there")
        t = a.type(k)
        shown = f"'{v.name}'" if isinstance(v, Ref) else "the literal"
        if dom == "S" or t.state:
            if dom != "S" or not t.state:
                raise Bad(f"'{k}' is {shown} ({t}); " + ("it must be a state<tensor<...>> function input" if dom == "S"
                          else "only read_state, coreml_update_state and write_state take a state"))
            continue
        if const and a.known(k) is None:
            raise Bad(f"'{k}' must be a constant; {shown} is computed at run time")
        if spec.split17 and version < 17 and dom == "U":
            dom = "T"
        allowed = domains.get(dom) if dom in domains else _fixed(dom, version)
        if allowed is not None and t.dtype not in allowed:
            raise Bad(f"'{k}' is {shown} of type {t}; {op.op} takes {', '.join(allowed)} there (iOS{version})")
        if dom in domains:
            if optional and const and t.dtype == "fp32" and t.shape == ():
                # coremltools' builder writes an omitted float parameter (epsilon, alpha, ...) as its fp32 default
                # without checking its domain (builder.py: set_inputs(type_inference=False)): fp32 beside fp16 is read
                deferred.append((k, t, dom))
                continue
            _same(op, groups, dom, k, t, version)
    for k, t, dom in deferred:
        if dom not in groups or groups[dom][1].dtype != "fp16":
            _same(op, groups, dom, k, t, version)


def _same(op, groups: dict, dom: str, k: str, t: T, version: int) -> None:
    """Inputs of one type domain letter share a dtype."""
    if dom in groups and groups[dom][1].dtype != t.dtype:
        raise Bad(f"'{k}' is {t.dtype} but '{groups[dom][0]}' is {groups[dom][1].dtype}; "
                  f"{op.op} needs them of one dtype (iOS{version})")
    groups.setdefault(dom, (k, t))


def _version(fn: MilFunction, file: str) -> int:
    if fn.opset is None:
        return DEFAULT_VERSION
    v = opset_version(fn.opset)
    if v is None:
        raise MilError(file, fn.line, f"unknown opset '{fn.opset}' of function '{fn.name}' (MIL opsets: {', '.join(OPSETS)})",
                       fn.opset)
    return v


def _label(op) -> str:
    names = ", ".join(f"'{n}'" for n, _ in op.results)
    return f"{op.op} {names}" if names else (f"{op.op} [name = '{op.name}']" if op.name else op.op)


def _agrees(decl: MilType, t: T) -> bool:
    if decl.dtype != t.dtype:
        return False
    if t.shape is None:
        return True
    ds = decl.shape or ()
    return len(ds) == len(t.shape) and all(p < 0 or q < 0 or p == q for p, q in zip(ds, t.shape))


def _merge(decl: MilType, t: T) -> T:
    """What later ops see: each dimension known in either the declaration or the inference."""
    ds = decl.shape or ()
    if t.shape is None:
        return T(t.dtype, ds)
    return T(t.dtype, tuple(q if q >= 0 else p for p, q in zip(ds, t.shape)))


def _operands(op, types) -> str:
    """The op's tensor operands that are variables, with their types, for messages."""
    parts = []
    for k, v in op.args.items():
        vs = [types[x.name] for x in (v if isinstance(v, tuple) else (v,)) if isinstance(x, Ref)]
        vs = [t for t in vs if t.shape != ()]
        if vs:
            parts.append(f"{k} " + (str(vs[0]) if not isinstance(v, tuple) else "(" + ", ".join(map(str, vs)) + ")"))
    return f" ({'; '.join(parts)})" if parts else ""


def infer_function(fn: MilFunction, prog: MilProgram, pure: bool = False) -> dict[str, MilType]:
    """Check every op of ``fn``; returns each op result's type (declared and inferred merged)."""
    file, version = prog.file, _version(fn, prog.file)
    types = {n: T(t.dtype, t.shape or (), t.state) for n, t in fn.inputs}
    types.update({n: T(t.dtype, t.shape or ()) for n, t in fn.const_types.items()})
    out: dict[str, MilType] = {}
    for op in fn.ops:
        label = _label(op)
        spec = SPECS.get(op.op)
        if spec is None:
            close = difflib.get_close_matches(op.op, SPECS, 1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise MilError(file, op.line, f"{label}: '{op.op}' is not a MIL op npubuild knows{hint}")
        if op.op in EXTENSIONS:
            if pure:
                raise MilError(file, op.line, f"{label}: '{op.op}' is an npubuild extension op, not MIL, and this program "
                                              "must be pure MIL (Core ML has no rms_norm: write it as mul, reduce_mean, add, "
                                              "rsqrt and mul; docs/ane.md)")
            prog.extensions.setdefault(op.op, []).append(op.line)
        if version < spec.since:
            raise MilError(file, op.line, f"{label}: {op.op} is an iOS{spec.since} op; function '{fn.name}' has opset "
                                          f"{fn.opset}")
        spec = spec.at(version)
        a = Operands(op, types, fn.consts, version, fn.constexprs)
        declared = " and ".join(str(t) for _, t in op.results) or "no result"
        try:
            check_operands(op, spec, a, version)
            got = spec.rule(a)
        except Bad as e:
            raise MilError(file, op.line, f"{label}: declared {declared} but MIL infers no valid type ({e})") from None
        except (ValueError, TypeError, IndexError, OverflowError) as e:  # a constant no rule foresaw: still a message
            raise MilError(file, op.line, f"{label}: declared {declared} but MIL infers no valid type (malformed operands: {e})") from None
        if len(got) != len(op.results):
            raise MilError(file, op.line, f"{label}: declares {len(op.results)} result(s) but MIL's {op.op} makes "
                                          f"{len(got)}: {', '.join(map(str, got)) or 'none'}")
        for (name, decl), t in zip(op.results, got):
            if not _agrees(decl, t):
                what = f"{op.op} '{name}'" if len(op.results) > 1 else label
                raise MilError(file, op.line, f"{what}: declared {decl} but MIL infers {t}{_operands(op, types)}")
            types[name] = _merge(decl, t)
            m = types[name]
            out[name] = MilType(m.dtype, m.shape if decl.shape is not None else None)
    return out


def infer_program(prog: MilProgram, pure: bool = False) -> dict[str, dict[str, MilType]]:
    """Check every function of ``prog`` (MilError at the first op whose types are not MIL's);
    fills ``prog.extensions``. Returns, per function, the type of every op result."""
    prog.extensions = {}
    return {name: infer_function(fn, prog, pure) for name, fn in prog.functions.items()}
