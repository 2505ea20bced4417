"""MIL ops in NumPy: what a CPU node of an ANE plan computes (Core ML's CPU fallback).

A node the plan places on the CPU (:mod:`.plan`) is computed here with the semantics
coremltools 9.0 gives the op (``coremltools/converters/mil/mil/ops/defs/iOS15..iOS18``;
their ``value_inference`` methods are the reference this follows). The runtime
(:mod:`npubuild.runner.ane`) hands each form its operands as NumPy values — fp16 and
fp32 tensors as float32 (an fp16 operand holds fp16 values exactly), int and bool
tensors in their own dtype, constant parameters as Python values — and rounds the
result to the result's MIL dtype (fp16 for an fp16 model), as Core ML's CPU
fallback of an fp16 model computes in fp32 and stores fp16.

This module holds the dispatch, the element-wise ops, the activations and the
reductions (the registry and shared helpers are :mod:`.cpu_ops_base`); :mod:`.cpu_ops_nn` the linear algebra, convolutions, pooling and
normalisations; :mod:`.cpu_ops_tensor` the layout and indexing ops.
"""
from __future__ import annotations

import math

from ..ops.lazy_numpy import np
from . import cpu_ops_nn, cpu_ops_tensor  # noqa: F401 - they register their forms
from .cpu_ops_base import OPS, Args, _p, _per_channel, axis_of, register  # noqa: F401 - Args is the forms' interface
from .numerics import gelu as _gelu_forms

def has_form(op: str) -> bool:
    return op in OPS


def compute(op: str, args: Args):
    """The results of ``op`` (a tuple, one array per MIL result)."""
    out = OPS[op](args)
    return out if isinstance(out, tuple) else (out,)


# ---- element-wise binary (iOS15/elementwise_binary.py: NumPy broadcasting, Python's operators) ---------------------------

_BINARY = {
    "add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
    "real_div": lambda x, y: np.true_divide(x, y), "floor_div": lambda x, y: np.floor_divide(x, y),
    "mod": lambda x, y: np.mod(x, y), "pow": lambda x, y: np.power(x, y),
    "maximum": lambda x, y: np.maximum(x, y), "minimum": lambda x, y: np.minimum(x, y),
    "equal": lambda x, y: np.equal(x, y), "not_equal": lambda x, y: np.not_equal(x, y),
    "greater": lambda x, y: np.greater(x, y), "greater_equal": lambda x, y: np.greater_equal(x, y),
    "less": lambda x, y: np.less(x, y), "less_equal": lambda x, y: np.less_equal(x, y),
    "logical_and": lambda x, y: np.logical_and(x, y), "logical_or": lambda x, y: np.logical_or(x, y),
    "logical_xor": lambda x, y: np.logical_xor(x, y),
}


def _binary(name):
    fn = _BINARY[name]

    def form(a):
        with np.errstate(all="ignore"):  # x/0 is inf or nan, as in the reference
            return fn(np.asarray(a.x), np.asarray(a.y))

    return form


for _n in _BINARY:
    register(_n)(_binary(_n))


# ---- element-wise unary (iOS15/elementwise_unary.py) ----------------------------------------------------------------------

def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(np.asarray(x, np.float64))


_UNARY = {
    "abs": np.abs, "acos": np.arccos, "asin": np.arcsin, "atan": np.arctan, "atanh": np.arctanh,
"ceil": np.ceil, "cos": np.cos, "cosh": np.cosh, "erf": _erf,
    "exp": np.exp, "exp2": np.exp2, "floor": np.floor, "round": np.round, "sign": np.sign, "sin": np.sin,
    "sinh": np.sinh, "sqrt": np.sqrt, "square": np.square, "tan": np.tan, "tanh": np.tanh,
    "logical_not": np.logical_not, "identity": lambda x: x,
    # activations without parameters (iOS15/activation.py)
    "relu": lambda x: np.maximum(x, 0), "relu6": lambda x: np.minimum(np.maximum(x, 0), 6),
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "silu": lambda x: x / (1 + np.exp(-x)),
    "softplus": lambda x: np.log(1 + np.exp(-np.abs(x))) + np.maximum(x, 0), "softsign": lambda x: x / (1 + np.abs(x)),
}


def _unary(name):
    fn = _UNARY[name]

    def form(a):
        with np.errstate(all="ignore"):
            return fn(np.asarray(a.x))

    return form


for _n in _UNARY:
    register(_n)(_unary(_n))


@register("inverse")
def _inverse(a):
    with np.errstate(all="ignore"):
        return np.reciprocal(a.x + _p(a, "epsilon", 1e-4))


@register("log")
def _log(a):
    with np.errstate(all="ignore"):
        return np.log(a.x + _p(a, "epsilon", 1e-45))


@register("rsqrt")
def _rsqrt(a):
    with np.errstate(all="ignore"):
        return 1.0 / np.sqrt(a.x + _p(a, "epsilon", 1e-12))


@register("threshold")
def _threshold(a):
    return np.maximum(a.x, a.alpha)


@register("clip")
def _clip(a):
    return np.minimum(np.maximum(a.x, a.alpha), a.beta)


# ---- activations with parameters (iOS15/activation.py) --------------------------------------------------------------------

@register("leaky_relu")
def _leaky_relu(a):
    x = a.x
    return np.where(x < 0, x * _p(a, "alpha", 0.01), x)


@register("elu")
def _elu(a):
    x = a.x
    with np.errstate(all="ignore"):
        return np.where(x < 0, _p(a, "alpha", 1.0) * (np.exp(x) - 1), x)


@register("clamped_relu")
def _clamped_relu(a):
    x = a.x
    return np.minimum(np.maximum(x, 0), a.beta) + np.minimum(np.minimum(x, 0) * _p(a, "alpha", 1.0), a.beta)


@register("thresholded_relu")
def _thresholded_relu(a):
    return np.where(a.x < _p(a, "alpha", 1.0), 0, a.x)


@register("linear_activation")
def _linear_activation(a):
    return a.alpha * a.x + _p(a, "beta", 0.0)


@register("scaled_tanh")
def _scaled_tanh(a):
    return _p(a, "alpha", 1.0) * np.tanh(a.x * _p(a, "beta", 1.0))


@register("sigmoid_hard")
def _sigmoid_hard(a):
    return np.minimum(np.maximum(_p(a, "alpha", 0.2) * a.x + _p(a, "beta", 0.5), 0), 1)


@register("prelu")
def _prelu(a):
    x = a.x
    return np.maximum(x, 0) + np.minimum(x, 0) * _per_channel(a.alpha, x.ndim)


@register("softplus_parametric")
def _softplus_parametric(a):
    x = a.x
    with np.errstate(all="ignore"):
        return _per_channel(a.alpha, x.ndim) * np.log(1 + np.exp(x * _per_channel(a.beta, x.ndim)))


@register("gelu")
def _gelu(a):
    mode = _p(a, "mode", "EXACT")
    if mode == "EXACT":  # 0.5 x (1 + erf(x / sqrt 2)), with erf itself (the reference's math.erf)
        x = np.asarray(a.x, np.float64)
        return 0.5 * x * (1 + _erf(x / math.sqrt(2)))
    return _gelu_forms(np.asarray(a.x, np.float32), mode)


@register("softmax")
def _softmax(a):
    x = np.asarray(a.x)
    axis = axis_of(_p(a, "axis", -1), x.ndim)
    with np.errstate(all="ignore"):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)


# ---- reductions (iOS15/reduction.py: axes default all, keep_dims default false) ---------------------------------------------

def _lse(x, axis, keepdims):
    m = np.max(x, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


_REDUCE = {
    "reduce_sum": np.sum, "reduce_mean": np.mean, "reduce_max": np.max, "reduce_min": np.min, "reduce_prod": np.prod,
    "reduce_l1_norm": lambda x, axis, keepdims: np.sum(np.abs(x), axis=axis, keepdims=keepdims),
    "reduce_l2_norm": lambda x, axis, keepdims: np.sqrt(np.sum(np.square(x), axis=axis, keepdims=keepdims)),
    "reduce_sum_square": lambda x, axis, keepdims: np.sum(np.square(x), axis=axis, keepdims=keepdims),
    "reduce_log_sum": lambda x, axis, keepdims: np.log(np.sum(x, axis=axis, keepdims=keepdims)),
    "reduce_log_sum_exp": _lse,
}


def _reduce(name):
    fn = _REDUCE[name]

    def form(a):
        x = np.asarray(a.x)
        axes = a.get("axes")
        axis = tuple(range(x.ndim)) if axes is None else tuple(axis_of(d, x.ndim) for d in np.atleast_1d(axes))
        with np.errstate(all="ignore"):
            return fn(x, axis=axis, keepdims=bool(_p(a, "keep_dims", False)))

    return form


for _n in _REDUCE:
    register(_n)(_reduce(_n))


def _arg(fn):
    def form(a):
        x = np.asarray(a.x)
        axis = axis_of(_p(a, "axis", -1), x.ndim)
        out = fn(x, axis=axis).astype(np.int32)
        return np.expand_dims(out, axis) if _p(a, "keep_dims", False) else out

    return form


register("reduce_argmax")(_arg(lambda x, axis: np.argmax(x, axis=axis)))
register("reduce_argmin")(_arg(lambda x, axis: np.argmin(x, axis=axis)))
