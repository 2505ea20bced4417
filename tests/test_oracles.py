"""Hand-computed cases for every op's oracle.

Each expected value is a literal worked out by hand, or comes from a plain Python
``math`` loop written here, never from the NumPy expression the oracle uses. Every
case also checks that ``op.infer`` predicts the oracle's output shape and that
the output has the dtype the op's signature promises.
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field

import ml_dtypes  # noqa: F401  (NumPy knows "bfloat16" once it is imported)
import numpy as np
import pytest

from npubuild.ops import REGISTRY, normalize_attrs
from npubuild.ops.quant import (
    int8_matmul_accumulate,
    quantize_per_col,
    quantize_per_row,
)
from npubuild.ops.registry import NUMPY_DTYPE

INF = float("inf")


@dataclass
class Case:
    op: str
    inputs: list
    expected: object
    attrs: dict = field(default_factory=dict)
    dtype: str = "f32"
    tol: float = 1e-6

    @property
    def id(self) -> str:
        extra = ",".join(f"{k}={v}" for k, v in self.attrs.items())
        return f"{self.op}-{self.dtype}" + (f"-{extra}" if extra else "")


CASES: list[Case] = []


def case(op, inputs, expected, attrs=None, dtype="f32", tol=1e-6):
    CASES.append(Case(op, inputs, expected, dict(attrs or {}), dtype, tol))


# ---- plain-Python helpers (independent of the oracles) ----------------------------------


def f32(x: float) -> float:
    """Round a Python float to float32 (exact emulation of one f32 operation)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def sigmoid(v):
    return 1.0 / (1.0 + math.exp(-v))


def softmax(v):
    m = max(v)
    e = [math.exp(x - m) for x in v]
    return [x / sum(e) for x in e]


def mapf(fn, xs):
    return [fn(x) for x in xs]


# ==== elementwise: unary ===================================================================

X = [-2.0, -0.5, 0.0, 1.5]
case("relu", [X], [0.0, 0.0, 0.0, 1.5])
case("relu", [[-3, 0, 4]], [0, 0, 4], dtype="i32")
case("neg", [X], [2.0, 0.5, 0.0, -1.5])
case("neg", [[-128 + 1, 5]], [127, -5], dtype="i8")
case("abs", [X], [2.0, 0.5, 0.0, 1.5])
case("abs", [[-7, 3]], [7, 3], dtype="i64")
case("exp", [X], mapf(math.exp, X))
case("log", [[0.5, 1.0, 4.0]], [math.log(0.5), 0.0, math.log(4.0)])
case("sqrt", [[0.25, 4.0, 9.0]], [0.5, 2.0, 3.0])
case("rsqrt", [[0.25, 4.0]], [2.0, 0.5])
case("tanh", [X], mapf(math.tanh, X))
case("recip", [[2.0, -0.5, 4.0]], [0.5, -2.0, 0.25])
case("sigmoid", [X], mapf(sigmoid, X))
case("silu", [X], [v * sigmoid(v) for v in X])
case("gelu", [[1.0, -1.0]], [0.8413447460685429, -0.15865525393145707])
case("gelu", [[1.0, -1.0]], [0.8411919906082768, -0.15880800939172324], {"approximate": "tanh"})
case("floor", [[-1.5, -0.5, 0.5, 2.0]], [-2.0, -1.0, 0.0, 2.0])
case("ceil", [[-1.5, -0.5, 0.5, 2.0]], [-1.0, -0.0, 1.0, 2.0])
case("round", [[-2.5, -0.5, 0.5, 1.5, 2.5, 2.6]], [-2.0, -0.0, 0.0, 2.0, 2.0, 3.0])
case("sign", [X], [-1.0, -1.0, 0.0, 1.0])
case("sign", [[-9, 0, 3]], [-1, 0, 1], dtype="i32")
case("softplus", [[-2.0, 0.0, 1.5, 100.0]], [math.log1p(math.exp(-2.0)), math.log(2.0), math.log1p(math.exp(1.5)), 100.0])
case("elu", [[-1.0, 0.0, 2.0]], [2.0 * (math.exp(-1.0) - 1.0), 0.0, 2.0], {"alpha": 2.0})
case("hard_sigmoid", [[-3.0, 0.0, 1.0, 3.0]], [0.0, 0.5, 0.7, 1.0])
case("leaky_relu", [[-2.0, 0.0, 1.5]], [f32(f32(0.2) * -2.0), 0.0, 1.5], {"alpha": 0.2}, tol=0)  # product in f32
case("hard_swish", [[-4.0, -1.0, 0.0, 1.0, 4.0]], [0.0, -1.0 / 3.0, 0.0, 2.0 / 3.0, 4.0])
case("mish", [X], [v * math.tanh(math.log1p(math.exp(v))) for v in X])
case("softsign", [[-3.0, 0.0, 1.0]], [-0.75, 0.0, 0.5])
case("log_sigmoid", [X], [-math.log1p(math.exp(-v)) for v in X])
case("sin", [X], mapf(math.sin, X))
case("cos", [X], mapf(math.cos, X))
case("erf", [X], mapf(math.erf, X))

# ==== elementwise: binary, compare, select, cast ==========================================

case("add", [[[1.0], [2.0]], [10.0, 20.0, 30.0]], [[11.0, 21.0, 31.0], [12.0, 22.0, 32.0]])
case("add", [[100, 27], [27, 100]], [127, 127], dtype="i8")
case("sub", [[5.0, 1.0], [2.0, 3.0]], [3.0, -2.0])
case("mul", [[1.5, -2.0], [2.0, 4.0]], [3.0, -8.0])
case("div", [[1.0, -3.0], [4.0, 2.0]], [0.25, -1.5])
case("div", [[7, -7, 6], [2, 2, -4]], [3, -4, -2], dtype="i32")
case("max", [[1.0, 5.0], [3.0, 2.0]], [3.0, 5.0])
case("min", [[1.0, 5.0], [3.0, 2.0]], [1.0, 2.0])
case("mod", [[-7, 7, 7], [3, -3, 3]], [2, -2, 1], dtype="i32")
case("mod", [[-7, 7, 7], [3, -3, 3]], [-1, 1, 1], {"fmod": True}, dtype="i32")
case("mod", [[-7.5, 7.5], [2.0, 2.0]], [0.5, 1.5])
for _name, _want in (
    ("eq", [False, True, False]),
    ("ne", [True, False, True]),
    ("lt", [True, False, False]),
    ("le", [True, True, False]),
    ("gt", [False, False, True]),
    ("ge", [False, True, True]),
):
    case(_name, [[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]], _want)
case("eq", [[1, 2], [2, 2]], [False, True], dtype="i8")
case("where", [[True, False, True], [1.0, 2.0, 3.0], [-1.0, -2.0, -3.0]], [1.0, -2.0, 3.0])
case("fma", [[1.0, 2.0], [3.0, 4.0], [0.5, -8.0]], [3.5, 0.0])
case("clamp", [[-3.0, 0.0, 5.0]], [-1.0, 0.0, 2.0], {"min": -1.0, "max": 2.0})
case("clamp", [[-3, 0, 5]], [-3, 0, 1], {"max": 1.0}, dtype="i32")
case("cast", [[-1.7, 2.9, 0.0]], [-1, 2, 0], {"to": "i32"})
case("cast", [[-3, 4]], [-3.0, 4.0], {"to": "f32"}, dtype="i32")
case("cast", [[0.0, 2.5]], [False, True], {"to": "bool"})

# ==== normalize ===========================================================================

case("softmax", [[1.0, 2.0, 3.0]], softmax([1.0, 2.0, 3.0]))
case(
    "softmax",
    [[[1.0, 2.0], [3.0, 5.0]]],
    [[1 / (1 + math.exp(2)), 1 / (1 + math.exp(3))], [1 / (1 + math.exp(-2)), 1 / (1 + math.exp(-3))]],
    {"axis": 0},
)
case("rms_norm", [[[3.0, 4.0]], [1.0, 2.0]], [[3 / math.sqrt(12.5), 8 / math.sqrt(12.5)]], {"eps": 0.0})
case("rms_norm", [[[1.0, 1.0], [0.0, 2.0]], [1.0, 1.0]], [[1 / math.sqrt(1 + 1e-5)] * 2, [0.0, 2 / math.sqrt(2 + 1e-5)]])
_s = math.sqrt(1.25)
case(
    "layer_norm",
    [[[1.0, 2.0, 3.0, 4.0]], [1.0, 1.0, 2.0, 2.0], [0.0, 1.0, 0.0, 1.0]],
    [[-1.5 / _s, -0.5 / _s + 1, 2 * 0.5 / _s, 2 * 1.5 / _s + 1]],
    {"eps": 0.0},
)
case("layer_norm", [[[2.0, 2.0]], [1.0, 1.0], [0.5, -0.5]], [[0.5, -0.5]])  # zero variance: only beta
# group_norm: x [1, 4, 2], 2 groups -> group 0 = channels 0, 1; group 1 = channels 2, 3
_g0 = [1.0, 3.0, 5.0, 7.0]  # mean 4, var 5
_g1 = [0.0, 0.0, 2.0, 2.0]  # mean 1, var 1
case(
    "group_norm",
    [[[[1.0, 3.0], [5.0, 7.0], [0.0, 0.0], [2.0, 2.0]]], [1.0, 2.0, 1.0, 3.0], [0.0, 0.0, 1.0, 0.0]],
    [
        [
            [-3 / math.sqrt(5), -1 / math.sqrt(5)],
            [2 * 1 / math.sqrt(5), 2 * 3 / math.sqrt(5)],
            [0.0, 0.0],
            [3.0, 3.0],
        ]
    ],
    {"num_groups": 2, "eps": 0.0},
)

# ==== reduce / scan / arg =================================================================

M23 = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
case("reduce_sum", [M23], [6.0, 15.0])
case("reduce_sum", [M23], [[5.0, 7.0, 9.0]], {"axes": [0], "keepdims": True})
case("reduce_sum", [M23], 21.0, {"axes": []})
case("reduce_sum", [[100, 100]], -56, {"axes": [0]}, dtype="i8")  # 200 wraps in int8
case("reduce_mean", [[[1.0, 2.0], [3.0, 5.0]]], [1.5, 4.0])
case("reduce_mean", [M23], [[3.5]], {"axes": [0, 1], "keepdims": True})
case("reduce_max", [[[1.0, -2.0, 3.0], [-4.0, 0.5, -1.0]]], [3.0, 0.5])
case("reduce_max", [[[1, 9], [7, 2]]], [7, 9], {"axes": [0]}, dtype="i32")
case("reduce_min", [[[1.0, -2.0, 3.0], [-4.0, 0.5, -1.0]]], [-2.0, -4.0])
case("reduce_prod", [[[1.0, 2.0, 3.0], [-1.0, 4.0, 0.5]]], [6.0, -2.0])
case("reduce_prod", [[[2, 3], [4, 5]]], [[8, 15]], {"axes": [-2], "keepdims": True}, dtype="i64")

V = [1.0, 2.0, 3.0, 4.0]
case("cumsum", [V], [1.0, 3.0, 6.0, 10.0])
case("cumsum", [V], [0.0, 1.0, 3.0, 6.0], {"exclusive": True})
case("cumsum", [V], [10.0, 9.0, 7.0, 4.0], {"reverse": True})
case("cumsum", [V], [9.0, 7.0, 4.0, 0.0], {"exclusive": True, "reverse": True})
case("cumsum", [[[1, 2], [3, 4], [5, 6]]], [[1, 2], [4, 6], [9, 12]], {"axis": 0}, dtype="i32")
case("cumprod", [V], [1.0, 2.0, 6.0, 24.0])
case("cumprod", [V], [1.0, 1.0, 2.0, 6.0], {"exclusive": True})
case("cumprod", [V], [24.0, 24.0, 12.0, 4.0], {"reverse": True})
W = [1.0, 3.0, 2.0, 5.0, 4.0]
case("cummax", [W], [1.0, 3.0, 3.0, 5.0, 5.0])
case("cummax", [W], [-INF, 1.0, 3.0, 3.0, 5.0], {"exclusive": True})
case("cummax", [W], [5.0, 5.0, 5.0, 5.0, 4.0], {"reverse": True})
case("cummax", [[1, 3, 2]], [-(2**31), 1, 3], {"exclusive": True}, dtype="i32")

A = [[1.0, 3.0, 3.0, 2.0], [5.0, 1.0, 5.0, 0.0]]
case("argmax", [A], [1, 0])
case("argmax", [A], [2, 2], {"select_last_index": True})
case("argmax", [A], [[1, 0, 1, 0]], {"axis": 0, "keepdims": True})
case("argmin", [A], [0, 3])
case("argmin", [[[2, 1, 1]]], [[2]], {"keepdims": True, "select_last_index": True}, dtype="i32")
case("argmax", [A], [1, 0], {"index_dtype": "i32"})
case("argmin", [A], [0, 3], {"index_dtype": "i32"})

# ==== movement ============================================================================

case("reshape", [M23], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], {"shape": [3, -1]})
case("reshape", [[[True, False]]], [True, False], {"shape": [2]}, dtype="bool")
case("transpose", [M23], [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]])
case("transpose", [[[[1, 2, 3]], [[4, 5, 6]]]], [[[1], [4]], [[2], [5]], [[3], [6]]], {"perm": [2, 0, 1]}, dtype="i8")
case("narrow", [[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]], [3.0, 4.0], {"axis": 0, "start": -3, "length": 2})
case("narrow", [M23], [[2.0, 3.0], [5.0, 6.0]], {"axis": 1, "start": 1, "length": 2})
case("slice", [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]], [2, 5, 8], {"axis": 0, "start": -8, "end": 100, "step": 3}, dtype="i64")
case("slice", [M23], [[1.0, 2.0], [4.0, 5.0]], {"axis": -1, "start": 0, "end": -1})
case("reverse", [M23], [[3.0, 2.0, 1.0], [6.0, 5.0, 4.0]])
case("reverse", [M23], [[6.0, 5.0, 4.0], [3.0, 2.0, 1.0]], {"axes": [0, 1]})
case("tile", [[[1.0, 2.0]]], [[1.0, 2.0, 1.0, 2.0], [1.0, 2.0, 1.0, 2.0]], {"reps": [2, 2]})
case("expand", [[[1.0], [2.0]]], [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], {"shape": [2, 3]})
case("expand", [[[1], [2]]], [[[1], [2]], [[1], [2]]], {"shape": [2, 1, 1]}, dtype="i32")
M33 = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]
case("trilu", [M33], [[1.0, 2.0, 3.0], [0.0, 5.0, 6.0], [0.0, 0.0, 9.0]])
case("trilu", [M33], [[0.0, 2.0, 3.0], [0.0, 0.0, 6.0], [0.0, 0.0, 0.0]], {"diagonal": 1})
case("trilu", [M33], [[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [7.0, 8.0, 0.0]], {"upper": False, "diagonal": -1})
case("trilu", [[M33[:2], M33[1:]]], [[[1.0, 0.0, 0.0], [4.0, 5.0, 0.0]], [[4.0, 0.0, 0.0], [7.0, 8.0, 0.0]]], {"upper": False})
case("concat", [[[1.0, 2.0], [3.0, 4.0]], [[5.0], [6.0]]], [[1.0, 2.0, 5.0], [3.0, 4.0, 6.0]], {"axis": 1})
case("concat", [[[1]], [[2]], [[3], [4]]], [[1], [2], [3], [4]], {"axis": 0}, dtype="i32")
case("gather", [M23, [[0, -1]]], [[[1.0, 3.0]], [[4.0, 6.0]]], {"axis": 1})
case("gather", [M23, [1, 0, 1]], [[4.0, 5.0, 6.0], [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
case("gather", [M23, [-1]], [[4.0, 5.0, 6.0]], {"index_dtype": "i32"})
# ONNX GatherElements / ScatterElements: the examples of the operator definition
case("gather_elements", [[[1.0, 2.0], [3.0, 4.0]], [[0, 0], [1, 0]]], [[1.0, 1.0], [4.0, 3.0]], {"axis": 1})
case("gather_elements", [M33, [[1, 2, 0], [2, 0, 0]]], [[4.0, 8.0, 3.0], [7.0, 2.0, 3.0]])
case("gather_elements", [M33, [[-1, -2, 0], [-2, 0, 0]]], [[7.0, 5.0, 3.0], [4.0, 2.0, 3.0]], {"index_dtype": "i32"})
Z33 = [[0.0] * 3] * 3
case("scatter_elements", [Z33, [[1, 0, 2], [0, 2, 1]], [[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]]],
     [[2.0, 1.1, 0.0], [1.0, 0.0, 2.2], [0.0, 2.1, 1.2]])
R5 = [[1.0, 2.0, 3.0, 4.0, 5.0]]
case("scatter_elements", [R5, [[1, 3]], [[1.1, 2.1]]], [[1.0, 1.1, 3.0, 2.1, 5.0]], {"axis": 1})
case("scatter_elements", [R5, [[1, -3]], [[1.1, 2.1]]], [[1.0, 1.1, 2.1, 4.0, 5.0]], {"axis": 1, "index_dtype": "i32"})
# duplicate indices: combined in order from data's value (none: the last one wins)
case("scatter_elements", [R5, [[1, 1]], [[1.1, 2.1]]], [[1.0, 2.1, 3.0, 4.0, 5.0]], {"axis": 1})
case("scatter_elements", [R5, [[1, 1]], [[1.1, 2.1]]], [[1.0, 5.2, 3.0, 4.0, 5.0]], {"axis": 1, "reduction": "add"})
case("scatter_elements", [R5, [[1, 1]], [[1.1, 2.1]]], [[1.0, 2.0 * 1.1 * 2.1, 3.0, 4.0, 5.0]], {"axis": 1, "reduction": "mul"})
case("scatter_elements", [R5, [[1, 1]], [[1.1, 2.1]]], [[1.0, 2.1, 3.0, 4.0, 5.0]], {"axis": 1, "reduction": "max"})
case("scatter_elements", [R5, [[1, 1]], [[1.1, 2.1]]], [[1.0, 1.1, 3.0, 4.0, 5.0]], {"axis": 1, "reduction": "min"})
case("scatter_elements", [[[1, 2], [3, 4]], [[1, 1]], [[127, 5]]], [[1, 2], [3 + 127 - 256, 4 + 5]], {"reduction": "add"},
     dtype="i8")  # wraps
# einsum: the equations models use, worked out by hand
case("einsum", [[[[1.0, 2.0], [3.0, 4.0]]], [[[5.0], [6.0]]]], [[[17.0], [39.0]]], {"equation": "bij,bjk->bik"})
case("einsum", [M23], [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]], {"equation": "ij->ji"})
case("einsum", [[1.0, 2.0], [3.0, 4.0, 5.0]], [[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]], {"equation": "i,j->ij"})
# bilinear: y[b, a] = sum_nm x1[b, n] W[a, n, m] x2[b, m]; x1 = [1, 2], W[0] = [[1, 0], [0, 1]], W[1] = [[0, 1], [1, 0]], x2 = [3, 4]
case("einsum", [[[1.0, 2.0]], [[[1.0, 0.0], [0.0, 1.0]], [[0.0, 1.0], [1.0, 0.0]]], [[3.0, 4.0]]], [[11.0, 10.0]],
     {"equation": "bn,anm,bm->ba"})
case("einsum", [M33], 15.0, {"equation": "ii->"}, dtype="i32")  # trace: 1 + 5 + 9
case("einsum", [[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[19, 22], [43, 50]], {"equation": "ij,jk"}, dtype="i8")  # implicit
case("einsum", [[[[1.0, 2.0]], [[3.0, 4.0]]], [[1.0], [1.0]]], [[[3.0]], [[7.0]]], {"equation": "...ij,jk->...ik"})
# ONNX ConvTranspose: the examples of the operator definition (x = 0..8 as 3x3, w all ones, 2 output channels)
X09 = [[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]]]
W1 = [[[[1.0] * 3] * 3] * 2]
Y_CT = [[0.0, 1.0, 3.0, 3.0, 2.0], [3.0, 8.0, 15.0, 12.0, 7.0], [9.0, 21.0, 36.0, 27.0, 15.0],
        [9.0, 20.0, 33.0, 24.0, 13.0], [6.0, 13.0, 21.0, 15.0, 8.0]]
case("conv_transpose", [X09, W1], [[Y_CT, Y_CT]])
Y_PADS = [[1.0, 1.0, 3.0]] * 2 + [[7.0, 4.0, 9.0]] * 3 + [[13.0, 7.0, 15.0]] * 2
case("conv_transpose", [X09, W1], [[Y_PADS, Y_PADS]], {"strides": [3, 2], "pads": [1, 2, 1, 2]})
case("conv_transpose", [[[[[3.0, 8.0, 1.0], [9.0, 5.0, 7.0], [3.0, 2.0, 6.0]]]], [[[[7.0, 2.0], [1.0, 9.0]]]]],
     [[[[21.0, 56.0, 13.0, 16.0, 2.0], [63.0, 35.0, 67.0, 10.0, 14.0], [24.0, 22.0, 76.0, 76.0, 21.0],
        [9.0, 5.0, 88.0, 45.0, 63.0], [3.0, 2.0, 33.0, 18.0, 54.0]]]], {"dilations": [2, 2]})
# output_padding adds a bottom row and right column no input pixel reaches: 0; group 2 keeps the channels apart
case("conv_transpose", [[[[[1.0]], [[2.0]]]], [[[[1.0]]], [[[3.0]]]]], [[[[1.0, 0.0], [0.0, 0.0]], [[6.0, 0.0], [0.0, 0.0]]]],
     {"output_padding": [1, 1], "strides": [2, 2], "group": 2})
# pow (C99 pow): exact powers, a broadcast exponent, a negative base with an integer and a fractional exponent
case("pow", [[2.0, 3.0, -2.0, 4.0], [3.0, 2.0, 3.0, 0.5]], [8.0, 9.0, -8.0, 2.0])
case("pow", [[[1.0], [2.0]], [-1.0, 0.0, 10.0]], [[1.0, 1.0, 1.0], [0.5, 1.0, 1024.0]])
case("pow", [[-2.0, -2.0, float("nan")], [2.0, 0.5, 0.0]], [4.0, float("nan"), 1.0])
# ONNX Resize: the outputs of its backend tests (test_resize_*), and nearest_mode worked out from the formulas
D22 = [[[[1.0, 2.0], [3.0, 4.0]]]]
case("resize", [D22], [[[[1.0, 1.0, 1.0, 2.0, 2.0, 2.0]] * 2 + [[3.0, 3.0, 3.0, 4.0, 4.0, 4.0]] * 2]], {"scales": [1, 1, 2, 3]})
case("resize", [D22], [[[[1.0, 1.25, 1.75, 2.0], [1.5, 1.75, 2.25, 2.5], [2.5, 2.75, 3.25, 3.5], [3.0, 3.25, 3.75, 4.0]]]],
     {"scales": [1, 1, 2, 2], "mode": "linear"})
case("resize", [D22], [[[[1.0, 4 / 3, 5 / 3, 2.0], [5 / 3, 2.0, 7 / 3, 8 / 3], [7 / 3, 8 / 3, 3.0, 10 / 3], [3.0, 10 / 3, 11 / 3, 4.0]]]],
     {"scales": [1, 1, 2, 2], "mode": "linear", "coordinate_transformation_mode": "align_corners"})
D24 = [[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]]]
case("resize", [D24], [[[[1.0, 3.0]]]], {"scales": [1, 1, 0.6, 0.6]})
case("resize", [D24], [[[[2.6666665, 4.3333331]]]], {"scales": [1, 1, 0.6, 0.6], "mode": "linear"})
case("resize", [[[[[float(4 * i + j + 1) for j in range(4)] for i in range(4)]]]], [[[[1.6666666], [7.0], [12.333333]]]],
     {"sizes": [1, 1, 3, 1], "mode": "linear", "coordinate_transformation_mode": "pytorch_half_pixel"})
case("resize", [D22], [[[[1.0, 1.159864, 1.5, 1.840136, 2.0], [1.5652174, 1.7250813, 2.0652175, 2.4053535, 2.5652175],
                         [2.4347825, 2.5946465, 2.9347825, 3.2749186, 3.4347825], [3.0, 3.159864, 3.5, 3.840136, 4.0]]]],
     {"scales": [1, 1, 2.3, 2.94], "mode": "linear", "coordinate_transformation_mode": "half_pixel_symmetric"})
# asymmetric x_ori = o / 2: 0, 0.5, 1, 1.5; the ties go down (round_prefer_floor) or up (round_prefer_ceil, clamped)
case("resize", [[1.0, 2.0]], [1.0, 1.0, 2.0, 2.0], {"scales": [2], "coordinate_transformation_mode": "asymmetric"})
case("resize", [[1.0, 2.0]], [1.0, 2.0, 2.0, 2.0],
     {"scales": [2], "coordinate_transformation_mode": "asymmetric", "nearest_mode": "round_prefer_ceil"})
# half_pixel x_ori = (o + 0.5) / 2 - 0.5: -0.25, 0.25, 0.75, 1.25 -> floor -1 (edge: 0), 0, 0, 1; ceil 0, 1, 1, 2 (edge: 1)
case("resize", [[1.0, 2.0]], [1.0, 1.0, 1.0, 2.0], {"sizes": [4], "nearest_mode": "floor"})
case("resize", [[1.0, 2.0]], [1.0, 2.0, 2.0, 2.0], {"sizes": [4], "nearest_mode": "ceil"})
# ONNX TopK: the examples of the operator definition, and ties (equal values: the lower index first)
X34 = [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]
case("topk", [X34], [[3.0, 2.0, 1.0], [7.0, 6.0, 5.0], [11.0, 10.0, 9.0]], {"k": 3})
case("topk", [X34], [[3, 2, 1], [3, 2, 1], [3, 2, 1]], {"k": 3, "output": "indices"})
X34S = [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [11.0, 10.0, 9.0, 8.0]]
case("topk", [X34S], [[0.0, 1.0, 2.0], [4.0, 5.0, 6.0], [8.0, 9.0, 10.0]], {"k": 3, "largest": False, "sorted": False})
case("topk", [X34S], [[0, 1, 2], [0, 1, 2], [3, 2, 1]], {"k": 3, "largest": False, "output": "indices",
                                                        "index_dtype": "i32"})
case("topk", [[3.0, 1.0, 3.0, 2.0, 3.0]], [0, 2, 4], {"k": 3, "output": "indices"})
case("topk", [[2, 1, 1, 0, 1]], [3, 1, 2], {"k": 3, "largest": False, "output": "indices"}, dtype="i32")
case("topk", [[[5.0, 1.0], [5.0, 7.0], [float("nan"), 2.0]]], [[2, 1], [0, 2]], {"k": 2, "axis": 0, "output": "indices"})
case("pad", [[1.0, 2.0, 3.0]], [9.0, 9.0, 1.0, 2.0, 3.0, 9.0], {"pads": [[2, 1]], "value": 9.0})
case("pad", [[1.0, 2.0, 3.0]], [3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0], {"pads": [[2, 2]], "mode": "reflect"})
case("pad", [[1.0, 2.0, 3.0]], [1.0, 1.0, 1.0, 2.0, 3.0, 3.0], {"pads": [[2, 1]], "mode": "edge"})
case("pad", [[[1, 2], [3, 4]]], [[0, 0, 0, 0], [1, 2, 0, 0], [3, 4, 0, 0]], {"pads": [[1, 0], [0, 2]]}, dtype="i32")
case("stop_gradient", [[1.0, -2.0]], [1.0, -2.0])

# ==== rope ================================================================================

# one token, one head of 4: cos = [0.5, 0], sin = [0.25, 1]
case("rope", [[[1.0, 2.0, 3.0, 4.0]], [[0.5, 0.0]], [[0.25, 1.0]]], [[-0.25, -4.0, 1.75, 2.0]], {"head_dim": 4})
case(
    "rope",
    [[[1.0, 2.0, 3.0, 4.0]], [[0.5, 0.0]], [[0.25, 1.0]]],
    [[0.0, 1.25, -4.0, 3.0]],
    {"head_dim": 4, "style": "gptj"},
)
# two heads, n_rot 2 (dims 2, 3 of each head pass through), two tokens with their own angle
case(
    "rope",
    [[[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]], [[0.0], [1.0]], [[1.0], [0.0]]],
    [[[-2.0, 1.0, 3.0, 4.0, -6.0, 5.0, 7.0, 8.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]],
    {"head_dim": 4, "n_rot": 2},
)
# gptj with head_dim 6, n_rot 4: pairs (0,1) and (2,3) rotate, (4,5) pass through
case(
    "rope",
    [[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]], [[0.0, 1.0]], [[1.0, 0.0]]],
    [[-2.0, 1.0, 3.0, 4.0, 5.0, 6.0]],
    {"head_dim": 6, "n_rot": 4, "style": "gptj"},
)


# ==== attention ===========================================================================


def attention_ref(q, k, v, num_heads, head_dim, causal=False, scale=None):
    """Plain-Python multi-head attention on [S, H*D] lists."""
    scale = scale if scale is not None else 1.0 / math.sqrt(head_dim)
    s, skv = len(q), len(k)
    out = [[0.0] * (num_heads * head_dim) for _ in range(s)]
    for h in range(num_heads):
        lo = h * head_dim
        for i in range(s):
            keys = [j for j in range(skv) if not causal or j <= i + (skv - s)]
            scores = [sum(q[i][lo + d] * k[j][lo + d] for d in range(head_dim)) * scale for j in keys]
            p = softmax(scores)
            for d in range(head_dim):
                out[i][lo + d] = sum(pj * v[j][lo + d] for pj, j in zip(p, keys))
    return out


_e = math.exp(1.0)
# S = Skv = 2, one head of size 1, scale 1 (1/sqrt(1)): hand-computed
case("attention", [[[1.0], [0.0]], [[1.0], [2.0]], [[10.0], [20.0]]],
     [[(10 * _e + 20 * _e**2) / (_e + _e**2)], [15.0]], {"num_heads": 1, "head_dim": 1})
case("attention", [[[1.0], [0.0]], [[1.0], [2.0]], [[10.0], [20.0]]],
     [[10.0], [15.0]], {"num_heads": 1, "head_dim": 1, "mask": "causal"})
# one query, two keys, causal is bottom-right aligned: the query sees both keys
case("attention", [[[0.0]], [[1.0], [2.0]], [[10.0], [20.0]]], [[15.0]], {"num_heads": 1, "head_dim": 1, "mask": "causal"})
_Q = [[1.0, 0.0, 0.5, -1.0], [0.0, 2.0, 1.0, 1.0], [1.0, 1.0, -1.0, 0.0]]
_K = [[0.5, 1.0, 0.0, 1.0], [1.0, -1.0, 2.0, 0.0], [0.0, 0.0, 1.0, 1.0]]
_V = [[1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 1.0, 2.0], [0.5, 0.5, -0.5, -0.5]]
case("attention", [_Q, _K, _V], attention_ref(_Q, _K, _V, 2, 2), {"num_heads": 2, "head_dim": 2})
case("attention", [_Q, _K, _V], attention_ref(_Q, _K, _V, 2, 2, causal=True, scale=0.3),
     {"num_heads": 2, "head_dim": 2, "mask": "causal", "scale": 0.3})
case("attention", [[_Q, _K], [_K, _V], [_V, _Q]],
     [attention_ref(_Q, _K, _V, 1, 4), attention_ref(_K, _V, _Q, 1, 4)], {"num_heads": 1, "head_dim": 4})

def attention_full_ref(q, k, v, nh, hd, kvh=None, mask=None, additive=False, past=None, causal=False,
                       scale=None, softcap=0.0):
    """Plain-Python ONNX Attention (3-D form, no batch) on lists: GQA, a [S, Lm] mask (Lm <= T, the
    rest masked), past keys/values before k, softcap before the mask; a fully masked query is NaN."""
    kvh = kvh or nh
    scale = scale if scale is not None else 1.0 / math.sqrt(hd)
    keys = (past[0] if past else []) + k
    vals = (past[1] if past else []) + v
    s, t = len(q), len(keys)
    out = [[0.0] * (nh * hd) for _ in range(s)]
    for h in range(nh):
        qlo, klo = h * hd, (h // (nh // kvh)) * hd
        for i in range(s):
            scores = []
            for j in range(t):
                x = sum(q[i][qlo + d] * keys[j][klo + d] for d in range(hd)) * scale
                if softcap:
                    x = softcap * math.tanh(x / softcap)
                if mask is not None:
                    row = mask[i] if len(mask) > 1 else mask[0]
                    if j >= len(row):
                        x = -INF
                    elif additive:
                        x += row[j]
                    elif not row[j]:
                        x = -INF
                if causal and j > i + t - s:
                    x = -INF
                scores.append(x)
            top = max(scores)
            if top == -INF:
                p = [math.nan] * t
            else:
                e = [math.exp(x - top) for x in scores]
                p = [x / sum(e) for x in e]
            for d in range(hd):
                out[i][qlo + d] = sum(pj * vals[j][klo + d] for j, pj in enumerate(p))
    return out


_KV = [[0.5, 1.0], [1.0, -1.0], [0.0, 1.0]]  # one kv head of size 2, three keys
_VV = [[1.0, 2.0], [-1.0, 0.5], [3.0, -2.0]]
_Q2 = [[1.0, 0.0, 0.5, -1.0], [0.0, 2.0, 1.0, 1.0]]  # two query heads of size 2
_BOOL = [[True, False, True], [False, False, False]]  # query 1 sees no key: NaN, as ONNX's reference
_GQA = {"num_heads": 2, "head_dim": 2, "kv_num_heads": 1}
# grouped-query: both query heads read the one kv head
case("attention", [_Q2, _KV, _VV], attention_full_ref(_Q2, _KV, _VV, 2, 2, kvh=1), _GQA)
case("attention", [_Q2, _KV, _VV, _BOOL], attention_full_ref(_Q2, _KV, _VV, 2, 2, kvh=1, mask=_BOOL), _GQA)
# a hand-computed row: one head of size 1, keys 1 and 2, the mask hides key 1 -> v of key 2 exactly
case("attention", [[[1.0]], [[1.0], [2.0]], [[10.0], [20.0]], [[False, True]]], [[20.0]], {"num_heads": 1, "head_dim": 1})
# additive: + ln 2 on key 0 doubles its weight: e*2 / (e*2 + e^2) on scores 1 and 2
case("attention", [[[1.0]], [[1.0], [2.0]], [[10.0], [20.0]], [[math.log(2.0), 0.0]]],
     [[(10 * 2 * _e + 20 * _e**2) / (2 * _e + _e**2)]], {"num_heads": 1, "head_dim": 1, "mask_kind": "additive"})
# a mask shorter than T: the missing keys are masked (ONNX pads with -inf), never broadcast
_ADD = [[0.5, -1.0], [-INF, 0.25]]
case("attention", [_Q2, _KV, _VV, _ADD], attention_full_ref(_Q2, _KV, _VV, 2, 2, kvh=1, mask=_ADD, additive=True),
     {**_GQA, "mask_kind": "additive"})
# KV cache: two past keys, one new; causal; softcap; the mask broadcasts over the query
_PK, _PV = [[1.0, 1.0], [-0.5, 2.0]], [[0.5, 0.5], [2.0, -1.0]]
_M1 = [[True, False, True]]
case("attention", [_Q2[:1], _KV[:1], _VV[:1], _PK, _PV],
     attention_full_ref(_Q2[:1], _KV[:1], _VV[:1], 2, 2, kvh=1, past=(_PK, _PV), causal=True),
     {**_GQA, "mask": "causal"})
case("attention", [_Q2[:1], _KV[:1], _VV[:1], _M1, _PK, _PV],
     attention_full_ref(_Q2[:1], _KV[:1], _VV[:1], 2, 2, kvh=1, mask=_M1, past=(_PK, _PV), softcap=0.5, scale=2.0),
     {**_GQA, "softcap": 0.5, "scale": 2.0})
# softcap 2 turns the scores 1 and 2 into 2 tanh(1/2) and 2 tanh(1): by hand
case("attention", [[[1.0]], [[1.0], [2.0]], [[10.0], [20.0]]],
     [[(10 * math.exp(2 * math.tanh(0.5)) + 20 * math.exp(2 * math.tanh(1.0)))
       / (math.exp(2 * math.tanh(0.5)) + math.exp(2 * math.tanh(1.0)))]], {"num_heads": 1, "head_dim": 1, "softcap": 2.0})


# ==== matmul_nbits ========================================================================

# one row of weights, K = 16 in one block: bytes 0x21 = codes (1, 2), 0xF0 = (0, 15), the rest 0x88 = (8, 8);
# zero point 8 (the default), scale 0.5: w = (code - 8) / 2 = -3.5, -3, -4, 3.5, 0 x 12
_NB_BYTES = [[[0x21, 0xF0] + [0x88] * 6]]
_NB_A = [[1.0, 2.0, 3.0, 4.0] + [5.0] * 12]
case("matmul_nbits", [_NB_A, _NB_BYTES, [[0.5]]], [[-3.5 * 1 - 3 * 2 - 4 * 3 + 3.5 * 4]], {"block_size": 16})
# the same with a packed zero point 0x05 (block 0: low nibble 5): w = (code - 5) / 2
case("matmul_nbits", [_NB_A, _NB_BYTES, [[0.5]], [[0x05]]],
     [[(-4 * 1 - 3 * 2 - 5 * 3 + 10 * 4 + sum(3 * 5.0 for _ in range(12))) / 2]], {"block_size": 16})
# dequantize_nbits: the same weight as matmul's b [K, N] = [16, 1]
case("dequantize_nbits", [_NB_BYTES, [[0.5]]], [[-3.5], [-3.0], [-4.0], [3.5]] + [[0.0]] * 12, {"block_size": 16})
# two blocks, zero points packed in one byte 0x35 (block 0: 5, block 1: 3), scales 0.5 and 2;
# block 1's bytes 0x0F are codes (15, 0): w = (15 - 3) * 2 = 24 and (0 - 3) * 2 = -6, alternating
case("dequantize_nbits", [[[[0x21, 0xF0] + [0x88] * 6, [0x0F] * 8]], [[0.5, 2.0]], [[0x35]]],
     [[v] for v in [-2.0, -1.5, -2.5, 5.0] + [1.5] * 12 + [24.0, -6.0] * 8], {"block_size": 16})
case("dequantize_nbits", [[[[128 + i for i in range(16)]]], [[0.25]]], [[i * 0.25] for i in range(16)],
     {"bits": 8, "block_size": 16})
# bits 8: codes are the bytes; K = 16 (one block), zero point 128 (default): w = (byte - 128) * 0.25
case("matmul_nbits", [[[1.0] * 16], [[[128 + i for i in range(16)]]], [[0.25]]], [[sum(i * 0.25 for i in range(16))]],
     {"bits": 8, "block_size": 16})

# ==== pool / im2col =======================================================================

P = [[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]  # 1x1x3x3
case("pool", [P], [[[[5.0, 6.0], [8.0, 9.0]]]], {"mode": "max", "kernel_size": [2, 2]})
_pad_attrs = {"kernel_size": [2, 2], "strides": [2, 2], "pads": [1, 1]}
# windows (padded coordinates) cover real rows {0}, {1, 2} and real cols {0}, {1, 2}
case("pool", [P], [[[[1.0, 3.0], [7.0, 9.0]]]], {"mode": "max", **_pad_attrs})
case("pool", [P], [[[[1.0, 5.0], [11.0, 28.0]]]], {"mode": "sum", **_pad_attrs})
case("pool", [P], [[[[1.0, 2.5], [5.5, 7.0]]]], {"mode": "avg", **_pad_attrs})
case("pool", [P], [[[[0.25, 1.25], [2.75, 7.0]]]], {"mode": "avg", "count_include_pad": True, **_pad_attrs})
case("pool", [[[[[-1.0, -2.0], [-3.0, -4.0]]]]], [[[[-1.0]]]],
     {"mode": "max", "kernel_size": [3, 3], "pads": [1, 1], "strides": [2, 2]})
case("pool", [[[[[1.0, 2.0, 3.0, 4.0]], [[5.0, 6.0, 7.0, 8.0]]]]], [[[[1.5, 3.5]], [[5.5, 7.5]]]],
     {"mode": "avg", "kernel_size": [1, 2], "strides": [1, 2]})

case("im2col", [P], [[1.0, 2.0, 4.0, 5.0], [2.0, 3.0, 5.0, 6.0], [4.0, 5.0, 7.0, 8.0], [5.0, 6.0, 8.0, 9.0]],
     {"kernel_size": [2, 2]})
case("im2col", [[[[[1.0, 2.0], [3.0, 4.0]]]]], [[0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 3.0, 4.0]],
     {"kernel_size": [3, 3], "strides": [2, 2], "pads": [1, 1]})
case("im2col", [P], [[1.0, 3.0, 7.0, 9.0]], {"kernel_size": [2, 2], "dilations": [2, 2]})
# two channels, kernel [1, 2]: columns are (c, ki, kj) = (0,0,0), (0,0,1), (1,0,0), (1,0,1)
case("im2col", [[[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]]], [[1, 2, 5, 6], [3, 4, 7, 8]], {"kernel_size": [1, 2]}, dtype="i32")
# two images: rows ordered (n, ho, wo)
case("im2col", [[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]], [[1.0], [2.0], [3.0], [4.0]], {"kernel_size": [1, 1]})

# ==== quant ===============================================================================

case("quantize", [[0.0, 0.25, -0.25, 0.75, 1.25, 100.0, -100.0]], [0, 0, 0, 2, 2, 127, -128],
     {"scales": [0.5]}, dtype="i8")  # x/scale = 0.5 -> 0, 1.5 -> 2, 2.5 -> 2: half to even
case("quantize", [[0.0, 0.25, 0.75, 100.0, -100.0]], [3, 3, 5, 127, -128], {"scales": [0.5], "zero_points": [3]}, dtype="i8")
case("quantize", [[[1.0, 1.0], [-1.0, 0.5]]], [[2, 3], [-2, 1]],
     {"scales": [0.5, 0.25], "zero_points": [0, -1], "axis": 1}, dtype="i8")
case("quantize", [[[1.0, 1.0], [1.0, 1.0]]], [[1, 1], [4, 4]], {"scales": [1.0, 0.25], "axis": 0}, dtype="i8")
case("dequantize", [[-128, 0, 127]], [-64.5, -0.5, 63.0], {"scales": [0.5], "zero_points": [1]}, dtype="i8")
# uint8 (ONNX's default quantized type): saturates at 0 and 255; 0.25 / 0.5 = 0.5 ties to even 0
case("quantize", [[0.0, 0.25, 0.75, 100.0, -100.0, -63.9]], [128, 128, 130, 255, 0, 0],
     {"scales": [0.5], "zero_points": [128]}, dtype="u8")
case("dequantize", [[0, 128, 255]], [-64.0, 0.0, 63.5], {"scales": [0.5], "zero_points": [128]}, dtype="u8")
# int4 / uint4 (ONNX opset 21): saturate at [-8, 7] / [0, 15]
case("quantize", [[0.0, 0.75, 1.25, 3.5, 100.0, -100.0]], [0, 2, 2, 7, 7, -8], {"scales": [0.5]}, dtype="i4")
case("quantize", [[0.0, 0.75, -2.0, 3.5, 100.0, -100.0]], [8, 10, 4, 15, 15, 0], {"scales": [0.5], "zero_points": [8]},
     dtype="u4")
case("dequantize", [[-8, -1, 0, 7]], [-4.5, -1.0, -0.5, 3.0], {"scales": [0.5], "zero_points": [1]}, dtype="i4")
case("dequantize", [[0, 8, 15]], [-4.0, 0.0, 3.5], {"scales": [0.5], "zero_points": [8]}, dtype="u4")
case("dequantize", [[[2, 3], [-2, 1]]], [[1.0, 1.0], [-1.0, 0.5]],
     {"scales": [0.5, 0.25], "zero_points": [0, -1], "axis": -1}, dtype="i8")


def int8_gemm_ref(a, b):
    """The seed's int8 GEMM in plain Python, float32 emulated one operation at a time."""

    def rnd(v):  # Rust f32::round: half away from zero
        r = math.floor(abs(v) + 0.5) if abs(v) - math.floor(abs(v)) >= 0.5 else math.floor(abs(v))
        return math.copysign(r, v)

    def code(v):
        return int(max(-127.0, min(127.0, rnd(v))))

    m, k, n = len(a), len(b), len(b[0])
    a = [[f32(v) for v in row] for row in a]
    b = [[f32(v) for v in row] for row in b]
    sx, qa = [], []
    for row in a:
        amax = max(abs(v) for v in row)
        if amax == 0:
            sx.append(1.0)
            qa.append([0] * k)
            continue
        s = f32(amax / 127.0)
        inv = f32(1.0 / s)
        sx.append(s)
        qa.append([code(f32(v * inv)) for v in row])
    sw = []
    for c in range(n):
        amax = max(abs(b[r][c]) for r in range(k))
        sw.append(1.0 if amax == 0 else f32(amax / 127.0))
    qb = [[code(f32(b[r][c] / sw[c])) for c in range(n)] for r in range(k)]
    out = []
    for i in range(m):
        out.append([f32(f32(f32(float(sum(qa[i][t] * qb[t][j] for t in range(k)))) * sx[i]) * sw[j]) for j in range(n)])
    return out


case("matmul", [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]], [[19.0, 22.0], [43.0, 50.0]])
case("matmul", [[[[1.0, 0.0]], [[0.0, 2.0]]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]], [[[1.0, 2.0, 3.0]], [[8.0, 10.0, 12.0]]])
# int8: row 0 has scale 2 and codes 254/2, 1/2 -> 1, -5/2 -> -3, 3/2 -> 2 (halves away from zero);
# row 1 is all zero (scale 1, codes 0); b's column 1 is all zero (scale 1). Every scale is exact,
# so the output is the exact int32 accumulator times 2.
_A8 = [[254.0, 1.0, -5.0, 3.0], [0.0, 0.0, 0.0, 0.0]]
_B8 = [[1.0, 0.0, 127.0], [127.0, 0.0, 0.0], [-1.0, 0.0, 1.0], [0.0, 0.0, -127.0]]
case("matmul", [_A8, _B8], [[2.0 * (127 + 127 + 3), 0.0, 2.0 * (127 * 127 - 3 - 254)], [0.0, 0.0, 0.0]], dtype="i8", tol=0)
# int8 with inexact float32 scales: compare with the plain-Python float32 emulation
_A9 = [[3.0, f32(3 / 254), -1.0, 0.7], [0.3, -0.1, 0.05, 0.2], [1e-3, 2e-3, -3e-3, 0.0]]
_B9 = [[0.5, -0.25, 2.0], [0.1, 0.3, -1.0], [0.0, 0.7, 0.25], [-0.6, 0.0, 1.5]]
case("matmul", [_A9, _B9], int8_gemm_ref(_A9, _B9), dtype="i8", tol=0)
case("matmul", [[_A9[:2], _A9[1:]], _B9], [int8_gemm_ref(_A9[:2], _B9), int8_gemm_ref(_A9[1:], _B9)], dtype="i8", tol=0)

# bf16 (npubuild/ops/bf16.py): widened to f32, computed, rounded once to nearest even.
# 1 + 2**-8 is a tie between 1 and 1 + 2**-7 (even: 1); 1 + 3 * 2**-9 rounds up.
case("add", [[1.0, 1.0], [2.0**-8, 3 * 2.0**-9]], [1.0, 1.0 + 2.0**-7], dtype="bf16", tol=0)
# nine terms summed in f32, not bf16 (a bf16 accumulator would stay at 1.0): 1 + 8 * 2**-9
case("reduce_sum", [[1.0] + [2.0**-9] * 8], 1.0 + 2.0**-6, dtype="bf16", tol=0)
# (1 + 2**-7)**2 = 1 + 2**-6 + 2**-14 exactly in f32, rounded once: 1 + 2**-6
case("matmul", [[[1.0 + 2.0**-7]], [[1.0 + 2.0**-7]]], [[1.0 + 2.0**-6]], dtype="bf16", tol=0)
# 2**24 + 2**16 + 1 goes through f32 (2**24 + 2**16, a bf16 tie) and rounds to even: 2**24
case("cast", [[2**24 + 2**16 + 1]], [2.0**24], {"to": "bf16"}, dtype="i32", tol=0)
case("cast", [[1.0 + 2.0**-10]], [1.0], {"to": "bf16"}, dtype="f16", tol=0)
case("softmax", [[0.0, 0.0, 0.0]], [0.333984375] * 3, dtype="bf16", tol=0)  # 1/3 rounded once to bf16

# ---- the tests ---------------------------------------------------------------------------


def run_case(c: Case):
    op = REGISTRY[c.op]
    attrs = normalize_attrs(op, c.attrs)
    in_dtypes, out_dtype = op.signature(c.dtype, len(c.inputs), attrs)
    xs = [np.array(v, dtype=NUMPY_DTYPE[d]) for v, d in zip(c.inputs, in_dtypes)]
    y = op.evaluate(xs, attrs, c.dtype)
    return op, attrs, xs, np.asarray(y), out_dtype


@pytest.mark.parametrize("c", CASES, ids=[c.id for c in CASES])
def test_oracle_hand_case(c: Case):
    op, attrs, xs, y, out_dtype = run_case(c)
    assert c.dtype in op.dtypes
    assert tuple(op.infer([x.shape for x in xs], attrs)) == y.shape
    y = y.astype(NUMPY_DTYPE[out_dtype], copy=False)  # the contract: castable to the output dtype
    want = np.array(c.expected, dtype=y.dtype)
    assert want.shape == y.shape
    if y.dtype.kind == "f":
        np.testing.assert_allclose(y, want, rtol=c.tol, atol=c.tol)
    else:
        np.testing.assert_array_equal(y, want)


def test_every_op_has_a_hand_case():
    missing = sorted(set(REGISTRY) - {c.op for c in CASES})
    assert not missing, f"ops without a hand-computed oracle case: {missing}"


def test_every_attr_with_choices_is_covered():
    """Each choice of a str (or int) attr is exercised by some case (gelu tanh, pad reflect, matmul_nbits bits 8, ...)."""
    seen = {(c.op, k, v) for c in CASES for k, v in normalize_attrs(REGISTRY[c.op], c.attrs).items()
            if isinstance(v, (str, int))}
    missing = [
        f"{op.name}.{a.name}={ch}"
        for op in REGISTRY.values()
        for a in op.attrs
        if a.choices and a.name != "to"
        for ch in a.choices
        if (op.name, a.name, ch) not in seen
    ]
    assert not missing, missing


def test_matmul_result_depends_on_the_op_dtype():
    op = REGISTRY["matmul"]
    assert op.oracle_needs_dtype
    a = np.array([[0.3, 1.0]], "float32")  # 0.3 is not representable on the int8 grid of this row
    b = np.array([[1.0], [1.0]], "float32")
    exact = op.evaluate([a, b], {}, "f32")
    quant = op.evaluate([a, b], {}, "i8")
    assert exact[0, 0] == np.float32(1.3)
    assert quant[0, 0] != exact[0, 0]


# ---- the int8 GEMM helpers ---------------------------------------------------------------


def test_quantize_per_row_rounds_half_away_and_keeps_zero_rows():
    codes, scales = quantize_per_row(np.array(_A8, dtype="float32"))
    assert codes.dtype == np.int8 and scales.dtype == np.float32
    assert codes.tolist() == [[127, 1, -3, 2], [0, 0, 0, 0]]
    assert scales.tolist() == [2.0, 1.0]


def test_quantize_per_row_uses_float32_reciprocal():
    # 3/254 * (1 / f32(3/127)) is 0.49999997 in float32 (0.5 in exact arithmetic): code 0, not 1
    codes, scales = quantize_per_row(np.array([[3.0, f32(3 / 254)]], dtype="float32"))
    assert codes.tolist() == [[127, 0]]
    assert scales.tolist() == [f32(3.0 / 127.0)]


def test_quantize_per_col_scales_and_zero_column():
    codes, scales = quantize_per_col(np.array([[254.0, 0.0], [-1.0, 0.0], [3.0, 0.0]], dtype="float32"))
    assert scales.tolist() == [2.0, 1.0]
    assert codes.tolist() == [[127, 0], [-1, 0], [2, 0]]  # -0.5 -> -1, 1.5 -> 2


def test_quantize_per_col_clamps_to_127():
    codes, _ = quantize_per_col(np.array([[1.0], [-1.0]], dtype="float32"))
    assert codes.tolist() == [[127], [-127]]


def test_int8_accumulate_is_int32():
    qa = np.array([[127, -127, 1]], dtype="int8")
    qb = np.array([[127], [-127], [-128]], dtype="int8")
    acc = int8_matmul_accumulate(qa, qb)
    assert acc.dtype == np.int32
    assert acc.tolist() == [[127 * 127 * 2 - 128]]
