"""Result types of MIL's tensor operations (rules for :mod:`.mil_types`).

Each rule follows the ``type_inference`` of coremltools 9.0's definition, named
at the rule: ``defs/iOS15/tensor_operation.py`` (band_part, cumsum, fill,
non_maximum_suppression, non_zero, one_hot, pad, range_1d, argsort, topk,
flatten2d, shape), ``defs/iOS16/tensor_operation.py`` (fill_like, topk's
``return_indices``), ``defs/iOS17/tensor_operation.py`` (topk's
``output_indices_dtype``, non_maximum_suppression's layout),
``defs/iOS15/random.py`` and ``defs/iOS17/quantization_ops.py`` (dequantize).
A size coremltools takes from a value known only at run time is -1 here (its
new symbol).
"""
from __future__ import annotations

import math

from ..ops.lazy_numpy import np
from .mil_shapes import Bad, Operands, T, dims, known, need_rank, norm_axis, size


def _shaped(a: Operands, dtype: str, key: str = "shape") -> list[T]:
    """A result shaped by an int32 vector operand (fill, random_*): its values when constant, else
    one unknown dim per element, or an unknown rank when its length is unknown."""
    s = a.type(key)
    if s.shape is None or len(s.shape) != 1:
        raise Bad(f"{key} must be a vector, not {s}")
    if not known(s.shape[0]):
        return [T(dtype, None)]
    v = a.known(key)
    if v is None:
        return [T(dtype, (-1,) * s.shape[0])]
    out = [int(d) for d in np.asarray(v).reshape(-1)]
    if any(d < 0 for d in out):
        raise Bad(f"{key} {out} holds a negative size")
    return [T(dtype, tuple(out))]


def fill(a: Operands) -> list[T]:
    """fill: shape ``shape``, value's dtype (value defaults to 0.0, fp32)."""
    return _shaped(a, a.type("value").dtype if a.has("value") else "fp32")


def fill_like(a: Operands) -> list[T]:
    """defs/iOS16/tensor_operation.py fill_like: ref_tensor's shape, value's dtype (default 0.0, fp32)."""
    return [T(a.type("value").dtype if a.has("value") else "fp32", a.type("ref_tensor").shape)]


def random_dist(a: Operands, param: str, default: str = "fp32") -> list[T]:
    """defs/iOS15/random.py RandomDistribution: shape ``shape`` in the dtype of ``param`` (prob, mean or low)."""
    return _shaped(a, a.type(param).dtype if a.has(param) else default)


def random_bernoulli(a: Operands) -> list[T]:
    return random_dist(a, "prob")


def _same_dtype(a: Operands, p: str, q: str) -> None:
    """random_normal's mean and stddev, random_uniform's low and high: one dtype (an absent one is its
    default, an fp32 0.0 or 1.0), as their type_inference checks."""
    dp, dq = (a.type(k).dtype if a.has(k) else "fp32" for k in (p, q))
    if dp != dq:
        raise Bad(f"{p} is {dp} but {q} {dq}; they must share a dtype")


def random_normal(a: Operands) -> list[T]:
    _same_dtype(a, "mean", "stddev")
    return random_dist(a, "mean")


def random_uniform(a: Operands) -> list[T]:
    _same_dtype(a, "low", "high")
    return random_dist(a, "low")


def random_categorical(a: Operands) -> list[T]:
    """defs/iOS15/random.py random_categorical: x's dims but the last, then ``size`` (default 1)."""
    x = a.type("x")
    xs = need_rank(x)
    if not xs:
        raise Bad("x must have rank 1 or more")
    return [T(x.dtype, tuple(xs[:-1]) + (size(a.int("size", 1), "size"),))]


def cumsum(a: Operands) -> list[T]:
    """cumsum: x's type; axis (default 0) in [-1, rank - 1] (coremltools refuses other negative axes)."""
    x = a.type("x")
    r = len(need_rank(x))
    axis = a.int("axis", 0)
    if axis < -1 or axis > r - 1:
        raise Bad(f"axis {axis} must be in [-1, {r - 1}]")
    return [T(x.dtype, x.shape)]


def argsort(a: Operands) -> list[T]:
    """argsort: int32 indices of x's shape."""
    return [T("int32", a.type("x").shape)]


def topk(a: Operands) -> list[T]:
    """topk: values and indices, x's shape with ``k`` (default 1) along ``axis`` (default -1); k must
    not exceed that dim. iOS16: no indices when return_indices is false. iOS17: the indices' dtype is
    output_indices_dtype (int32 or uint16), which is only for return_indices true."""
    x = a.type("x")
    xs = list(need_rank(x))
    k, axis = size(a.int("k", 1), "k"), a.int("axis", -1)
    if not -len(xs) <= axis < len(xs):
        raise Bad(f"axis {axis} is out of range for x {dims(xs)}")
    if known(xs[axis]) and k > xs[axis]:
        raise Bad(f"k {k} is larger than dimension {axis} of x {dims(xs)}")
    xs[axis] = k
    indices = a.version < 16 or a.flag("return_indices", True)
    idtype = "int32"
    if a.version >= 17:
        if not indices and a.has("output_indices_dtype"):
            raise Bad("output_indices_dtype is only for return_indices true")
        if indices:
            idtype = a.text("output_indices_dtype", "int32")
            if idtype not in ("int32", "uint16"):
                raise Bad(f"output_indices_dtype {idtype!r} is not int32 or uint16")
    vals = T(x.dtype, tuple(xs))
    return [vals, T(idtype, tuple(xs))] if indices else [vals]


def flatten2d(a: Operands) -> list[T]:
    """flatten2d: [prod(dims before axis), prod(dims from axis)], axis default 1 (Python slicing, as coremltools)."""
    x = a.type("x")
    xs = list(need_rank(x))
    axis = a.int("axis", 1)

    def prod(ds):
        return math.prod(ds) if all(known(d) for d in ds) else -1

    return [T(x.dtype, (prod(xs[:axis]), prod(xs[axis:])))]


def shape(a: Operands) -> list[T]:
    """shape: an int32 vector of x's rank."""
    s = a.type("x").shape
    return [T("int32", (-1 if s is None else len(s),))]


def range_1d(a: Operands) -> list[T]:
    """range_1d: start, end and step of one dtype; ceil((end - start) / step) values when all are
    constants, else an unknown length. A negative count (end before start for a positive step) is refused:
    coremltools infers it as written, a dim no tensor has."""
    vals = [a.known(k) for k in ("start", "end", "step")]
    dtype = a.type("start").dtype
    if any(v is None for v in vals):
        return [T(dtype, (-1,))]
    start, end, step = (float(np.asarray(v).reshape(-1)[0]) for v in vals)
    if step == 0:
        raise Bad("step is 0")
    n = math.ceil((end - start) / step)
    if n < 0:
        raise Bad(f"start {start:g}, end {end:g} and step {step:g} make {n} values")
    return [T(dtype, (n,))]


def one_hot(a: Operands) -> list[T]:
    """one_hot: indices' shape with one_hot_vector_size inserted at ``axis`` (default -1, in
    [-rank - 1, rank]); the dtype is on_value's (default 1, int32); on_value and off_value share it."""
    ind = a.type("indices")
    ins = list(need_rank(ind, "indices"))
    on = a.type("on_value").dtype if a.has("on_value") else "int32"
    off = a.type("off_value").dtype if a.has("off_value") else "int32"
    if on != off:
        raise Bad(f"on_value is {on} but off_value {off}; they must share a dtype")
    axis = a.int("axis", -1)
    if axis < -len(ins) - 1 or axis > len(ins):
        raise Bad(f"axis {axis} is out of range for indices {dims(ins)}")
    depth = a.known("one_hot_vector_size")
    depth = -1 if depth is None else int(np.asarray(depth).reshape(-1)[0])
    if a.known("one_hot_vector_size") is not None and depth < 0:
        raise Bad(f"one_hot_vector_size {depth} is negative")
    cut = len(ins) + axis + 1 if axis < 0 else axis
    return [T(on, tuple(ins[:cut]) + (depth,) + tuple(ins[cut:]))]


PAD_MODES = ("constant", "reflect", "replicate")


def pad(a: Operands) -> list[T]:
    """pad: pad is a vector of before/after pairs for x's last dims (non-negative); a pad computed at
    run time must have 2 * rank values and leaves those dims unknown. mode is constant, reflect or replicate."""
    x, p = a.type("x"), a.type("pad")
    xs = list(need_rank(x))
    if p.shape is None or len(p.shape) != 1:
        raise Bad(f"pad must be a vector, not {p}")
    mode = a.text("mode", "constant")
    if mode not in PAD_MODES:
        raise Bad(f"mode {mode!r} is not one of {', '.join(PAD_MODES)}")
    v = a.known("pad")
    if v is None:
        if p.shape[0] != 2 * len(xs):
            raise Bad(f"a pad computed at run time must have {2 * len(xs)} values (x {dims(xs)}), not {dims(p.shape)}")
        return [T(x.dtype, (-1,) * len(xs))]
    pv = [int(i) for i in np.asarray(v).reshape(-1)]
    if len(pv) % 2:
        raise Bad(f"pad {pv} must hold pairs (an even number of values)")
    if any(i < 0 for i in pv):
        raise Bad(f"pad {pv} holds a negative value")
    if len(pv) // 2 > len(xs):
        raise Bad(f"pad {pv} pads {len(pv) // 2} dims; x {dims(xs)} has {len(xs)}")
    m = len(pv) // 2
    for i in range(m):
        j = len(xs) - m + i
        xs[j] = xs[j] + pv[2 * i] + pv[2 * i + 1] if known(xs[j]) else -1
    return [T(x.dtype, tuple(xs))]


def non_zero(a: Operands) -> list[T]:
    """non_zero: int32 [count, rank]; the count is known only for a constant x."""
    x = a.type("x")
    xs = need_rank(x)
    v = a.known("x")
    if v is not None:
        return [T("int32", tuple(np.transpose(np.nonzero(np.asarray(v))).shape))]
    return [T("int32", (-1, len(xs)))]


def non_maximum_suppression(a: Operands) -> list[T]:
    """non_maximum_suppression: scores [n_batch, n_boxes, n_class] -> boxes [n_batch, max_boxes, 4],
    scores [n_batch, max_boxes, n_class], int32 indices [n_batch, max_boxes] and counts [n_batch].
    iOS17 (defs/iOS17/tensor_operation.py): scores [n_batch, n_class, n_boxes] -> boxes [n_batch, 4,
    max_boxes], scores [n_batch, n_class, max_boxes], indices [n_batch, max_boxes]."""
    b, s = a.type("boxes"), a.type("scores")
    ss = need_rank(s, "scores")
    if len(ss) != 3:
        raise Bad(f"scores {dims(ss)} must have rank 3")
    m = size(a.int("max_boxes"), "max_boxes")
    if a.version >= 17:
        n, c, _ = ss
        return [T(b.dtype, (n, 4, m)), T(s.dtype, (n, c, m)), T("int32", (n, m))]
    n, _, c = ss
    return [T(b.dtype, (n, m, 4)), T(s.dtype, (n, m, c)), T("int32", (n, m)), T("int32", (n,))]


def dequantize(a: Operands) -> list[T]:
    """defs/iOS17/quantization_ops.py dequantize: input's shape in scale's dtype; scale and zero_point
    are scalars (no axis) or vectors of input's dim ``axis`` (_check_scale_zp_shapes)."""
    x, sc = a.type("input"), a.type("scale")
    xs = need_rank(x, "input")
    zp = a.type("zero_point") if a.has("zero_point") else None
    if sc.rank == 0:
        if a.has("axis"):
            raise Bad("axis is given but scale is a scalar")
        if zp is not None and zp.rank != 0:
            raise Bad("zero_point must be a scalar when scale is one")
    elif sc.rank == 1:
        if not a.has("axis"):
            raise Bad("scale is a vector, so axis is needed")
        axis = norm_axis(a.int("axis"), len(xs))
        if zp is not None and zp.rank != 1:
            raise Bad("zero_point must be a vector when scale is one")
        for k, t in (("scale", sc), ("zero_point", zp)):
            if t is not None and known(xs[axis]) and known(t.shape[0]) and t.shape[0] != xs[axis]:
                raise Bad(f"{k} is {dims(t.shape)}; it must be [{xs[axis]}], input's dim {axis} (input {dims(xs)})")
    else:
        raise Bad(f"scale has rank {sc.rank}; it must be a scalar or a vector")
    return [T(sc.dtype, tuple(xs))]
