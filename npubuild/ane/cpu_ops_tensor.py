"""CPU forms of MIL's layout, indexing and tensor-making ops (coremltools 9.0
``ops/defs/iOS15/tensor_transformation.py``, ``tensor_operation.py``, ``scatter_gather.py`` and their
iOS16/iOS17 revisions). Ops whose result is only a new shape of x (reshape, squeeze, expand_dims,
flatten2d, reshape_like) take the shape the reader inferred and checked for the result. Registered in
:mod:`.cpu_ops_base`."""
from __future__ import annotations

from ..ops.lazy_numpy import np
from .cpu_ops_base import _p, axis_of, register

NP_DTYPES = {"fp16": "float32", "fp32": "float32", "fp64": "float64", "int8": "int8", "uint8": "uint8", "int16": "int16",
             "uint16": "uint16", "int32": "int32", "uint32": "uint32", "int64": "int64", "bool": "bool"}


@register("reshape", "squeeze", "expand_dims", "flatten2d", "reshape_like")
def _reshape(a):
    return np.reshape(a.x, a.out_shape)  # row-major, as reshape.py defines every one of them


@register("transpose")
def _transpose(a):
    return np.transpose(a.x, [int(p) for p in np.asarray(a.perm).reshape(-1)])


@register("cast")
def _cast(a):
    # tensor_operation.py cast: astype (float -> int truncates toward zero); fp16 is rounded where the result is stored
    return np.asarray(a.x).astype(NP_DTYPES[a.dtype])


@register("concat")
def _concat(a):
    vals = [np.asarray(v) for v in a["values"]]
    axis = axis_of(a.axis, vals[0].ndim)
    if not _p(a, "interleave", False):
        return np.concatenate(vals, axis=axis)
    # interleave: the inputs' slices along axis alternate (each input has the same shape)
    return np.stack(vals, axis=axis + 1).reshape(a.out_shape)


@register("stack")
def _stack(a):
    vals = [np.asarray(v) for v in a["values"]]
    return np.stack(vals, axis=axis_of(a.axis, vals[0].ndim + 1))


@register("split")
def _split(a):
    x = np.asarray(a.x)
    axis = axis_of(a.axis, x.ndim)
    sizes = a.get("split_sizes")
    if sizes is None:
        n = int(a.num_splits)
        sizes = [x.shape[axis] // n] * n
    cuts = np.cumsum([int(s) for s in np.asarray(sizes).reshape(-1)])[:-1]
    return tuple(np.split(x, cuts, axis=axis))


@register("slice_by_index")
def _slice_by_index(a):
    x = np.asarray(a.x)
    r = x.ndim
    begin = [int(v) for v in np.asarray(_p(a, "begin", [0] * r)).reshape(-1)]
    end = [int(v) for v in np.asarray(_p(a, "end", list(x.shape))).reshape(-1)]
    stride = [int(v) for v in np.asarray(_p(a, "stride", [1] * r)).reshape(-1)]
    bm, em, sm = ([bool(v) for v in np.asarray(_p(a, k, [False] * r)).reshape(-1)] for k in ("begin_mask", "end_mask", "squeeze_mask"))
    idx = []
    for i in range(r):
        if sm[i]:
            idx.append(begin[i])  # the axis is taken at begin and dropped
        else:
            idx.append(slice(None if bm[i] else begin[i], None if em[i] else end[i], stride[i]))
    return x[tuple(idx)]


@register("slice_by_size")
def _slice_by_size(a):
    x = np.asarray(a.x)
    begin = [int(v) for v in np.asarray(a.begin).reshape(-1)]
    size = [int(v) for v in np.asarray(a.size).reshape(-1)]
    return x[tuple(slice(b % n if n else 0, n if s == -1 else b % n + s) for b, s, n in zip(begin, size, x.shape))]


@register("tile")
def _tile(a):
    return np.tile(a.x, [int(v) for v in np.asarray(a.reps).reshape(-1)])


@register("reverse")
def _reverse(a):
    x = np.asarray(a.x)
    axes = a.get("axes")
    return np.flip(x, axis=None if axes is None else tuple(axis_of(d, x.ndim) for d in np.atleast_1d(axes)))


@register("pad")
def _pad(a):
    # pad.py: ``pad`` gives (before, after) for the last len(pad) / 2 axes
    x = np.asarray(a.x)
    p = [int(v) for v in np.asarray(a.pad).reshape(-1)]
    widths = [(0, 0)] * (x.ndim - len(p) // 2) + [(p[2 * i], p[2 * i + 1]) for i in range(len(p) // 2)]
    mode = _p(a, "mode", "constant")
    if mode == "constant":
        return np.pad(x, widths, constant_values=_p(a, "constant_val", 0.0))
    return np.pad(x, widths, mode={"reflect": "reflect", "replicate": "edge"}[mode])


@register("gather")
def _gather(a):
    x, idx = np.asarray(a.x), np.asarray(a.indices).astype(np.int64)
    axis, b = axis_of(_p(a, "axis", 0), x.ndim), int(_p(a, "batch_dims", 0))
    if b == 0:
        return np.take(x, idx, axis=axis)
    batch = x.shape[:b]  # iOS16 batch_dims: the leading axes of x and indices index each other
    xs = x.reshape(-1, *x.shape[b:])
    ids = idx.reshape(-1, *idx.shape[b:])
    out = np.stack([np.take(xs[i], ids[i], axis=axis - b) for i in range(xs.shape[0])])
    return out.reshape(*batch, *out.shape[1:])


@register("gather_along_axis")
def _gather_along_axis(a):
    x = np.asarray(a.x)
    idx = np.asarray(a.indices).astype(np.int64)
    axis = axis_of(_p(a, "axis", 0), x.ndim)
    return np.take_along_axis(x, np.where(idx < 0, idx + x.shape[axis], idx), axis=axis)


@register("gather_nd")
def _gather_nd(a):
    x, idx = np.asarray(a.x), np.asarray(a.indices).astype(np.int64)
    return x[tuple(np.moveaxis(idx, -1, 0))]


@register("select")
def _select(a):
    return np.where(np.asarray(a.cond).astype(bool), a.a, a.b)


@register("band_part")
def _band_part(a):
    x = np.asarray(a.x)
    lo, up = int(_p(a, "lower", -1)), int(_p(a, "upper", -1))
    m, n = x.shape[-2:]
    i, j = np.arange(m)[:, None], np.arange(n)[None, :]
    keep = ((lo < 0) | (i - j <= lo)) & ((up < 0) | (j - i <= up))
    return np.where(keep, x, 0)


@register("cumsum")
def _cumsum(a):
    x = np.asarray(a.x)
    axis = axis_of(_p(a, "axis", 0), x.ndim)
    rev, excl = bool(_p(a, "reverse", False)), bool(_p(a, "exclusive", False))
    v = np.flip(x, axis) if rev else x
    out = np.cumsum(v, axis=axis)
    if excl:
        out = out - v
    return np.flip(out, axis) if rev else out


@register("argsort")
def _argsort(a):
    x = np.asarray(a.x)
    axis = axis_of(_p(a, "axis", -1), x.ndim)
    return np.argsort(x if _p(a, "ascending", False) else -x, axis=axis, kind="stable").astype(np.int32)


@register("topk")
def _topk(a):
    x = np.asarray(a.x)
    axis, k = axis_of(_p(a, "axis", -1), x.ndim), int(_p(a, "k", 1))
    order = np.argsort(x if _p(a, "ascending", False) else -x, axis=axis, kind="stable")
    idx = np.take(order, np.arange(k), axis=axis)
    return np.take_along_axis(x, idx, axis=axis), idx.astype(np.int32)


@register("one_hot")
def _one_hot(a):
    idx = np.asarray(a.indices).astype(np.int64)
    n = int(a.one_hot_vector_size)
    hot = np.expand_dims(idx, -1) == np.arange(n)
    out = np.where(hot, _p(a, "on_value", 1), _p(a, "off_value", 0))
    return np.moveaxis(out, -1, axis_of(_p(a, "axis", -1), idx.ndim + 1))


@register("fill")
def _fill(a):
    return np.full(a.out_shape, _p(a, "value", 0.0))


@register("shape")
def _shape(a):
    return np.asarray(np.shape(a.x), np.int32)


@register("range_1d")
def _range_1d(a):
    return np.arange(a.start, a.end, a.step)


@register("depth_to_space")
def _depth_to_space(a):
    x = np.asarray(a.x)
    n, c, h, w = x.shape
    b = int(a.block_size)
    return x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c // (b * b), h * b, w * b)


@register("space_to_depth")
def _space_to_depth(a):
    x = np.asarray(a.x)
    n, c, h, w = x.shape
    b = int(a.block_size)
    return x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4).reshape(n, c * b * b, h // b, w // b)


@register("pixel_shuffle")
def _pixel_shuffle(a):
    x = np.asarray(a.x)
    n, c, h, w = x.shape
    r = int(a.upscale_factor)
    return x.reshape(n, c // (r * r), r, r, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(n, c // (r * r), h * r, w * r)


@register("upsample_nearest_neighbor")
def _upsample_nn(a):
    x = np.asarray(a.x)
    sh, sw = int(_p(a, "scale_factor_height", 1)), int(_p(a, "scale_factor_width", 1))
    return np.repeat(np.repeat(x, sh, axis=-2), sw, axis=-1)
