"""Host emitter for resize: the per-axis source indices (and, for linear, weights) are computed at
emit time by the op's own coordinate mapping (npubuild.ops.resize.axis_maps, float64, as the oracle)
and stored as constant tables; the kernel loops over the output and reads them.

* ``nearest`` copies the chosen element: bit-exact.
* ``linear`` blends the two neighbours of each resized axis in f32, the last resized axis first:
  ``(1 - w)·a + w·b`` with ``w`` the weight rounded to f32, and ``a`` itself where ``w == 0`` (an
  input coordinate on a sample, so an infinite neighbour is not multiplied by 0), like the oracle.
  f16 and bf16 are widened and rounded once. Against the float64 oracle the result is within
  ``4·k·2**-24·max|x|`` over the ``2**k`` neighbours (k resized axes) plus one ulp of the dtype
  (the f32 result is rounded to it once, the oracle's float64 one too).

An axis the mapping leaves alone (every output coordinate reads its own index with weight 0) is read
at the loop index, with no table.
"""
from __future__ import annotations

from typing import Callable

from ...ops.resize import axis_maps
from ...specfile.instances import KernelInstance
from .mlir_text import KernelBuilder
from .reduce import acc_type, from_acc, to_acc


def _lerp(b: KernelBuilder, a: str, c: str, w: str, ty: str) -> str:
    one_minus = b.op(f"arith.subf {b.float_const(1.0, ty)}, {w} : {ty}")
    blend = b.op(f"arith.addf {b.op(f'arith.mulf {one_minus}, {a} : {ty}')}, {b.op(f'arith.mulf {w}, {c} : {ty}')} : {ty}")
    on_sample = b.op(f"arith.cmpf oeq, {w}, {b.float_const(0.0, ty)} : {ty}")
    return b.op(f"arith.select {on_sample}, {a}, {blend} : {ty}")


def _emit_resize(inst: KernelInstance) -> str:
    x, out = inst.inputs[0], inst.output
    attrs = inst.attrs
    linear = attrs["mode"] == "linear"
    maps = axis_maps(x.shape, attrs)
    b = KernelBuilder(inst, f"resize {attrs['mode']} {attrs['coordinate_transformation_mode']}, index tables")
    dt, acc_t = inst.dtype, acc_type(inst.dtype)
    resized = [a for a, m in enumerate(maps) if any(i0 != o or w != 0 for o, (i0, _, w) in enumerate(m))]
    tables = {a: (b.table([e[0] for e in maps[a]], "i32"),
                  b.table([e[1] for e in maps[a]], "i32") if linear else None,
                  b.table([e[2] for e in maps[a]], "f32") if linear else None) for a in resized}
    with b.loop_nest(out.shape) as ivs:
        lo, hi, w = {}, {}, {}
        for a in resized:
            t0, t1, tw = tables[a]
            n = len(maps[a])
            lo[a] = b.op(f"arith.index_cast {b.op(f'memref.load {t0}[{ivs[a]}] : memref<{n}xi32>')} : i32 to index")
            if linear:
                hi[a] = b.op(f"arith.index_cast {b.op(f'memref.load {t1}[{ivs[a]}] : memref<{n}xi32>')} : i32 to index")
                w[a] = b.op(f"memref.load {tw}[{ivs[a]}] : memref<{n}xf32>")

        def value(corner: dict) -> str:
            idx = [corner.get(a, ivs[a]) for a in range(len(ivs))]
            return to_acc(b, b.load(b.in_args[0], x.shape, dt, idx), dt)

        def blended(k: int, corner: dict) -> str:
            """The blend over resized axes k.. with the axes before k fixed by ``corner``."""
            if not linear or k == len(resized):
                return value({**{a: lo[a] for a in resized}, **corner})
            a = resized[k]
            return _lerp(b, blended(k + 1, {**corner, a: lo[a]}), blended(k + 1, {**corner, a: hi[a]}), w[a], acc_t)

        b.store(from_acc(b, blended(0, {}), dt), b.out_arg, out.shape, dt, ivs)
    return b.finish()


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {"resize": _emit_resize}
