"""Element-indexed ops: gather_elements, scatter_elements (ONNX GatherElements, ScatterElements).

Both address one element of ``data`` per element of ``indices``: the index replaces the coordinate
of ``axis``, every other coordinate is the index's own. ``indices`` has data's rank and, off the
axis, at most data's extent (ONNX leaves a larger extent undefined: it would read outside data).
Negative indices count from the end of the axis; an index outside ``[-n, n)`` is an error of the
oracle (ONNX: "out-of-bound indices ... is an error"), and the kernels' choice is in
npubuild/emitters/host/indexing.py.
"""
from __future__ import annotations

from ..core.errors import OpError
from .lazy_numpy import np
from .registry import (
    DTYPES,
    INDEX_DTYPE_ATTR,
    NUMERIC_DTYPES,
    Attr,
    OpDef,
    fmt_shape,
    norm_axis,
    register,
)

REDUCTIONS = ("none", "add", "mul", "max", "min")


def _check_indices(op: str, data, indices, axis: int) -> int:
    """The normalized axis; OpError when ``indices`` cannot address ``data`` element by element."""
    if len(data) < 1:
        raise OpError(f"{op}: data must have rank >= 1, got {fmt_shape(data)}")
    ax = norm_axis(axis, len(data))
    if len(indices) != len(data):
        raise OpError(f"{op}: indices {fmt_shape(indices)} must have data's rank {len(data)} (data {fmt_shape(data)})")
    for d, (i, n) in enumerate(zip(indices, data)):
        if d != ax and i > n:
            raise OpError(
                f"{op}: indices {fmt_shape(indices)} are larger than data {fmt_shape(data)} on axis {d}, "
                f"which is not the indexed axis {axis}: at most {n} there"
            )
    return ax


def _wrapped(op: str, idx, n: int, axis: int):
    idx = np.asarray(idx).astype("int64")
    bad = (idx < -n) | (idx >= n)
    if np.any(bad):
        raise OpError(f"{op}: index {int(idx[bad].flat[0])} is out of range for axis {axis} of size {n}")
    return np.where(idx < 0, idx + n, idx)


def _element_coords(idx, ax: int):
    """The data coordinates each index element addresses: its own, with the axis replaced by the index."""
    grids = list(np.indices(idx.shape, sparse=True))
    grids[ax] = idx
    return tuple(grids)


# ---- gather_elements ------------------------------------------------------------------------------


def _gather_elements_signature(dtype, n, attrs):
    return [dtype, attrs.get("index_dtype", "i64")], dtype


def _infer_gather_elements(shapes, attrs):
    data, idx = tuple(shapes[0]), tuple(shapes[1])
    ax = _check_indices("gather_elements", data, idx, attrs["axis"])
    if data[ax] == 0 and 0 not in idx:
        raise OpError(f"gather_elements: axis {attrs['axis']} of data {fmt_shape(data)} has no element for the "
                      "indices to take")
    return idx


def _gather_elements(xs, attrs):
    data, idx = xs
    ax = norm_axis(attrs["axis"], data.ndim)
    idx = _wrapped("gather_elements", idx, data.shape[ax], attrs["axis"])
    return data[_element_coords(idx, ax)]


# ---- scatter_elements -----------------------------------------------------------------------------


def _scatter_elements_signature(dtype, n, attrs):
    return [dtype, attrs.get("index_dtype", "i64"), dtype], dtype


def _infer_scatter_elements(shapes, attrs):
    data, idx, upd = (tuple(s) for s in shapes)
    ax = _check_indices("scatter_elements", data, idx, attrs["axis"])
    if data[ax] == 0 and 0 not in idx:
        raise OpError(f"scatter_elements: axis {attrs['axis']} of data {fmt_shape(data)} has no element for the "
                      "indices to address")
    if upd != idx:
        raise OpError(f"scatter_elements: updates {fmt_shape(upd)} must have the shape of indices {fmt_shape(idx)}")
    return data


_COMBINE = {"add": "add", "mul": "multiply", "max": "maximum", "min": "minimum"}  # NumPy ufunc names


def _scatter_elements(xs, attrs):
    """ONNX ScatterElements, the update loop of its definition taken in row-major order of ``indices``.

    Several updates of one output element are combined in that order, starting from data's value
    (``none``: the last one wins; ONNX leaves duplicates undefined there). Floats are combined in
    f32 (f16 widened, rounded once at the end, as bf16 is by the bf16 rule), integers wrap."""
    data, idx, upd = xs
    ax = norm_axis(attrs["axis"], data.ndim)
    idx = _wrapped("scatter_elements", idx, data.shape[ax], attrs["axis"])
    wide = np.float32 if data.dtype.kind == "f" else data.dtype
    out = data.astype(wide)
    upd = upd.astype(wide)
    coords = _element_coords(idx, ax)
    flat_targets = np.ravel_multi_index(tuple(np.broadcast_to(c, idx.shape) for c in coords), data.shape).ravel()
    flat_out, flat_upd = out.reshape(-1), upd.reshape(-1)
    if attrs["reduction"] == "none":
        # the last update of each target: the first of the reversed order
        last = len(flat_targets) - 1 - np.unique(flat_targets[::-1], return_index=True)[1]
        flat_out[flat_targets[last]] = flat_upd[last]
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            # ufunc.at is unbuffered and applies the updates in order: a float sum depends on it
            getattr(np, _COMBINE[attrs["reduction"]]).at(flat_out, flat_targets, flat_upd)
    return out.astype(data.dtype)


register(
    OpDef(
        name="gather_elements",
        family="indexing",
        doc="data at each index along axis, every other coordinate the index's own (ONNX GatherElements; "
        "torch.gather); the output has the shape of indices",
        inputs=("data", "indices"),
        infer=_infer_gather_elements,
        oracle=_gather_elements,
        attrs=(Attr("axis", "int", 0, doc="the indexed axis (negative counts from the end)"), INDEX_DTYPE_ATTR),
        dtypes=DTYPES,
        signature=_gather_elements_signature,
        dtype_doc="data and the output have the op's dtype; indices are index_dtype",
    ),
    OpDef(
        name="scatter_elements",
        family="indexing",
        doc="a copy of data with updates written (or combined by reduction) at each index along axis, every "
        "other coordinate the index's own (ONNX ScatterElements; torch.scatter / scatter_reduce)",
        inputs=("data", "indices", "updates"),
        infer=_infer_scatter_elements,
        oracle=_scatter_elements,
        attrs=(
            Attr("axis", "int", 0, doc="the indexed axis (negative counts from the end)"),
            Attr("reduction", "str", "none", REDUCTIONS,
                 "none: write the update (of duplicate indices the last in row-major order wins); add, mul, max, "
                 "min: combine data's value with every update addressed to it, in row-major order of indices"),
            INDEX_DTYPE_ATTR,
        ),
        dtypes=NUMERIC_DTYPES,
        signature=_scatter_elements_signature,
        dtype_doc="data, updates and the output have the op's dtype; indices are index_dtype",
    ),
)
