"""topk (ONNX TopK, torch.topk): the k largest (or smallest) elements along an axis.

ONNX's TopK has two outputs, the values and their indices; a kernel here has one output, so
``output: values`` (default) or ``output: indices`` picks it, and a graph that needs both has two
nodes with the same ``k``, ``axis``, ``largest`` and ``sorted`` (they select the same elements).

Order (ONNX: "if two elements are equal, the one with the lower index appears first"): by value,
descending for ``largest: true`` and ascending otherwise, equal values by index ascending. NaN counts
as larger than every number (numpy.sort's and torch.topk's rule; ONNX does not say), ``-0.0`` equals
``+0.0``. ``sorted: false`` lets ONNX return the k elements in any order; npubuild returns them in
the sorted order anyway, so both settings give the same tensor.
"""
from __future__ import annotations

from ..core.errors import OpError
from .lazy_numpy import np
from .registry import INDEX_DTYPE_ATTR, NUMERIC_DTYPES, Attr, OpDef, fmt_shape, norm_axis, register


def _signature(dtype, n, attrs):
    return [dtype], attrs.get("index_dtype", "i64") if attrs.get("output") == "indices" else dtype


def _infer(shapes, attrs):
    x = tuple(shapes[0])
    if not x:
        raise OpError("topk: x must have rank >= 1")
    ax = norm_axis(attrs["axis"], len(x))
    if not 0 <= attrs["k"] <= x[ax]:  # k = 0: an empty output, as ONNX allows
        raise OpError(f"topk: k {attrs['k']} must be between 0 and the length {x[ax]} of axis {attrs['axis']} "
                      f"of x {fmt_shape(x)}")
    return x[:ax] + (attrs["k"],) + x[ax + 1 :]


def selection_order(x, axis: int, largest: bool):
    """Indices along ``axis`` in the order above (a stable sort: ties keep index order)."""
    if not largest:
        return np.argsort(x, axis=axis, kind="stable")  # ascending, NaN last
    n = x.shape[axis]
    # descending with ties by index: a stable ascending sort of the reversed axis, read backwards
    rev = np.flip(np.argsort(np.flip(x, axis=axis), axis=axis, kind="stable"), axis=axis)
    return (n - 1) - rev


def _topk(xs, attrs):
    x = xs[0]
    ax = norm_axis(attrs["axis"], x.ndim)
    order = np.take(selection_order(x, ax, attrs["largest"]), np.arange(attrs["k"]), axis=ax)
    if attrs["output"] == "indices":
        return order.astype(np.int64)
    return np.take_along_axis(x, order, axis=ax)


register(
    OpDef(
        name="topk",
        family="topk",
        doc="the k largest or smallest elements along axis, sorted, ties by lower index (ONNX TopK, torch.topk); "
        "output picks ONNX's values or indices output",
        inputs=("x",),
        infer=_infer,
        oracle=_topk,
        attrs=(
            Attr("k", "int", doc="how many elements (0 to the axis length; 0 gives an empty output)"),
            Attr("axis", "int", -1, doc="the axis searched (negative counts from the end)"),
            Attr("largest", "bool", True, doc="true: the largest first; false: the smallest first"),
            Attr("sorted", "bool", True, doc="ONNX's flag; false allows any order, and npubuild returns the sorted "
                 "one either way"),
            Attr("output", "str", "values", ("values", "indices"), "which of ONNX's two outputs this kernel gives"),
            INDEX_DTYPE_ATTR,
        ),
        dtypes=NUMERIC_DTYPES,
        signature=_signature,
        dtype_doc="x has the op's dtype; the output too (output: values), or index_dtype (output: indices)",
    )
)
