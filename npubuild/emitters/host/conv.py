"""Host emitter for conv_transpose, computed per output element (the gather form of the op's scatter
definition): output ``(n, m, oh, ow)`` sums, over the input channels of ``m``'s group and the kernel
taps ``(kh, kw)``, ``x[n, c, ih, iw] · w[c, m mod M/group, kh, kw]`` where ``oh + pads[0] - kh·dh =
ih·sh`` (and likewise for w) with ``0 <= ih < H``. A tap without such an input pixel adds nothing (it
is selected away, so an inf or NaN it would have read stays out).

Floats accumulate in f32 from -0.0 (f16, bf16 widened exactly; rounded once at the store), the taps
in the order (c, kh, kw). Against the float64 oracle the sum of n = C/group·kH·kW products is within
(n+1)·u·Σ|x·w| (u = 2**-24), plus half an ulp of the output dtype.
"""
from __future__ import annotations

from typing import Callable

from ...ops.conv import geometry
from ...specfile.instances import KernelInstance
from .mlir_text import KernelBuilder
from .reduce import acc_type, combine, for_acc, from_acc, to_acc


def _source(b: KernelBuilder, o: str, k: str, pad: int, stride: int, dilation: int, size: int) -> tuple[str, str]:
    """(the input coordinate, whether it exists) of output coordinate ``o`` and tap ``k``."""
    t = b.op(f"arith.addi {o}, {b.index(pad)} : index") if pad else o
    t = b.op(f"arith.subi {t}, {b.op(f'arith.muli {k}, {b.index(dilation)} : index')} : index")
    ok = b.op(f"arith.cmpi sge, {t}, {b.index(0)} : index")
    t = b.op(f"arith.select {ok}, {t}, {b.index(0)} : index")  # keep the unsigned division below in range
    if stride > 1:
        rem = b.op(f"arith.remui {t}, {b.index(stride)} : index")
        ok = b.op(f"arith.andi {ok}, {b.op(f'arith.cmpi eq, {rem}, {b.index(0)} : index')} : i1")
        t = b.op(f"arith.divui {t}, {b.index(stride)} : index")
    ok = b.op(f"arith.andi {ok}, {b.op(f'arith.cmpi ult, {t}, {b.index(size)} : index')} : i1")
    return b.op(f"arith.select {ok}, {t}, {b.index(0)} : index"), ok


def _emit_conv_transpose(inst: KernelInstance) -> str:
    a = inst.attrs
    g = geometry(inst.shapes, a)
    (sh, sw), (dh, dw) = a["strides"], a["dilations"]
    pt, pl = a["pads"][0], a["pads"][1]
    x, w = inst.inputs
    dt = inst.dtype
    acc_t = acc_type(dt)
    b = KernelBuilder(inst, f"conv_transpose strides {a['strides']} dilations {a['dilations']} group {a['group']}, "
                            "gathered per output, f32 accumulation")
    out = inst.output
    with b.loop_nest(out.shape) as (n, m, oh, ow):
        grp = b.op(f"arith.divui {m}, {b.index(g['mg'])} : index")
        c0 = b.op(f"arith.muli {grp}, {b.index(g['cg'])} : index")
        mw = b.op(f"arith.remui {m}, {b.index(g['mg'])} : index")

        def body(ivs, carried):
            cl, kh, kw = ivs
            ih, ok_h = _source(b, oh, kh, pt, sh, dh, g["h"])
            iw, ok_w = _source(b, ow, kw, pl, sw, dw, g["w"])
            c = b.op(f"arith.addi {c0}, {cl} : index")
            xv = to_acc(b, b.load(b.in_args[0], x.shape, dt, [n, c, ih, iw]), dt)
            wv = to_acc(b, b.load(b.in_args[1], w.shape, dt, [c, mw, kh, kw]), dt)
            summed = combine("sum", b, carried[0], combine("prod", b, xv, wv, acc_t), acc_t)
            ok = b.op(f"arith.andi {ok_h}, {ok_w} : i1")
            return [b.op(f"arith.select {ok}, {summed}, {carried[0]} : {acc_t}")]

        taps = [g["cg"], g["kh"], g["kw"]]
        # -0.0 keeps a lone negative-zero product's sign; no tap at all (no input channel) sums to +0.0
        (acc,) = for_acc(b, taps, [(b.float_const(0.0 if 0 in taps else -0.0, acc_t), acc_t)], body)
        b.store(from_acc(b, acc, dt), b.out_arg, out.shape, dt, [n, m, oh, ow])
    return b.finish()


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {"conv_transpose": _emit_conv_transpose}
