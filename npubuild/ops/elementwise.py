"""Elementwise ops: unary activations, binary arithmetic, compare, where, fma,
clamp, cast.

Unary and binary ops broadcast like NumPy (the NPU kernels of the reference design
stream equal-length buffers: xdna's restrictions, npubuild/targets/xdna/rules.py,
reject broadcasting).
"""
from __future__ import annotations

import math

from .lazy_numpy import np
from .registry import (
    BYTE_DTYPES,
    FLOAT_DTYPES,
    NUMERIC_DTYPES,
    Attr,
    OpDef,
    broadcast_shapes,
    register,
)


def _infer_unary(shapes, attrs):
    return tuple(shapes[0])


def _infer_broadcast(shapes, attrs):
    return broadcast_shapes(*shapes)


def _erf(x):
    return np.frompyfunc(math.erf, 1, 1)(x.astype("float64")).astype(x.dtype)


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _softplus(x):
    # log(1 + e^x) without overflow for large x
    return np.logaddexp(0.0, x).astype(x.dtype)


def _gelu(x, attrs):
    if attrs["approximate"] == "tanh":
        c = math.sqrt(2.0 / math.pi)
        return 0.5 * x * (1.0 + np.tanh(c * (x + 0.044715 * x**3)))
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


# name -> (oracle(x, attrs), attrs, dtypes, doc)
_UNARY = {
    "relu": (lambda x, a: np.maximum(x, 0).astype(x.dtype), (), NUMERIC_DTYPES, "max(x, 0)"),
    "neg": (lambda x, a: -x, (), NUMERIC_DTYPES, "-x"),
    "abs": (lambda x, a: np.abs(x), (), NUMERIC_DTYPES, "|x|"),
    "exp": (lambda x, a: np.exp(x), (), FLOAT_DTYPES, "e^x"),
    "log": (lambda x, a: np.log(x), (), FLOAT_DTYPES, "natural logarithm"),
    "sqrt": (lambda x, a: np.sqrt(x), (), FLOAT_DTYPES, "square root"),
    "rsqrt": (lambda x, a: 1.0 / np.sqrt(x), (), FLOAT_DTYPES, "1 / sqrt(x)"),
    "tanh": (lambda x, a: np.tanh(x), (), FLOAT_DTYPES, "hyperbolic tangent"),
    "recip": (lambda x, a: 1.0 / x, (), FLOAT_DTYPES, "1 / x"),
    "sigmoid": (lambda x, a: _sigmoid(x), (), FLOAT_DTYPES, "1 / (1 + e^-x)"),
    "silu": (lambda x, a: x * _sigmoid(x), (), FLOAT_DTYPES, "x * sigmoid(x) (swish)"),
    "gelu": (
        lambda x, a: _gelu(x, a),
        (
            Attr(
                "approximate",
                "str",
                "none",
                ("none", "tanh"),
                "'none': exact erf form (ONNX/PyTorch default); 'tanh': the tanh approximation the NPU computes",
            ),
        ),
        FLOAT_DTYPES,
        "Gaussian error linear unit",
    ),
    "floor": (lambda x, a: np.floor(x), (), FLOAT_DTYPES, "round toward -inf"),
    "ceil": (lambda x, a: np.ceil(x), (), FLOAT_DTYPES, "round toward +inf"),
    "round": (lambda x, a: np.round(x), (), FLOAT_DTYPES, "round half to even (ONNX Round)"),
    "sign": (lambda x, a: np.sign(x), (), NUMERIC_DTYPES, "-1, 0 or 1"),
    "softplus": (lambda x, a: _softplus(x), (), FLOAT_DTYPES, "log(1 + e^x)"),
    "elu": (
        lambda x, a: np.where(x > 0, x, a["alpha"] * (np.exp(np.minimum(x, 0)) - 1)).astype(x.dtype),
        (Attr("alpha", "float", 1.0, doc="slope of the negative part"),),
        FLOAT_DTYPES,
        "x if x > 0 else alpha * (e^x - 1)",
    ),
    "hard_sigmoid": (
        lambda x, a: np.clip(a["alpha"] * x + a["beta"], 0, 1).astype(x.dtype),
        (Attr("alpha", "float", 0.2, doc="slope (ONNX default 0.2; PyTorch uses 1/6)"), Attr("beta", "float", 0.5, doc="offset")),
        FLOAT_DTYPES,
        "clip(alpha * x + beta, 0, 1) (ONNX HardSigmoid)",
    ),
    "hard_swish": (
        lambda x, a: (x * np.clip(x / 6.0 + 0.5, 0, 1)).astype(x.dtype),
        (),
        FLOAT_DTYPES,
        "x * clip(x / 6 + 1/2, 0, 1) (ONNX HardSwish, PyTorch hardswish)",
    ),
    "mish": (lambda x, a: x * np.tanh(_softplus(x)), (), FLOAT_DTYPES, "x * tanh(softplus(x))"),
    "softsign": (lambda x, a: x / (1 + np.abs(x)), (), FLOAT_DTYPES, "x / (1 + |x|)"),
    "log_sigmoid": (lambda x, a: -_softplus(-x), (), FLOAT_DTYPES, "log(sigmoid(x))"),
    "sin": (lambda x, a: np.sin(x), (), FLOAT_DTYPES, "sine"),
    "cos": (lambda x, a: np.cos(x), (), FLOAT_DTYPES, "cosine"),
    "erf": (lambda x, a: _erf(x), (), FLOAT_DTYPES, "Gauss error function"),
}

for _name, (_fn, _attrs, _dtypes, _doc) in _UNARY.items():
    register(
        OpDef(
            name=_name,
            family="unary",
            doc=_doc,
            inputs=("x",),
            infer=_infer_unary,
            oracle=(lambda f: lambda xs, a: f(xs[0], a))(_fn),
            attrs=_attrs,
            dtypes=_dtypes,
        )
    )


# the largest finite f32: alpha becomes an f32 constant of the kernels, so it must round to a finite f32
# (an inf or NaN slope would also make leaky_relu(0) NaN)
_F32_MAX = 3.4028234663852886e38


def _finite_f32(v: float) -> str | None:
    return None if abs(v) <= _F32_MAX else f"must be a finite number of at most 3.4e38 in magnitude (an f32), got {v}"


def _leaky_relu(xs, attrs):
    """x > 0 ? x : alpha * x (PyTorch's compare and select), alpha rounded to f32 and the product computed
    in f32. f16 is widened here and rounded once, as the kernels compute it (bf16 arrives widened:
    ops/bf16.py); NumPy's own f16 arithmetic would round alpha to f16 first."""
    x = xs[0]
    w = x.astype(np.float32)
    y = np.where(w > 0, w, np.float32(attrs["alpha"]) * w)
    return y.astype(x.dtype)


register(
    OpDef(
        name="leaky_relu",
        family="unary",
        doc="x if x > 0 else alpha * x (ONNX LeakyRelu, torch.nn.functional.leaky_relu)",
        inputs=("x",),
        infer=_infer_unary,
        oracle=_leaky_relu,
        attrs=(Attr("alpha", "float", 0.01, doc="slope for x <= 0 (ONNX and PyTorch default 0.01); a finite f32",
                    check=_finite_f32),),
        dtypes=FLOAT_DTYPES,
    )
)


def _mod(a, b, attrs):
    if attrs["fmod"]:
        return np.fmod(a, b)
    return np.mod(a, b)


_BINARY = {
    "add": (lambda a, b, at: a + b, (), "a + b"),
    "sub": (lambda a, b, at: a - b, (), "a - b"),
    "mul": (lambda a, b, at: a * b, (), "a * b"),
    "div": (lambda a, b, at: a / b if a.dtype.kind == "f" else np.floor_divide(a, b), (), "a / b (integers: floor division)"),
    "max": (lambda a, b, at: np.maximum(a, b), (), "elementwise maximum"),
    "min": (lambda a, b, at: np.minimum(a, b), (), "elementwise minimum"),
    "mod": (
        _mod,
        (Attr("fmod", "bool", False, doc="false: result has the divisor's sign (Python/ONNX fmod=0); true: C fmod"),),
        "remainder of a / b",
    ),
}

for _name, (_fn, _attrs, _doc) in _BINARY.items():
    register(
        OpDef(
            name=_name,
            family="binary",
            doc=_doc + "; NumPy broadcasting",
            inputs=("a", "b"),
            infer=_infer_broadcast,
            oracle=(lambda f: lambda xs, at: f(xs[0], xs[1], at))(_fn),
            attrs=_attrs,
            dtypes=NUMERIC_DTYPES,
        )
    )


def _pow(xs, attrs):
    """numpy.power in float64 (C99 pow's special cases), rounded once to the dtype."""
    x, y = xs
    with np.errstate(all="ignore"):
        return np.power(x.astype(np.float64), y.astype(np.float64)).astype(x.dtype)


register(
    OpDef(
        name="pow",
        family="binary",
        doc="x ** y with a tensor exponent (ONNX Pow, numpy.power; C99 pow's special cases); NumPy broadcasting",
        inputs=("x", "y"),
        infer=_infer_broadcast,
        oracle=_pow,
        dtypes=FLOAT_DTYPES,
    )
)


def _compare_signature(dtype, n, attrs):
    return [dtype] * n, "bool"


_COMPARE = {
    "eq": (lambda a, b: a == b, "a == b"),
    "ne": (lambda a, b: a != b, "a != b"),
    "lt": (lambda a, b: a < b, "a < b"),
    "le": (lambda a, b: a <= b, "a <= b"),
    "gt": (lambda a, b: a > b, "a > b"),
    "ge": (lambda a, b: a >= b, "a >= b"),
}

for _name, (_fn, _doc) in _COMPARE.items():
    register(
        OpDef(
            name=_name,
            family="compare",
            doc=_doc + " (bool output); NumPy broadcasting",
            inputs=("a", "b"),
            infer=_infer_broadcast,
            oracle=(lambda f: lambda xs, at: f(xs[0], xs[1]))(_fn),
            dtypes=NUMERIC_DTYPES + ("u8",),
            signature=_compare_signature,
            dtype_doc="inputs have the op's dtype; the output is bool",
        )
    )


def _where_signature(dtype, n, attrs):
    return ["bool", dtype, dtype], dtype


register(
    OpDef(
        name="where",
        family="select",
        doc="cond ? a : b (ONNX Where); NumPy broadcasting",
        inputs=("cond", "a", "b"),
        infer=_infer_broadcast,
        oracle=lambda xs, at: np.where(xs[0], xs[1], xs[2]),
        dtypes=NUMERIC_DTYPES + ("u8",),
        signature=_where_signature,
        dtype_doc="cond is bool; a, b and the output have the op's dtype",
    ),
    OpDef(
        name="fma",
        family="select",
        doc="a * b + c; NumPy broadcasting",
        inputs=("a", "b", "c"),
        infer=_infer_broadcast,
        oracle=lambda xs, at: xs[0] * xs[1] + xs[2],
        dtypes=FLOAT_DTYPES,
    ),
    OpDef(
        name="clamp",
        family="select",
        doc="min(max(x, min), max) (ONNX Clip with constant bounds)",
        inputs=("x",),
        infer=_infer_unary,
        oracle=lambda xs, at: np.clip(xs[0], at["min"], at["max"]).astype(xs[0].dtype),
        attrs=(
            Attr("min", "float", float("-inf"), doc="lower bound"),
            Attr("max", "float", float("inf"), doc="upper bound"),
        ),
        dtypes=NUMERIC_DTYPES,
    ),
)


def _cast_signature(dtype, n, attrs):
    return [dtype], attrs["to"]


def _cast(xs, at):
    x = xs[0]
    if at["to"] in ("i8", "u8", "i32", "i64") and x.dtype.kind == "f":
        x = np.trunc(x)  # ONNX Cast: float -> int truncates toward zero
    return x


register(
    OpDef(
        name="cast",
        family="cast",
        doc="convert the dtype (float -> int truncates toward zero, as ONNX Cast)",
        inputs=("x",),
        infer=_infer_unary,
        oracle=_cast,
        attrs=(Attr("to", "str", choices=BYTE_DTYPES, doc="destination dtype"),),
        dtypes=BYTE_DTYPES,
        signature=_cast_signature,
        dtype_doc="the input has the op's dtype; the output has attr 'to'",
    )
)
