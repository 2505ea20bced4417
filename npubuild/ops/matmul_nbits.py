"""Weight-only quantized matmul, after onnxruntime's com.microsoft MatMulNBits, and
``dequantize_nbits``, its weight dequantized as matmul's b ``[K, N]``.

``y[..., n] = sum_k a[..., k] * w[n, k]`` with the weight w stored quantized
along K in blocks of ``block_size``, each block with its own scale and zero
point (the way LLM weights ship: 4-bit codes, per-group scales):

* ``b``: uint8 ``[N, K / block_size, block_size * bits / 8]``: the codes of
  row n (MatMulNBits' B, already transposed). bits 4: two codes per byte,
  the first in the low nibble (``code[2i] = byte & 15``, ``code[2i+1] = byte >> 4``);
  bits 8: one code per byte. Codes are unsigned (0..15, 0..255).
* ``scales``: ``[N, K / block_size]``, the activations' dtype.
* ``zero_points`` (optional): uint8 ``[N, ceil(K / block_size * bits / 8)]``,
  packed as b (bits 4: block j's in byte j / 2, low nibble first). Without
  them every zero point is ``2**(bits - 1)`` (8 or 128), MatMulNBits' default.
  Signed int4 / int8 weights are exactly that: ``q = code - 8`` (``- 128``).

The dequantized weight is ``w = float32(code - zero_point) * float32(scale)``
(one f32 rounding; exact for bf16 scales), as MatMulNBits' dequantization;
the oracle then sums ``a * w`` in float64 and rounds once (f32; bf16: the
rule of ops/bf16.py). The kernels accumulate in f32 (docs/kernels.md gives the
bound). Not taken from MatMulNBits: float (unpacked) zero points, ``g_idx``,
``bias`` (add it with ``add``), ``accuracy_level``, and K that is not a
multiple of block_size (refused with the fix).
"""
from __future__ import annotations

from ..core.errors import OpError
from .lazy_numpy import np
from .registry import Attr, OpDef, fmt_shape, register

BLOCK_SIZES = (16, 32, 64, 128, 256)


def weight_layout(op: str, shapes, attrs, blocks: int | None = None) -> tuple[int, int]:
    """(N, blocks per row) of the packed weight ``shapes`` = [b, scales(, zero_points)]; ``blocks``: the
    number K / block_size must give (None: b's own). OpError naming the tensor and the shape it needs."""
    b, scales = (tuple(s) for s in shapes[:2])
    bits, bs = attrs["bits"], attrs["block_size"]
    if blocks is None and len(b) == 3:
        blocks = b[1]
    if len(b) != 3 or b[1:] != (blocks, bs * bits // 8):
        raise OpError(f"{op}: b must be [N, K/block_size, block_size*bits/8] = "
                      f"[N, {'K/block_size' if blocks is None else blocks}, {bs * bits // 8}] "
                      f"(uint8, {8 // bits} code{'s' if bits == 4 else ''} per byte), got {fmt_shape(b)}")
    n = b[0]
    if scales != (n, blocks):
        raise OpError(f"{op}: scales must be [N, K/block_size] = [{n}, {blocks}], got {fmt_shape(scales)}")
    if len(shapes) == 3:
        want = (n, -(-blocks * bits // 8))
        if tuple(shapes[2]) != want:
            raise OpError(f"{op}: zero_points must be [N, ceil(K/block_size*bits/8)] = {fmt_shape(want)} "
                          f"(uint8, packed as b), got {fmt_shape(shapes[2])}")
    return n, blocks


def nbits_layout(shapes, attrs) -> tuple[int, int, int]:
    """(K, N, blocks per row) of a matmul_nbits instance."""
    a = tuple(shapes[0])
    bs = attrs["block_size"]
    if len(a) < 1:
        raise OpError("matmul_nbits: a must be [..., K] (rank >= 1), got a scalar")
    k = a[-1]
    if k % bs:
        raise OpError(f"matmul_nbits: K = {k} (the last dim of a {fmt_shape(a)}) must be a multiple of "
                      f"block_size {bs}: pad a and the weights with zeros to {-(-k // bs) * bs}")
    n, blocks = weight_layout("matmul_nbits", shapes[1:], attrs, k // bs)
    return k, n, blocks


def _infer(shapes, attrs):
    nbits_layout(shapes, attrs)
    return tuple(shapes[0][:-1]) + (shapes[1][0],)


def _infer_dequantize(shapes, attrs):
    n, blocks = weight_layout("dequantize_nbits", shapes, attrs)
    return (blocks * attrs["block_size"], n)


def unpack_codes(packed, bits: int):
    """uint8 [..., m] -> codes [..., m * 8 / bits] (bits 4: low nibble first)."""
    packed = np.asarray(packed, dtype=np.uint8)
    if bits == 8:
        return packed
    return np.stack([packed & 15, packed >> 4], axis=-1).reshape(packed.shape[:-1] + (-1,))


def dequantized_weight(b, scales, zero_points, attrs):
    """w [N, K] float32: (code - zero point) * scale, per block of K."""
    bits, bs = attrs["bits"], attrs["block_size"]
    n, blocks = np.asarray(scales).shape
    codes = unpack_codes(b, bits).reshape(n, blocks, bs).astype(np.float32)
    if zero_points is None:
        zp = np.full((n, blocks), 2.0 ** (bits - 1), np.float32)
    else:
        zp = unpack_codes(zero_points, bits)[:, :blocks].astype(np.float32)
    w = (codes - zp[:, :, None]) * np.asarray(scales, np.float32)[:, :, None]  # f32: one rounding
    return w.reshape(n, blocks * bs)


def _matmul_nbits(xs, attrs):
    a = np.asarray(xs[0])
    w = dequantized_weight(xs[1], xs[2], xs[3] if len(xs) == 4 else None, attrs)
    y = a.astype(np.float64) @ w.astype(np.float64).T
    return y.astype(np.float32)


def _block_size(v: int) -> str | None:
    return None if v in BLOCK_SIZES else f"must be one of {', '.join(map(str, BLOCK_SIZES))}, got {v}"


def _signature(dtype, n, attrs):
    return [dtype, "u8", dtype] + ["u8"] * (n - 3), dtype


def _dequantize_nbits(xs, attrs):
    return dequantized_weight(xs[0], xs[1], xs[2] if len(xs) == 3 else None, attrs).T


_NBITS_ATTRS = (
    Attr("bits", "int", 4, (4, 8), "bits per code: 4 (two per byte, low nibble first) or 8"),
    Attr("block_size", "int", 32, doc="codes per scale along K: 16, 32, 64, 128 or 256 (MatMulNBits: a power "
         "of two >= 16); K must be a multiple of it", check=_block_size),
)


register(
    OpDef(
        name="matmul_nbits",
        family="matmul_nbits",
        doc="a [..., K] @ w^T with w [N, K] quantized along K in blocks (onnxruntime MatMulNBits): "
        "w = (code - zero_point) * scale per block; 4-bit codes two per byte (low nibble first) or 8-bit",
        inputs=("a", "b", "scales"),
        optional=(("zero_points",),),
        infer=_infer,
        oracle=_matmul_nbits,
        attrs=_NBITS_ATTRS,
        dtypes=("f32", "bf16"),
        signature=_signature,
        dtype_doc="a, scales and the output have the op's dtype (the activations: f32 or bf16); b and zero_points "
        "are u8; w and the sums are f32",
    ),
    OpDef(
        name="dequantize_nbits",
        family="matmul_nbits",
        doc="the weight of matmul_nbits dequantized, as matmul's b [K, N]: w[k, n] = (code - zero_point) * scale "
        "per block of K (4-bit codes two per byte, low nibble first, or 8-bit; onnxruntime MatMulNBits' packing)",
        inputs=("b", "scales"),
        optional=(("zero_points",),),
        infer=_infer_dequantize,
        oracle=_dequantize_nbits,
        attrs=_NBITS_ATTRS,
        dtypes=("f32", "bf16"),
        signature=lambda dtype, n, attrs: (["u8", dtype] + ["u8"] * (n - 2), dtype),
        dtype_doc="scales and the output have the op's dtype; b and zero_points are u8; w is computed in f32 and "
        "rounded once (bf16)",
    ),
)
