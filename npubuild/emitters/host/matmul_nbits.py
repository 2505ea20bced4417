"""Host emitter of matmul_nbits (npubuild/ops/matmul_nbits.py): a weight-only
quantized matmul, its 4- or 8-bit codes unpacked in the loop.

Per output ``y[..., n]``, blocks of K in order, and in each block its bytes in
order (bits 4: the low nibble's code, then the high one's):

* the block's scale (widened to f32) and zero point (``2**(bits-1)`` or the
  packed uint8 one, ``extui`` then shift and mask) are loaded once;
* each code is ``extui``-ed, converted (``sitofp``, exact) and
  ``w = (code - zero_point) * scale`` in f32: the oracle's dequantized weight,
  bit for bit;
* ``acc += a[..., k] * w`` in f32, one running sum over all of K (no partial
  sums per block), rounded once to the output dtype.

The error against the float64 oracle is that of an f32 dot product of length
K: at most ``K * 2**-24 * sum_k |a_k w_k|`` to first order.
"""
from __future__ import annotations

from typing import Callable

from ...ops.matmul_nbits import nbits_layout
from ...specfile.instances import KernelInstance
from .mlir_text import KernelBuilder
from .nn import f32, idx_add, idx_add_const, idx_mul, load_f32, scf_for, store_f32


def _byte_i32(b: KernelBuilder, memref: str, shape, idx) -> str:
    v = b.load(memref, shape, "u8", idx)
    return b.op(f"arith.extui {v} : i8 to i32")


def _nibble(b: KernelBuilder, byte: str, high) -> str:
    """The low (``high`` False) or high (True) 4 bits of an i32 byte; ``high`` may be an i32 shift amount."""
    if high is True:
        return b.op(f"arith.shrui {byte}, {b.int_const(4, 'i32')} : i32")
    if high is not False:
        byte = b.op(f"arith.shrui {byte}, {high} : i32")
    return b.op(f"arith.andi {byte}, {b.int_const(15, 'i32')} : i32")


def _to_f32(b: KernelBuilder, code: str) -> str:
    return b.op(f"arith.sitofp {code} : i32 to f32")


def emit_matmul_nbits(inst: KernelInstance) -> str:
    a_attrs = inst.attrs
    bits, bs = a_attrs["bits"], a_attrs["block_size"]
    kk, nn, blocks = nbits_layout(inst.shapes, a_attrs)
    dt = inst.dtype
    shapes = inst.shapes
    a_shape, b_shape, s_shape = shapes[0], shapes[1], shapes[2]
    has_zp = len(shapes) == 4
    b = KernelBuilder(inst, f"matmul_nbits {bits}-bit codes in blocks of {bs} along K, "
                            f"{'packed uint8' if has_zp else 'default'} zero points; f32 accumulation")
    a_arg, b_arg, s_arg = b.in_args[:3]
    zero = b.float_const(0.0, "f32")
    default_zp = b.float_const(2.0 ** (bits - 1), "f32")
    per_byte = 8 // bits
    with b.loop_nest(a_shape[:-1]) as lead:
        with b.loop_nest([nn]) as (n,):
            with scf_for(b, b.index(0), b.index(blocks), [zero], ["f32"]) as lblk:
                blk = lblk.iv
                scale = load_f32(b, s_arg, s_shape, dt, [n, blk])
                if not has_zp:
                    zp = default_zp
                elif bits == 8:
                    zp = _to_f32(b, _byte_i32(b, b.in_args[3], shapes[3], [n, blk]))
                else:  # block j's zero point: byte j / 2, low nibble first
                    byte = _byte_i32(b, b.in_args[3], shapes[3], [n, b.op(f"arith.divui {blk}, {b.index(2)} : index")])
                    odd = b.op(f"arith.remui {blk}, {b.index(2)} : index")
                    shift = b.op(f"arith.index_cast {idx_mul(b, odd, 4)} : index to i32")
                    zp = _to_f32(b, _nibble(b, byte, shift))
                k0 = idx_mul(b, blk, bs)
                with scf_for(b, b.index(0), b.index(bs // per_byte), [lblk.args[0]], ["f32"]) as lj:
                    byte = _byte_i32(b, b_arg, b_shape, [n, blk, lj.iv])
                    codes = [byte] if bits == 8 else [_nibble(b, byte, False), _nibble(b, byte, True)]
                    k = idx_add(b, k0, idx_mul(b, lj.iv, per_byte))
                    acc = lj.args[0]
                    for i, code in enumerate(codes):
                        w = f32(b, "mulf", f32(b, "subf", _to_f32(b, code), zp), scale)
                        av = load_f32(b, a_arg, a_shape, dt, lead + [idx_add_const(b, k, i)])
                        acc = f32(b, "addf", acc, f32(b, "mulf", av, w))
                    lj.next = [acc]
                lblk.next = [lj.result]
            store_f32(b, lblk.result, b.out_arg, inst.output.shape, dt, lead + [n])
    return b.finish()


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {"matmul_nbits": emit_matmul_nbits}
