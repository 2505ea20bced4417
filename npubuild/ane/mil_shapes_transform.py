"""Result types of MIL's rearranging ops (rules for :mod:`.mil_types`).

Each rule follows the ``type_inference`` of coremltools 9.0's definition:
``defs/iOS15/tensor_transformation.py`` (pixel_shuffle, sliding_windows,
space_to_batch, batch_to_space), ``defs/iOS16/tensor_transformation.py``
(reshape_like, pixel_unshuffle), ``defs/iOS18/tensor_transformation.py``
(slice_update) and ``defs/iOS15/linear.py`` (einsum). Where coremltools divides a
dimension and keeps a fraction (pixel_unshuffle, space_to_batch), a dimension that
does not divide is refused, and so is a size it would infer as negative (crops
larger than batch_to_space's result, a sliding window larger than its axis): no
tensor has that shape.
"""
from __future__ import annotations

import math

from ..ops.lazy_numpy import np
from .mil_model import Ref
from .mil_shapes import Bad, Operands, T, dims, known, need_rank, slice_by_index


def _nchw(a: Operands) -> tuple:
    xs = need_rank(a.type("x"))
    if len(xs) != 4:
        raise Bad(f"x {dims(xs)} must have rank 4 ([N, C, H, W])")
    return xs


def _div(d: int, f: int, what: str) -> int:
    if not known(d):
        return -1
    if d % f:
        raise Bad(f"{what} ({d}) is not a multiple of {f}")
    return d // f


def _mul(d: int, f: int) -> int:
    return d * f if known(d) else -1


def pixel_shuffle(a: Operands) -> list[T]:
    """pixel_shuffle: [N, C / f², H * f, W * f] for upscale_factor f; C must be a multiple of f² (coremltools
    floors C / f², as depth_to_space here refuses it too)."""
    n, c, h, w = _nchw(a)
    f = a.int("upscale_factor")
    if f < 1:
        raise Bad(f"upscale_factor {f} must be positive")
    return [T(a.type("x").dtype, (n, _div(c, f * f, "C"), _mul(h, f), _mul(w, f)))]


def pixel_unshuffle(a: Operands) -> list[T]:
    """defs/iOS16/tensor_transformation.py pixel_unshuffle: [N, C * f², H / f, W / f] for downscale_factor f."""
    n, c, h, w = _nchw(a)
    f = a.int("downscale_factor")
    if f < 1:
        raise Bad(f"downscale_factor {f} must be positive")
    return [T(a.type("x").dtype, (n, _mul(c, f * f), _div(h, f, "H"), _div(w, f, "W")))]


def _blocks(a: Operands, key: str) -> tuple[tuple, list, np.ndarray]:
    xs = _nchw(a)
    block = a.ints("block_shape")
    pads = np.asarray(a.const(key)).astype(np.int64)
    if pads.shape != (len(block), 2):
        raise Bad(f"block_shape {block} and {key} {pads.tolist()} must have shapes [2] and [2, 2]")
    if len(block) != 2:
        raise Bad(f"block_shape {block} must have 2 values (2 spatial dims)")
    if min(block) < 1:
        raise Bad(f"block_shape {block} must be positive")
    return xs, block, pads


def space_to_batch(a: Operands) -> list[T]:
    """space_to_batch: [N * prod(block), C, (H + pads) / b0, (W + pads) / b1]."""
    (n, c, *sp), block, pads = _blocks(a, "paddings")
    out = [_div(d + int(p.sum()) if known(d) else -1, b, f"padded spatial dimension {i}")
           for i, (d, b, p) in enumerate(zip(sp, block, pads))]
    return [T(a.type("x").dtype, (_mul(n, math.prod(block)), c, *out))]


def batch_to_space(a: Operands) -> list[T]:
    """batch_to_space: [N / prod(block), C, H * b0 - crops, W * b1 - crops]; N a multiple of prod(block)."""
    (n, c, *sp), block, crops = _blocks(a, "crops")
    out = []
    for d, b, cr in zip(sp, block, crops):
        size = d * b - int(cr.sum()) if known(d) else -1
        if known(d) and size < 0:
            raise Bad(f"crops {crops.tolist()} remove more than the {d * b} values of a spatial dimension")
        out.append(size)
    return [T(a.type("x").dtype, (_div(n, math.prod(block), "the batch size"), c, *out))]


def sliding_windows(a: Operands) -> list[T]:
    """sliding_windows: dim ``axis`` becomes (d - size) // stride + 1 windows, followed by a new dim ``size``;
    a window larger than the axis is refused (coremltools infers 0 or fewer windows)."""
    x = a.type("x")
    xs = list(need_rank(x))
    axis, size, stride = a.int("axis"), a.int("size"), a.int("stride", 1)
    if not -len(xs) <= axis < len(xs):
        raise Bad(f"axis {axis} is out of range for x {dims(xs)}")
    if size < 1 or stride < 1:
        raise Bad(f"size {size} and stride {stride} must be positive")
    pos = axis % len(xs)
    d = xs[pos]
    if known(d) and size > d:
        raise Bad(f"size {size} is larger than dimension {axis} of x {dims(xs)}")
    xs[pos] = (d - size) // stride + 1 if known(d) else -1
    xs.insert(pos + 1, size)
    return [T(x.dtype, tuple(xs))]


def _scalars(a: Operands, key: str, dtype: str) -> list:
    """The values of a tuple of constant scalars (reshape_like's begins, ends, end_masks)."""
    out = []
    for v in a.args[key] if isinstance(a.args[key], tuple) else (a.args[key],):
        t = a.type_of(v)
        val = a.consts.get(v.name) if isinstance(v, Ref) else v.value
        if t.dtype != dtype or t.shape != () or val is None:
            raise Bad(f"{key} must be a tuple of constant {dtype} scalars; it holds {t}")
        out.append(np.asarray(val).reshape(-1)[0].item())
    return out


def reshape_like(a: Operands) -> list[T]:
    """defs/iOS16/tensor_transformation.py reshape_like: the result's shape is the concatenation, over
    ref_tensors, of ref.shape[begin:end] (ref.shape[begin:] with end_mask); it must be known and hold x's
    element count."""
    x = a.type("x")
    refs = a.tuple("ref_tensors")
    begins, ends, masks = _scalars(a, "begins", "int32"), _scalars(a, "ends", "int32"), _scalars(a, "end_masks", "bool")
    out: tuple = ()
    for ref, b, e, m in zip(refs, begins, ends, masks):
        rs = need_rank(ref, "each of ref_tensors")
        out += tuple(rs[b:] if m else rs[b:e])
    if any(not known(d) for d in out):
        raise Bad(f"the shape taken from ref_tensors, {dims(out)}, must be known")
    xs = x.shape
    if xs is not None and all(known(d) for d in xs) and math.prod(xs) != math.prod(out):
        raise Bad(f"x {dims(xs)} has {math.prod(xs)} values but the shape {dims(out)} holds {math.prod(out)}")
    return [T(x.dtype, out)]


def slice_update(a: Operands) -> list[T]:
    """defs/iOS18/tensor_transformation.py slice_update: update has the shape slice_by_index gives the
    same begin, end, stride and masks (not a scalar); the result is x's type."""
    x, up = a.type("x"), a.type("update")
    want = slice_by_index(a)[0].shape
    us = need_rank(up, "update")
    if len(us) != len(want) or any(known(p) and known(q) and p != q for p, q in zip(us, want)):
        raise Bad(f"update is {dims(us)}; the slice is {dims(want)}")
    if not us:
        raise Bad("update must not be a scalar")
    return [T(x.dtype, x.shape)]


EINSUM = {((0, 1, 2, 3), (0, 3, 2, 4), (0, 1, 2, 4)): 4, ((0, 1, 2), (2, 1, 3), (0, 1, 3)): 3}


def _einsum_vectors(eq: str) -> tuple:
    """defs/_utils.py parse_einsum_equation: each letter numbered in order of first use."""
    if eq.count("->") != 1:
        raise Bad(f"equation {eq!r} must have one '->'")
    lhs, rhs = eq.split("->")
    index: dict = {}
    return tuple(tuple(index.setdefault(ch, len(index)) for ch in part) for part in (*lhs.split(","), rhs))


def einsum(a: Operands) -> list[T]:
    """defs/iOS15/linear.py einsum: two values of one dtype and rank, and one of the two equations
    coremltools takes, "nchw,nwhr->nchr" (rank 4) or "chw,whr->chr" (rank 3), up to letter names;
    dims -2 (and -4) broadcast."""
    vals = a.tuple("values")
    if len(vals) != 2:
        raise Bad(f"values must hold 2 tensors, not {len(vals)}")
    (x, y) = vals
    xs, ys = need_rank(x, "values[0]"), need_rank(y, "values[1]")
    if x.dtype != y.dtype:
        raise Bad(f"values are {x.dtype} and {y.dtype}; they must share a dtype")
    if len(xs) != len(ys):
        raise Bad(f"values {dims(xs)} and {dims(ys)} must have the same rank")
    eq = a.text("equation")
    if _einsum_vectors(eq) not in EINSUM or EINSUM[_einsum_vectors(eq)] != len(xs):
        raise Bad(f"equation {eq!r} is not one coremltools takes for rank {len(xs)} "
                  "(nchw,nwhr->nchr or chw,whr->chr, up to letter names)")
    if known(xs[-1]) and known(ys[-3]) and xs[-1] != ys[-3]:
        raise Bad(f"values {dims(xs)} and {dims(ys)} do not multiply ({xs[-1]} vs {ys[-3]})")

    def both(i):
        p, q = xs[i], ys[i]
        if known(p) and known(q) and p != 1 and q != 1 and p != q:
            raise Bad(f"values {dims(xs)} and {dims(ys)} differ in dimension {i}")
        return -1 if not known(p) or not known(q) else max(p, q)

    out = [1] * len(xs)
    out[-1], out[-3], out[-2] = ys[-1], xs[-3], both(-2)
    if len(xs) == 4:
        out[-4] = both(-4)
    return [T(x.dtype, tuple(out))]


# ---- ops added from real programs (defs/iOS15/tensor_transformation.py) ----------------------------------------


def slice_by_size(a: Operands) -> list[T]:
    """defs/iOS15/tensor_transformation.py slice_by_size: begin and size are vectors of x's rank; each
    result dim is size[i], or for -1 x's dim minus begin[i] (coremltools' inference, which takes begin
    as written: a negative begin with size -1 is refused here, since that inference is not the slice); a
    size computed at run time leaves every dim unknown."""
    x = a.type("x")
    xs = need_rank(x)
    for k in ("begin", "size"):
        s = a.type(k).shape
        if s is None or len(s) != 1:
            raise Bad(f"{k} must be a vector (rank 1), not {a.type(k)}")
        if known(s[0]) and s[0] != len(xs):
            raise Bad(f"{k} has {s[0]} values; x {dims(xs)} has rank {len(xs)}")
    size = a.ints("size", None) if a.known("size") is not None else None
    if size is None:
        return [T(x.dtype, (-1,) * len(xs))]
    begin = a.ints("begin", None) if a.known("begin") is not None else None
    out = []
    for i, (d, s) in enumerate(zip(xs, size)):
        if s < -1:
            raise Bad(f"size {size} holds {s}; a size is -1 (the rest) or 0 and more")
        if s != -1:
            if known(d) and begin is not None and (begin[i] + d if begin[i] < 0 else begin[i]) + s > d:
                raise Bad(f"begin {begin} and size {size} reach past dimension {i} of x {dims(xs)}")
            out.append(s)
        elif begin is None or not known(d):
            out.append(-1)
        elif begin[i] < 0 or begin[i] > d:
            raise Bad(f"begin {begin[i]} with size -1 in dimension {i} of x {dims(xs)}: coremltools infers "
                      f"{d} - ({begin[i]}) values, which is not the slice")
        else:
            out.append(d - begin[i])
    return [T(x.dtype, tuple(out))]


def _block(a: Operands) -> tuple[tuple, int]:
    """x [n, C, H, W] and block_size (depth_to_space / space_to_depth)."""
    xs, bs = need_rank(a.type("x")), a.int("block_size")
    if len(xs) != 4:
        raise Bad(f"x {dims(xs)} must have rank 4 ([n, C, H, W])")
    if bs < 1:
        raise Bad(f"block_size {bs} must be positive")
    return xs, bs


def depth_to_space(a: Operands) -> list[T]:
    """defs/iOS15/tensor_transformation.py depth_to_space: [n, C / bs², H * bs, W * bs]; C must be a multiple of bs²."""
    (n, c, h, w), bs = _block(a)
    if known(c) and c % (bs * bs):
        raise Bad(f"x has {c} channels, not a multiple of block_size² ({bs * bs})")
    return [T(a.type("x").dtype, (n, c // (bs * bs) if known(c) else -1, *(d * bs if known(d) else -1 for d in (h, w))))]


def space_to_depth(a: Operands) -> list[T]:
    """defs/iOS15/tensor_transformation.py space_to_depth: [n, C * bs², H / bs, W / bs]; H and W must be multiples of bs."""
    (n, c, h, w), bs = _block(a)
    for what, d in (("H", h), ("W", w)):
        if known(d) and d % bs:
            raise Bad(f"x's {what} ({d}) is not a multiple of block_size ({bs})")
    return [T(a.type("x").dtype, (n, c * bs * bs if known(c) else -1, *(d // bs if known(d) else -1 for d in (h, w))))]
