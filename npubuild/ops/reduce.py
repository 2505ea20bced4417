"""Reductions (sum/mean/max/min/prod), cumulative scans and arg-max/min.

Float oracles accumulate in float64 and round once to the op's dtype; integer
sums and products wrap in the op's dtype (two's complement), like a kernel that
accumulates in that dtype.
"""
from __future__ import annotations

import warnings

from ..core.errors import OpError
from .lazy_numpy import np
from .registry import (
    FLOAT_DTYPES,
    INDEX_DTYPE_ATTR,
    NUMERIC_DTYPES,
    NUMPY_DTYPE,
    Attr,
    OpDef,
    fmt_shape,
    norm_axis,
    register,
)


def _wide(x):
    """float64 for floats, int64 for integers (the caller casts back)."""
    return x.astype("float64" if x.dtype.kind == "f" else "int64")


def _norm_axes(axes, rank: int) -> tuple[int, ...]:
    if not axes:
        return tuple(range(rank))
    out = tuple(norm_axis(a, rank) for a in axes)
    if len(set(out)) != len(out):
        raise OpError(f"axes {list(axes)} name the same axis twice (rank {rank})")
    return out


# ---- reduce ------------------------------------------------------------------------------


def _infer_reduce(shapes, attrs):
    x = tuple(shapes[0])
    axes = _norm_axes(attrs["axes"], len(x))
    if attrs["keepdims"]:
        return tuple(1 if i in axes else d for i, d in enumerate(x))
    return tuple(d for i, d in enumerate(x) if i not in axes)


def _no_empty_search(op: str, infer):
    """``infer``, refusing a max, min or arg search over an axis of length 0: it has no element to give
    (NumPy raises; a sum, product or mean of nothing is its identity, or NaN for the mean)."""

    def checked(shapes, attrs):
        out = infer(shapes, attrs)
        x = tuple(shapes[0])
        axes = _norm_axes(attrs["axes"], len(x)) if "axes" in attrs else (norm_axis(attrs["axis"], len(x)),)
        if x and any(x[a] == 0 for a in axes) and 0 not in out:
            raise OpError(f"{op}: x {fmt_shape(x)} has no element along the searched axes {list(axes)}: "
                          f"the {op.split('_')[-1].removeprefix('arg')} of nothing is undefined")
        return out

    return checked


def _reducer(fn_name: str, widen: bool):
    def oracle(xs, attrs):
        x = xs[0]
        axes = _norm_axes(attrs["axes"], x.ndim)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # the mean of nothing is NaN, which NumPy warns about
            y = getattr(np, fn_name)(_wide(x) if widen else x, axis=axes, keepdims=attrs["keepdims"])
        return np.asarray(y).astype(x.dtype)

    return oracle


_REDUCE_ATTRS = (
    Attr("axes", "ints", [-1], doc="axes to reduce (negative counts from the end); [] reduces every axis (ONNX)"),
    Attr("keepdims", "bool", False, doc="keep each reduced axis as size 1"),
)

# name -> (numpy reducer, widen to float64/int64 before reducing, dtypes, doc)
_REDUCE = {
    "reduce_sum": ("sum", True, NUMERIC_DTYPES, "sum over axes"),
    "reduce_mean": ("mean", True, FLOAT_DTYPES, "arithmetic mean over axes"),
    "reduce_max": ("max", False, NUMERIC_DTYPES, "maximum over axes"),
    "reduce_min": ("min", False, NUMERIC_DTYPES, "minimum over axes"),
    "reduce_prod": ("prod", True, NUMERIC_DTYPES, "product over axes"),
}

for _name, (_fn, _widen, _dtypes, _doc) in _REDUCE.items():
    register(
        OpDef(
            name=_name,
            family="reduce",
            doc=_doc + " (ONNX Reduce*; integers wrap)",
            inputs=("x",),
            infer=_no_empty_search(_name, _infer_reduce) if _fn in ("max", "min") else _infer_reduce,
            oracle=_reducer(_fn, _widen),
            attrs=_REDUCE_ATTRS,
            dtypes=_dtypes,
        )
    )


# ---- scans -------------------------------------------------------------------------------


def _infer_same(shapes, attrs):
    x = tuple(shapes[0])
    norm_axis(attrs["axis"], len(x))
    return x


def _scan_identity(kind: str, dtype):
    if kind == "sum":
        return 0
    if kind == "prod":
        return 1
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _scan(kind: str):
    def oracle(xs, attrs):
        x = xs[0]
        ax = norm_axis(attrs["axis"], x.ndim)
        w = _wide(x) if kind != "max" else x
        if attrs["reverse"]:
            w = np.flip(w, axis=ax)
        if attrs["exclusive"]:
            head = np.full_like(np.take(w, [0], axis=ax), _scan_identity(kind, x.dtype))
            w = np.concatenate([head, np.take(w, np.arange(w.shape[ax] - 1), axis=ax)], axis=ax)
        if kind == "sum":
            y = np.cumsum(w, axis=ax)
        elif kind == "prod":
            y = np.cumprod(w, axis=ax)
        else:
            y = np.maximum.accumulate(w, axis=ax)
        if attrs["reverse"]:
            y = np.flip(y, axis=ax)
        return np.ascontiguousarray(y).astype(x.dtype)

    return oracle


_SCAN_ATTRS = (
    Attr("axis", "int", -1, doc="the scanned axis (negative counts from the end)"),
    Attr("exclusive", "bool", False, doc="true: element i combines elements before i only (ONNX CumSum exclusive)"),
    Attr("reverse", "bool", False, doc="true: scan from the end of the axis toward the start (ONNX CumSum reverse)"),
)

_SCAN = {
    "cumsum": ("sum", "running sum along an axis (ONNX CumSum); exclusive starts at 0"),
    "cumprod": ("prod", "running product along an axis; exclusive starts at 1"),
    "cummax": ("max", "running maximum along an axis; exclusive starts at -inf (the dtype's minimum for integers)"),
}

for _name, (_kind, _doc) in _SCAN.items():
    register(
        OpDef(
            name=_name,
            family="scan",
            doc=_doc,
            inputs=("x",),
            infer=_infer_same,
            oracle=_scan(_kind),
            attrs=_SCAN_ATTRS,
            dtypes=NUMERIC_DTYPES,
        )
    )


# ---- argmax / argmin ---------------------------------------------------------------------


def _infer_arg(shapes, attrs):
    x = tuple(shapes[0])
    ax = norm_axis(attrs["axis"], len(x))
    if attrs["keepdims"]:
        return x[:ax] + (1,) + x[ax + 1 :]
    return x[:ax] + x[ax + 1 :]


def _arg(fn_name: str):
    def oracle(xs, attrs):
        x = xs[0]
        ax = norm_axis(attrs["axis"], x.ndim)
        fn = getattr(np, fn_name)
        if attrs["select_last_index"]:
            idx = x.shape[ax] - 1 - fn(np.flip(x, axis=ax), axis=ax)
        else:
            idx = fn(x, axis=ax)
        if attrs["keepdims"]:
            idx = np.expand_dims(idx, ax)
        return np.asarray(idx).astype(NUMPY_DTYPE[attrs["index_dtype"]])

    return oracle


def _arg_signature(dtype, n, attrs):
    return [dtype], attrs.get("index_dtype", "i64")


_ARG_ATTRS = (
    Attr("axis", "int", -1, doc="the searched axis (negative counts from the end)"),
    Attr("keepdims", "bool", False, doc="keep the searched axis as size 1"),
    Attr("select_last_index", "bool", False, doc="on ties return the last index instead of the first (ONNX)"),
    INDEX_DTYPE_ATTR,
)

for _name, _fn, _doc in (
    ("argmax", "argmax", "index of the maximum along an axis (ONNX ArgMax)"),
    ("argmin", "argmin", "index of the minimum along an axis (ONNX ArgMin)"),
):
    register(
        OpDef(
            name=_name,
            family="arg",
            doc=_doc,
            inputs=("x",),
            infer=_no_empty_search(_name, _infer_arg),
            oracle=_arg(_fn),
            attrs=_ARG_ATTRS,
            dtypes=NUMERIC_DTYPES,
            signature=_arg_signature,
            dtype_doc="the input has the op's dtype; the output is index_dtype (i64, or i32: what xdna takes)",
        )
    )
