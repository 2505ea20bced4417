"""Result types of MIL's gather and scatter ops (rules for :mod:`.mil_types`).

Each rule follows the ``type_inference`` of coremltools 9.0's definition:
``defs/iOS15/scatter_gather.py`` (gather, gather_along_axis, gather_nd,
scatter, scatter_along_axis, scatter_nd), ``defs/iOS16/scatter_gather.py``
(gather's and gather_nd's ``batch_dims``) and ``defs/iOS17/scatter_gather.py``
(``validate_indices``: constant indices out of bounds are refused).
"""
from __future__ import annotations

from ..ops.lazy_numpy import np
from .mil_shapes import Bad, Operands, T, dims, known, need_rank, norm_axis


def _compatible(got: tuple, want: tuple) -> bool:
    """coremltools' is_compatible_symbolic_vector: same length, equal where both are known."""
    return len(got) == len(want) and all(not known(p) or not known(q) or p == q for p, q in zip(got, want))


def _validate(a: Operands, bound, what: str) -> None:
    """iOS17 validate_indices: constant indices must lie in [0, bound)."""
    if a.version < 17 or not a.flag("validate_indices") or a.known("indices") is None or not known(bound):
        return
    idx = np.asarray(a.known("indices"))
    if np.any((idx < 0) | (idx >= bound)):
        raise Bad(f"validate_indices is true but indices {idx.reshape(-1).tolist()} reach outside [0, {bound}) ({what})")


def gather(a: Operands) -> list[T]:
    """gather: x's dims before ``axis``, indices' dims (from ``batch_dims`` on, iOS16+), x's dims after;
    a result of rank 0 is a scalar."""
    x, ind = a.type("x"), a.type("indices")
    xs, ins = need_rank(x), need_rank(ind, "indices")
    axis = a.int("axis", 0)
    if not -len(xs) <= axis < len(xs):
        raise Bad(f"axis {axis} is out of range for x {dims(xs)}")
    bd = a.int("batch_dims", 0) if a.version >= 16 else 0
    if bd >= len(xs):
        raise Bad(f"batch_dims {bd} must be less than x's rank {len(xs)}")
    if bd > len(ins):
        raise Bad(f"batch_dims {bd} must be at most indices' rank {len(ins)}")
    axis %= len(xs)
    _validate(a, xs[axis], f"x's dim {axis}")
    if len(xs) - 1 + len(ins) - bd == 0:
        return [T(x.dtype, ())]
    return [T(x.dtype, tuple(xs[:axis]) + tuple(ins[bd:]) + tuple(xs[axis + 1:]))]


def gather_along_axis(a: Operands) -> list[T]:
    """gather_along_axis: x and indices of one rank, equal dims but ``axis``; the result has indices' shape."""
    x, ind = a.type("x"), a.type("indices")
    xs, ins = need_rank(x), need_rank(ind, "indices")
    if len(xs) != len(ins):
        raise Bad(f"x {dims(xs)} and indices {dims(ins)} must have the same rank")
    axis = norm_axis(a.int("axis", 0), len(xs))
    for i, (p, q) in enumerate(zip(xs, ins)):
        if i != axis and known(p) and known(q) and p != q:
            raise Bad(f"x {dims(xs)} and indices {dims(ins)} differ in dimension {i} (only axis {axis} may)")
    _validate(a, xs[axis], f"x's dim {axis}")
    return [T(x.dtype, tuple(ins))]


def _nd_depth(ins: tuple, rank: int, batch_dims: int = 0) -> int:
    if not ins:
        raise Bad("indices must have rank 1 or more")
    k = ins[-1]
    if not known(k):
        raise Bad(f"indices {dims(ins)} has an unknown last dimension; it says how many dims each index addresses")
    if k + batch_dims > rank:
        raise Bad(f"indices' last dimension ({k}) plus batch_dims ({batch_dims}) exceeds the rank {rank}")
    return k


def gather_nd(a: Operands) -> list[T]:
    """gather_nd: indices [..., K] address K dims of x (after ``batch_dims``, iOS16+); the result is
    indices' leading dims and x's dims after batch_dims + K."""
    x, ind = a.type("x"), a.type("indices")
    xs, ins = need_rank(x), need_rank(ind, "indices")
    bd = a.int("batch_dims", 0) if a.version >= 16 else 0
    k = _nd_depth(ins, len(xs), bd)
    if a.version >= 17 and a.flag("validate_indices") and a.known("indices") is not None:
        idx = np.asarray(a.known("indices"))
        bound = np.asarray([d if known(d) else np.iinfo(np.int64).max for d in xs[:k]])
        if np.any((idx < 0) | (idx >= bound)):
            raise Bad(f"validate_indices is true but indices reach outside x {dims(xs)}")
    return [T(x.dtype, tuple(ins[:-1]) + tuple(xs[bd + k:]))]


def scatter(a: Operands) -> list[T]:
    """scatter: updates must be data's dims before ``axis``, indices' dims, data's dims after; the
    result is data's type."""
    d, ind, up = a.type("data"), a.type("indices"), a.type("updates")
    ds, ins, us = need_rank(d, "data"), need_rank(ind, "indices"), need_rank(up, "updates")
    axis = norm_axis(a.int("axis", 0), len(ds))
    want = tuple(ds[:axis]) + tuple(ins) + tuple(ds[axis + 1:])
    if not _compatible(tuple(us), want):
        raise Bad(f"updates is {dims(us)}; it must be {dims(want)} (data {dims(ds)}, indices {dims(ins)}, axis {axis})")
    _validate(a, ds[axis], f"data's dim {axis}")
    return [T(d.dtype, tuple(ds))]


def scatter_along_axis(a: Operands) -> list[T]:
    """scatter_along_axis: indices and updates of one shape, data's rank, data's dims but ``axis``."""
    d, ind, up = a.type("data"), a.type("indices"), a.type("updates")
    ds, ins, us = need_rank(d, "data"), need_rank(ind, "indices"), need_rank(up, "updates")
    axis = norm_axis(a.int("axis", 0), len(ds))
    if not _compatible(tuple(ins), tuple(us)):
        raise Bad(f"indices {dims(ins)} and updates {dims(us)} must have one shape")
    if len(ds) != len(ins):
        raise Bad(f"data {dims(ds)} and indices {dims(ins)} must have the same rank")
    for i, (p, q) in enumerate(zip(ds, ins)):
        if i != axis and known(p) and known(q) and p != q:
            raise Bad(f"data {dims(ds)} and indices {dims(ins)} differ in dimension {i} (only axis {axis} may)")
    _validate(a, ds[axis], f"data's dim {axis}")
    return [T(d.dtype, tuple(ds))]


def scatter_nd(a: Operands) -> list[T]:
    """scatter_nd: indices [..., K]; updates must be indices' leading dims and data's dims after K."""
    d, ind, up = a.type("data"), a.type("indices"), a.type("updates")
    ds, ins, us = need_rank(d, "data"), need_rank(ind, "indices"), need_rank(up, "updates")
    k = _nd_depth(ins, len(ds))
    want = tuple(ins[:-1]) + tuple(ds[k:])
    if not _compatible(tuple(us), want):
        raise Bad(f"updates is {dims(us)}; it must be {dims(want)} (data {dims(ds)}, indices {dims(ins)})")
    if a.version >= 17 and a.flag("validate_indices") and a.known("indices") is not None:
        idx = np.asarray(a.known("indices"))
        bound = np.asarray([x if known(x) else np.iinfo(np.int64).max for x in ds[:k]])
        if np.any((idx < 0) | (idx >= bound)):
            raise Bad(f"validate_indices is true but indices reach outside data {dims(ds)}")
    return [T(d.dtype, tuple(ds))]
