"""The opset test (issue 26, item 1): the reader's ops against coremltools' own op registry.

At test time the registry (``SSAOpRegistry``: core ops and dialect ops registered for iOS15..iOS18)
is enumerated. For every op the reader knows (``mil_types.SPECS``) that coremltools defines, each of
its samples is built with coremltools' MIL builder (``mb``) into a Program, printed as ``program(1.3)``
text the way coremltools holds it (every parameter a named ``const``, strings included:
``tests/mil_convert.program_text``), read with npubuild's reader, and every op result's type is
compared with the type coremltools inferred for it, once as printed and once with every result dim
declared ``?`` (so each inferred dim is the reader's own). The samples are the operands of the op-by-op
cases of ``tests/test_mil_types.py`` plus ``EXTRA`` below (a -1 dim is a symbol, ``?`` in the text):
inputs only, never expected types. Random operands for some ops (``RANDOM_OPS``) and random mutations of
the sample programs check the same against coremltools, or that only file:line errors come out.

What cannot be checked this way is listed with the reason: ops the reader knows that are not in the
registry (``NOT_IN_REGISTRY``), and the registry's ops the reader does not type (``NOT_TYPED``, each with
what stands in the way). Both lists are compared with the registry as installed, so an op added to the
reader, or a coremltools that defines other ops, makes this test say what changed.
"""
from __future__ import annotations

import random
import re

import coremltools as ct
import numpy as np
import pytest
from coremltools.converters.mil import Builder as mb
from coremltools.converters.mil.mil import Function, Program, get_new_symbol, types
from coremltools.converters.mil.mil.ops.registry import SSAOpRegistry

from npubuild.ane.mil import MilError, parse_mil
from npubuild.ane.mil_model import MilType
from npubuild.ane.mil_types import SPECS, infer_program

from .mil_convert import program_text
from .test_mil_types import CASES, CONSTEXPR, F16, F32, I32, In, mil_type, w, x

TARGETS = {15: ct.target.iOS15, 16: ct.target.iOS16, 17: ct.target.iOS17, 18: ct.target.iOS18}

#: ops the reader knows that coremltools' registry has not, and why
NOT_IN_REGISTRY = {
    "rms_norm": "npubuild's extension op (docs/ane.md): Core ML has none",
    "write_state": "the MIL text form of a state write; coremltools' builder spells it coreml_update_state",
}

_BLOCKS = ("control flow: its bodies are nested blocks (coremltools' Block, written as '{ ... } -> (...)' inside the op), "
           "which the program(1.3) parser (mil.py) does not read; functions are read as straight-line ops")
_LISTS = ("a list op: it takes or makes a list<tensor<...>, n> (coremltools' types.list, a run-time TensorArray); the "
          "parser (mil.py) refuses that type ('unsupported type 'list'') and the reader's types (MilType, "
          "mil_shapes.T) are tensors and states only")
#: registry ops (iOS15..iOS18) the reader does not type, and why; in a program each is refused at its line
#: (a list or dict type as an unsupported type, a nested block by the parser, any other as an op npubuild does not know)
NOT_TYPED = {
    "cond": _BLOCKS,
    "while_loop": _BLOCKS,
    **{op: _LISTS for op in ("make_list", "list_length", "list_read", "list_write", "list_gather", "list_scatter")},
    "classify": ("classes is a constant list (of strings or int64) and the results are one class (a string or int64 "
                 "scalar) and a dict<class, fp64> of probabilities: list and dict types the parser (mil.py) refuses and "
                 "the reader's types do not have"),
    "constexpr_lut_to_sparse": ("a constexpr op: the parser computes constexpr ops into constants (mil_consts.py "
                                "ConstantReader, two-result ones listed in TWO_RESULTS) and refuses this one as an "
                                "'unsupported constexpr op'; it needs a decompression there, not a type rule in mil_types"),
}
#: frontend dialect ops, left out: coremltools' passes lower them to core ops before a program is written
FRONTEND_DIALECT = {"complex", "complex_abs", "complex_fft", "complex_fftn", "complex_ifft", "complex_ifftn", "complex_imag",
                    "complex_irfft", "complex_irfftn", "complex_real", "complex_rfft", "complex_rfftn", "complex_shape",
                    "complex_stft"}
#: no program op: const is read by the parser itself, _const_symbolic is coremltools-internal
NOT_AN_OP = {"const", "_const_symbolic"}
#: the constexpr ops the reader computes into constants (mil_consts.py), checked by their own test below
CONSTEXPRS = {"constexpr_affine_dequantize", "constexpr_blockwise_shift_scale", "constexpr_cast", "constexpr_lut_to_dense",
              "constexpr_sparse_blockwise_shift_scale", "constexpr_sparse_to_dense"}


def registry() -> dict[str, int]:
    """Every op coremltools registers for iOS15..iOS18 -> the first of those versions that has it. Dialect
    ops have no versions: the Core ML dialect's (coreml_update_state, a state op) is taken as iOS18; the
    frontend dialects' are left out (FRONTEND_DIALECT)."""
    out = {}
    for name, by_target in SSAOpRegistry.core_ops.items():
        versions = [v for v, t in TARGETS.items() if t in by_target]
        if versions:
            out[name] = min(versions)
    for name, cls in SSAOpRegistry.dialect_ops.items():
        if ".coreml_dialect." in cls.__module__:
            out[name] = 18
    return out


def frontend_dialect() -> set[str]:
    return {n for n, c in SSAOpRegistry.dialect_ops.items() if ".coreml_dialect." not in c.__module__}


def _unary(op, version=18, dtype="fp16"):
    return (op, x(2, 3, dtype=dtype), {"x": "x"}, version)


def _binary(op, dtype="fp16", version=18):
    return (op, {"x": In(dtype, 2, 3), "y": In(dtype, 3)}, {"x": "x", "y": "y"}, version)


# samples for the ops test_mil_types.py has no case of (inputs only)
EXTRA = [
    *(_unary(op) for op in ("acos", "asin", "atan", "atanh", "ceil", "cos", "cosh", "floor", "round", "sin", "sinh",
                            "sqrt", "tan", "relu6", "softsign")),
    *(_unary(op, dtype="int32") for op in ("exp2", "sign", "square")),
    _unary("sqrt", 15),
    ("inverse", x(4), {"x": "x", "epsilon": F16(1e-4)}, 16),
    ("log", x(4), {"x": "x", "epsilon": np.float32(1e-4)}, 18),
    ("thresholded_relu", x(4), {"x": "x", "alpha": F16(0.5)}, 18),
    ("linear_activation", x(4), {"x": "x", "alpha": F16(2), "beta": F16(1)}, 18),
    ("sigmoid_hard", x(4), {"x": "x", "alpha": F16(0.2), "beta": F16(0.5)}, 15),
    *(_binary(op) for op in ("greater", "greater_equal", "less_equal", "not_equal", "mod")),
    _binary("mod", "int32", 15),
    *(_binary(op, "bool") for op in ("logical_or", "logical_xor")),
    *((f"reduce_{op}", x(2, 3, 4), {"x": "x", "axes": np.array([1], I32)}, 18)
      for op in ("l1_norm", "log_sum", "log_sum_exp", "min", "prod", "sum_square")),
    ("local_response_norm", x(1, 4, 3, 3), {"x": "x", "size": I32(3), "alpha": F16(1e-4)}, 18),
    ("slice_by_size", x(3, 8), {"x": "x", "begin": np.array([1, 2], np.int8), "size": np.array([2, -1], np.int8)}, 17),
    ("depth_to_space", x(1, 12, 2, 3), {"x": "x", "block_size": I32(2)}, 17),
    # gather and scatter
    ("gather", {"x": In("fp16", 5, 4), "i": In("int32", 2, 3)}, {"x": "x", "indices": "i", "axis": I32(1)}, 15),
    ("gather", x(5), {"x": "x", "indices": I32(2)}, 15),  # a scalar result
    ("gather", {"x": In("fp32", 2, 5, 4), "i": In("int16", 2, 3)}, {"x": "x", "indices": "i", "axis": I32(1),
                                                                    "batch_dims": I32(1)}, 16),
    ("gather", x(6, 4, dtype="int8"), {"x": "x", "indices": np.array([[0, 5]], I32), "axis": I32(-2),
                                       "validate_indices": True}, 18),
    ("gather_along_axis", {"x": In("fp16", 3, 4), "i": In("int32", 3, 2)}, {"x": "x", "indices": "i", "axis": I32(-1)}, 15),
    ("gather_along_axis", {"x": In("uint8", 3, 4), "i": In("int8", 5, 4)}, {"x": "x", "indices": "i"}, 17),
    ("gather_nd", {"x": In("fp16", 4, 5, 6), "i": In("int32", 2, 3, 2)}, {"x": "x", "indices": "i"}, 15),
    ("gather_nd", {"x": In("int32", 2, 5, 6), "i": In("uint16", 2, 1)}, {"x": "x", "indices": "i", "batch_dims": I32(1)}, 16),
    ("gather_nd", {"x": In("fp32", 4, 5), "i": In("int32", 3, 2)}, {"x": "x", "indices": "i"}, 18),
    ("scatter", {"d": In("fp16", 4, 5), "i": In("int32", 2), "u": In("fp16", 4, 2)},
     {"data": "d", "indices": "i", "updates": "u", "axis": I32(1), "mode": "update"}, 15),
    ("scatter", {"d": In("int32", 4, 5), "u": In("int32", 3, 5)},
     {"data": "d", "indices": np.array([0, 3, 1], I32), "updates": "u", "validate_indices": True}, 18),
    ("scatter_along_axis", {"d": In("fp32", 4, 5), "i": In("int32", 4, 2), "u": In("fp32", 4, 2)},
     {"data": "d", "indices": "i", "updates": "u", "axis": I32(1), "mode": "max"}, 15),
    ("scatter_along_axis", {"d": In("fp16", 4, 5), "i": In("int32", 2, 5), "u": In("fp16", 2, 5)},
     {"data": "d", "indices": "i", "updates": "u"}, 17),
    ("scatter_nd", {"d": In("fp16", 4, 5, 6), "i": In("int32", 3, 2), "u": In("fp16", 3, 6)},
     {"data": "d", "indices": "i", "updates": "u"}, 15),
    ("scatter_nd", {"d": In("int32", 4, 5), "i": In("int32", 3, 2), "u": In("int32", 3)},
     {"data": "d", "indices": "i", "updates": "u", "mode": "mul"}, 18),
    # pooling and transposed / quantized convolution
    ("max_pool", x(1, 3, 9, 7), {"x": "x", "kernel_sizes": np.array([3, 2], I32), "strides": np.array([2, 2], I32),
                                 "pad_type": "valid"}, 15),
    ("max_pool", x(1, 3, 9, 7), {"x": "x", "kernel_sizes": np.array([3, 3], I32), "strides": np.array([2, 2], I32),
                                 "pad_type": "custom", "pad": np.array([1, 1, 1, 1], I32), "ceil_mode": True}, 18),
    ("max_pool", x(2, 4, 10), {"x": "x", "kernel_sizes": np.array([4], I32), "strides": np.array([3], I32),
                               "pad_type": "same_lower"}, 16),
    ("avg_pool", x(1, 3, 9, 7), {"x": "x", "kernel_sizes": np.array([3, 3], I32), "strides": np.array([2, 2], I32),
                                 "pad_type": "same", "exclude_padding_from_average": True}, 18),
    ("avg_pool", x(1, 2, 5, 6, 7), {"x": "x", "kernel_sizes": np.array([2, 2, 2], I32), "pad_type": "valid"}, 15),
    ("avg_pool", x(1, 2, 5, 6), {"x": "x", "kernel_sizes": np.array([1, 1], I32), "strides": np.array([3, 4], I32),
                                 "pad_type": "same"}, 18),
    ("l2_pool", x(1, 3, 8, 8, dtype="fp32"), {"x": "x", "kernel_sizes": np.array([2, 2], I32),
                                              "strides": np.array([2, 2], I32), "pad_type": "valid"}, 18),
    ("conv_transpose", x(1, 4, 5, 5), {"x": "x", "weight": w(4, 3, 3, 3)}, 15),
    ("conv_transpose", x(1, 4, 5, 6), {"x": "x", "weight": w(4, 2, 3, 2), "strides": np.array([2, 3], I32),
                                       "pad_type": "custom", "pad": np.array([1, 0, 0, 2], I32), "groups": I32(2),
                                       "dilations": np.array([2, 1], I32), "bias": w(4)}, 18),
    ("conv_transpose", x(1, 4, 5), {"x": "x", "weight": w(4, 3, 3), "strides": np.array([2], I32), "pad_type": "same"}, 17),
    ("conv_transpose", x(1, 4, 5, 5), {"x": "x", "weight": w(4, 3, 3, 3), "strides": np.array([2, 2], I32),
                                       "output_shape": np.array([1, 3, 10, 10], I32)}, 18),
    ("conv_quantized", x(1, 4, 6, 6, dtype="fp32"), {"x": "x", "weight": np.ones((8, 4, 3, 3), np.uint8),
                                                     "quantization_type": "linear", "quant_scale": F32(0.5),
                                                     "quant_bias": F32(0), "strides": np.array([2, 1], I32)}, 15),
    # tensor operations
    ("band_part", x(3, 4), {"x": "x", "lower": I32(1), "upper": I32(-1)}, 15),
    ("cumsum", x(3, 4, dtype="int32"), {"x": "x", "axis": I32(-1), "exclusive": True}, 18),
    ("fill", {"s": In("int32", 3)}, {"shape": "s", "value": F16(2)}, 18),
    ("fill", {}, {"shape": np.array([2, 3], I32), "value": I32(7)}, 15),
    ("fill_like", x(2, 3), {"ref_tensor": "x", "value": I32(1)}, 16),
    ("fill_like", x(2, 3, dtype="bool"), {"ref_tensor": "x"}, 18),
    ("non_zero", x(3, 4), {"x": "x"}, 18),
    ("one_hot", {"i": In("int32", 2, 3)}, {"indices": "i", "one_hot_vector_size": I32(5), "axis": I32(1)}, 15),
    ("one_hot", {"i": In("int32", 2, 3), "n": In("int32", 1)}, {"indices": "i", "one_hot_vector_size": "n",
                                                             "on_value": F16(1), "off_value": F16(0)}, 18),
    ("pad", x(2, 5), {"x": "x", "pad": np.array([1, 2], I32)}, 18),
    ("pad", x(1, 2, 5, 4, dtype="fp32"), {"x": "x", "pad": np.array([0, 0, 1, 1, 2, 0], I32), "mode": "reflect"}, 15),
    ("pad", {"x": In("fp16", 2, 5), "p": In("int32", 4)}, {"x": "x", "pad": "p", "mode": "replicate"}, 18),
    ("range_1d", {}, {"start": I32(1), "end": I32(10), "step": I32(3)}, 18),
    ("range_1d", {"e": In("fp32", 1)}, {"start": F32(0), "end": "e", "step": F32(0.5)}, 15),
    ("argsort", x(3, 4), {"x": "x", "axis": I32(0), "ascending": True}, 18),
    ("topk", x(2, 5), {"x": "x", "k": I32(2)}, 18),
    ("topk", x(4, 5, dtype="int32"), {"x": "x", "k": I32(3), "axis": I32(0)}, 15),
    ("topk", x(2, 5), {"x": "x", "k": I32(2), "return_indices": False}, 16),
    ("topk", x(2, 5, dtype="int8"), {"x": "x", "k": np.int8(4), "output_indices_dtype": "uint16"}, 17),
    ("flatten2d", x(2, 3, 4), {"x": "x"}, 15),
    ("flatten2d", x(2, 3, 4, 5, dtype="bool"), {"x": "x", "axis": I32(-1)}, 18),
    ("shape", x(2, 3, 4), {"x": "x"}, 18),
    ("non_maximum_suppression", {"b": In("fp32", 2, 10, 4), "s": In("fp32", 2, 10, 3)},
     {"boxes": "b", "scores": "s", "iou_threshold": F32(0.5), "score_threshold": F32(0.1), "max_boxes": I32(4)}, 15),
    ("non_maximum_suppression", {"b": In("fp16", 2, 4, 10), "s": In("fp16", 2, 3, 10)},
     {"boxes": "b", "scores": "s", "iou_threshold": F16(0.5), "max_boxes": I32(4), "per_class_suppression": True}, 18),
    ("random_bernoulli", {}, {"shape": np.array([2, 3], I32), "prob": F16(0.3)}, 18),
    ("random_normal", {"s": In("int32", 2)}, {"shape": "s", "mean": F32(0), "stddev": F32(2)}, 15),
    ("random_uniform", {}, {"shape": np.array([4], I32)}, 18),
    ("random_categorical", x(3, 5), {"x": "x", "size": I32(4)}, 18),
    ("dequantize", x(2, 3, dtype="int8"), {"input": "x", "scale": F16(0.5)}, 17),
    ("dequantize", x(2, 3, dtype="uint8"), {"input": "x", "scale": w(3, dtype=F32), "zero_point": np.arange(3, dtype=np.uint8),
                                            "axis": I32(1)}, 18),
    # rearranging
    ("reverse", x(2, 3), {"x": "x", "axes": np.array([0], I32)}, 15),
    ("reverse", x(2, 3, dtype="int8"), {"x": "x"}, 18),
    ("reverse_sequence", {"x": In("fp16", 4, 3, 2), "l": In("int32", 3)}, {"x": "x", "lengths": "l", "seq_axis": I32(0),
                                                                           "batch_axis": I32(1)}, 15),
    ("reverse_sequence", {"x": In("uint8", 4, 3), "l": In("int8", 3)}, {"x": "x", "lengths": "l", "batch_axis": I32(1)}, 17),
    ("sliding_windows", x(2, 10), {"x": "x", "axis": I32(1), "size": I32(4), "stride": I32(3)}, 15),
    ("sliding_windows", x(7, 2, dtype="int8"), {"x": "x", "axis": I32(-2), "size": I32(2)}, 18),
    ("pixel_shuffle", x(1, 8, 3, 2), {"x": "x", "upscale_factor": I32(2)}, 15),
    ("pixel_unshuffle", x(1, 2, 6, 4), {"x": "x", "downscale_factor": np.uint32(2)}, 16),
    ("space_to_batch", x(2, 3, 5, 6), {"x": "x", "block_shape": np.array([2, 3], I32),
                                       "paddings": np.array([[1, 0], [0, 0]], I32)}, 15),
    ("batch_to_space", x(12, 3, 3, 2), {"x": "x", "block_shape": np.array([2, 3], I32),
                                        "crops": np.array([[1, 0], [0, 2]], I32)}, 18),
    ("reshape_like", {"x": In("fp16", 2, 3, 4), "ref": In("fp16", 6, 1, 4)},
     {"x": "x", "ref_tensors": ["ref"], "begins": [0], "ends": [1], "end_masks": [True]}, 16),
    ("reshape_like", {"x": In("int8", 2, 3), "ref": In("fp16", 6, 1, 4), "q": In("fp32", 5, 1)},
     {"x": "x", "ref_tensors": ["ref", "q"], "begins": [0, 1], "ends": [1, 2], "end_masks": [False, False]}, 18),
    ("slice_update", {"x": In("fp16", 4, 6), "u": In("fp16", 2, 3)},
     {"x": "x", "update": "u", "begin": np.array([1, 0], I32), "end": np.array([3, 6], I32), "stride": np.array([1, 2], I32)}, 18),
    ("einsum", {"a": In("fp16", 1, 2, 3, 4), "b": In("fp16", 1, 4, 3, 5)}, {"values": ["a", "b"], "equation": "nchw,nwhr->nchr"}, 18),
    ("einsum", {"a": In("fp32", 2, 3, 4), "b": In("fp32", 4, 1, 5)}, {"values": ["a", "b"], "equation": "abc,cbd->abd"}, 15),
    # image resizing
    ("upsample_nearest_neighbor", x(1, 3, 4, 5), {"x": "x", "scale_factor_height": I32(2), "scale_factor_width": I32(3)}, 15),
    ("upsample_nearest_neighbor", x(3, 4, 5), {"x": "x", "scale_factor_height": F32(1.5), "scale_factor_width": F32(0.5)}, 18),
    ("upsample_bilinear", x(1, 3, 4, 5), {"x": "x", "scale_factor_height": F32(2.5), "scale_factor_width": F32(2),
                                          "align_corners": False}, 15),
    ("upsample_bilinear", x(1, 3, 4, 5), {"x": "x", "scale_factor_height": I32(2), "half_pixel_centers": True}, 18),
    ("resize_nearest_neighbor", x(1, 3, 4, 5), {"x": "x", "target_size_height": I32(7), "target_size_width": I32(2)}, 15),
    ("resize_bilinear", x(1, 3, 4, 5), {"x": "x", "target_size_height": I32(7), "target_size_width": I32(2),
                                        "sampling_mode": "ALIGN_CORNERS"}, 18),
    ("crop_resize", {"x": In("fp16", 2, 3, 8, 8), "o": In("fp16", 4, 1, 5, 1, 1)},
     {"x": "x", "roi": "o", "target_height": I32(3), "target_width": I32(2)}, 15),
    ("crop_resize", {"x": In("fp32", 2, 3, 8, 8), "o": In("fp32", 4, 1, 4, 1, 1)},
     {"x": "x", "roi": "o", "target_height": I32(3), "normalized_coordinates": True, "pad_value": F32(1)}, 16),
    ("crop_resize", {"x": In("fp16", 2, 3, 8, 8), "b": In("fp16", 4, 4)},
     {"x": "x", "boxes": "b", "box_indices": np.array([0, 1, 0, 1], I32), "target_height": I32(3), "target_width": I32(2)}, 17),
    ("crop_resize", {"x": In("fp16", 2, 3, 8, 8), "b": In("uint16", 2, 4)}, {"x": "x", "boxes": "b", "target_width": I32(5)}, 18),
    ("crop", x(1, 3, 8, 9), {"x": "x", "crop_height": np.array([1, 2], I32), "crop_width": np.array([0, 4], I32)}, 18),
    ("affine", {"x": In("fp32", 2, 3, 8, 8), "m": In("fp32", 2, 6)},
     {"x": "x", "transform_matrix": "m", "output_height": I32(5), "output_width": I32(4), "sampling_mode": "bilinear",
      "padding_mode": "constant", "padding_value": F32(0), "coordinates_mode": "normalized_minus_one_to_one",
      "align_corners": True}, 15),
    ("resample", {"x": In("fp16", 2, 3, 8, 8), "c": In("fp16", 2, 5, 4, 2)},
     {"x": "x", "coordinates": "c", "sampling_mode": "bilinear", "padding_mode": "constant", "padding_value": F16(0),
      "coordinates_mode": "normalized_zero_to_one", "align_corners": False}, 16),
    ("resample", {"x": In("fp32", 2, 3, 8, 8), "c": In("int32", 2, 5, 4, 2)},
     {"x": "x", "coordinates": "c", "sampling_mode": "nearest", "padding_mode": "border", "padding_value": F32(0),
      "coordinates_mode": "unnormalized", "align_corners": True}, 15),
    ("resize", x(1, 3, 4, 5), {"x": "x", "shape": np.array([6, 0], I32), "resized_dims": np.uint32(2)}, 17),
    ("resize", {"x": In("int32", 1, 3, 4, 5), "s": In("int32", 3)}, {"x": "x", "shape": "s", "resized_dims": np.uint32(1),
                                                                     "interpolation_mode": "NEAREST_NEIGHBOR"}, 18),
    # dims unknown until run time (-1: a symbol in coremltools, '?' in the text)
    ("gather", {"x": In("fp16", -1, 4), "i": In("int32", 2, -1)}, {"x": "x", "indices": "i", "axis": I32(1)}, 18),
    ("gather_nd", {"x": In("fp16", -1, 5, 6), "i": In("int32", -1, 1)}, {"x": "x", "indices": "i"}, 18),
    ("max_pool", x(1, 3, -1, 7), {"x": "x", "kernel_sizes": np.array([3, 2], I32), "strides": np.array([2, 2], I32),
                                  "pad_type": "same"}, 18),
    ("conv_transpose", x(1, 4, -1, 5), {"x": "x", "weight": w(4, 3, 3, 3), "strides": np.array([2, 2], I32)}, 18),
    ("pad", x(-1, 5), {"x": "x", "pad": np.array([1, 2, 0, 1], I32)}, 18),
    ("topk", x(-1, 5), {"x": "x", "k": I32(2), "axis": I32(0)}, 18),
    ("flatten2d", x(-1, 3, 4), {"x": "x", "axis": I32(1)}, 18),
    ("sliding_windows", x(2, -1), {"x": "x", "axis": I32(1), "size": I32(4)}, 18),
    ("pixel_shuffle", x(1, 8, -1, 2), {"x": "x", "upscale_factor": I32(2)}, 18),
    ("space_to_batch", x(-1, 3, 4, 6), {"x": "x", "block_shape": np.array([2, 3], I32),
                                        "paddings": np.array([[0, 0], [0, 0]], I32)}, 18),
    ("upsample_bilinear", x(1, 3, -1, 5), {"x": "x", "scale_factor_height": I32(2), "scale_factor_width": I32(2)}, 18),
    ("resize_bilinear", x(1, -1, 4, 5), {"x": "x", "target_size_height": I32(7), "target_size_width": I32(2)}, 18),
    ("crop", x(1, 3, -1, 9), {"x": "x", "crop_height": np.array([1, 2], I32), "crop_width": np.array([0, 4], I32)}, 18),
    ("one_hot", {"i": In("int32", -1, 3)}, {"indices": "i", "one_hot_vector_size": I32(5)}, 18),
    ("shape", x(-1, 3), {"x": "x"}, 18),
    ("einsum", {"a": In("fp16", 1, -1, 3, 4), "b": In("fp16", 1, 4, 3, 5)}, {"values": ["a", "b"], "equation": "nchw,nwhr->nchr"}, 18),
    ("gru", {"x": In("fp32", -1, 2, 4), "h": In("fp32", 2, 3)},
     {"x": "x", "initial_h": "h", "weight_ih": w(9, 4, dtype=F32), "weight_hh": w(9, 3, dtype=F32), "output_sequence": True}, 18),
    ("scatter", {"d": In("fp16", -1, 5), "i": In("int32", 2), "u": In("fp16", -1, 2)},
     {"data": "d", "indices": "i", "updates": "u", "axis": I32(1)}, 18),
    ("reverse", x(-1, 3), {"x": "x"}, 18),
    ("dequantize", x(-1, 3, dtype="int8"), {"input": "x", "scale": F16(0.5)}, 18),
    # recurrent
    ("gru", {"x": In("fp32", 5, 2, 4), "h": In("fp32", 2, 3)},
     {"x": "x", "initial_h": "h", "weight_ih": w(9, 4, dtype=F32), "weight_hh": w(9, 3, dtype=F32)}, 15),
    ("gru", {"x": In("fp16", 5, 2, 4), "h": In("fp16", 2, 3)},
     {"x": "x", "initial_h": "h", "weight_ih": w(9, 4), "weight_hh": w(9, 3), "output_sequence": True,
      "reset_after": True}, 18),
    ("lstm", {"x": In("fp32", 5, 2, 4), "h": In("fp32", 2, 3), "c": In("fp32", 2, 3)},
     {"x": "x", "initial_h": "h", "initial_c": "c", "weight_ih": w(12, 4, dtype=F32), "weight_hh": w(12, 3, dtype=F32),
      "output_sequence": True}, 15),
    ("lstm", {"x": In("fp16", 5, 2, 4), "h": In("fp16", 2, 6), "c": In("fp16", 2, 6)},
     {"x": "x", "initial_h": "h", "initial_c": "c", "weight_ih": w(12, 4), "weight_hh": w(12, 3), "weight_ih_back": w(12, 4),
      "weight_hh_back": w(12, 3), "direction": "bidirectional"}, 18),
    ("rnn", {"x": In("fp32", 5, 2, 4), "h": In("fp32", 2, 3)},
     {"x": "x", "initial_h": "h", "weight_ih": w(3, 4, dtype=F32), "weight_hh": w(3, 3, dtype=F32), "direction": "reverse"}, 15),
    ("rnn", {"x": In("fp16", 5, 2, 4), "h": In("fp16", 2, 3)},
     {"x": "x", "initial_h": "h", "weight_ih": w(3, 4), "weight_hh": w(3, 3), "output_sequence": True}, 17),
]
SAMPLES: dict[str, list] = {}
for _case in (*CASES, *EXTRA):
    SAMPLES.setdefault(_case[0], []).append(_case)


def _is_input(v, inputs: dict) -> bool:
    return (isinstance(v, str) and v in inputs) or (isinstance(v, list) and bool(v) and all(isinstance(n, str) and n in inputs for n in v))


def build(op: str, inputs: dict, params: dict, version: int) -> Program:
    """One op with coremltools' builder on function inputs ``inputs`` (a dim -1 is a symbol, '?' in the
    text); its results are the outputs."""
    holders = {n: (mb.state_tensor_placeholder if i.state else mb.placeholder)(
        shape=tuple(get_new_symbol() if d < 0 else d for d in i.shape), dtype=types.string_to_builtin(i.dtype))
        for n, i in inputs.items()}
    prog = Program()
    with Function(holders, opset_version=TARGETS[version]) as f:
        def bind(v):
            if not _is_input(v, inputs):
                return v
            return f.inputs[v] if isinstance(v, str) else [f.inputs[n] for n in v]

        out = getattr(mb, op)(**{k: bind(v) for k, v in params.items()}, name="r")
        f.set_outputs(list(out) if isinstance(out, (list, tuple)) else [out])
    prog.add_function("main", f)
    return prog


def unknown_result_dims(text: str) -> str:
    """The program with each op result's dims declared '?' (rank kept), so nothing the reader infers comes
    from the declaration (a known declared dim refines an unknown inferred one)."""
    out = []
    for line in text.split("\n"):
        lhs, eq, rhs = line.partition(" = ")
        if eq and not rhs.startswith("const()"):
            lhs = re.sub(r"\[([^\]]*)\]", lambda m: "[" + ", ".join("?" for d in m.group(1).split(", ") if d) + "]", lhs)
        out.append(lhs + eq + rhs)
    return "\n".join(out)


def test_the_lists_match_the_registry():
    assert frontend_dialect() == FRONTEND_DIALECT
    reg = registry()
    known = set(SPECS)
    assert {op for op in known if op not in reg} == set(NOT_IN_REGISTRY)
    unknown = set(reg) - known - NOT_AN_OP - CONSTEXPRS
    assert unknown == set(NOT_TYPED), (f"newly typed (drop from NOT_TYPED): {sorted(set(NOT_TYPED) - unknown)}; "
                                       f"in the registry, not typed and not listed: {sorted(unknown - set(NOT_TYPED))}")


CHECKED = sorted(op for op in SPECS if op not in NOT_IN_REGISTRY)


@pytest.mark.parametrize("op", CHECKED)
def test_every_known_op_reads_as_coremltools_types_it(op):
    reg = registry()
    samples = SAMPLES.get(op)
    assert samples, f"{op}: no sample inputs to build it with (add one to EXTRA)"
    for _, inputs, params, version in samples:
        assert version >= reg[op], f"{op} sample for iOS{version}, but coremltools has the op from iOS{reg[op]}"
        prog = build(op, inputs, params, version)
        text = program_text(prog)
        fn = prog.functions["main"]
        consts = {o.outputs[0].name for o in fn.operations if o.op_type == "const"}
        assert all(f'= const()[name = string("{c}")' in text for c in consts)
        for o in fn.operations:  # every parameter (coremltools' defaults too) is a named const, as it writes programs
            for v in o.inputs.values():
                for var in (v if isinstance(v, (list, tuple)) else (v,)):
                    assert var.name in consts or var.name in fn.inputs, (op, o.op_type, var.name)
        inferred = infer_program(parse_mil(text, f"{op}.mil"))["main"]
        # and with every result dim declared '?': what the reader infers itself, not taken from the declaration
        inferred_alone = infer_program(parse_mil(unknown_result_dims(text), f"{op}.mil"))["main"]
        for o in fn.operations:
            if o.op_type == "const":
                continue
            for v in o.outputs:
                want = mil_type(v)
                for got in (inferred[v.name], inferred_alone[v.name]):
                    assert (got.dtype, tuple(got.shape or ())) == (want.dtype, tuple(want.shape or ())), (op, version, v.name)


def test_mutated_samples_give_file_line_errors_only():
    """Random token swaps in the samples' program texts (every known op): each mutant reads or is refused
    with a MilError (file:line), never another exception out of a rule."""
    texts = [program_text(build(op, *case[1:])) for op in CHECKED for case in SAMPLES[op][:1]]
    subs = ["0", "1", "-1", "-7", "?", "3", "1000000000", "x", "(x, x)", "fp16(1.5)", 'string("a")', 'string("same")',
            "tensor<int32, [2]>([1, 2])", "tensor<int32, [0]>([])", "bool(true)", "int32(-3)", "uint32(0)", "int8", "fp32",
            "tensor<int32, [2, 2]>([0, 1, 2, 3])"]
    token = re.compile(r"-?[A-Za-z_][A-Za-z0-9_]*|-?[0-9]+")
    rng = random.Random(7)
    for _ in range(600):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            m = rng.choice(list(token.finditer(text)))
            text = text[: m.start()] + rng.choice(subs) + text[m.end():]
        try:
            parse_mil(text, "f.mil")
        except MilError as e:
            assert str(e).startswith("f.mil:"), str(e)


def _random_case(rng: random.Random, op: str):
    """Random operands for ``op`` (valid or not): (inputs, params, version)."""
    r = rng.randint
    v = r(15, 18)
    n = r(1, 2)
    xs = [r(1, 2), r(1, 4)] + [r(1, 9) for _ in range(n)]
    p: dict = {"x": "x"}
    if op in ("max_pool", "avg_pool", "l2_pool"):
        p.update(kernel_sizes=np.array([r(1, 4) for _ in range(n)], I32), strides=np.array([r(1, 3) for _ in range(n)], I32),
                 pad_type=rng.choice(["valid", "same", "custom", "same_lower"]),
                 pad=np.array([r(0, 2) for _ in range(2 * n)], I32), ceil_mode=rng.random() < .3)
    elif op == "conv_transpose":
        p.update(weight=np.ones((xs[1], r(1, 3), *[r(1, 3) for _ in range(n)]), np.float16),
                 strides=np.array([r(1, 3) for _ in range(n)], I32), dilations=np.array([r(1, 2) for _ in range(n)], I32),
                 pad_type=rng.choice(["valid", "same", "custom"]), pad=np.array([r(0, 2) for _ in range(2 * n)], I32))
    elif op == "pad":
        p.update(pad=np.array([r(0, 2) for _ in range(2 * r(0, len(xs) + 1))], I32), mode=rng.choice(["constant", "reflect", "edge"]))
    elif op == "gather":
        p.update(indices=np.zeros([r(1, 3) for _ in range(r(0, 2))], I32), axis=I32(r(-len(xs) - 1, len(xs))))
        if v >= 16:
            p["batch_dims"] = I32(r(0, 1))
    elif op == "scatter_nd":
        k = r(1, len(xs) + 1)
        ins = [r(1, 3), k]
        return ({"x": In("fp32", *xs), "u": In("fp32", ins[0], *xs[k:][: r(0, 9)])},
                {"data": "x", "indices": np.zeros(ins, I32), "updates": "u"}, v)
    elif op == "topk":
        p.update(k=I32(r(0, 5)), axis=I32(r(-len(xs) - 1, len(xs))))
    elif op == "one_hot":
        return {"i": In("int32", *xs)}, {"indices": "i", "one_hot_vector_size": I32(r(0, 3)), "axis": I32(r(-len(xs) - 2, len(xs) + 1))}, v
    elif op == "flatten2d":
        p.update(axis=I32(r(-len(xs) - 1, len(xs) + 1)))
    elif op == "upsample_bilinear":
        p.update(scale_factor_height=np.float32(rng.choice([0.5, 1.5, 2.7])), scale_factor_width=np.float32(rng.choice([1, 3.3])))
    elif op == "crop":
        p.update(crop_height=np.array([r(0, 2), r(0, 2)], I32), crop_width=np.array([r(0, 2), r(0, 2)], I32))
    elif op == "lstm":
        v, h, f = r(17, 18), r(1, 3), rng.choice([4, 4, 3])
        d = rng.choice(["forward", "bidirectional", "up"])
        x3 = [r(1, 3), r(1, 2), r(1, 3)]
        hw = {"weight_ih": np.ones((f * h, x3[2]), np.float16), "weight_hh": np.ones((f * h, h), np.float16)}
        extra = {"weight_ih_back": hw["weight_ih"], "weight_hh_back": hw["weight_hh"]} if d == "bidirectional" else {}
        return ({"x": In("fp16", *x3), "h": In("fp16", x3[1], h), "c": In("fp16", x3[1], h)},
                {"x": "x", "initial_h": "h", "initial_c": "c", **hw, **extra, "direction": d, "output_sequence": rng.random() < .5}, v)
    return {"x": In("fp16", *xs)}, p, v


RANDOM_OPS = ("max_pool", "avg_pool", "l2_pool", "conv_transpose", "pad", "gather", "scatter_nd", "topk", "one_hot", "flatten2d",
              "upsample_bilinear", "crop", "lstm")


@pytest.mark.parametrize("op", RANDOM_OPS)
def test_random_operands_read_as_coremltools_types_them(op):
    """Random operands, valid or not: what coremltools types, the reader types the same (its result dims
    declared '?'), or refuses only where coremltools infers a dim of 0 or less (a type no tensor has);
    what coremltools refuses, the reader refuses as no valid type."""
    from .test_mil_types import program

    rng = random.Random(op)
    for _ in range(60):
        inputs, params, version = _random_case(rng, op)
        try:
            prog = build(op, inputs, params, version)
        except Exception:
            prog = None
        if prog is None:
            text, _ = program(op, inputs, params, [MilType("fp16", (1,))], version, False)
            with pytest.raises(MilError, match="no valid type|unknown input"):
                parse_mil(text, "r.mil")
            continue
        results = [v for o in prog.functions["main"].operations if o.op_type != "const" for v in o.outputs]
        outs, names = [mil_type(v) for v in results], [v.name for v in results]
        try:
            got = infer_program(parse_mil(unknown_result_dims(program_text(prog)), "r.mil"))["main"]
        except MilError as e:
            assert any(not types.symbolic.is_symbolic(d) and d <= 0 for v in results for d in v.shape), (op, version, params, str(e))
            continue
        assert [(got[n].dtype, tuple(got[n].shape or ())) for n in names] == [(t.dtype, tuple(t.shape or ())) for t in outs], \
            (op, version, params)


_MASK = np.array([[1, 0, 1, 1], [0, 1, 0, 0], [1, 1, 0, 1]], np.uint8)
CONSTEXPR_SAMPLES = [*CONSTEXPR, ("constexpr_sparse_blockwise_shift_scale", {
    "data_mask": _MASK.astype(types.np_uint1_dtype), "nonzero_data": np.arange(-3, int(_MASK.sum()) - 3, dtype=np.int8),
    "scale": w(3, 2), "offset": np.ones((3, 2), np.int8)}), ("constexpr_sparse_to_dense", {
    "mask": _MASK.astype(types.np_uint1_dtype), "nonzero_data": w(int(_MASK.sum()))})]


@pytest.mark.parametrize("op", sorted(CONSTEXPRS))
def test_every_constexpr_op_reads_as_coremltools_types_it(op):
    """Each constexpr op built with the builder (iOS18), printed with its parameters as named consts: the
    reader's declared-equals-inferred check passes and each result has coremltools' type."""
    samples = [p for o, p in CONSTEXPR_SAMPLES if o == op]
    assert samples, f"{op}: no sample parameters (add one to CONSTEXPR_SAMPLES)"
    for params in samples:
        prog = Program()
        with Function({"x": mb.placeholder(shape=(1,), dtype=types.fp16)}, opset_version=TARGETS[18]) as f:
            out = getattr(mb, op)(**params, name="r")
            outs = list(out) if isinstance(out, (list, tuple)) else [out]
            f.set_outputs([f.inputs["x"]])
        prog.add_function("main", f)
        fn = parse_mil(program_text(prog), f"{op}.mil").main
        for v in outs:
            want = mil_type(v)
            assert fn.const_types[v.name] == want, (op, v.name)
            assert np.asarray(fn.consts[v.name]).shape == want.shape
