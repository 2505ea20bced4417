"""Result types of MIL ops: the rules :mod:`.mil_types` applies per op.

Each rule reads an op's operands through :class:`Operands` and returns the
types of its results (the elementwise ops' rules are beside the op table in
:mod:`.mil_types`; gather/scatter, pooling, tensor operations, rearranging,
image resizing and recurrent ops each have a module ``mil_shapes_*`` of their
own), or raises :class:`Bad` saying why the operands do not
make a valid op. The rules follow coremltools 9.0's ``type_inference`` of each
op (``coremltools/converters/mil/mil/ops/defs/iOS15..iOS18``; the file is
named at each rule), written anew: broadcasting and conv output sizes from
``defs/_utils.py``. Where coremltools fails with a Python exception instead of
a message (a rank-1 ``y`` of matmul, an axis out of range), the op's documented
meaning is taken, or the case is refused with a message. Where its inference and
its docstring disagree (a rank-1 ``x`` of matmul times a batched ``y``, the shape
of ``select``'s cond), the inference is followed: programs coremltools writes
declare its answer.

A type is a :class:`T`: dtype, shape (``()`` for scalars, -1 for a dimension
not known until run time, None for a rank not known either) and whether it is
a state.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..ops.lazy_numpy import np
from .mil_model import Ref


class Bad(Exception):
    """The operands of an op do not make a valid op; the message says why."""


@dataclass(frozen=True)
class T:
    dtype: str
    shape: tuple | None = ()
    state: bool = False

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    def __str__(self) -> str:
        if self.shape == () and not self.state:
            return self.dtype  # a scalar, as MIL text writes it
        dims = "*" if self.shape is None else ", ".join("?" if d < 0 else str(d) for d in self.shape)
        text = f"tensor<{self.dtype}, [{dims}]>"
        return f"state<{text}>" if self.state else text


def dims(shape) -> str:
    return "[*]" if shape is None else "[" + ", ".join("?" if d < 0 else str(d) for d in shape) + "]"


MISSING = object()


class Operands:
    """An op's operands: types of tensors and tuples, values of constants.

    ``types`` maps every variable in scope to its :class:`T`; ``consts`` the
    constants' values; ``version`` is the iOS version of the function's opset."""

    def __init__(self, op, types: dict, consts: dict, version: int, constexprs=()):
        self.op, self.args, self.types, self.consts, self.version = op, op.args, types, consts, version
        self.constexprs = constexprs  # names of constexpr results: constants, but not const() ops

    def is_const_op(self, key: str) -> bool:
        """Whether the operand is a literal or a const() (coremltools' ``op.op_type == "const"``)."""
        v = self.args.get(key)
        return not isinstance(v, tuple) and (not isinstance(v, Ref) or (v.name in self.consts and v.name not in self.constexprs))

    def has(self, key: str) -> bool:
        return key in self.args

    def type_of(self, v) -> T:
        if isinstance(v, Ref):
            return self.types[v.name]
        if isinstance(v, tuple):
            raise Bad("a tuple where a tensor is expected")
        return T(v.type.dtype, v.type.shape or ())

    def type(self, key: str) -> T:
        return self.type_of(self.args[key])

    def tuple(self, key: str) -> list[T]:
        v = self.args[key]
        return [self.type_of(x) for x in (v if isinstance(v, tuple) else (v,))]

    def known(self, key: str):
        """The value of a constant operand; None when absent or computed at run time."""
        v = self.args.get(key)
        if v is None or isinstance(v, tuple):
            return None
        if isinstance(v, Ref):
            return self.consts.get(v.name)
        return v.value

    def const(self, key: str, default=MISSING):
        """The value of a constant operand (the spec checked it is one), or ``default`` when absent."""
        if key not in self.args:
            if default is MISSING:
                raise Bad(f"'{key}' is missing")
            return default
        return self.known(key)

    def ints(self, key: str, default=MISSING) -> list[int] | None:
        v = self.const(key, default)
        return None if v is None else [int(i) for i in np.asarray(v).reshape(-1)]

    def int(self, key: str, default=MISSING) -> int:
        v = np.asarray(self.const(key, default))
        if v.size != 1:
            raise Bad(f"'{key}' must be one integer, not {v.size} values")
        return int(v.reshape(-1)[0])

    def flag(self, key: str, default: bool = False) -> bool:
        return bool(np.asarray(self.const(key, default)).reshape(-1)[0])

    def text(self, key: str, default=MISSING) -> str:
        v = self.const(key, default)
        return str(v.item() if isinstance(v, np.ndarray) else v)


def known(d) -> bool:
    return d is not None and d >= 0


def size(v: int, what: str) -> int:
    """A result dim taken from a constant (a target size, k, an output shape): 0 or more. coremltools
    takes a negative one as written (resize_nearest_neighbor to height -2 infers [..., -2, W]), a type no
    tensor has: refused here."""
    if v < 0:
        raise Bad(f"{what} {v} is negative; a size is 0 or more")
    return v


def need_rank(t: T, what: str = "x") -> tuple:
    if t.shape is None:
        raise Bad(f"{what} has a rank not known before run time; this op needs it")
    return t.shape


def norm_axis(axis: int, rank: int, what: str = "axis") -> int:
    if not -rank <= axis < rank:
        raise Bad(f"{what} {axis} is out of range for rank {rank}")
    return axis % rank


def broadcast(a: tuple | None, b: tuple | None) -> tuple | None:
    """NumPy broadcasting with unknown (-1) dims, as ``broadcast_shapes`` in defs/_utils.py."""
    if a is None or b is None:
        return None
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        elif x < 0 or y < 0:
            out.append(max(x, y))  # the known one, > 1: the unknown one must be it or 1
        else:
            raise Bad(f"shapes {dims(a)} and {dims(b)} do not broadcast: dimension {i} is {x} in one and {y} in the other")
    return tuple(out)


def like_x(a: Operands) -> list[T]:
    """The result is x's type (elementwise unary ops, activations, norms: defs/iOS15/elementwise_unary.py, activation.py)."""
    x = a.type("x")
    return [T(x.dtype, x.shape)]


# ---- linear algebra ------------------------------------------------------------------------------------------------


def matmul(a: Operands) -> list[T]:
    """defs/iOS15/linear.py: the last two dims multiply (after transpose_x / transpose_y), the
    others broadcast; a rank-1 x gains a leading 1 that is removed again (see below), a rank-1 y
    (documented, though coremltools' inference fails on it) a trailing 1. iOS17 (defs/iOS17/linear.py): x and
    y may differ in dtype when exactly one is a constant; the result takes the other's."""
    x, y = a.type("x"), a.type("y")
    tx, ty = a.flag("transpose_x"), a.flag("transpose_y")
    xs, ys = list(need_rank(x, "x")), list(need_rank(y, "y"))
    if not xs or not ys:
        raise Bad("x and y must have rank 1 or more")
    if len(xs) == 1 and tx:
        raise Bad("x is rank 1, so transpose_x cannot be true")
    xs2 = [1] + xs if len(xs) == 1 else xs[:]
    ys2 = ys + [1] if len(ys) == 1 else ys[:]
    if tx:
        xs2[-1], xs2[-2] = xs2[-2], xs2[-1]
    if ty and len(ys) > 1:
        ys2[-1], ys2[-2] = ys2[-2], ys2[-1]
    if known(xs2[-1]) and known(ys2[-2]) and xs2[-1] != ys2[-2]:
        flags = " with " + " and ".join(f for f, on in (("transpose_x", tx), ("transpose_y", ty)) if on) if tx or ty else ""
        raise Bad(f"x {dims(xs)} and y {dims(ys)}{flags} do not multiply: x's columns are {xs2[-1]}, "
                  f"y's rows {ys2[-2]}")
    out = list(broadcast(tuple(xs2[:-2]), tuple(ys2[:-2]))) + [xs2[-2], ys2[-1]]
    if len(ys) == 1:
        out.pop(-1)
    if len(xs) == 1:
        # coremltools drops the first dim (ret_shape[1:]): the inserted 1 when y is a matrix, but a batch
        # dim of a batched y ([64] x [3, 64, 8] -> [1, 8], where its docstring says [3, 8]). Programs
        # coremltools writes declare its answer, so that is what is checked.
        out.pop(0 if len(ys) > 1 else -1)
    dtype = x.dtype
    if x.dtype != y.dtype:
        xc, yc = a.is_const_op("x"), a.is_const_op("y")
        if a.version < 17 or xc == yc:
            raise Bad(f"x is {x.dtype} and y {y.dtype}; they must match (unless exactly one is a constant, iOS17+)")
        dtype = x.dtype if yc else y.dtype
    return [T(dtype, tuple(out))]


def linear(a: Operands) -> list[T]:
    """defs/iOS15/linear.py: x [*, D_in] times weight [D_out, D_in] transposed, plus bias [D_out]."""
    x, w = a.type("x"), a.type("weight")
    xs, ws = need_rank(x), need_rank(w, "weight")
    if len(ws) != 2 or not xs:
        raise Bad(f"weight must be rank 2 ([D_out, D_in]) and x rank 1 or more; weight is {dims(ws)}, x {dims(xs)}")
    if known(xs[-1]) and known(ws[1]) and xs[-1] != ws[1]:
        raise Bad(f"x's last dimension ({xs[-1]}) is not weight's D_in ({ws[1]}, weight {dims(ws)})")
    if a.has("bias"):
        bs = need_rank(a.type("bias"), "bias")
        if len(bs) != 1 or (known(bs[0]) and known(ws[0]) and bs[0] != ws[0]):
            raise Bad(f"bias is {dims(bs)}; it must be [{ws[0]}] (weight's D_out)")
    return [T(x.dtype, tuple(xs[:-1]) + (ws[0],))]


def conv(a: Operands) -> list[T]:
    """defs/iOS15/conv.py: x [N, C_in, *d_in], weight [C_out, C_in / groups, *K]; strides and
    dilations default to 1, pad_type to "valid", pad to 0, groups to 1. d_out per spatial dim:
    valid / custom floor((d_in + pad - dilated K) / stride) + 1, same / same_lower ceil(d_in / stride)."""
    x, w = a.type("x"), a.type("weight")
    xs, ws = need_rank(x), need_rank(w, "weight")
    n = len(xs) - 2
    if n < 1 or n > 3 or len(ws) != len(xs):
        raise Bad(f"x {dims(xs)} and weight {dims(ws)} must both have rank 3, 4 or 5 (1-D to 3-D convolution)")
    strides, dil = a.ints("strides", [1] * n), a.ints("dilations", [1] * n)
    pad_type, pad = a.text("pad_type", "valid"), a.ints("pad", [0] * (2 * n))
    groups = a.int("groups", 1)
    if len(strides) != n or len(dil) != n or (pad_type == "custom" and len(pad) != 2 * n):
        raise Bad(f"strides {strides} and dilations {dil} need {n} values and a custom pad {pad} {2 * n} "
                  f"for the {n} spatial dimensions of x {dims(xs)}")
    if min(strides) < 1 or min(dil) < 1 or groups < 1 or min(pad, default=0) < 0:
        raise Bad(f"strides {strides}, dilations {dil} and groups {groups} must be positive, pad {pad} not negative")
    kinds = ("valid", "same", "custom") + (("same_lower",) if a.version >= 16 else ())
    if pad_type not in kinds:
        raise Bad(f"pad_type {pad_type!r} is not one of {', '.join(kinds)} (iOS{a.version})")
    cin = xs[1]
    if known(cin) and (cin % groups or (known(ws[1]) and cin // groups != ws[1])):
        raise Bad(f"x has {cin} channels and groups is {groups}, so weight's dim 1 must be {cin / groups:g}; "
                  f"weight is {dims(ws)}")
    if a.has("bias"):
        bs = need_rank(a.type("bias"), "bias")
        if len(bs) != 1 or (known(bs[0]) and known(ws[0]) and bs[0] != ws[0]):
            raise Bad(f"bias is {dims(bs)}; it must be [{ws[0]}] (one per output channel)")
        if a.version < 17 and a.known("bias") is None:  # iOS17 dropped const=True from conv's bias
            raise Bad("bias must be a constant before iOS17")
    if max(dil) > 1 and a.known("weight") is None:
        raise Bad("a weight computed at run time cannot be dilated")
    out = []
    for i in range(n):
        d, k = xs[2 + i], ws[2 + i]
        if not (known(d) and known(k)):
            out.append(-1)
            continue
        ek = (k - 1) * dil[i] + 1
        if pad_type in ("same", "same_lower"):
            size = -(-d // strides[i])
        else:
            total = pad[2 * i] + pad[2 * i + 1] if pad_type == "custom" else 0
            size = (d + total - ek) // strides[i] + 1
        if size <= 0:
            raise Bad(f"spatial dimension {i} ({d}) is smaller than the dilated kernel ({ek}) with pad {pad}: "
                      f"the output would have {size} values")
        out.append(size)
    return [T(x.dtype, (xs[0], ws[0], *out))]


# ---- shape manipulation ----------------------------------------------------------------------------------------------


def reshape(a: Operands) -> list[T]:
    """defs/iOS15/tensor_transformation.py: one -1 is inferred from the element count; 0 copies x's
    dim at the same index (iOS15/16: then shape's length must be x's rank; iOS17: counted from the
    right, defs/iOS17/tensor_transformation.py, 1 past x's rank)."""
    x, s = a.type("x"), a.type("shape")
    if s.shape is None or len(s.shape) != 1:
        raise Bad(f"shape must be a vector, not {s}")
    if not known(s.shape[0]):
        return [T(x.dtype, None)]
    shape = a.ints("shape", None) if a.known("shape") is not None else None
    if shape is None:
        return [T(x.dtype, (-1,) * s.shape[0])]
    if shape.count(-1) > 1 or any(d < -1 for d in shape):
        raise Bad(f"shape {shape} may hold one -1 and no other negative value")
    xs = x.shape
    if 0 in shape:
        if xs is None:
            return [T(x.dtype, tuple(-1 if d == 0 else d for d in shape))]
        if a.version >= 17:
            rx = list(xs)[::-1]
            shape = [(rx[i] if i < len(rx) else 1) if d == 0 else d for i, d in enumerate(shape[::-1])][::-1]
        elif len(shape) != len(xs):
            raise Bad(f"shape {shape} holds 0, so it must have x's rank {len(xs)}")
        else:
            shape = [xs[i] if d == 0 else d for i, d in enumerate(shape)]
    total = None if xs is None or any(not known(d) for d in xs) else math.prod(xs)
    if -1 in shape:
        rest = math.prod(d for d in shape if d != -1)
        if total is None:
            return [T(x.dtype, tuple(shape))]
        if rest == 0 or total % rest:
            raise Bad(f"x {dims(xs)} ({total} values) cannot be reshaped to {shape}")
        shape[shape.index(-1)] = total // rest
    if total is not None and all(known(d) for d in shape) and math.prod(shape) != total:
        raise Bad(f"x {dims(xs)} has {total} values but shape {shape} holds {math.prod(shape)}")
    return [T(x.dtype, tuple(shape))]


def transpose(a: Operands) -> list[T]:
    """defs/iOS15/tensor_transformation.py: result dim i is x's dim perm[i]; perm must be a permutation."""
    x = a.type("x")
    xs, perm = need_rank(x), a.ints("perm")
    if len(perm) != len(xs) or sorted(p % len(xs) if -len(xs) <= p < len(xs) else -1 for p in perm) != list(range(len(xs))):
        raise Bad(f"perm {perm} is not a permutation of the {len(xs)} axes of x {dims(xs)}")
    return [T(x.dtype, tuple(xs[p] for p in perm))]


def squeeze(a: Operands) -> list[T]:
    """defs/iOS15/tensor_transformation.py: without axes every size-1 dim goes; with axes, those of
    them that are 1 (others stay, as coremltools does). Nothing left is a scalar."""
    x = a.type("x")
    xs = list(need_rank(x))
    axes = a.ints("axes", None)
    if axes is None:
        return [T(x.dtype, tuple(d for d in xs if d != 1))]
    for i in sorted({norm_axis(ax, len(xs), "axis") for ax in axes}, reverse=True):
        if xs[i] == 1:
            xs.pop(i)
    return [T(x.dtype, tuple(xs))]


def expand_dims(a: Operands) -> list[T]:
    """defs/iOS15/tensor_transformation.py: a 1 at each of ``axes``, counted in the result's rank."""
    x = a.type("x")
    xs, axes = list(need_rank(x)), a.ints("axes")
    out_rank = len(xs) + len(axes)
    for ax in sorted(norm_axis(ax, out_rank, "axis") for ax in axes):
        xs.insert(ax, 1)
    return [T(x.dtype, tuple(xs))]


def concat(a: Operands) -> list[T]:
    """defs/iOS15/tensor_operation.py: same rank and dtype, equal dims but ``axis`` (all equal with
    interleave); the axis dims add up. Scalars concatenate into a vector."""
    vals = a.tuple("values")
    if not vals:
        raise Bad("values is empty")
    shapes = [need_rank(v, "each of values") for v in vals]
    rank = len(shapes[0])
    if any(len(s) != rank for s in shapes) or any(v.dtype != vals[0].dtype for v in vals):
        raise Bad("values must share rank and dtype: " + ", ".join(str(v) for v in vals))
    if rank == 0:
        return [T(vals[0].dtype, (len(vals),))]
    axis = norm_axis(a.int("axis"), rank)
    out = list(shapes[0])
    for s in shapes[1:]:
        for i, (p, q) in enumerate(zip(out, s)):
            if known(p) and known(q) and p != q and (i != axis or a.flag("interleave")):
                raise Bad(f"values {', '.join(map(dims, shapes))} differ in dimension {i}"
                          + (" (interleave needs equal shapes)" if i == axis else f", not only along axis {axis}"))
            if i != axis and not known(p):
                out[i] = q
    out[axis] = sum(s[axis] for s in shapes) if all(known(s[axis]) for s in shapes) else -1
    return [T(vals[0].dtype, tuple(out))]


def split(a: Operands) -> list[T]:
    """defs/iOS15/tensor_operation.py: num_splits equal parts or split_sizes along axis; one result each."""
    x = a.type("x")
    xs = list(need_rank(x))
    axis = norm_axis(a.int("axis"), len(xs))
    sizes = a.ints("split_sizes", None) if a.known("split_sizes") is not None else None
    if sizes is None and a.has("split_sizes"):
        s = a.type("split_sizes").shape
        if not s or not known(s[0]):
            raise Bad("split_sizes computed at run time must have a known length")
        sizes = [-1] * s[0]
    if sizes is None:
        if not a.has("num_splits"):
            raise Bad("split needs num_splits or split_sizes")
        k = a.int("num_splits")
        if k < 1 or (known(xs[axis]) and xs[axis] % k):
            raise Bad(f"num_splits {k} does not divide dimension {axis} of x {dims(xs)}")
        sizes = [xs[axis] // k if known(xs[axis]) else -1] * k
    elif a.has("num_splits") and a.int("num_splits") != len(sizes):
        raise Bad(f"num_splits {a.int('num_splits')} differs from the {len(sizes)} split_sizes")
    if known(xs[axis]) and all(known(s) for s in sizes) and sum(sizes) != xs[axis]:
        raise Bad(f"split_sizes {sizes} add up to {sum(sizes)}, not dimension {axis} of x {dims(xs)}")
    return [T(x.dtype, tuple(s if i == axis else d for i, d in enumerate(xs))) for s in sizes]


def stack(a: Operands) -> list[T]:
    """defs/iOS15/tensor_operation.py: equal shapes, a new axis of len(values)."""
    vals = a.tuple("values")
    shapes = [need_rank(v, "each of values") for v in vals]
    if not vals or any(len(s) != len(shapes[0]) or any(known(p) and known(q) and p != q for p, q in zip(s, shapes[0]))
                       for s in shapes) or any(v.dtype != vals[0].dtype for v in vals):
        raise Bad("values must be non-empty and share shape and dtype: " + ", ".join(str(v) for v in vals))
    out = list(shapes[0])
    out.insert(norm_axis(a.int("axis"), len(out) + 1), len(vals))
    return [T(vals[0].dtype, tuple(out))]


def tile(a: Operands) -> list[T]:
    """defs/iOS15/tensor_operation.py: dim i times reps[i]."""
    x = a.type("x")
    xs = need_rank(x)
    reps = a.ints("reps", None) if a.known("reps") is not None else None
    if reps is None:
        return [T(x.dtype, (-1,) * len(xs))]
    if len(reps) != len(xs) or min(reps, default=0) < 1:
        raise Bad(f"reps {reps} needs one positive value per dimension of x {dims(xs)}")
    return [T(x.dtype, tuple(d * r if known(d) else (d if r == 1 else -1) for d, r in zip(xs, reps)))]


def slice_by_index(a: Operands) -> list[T]:
    """defs/iOS15/tensor_transformation.py (solve_slice_by_index_shape in defs/_utils.py):
    Python slicing per dim; a set begin_mask / end_mask ignores begin / end, squeeze_mask drops the dim."""
    x = a.type("x")
    xs = need_rank(x)
    r = len(xs)
    masks = {m: [bool(v) for v in np.asarray(a.const(m, [False] * r)).reshape(-1)] for m in ("begin_mask", "end_mask", "squeeze_mask")}
    begin = a.ints("begin", None) if a.known("begin") is not None else None
    end = a.ints("end", None) if a.known("end") is not None else None
    stride = a.ints("stride", [1] * r)
    for name, v in (("begin", begin), ("end", end), ("stride", stride), *masks.items()):
        if v is not None and len(v) != r:
            raise Bad(f"{name} has {len(v)} values; x {dims(xs)} has rank {r}")
    if 0 in stride:
        raise Bad(f"stride {stride} holds 0")
    out = []
    for i, d in enumerate(xs):
        if masks["squeeze_mask"][i]:
            continue
        b = None if masks["begin_mask"][i] or begin is None else begin[i]
        e = None if masks["end_mask"][i] or end is None else end[i]
        if not known(d) or (begin is None and not masks["begin_mask"][i]) or (end is None and not masks["end_mask"][i]):
            out.append(-1)
        else:
            out.append(len(range(*slice(b, e, stride[i]).indices(d))))
    return [T(x.dtype, tuple(out))]


# ---- reductions and normalisation ------------------------------------------------------------------------------------


def reduce(a: Operands) -> list[T]:
    """defs/iOS15/reduction.py: axes default to all; keep_dims (default false) keeps them as 1;
    reducing every axis without keep_dims gives a scalar."""
    x = a.type("x")
    xs = list(need_rank(x))
    axes = a.ints("axes", None)
    axes = range(len(xs)) if axes is None else [norm_axis(ax, len(xs)) for ax in axes]
    keep = a.flag("keep_dims")
    return [T(x.dtype, tuple(1 if i in axes else d for i, d in enumerate(xs) if keep or i not in axes))]


def reduce_arg(a: Operands) -> list[T]:
    """reduce_argmax / reduce_argmin (defs/iOS15/reduction.py; iOS17 adds output_dtype int32 or uint16)."""
    x = a.type("x")
    xs = list(need_rank(x))
    axis = norm_axis(a.int("axis", -1), len(xs))
    if a.version < 17 and a.has("output_dtype"):
        raise Bad("output_dtype is an input from iOS17 on")
    dtype = a.text("output_dtype", "int32").lower()
    if dtype not in ("int32", "uint16"):
        raise Bad(f"output_dtype {dtype!r} is not int32 or uint16")
    return [T(dtype, tuple(1 if i == axis else d for i, d in enumerate(xs) if a.flag("keep_dims") or i != axis))]


def layer_norm(a: Operands) -> list[T]:
    """defs/iOS15/normalization.py: axes default to all of x's; gamma and beta have the shape of
    the normalised dims."""
    x = a.type("x")
    xs = need_rank(x)
    axes = a.ints("axes", None)
    axes = range(len(xs)) if axes is None else [norm_axis(ax, len(xs), "axes value") for ax in axes]
    want = [d for i, d in enumerate(xs) if i in axes]
    for p in ("gamma", "beta"):
        if a.has(p):
            ps = need_rank(a.type(p), p)
            if len(ps) != len(want) or any(known(u) and known(v) and u != v for u, v in zip(ps, want)):
                raise Bad(f"{p} is {dims(ps)}; it must be {dims(want)}, the normalised dims of x {dims(xs)}")
    return like_x(a)


def l2_norm(a: Operands) -> list[T]:
    """defs/iOS15/normalization.py: x of rank 3 or more."""
    if len(need_rank(a.type("x"))) < 3:
        raise Bad("x must have rank 3 or more")
    return like_x(a)


def rms_norm(a: Operands) -> list[T]:
    """npubuild's extension op (no MIL op; docs/ane.md): y = x / sqrt(mean(x², axes=[-1]) + eps) * w,
    over the last axis; w (optional) is [D] for x's last dim D, eps (optional) a constant."""
    x = a.type("x")
    xs = need_rank(x)
    if not xs:
        raise Bad("x must have rank 1 or more")
    if a.has("w"):
        ws = need_rank(a.type("w"), "w")
        if len(ws) != 1 or (known(ws[0]) and known(xs[-1]) and ws[0] != xs[-1]):
            raise Bad(f"w is {dims(ws)}; it must be [{xs[-1]}], x's last dimension (x {dims(xs)})")
    return like_x(a)


def sdpa(a: Operands) -> list[T]:
    """defs/iOS18/transformers.py scaled_dot_product_attention: query [*B, L, E], key [*B, S, E],
    value [*B, S, EV] -> [*B, L, EV]; attn_mask [..., S] broadcasting with query's [*B, L]."""
    q, k, v = (need_rank(a.type(n), n) for n in ("query", "key", "value"))
    if not len(q) == len(k) == len(v) or len(q) < 3:
        raise Bad(f"query {dims(q)}, key {dims(k)}, value {dims(v)} must share a rank of 3 or more")
    pairs = [("query and key embedding", q[-1], k[-1]), ("key and value sequence", k[-2], v[-2])]
    pairs += [(f"batch dimension {i}", p, r) for i in range(len(q) - 2) for p, r in ((q[i], k[i]), (q[i], v[i]))]
    if a.has("attn_mask"):
        m = need_rank(a.type("attn_mask"), "attn_mask")
        pairs.append(("key and mask sequence", k[-2], m[-1]))
        broadcast(q[:-1], m[:-1])
    for what, p, r in pairs:
        if known(p) and known(r) and p != r:
            raise Bad(f"the {what} differ ({p} vs {r}): query {dims(q)}, key {dims(k)}, value {dims(v)}")
    return [T(a.type("query").dtype, tuple(q[:-1]) + (v[-1],))]


# ---- states (defs/iOS18/states.py, defs/coreml_dialect/ops.py) -------------------------------------------------------


def read_state(a: Operands) -> list[T]:
    s = a.type("input")
    return [T(s.dtype, s.shape)]


def _same_as_state(s: T, v: T, what: str) -> None:
    if (s.dtype, s.shape) != (v.dtype, v.shape):
        raise Bad(f"{what} is {v} but the state holds {T(s.dtype, s.shape)}")


def coreml_update_state(a: Operands) -> list[T]:
    v = a.type("value")
    _same_as_state(a.type("state"), v, "value")
    return [v]


def write_state(a: Operands) -> list[T]:
    _same_as_state(a.type("input"), a.type("data"), "data")
    return []
