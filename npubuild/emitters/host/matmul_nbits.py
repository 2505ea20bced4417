"""Host emitters of matmul_nbits and dequantize_nbits (npubuild/ops/matmul_nbits.py):
a weight-only quantized matmul, its 4- or 8-bit codes unpacked in the loop, and
the same weight dequantized into matmul's b layout [K, N].

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

from ...ops.matmul_nbits import nbits_layout, weight_layout
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


class _Blocks:
    """The packed weight of an instance: ``b``, ``scales`` and the optional ``zero_points`` arguments
    at ``first`` (0: dequantize_nbits, 1: matmul_nbits)."""

    def __init__(self, b: KernelBuilder, inst: KernelInstance, first: int):
        self.b, self.inst = b, inst
        self.bits, self.bs = inst.attrs["bits"], inst.attrs["block_size"]
        self.per_byte = 8 // self.bits
        self.codes, self.scales = b.in_args[first : first + 2]
        self.codes_shape, self.scales_shape = inst.shapes[first : first + 2]
        self.zps = b.in_args[first + 2] if len(inst.inputs) == first + 3 else None
        self.default_zp = b.float_const(2.0 ** (self.bits - 1), "f32")

    def params(self, n: str, blk: str) -> tuple[str, str]:
        """(scale, zero point), both f32, of block ``blk`` of row ``n``."""
        b, inst = self.b, self.inst
        scale = load_f32(b, self.scales, self.scales_shape, inst.dtype, [n, blk])
        if self.zps is None:
            return scale, self.default_zp
        zp_shape = inst.inputs[-1].shape
        if self.bits == 8:
            return scale, _to_f32(b, _byte_i32(b, self.zps, zp_shape, [n, blk]))
        # block j's zero point: byte j / 2, low nibble first
        byte = _byte_i32(b, self.zps, zp_shape, [n, b.op(f"arith.divui {blk}, {b.index(2)} : index")])
        odd = b.op(f"arith.remui {blk}, {b.index(2)} : index")
        shift = b.op(f"arith.index_cast {idx_mul(b, odd, 4)} : index to i32")
        return scale, _to_f32(b, _nibble(b, byte, shift))

    def weights(self, n: str, blk: str, j: str, scale: str, zp: str) -> list[str]:
        """The f32 weights ``(code - zp) * scale`` of byte ``j`` of the block (bits 4: low nibble's first)."""
        b = self.b
        byte = _byte_i32(b, self.codes, self.codes_shape, [n, blk, j])
        codes = [byte] if self.bits == 8 else [_nibble(b, byte, False), _nibble(b, byte, True)]
        return [f32(b, "mulf", f32(b, "subf", _to_f32(b, c), zp), scale) for c in codes]


def emit_matmul_nbits(inst: KernelInstance) -> str:
    kk, nn, blocks = nbits_layout(inst.shapes, inst.attrs)
    dt = inst.dtype
    a_shape = inst.shapes[0]
    b = KernelBuilder(inst, _title(inst, "matmul_nbits") + "; f32 accumulation")
    w = _Blocks(b, inst, 1)
    zero = b.float_const(0.0, "f32")
    with b.loop_nest(a_shape[:-1]) as lead:
        with b.loop_nest([nn]) as (n,):
            with scf_for(b, b.index(0), b.index(blocks), [zero], ["f32"]) as lblk:
                scale, zp = w.params(n, lblk.iv)
                k0 = idx_mul(b, lblk.iv, w.bs)
                with scf_for(b, b.index(0), b.index(w.bs // w.per_byte), [lblk.args[0]], ["f32"]) as lj:
                    k = idx_add(b, k0, idx_mul(b, lj.iv, w.per_byte))
                    acc = lj.args[0]
                    for i, wv in enumerate(w.weights(n, lblk.iv, lj.iv, scale, zp)):
                        av = load_f32(b, b.in_args[0], a_shape, dt, lead + [idx_add_const(b, k, i)])
                        acc = f32(b, "addf", acc, f32(b, "mulf", av, wv))
                    lj.next = [acc]
                lblk.next = [lj.result]
            store_f32(b, lblk.result, b.out_arg, inst.output.shape, dt, lead + [n])
    return b.finish()


def emit_dequantize_nbits(inst: KernelInstance) -> str:
    nn, blocks = weight_layout("dequantize_nbits", inst.shapes, inst.attrs)
    b = KernelBuilder(inst, _title(inst, "dequantize_nbits") + "; the weight as matmul's b [K, N]")
    w = _Blocks(b, inst, 0)
    with b.loop_nest([nn, blocks]) as (n, blk):
        scale, zp = w.params(n, blk)
        k0 = idx_mul(b, blk, w.bs)
        with b.loop_nest([w.bs // w.per_byte]) as (j,):
            k = idx_add(b, k0, idx_mul(b, j, w.per_byte))
            for i, wv in enumerate(w.weights(n, blk, j, scale, zp)):
                store_f32(b, wv, b.out_arg, inst.output.shape, inst.dtype, [idx_add_const(b, k, i), n])
    return b.finish()


def _title(inst: KernelInstance, op: str) -> str:
    a = inst.attrs
    zps = "packed uint8" if inst.input_names[-1] == "zero_points" else "default"
    return f"{op} {a['bits']}-bit codes in blocks of {a['block_size']} along K, {zps} zero points"


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {
    "matmul_nbits": emit_matmul_nbits,
    "dequantize_nbits": emit_dequantize_nbits,
}
