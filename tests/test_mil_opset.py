"""The opset test (issue 26, item 1): the reader's ops against coremltools' own op registry.

At test time the registry (``SSAOpRegistry``: core ops and dialect ops registered for iOS15..iOS18)
is enumerated. For every op the reader knows (``mil_types.SPECS``) that coremltools defines, each of
its samples is built with coremltools' MIL builder (``mb``) into a Program, printed as ``program(1.3)``
text the way coremltools holds it (every parameter a named ``const``, strings included:
``tests/mil_convert.program_text``), read with npubuild's reader, and every op result's type is
compared with the type coremltools inferred for it. The samples are the operands of the op-by-op
cases of ``tests/test_mil_types.py`` plus ``EXTRA`` below: inputs only, never expected types.

What cannot be checked this way is listed with the reason: ops the reader knows that are not in the
registry (``NOT_IN_REGISTRY``), and the registry's ops the reader does not know yet (``NOT_READ_YET``,
the rest of item 1). Both lists are compared with the registry as installed, so an op added to the
reader, or a coremltools that defines other ops, makes this test say what changed.
"""
from __future__ import annotations

import coremltools as ct
import numpy as np
import pytest
from coremltools.converters.mil import Builder as mb
from coremltools.converters.mil.mil import Function, Program, types
from coremltools.converters.mil.mil.ops.registry import SSAOpRegistry

from npubuild.ane.mil import parse_mil
from npubuild.ane.mil_model import MilType
from npubuild.ane.mil_types import SPECS, infer_program

from .mil_convert import program_text
from .test_mil_types import CASES, CONSTEXPR, F16, I32, In, mil_type, w, x

TARGETS = {15: ct.target.iOS15, 16: ct.target.iOS16, 17: ct.target.iOS17, 18: ct.target.iOS18}

#: ops the reader knows that coremltools' registry has not, and why
NOT_IN_REGISTRY = {
    "rms_norm": "npubuild's extension op (docs/ane.md): Core ML has none",
    "write_state": "the MIL text form of a state write; coremltools' builder spells it coreml_update_state",
}

#: registry ops (iOS15..iOS18) the reader does not type yet: each is refused as "not a MIL op npubuild knows"
NOT_READ_YET = {
    "affine", "argsort", "avg_pool", "band_part", "batch_to_space", "classify", "cond", "constexpr_lut_to_sparse",
    "conv_quantized", "conv_transpose", "crop", "crop_resize", "cumsum", "dequantize", "einsum", "fill", "fill_like",
    "flatten2d", "gather", "gather_along_axis", "gather_nd", "gru", "l2_pool", "list_gather", "list_length", "list_read",
    "list_scatter", "list_write", "lstm", "make_list", "max_pool", "non_maximum_suppression", "non_zero", "one_hot", "pad",
    "pixel_shuffle", "pixel_unshuffle", "random_bernoulli", "random_categorical", "random_normal", "random_uniform",
    "range_1d", "resample", "reshape_like", "resize", "resize_bilinear", "resize_nearest_neighbor", "reverse",
    "reverse_sequence", "rnn", "scatter", "scatter_along_axis", "scatter_nd", "shape", "slice_update", "sliding_windows",
    "space_to_batch", "topk", "upsample_bilinear", "upsample_nearest_neighbor", "while_loop",
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
]
SAMPLES: dict[str, list] = {}
for _case in (*CASES, *EXTRA):
    SAMPLES.setdefault(_case[0], []).append(_case)


def _is_input(v, inputs: dict) -> bool:
    return (isinstance(v, str) and v in inputs) or (isinstance(v, list) and bool(v) and all(isinstance(n, str) and n in inputs for n in v))


def build(op: str, inputs: dict, params: dict, version: int) -> Program:
    """One op with coremltools' builder on function inputs ``inputs``; its results are the outputs."""
    holders = {n: (mb.state_tensor_placeholder if i.state else mb.placeholder)(shape=i.shape, dtype=types.string_to_builtin(i.dtype))
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


def test_the_lists_match_the_registry():
    assert frontend_dialect() == FRONTEND_DIALECT
    reg = registry()
    known = set(SPECS)
    assert {op for op in known if op not in reg} == set(NOT_IN_REGISTRY)
    unknown = set(reg) - known - NOT_AN_OP - CONSTEXPRS
    assert unknown == NOT_READ_YET, (f"newly read (drop from NOT_READ_YET): {sorted(NOT_READ_YET - unknown)}; "
                                     f"in the registry, not read and not listed: {sorted(unknown - NOT_READ_YET)}")


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
        for o in fn.operations:
            if o.op_type == "const":
                continue
            for v in o.outputs:
                want = mil_type(v)
                got = inferred[v.name]
                assert (got.dtype, tuple(got.shape or ())) == (want.dtype, tuple(want.shape or ())), (op, version, v.name)


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
