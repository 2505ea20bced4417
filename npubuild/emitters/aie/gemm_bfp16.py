"""NumPy model of a bf16 GEMM whose mm.cc is compiled with ``-DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16``
(``xdna_bf16_mmul = "bfp16"``, npu2), and the error bound its tolerance is made of.

What the emulation does, from the sources read:

* aie2p/mm.cc (mlir-aie 1e400306, l.293-346 and the combos at l.439-453) then instantiates
  ``matmul_vectorized_8x8x8_bf16_f32``: ``aie::mmul<8, 8, 8, bfloat16, bfloat16, accfloat>`` over 8 x 8
  sub-tiles of A (row-major, 8 rows x 8 k) and B (row-major, 8 k x 8 columns), C loaded into the
  accumulators at the call's start and stored (f32) at its end.
* aie_api ``detail/aie2p/mmul_bf16_bf16.hpp`` (the ``#if AIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16``
  specialisation ``mmul_bf16_bf16<8, 8, 8>``, read at jgmelber/aie_api 4e950f7): ``mac`` widens the A
  sub-tile to ``accum<accfloat, 64>``, transposes the B sub-tile 8 x 8 and multiplies it by one
  (``mul_elem_64`` with a broadcast 1.0: exact), converts both with ``to_v64bfp16ebs8`` and issues
  ``mac_8x8_8x8T_conf``. ``v64bfp16ebs8`` is 8 blocks of 8 consecutive values, so a block is 8
  consecutive **k of one row of A**, and (after the transpose) 8 consecutive **k of one column of B**.
  Sub-tiles start at multiples of 8 in k (tk % 8 == 0, K padded with zeros), so the blocks of the
  whole product are k = 8j .. 8j+7 for every row of A and every column of B.
* bfp16ebs8: one shared 8-bit exponent per block, the largest biased exponent of its 8 values, and
  one 8-bit two's-complement mantissa per value worth ``m * 2**(E - 127 - 6)``
  (mlir-aie programming_examples/ml/block_datatypes/helper.h ``floatToBfp16`` / ``bfp16ebs8ToFloat``,
  1e400306): 7 significant bits for the block's largest value (bf16 has 8), fewer for the others.
* Rounding: the conversion follows the core's rounding mode (mlir-aie PR #3442, merged after 1e400306 to
  round to nearest even instead: "aie_api documents the default as rounding_mode::floor, and neither this
  kernel nor aie_api selects anything else, so every converted element rounds toward negative
  infinity"); helper.h: "The rouding mode for the mantissa in AIE2p is always truncation" of the
  two's complement, i.e. toward -inf. At 1e400306 mm.cc does not set the mode, and a GEMM core here
  has no ``aievec.srs`` op, so aiecc's AIECoreToStandard does not set it either (l.556-613): floor,
  the register's reset value (``rnd_floor = 0`` in the AIE intrinsics guide). So
  ``m = floor(x / 2**(E - 133))``, never out of [-128, 127].
* Accumulation: one 8 x 8 x 8 mmul contributes, to each output, one block's dot product: 8 products of
  int8 mantissas (exact, |sum| < 2**17) times one power of two, exact in f32. It is added to the f32
  accumulator: modelled as one f32 addition rounded to nearest even per block, in k order (the
  accumulator's own addition is not documented in what was read: an assumption, covered by the bound).

Subnormal inputs (|x| < 2**-126) are outside the model. The runtime rounds C to bf16 once, to nearest
even, as for the native mmul.
"""
from __future__ import annotations

from ...ops.lazy_numpy import np

BLOCK = 8  # values sharing one exponent (bfp16ebs8)
MANTISSA_SHIFT = 6  # a block's quantum is 2**(E - 127 - 6): its largest value keeps 7 significant bits


def _blocks_last(x):
    """``x`` (f64, last axis a multiple of BLOCK) as (..., blocks, BLOCK)."""
    return x.reshape(*x.shape[:-1], x.shape[-1] // BLOCK, BLOCK)


def quantum(x, axis: int = -1):
    """Per value of ``x``: the step of its bfp16 block along ``axis`` (blocks of 8 from index 0; the axis is
    zero-padded to a multiple of 8 first), ``2**(E - 133)`` with E the block's largest biased exponent."""
    x = np.moveaxis(np.asarray(x, dtype=np.float64), axis, -1)
    n = x.shape[-1]
    pad = -n % BLOCK
    xp = np.concatenate([x, np.zeros((*x.shape[:-1], pad))], axis=-1) if pad else x
    blk = _blocks_last(xp)
    _, e = np.frexp(np.abs(blk).max(axis=-1, keepdims=True))  # max in [2**(e-1), 2**e): biased exponent e + 126
    q = np.broadcast_to(np.ldexp(1.0, e - 1 - MANTISSA_SHIFT), blk.shape).reshape(xp.shape)[..., :n]
    return np.moveaxis(q, -1, axis)


def to_bfp16(x, axis: int = -1):
    """``x`` (bf16 or f32 values) as ``to_v64bfp16ebs8`` leaves it under the floor rounding mode, back in
    f64: each value floored to its block's quantum (:func:`quantum`)."""
    x = np.asarray(x, dtype=np.float64)
    q = quantum(x, axis)
    return np.floor(x / q) * q


def matmul_call(acc, a, b):
    """One ``matmul_bf16_f32`` call of the emulated mm.cc on an (m, k) A tile and a (k, n) B tile (k a multiple
    of 8, blocks from its index 0) into the f32 C tile ``acc``: per block of 8 k, the exact block product
    added to the f32 accumulator (one rounding to nearest even)."""
    qa = to_bfp16(a, axis=1)
    qb = to_bfp16(b, axis=0)
    c = np.asarray(acc, dtype=np.float32).copy()
    for j in range(0, qa.shape[1], BLOCK):
        part = qa[:, j:j + BLOCK] @ qb[j:j + BLOCK, :]  # exact: int8 mantissas, one scale per row and column
        c = (c + part.astype(np.float32)).astype(np.float32)
    return c


def bfp16_matmul(a, b):
    """The f32 C the emulated GEMM computes for ``a`` (..., K) @ ``b`` (K, N), before the runtime's one
    rounding to bf16: what :func:`matmul_call` gives for the whole K (zero padding adds exact zeros)."""
    a = np.asarray(a, dtype=np.float64)
    a2 = a.reshape(-1, a.shape[-1])
    b = np.asarray(b, dtype=np.float64)
    k = a2.shape[1]
    pad = -k % BLOCK
    if pad:
        a2 = np.concatenate([a2, np.zeros((a2.shape[0], pad))], axis=1)
        b = np.concatenate([b, np.zeros((pad, b.shape[1]))], axis=0)
    c = matmul_call(np.zeros((a2.shape[0], b.shape[1]), np.float32), a2, b)
    return c.reshape(*a.shape[:-1], b.shape[1])


def error_bound(a, b):
    """Per output, a bound on |the model's f32 C - the exact product of the bf16 inputs|:

    * quantisation: a value x of a block with quantum q becomes x - d, 0 <= d < q (floor), so each product
      is off by at most ``|a| qb + |b| qa + qa qb``; summed over k. Since q <= 2**-6 times the block's
      largest magnitude, that is at most about 2**-5 of the products of the blocks' largest values,
      where the native mmul's bf16 products are exact;
    * the f32 accumulation of K / 8 block products: at most ``(K / 8) * 2**-24`` times the sum of their
      magnitudes (sum of |qa qb|, first order).
    """
    a = np.asarray(a, dtype=np.float64)
    a2 = a.reshape(-1, a.shape[-1])
    b = np.asarray(b, dtype=np.float64)
    qa, qb = quantum(a2, axis=1), quantum(b, axis=0)
    quant = np.abs(a2) @ qb + qa @ np.abs(b) + qa @ qb
    mags = np.abs(to_bfp16(a2, axis=1)) @ np.abs(to_bfp16(b, axis=0))
    blocks = -(-a2.shape[1] // BLOCK)
    return (quant + blocks * 2.0**-24 * mags).reshape(*a.shape[:-1], b.shape[1])


BF16_ROUNDING = 2.0**-8  # one rounding to nearest even to bf16 (8 significant bits): |bf16(x) - x| <= 2**-8 |x|


def tolerance(a, b, ref):
    """Per output, how far the NPU's bf16 C ``y`` may be from the oracle's ``ref`` (the exact product S summed
    in f64, rounded to f32 and once to bf16, npubuild.ops.bf16). With C the model's f32 sum, |C - S| <= B
    (:func:`error_bound`): |y - ref| <= |y - C| + |C - S| + |S - f32(S)| + |f32(S) - ref|
    <= 2**-8 (|S| + B) + B + 2**-24 |S| + 2**-8 |f32(S)|, and |S|, |f32(S)| <= (1 + 2**-6) |ref|,
    so ``(1 + 2**-6) B + (2**-7 + 2**-12) |ref|`` bounds it."""
    bound = error_bound(a, b)
    r = np.abs(np.asarray(ref, dtype=np.float64))
    return (1 + 2.0**-6) * bound + (2 * BF16_ROUNDING + 2.0**-12) * r
