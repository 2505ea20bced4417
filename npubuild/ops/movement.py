"""Data-movement ops: reshape, transpose, narrow, slice, reverse, tile, expand,
trilu, concat, gather, pad, stop_gradient.

They move elements without arithmetic, so every dtype is accepted. (The reference
design's NPU engines move 32-bit cells and split a tensor around one axis, outer x
axis x inner: xdna's restrictions, npubuild/targets/xdna/rules.py.)
"""
from __future__ import annotations

from ..core.errors import OpError
from .lazy_numpy import np
from .registry import (
    BYTE_DTYPES,
    INDEX_DTYPE_ATTR,
    Attr,
    OpDef,
    broadcast_shapes,
    fmt_shape,
    norm_axis,
    numel,
    register,
)

def _movement(name, doc, infer, oracle, attrs=(), **kw) -> OpDef:
    return OpDef(
        name=name,
        family="movement",
        doc=doc,
        inputs=kw.pop("inputs", ("x",)),
        infer=infer,
        oracle=oracle,
        attrs=attrs,
        dtypes=BYTE_DTYPES,
        **kw,
    )


# ---- reshape -----------------------------------------------------------------------------


def _reshape_target(x, shape) -> tuple[int, ...]:
    if any(d == 0 or d < -1 for d in shape):
        raise OpError(f"reshape: shape entries must be positive or -1, got {fmt_shape(shape)} (0 is not special)")
    if shape.count(-1) > 1:
        raise OpError(f"reshape: at most one -1 in shape, got {fmt_shape(shape)}")
    n = numel(x)
    known = numel(d for d in shape if d != -1)
    out = list(shape)
    if -1 in out:
        if n % known:
            raise OpError(
                f"reshape: cannot reshape {fmt_shape(x)} ({n} elements) to {fmt_shape(shape)}: {n} is not a multiple of {known}"
            )
        out[out.index(-1)] = n // known
    if numel(out) != n:
        raise OpError(f"reshape: cannot reshape {fmt_shape(x)} ({n} elements) to {fmt_shape(shape)} ({numel(out)} elements)")
    return tuple(out)


def _infer_reshape(shapes, attrs):
    return _reshape_target(tuple(shapes[0]), attrs["shape"])


# ---- transpose ---------------------------------------------------------------------------


def _perm(rank: int, perm) -> list[int]:
    if not perm:
        return list(range(rank))[::-1]
    if sorted(perm) != list(range(rank)):
        raise OpError(f"transpose: perm {fmt_shape(perm)} is not a permutation of the axes 0..{rank - 1} (rank {rank})")
    return list(perm)


def _infer_transpose(shapes, attrs):
    x = tuple(shapes[0])
    return tuple(x[p] for p in _perm(len(x), attrs["perm"]))


# ---- narrow / slice ----------------------------------------------------------------------


def _narrow_range(x, attrs) -> tuple[int, int, int]:
    ax = norm_axis(attrs["axis"], len(x))
    dim, start, length = x[ax], attrs["start"], attrs["length"]
    if start < 0:
        start += dim
    if length < 1 or start < 0 or start + length > dim:
        raise OpError(
            f"narrow: start {attrs['start']} and length {length} do not fit axis {attrs['axis']} of size {dim} "
            f"(need 0 <= start and start + length <= {dim}, length >= 1)"
        )
    return ax, start, length


def _infer_narrow(shapes, attrs):
    x = tuple(shapes[0])
    ax, _, length = _narrow_range(x, attrs)
    return x[:ax] + (length,) + x[ax + 1 :]


def _narrow(xs, attrs):
    x = xs[0]
    ax, start, length = _narrow_range(x.shape, attrs)
    return np.take(x, np.arange(start, start + length), axis=ax)


def _slice_range(x, attrs) -> tuple[int, range]:
    ax = norm_axis(attrs["axis"], len(x))
    if attrs["step"] <= 0:
        raise OpError(f"slice: step must be positive, got {attrs['step']}")
    r = range(*slice(attrs["start"], attrs["end"], attrs["step"]).indices(x[ax]))
    if len(r) == 0:
        raise OpError(
            f"slice: [{attrs['start']}:{attrs['end']}:{attrs['step']}] selects no element "
            f"of axis {attrs['axis']} (size {x[ax]})"
        )
    return ax, r


def _infer_slice(shapes, attrs):
    x = tuple(shapes[0])
    ax, r = _slice_range(x, attrs)
    return x[:ax] + (len(r),) + x[ax + 1 :]


def _slice(xs, attrs):
    x = xs[0]
    ax, r = _slice_range(x.shape, attrs)
    return np.take(x, np.asarray(list(r), dtype="int64"), axis=ax)


# ---- reverse / tile / expand / trilu -----------------------------------------------------


def _reverse_axes(x, axes) -> tuple[int, ...]:
    if not axes:
        raise OpError("reverse: axes must name at least one axis")
    out = tuple(norm_axis(a, len(x)) for a in axes)
    if len(set(out)) != len(out):
        raise OpError(f"reverse: axes {fmt_shape(axes)} name the same axis twice (rank {len(x)})")
    return out


def _infer_reverse(shapes, attrs):
    x = tuple(shapes[0])
    _reverse_axes(x, attrs["axes"])
    return x


def _reverse(xs, attrs):
    x = xs[0]
    return np.flip(x, axis=_reverse_axes(x.shape, attrs["axes"])).copy()


def _infer_tile(shapes, attrs):
    x, reps = tuple(shapes[0]), attrs["reps"]
    if len(reps) != len(x):
        raise OpError(f"tile: reps {fmt_shape(reps)} must have one entry per axis of x {fmt_shape(x)} (rank {len(x)})")
    if any(r < 1 for r in reps):
        raise OpError(f"tile: reps must be >= 1, got {fmt_shape(reps)}")
    return tuple(d * r for d, r in zip(x, reps))


def _infer_expand(shapes, attrs):
    x, shape = tuple(shapes[0]), tuple(attrs["shape"])
    if any(d < 1 for d in shape):
        raise OpError(f"expand: shape entries must be positive, got {fmt_shape(shape)}")
    return broadcast_shapes(x, shape)


def _infer_trilu(shapes, attrs):
    x = tuple(shapes[0])
    if len(x) < 2:
        raise OpError(f"trilu: x must have rank >= 2 (it works on the last two axes), got {fmt_shape(x)}")
    return x


def _trilu(xs, attrs):
    x = xs[0]
    rows, cols = x.shape[-2], x.shape[-1]
    i = np.arange(rows).reshape(rows, 1)
    j = np.arange(cols).reshape(1, cols)
    keep = (j - i >= attrs["diagonal"]) if attrs["upper"] else (j - i <= attrs["diagonal"])
    return np.where(keep, x, np.zeros((), dtype=x.dtype))


# ---- concat / gather ---------------------------------------------------------------------


def _infer_concat(shapes, attrs):
    first = tuple(shapes[0])
    ax = norm_axis(attrs["axis"], len(first))
    total = 0
    for i, s in enumerate(shapes):
        s = tuple(s)
        if len(s) != len(first) or any(a != b for k, (a, b) in enumerate(zip(s, first)) if k != ax):
            raise OpError(
                f"concat: input {i} has shape {fmt_shape(s)} but input 0 has {fmt_shape(first)}; "
                f"all dims except axis {attrs['axis']} must match"
            )
        total += s[ax]
    return first[:ax] + (total,) + first[ax + 1 :]


def _gather_signature(dtype, n, attrs):
    return [dtype, attrs.get("index_dtype", "i64")], dtype


def _infer_gather(shapes, attrs):
    data, idx = tuple(shapes[0]), tuple(shapes[1])
    ax = norm_axis(attrs["axis"], len(data))
    out = data[:ax] + idx + data[ax + 1 :]
    if data[ax] == 0 and 0 not in out:
        raise OpError(f"gather: axis {attrs['axis']} of data {fmt_shape(data)} has no element for the indices to take")
    return out


def _gather(xs, attrs):
    data, idx = xs
    ax = norm_axis(attrs["axis"], data.ndim)
    n = data.shape[ax]
    idx = np.asarray(idx).astype("int64")
    bad = (idx < -n) | (idx >= n)
    if np.any(bad):
        raise OpError(f"gather: index {int(idx[bad].flat[0])} is out of range for axis {attrs['axis']} of size {n}")
    return np.take(data, np.where(idx < 0, idx + n, idx), axis=ax)


# ---- pad ---------------------------------------------------------------------------------


def _infer_pad(shapes, attrs):
    x, pads = tuple(shapes[0]), attrs["pads"]
    if len(pads) != len(x):
        raise OpError(f"pad: pads needs one [before, after] pair per axis of x {fmt_shape(x)}, got {len(pads)}")
    for ax, ((b, a), d) in enumerate(zip(pads, x)):
        if b < 0 or a < 0:
            raise OpError(f"pad: pads must be non-negative, got [{b}, {a}] for axis {ax}")
        if attrs["mode"] == "reflect" and max(b, a) > d - 1:
            raise OpError(f"pad: reflect padding of axis {ax} (size {d}) must be at most {d - 1} per side, got [{b}, {a}]")
    return tuple(d + b + a for d, (b, a) in zip(x, pads))


def _pad(xs, attrs):
    x = xs[0]
    pads = [tuple(p) for p in attrs["pads"]]
    if attrs["mode"] == "constant":
        fill = np.asarray(attrs["value"])
        if x.dtype.kind in "iu":  # truncated and saturated to the dtype's range, NaN -> 0 (as cast)
            info = np.iinfo(x.dtype)
            fill = np.nan_to_num(np.clip(np.trunc(fill), info.min, info.max), nan=0.0)
        return np.pad(x, pads, mode="constant", constant_values=fill.astype(x.dtype))
    return np.pad(x, pads, mode=attrs["mode"])


def _identity_infer(shapes, attrs):
    return tuple(shapes[0])


register(
    _movement(
        "reshape",
        "same elements in row-major order, new shape (one -1 entry is inferred)",
        _infer_reshape,
        lambda xs, a: xs[0].reshape(_reshape_target(xs[0].shape, a["shape"])),
        (Attr("shape", "ints", doc="the new shape; one entry may be -1 (inferred); 0 is not special"),),
    ),
    _movement(
        "transpose",
        "permute the axes: output axis i is input axis perm[i] (ONNX Transpose)",
        _infer_transpose,
        lambda xs, a: np.ascontiguousarray(np.transpose(xs[0], _perm(xs[0].ndim, a["perm"]))),
        (Attr("perm", "ints", [], doc="a permutation of 0..rank-1; [] reverses the axes (ONNX default)"),),
    ),
    _movement(
        "narrow",
        "length elements of one axis from start (PyTorch narrow)",
        _infer_narrow,
        _narrow,
        (
            Attr("axis", "int", doc="the narrowed axis (negative counts from the end)"),
            Attr("start", "int", doc="first kept index; negative counts from the end of the axis"),
            Attr("length", "int", doc="number of kept elements (>= 1)"),
        ),
    ),
    _movement(
        "slice",
        "x[start:end:step] along one axis (Python slice semantics: negative indices count from the end, "
        "out-of-range clamps)",
        _infer_slice,
        _slice,
        (
            Attr("axis", "int", doc="the sliced axis (negative counts from the end)"),
            Attr("start", "int", doc="first index (negative counts from the end; clamped)"),
            Attr("end", "int", doc="one past the last index (negative counts from the end; clamped)"),
            Attr("step", "int", 1, doc="stride between kept elements (> 0)"),
        ),
    ),
    _movement(
        "reverse",
        "reverse the order of elements along the given axes",
        _infer_reverse,
        _reverse,
        (Attr("axes", "ints", [-1], doc="axes to reverse (negative counts from the end)"),),
    ),
    _movement(
        "tile",
        "repeat the whole tensor reps[i] times along axis i (ONNX Tile)",
        _infer_tile,
        lambda xs, a: np.tile(xs[0], a["reps"]),
        (Attr("reps", "ints", doc="repetitions per axis; one entry per axis of x"),),
    ),
    _movement(
        "expand",
        "broadcast x to shape with NumPy rules (ONNX Expand: the output is the broadcast of x's shape and shape)",
        _infer_expand,
        lambda xs, a: np.ascontiguousarray(np.broadcast_to(xs[0], broadcast_shapes(xs[0].shape, tuple(a["shape"])))),
        (Attr("shape", "ints", doc="target shape; size-1 entries keep x's dim"),),
    ),
    _movement(
        "trilu",
        "keep the upper or lower triangle of the last two axes, zero the rest (ONNX Trilu)",
        _infer_trilu,
        _trilu,
        (
            Attr("upper", "bool", True, doc="true: keep j - i >= diagonal; false: keep j - i <= diagonal"),
            Attr("diagonal", "int", 0, doc="diagonal offset k: 0 main, > 0 above, < 0 below"),
        ),
    ),
    _movement(
        "concat",
        "join the inputs along an existing axis (ONNX Concat)",
        _infer_concat,
        lambda xs, a: np.concatenate(xs, axis=norm_axis(a["axis"], xs[0].ndim)),
        (Attr("axis", "int", doc="the joined axis (negative counts from the end)"),),
        inputs=("x",),
        variadic=True,
    ),
    _movement(
        "gather",
        "take slices of data along axis at the given indices (ONNX Gather; negative indices count from the end)",
        _infer_gather,
        _gather,
        (Attr("axis", "int", 0, doc="the indexed axis of data (negative counts from the end)"), INDEX_DTYPE_ATTR),
        inputs=("data", "indices"),
        signature=_gather_signature,
        dtype_doc="data and the output have the op's dtype; indices are index_dtype (i64, or i32: what xdna takes)",
    ),
    _movement(
        "pad",
        "pad each axis with [before, after] elements (ONNX Pad; constant, reflect or edge)",
        _infer_pad,
        _pad,
        (
            Attr("pads", "int_pairs", doc="one non-negative [before, after] pair per axis"),
            Attr(
                "mode",
                "str",
                "constant",
                ("constant", "reflect", "edge"),
                "constant: fill with value; reflect: mirror without repeating the edge; edge: repeat the edge",
            ),
            Attr("value", "float", 0.0, doc="fill value for constant mode (converted to the dtype)"),
        ),
    ),
    _movement(
        "stop_gradient",
        "identity in the forward pass (blocks gradients)",
        _identity_infer,
        lambda xs, a: xs[0].copy(),
    ),
)
