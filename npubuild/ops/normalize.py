"""Normalisation ops: softmax, rms_norm, layer_norm, group_norm.

The oracles accumulate in float64 and round once to the op's dtype, so they are
the most accurate value a kernel can be compared against.
"""
from __future__ import annotations

from ..core.errors import OpError
from .lazy_numpy import np
from .registry import (
    FLOAT_DTYPES,
    Attr,
    OpDef,
    fmt_shape,
    norm_axis,
    register,
)

EPS = Attr("eps", "float", 1e-5, doc="added to the variance (mean square) before the square root")


def _wide(x):
    return x.astype("float64")


# ---- softmax ----------------------------------------------------------------------------


def _infer_softmax(shapes, attrs):
    x = tuple(shapes[0])
    norm_axis(attrs["axis"], len(x))
    return x


def _softmax(xs, attrs):
    x = xs[0]
    ax = norm_axis(attrs["axis"], x.ndim)
    w = _wide(x)
    e = np.exp(w - np.max(w, axis=ax, keepdims=True))
    return (e / np.sum(e, axis=ax, keepdims=True)).astype(x.dtype)


# ---- rms_norm / layer_norm ----------------------------------------------------------------


def _check_params(op: str, params: dict, want: tuple, what: str) -> None:
    for name, shape in params.items():
        if tuple(shape) != want:
            raise OpError(f"{op}: {name} must have shape {fmt_shape(want)} ({what}), got {fmt_shape(shape)}")


def _infer_last_norm(op_name: str, names: tuple[str, ...]):
    def infer(shapes, attrs):
        x = tuple(shapes[0])
        if len(x) < 1:
            raise OpError(f"{op_name}: x must have rank >= 1 (it normalises the last axis), got a scalar")
        _check_params(op_name, dict(zip(names, shapes[1:])), (x[-1],), "the normalised axis")
        return x

    return infer


def _rms_norm(xs, attrs):
    x, gamma = xs
    w = _wide(x)
    ms = np.mean(w * w, axis=-1, keepdims=True)
    return (w / np.sqrt(ms + attrs["eps"]) * _wide(gamma)).astype(x.dtype)


def _layer_norm(xs, attrs):
    x, gamma, beta = xs
    w = _wide(x)
    mean = np.mean(w, axis=-1, keepdims=True)
    var = np.mean((w - mean) ** 2, axis=-1, keepdims=True)
    return ((w - mean) / np.sqrt(var + attrs["eps"]) * _wide(gamma) + _wide(beta)).astype(x.dtype)


# ---- group_norm --------------------------------------------------------------------------


def _infer_group_norm(shapes, attrs):
    x = tuple(shapes[0])
    g = attrs["num_groups"]
    if len(x) < 2:
        raise OpError(f"group_norm: x must be [N, C, *] (rank >= 2), got {fmt_shape(x)}")
    c = x[1]
    if g <= 0:
        raise OpError(f"group_norm: num_groups must be positive, got {g}")
    if c % g:
        raise OpError(f"group_norm: the channel count C={c} is not divisible by num_groups={g}")
    _check_params("group_norm", {"gamma": shapes[1], "beta": shapes[2]}, (c,), "one per channel C")
    return x


def _group_norm(xs, attrs):
    x, gamma, beta = xs
    n, c = x.shape[0], x.shape[1]
    g = attrs["num_groups"]
    w = _wide(x).reshape(n, g, -1)
    mean = np.mean(w, axis=-1, keepdims=True)
    var = np.mean((w - mean) ** 2, axis=-1, keepdims=True)
    y = ((w - mean) / np.sqrt(var + attrs["eps"])).reshape(x.shape)
    per_channel = (c,) + (1,) * (x.ndim - 2)
    return (y * _wide(gamma).reshape(per_channel) + _wide(beta).reshape(per_channel)).astype(x.dtype)


register(
    OpDef(
        name="softmax",
        family="normalize",
        doc="exp(x - max) / sum(exp(x - max)) along one axis",
        inputs=("x",),
        infer=_infer_softmax,
        oracle=_softmax,
        attrs=(Attr("axis", "int", -1, doc="the axis that sums to 1 (negative counts from the end)"),),
        dtypes=FLOAT_DTYPES,
    ),
    OpDef(
        name="rms_norm",
        family="normalize",
        doc="x / sqrt(mean(x^2) + eps) * gamma over the last axis",
        inputs=("x", "gamma"),
        infer=_infer_last_norm("rms_norm", ("gamma",)),
        oracle=_rms_norm,
        attrs=(EPS,),
        dtypes=FLOAT_DTYPES,
    ),
    OpDef(
        name="layer_norm",
        family="normalize",
        doc="(x - mean) / sqrt(var + eps) * gamma + beta over the last axis (population variance)",
        inputs=("x", "gamma", "beta"),
        infer=_infer_last_norm("layer_norm", ("gamma", "beta")),
        oracle=_layer_norm,
        attrs=(EPS,),
        dtypes=FLOAT_DTYPES,
    ),
    OpDef(
        name="group_norm",
        family="normalize",
        doc="normalise x [N, C, *] over each group of C/num_groups channels (and all spatial dims), "
        "then a per-channel gamma, beta (PyTorch GroupNorm)",
        inputs=("x", "gamma", "beta"),
        infer=_infer_group_norm,
        oracle=_group_norm,
        attrs=(
            Attr("num_groups", "int", doc="number of channel groups; must divide C"),
            EPS,
        ),
        dtypes=FLOAT_DTYPES,
    ),
)
