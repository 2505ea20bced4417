"""Host emitters for quantize, dequantize and matmul (f32, and the int8 GEMM).

* ``quantize``: ``v = x / scale`` (f32 division), clamped to [-1024, 1024] and
  rounded half to even with the ``(v + 1.5*2^23) - 1.5*2^23`` trick (exact for
  |v| < 2^22), NaN -> 0, then ``+ zero_point`` and saturation to [-128, 127] in
  i32 -- bit-identical to the ONNX-style oracle (clamping before rounding gives
  the same integers since the bounds are integers).
* ``dequantize``: ``float32(q - zero_point) * scale`` -- bit-identical.
* Per-channel scales and zero points are written into small scratch tables at
  the start of the kernel (one ``memref.store`` each) and read with the
  channel's loop index.
* ``matmul`` f32: one f32 accumulator per output, ``k`` in order (the oracle is
  float64 rounded once, so this is within ``K * 2^-24 * (|a| @ |b|)``); the
  vector body of :mod:`.vector_gemm` where N allows, the same sums bit for bit.
* ``matmul`` i8 reproduces ``npubuild.ops.quant.int8_matmul`` bit for bit:
  per column of b: ``amax`` (NaN ignored, as ``np.fmax``), ``s = amax / 127``
  (1 for amax == 0), codes ``round_half_away(b / s)`` into an i8 table; per
  row of a: the same with ``inv = 1 / s`` and codes of ``a * inv`` (0 for an
  all-zero row); ``acc`` sums ``extsi(qa) * extsi(qb)`` in i32; the output is
  ``(float32(acc) * sx) * sw``. Round half away from zero is done exactly:
  ``t = fptosi(v)`` (v clamped to [-128, 128], NaN -> 0, so the conversion is
  defined), ``frac = v - float(t)`` (exact), ``t +- 1`` when ``|frac| >= 0.5``,
  then the clamp to +-127 in i32.

Only f32 ``+ - * /``, compares and selects, ``fptosi``/``sitofp`` of in-range
values and integer ops; no f64, no FMA, no calls.
"""
from __future__ import annotations

from typing import Callable

from ...ops.registry import norm_axis
from ...specfile.instances import KernelInstance
from ...core.constants import SUB_BYTE_DTYPES
from ...ops.quant import CODE_RANGE
from .mlir_text import UNSIGNED, KernelBuilder
from .nn import f32, free_scratch, load_f32, scf_for, scratch, store_f32, to_f32
from .vector_gemm import emit_matmul_vector, gemm_tile_function, tile_functions

_ROUND_MAGIC = 12582912.0  # 1.5 * 2^23


def _fabs(b: KernelBuilder, x: str) -> str:
    bits = b.op(f"arith.bitcast {x} : f32 to i32")
    cleared = b.op(f"arith.andi {bits}, {b.int_const(0x7FFFFFFF, 'i32')} : i32")
    return b.op(f"arith.bitcast {cleared} : i32 to f32")


def _select(b: KernelBuilder, cond: str, x: str, y: str, ty: str) -> str:
    return b.op(f"arith.select {cond}, {x}, {y} : {ty}")


def _clamp_f(b: KernelBuilder, x: str, lo: float, hi: float) -> str:
    """min(max(x, lo), hi) for a non-NaN x."""
    c_lo, c_hi = b.float_const(lo, "f32"), b.float_const(hi, "f32")
    x = _select(b, b.op(f"arith.cmpf olt, {x}, {c_lo} : f32"), c_lo, x, "f32")
    return _select(b, b.op(f"arith.cmpf ogt, {x}, {c_hi} : f32"), c_hi, x, "f32")


def _clamp_i(b: KernelBuilder, x: str, lo: int, hi: int) -> str:
    x = b.op(f"arith.maxsi {x}, {b.int_const(lo, 'i32')} : i32")
    return b.op(f"arith.minsi {x}, {b.int_const(hi, 'i32')} : i32")


def _not_nan_or_zero(b: KernelBuilder, v: str) -> str:
    """v, with NaN replaced by 0.0."""
    nan = b.op(f"arith.cmpf uno, {v}, {v} : f32")
    return _select(b, nan, b.float_const(0.0, "f32"), v, "f32")


# ---- quantize / dequantize ------------------------------------------------------------------


class _Params:
    """Scale and zero point per element: constants (one scale) or scratch tables
    indexed by the channel's loop variable."""

    def __init__(self, b: KernelBuilder, inst: KernelInstance, frees: list):
        a = inst.attrs
        scales = [to_f32(s) for s in a["scales"]]
        zps = list(a["zero_points"]) or [0] * len(scales)
        self.b = b
        self.per_channel = len(scales) > 1
        if not self.per_channel:
            self.axis = None
            self._scale, self._zp = b.float_const(scales[0], "f32"), b.int_const(zps[0], "i32")
            return
        self.axis = norm_axis(a["axis"], len(inst.inputs[0].shape))
        n = len(scales)
        self._shape = [n]
        self._scales = scratch(b, [n], "f32", frees)
        for i, s in enumerate(scales):
            b.store(b.float_const(s, "f32"), self._scales, [n], "f32", [b.index(i)])
        self._zps = None
        if any(zps):
            self._zps = scratch(b, [n], "i32", frees)
            for i, z in enumerate(zps):
                b.store(b.int_const(z, "i32"), self._zps, [n], "i32", [b.index(i)])
        else:
            self._zp = b.int_const(0, "i32")

    def at(self, ivs: list[str]) -> tuple[str, str]:
        """(scale f32, zero point i32) for the element at ``ivs``."""
        if not self.per_channel:
            return self._scale, self._zp
        b, ch = self.b, ivs[self.axis]
        s = b.load(self._scales, self._shape, "f32", [ch])
        zp = b.load(self._zps, self._shape, "i32", [ch]) if self._zps else self._zp
        return s, zp


def emit_quantize(inst: KernelInstance) -> str:
    b = KernelBuilder(inst, "quantize: saturate(round_half_even(x / scale) + zero_point), NaN -> zero_point")
    shape = inst.inputs[0].shape
    frees: list = []
    params = _Params(b, inst, frees)
    magic = b.float_const(_ROUND_MAGIC, "f32")
    with b.loop_nest(shape) as ivs:
        scale, zp = params.at(ivs)
        x = b.load(b.in_args[0], shape, "f32", ivs)
        v = f32(b, "divf", x, scale)
        v = _clamp_f(b, _not_nan_or_zero(b, v), -1024.0, 1024.0)
        r = f32(b, "subf", f32(b, "addf", v, magic), magic)  # round half to even, |v| <= 1024
        q = b.op(f"arith.fptosi {r} : f32 to i32")
        dt = inst.output.dtype  # i8, u8: the byte once clamped to the range; i4, u4: its low nibble
        q = _clamp_i(b, b.op(f"arith.addi {q}, {zp} : i32"), *CODE_RANGE[dt])
        if dt in SUB_BYTE_DTYPES:  # ml_dtypes' int4 / uint4 byte: the code's two's-complement nibble, high bits 0
            q = b.op(f"arith.andi {q}, {b.int_const(15, 'i32')} : i32")
        b.store(b.op(f"arith.trunci {q} : i32 to i8"), b.out_arg, shape, dt, ivs)
    free_scratch(b, frees)
    return b.finish()


def emit_dequantize(inst: KernelInstance) -> str:
    b = KernelBuilder(inst, "dequantize: float32(q - zero_point) * scale")
    shape = inst.inputs[0].shape
    frees: list = []
    params = _Params(b, inst, frees)
    with b.loop_nest(shape) as ivs:
        scale, zp = params.at(ivs)
        dt = inst.inputs[0].dtype
        q = b.load(b.in_args[0], shape, dt, ivs)
        if dt == "i4":  # the low nibble, sign-extended (the byte's high bits are not read)
            four = b.int_const(4, "i8")
            q = b.op(f"arith.shrsi {b.op(f'arith.shli {q}, {four} : i8')}, {four} : i8")
        elif dt == "u4":
            q = b.op(f"arith.andi {q}, {b.int_const(15, 'i8')} : i8")
        q = b.op(f"arith.{'extui' if dt in UNSIGNED + ('u4',) else 'extsi'} {q} : i8 to i32")
        d = b.op(f"arith.sitofp {b.op(f'arith.subi {q}, {zp} : i32')} : i32 to f32")
        b.store(f32(b, "mulf", d, scale), b.out_arg, shape, "f32", ivs)
    free_scratch(b, frees)
    return b.finish()


# ---- matmul ---------------------------------------------------------------------------------


def _emit_matmul_f32(inst: KernelInstance) -> str:
    """f32 and bf16: one f32 accumulator per output, ``k`` in order; bf16 elements are
    widened (bf16 x bf16 products are exact in f32) and the sum rounded once. The vector
    body (:mod:`.vector_gemm`) does exactly this per element where N is a whole number of
    vectors; this scalar loop nest otherwise."""
    vector_text = emit_matmul_vector(inst)
    if vector_text is not None:
        return vector_text
    dt = inst.output.dtype
    b = KernelBuilder(inst, f"matmul {dt}: f32 accumulation over k in order")
    (as_, bs), ys = inst.shapes, inst.output.shape
    kk = bs[0]
    a_in, b_in = b.in_args
    with b.loop_nest(ys) as ivs:
        lead, n = ivs[:-1], ivs[-1]
        with scf_for(b, b.index(0), b.index(kk), [b.float_const(0.0, "f32")], ["f32"]) as lk:
            av = load_f32(b, a_in, as_, dt, lead + [lk.iv])
            bv = load_f32(b, b_in, bs, dt, [lk.iv, n])
            lk.next = [f32(b, "addf", lk.args[0], f32(b, "mulf", av, bv))]
        store_f32(b, lk.result, b.out_arg, ys, dt, ivs)
    return b.finish()


def _amax(b: KernelBuilder, kk: int, load) -> str:
    """max over k of |load(k)| starting at 0, NaN ignored (np.fmax.reduce(..., initial=0))."""
    with scf_for(b, b.index(0), b.index(kk), [b.float_const(0.0, "f32")], ["f32"]) as lk:
        v = _fabs(b, load(lk.iv))
        bigger = b.op(f"arith.cmpf ogt, {v}, {lk.args[0]} : f32")  # false for NaN
        lk.next = [_select(b, bigger, v, lk.args[0], "f32")]
    return lk.result


def _scale(b: KernelBuilder, amax: str) -> tuple[str, str]:
    """(amax == 0, scale = amax == 0 ? 1 : amax / 127) in f32."""
    zero = b.op(f"arith.cmpf oeq, {amax}, {b.float_const(0.0, 'f32')} : f32")
    s = f32(b, "divf", amax, b.float_const(127.0, "f32"))
    return zero, _select(b, zero, b.float_const(1.0, "f32"), s, "f32")


def _code(b: KernelBuilder, v: str) -> str:
    """i8 code: clamp(round_half_away(v), -127, 127), NaN -> 0 (the oracle's _codes)."""
    vc = _clamp_f(b, _not_nan_or_zero(b, v), -128.0, 128.0)  # same codes after the final clamp
    t = b.op(f"arith.fptosi {vc} : f32 to i32")  # trunc toward zero
    frac = f32(b, "subf", vc, b.op(f"arith.sitofp {t} : i32 to f32"))  # exact
    away = b.op(f"arith.cmpf oge, {_fabs(b, frac)}, {b.float_const(0.5, 'f32')} : f32")
    neg = b.op(f"arith.cmpf olt, {vc}, {b.float_const(0.0, 'f32')} : f32")
    step = _select(b, neg, b.int_const(-1, "i32"), b.int_const(1, "i32"), "i32")
    r = b.op(f"arith.addi {t}, {_select(b, away, step, b.int_const(0, 'i32'), 'i32')} : i32")
    return b.op(f"arith.trunci {_clamp_i(b, r, -127, 127)} : i32 to i8")


def _emit_matmul_i8(inst: KernelInstance) -> str:
    b = KernelBuilder(inst, "matmul i8: reference int8 GEMM (per-row a / per-column b symmetric int8, i32 accumulation)")
    (as_, bs), ys = inst.shapes, inst.output.shape
    kk, nn = bs
    a_in, b_in = b.in_args
    frees: list = []
    qb = scratch(b, [kk, nn], "i8", frees)
    sw = scratch(b, [nn], "f32", frees)
    qa = scratch(b, [kk], "i8", frees)
    # b: per-column scales and codes (v / s)
    with b.loop_nest([nn]) as (n,):
        zero, s = _scale(b, _amax(b, kk, lambda k: b.load(b_in, bs, "f32", [k, n])))
        b.store(s, sw, [nn], "f32", [n])
        with b.loop_nest([kk]) as (k,):
            v = f32(b, "divf", b.load(b_in, bs, "f32", [k, n]), s)
            b.store(_code(b, v), qb, [kk, nn], "i8", [k, n])
    # a: one row at a time (v * (1 / s)), then the row of outputs
    with b.loop_nest(as_[:-1]) as lead:
        zero, sx = _scale(b, _amax(b, kk, lambda k: b.load(a_in, as_, "f32", lead + [k])))
        inv = f32(b, "divf", b.float_const(1.0, "f32"), sx)
        with b.loop_nest([kk]) as (k,):
            v = f32(b, "mulf", b.load(a_in, as_, "f32", lead + [k]), inv)
            c = _select(b, zero, b.int_const(0, "i8"), _code(b, v), "i8")
            b.store(c, qa, [kk], "i8", [k])
        with b.loop_nest([nn]) as (n,):
            with scf_for(b, b.index(0), b.index(kk), [b.int_const(0, "i32")], ["i32"]) as lk:
                x = b.op(f"arith.extsi {b.load(qa, [kk], 'i8', [lk.iv])} : i8 to i32")
                w = b.op(f"arith.extsi {b.load(qb, [kk, nn], 'i8', [lk.iv, n])} : i8 to i32")
                lk.next = [b.op(f"arith.addi {lk.args[0]}, {b.op(f'arith.muli {x}, {w} : i32')} : i32")]
            acc = b.op(f"arith.sitofp {lk.result} : i32 to f32")
            y = f32(b, "mulf", f32(b, "mulf", acc, sx), b.load(sw, [nn], "f32", [n]))
            b.store(y, b.out_arg, ys, "f32", lead + [n])
    free_scratch(b, frees)
    return b.finish()


def emit_matmul(inst: KernelInstance) -> str:
    if inst.dtype != "i8":
        return _emit_matmul_f32(inst)
    from ...ops.gemm_layout import overlay_geometry

    # the module also exports the blocked GEMM's tiles for the overlay geometry (d rows, and a block of rows)
    d, kt, cols = overlay_geometry(inst.inputs[0].shape[-1], inst.inputs[1].shape[1])
    text = _emit_matmul_i8(inst)
    end = text.rindex("}")
    tiles = "".join(gemm_tile_function(shapes[0][0][0], kt * d, cols * d, name)
                    for name, shapes in tile_functions(d, kt * d, cols * d).items())
    return text[:end] + tiles + text[end:]


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {
    "quantize": emit_quantize,
    "dequantize": emit_dequantize,
    "matmul": emit_matmul,
}
