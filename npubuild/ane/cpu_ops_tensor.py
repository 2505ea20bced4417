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


def _index(a, x):
    """The index slice_by_index (and slice_update) take: Python slicing per axis, masks as the op defines them."""
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
    return tuple(idx)


@register("slice_by_index")
def _slice_by_index(a):
    x = np.asarray(a.x)
    return x[_index(a, x)]


@register("slice_update")
def _slice_update(a):
    # iOS18 slice_update: x with x[begin:end:stride, ...] (masks as slice_by_index) replaced by update
    out = np.array(a.x, copy=True)
    idx = _index(a, out)
    out[idx] = np.reshape(a["update"], out[idx].shape)  # a.update would be dict.update
    return out


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


# ---- scatter (scatter_gather.py: mode update, add, sub, mul, div, max, min; default add) --------------------------------

_AT = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "max": np.maximum, "min": np.minimum}


def _scatter_into(out, index, updates, mode: str):
    if mode == "update":
        out[index] = updates
    else:
        _AT[mode].at(out, index, updates)  # repeated indices accumulate, as the mode's operation applied in turn
    return out


@register("scatter")
def _scatter(a):
    data = np.asarray(a.data)
    axis = axis_of(_p(a, "axis", 0), data.ndim)
    out = np.moveaxis(np.array(data, copy=True, dtype=np.result_type(data, np.asarray(a.updates))), axis, 0)
    idx = np.asarray(a.indices).astype(np.int64) % data.shape[axis]
    _scatter_into(out, idx, np.moveaxis(np.asarray(a.updates), axis, 0), _p(a, "mode", "add"))
    return np.moveaxis(out, 0, axis)


@register("scatter_along_axis")
def _scatter_along_axis(a):
    data = np.asarray(a.data)
    axis = axis_of(_p(a, "axis", 0), data.ndim)
    idx = np.asarray(a.indices).astype(np.int64) % data.shape[axis]
    grid = list(np.indices(idx.shape, sparse=True))
    grid[axis] = idx
    out = np.array(data, copy=True, dtype=np.result_type(data, np.asarray(a.updates)))
    return _scatter_into(out, tuple(grid), np.asarray(a.updates), _p(a, "mode", "add"))


@register("scatter_nd")
def _scatter_nd(a):
    data = np.asarray(a.data)
    idx = np.asarray(a.indices).astype(np.int64)
    index = tuple(np.moveaxis(idx, -1, 0) % np.asarray(data.shape[:idx.shape[-1]]).reshape([-1] + [1] * (idx.ndim - 1)))
    out = np.array(data, copy=True, dtype=np.result_type(data, np.asarray(a.updates)))
    return _scatter_into(out, index, np.asarray(a.updates), _p(a, "mode", "add"))


# ---- more layout ops (tensor_transformation.py, image_resizing.py, iOS16) ----------------------------------------------

@register("fill_like")
def _fill_like(a):
    return np.full(np.shape(a.ref_tensor), _p(a, "value", 0.0))


@register("pixel_unshuffle")
def _pixel_unshuffle(a):
    x = np.asarray(a.x)
    n, c, h, w = x.shape
    r = int(a.downscale_factor)
    return x.reshape(n, c, h // r, r, w // r, r).transpose(0, 1, 3, 5, 2, 4).reshape(n, c * r * r, h // r, w // r)


@register("crop")
def _crop(a):
    x = np.asarray(a.x)
    (t, b), (lft, rgt) = (np.asarray(a.crop_height).reshape(2).tolist(), np.asarray(a.crop_width).reshape(2).tolist())
    return x[..., t:x.shape[-2] - b, lft:x.shape[-1] - rgt]


@register("sliding_windows")
def _sliding_windows(a):
    # [*d0, d_axis, *dn] -> [*d0, windows, size, *dn]: window i starts at i * stride
    x = np.asarray(a.x)
    axis, size, stride = axis_of(a.axis, x.ndim), int(a.size), int(_p(a, "stride", 1))
    w = np.lib.stride_tricks.sliding_window_view(x, size, axis=axis)  # the window axis last
    w = w[(slice(None),) * axis + (slice(None, None, stride),)]
    return np.moveaxis(w, -1, axis + 1)


@register("reverse_sequence")
def _reverse_sequence(a):
    x = np.asarray(a.x)
    seq, batch = axis_of(_p(a, "seq_axis", 0), x.ndim), axis_of(_p(a, "batch_axis", 0), x.ndim)
    out = np.array(x, copy=True)
    for b, n in enumerate(np.asarray(a.lengths).reshape(-1).tolist()):
        src = [slice(None)] * x.ndim
        src[batch], src[seq] = b, slice(0, int(n))
        dst = np.take(x[tuple(src)], np.arange(int(n))[::-1], axis=seq - (batch < seq))  # the first n reversed
        out[tuple(src)] = dst
    return out


@register("space_to_batch")
def _space_to_batch(a):
    # TF's space_to_batch_nd in NCHW: output batch (oh * bw + ow) * n + b holds padded[b, :, i * bh + oh, j * bw + ow]
    x = np.asarray(a.x)
    bh, bw = np.asarray(a.block_shape).reshape(2).tolist()
    (pt, pb), (pl, pr) = np.asarray(a.paddings).reshape(2, 2).tolist()
    xp = np.pad(x, [(0, 0), (0, 0), (pt, pb), (pl, pr)])
    n, c, h, w = xp.shape
    return xp.reshape(n, c, h // bh, bh, w // bw, bw).transpose(3, 5, 0, 1, 2, 4).reshape(bh * bw * n, c, h // bh, w // bw)


@register("batch_to_space")
def _batch_to_space(a):
    # the inverse of space_to_batch, then ``crops`` [[top, bottom], [left, right]] taken off
    x = np.asarray(a.x)
    bh, bw = np.asarray(a.block_shape).reshape(2).tolist()
    (ct, cb), (cl, cr) = np.asarray(a.crops).reshape(2, 2).tolist()
    nb, c, h, w = x.shape
    n = nb // (bh * bw)
    y = x.reshape(bh, bw, n, c, h, w).transpose(2, 3, 4, 0, 5, 1).reshape(n, c, h * bh, w * bw)
    return y[:, :, ct:h * bh - cb, cl:w * bw - cr]


# ---- quantization (iOS17 quantization_ops.py) -----------------------------------------------------------------------------

def _quant_param(v, x, axis):
    """scale / zero_point: a scalar, or a vector along ``axis`` of x (broadcast to x's rank)."""
    v = np.asarray(v, np.float64)
    if v.ndim == 0 or v.size == 1 and axis is None:
        return v.reshape(())
    shape = [1] * x.ndim
    shape[axis_of(axis, x.ndim)] = -1
    return v.reshape(shape)


@register("quantize")
def _quantize(a):
    x = np.asarray(a.input, np.float64)
    scale = _quant_param(a.scale, x, a.get("axis"))
    zp = _quant_param(_p(a, "zero_point", 0), x, a.get("axis"))
    lo, hi = (-128, 127) if a.output_dtype == "int8" else (0, 255)
    return np.clip(np.round(x / scale) + zp, lo, hi)


@register("dequantize")
def _dequantize(a):
    x = np.asarray(a.input, np.float64)
    scale = _quant_param(a.scale, x, a.get("axis"))
    zp = _quant_param(_p(a, "zero_point", 0), x, a.get("axis"))
    return (x - zp) * scale
