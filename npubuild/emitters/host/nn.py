"""Host emitters for the nn family: rope, pool and im2col (attention: attention.py).

Numerics (f16 is loaded, widened to f32, computed in f32 and rounded once on
the store; the oracles compute in float64 and round once):

* ``im2col`` and ``pool`` max are exact (copies / selections; max-pool pads
  with -inf, i.e. padded taps never win, and NaN propagates as in NumPy);
* ``pool`` sum/avg accumulate the window in f32 in the oracle's order (ki, kj)
  and divide once (avg: by kh*kw, or by the number of non-padding taps);
* ``rope`` computes ``a*c - b*s`` and ``b*c + a*s`` in f32 (two rounded
  products, one rounded sum); dims past ``n_rot`` are copied bit for bit;
* ``attention``: see attention.py.

No libm and no calls: scratch is a ``memref.alloca`` (``memref.alloc`` above
:data:`STACK_SCRATCH_BYTES`) hoisted out of the loops. The helpers
(:func:`scf_for`, index arithmetic, widening loads) are shared with ``quant`` and ``attention``.
"""
from __future__ import annotations

import contextlib
import math
import struct
from typing import Callable

from ...specfile.instances import KernelInstance
from .mlir_text import KernelBuilder, is_float, memref_type, mlir_type

# scratch buffers up to this size live on the stack; larger ones are heap-allocated
STACK_SCRATCH_BYTES = 64 * 1024
_BYTES = {"f32": 4, "f16": 2, "i8": 1, "i32": 4, "i64": 8}


# ---- shared helpers ---------------------------------------------------------------------------


class Loop:
    """An ``scf.for`` being emitted: ``iv``, the iteration arguments ``args``;
    assign ``next`` (values yielded by the body) inside the block and read
    ``results`` after it."""

    def __init__(self, iv: str, args: list[str], results: list[str]):
        self.iv, self.args, self.results = iv, args, results
        self.next: list[str] | None = None

    @property
    def result(self) -> str:
        (r,) = self.results
        return r


@contextlib.contextmanager
def scf_for(b: KernelBuilder, lb: str, ub: str, inits=(), types=()):
    """``scf.for`` from ``lb`` to ``ub`` (index values, dynamic or not) with
    optional ``iter_args`` (initial values ``inits`` of MLIR types ``types``)."""
    inits, types = list(inits), list(types)
    assert len(inits) == len(types)
    iv = b.fresh()
    args = [b.fresh() for _ in inits]
    res = b.fresh() if inits else ""
    results = [res] if len(inits) == 1 else [f"{res}#{i}" for i in range(len(inits))]
    loop = Loop(iv, args, results if inits else [])
    head = f"scf.for {iv} = {lb} to {ub} step {b.index(1)}"
    if inits:
        lhs = res if len(inits) == 1 else f"{res}:{len(inits)}"
        iters = ", ".join(f"{a} = {v}" for a, v in zip(args, inits))
        head = f"{lhs} = {head} iter_args({iters}) -> ({', '.join(types)})"
    b.line(head + " {")
    with b.indented():
        yield loop
        if inits:
            assert loop.next is not None and len(loop.next) == len(inits), "set loop.next in the loop body"
            b.line(f"scf.yield {', '.join(loop.next)} : {', '.join(types)}")
    b.line("}")


def idx_mul(b: KernelBuilder, x: str, n: int) -> str:
    if n == 1:
        return x
    return b.op(f"arith.muli {x}, {b.index(n)} : index")


def idx_add(b: KernelBuilder, x: str, y: str) -> str:
    return b.op(f"arith.addi {x}, {y} : index")


def idx_add_const(b: KernelBuilder, x: str, n: int) -> str:
    if n == 0:
        return x
    return b.op(f"arith.addi {x}, {b.index(n)} : index")


def linearize(b: KernelBuilder, ivs: list[str], shape) -> str:
    """Row-major linear index of ``ivs`` in ``shape`` (0 for rank 0)."""
    if not ivs:
        return b.index(0)
    acc = ivs[0]
    for iv, d in zip(ivs[1:], shape[1:]):
        acc = idx_add(b, idx_mul(b, acc, d), iv)
    return acc


def scratch(b: KernelBuilder, shape, dtype: str, frees: list) -> str:
    """A scratch buffer allocated at the current point (emit it outside loops).
    Heap buffers are appended to ``frees``: call :func:`free_scratch` at the end."""
    ty = memref_type(shape, dtype)
    n = _BYTES[dtype]
    for d in shape:
        n *= d
    if n <= STACK_SCRATCH_BYTES:
        return b.op(f"memref.alloca() : {ty}")
    buf = b.op(f"memref.alloc() : {ty}")
    frees.append((buf, ty))
    return buf


def free_scratch(b: KernelBuilder, frees: list) -> None:
    for buf, ty in frees:
        b.line(f"memref.dealloc {buf} : {ty}")


def load_f32(b: KernelBuilder, memref: str, shape, dtype: str, idx) -> str:
    """Load one float element widened to f32 (exact)."""
    v = b.load(memref, shape, dtype, list(idx))
    if dtype == "f32":
        return v
    return b.op(f"arith.extf {v} : {mlir_type(dtype)} to f32")


def store_f32(b: KernelBuilder, v: str, memref: str, shape, dtype: str, idx) -> None:
    """Round an f32 value once to ``dtype`` and store it."""
    if dtype != "f32":
        v = b.op(f"arith.truncf {v} : f32 to {mlir_type(dtype)}")
    b.store(v, memref, shape, dtype, list(idx))


def to_f32(x: float) -> float:
    """``x`` rounded to the nearest float32 (as a Python float, so its literal is exact)."""
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def f32(b: KernelBuilder, opname: str, *vals: str) -> str:
    return b.op(f"arith.{opname} {', '.join(vals)} : f32")


# ---- rope ------------------------------------------------------------------------------------


def emit_rope(inst: KernelInstance) -> str:
    a = inst.attrs
    hd, style = a["head_dim"], a["style"]
    n_rot = a["n_rot"] or hd
    half = n_rot // 2
    b = KernelBuilder(inst, f"rope {style}, n_rot {n_rot} of head_dim {hd}; f32 arithmetic")
    dt = inst.dtype
    xs, cs = inst.inputs[0].shape, inst.inputs[1].shape
    lead, heads = xs[:-1], xs[-1] // hd
    x, cos, sin = b.in_args
    out = b.out_arg
    with b.loop_nest(lead) as ivs:
        t = linearize(b, ivs, lead)
        with b.loop_nest([heads]) as (h,):
            base = idx_mul(b, h, hd)
            with b.loop_nest([half]) as (i,):
                c = load_f32(b, cos, cs, dt, [t, i])
                s = load_f32(b, sin, cs, dt, [t, i])
                if style == "neox":
                    ia = idx_add(b, base, i)
                    ib = idx_add_const(b, ia, half)
                else:
                    ia = idx_add(b, base, idx_mul(b, i, 2))
                    ib = idx_add_const(b, ia, 1)
                va = load_f32(b, x, xs, dt, ivs + [ia])
                vb = load_f32(b, x, xs, dt, ivs + [ib])
                ya = f32(b, "subf", f32(b, "mulf", va, c), f32(b, "mulf", vb, s))
                yb = f32(b, "addf", f32(b, "mulf", vb, c), f32(b, "mulf", va, s))
                store_f32(b, ya, out, xs, dt, ivs + [ia])
                store_f32(b, yb, out, xs, dt, ivs + [ib])
            if n_rot < hd:  # pass-through dims: a bit copy
                with b.loop_nest([hd - n_rot]) as (j,):
                    ij = idx_add_const(b, idx_add(b, base, j), n_rot)
                    v = b.load(x, xs, dt, ivs + [ij])
                    b.store(v, out, xs, dt, ivs + [ij])
    return b.finish()


# ---- pool -----------------------------------------------------------------------------------


def _window_range(b: KernelBuilder, o: str, stride: int, pad: int, k: int, size: int) -> tuple[str, str]:
    """[lo, hi) of the input rows (or columns) of the window at output index ``o``,
    clipped to the input (the padded taps are skipped)."""
    start = idx_add_const(b, idx_mul(b, o, stride), -pad)
    if pad == 0:  # the window always fits (shape inference guarantees it)
        return start, idx_add_const(b, start, k)
    lo = b.op(f"arith.maxsi {start}, {b.index(0)} : index")
    end = idx_add_const(b, start, k)
    hi = b.op(f"arith.minsi {end}, {b.index(size)} : index")
    return lo, hi


def emit_pool(inst: KernelInstance) -> str:
    a = inst.attrs
    mode = a["mode"]
    (kh, kw), (sh, sw), (ph, pw) = a["kernel_size"], a["strides"], a["pads"]
    cip = a["count_include_pad"]
    dt = inst.dtype
    xs, ys = inst.inputs[0].shape, inst.output.shape
    b = KernelBuilder(inst, f"pool {mode} {kh}x{kw}; f32 accumulation")
    x = b.in_args[0]
    init = b.float_const(float("-inf") if mode == "max" else 0.0, "f32")
    with b.loop_nest(ys) as (n, c, oh, ow):
        hlo, hhi = _window_range(b, oh, sh, ph, kh, xs[2])
        wlo, whi = _window_range(b, ow, sw, pw, kw, xs[3])
        with scf_for(b, hlo, hhi, [init], ["f32"]) as lr:
            with scf_for(b, wlo, whi, [lr.args[0]], ["f32"]) as lc:
                xv = load_f32(b, x, xs, dt, [n, c, lr.iv, lc.iv])
                lc.next = [f32(b, "maximumf" if mode == "max" else "addf", lc.args[0], xv)]
            lr.next = [lc.result]
        y = lr.result
        if mode == "avg":
            if cip or (ph == 0 and pw == 0):
                count = b.float_const(float(kh * kw), "f32")
            else:
                rows = b.op(f"arith.subi {hhi}, {hlo} : index")
                cols = b.op(f"arith.subi {whi}, {wlo} : index")
                cnt = b.op(f"arith.muli {rows}, {cols} : index")
                cnt = b.op(f"arith.index_cast {cnt} : index to i32")
                count = b.op(f"arith.sitofp {cnt} : i32 to f32")
            y = f32(b, "divf", y, count)
        store_f32(b, y, b.out_arg, ys, dt, [n, c, oh, ow])
    return b.finish()


# ---- im2col ---------------------------------------------------------------------------------


def emit_im2col(inst: KernelInstance) -> str:
    a = inst.attrs
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = a["kernel_size"], a["strides"], a["pads"], a["dilations"]
    dt = inst.dtype
    xs, ys = inst.inputs[0].shape, inst.output.shape
    n_, c_, h_, w_ = xs
    ho = (h_ + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    wo = (w_ + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    b = KernelBuilder(inst, f"im2col {kh}x{kw}, zero padding")
    x = b.in_args[0]
    zero = b.float_const(0.0, dt) if is_float(dt) else b.int_const(0, dt)
    with b.loop_nest([n_, ho, wo, c_, kh, kw]) as (n, oh, ow, c, ki, kj):
        row = linearize(b, [n, oh, ow], [n_, ho, wo])
        col = linearize(b, [c, ki, kj], [c_, kh, kw])
        conds, idx = [], []
        for o, s, p, d, k, size in ((oh, sh, ph, dh, ki, h_), (ow, sw, pw, dw, kj, w_)):
            r = idx_add(b, idx_add_const(b, idx_mul(b, o, s), -p), idx_mul(b, k, d))
            if p == 0:  # always inside
                idx.append(r)
                continue
            inside = b.op(f"arith.cmpi ult, {r}, {b.index(size)} : index")  # 0 <= r < size
            conds.append(inside)
            idx.append(b.op(f"arith.select {inside}, {r}, {b.index(0)} : index"))
        v = b.load(x, xs, dt, [n, c] + idx)
        if conds:
            ok = conds[0] if len(conds) == 1 else b.op(f"arith.andi {conds[0]}, {conds[1]} : i1")
            v = b.op(f"arith.select {ok}, {v}, {zero} : {mlir_type(dt)}")
        b.store(v, b.out_arg, ys, dt, [row, col])
    return b.finish()


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {
    "rope": emit_rope,
    "pool": emit_pool,
    "im2col": emit_im2col,
}
