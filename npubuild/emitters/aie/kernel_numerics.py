"""NumPy models of what mlir-aie's kernels (:mod:`.kernel_library`) compute,
read step by step from their sources at mlir-aie 1e400306 (the later ones at
their ``kernel_library.READ_LATER`` commits: aie2p relu/add/mul, tanh and
sigmoid on both archs).

Conventions: inputs and outputs are ``ml_dtypes.bfloat16`` arrays; arithmetic
is f32 (the AIE's ``accfloat``); :func:`_r` rounds to bf16 wherever the source
stores an ``aie::vector<bfloat16>`` (to nearest even: the AIE's conversion
follows the core's rounding mode, which the catalog's tolerances cover).
``aie::tanh``, ``aie::exp2`` and ``aie::inv`` (aie2p hardware: gelu, silu,
tanh, sigmoid, exp, softmax) are the exact function rounded to bf16; aie2's
tanh (gelu, silu, tanh, sigmoid) is ``getTanhBf16``, :func:`tanh_lut`. The
aie2 lookup tables are reproduced exactly: tests/test_xdna_kernel_library.py checks them against
``aie_runtime_lib/AIE2/lut_based_ops.cpp`` when the mlir-aie mirror is there.
"""
from __future__ import annotations

from ...ops.lazy_numpy import np


def _bf16():
    from ...core.constants import numpy_dtype

    return numpy_dtype("bf16")


def _f(x):
    return np.asarray(x).astype(np.float32)


def _r(x):
    """Round f32 to bf16 and back to f32 (what storing an aie::vector<bfloat16> does)."""
    return _f(x).astype(_bf16()).astype(np.float32)


def _c(v: float) -> np.float32:
    """A constant the source broadcasts as bfloat16."""
    return np.float32(_r(np.float32(v)))


# getTanhBf16 (aie_runtime_lib/AIE2/lut_based_ops.h): aie::linear_approx over tanh_lut_ab
# (lut_based_ops.cpp), 32 (slope, offset) pieces with step_bits = -2 and bias = 16: piece
# floor(4 x) + 16 covers [k/4 - 4, k/4 - 3.75). The table stores each pair twice for the
# 4-bank gather layout; these are the 16 distinct pieces for x >= 0 (pieces 16..31); the
# pieces for x < 0 are the same slopes with the offsets negated (pieces 15..0).
TANH_PIECES_POS = (
    (1.0, 0.0), (0.8671875, 0.03076171875), (0.69140625, 0.11962890625), (0.50390625, 0.259765625),
    (0.34765625, 0.416015625), (0.2294921875, 0.5625), (0.1455078125, 0.6875), (0.091796875, 0.78125),
    (0.056396484375, 0.8515625), (0.035400390625, 0.8984375), (0.021240234375, 0.93359375),
    (0.0126953125, 0.95703125), (0.00750732421875, 0.97265625), (0.005096435546875, 0.98046875),
    (0.002838134765625, 0.98828125), (0.0, 1.0),
)


def tanh_pieces() -> list[tuple[float, float]]:
    """All 32 pieces in table order (piece 0 first)."""
    neg = [(s, -o) for s, o in reversed(TANH_PIECES_POS)]
    return neg + list(TANH_PIECES_POS)


def tanh_lut(x):
    """getTanhBf16 on bf16 values: slope * x + offset of the piece, in f32, rounded to bf16.
    Outside [-4, 4) the end pieces (slope 0, offset -+1) apply."""
    p = np.asarray(tanh_pieces(), dtype=np.float32)
    x = _f(x)
    k = np.clip(np.floor(x * np.float32(4)).astype(np.int64) + 16, 0, 31)
    return _r(p[k, 0] * x + p[k, 1])


# getExpBf16 (lut_based_ops.h): bfloat16_to_int(x, 8) makes x an int16 with 8 fraction bits;
# exp_ilut[(q >> 8) & 0xff] = bf16(e^int) for int in -128..88 (e^88 from 89 on: 0x7EF9),
# exp_flut[q & 0xff] = bf16(e^(frac/256)); their product (accfloat) is rounded to bf16.
EXP_INT_MAX = 88


def exp_tables():
    """(ilut, flut): the 256 distinct bf16 bit patterns of exp_ilut_ab / exp_flut_ab, in index order."""
    hi = np.arange(256)
    signed = np.where(hi < 128, hi, hi - 256)
    with np.errstate(over="ignore"):
        ilut = _f(np.exp(np.minimum(signed, EXP_INT_MAX).astype(np.float64))).astype(_bf16())
    flut = _f(np.exp(hi / 256.0)).astype(_bf16())
    return ilut.view(np.uint16), flut.view(np.uint16)


def exp_lut(x):
    ilut, flut = exp_tables()
    q = np.clip(np.floor(_f(x).astype(np.float64) * 256), -32768, 32767).astype(np.int64)
    i = ilut.view(_bf16()).astype(np.float32)[(q >> 8) & 0xFF]
    f = flut.view(_bf16()).astype(np.float32)[q & 0xFF]
    return _r(i * f)


# ---- per kernel (aie_kernels/<arch>/<file>) --------------------------------------------------------------------------


def relu_aie2(x):  # relu.cc: max(input, zeroes) on v32bfloat16
    return np.maximum(_f(x), np.float32(0))


def add_aie2(a, b):  # add.cc: aie::add
    return _r(_f(a) + _f(b))


def mul_aie2(a, b):  # mul.cc: aie::mul
    return _r(_f(a) * _f(b))


def _gelu(x, tanh, round_inner1: bool):
    x = _r(x)
    x2 = _r(x * x)
    x3 = _r(x * x2)
    inner = _r(x + _r(x3 * _c(0.044715)))
    inner1 = inner * _c(0.79788456)  # aie::mul: accfloat
    if round_inner1:
        inner1 = _r(inner1)  # aie2: aie::vector<bfloat16, 16> inner1 = aie::mul(...)
    t = tanh(inner1)
    return _r(x * _r(_c(0.5) * _r(t + np.float32(1))))


def gelu_aie2(x):  # aie2/gelu.cc: every step an aie::vector<bfloat16>; getTanhBf16
    return _gelu(x, tanh_lut, True)


def gelu_aie2p(x):  # aie2p/gelu.cc: inner1 stays accfloat, aie::tanh<bfloat16>(inner1.to_vector<float>())
    return _gelu(x, lambda v: _r(np.tanh(_f(v))), False)


def _silu(x, tanh):
    x = _r(x)
    half = x * np.float32(0.5)  # exact
    t = tanh(half)
    return _r(x * _r(_r(t + np.float32(1)) * np.float32(0.5)))


def silu_aie2(x):  # aie2/silu.cc: getTanhBf16(x * 0.5)
    return _silu(x, tanh_lut)


def silu_aie2p(x):  # aie2p/silu.cc: aie::tanh<bfloat16>(half_x.to_vector<float>())
    return _silu(x, lambda v: _r(np.tanh(_f(v))))


def tanh_aie2(x):  # aie2/tanh.cc: getTanhBf16 on each 16-lane half of the v32 input
    return tanh_lut(x)


def tanh_aie2p(x):  # aie2p/tanh.cc: aie::tanh<bfloat16> of the accumulator's f32 (an exact widening of x)
    return _r(np.tanh(_f(x)))


def _sigmoid(half, tanh):
    t = tanh(half)  # aie::vector<bfloat16, 16> halves, concatenated
    one_plus = _r(t + np.float32(1))  # aie::add(tanh_half_x, broadcast<bfloat16>(1.0f))
    return _r(one_plus * np.float32(0.5))  # aie::vector<bfloat16, 32> sigmoid_approx = aie::mul(one_plus, 0.5)


def sigmoid_aie2(x):  # aie2/sigmoid.cc: half_x = aie::mul(input, 0.5) stored as aie::vector<bfloat16, 32>
    half = _r(_f(x) * np.float32(0.5))  # exact but for results below bf16's smallest normal
    return _sigmoid(half, tanh_lut)


def sigmoid_aie2p(x):  # aie2p/sigmoid.cc: half_x = aie::mul(x16, 0.5) stays accfloat, .to_vector<float>()
    half = _f(x) * np.float32(0.5)  # exact in f32
    return _sigmoid(half, lambda v: _r(np.tanh(_f(v))))


def exp_aie2(x):  # aie2/bf16_exp.cc: getExpBf16, to_v16bfloat16
    return exp_lut(x)


LOG2E_BF16 = 1.4453125  # (bfloat16)1.44269504089: aie2p/bf16_exp.cc and softmax.cc broadcast log2e as bf16


def exp_aie2p(x):  # aie2p/bf16_exp.cc: aie::exp2<bfloat16>((x * bf16(log2e)).to_vector<float>())
    return _r(np.exp2(_f(x) * np.float32(LOG2E_BF16)))


def reduce_max_aie2(x):  # aie2/reduce_max.cc: running max from numeric_limits<bfloat16>::lowest()
    lowest = np.float32(_f(np.finfo(_bf16()).min))
    return np.maximum(np.max(_f(x), axis=-1), lowest)


def softmax_aie2p(x):  # aie2p/softmax.cc, along the last axis
    x = _f(x)
    s = x * np.float32(LOG2E_BF16)  # accfloat: a bf16 x bf16 product is exact
    m = np.maximum(np.max(_r(s), axis=-1, keepdims=True), np.float32(-32768.0))
    m = _r(m)  # broadcast<bfloat16>(max_val)
    e = _r(np.exp2(s - m))
    total = np.sum(e, axis=-1, keepdims=True, dtype=np.float32)
    inv = _r(np.float32(1) / total)  # (bfloat16)aie::inv(accum_exp_val)
    return _r(e * inv)


def row_shift(x):
    """The prologue a core runs before aie2/softmax.cc (npubuild's generated ``vector_rows.emit_row_shift``):
    each row minus its maximum, in f32, rounded to bf16."""
    x = _f(x)
    with np.errstate(invalid="ignore"):
        return _r(x - np.max(x, axis=-1, keepdims=True))


def softmax_kernel_aie2(t):
    """aie2/softmax.cc along the last axis (no maximum subtracted): getExpBf16 of the row stored as bf16,
    summed into 16 accfloat lanes (``add(exp_val_accum, exp_val)``) and the lanes folded in order
    (``aie::reduce_add``: the order is assumed), the bf16 reciprocal ``(bfloat16)aie::inv(sum)`` (modelled as
    the exact reciprocal rounded to bf16), products rounded to bf16."""
    e = exp_lut(t)
    n = e.shape[-1]
    acc = np.zeros((*e.shape[:-1], 16), np.float32)
    for k in range(0, n, 16):
        acc = acc + e[..., k:k + 16]
    total = acc[..., 0]
    for j in range(1, 16):
        total = total + acc[..., j]
    with np.errstate(divide="ignore"):
        inv = _r(np.float32(1) / total[..., None])
    return _r(e * inv)


def softmax_aie2(x):  # the core's prologue, then aie2/softmax.cc
    return softmax_kernel_aie2(row_shift(x))


MODELS = {
    ("relu", "aie2"): relu_aie2,
    ("add", "aie2"): add_aie2,
    ("mul", "aie2"): mul_aie2,
    ("gelu", "aie2"): gelu_aie2,
    ("silu", "aie2"): silu_aie2,
    ("exp", "aie2"): exp_aie2,
    ("reduce_max", "aie2"): reduce_max_aie2,
    ("tanh", "aie2"): tanh_aie2,
    ("sigmoid", "aie2"): sigmoid_aie2,
    ("gelu", "aie2p"): gelu_aie2p,
    ("silu", "aie2p"): silu_aie2p,
    ("exp", "aie2p"): exp_aie2p,
    ("softmax", "aie2p"): softmax_aie2p,
    ("softmax", "aie2"): softmax_aie2,
    ("tanh", "aie2p"): tanh_aie2p,
    ("sigmoid", "aie2p"): sigmoid_aie2p,
    # aie2p/relu.cc, add.cc, mul.cc (read later than 1e400306): the aie2 arithmetic on 32-lane vectors
    ("relu", "aie2p"): relu_aie2,  # aie::max(input, zeroes)
    ("add", "aie2p"): add_aie2,  # aie::add into aie::vector<bfloat16, 32>
    ("mul", "aie2p"): mul_aie2,  # aie::mul(A0, B0).to_vector<bfloat16>()
}
