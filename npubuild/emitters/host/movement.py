"""Host emitters for the data-movement ops: reshape, transpose, narrow, slice,
reverse, tile, expand, trilu, concat, gather, pad, stop_gradient (every dtype).

Each kernel is one loop nest over the output (``concat``: one per input) that
computes the source index of every element and copies it: no arithmetic on the
values, so the result is bit-exact (NaN payloads, signed zeros). Index math is
on MLIR ``index`` values; every computed index is in bounds by construction.

Choices where the oracle does not define the result:

* ``gather`` with an index outside ``[-n, n)``: the oracle raises; the kernel
  must not read out of bounds, so that output slice is **0** (false for bool)
  and nothing is read for it. Zero rather than a clamped index so that a bad
  index does not look like real data. Negative indices in range wrap (``+n``).
* ``pad`` constant mode: the fill value is converted like ``cast`` converts a
  float (floats round to nearest even, overflow to inf; integers truncate
  toward zero and saturate, NaN -> 0; bool: ``value != 0``). NumPy agrees
  whenever its own conversion is defined (an in-range value).
"""
from __future__ import annotations

from typing import Callable

from ...ops.registry import norm_axis
from ...specfile.instances import KernelInstance
from .cast import attr_constant
from .mlir_text import KernelBuilder, broadcast_indices, is_float, mlir_type


def zero_of(b: KernelBuilder, dtype: str) -> str:
    if is_float(dtype):
        return b.float_const(0.0, dtype)
    if dtype == "bool":
        return b.int_const(0, "i1")
    return b.int_const(0, dtype)


def _idx(b: KernelBuilder, rhs: str) -> str:
    return b.op(f"{rhs} : index")


def _emit_mapped(inst: KernelInstance, title: str, source) -> str:
    """Loop over the output; ``source(b, ivs)`` gives the input index list to copy from."""
    b = KernelBuilder(inst, title)
    x = inst.inputs[0]
    out = inst.output
    with b.loop_nest(out.shape) as ivs:
        v = b.load(b.in_args[0], x.shape, x.dtype, source(b, ivs))
        b.store(v, b.out_arg, out.shape, out.dtype, ivs)
    return b.finish()


# ---- reshape / stop_gradient -------------------------------------------------------------------


def _emit_reshape(inst: KernelInstance) -> str:
    in_shape, out_shape = inst.inputs[0].shape, inst.output.shape

    def source(b: KernelBuilder, ivs):
        if tuple(in_shape) == tuple(out_shape):
            return list(ivs)
        # row-major linear index of the output element, then the input index
        lin = None
        for iv, d in zip(ivs, out_shape):
            if d == 1:
                continue
            lin = iv if lin is None else _idx(b, f"arith.addi {_idx(b, f'arith.muli {lin}, {b.index(d)}')}, {iv}")
        if lin is None:
            return [b.index(0)] * len(in_shape)
        idx = []
        rest = lin
        dims = list(in_shape)
        for k in range(len(dims) - 1, -1, -1):
            d = dims[k]
            if d == 1:
                idx.append(b.index(0))
            elif all(e == 1 for e in dims[:k]):  # outermost non-trivial axis: what is left
                idx.append(rest)
            else:
                idx.append(_idx(b, f"arith.remui {rest}, {b.index(d)}"))
                rest = _idx(b, f"arith.divui {rest}, {b.index(d)}")
        return idx[::-1]

    return _emit_mapped(inst, "reshape (row-major copy)", source)


def _emit_copy(inst: KernelInstance) -> str:
    return _emit_mapped(inst, "identity copy", lambda b, ivs: list(ivs))


# ---- transpose / narrow / slice / reverse / tile / expand --------------------------------------


def _emit_transpose(inst: KernelInstance) -> str:
    rank = len(inst.inputs[0].shape)
    perm = list(inst.attrs["perm"]) or list(range(rank))[::-1]

    def source(b, ivs):
        idx = [None] * rank
        for k, p in enumerate(perm):
            idx[p] = ivs[k]  # output axis k is input axis perm[k]
        return idx

    return _emit_mapped(inst, f"transpose perm {perm}", source)


def _offset_axis(inst: KernelInstance, ax: int, start: int, step: int, title: str) -> str:
    def source(b, ivs):
        idx = list(ivs)
        i = ivs[ax]
        if step != 1:
            i = _idx(b, f"arith.muli {i}, {b.index(step)}")
        if start != 0:
            i = _idx(b, f"arith.addi {i}, {b.index(start)}")
        idx[ax] = i
        return idx

    return _emit_mapped(inst, title, source)


def _emit_narrow(inst: KernelInstance) -> str:
    a = inst.attrs
    shape = inst.inputs[0].shape
    ax = norm_axis(a["axis"], len(shape))
    start = a["start"] + shape[ax] if a["start"] < 0 else a["start"]
    return _offset_axis(inst, ax, start, 1, f"narrow axis {ax} from {start}")


def _emit_slice(inst: KernelInstance) -> str:
    a = inst.attrs
    shape = inst.inputs[0].shape
    ax = norm_axis(a["axis"], len(shape))
    r = range(*slice(a["start"], a["end"], a["step"]).indices(shape[ax]))
    return _offset_axis(inst, ax, r.start, r.step, f"slice axis {ax} [{r.start}::{r.step}]")


def _emit_reverse(inst: KernelInstance) -> str:
    shape = inst.inputs[0].shape
    axes = sorted({norm_axis(a, len(shape)) for a in inst.attrs["axes"]})

    def source(b, ivs):
        idx = list(ivs)
        for ax in axes:
            if shape[ax] > 1:
                idx[ax] = _idx(b, f"arith.subi {b.index(shape[ax] - 1)}, {ivs[ax]}")
        return idx

    return _emit_mapped(inst, f"reverse axes {axes}", source)


def _emit_tile(inst: KernelInstance) -> str:
    shape = inst.inputs[0].shape
    reps = inst.attrs["reps"]

    def source(b, ivs):
        idx = []
        for iv, d, r in zip(ivs, shape, reps):
            if d == 1:
                idx.append(b.index(0))
            elif r == 1:
                idx.append(iv)
            else:
                idx.append(_idx(b, f"arith.remui {iv}, {b.index(d)}"))
        return idx

    return _emit_mapped(inst, f"tile reps {list(reps)}", source)


def _emit_expand(inst: KernelInstance) -> str:
    in_shape, out_shape = inst.inputs[0].shape, inst.output.shape

    def source(b, ivs):
        return broadcast_indices(ivs, in_shape, out_shape, b.index(0) if out_shape else "")

    return _emit_mapped(inst, "expand (NumPy broadcasting)", source)


# ---- trilu -------------------------------------------------------------------------------------


def _emit_trilu(inst: KernelInstance) -> str:
    upper, k = bool(inst.attrs["upper"]), int(inst.attrs["diagonal"])
    b = KernelBuilder(inst, f"trilu {'upper' if upper else 'lower'} diagonal {k}")
    x, out = inst.inputs[0], inst.output
    t = mlir_type(out.dtype)
    with b.loop_nest(out.shape) as ivs:
        v = b.load(b.in_args[0], x.shape, x.dtype, list(ivs))
        diff = _idx(b, f"arith.subi {ivs[-1]}, {ivs[-2]}")  # j - i
        keep = b.op(f"arith.cmpi {'sge' if upper else 'sle'}, {diff}, {b.index(k)} : index")
        r = b.op(f"arith.select {keep}, {v}, {zero_of(b, out.dtype)} : {t}")
        b.store(r, b.out_arg, out.shape, out.dtype, ivs)
    return b.finish()


# ---- concat ------------------------------------------------------------------------------------


def _emit_concat(inst: KernelInstance) -> str:
    out = inst.output
    ax = norm_axis(inst.attrs["axis"], len(out.shape))
    b = KernelBuilder(inst, f"concat axis {ax}, {len(inst.inputs)} inputs")
    offset = 0
    for arg, x in zip(b.in_args, inst.inputs):
        with b.loop_nest(x.shape) as ivs:
            v = b.load(arg, x.shape, x.dtype, list(ivs))
            idx = list(ivs)
            if offset:
                idx[ax] = _idx(b, f"arith.addi {ivs[ax]}, {b.index(offset)}")
            b.store(v, b.out_arg, out.shape, out.dtype, idx)
        offset += x.shape[ax]
    return b.finish()


def wrapped_index(b: KernelBuilder, j: str, n: int, dtype: str) -> tuple[str, str]:
    """(j + n when j < 0 else j, 0 <= that < n), on the index's own integer type."""
    ti = mlir_type(dtype)
    zero, n_c = b.int_const(0, dtype), b.int_const(n, dtype)
    neg = b.op(f"arith.cmpi slt, {j}, {zero} : {ti}")
    j = b.op(f"arith.select {neg}, {b.op(f'arith.addi {j}, {n_c} : {ti}')}, {j} : {ti}")
    ok = b.op(f"arith.cmpi ult, {j}, {n_c} : {ti}")  # a negative j is huge unsigned
    return j, ok


# ---- gather ------------------------------------------------------------------------------------


def _emit_gather(inst: KernelInstance) -> str:
    data, indices, out = inst.inputs[0], inst.inputs[1], inst.output
    ax = norm_axis(inst.attrs["axis"], len(data.shape))
    n = data.shape[ax]
    r = len(indices.shape)
    b = KernelBuilder(inst, f"gather axis {ax}; out-of-range index -> 0")
    t = mlir_type(out.dtype)
    with b.loop_nest(out.shape) as ivs:
        it = indices.dtype  # index_dtype: i64 or i32 (n fits either: the limits cap a dim below 2**31)
        ti = mlir_type(it)
        j, ok = wrapped_index(b, b.load(b.in_args[1], indices.shape, it, list(ivs[ax : ax + r])), n, it)
        j = b.op(f"arith.select {ok}, {j}, {b.int_const(0, it)} : {ti}")
        j_idx = b.op(f"arith.index_cast {j} : {ti} to index")
        v = b.load(b.in_args[0], data.shape, data.dtype, list(ivs[:ax]) + [j_idx] + list(ivs[ax + r :]))
        res = b.op(f"arith.select {ok}, {v}, {zero_of(b, out.dtype)} : {t}")
        b.store(res, b.out_arg, out.shape, out.dtype, ivs)
    return b.finish()


# ---- pad ---------------------------------------------------------------------------------------


def _emit_pad(inst: KernelInstance) -> str:
    mode = inst.attrs["mode"]
    pads = [tuple(p) for p in inst.attrs["pads"]]
    x, out = inst.inputs[0], inst.output
    b = KernelBuilder(inst, f"pad {mode}")
    t = mlir_type(out.dtype)
    with b.loop_nest(out.shape) as ivs:
        idx, valid = [], None
        for iv, d, (before, after) in zip(ivs, x.shape, pads):
            if before == 0 and after == 0:
                idx.append(iv)
                continue
            p = _idx(b, f"arith.subi {iv}, {b.index(before)}") if before else iv
            if mode == "constant":
                ok = b.op(f"arith.cmpi ult, {p}, {b.index(d)} : index")  # 0 <= p < d
                valid = ok if valid is None else b.op(f"arith.andi {valid}, {ok} : i1")
                p = _idx(b, f"arith.select {ok}, {p}, {b.index(0)}")
            elif mode == "edge":
                p = _idx(b, f"arith.maxsi {p}, {b.index(0)}")
                p = _idx(b, f"arith.minsi {p}, {b.index(d - 1)}")
            else:  # reflect (pads <= d - 1): |p|, then mirror at d - 1
                neg_p = _idx(b, f"arith.subi {b.index(0)}, {p}")
                p = _idx(b, f"arith.maxsi {p}, {neg_p}")
                mirrored = _idx(b, f"arith.subi {b.index(2 * (d - 1))}, {p}")
                p = _idx(b, f"arith.minsi {p}, {mirrored}")
            idx.append(p)
        v = b.load(b.in_args[0], x.shape, x.dtype, idx)
        if valid is not None:
            v = b.op(f"arith.select {valid}, {v}, {attr_constant(b, inst.attrs['value'], out.dtype)} : {t}")
        b.store(v, b.out_arg, out.shape, out.dtype, ivs)
    return b.finish()


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {
    "reshape": _emit_reshape,
    "transpose": _emit_transpose,
    "narrow": _emit_narrow,
    "slice": _emit_slice,
    "reverse": _emit_reverse,
    "tile": _emit_tile,
    "expand": _emit_expand,
    "trilu": _emit_trilu,
    "concat": _emit_concat,
    "gather": _emit_gather,
    "pad": _emit_pad,
    "stop_gradient": _emit_copy,
}
