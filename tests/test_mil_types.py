"""MIL type and shape inference (npubuild.ane.mil_types) checked against coremltools itself.

Every case builds one op twice: with coremltools' MIL builder (``mb``), whose ``var.shape`` /
``var.dtype`` are the reference, and as MIL text whose result is declared with that type. The
text must parse (npubuild infers the same type; the inferred types are also compared directly),
and the same text with a wrong declaration must fail at the op's file:line showing both types.
Cases coremltools refuses must be refused by npubuild too."""
from __future__ import annotations

from pathlib import Path

import coremltools as ct  # a dependency of npubuild (pyproject.toml): the reference these tests compare with
import numpy as np
import pytest
from coremltools.converters.mil import Builder as mb
from coremltools.converters.mil.mil import Function, types

from npubuild.ane.mil import MilError, load_mil, parse_mil
from npubuild.ane.mil_model import MilType
from npubuild.ane.mil_types import infer_program

OPSETS = {15: (ct.target.iOS15, "ios15"), 16: (ct.target.iOS16, "ios16"), 17: (ct.target.iOS17, "ios17"), 18: (ct.target.iOS18, "ios18")}
F16, F32, I32 = np.float16, np.float32, np.int32


class In:
    """A function input of the case (a tensor operand computed at run time)."""

    def __init__(self, dtype: str, *shape: int, state: bool = False):
        self.dtype, self.shape, self.state = dtype, shape, state


def literal(v) -> str:
    """A constant as MIL text (hex floats, so the value is exact)."""
    if isinstance(v, str):
        return f'string("{v}")'
    a = np.asarray(v)
    dt = {"float16": "fp16", "float32": "fp32", "int32": "int32", "bool": "bool", "uint32": "uint32", "int8": "int8",
          "uint8": "uint8", "int16": "int16", "uint16": "uint16"}[str(a.dtype)]
    if a.dtype.metadata and "true_dtype" in a.dtype.metadata:  # coremltools' sub-byte arrays: np_int4_dtype ...
        dt = types.builtin_to_string(a.dtype.metadata["true_dtype"])

    def one(x):
        return ("true" if x else "false") if dt == "bool" else (float(x).hex() if dt.startswith("fp") else str(int(x)))

    if a.ndim == 0:
        return f"{dt}({one(a.item())})"
    return f"tensor<{dt}, [{', '.join(map(str, a.shape))}]>([{', '.join(one(x) for x in a.reshape(-1).tolist())}])"


def mil_type(var) -> MilType:
    shape = tuple(-1 if types.symbolic.is_symbolic(d) else int(d) for d in var.shape)  # a symbol: '?'
    return MilType(types.builtin_to_string(var.dtype), shape)


def coreml_types(op: str, inputs: dict, params: dict, version: int) -> list[MilType]:
    """The result types coremltools' builder infers (raises whatever coremltools raises)."""
    holders = {n: (mb.state_tensor_placeholder if i.state else mb.placeholder)(shape=i.shape, dtype=types.string_to_builtin(i.dtype))
               for n, i in inputs.items()}
    with Function(holders, opset_version=OPSETS[version][0]) as f:
        def bind(v):
            if isinstance(v, str) and v in inputs:
                return f.inputs[v]
            if isinstance(v, list) and v and all(isinstance(x, str) and x in inputs for x in v):
                return [f.inputs[x] for x in v]
            return v

        out = getattr(mb, op)(**{k: bind(v) for k, v in params.items()}, name="r")
    return [mil_type(v) for v in (out if isinstance(out, (list, tuple)) else [out])]


def decl(t: MilType) -> str:
    return t.dtype if not t.shape else str(t)


def program(op: str, inputs: dict, params: dict, results: list[MilType], version: int, named: bool) -> str:
    """One function, the op on line 4 (with ``named``, constants are const() statements before it)."""
    sig = ", ".join(f"{'state<' if i.state else ''}tensor<{i.dtype}, [{', '.join(map(str, i.shape))}]>{'>' if i.state else ''} {n}"
                    for n, i in inputs.items())
    consts, args = [], []
    for k, v in params.items():
        if isinstance(v, str) and v in inputs:
            args.append(f"{k} = {v}")
        elif isinstance(v, list) and v and all(isinstance(x, str) and x in inputs for x in v):
            args.append(f"{k} = ({', '.join(v)})")
        elif named:
            lit = literal(v)
            t = lit.split("(", 1)[0] if not lit.startswith("tensor") else lit[: lit.index(">") + 1]
            consts.append(f"        {t} c_{k} = const()[val = {lit}];")
            args.append(f"{k} = c_{k}")
        else:
            args.append(f"{k} = {literal(v)}")
    names = [f"r{i}" for i in range(len(results))]
    lhs = ", ".join(f"{decl(t)} {n}" for t, n in zip(results, names))
    body = consts + [f"        {lhs} = {op}({', '.join(args)})[name = string(\"r\")];"]
    return (f"program(1.3)\n{{\n    func main<{OPSETS[version][1]}>({sig}) {{\n" + "\n".join(body)
            + f"\n    }} -> ({names[0]});\n}}\n"), 4 + len(consts)


def x(*shape, dtype="fp16"):
    return {"x": In(dtype, *shape)}


def w(*shape, dtype=F16, seed=0):
    return (np.random.default_rng(seed).standard_normal(shape)).astype(dtype)


# (op, inputs, params, opset version)
CASES = [
    ("add", {"x": In("fp16", 2, 1, 3), "y": In("fp16", 4, 3)}, {"x": "x", "y": "y"}, 18),
    ("sub", x(2, 3), {"x": "x", "y": F16(1.5)}, 18),
    ("mul", x(1, 64, 1, 1), {"x": "x", "y": w(64, 1, 1)}, 18),
    ("real_div", x(3, 1), {"x": "x", "y": w(1, 5)}, 18),
    ("maximum", x(4), {"x": "x", "y": w(3, 1)}, 18),
    ("minimum", {"x": In("int32", 2, 2), "y": In("int32", 2)}, {"x": "x", "y": "y"}, 15),
    ("floor_div", {"x": In("int32", 5), "y": In("int32", 1)}, {"x": "x", "y": "y"}, 18),
    ("pow", x(2, 3), {"x": "x", "y": F16(2)}, 18),
    ("equal", x(2, 3), {"x": "x", "y": w(3)}, 18),
    ("less", {"x": In("int32", 4, 1), "y": In("int32", 1, 5)}, {"x": "x", "y": "y"}, 18),
    ("logical_and", {"x": In("bool", 3), "y": In("bool", 2, 1)}, {"x": "x", "y": "y"}, 18),
    ("logical_not", x(3, dtype="bool"), {"x": "x"}, 18),
    ("relu", x(1, 64, 1, 1), {"x": "x"}, 18),
    ("sigmoid", x(2, 5), {"x": "x"}, 15),
    ("tanh", x(7, dtype="fp32"), {"x": "x"}, 18),
    ("silu", x(1, 1, 1, 128), {"x": "x"}, 18),
    ("exp", x(3, 3), {"x": "x"}, 18),
    ("erf", x(3), {"x": "x"}, 18),
    ("abs", x(4, dtype="int32"), {"x": "x"}, 18),
    ("softplus", x(2, 2), {"x": "x"}, 18),
    ("rsqrt", x(2, 2), {"x": "x", "epsilon": F16(1e-3)}, 15),
    ("rsqrt", x(2, 2), {"x": "x", "epsilon": F32(1e-3)}, 18),  # iOS17+: epsilon has its own domain
    ("clip", x(5), {"x": "x", "alpha": F16(-1), "beta": F16(2)}, 18),
    ("threshold", x(5, dtype="int32"), {"x": "x", "alpha": I32(3)}, 18),
    ("leaky_relu", x(2, 4), {"x": "x", "alpha": F16(0.25)}, 18),
    ("elu", x(2, 4), {"x": "x", "alpha": F32(1)}, 18),
    ("clamped_relu", x(3), {"x": "x", "alpha": F16(0.5), "beta": F16(4)}, 18),
    ("scaled_tanh", x(3), {"x": "x", "alpha": F16(0.5), "beta": F16(4)}, 15),
    ("prelu", x(1, 4, 3, 3), {"x": "x", "alpha": np.linspace(0, 1, 4).astype(F16)}, 18),
    ("softplus_parametric", x(1, 3, 2, 2), {"x": "x", "alpha": w(3), "beta": w(3, seed=1)}, 18),
    ("gelu", x(1, 8, 128), {"x": "x"}, 18),
    ("gelu", x(1, 8, 128), {"x": "x", "mode": "TANH_APPROXIMATION"}, 18),
    ("gelu", x(4), {"x": "x", "mode": "SIGMOID_APPROXIMATION"}, 15),
    ("softmax", x(1, 4, 1, 32), {"x": "x"}, 18),
    ("softmax", x(1, 64, 1, 1), {"x": "x", "axis": I32(1)}, 18),
    ("cast", x(1, 8, 2), {"x": "x", "dtype": "fp32"}, 18),
    ("cast", x(3, dtype="fp32"), {"x": "x", "dtype": "int32"}, 15),
    ("cast", x(3), {"x": "x", "dtype": "int8"}, 18),
    ("cast", x(3), {"x": "x", "dtype": "bool"}, 18),
    ("matmul", x(2, 3, 4), {"x": "x", "y": w(4, 5)}, 18),
    ("matmul", x(1, 1, 1, 64), {"x": "x", "y": w(128, 64), "transpose_y": True}, 18),
    ("matmul", {"x": In("fp16", 2, 1, 4, 3), "y": In("fp16", 5, 4, 6)}, {"x": "x", "y": "y", "transpose_x": True}, 18),
    ("matmul", x(64), {"x": "x", "y": w(3, 64, 8)}, 18),  # rank-1 x gains and loses a leading 1
    ("matmul", {"x": In("fp16", 1, 1, 1, 64), "y": In("fp16", 1, 64, 1, 64)}, {"x": "x", "y": "y", "transpose_y": True}, 18),
    ("matmul", x(2, 8), {"x": "x", "y": w(8, 3, dtype=F32)}, 18),  # iOS17+: a constant y of another dtype
    ("matmul", {"x": In("int32", 2, 3), "y": In("int32", 3, 2)}, {"x": "x", "y": "y", "transpose_x": False}, 16),
    ("linear", x(2, 3, 8), {"x": "x", "weight": w(5, 8), "bias": w(5)}, 18),
    ("linear", x(8), {"x": "x", "weight": w(5, 8)}, 15),
    ("conv", x(1, 64, 1, 1), {"x": "x", "weight": w(96, 64, 1, 1)}, 18),
    ("conv", x(1, 4, 9, 7), {"x": "x", "weight": w(8, 4, 3, 3), "strides": np.array([2, 2], I32), "pad_type": "same"}, 18),
    ("conv", x(1, 4, 9, 7), {"x": "x", "weight": w(8, 2, 3, 2), "pad_type": "custom", "pad": np.array([1, 2, 0, 3], I32),
                             "dilations": np.array([2, 1], I32), "groups": I32(2), "bias": w(8)}, 18),
    ("conv", x(1, 6, 10), {"x": "x", "weight": w(6, 1, 4), "groups": I32(6), "strides": np.array([3], I32), "pad_type": "valid"}, 18),
    ("conv", x(2, 3, 5, 5), {"x": "x", "weight": w(4, 3, 3, 3), "pad_type": "same_lower", "strides": np.array([2, 1], I32)}, 16),
    ("conv", {"x": In("fp16", 1, 3, 8, 8), "w": In("fp16", 5, 3, 2, 2)}, {"x": "x", "weight": "w", "pad_type": "valid"}, 18),
    ("reshape", x(1, 64, 1, 1), {"x": "x", "shape": np.array([1, 1, 1, 64], I32)}, 18),
    ("reshape", x(2, 3, 4), {"x": "x", "shape": np.array([-1, 4], I32)}, 18),
    ("reshape", x(2, 3, 4), {"x": "x", "shape": np.array([0, -1, 2], I32)}, 15),  # iOS15: 0 copies the dim at its index
    ("reshape", x(2, 3, 4), {"x": "x", "shape": np.array([6, 0], I32)}, 18),  # iOS17+: 0 counts from the right
    ("reshape", x(2, 3, 4), {"x": "x", "shape": np.array([0, 0, -1, 1], I32)}, 18),
    ("transpose", x(1, 4, 1, 16), {"x": "x", "perm": np.array([0, 3, 2, 1], I32)}, 18),
    ("transpose", x(2, 5), {"x": "x", "perm": np.array([-1, 0], I32)}, 18),
    ("squeeze", x(1, 64, 1, 1), {"x": "x"}, 18),
    ("squeeze", x(1, 64, 1, 1), {"x": "x", "axes": np.array([0, -1], I32)}, 18),
    ("squeeze", x(1, 64, 1, 1), {"x": "x", "axes": np.array([1], I32)}, 18),  # a non-1 axis stays, as coremltools keeps it
    ("expand_dims", x(3, 4), {"x": "x", "axes": np.array([0, -1], I32)}, 18),
    ("concat", {"a": In("fp16", 1, 64, 1, 1), "b": In("fp16", 1, 32, 1, 1)}, {"values": ["a", "b"], "axis": I32(1)}, 18),
    ("concat", {"a": In("fp16", 2, 3), "b": In("fp16", 2, 3)}, {"values": ["a", "b"], "axis": I32(-1), "interleave": True}, 18),
    ("split", x(1, 64, 1, 1), {"x": "x", "num_splits": I32(4), "axis": I32(1)}, 18),
    ("split", x(2, 10), {"x": "x", "split_sizes": np.array([3, 7], I32), "axis": I32(-1)}, 18),
    ("stack", {"a": In("fp16", 2, 3), "b": In("fp16", 2, 3)}, {"values": ["a", "b"], "axis": I32(1)}, 18),
    ("tile", x(2, 3), {"x": "x", "reps": np.array([2, 1], I32)}, 18),
    ("slice_by_index", x(4, 10, 6), {"x": "x", "begin": np.array([1, 2, 0], I32), "end": np.array([3, -1, 6], I32),
                                     "stride": np.array([1, 3, 2], I32), "end_mask": np.array([False, False, True])}, 18),
    ("slice_by_index", x(4, 10), {"x": "x", "begin": np.array([1, 0], I32), "end": np.array([2, 10], I32),
                                  "squeeze_mask": np.array([True, False])}, 18),
    ("slice_by_size", x(4, 10, 6), {"x": "x", "begin": np.array([1, 2, 0], I32), "size": np.array([2, -1, 6], I32)}, 18),
    ("slice_by_size", x(3, 5, dtype="int32"), {"x": "x", "begin": np.array([0, 1], I32), "size": np.array([3, 2], I32)}, 15),
    ("slice_by_size", {"x": In("fp16", 4, 10), "b": In("int32", 2)}, {"x": "x", "begin": "b", "size": np.array([2, 3], I32)}, 18),
    ("slice_by_size", {"x": In("fp16", 4, 10), "b": In("int32", 2)}, {"x": "x", "begin": "b", "size": np.array([2, -1], I32)}, 18),
    ("slice_by_size", {"x": In("fp16", 4, 10), "s": In("int32", 2)}, {"x": "x", "begin": np.array([0, 0], I32), "size": "s"}, 17),
    ("depth_to_space", x(1, 8, 3, 5), {"x": "x", "block_size": I32(2)}, 18),
    ("depth_to_space", x(2, 9, 2, 2, dtype="fp32"), {"x": "x", "block_size": I32(3)}, 15),
    ("space_to_depth", x(1, 3, 4, 6), {"x": "x", "block_size": I32(2)}, 18),
    ("space_to_depth", x(2, 1, 6, 3, dtype="fp32"), {"x": "x", "block_size": I32(3)}, 16),
    ("quantize", x(2, 3, 4), {"input": "x", "scale": F16(0.5), "output_dtype": "int8"}, 18),
    ("quantize", x(2, 3, 4), {"input": "x", "scale": F16(0.5), "zero_point": np.uint8(3), "output_dtype": "uint8"}, 17),
    ("quantize", x(2, 3, 4, dtype="fp32"), {"input": "x", "scale": w(3, dtype=F32), "zero_point": np.arange(3, dtype=np.int8),
                                            "axis": I32(1), "output_dtype": "int8"}, 18),
    ("quantize", x(2, 3, 4), {"input": "x", "scale": np.array([0.5, 2, 1, 4], F16), "axis": I32(-1), "output_dtype": "uint8"}, 18),
    ("reduce_sum", x(2, 3, 4), {"x": "x", "axes": np.array([1], I32), "keep_dims": True}, 18),
    ("reduce_mean", x(2, 3, 4), {"x": "x"}, 18),  # every axis: a scalar
    ("reduce_max", x(2, 3, 4), {"x": "x", "axes": np.array([-1, 0], I32)}, 15),
    ("reduce_l2_norm", x(5, 6), {"x": "x", "axes": np.array([0], I32)}, 18),
    ("reduce_argmax", x(5, 6), {"x": "x", "axis": I32(0)}, 18),
    ("reduce_argmin", x(5, 6), {"x": "x", "keep_dims": True, "output_dtype": "uint16"}, 18),
    ("layer_norm", x(1, 8, 64), {"x": "x", "axes": np.array([-1], I32), "gamma": w(64), "beta": w(64, seed=2),
                                 "epsilon": F16(1e-5)}, 18),
    ("layer_norm", x(2, 3), {"x": "x", "axes": np.array([0, 1], I32), "gamma": w(2, 3)}, 15),
    ("batch_norm", x(1, 3, 4, 4), {"x": "x", "mean": w(3), "variance": w(3, seed=4) ** 2}, 18),
    ("instance_norm", x(1, 3, 4, 4), {"x": "x", "gamma": w(3)}, 18),
    ("l2_norm", x(1, 3, 4), {"x": "x"}, 18),
    ("select", {"c": In("bool", 3, 1), "a": In("fp16", 4), "b": In("fp16", 1)}, {"cond": "c", "a": "a", "b": "b"}, 18),
    ("scaled_dot_product_attention", {"q": In("fp16", 1, 2, 5, 8), "k": In("fp16", 1, 2, 7, 8), "v": In("fp16", 1, 2, 7, 3)},
     {"query": "q", "key": "k", "value": "v"}, 18),
    ("read_state", {"s": In("fp16", 1, 8, state=True)}, {"input": "s"}, 18),
    ("coreml_update_state", {"s": In("fp16", 1, 8, state=True), "v": In("fp16", 1, 8)}, {"state": "s", "value": "v"}, 18),
    ("identity", x(2, 2), {"x": "x"}, 18),
]


def _id(case):
    op, inputs, params, version = case
    return f"{op}-ios{version}-" + "-".join(k for k in params if k not in ("x", "y"))


def wrong(t: MilType) -> MilType:
    """Another type: one more in the last dimension, or another dtype for a scalar."""
    if t.shape and t.shape[-1] >= 0:
        return MilType(t.dtype, t.shape[:-1] + (t.shape[-1] + 1,))
    if t.shape:  # an unknown last dimension matches any: another dtype
        return MilType("fp32" if t.dtype != "fp32" else "fp16", t.shape)
    return MilType("fp32" if t.dtype != "fp32" else "fp16", t.shape)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_inferred_types_are_coremltools_types(case):
    op, inputs, params, version = case
    want = coreml_types(op, inputs, params, version)
    for named in (False, True):  # constants inline, then as const() statements
        text, line = program(op, inputs, params, want, version, named)
        prog = parse_mil(text, "t.mil")
        inferred = infer_program(prog)["main"]
        assert [inferred[f"r{i}"] for i in range(len(want))] == [MilType(t.dtype, t.shape or None) if not t.shape else t
                                                                  for t in want], text
    bad = [wrong(want[0])] + want[1:]
    text, line = program(op, inputs, params, bad, version, False)
    with pytest.raises(MilError) as e:
        parse_mil(text, "t.mil")
    msg = str(e.value)
    assert msg.startswith(f"t.mil:{line}: {op} 'r0'") and f"declared {decl(bad[0])} but MIL infers {decl(want[0])}" in msg, msg


# (op, inputs, params, version, what npubuild says): coremltools refuses these too
INVALID = [
    ("matmul", x(1, 64, 1, 1), {"x": "x", "y": w(128, 64), "transpose_y": True}, 18,
     "x [1, 64, 1, 1] and y [128, 64] with transpose_y do not multiply: x's columns are 1, y's rows 64"),
    ("add", {"x": In("fp16", 1, 64, 1, 1), "y": In("fp16", 1, 32, 1, 1)}, {"x": "x", "y": "y"}, 18, "do not broadcast"),
    ("add", {"x": In("fp16", 3), "y": In("fp32", 3)}, {"x": "x", "y": "y"}, 18, "'y' is fp32 but 'x' is fp16"),
    ("relu", x(3), {"x": "x", "alpha": F16(1)}, 18, "unknown input 'alpha'"),
    ("gelu", x(3), {"x": "x", "mode": "FAST"}, 18, "mode 'FAST' is not one of"),
    ("conv", x(1, 6, 5, 5), {"x": "x", "weight": w(4, 4, 1, 1), "groups": I32(2)}, 18, "weight's dim 1 must be 3"),
    ("conv", x(1, 6, 5, 5), {"x": "x", "weight": w(4, 3, 1, 1), "groups": I32(2), "pad_type": "same_lower"}, 15,
     "pad_type 'same_lower' is not one of valid, same, custom (iOS15)"),
    ("reshape", x(2, 3), {"x": "x", "shape": np.array([4, 2], I32)}, 18, "x [2, 3] has 6 values but shape [4, 2] holds 8"),
    ("reshape", x(2, 3), {"x": "x", "shape": np.array([0, -1, 1], I32)}, 15, "shape [0, -1, 1] holds 0, so it must have x's rank 2"),
    ("transpose", x(2, 3), {"x": "x", "perm": np.array([0, 1, 2], I32)}, 18, "is not a permutation"),
    ("concat", {"a": In("fp16", 2, 3), "b": In("fp16", 3, 3)}, {"values": ["a", "b"], "axis": I32(1)}, 18, "differ in dimension 0"),
    ("linear", x(2, 7), {"x": "x", "weight": w(5, 8)}, 18, "x's last dimension (7) is not weight's D_in (8"),
    ("layer_norm", x(2, 8), {"x": "x", "axes": np.array([-1], I32), "gamma": w(4)}, 18, "gamma is [4]; it must be [8]"),
    ("split", x(2, 10), {"x": "x", "num_splits": I32(3), "axis": I32(1)}, 18, "num_splits 3 does not divide dimension 1"),
    ("cast", x(3), {"x": "x", "dtype": "int8"}, 15, "dtype 'int8' is not one of fp16, fp32, int32, bool (iOS15)"),
    ("softmax", x(3, 2), {"x": "x", "axis": F16(1)}, 18, "'axis' is the literal of type fp16; softmax takes int32 there"),
    ("read_state", x(1, 8), {"input": "x"}, 18, "it must be a state"),
    ("matmul", x(3), {"x": "x", "y": w(3, 2), "transpose_x": True}, 18, "x is rank 1, so transpose_x cannot be true"),
    ("prelu", x(1, 4, 3), {"x": "x", "alpha": w(3)}, 18, "alpha has shape [3]; it needs one value per channel ([4])"),
    ("scaled_dot_product_attention", {"q": In("fp16", 1, 5, 8), "k": In("fp16", 1, 7, 4), "v": In("fp16", 1, 7, 3)},
     {"query": "q", "key": "k", "value": "v"}, 18, "the query and key embedding differ (8 vs 4)"),
    ("slice_by_size", x(4, 10), {"x": "x", "begin": np.array([0, 0, 0], I32), "size": np.array([1, 1, 1], I32)}, 18,
     "begin has 3 values; x [4, 10] has rank 2"),
    ("slice_by_size", x(4, 10), {"x": "x", "begin": np.array([0, 0], F16), "size": np.array([1, 1], I32)}, 18,
     "'begin' is the literal of type tensor<fp16, [2]>; slice_by_size takes int8, int16, int32 there"),
    ("slice_by_size", x(4, 10), {"x": "x", "begin": np.array([0, 0], I32), "size": np.array([1, 1], np.int8)}, 18,
     "'size' is int8 but 'begin' is int32"),
    ("depth_to_space", x(1, 8, 3), {"x": "x", "block_size": I32(2)}, 18, "x [1, 8, 3] must have rank 4"),
    ("depth_to_space", x(1, 8, 3, 3, dtype="int32"), {"x": "x", "block_size": I32(2)}, 18, "depth_to_space takes fp16, fp32 there"),
    ("space_to_depth", x(1, 8, 3), {"x": "x", "block_size": I32(2)}, 18, "x [1, 8, 3] must have rank 4"),
    ("quantize", x(2, 3), {"input": "x", "scale": F16(0.5), "output_dtype": "int32"}, 18, "output_dtype 'int32' is not uint8 or int8"),
    ("quantize", x(2, 3), {"input": "x", "scale": F16(0.5), "zero_point": np.int8(0), "output_dtype": "uint8"}, 18,
     "zero_point is int8 but output_dtype is uint8"),
    ("quantize", x(2, 3), {"input": "x", "scale": F16(0), "output_dtype": "int8"}, 18, "scale is 0"),
    ("quantize", x(2, 3), {"input": "x", "scale": w(3), "output_dtype": "int8"}, 18, "scale is a vector, so axis is needed"),
    ("quantize", x(2, 3), {"input": "x", "scale": w(2), "axis": I32(1), "output_dtype": "int8"}, 18,
     "scale is [2]; it must be [3], input's dim 1"),
    ("quantize", x(2, 3), {"input": "x", "scale": F16(1), "axis": I32(1), "output_dtype": "int8"}, 18,
     "axis is given but scale is a scalar"),
    ("gather", {"x": In("fp16", 5, 4), "i": In("int32", 3)}, {"x": "x", "indices": "i", "axis": I32(2)}, 18,
     "axis 2 is out of range for x [5, 4]"),
    ("gather", {"x": In("fp16", 5, 4), "i": In("int16", 3)}, {"x": "x", "indices": "i"}, 15,
     "'indices' is 'i' of type tensor<int16, [3]>; gather takes int32 there (iOS15)"),
    ("gather", x(5, 4), {"x": "x", "indices": np.array([1, 5], I32), "validate_indices": True}, 18,
     "validate_indices is true but indices [1, 5] reach outside [0, 5)"),
    ("gather_along_axis", {"x": In("fp16", 5, 4), "i": In("int32", 5, 4, 1)}, {"x": "x", "indices": "i"}, 18,
     "x [5, 4] and indices [5, 4, 1] must have the same rank"),
    ("scatter", {"d": In("fp16", 4, 5), "i": In("int32", 2), "u": In("fp16", 2, 4)},
     {"data": "d", "indices": "i", "updates": "u", "axis": I32(1)}, 18, "updates is [2, 4]; it must be [4, 2]"),
    ("max_pool", x(1, 3, 8, 8), {"x": "x", "kernel_sizes": np.array([2, 2], I32), "pad_type": "same", "ceil_mode": True}, 18,
     "ceil_mode must be false with pad_type same"),
    ("avg_pool", x(1, 3, 8, 8), {"x": "x", "kernel_sizes": np.array([2, 2], I32), "pad_type": "same_lower"}, 15,
     "pad_type same_lower is not in iOS15's pools"),
    ("pad", x(2, 5), {"x": "x", "pad": np.array([1, 2], I32), "mode": "edge"}, 18,
     "mode 'edge' is not one of constant, reflect, replicate"),
    ("topk", x(2, 5), {"x": "x", "k": I32(6)}, 18, "k 6 is larger than dimension -1 of x [2, 5]"),
    ("topk", x(2, 5), {"x": "x", "k": I32(2), "output_indices_dtype": "int8"}, 18,
     "output_indices_dtype 'int8' is not int32 or uint16"),
    ("cumsum", x(2, 5), {"x": "x", "axis": I32(-2)}, 18, "axis -2 must be in [-1, 1]"),
    ("one_hot", {"i": In("int32", 3)}, {"indices": "i", "one_hot_vector_size": I32(4), "on_value": F16(1),
                                        "off_value": I32(0)}, 18, "'off_value' is int32 but 'on_value' is fp16"),
    ("einsum", {"a": In("fp16", 2, 3, 4), "b": In("fp16", 4, 3, 5)}, {"values": ["a", "b"], "equation": "abc,cbd->adb"}, 18,
     "equation 'abc,cbd->adb' is not one coremltools takes"),
    ("crop_resize", {"x": In("fp16", 2, 3, 8, 8), "b": In("fp16", 4, 5)},
     {"x": "x", "boxes": "b", "box_indices": np.array([0, 1, 0, 1], I32)}, 18, "boxes [4, 5] must be [N, 4]"),
    ("lstm", {"x": In("fp32", 5, 2, 4), "h": In("fp32", 2, 3), "c": In("fp32", 2, 3)},
     {"x": "x", "initial_h": "h", "initial_c": "c", "weight_ih": w(12, 4, dtype=F32), "weight_hh": w(12, 3, dtype=F32),
      "direction": "sideways"}, 18, "direction 'sideways' is not one of forward, reverse, bidirectional"),
    ("gru", {"x": In("fp16", 5, 2, 4), "h": In("fp16", 2, 3)},
     {"x": "x", "initial_h": "h", "weight_ih": w(9, 4), "weight_hh": w(9, 3)}, 15,
     "'x' is 'x' of type tensor<fp16, [5, 2, 4]>; gru takes fp32 there (iOS15)"),
    ("resize", x(1, 3, 4, 5), {"x": "x", "shape": np.array([6, 0], I32), "resized_dims": np.uint32(3)}, 18,
     "resized_dims 3 exceeds shape's 2 values"),
    ("dequantize", x(2, 3, dtype="int8"), {"input": "x", "scale": w(2), "axis": I32(1)}, 18,
     "scale is [2]; it must be [3], input's dim 1"),
    ("random_normal", {}, {"shape": np.array([2, 3], I32), "mean": F16(0)}, 18, "mean is fp16 but stddev fp32"),
    ("gather", {"x": In("fp16", 5, 4), "i": In("int32", 5, 3)}, {"x": "x", "indices": "i", "batch_dims": I32(1)}, 15,
     "unknown input 'batch_dims'"),  # from iOS16
    ("gather", {"x": In("fp16", 5, 4), "i": In("int32", 3)}, {"x": "x", "indices": "i", "validate_indices": True}, 16,
     "unknown input 'validate_indices'"),  # from iOS17
    ("topk", x(2, 5), {"x": "x", "k": I32(2), "return_indices": False, "output_indices_dtype": "int32"}, 18,
     "output_indices_dtype is only for return_indices true"),
    ("slice_update", {"x": In("fp16", 4, 6), "u": In("fp16", 2, 2)},
     {"x": "x", "update": "u", "begin": np.array([1, 0], I32), "end": np.array([3, 6], I32), "stride": np.array([1, 2], I32)}, 18,
     "update is [2, 2]; the slice is [2, 3]"),
    ("conv_transpose", x(1, 4, 5, 5), {"x": "x", "weight": w(4, 3, 3, 3), "bias": w(4)}, 18,
     "bias is [4]; it needs one value per output channel (3)"),
    ("non_maximum_suppression", {"b": In("fp16", 2, 10, 4), "s": In("fp16", 2, 10, 3)},
     {"boxes": "b", "scores": "s", "iou_threshold": F16(0.5), "score_threshold": F16(0.1), "max_boxes": I32(4)}, 18,
     "unknown input 'score_threshold'"),  # iOS17 dropped it
]


@pytest.mark.parametrize("case", INVALID, ids=[_id(c[:4]) for c in INVALID])
def test_what_coremltools_refuses_is_refused(case):
    op, inputs, params, version, message = case
    with pytest.raises(Exception):
        coreml_types(op, inputs, params, version)
    text, line = program(op, inputs, params, [MilType("fp16", (1,))], version, False)
    with pytest.raises(MilError) as e:
        parse_mil(text, "t.mil")
    msg = str(e.value)
    assert msg.startswith(f"t.mil:{line}: {op} 'r0': declared tensor<fp16, [1]> but MIL infers no valid type (") and message in msg, msg


CONSTEXPR = [
    ("constexpr_blockwise_shift_scale", {"data": np.arange(-8, 16).reshape(4, 6).clip(-8, 7).astype(types.np_int4_dtype),
                                         "scale": w(2, 3), "offset": np.ones((2, 3), types.np_int4_dtype)}),
    ("constexpr_blockwise_shift_scale", {"data": np.arange(24, dtype=np.uint8).reshape(4, 6), "scale": w(4, 1, dtype=F32)}),
    ("constexpr_affine_dequantize", {"quantized_data": np.arange(12, dtype=np.int8).reshape(3, 4), "zero_point": np.int8(1),
                                     "scale": w(4), "axis": I32(1)}),
    ("constexpr_lut_to_dense", {"indices": (np.arange(12).reshape(3, 4) % 4).astype(types.np_uint2_dtype), "lut": w(1, 2, 4, 1)}),
    ("constexpr_lut_to_dense", {"indices": (np.arange(12).reshape(3, 4) % 2).astype(types.np_uint1_dtype), "lut": w(3, 1, 2, 2),
                                "vector_axis": I32(0)}),
    ("constexpr_cast", {"source_val": w(2, 5), "output_dtype": "fp32"}),
]


@pytest.mark.parametrize("op, params", CONSTEXPR, ids=[f"{c[0]}-{i}" for i, c in enumerate(CONSTEXPR)])
def test_constexpr_result_types_are_coremltools_types(op, params):
    want = coreml_types(op, {}, params, 18)[0]
    args = ", ".join(f"{k} = {literal(v)}" for k, v in params.items())

    def text(t):
        return ("program(1.3)\n{\n    func main<ios18>(tensor<fp16, [1]> x) {\n"
                f"        {t} c = {op}({args})[name = string(\"c\")];\n"
                "        tensor<fp16, [1]> y = relu(x = x)[name = string(\"y\")];\n    } -> (y);\n}\n")

    fn = parse_mil(text(str(want)), "k.mil").main
    assert fn.const_types["c"] == want and fn.consts["c"].shape == want.shape
    with pytest.raises(MilError) as e:
        parse_mil(text(str(wrong(want))), "k.mil")
    assert str(e.value).startswith(f"k.mil:4: {op} 'c': declared {wrong(want)} but MIL infers {want}"), str(e.value)


def test_an_fp32_default_parameter_beside_fp16_reads_as_coremltools_writes_it():
    """coremltools' builder writes an omitted float parameter as an fp32 const without checking its domain
    (batch_norm's epsilon beside fp16 mean); an fp32 tensor or a required input there is still refused."""
    inputs, params = x(1, 3, 4, 4), {"x": "x", "mean": w(3), "variance": w(3, seed=4) ** 2}
    want = coreml_types("batch_norm", inputs, params, 18)
    text, line = program("batch_norm", inputs, {**params, "epsilon": F32(1e-5)}, want, 18, True)
    assert infer_program(parse_mil(text, "t.mil"))["main"]["r0"] == want[0]
    for bad in ({**params, "gamma": w(3, dtype=F32)}, {**params, "mean": w(3, dtype=F32)}):
        with pytest.raises(Exception):
            coreml_types("batch_norm", inputs, bad, 18)
        text, line = program("batch_norm", inputs, bad, want, 18, True)
        with pytest.raises(MilError, match=f"^t.mil:{line}: batch_norm 'r0': .*(is fp32 but 'mean' is fp16|is fp16 but 'mean' is fp32)"):
            parse_mil(text, "t.mil")


@pytest.mark.parametrize("op, params, message", [
    ("resize_nearest_neighbor", {"x": "x", "target_size_height": I32(-2), "target_size_width": I32(3)},
     "target_size_height -2 is negative; a size is 0 or more"),
    ("topk", {"x": "x", "k": I32(-2)}, "k -2 is negative"),
])
def test_negative_sizes_coremltools_takes_are_refused(op, params, message):
    """coremltools infers a negative dim from a negative constant size (a type no tensor has); the reader
    refuses the op at its line."""
    want = coreml_types(op, x(1, 3, 4, 5), params, 18)
    assert any(d < -1 for t in want for d in t.shape)
    text, line = program(op, x(1, 3, 4, 5), params, [MilType(t.dtype, (1,)) for t in want], 18, False)
    with pytest.raises(MilError, match=f"^t.mil:{line}: {op} 'r0'"):
        parse_mil(text, "t.mil")
    with pytest.raises(MilError) as e:
        parse_mil(text, "t.mil")
    assert message in str(e.value)


def test_quantize_is_an_ios17_op():
    params = {"input": "x", "scale": F16(0.5), "output_dtype": "int8"}
    with pytest.raises(Exception):
        coreml_types("quantize", x(2, 3), params, 16)
    text, line = program("quantize", x(2, 3), params, [MilType("int8", (2, 3))], 16, False)
    with pytest.raises(MilError, match=f"^t.mil:{line}: quantize 'r0': quantize is an iOS17 op; function 'main' has opset ios16"):
        parse_mil(text, "t.mil")
    parse_mil(text.replace("<ios16>", "<ios17>"), "t.mil")


def test_the_seeds_hwx_shapes_are_not_mil():
    """The seed's SwiGLU wrote [1, 64, 1, 1] x [128, 64]^T (HWX: one vector in two layouts); MIL
    refuses it, naming the line, the op, its result and both operands."""
    text = """program(1.3)
{
    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> xn, tensor<fp16, [128, 64]> Wu) {
        tensor<fp16, [1, 1, 1, 128]> u = matmul(x = xn, y = Wu, transpose_y = bool(true))[name = string("u")];
    } -> (u);
}"""
    with pytest.raises(MilError) as e:
        parse_mil(text, "swiglu.mil")
    assert str(e.value) == ("swiglu.mil:4: matmul 'u': declared tensor<fp16, [1, 1, 1, 128]> but MIL infers no valid type "
                            "(x [1, 64, 1, 1] and y [128, 64] with transpose_y do not multiply: x's columns are 1, y's rows 64)")
    silu = text.replace("tensor<fp16, [128, 64]> Wu", "tensor<fp16, [1, 1, 1, 128]> g").replace(
        "tensor<fp16, [1, 1, 1, 128]> u = matmul(x = xn, y = Wu, transpose_y = bool(true))[name = string(\"u\")];",
        "tensor<fp16, [1, 128, 1, 1]> u = silu(x = g)[name = string(\"u\")];")
    with pytest.raises(MilError, match=r"swiglu.mil:4: silu 'u': declared tensor<fp16, \[1, 128, 1, 1\]> but MIL infers "
                                       r"tensor<fp16, \[1, 1, 1, 128\]> \(x tensor<fp16, \[1, 1, 1, 128\]>\)"):
        parse_mil(silu, "swiglu.mil")


def test_unknown_ops_and_opsets_and_the_extension_op():
    base = """program(1.3)
{
    func main<ios18>(tensor<fp16, [1, 64]> x) {
        tensor<fp16, [1, 64]> y = OP[name = string("y")];
    } -> (y);
}"""
    with pytest.raises(MilError) as e:
        parse_mil(base.replace("OP", "sigmod(x = x)"), "u.mil")
    assert str(e.value) == "u.mil:4: sigmod 'y': 'sigmod' is not a MIL op npubuild knows (did you mean 'sigmoid'?)"
    with pytest.raises(MilError, match=r"u.mil:3: unknown opset 'ios99' of function 'main'"):
        parse_mil(base.replace("OP", "relu(x = x)").replace("ios18", "ios99"), "u.mil")
    rms = base.replace("OP", "rms_norm(x = x, eps = fp16(0.001))")
    prog = parse_mil(rms, "u.mil")
    assert prog.extensions == {"rms_norm": [4]} and prog.uses_extension_ops
    assert not parse_mil(base.replace("OP", "relu(x = x)"), "u.mil").uses_extension_ops
    with pytest.raises(MilError) as e:  # a program that must be pure MIL cannot hide it
        parse_mil(rms, "u.mil", pure=True)
    assert str(e.value).startswith("u.mil:4: rms_norm 'y': 'rms_norm' is an npubuild extension op, not MIL")
    with pytest.raises(MilError, match="'w' is 'w' of type tensor<fp32, \\[64\\]>; rms_norm takes fp16 there|'w' is fp32 but 'x' is fp16"):
        parse_mil(rms.replace("(tensor<fp16, [1, 64]> x)", "(tensor<fp16, [1, 64]> x, tensor<fp32, [64]> w)").replace(
            "eps = fp16(0.001)", "w = w"), "u.mil")


def test_unknown_dimensions_match_and_are_refined():
    text = """program(1.3)
{
    func main<ios18>(tensor<fp16, [?, 64]> x) {
        tensor<fp16, [?, 32]> y = linear(x = x, weight = W)[name = string("y")];
        tensor<fp16, [3, ?]> z = relu(x = y)[name = string("z")];
        tensor<fp16, [?]> s = reduce_sum(x = z, axes = tensor<int32, [1]>([1]))[name = string("s")];
    } -> (s);
}"""
    weight = "tensor<fp16, [32, 64]>(" + "[" + ", ".join(["0"] * 2048) + "])"
    prog = parse_mil(text.replace("weight = W", f"weight = {weight}"), "q.mil")
    got = infer_program(prog)["main"]
    assert got["y"] == MilType("fp16", (-1, 32)) and got["z"] == MilType("fp16", (3, 32)) and got["s"] == MilType("fp16", (3,))
    with pytest.raises(MilError, match=r"q.mil:6: reduce_sum 's': declared tensor<fp16, \[\?, 1\]> but MIL infers tensor<fp16, \[3\]>"):
        parse_mil(text.replace("weight = W", f"weight = {weight}").replace("[?]> s", "[?, 1]> s"), "q.mil")


SAMPLES_DIR = Path(__file__).parent / "data" / "mil_samples"


@pytest.mark.parametrize("path", sorted(SAMPLES_DIR.glob("*.mil")), ids=lambda p: p.name)
def test_real_world_mil_samples_read(path):
    """MIL text written by Apple's tools (sources in data/mil_samples/README.md) reads: every op's declared
    type is the one MIL infers, and every op result has a type."""
    prog = load_mil(path)
    for name, types_ in infer_program(prog).items():
        fn = prog.functions[name]
        assert {r for op in fn.ops for r, _ in op.results} <= set(types_)
