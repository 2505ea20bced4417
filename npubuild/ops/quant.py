"""Quantisation (quantize / dequantize, ONNX QuantizeLinear / DequantizeLinear with
baked scales) and matmul, whose ``i8`` flavour is the reference design's int8 GEMM.

The int8 matmul is reproduced bit for bit: ``a`` is quantised per row and ``b``
per column (symmetric, scale = amax / 127, codes rounded half away from zero and
clamped to +-127, all in float32), the int8 products are summed in int32 and each
result is dequantised as ``(float32(acc) * sx[m]) * sw[n]``. The helpers
:func:`quantize_per_row`, :func:`quantize_per_col` and
:func:`int8_matmul_accumulate` are public: kernels and tests reuse them.
"""
from __future__ import annotations

from ..core.constants import numpy_dtype
from ..core.errors import OpError
from .lazy_numpy import np
from .registry import Attr, OpDef, fmt_shape, norm_axis, register

I8_MIN, I8_MAX = -128, 127
# the code range of each quantized dtype (ONNX QuantizeLinear's int8 / uint8 saturation)
CODE_RANGE = {"i8": (I8_MIN, I8_MAX), "u8": (0, 255), "i4": (-8, 7), "u4": (0, 15)}

# ---- quantize / dequantize ---------------------------------------------------------------


def _channel_layout(op: str, x, attrs) -> tuple[int, ...] | None:
    """Validate scales/zero_points against x; return the shape that broadcasts one
    value per channel (None for per-tensor)."""
    scales, zps = attrs["scales"], attrs["zero_points"]
    if not scales:
        raise OpError(f"{op}: scales must have at least one entry (one per channel, or one for the whole tensor)")
    if not all(s > 0 and s != float("inf") for s in scales):
        raise OpError(f"{op}: scales must be positive and finite, got {scales}")
    if zps and len(zps) != len(scales):
        raise OpError(f"{op}: zero_points must be empty or have one entry per scale ({len(scales)}), got {len(zps)}")
    if any(not I8_MIN <= z <= 255 for z in zps):
        raise OpError(f"{op}: zero_points must be in the int8 range [{I8_MIN}, {I8_MAX}] (u8: [0, 255]), got {zps}")
    if len(scales) == 1:
        return None
    ax = norm_axis(attrs["axis"], len(x))
    if x[ax] != len(scales):
        raise OpError(
            f"{op}: {len(scales)} scales given but axis {attrs['axis']} of x {fmt_shape(x)} has size {x[ax]} "
            "(per-channel quantisation needs one scale per channel)"
        )
    return (len(scales),) + (1,) * (len(x) - ax - 1)


def _infer_quant(op: str):
    def infer(shapes, attrs):
        x = tuple(shapes[0])
        _channel_layout(op, x, attrs)
        return x

    return infer


def _params(op: str, x, attrs):
    """(scale float32, zero point int32), shaped to broadcast against x."""
    layout = _channel_layout(op, x.shape, attrs)
    n = len(attrs["scales"])
    scale = np.asarray(attrs["scales"], dtype="float32")
    zp = np.asarray(attrs["zero_points"] or [0] * n, dtype="int32")
    if layout is None:
        return scale[0], zp[0]
    return scale.reshape(layout), zp.reshape(layout)


def _quantize(xs, attrs, dtype):
    x = np.asarray(xs[0], dtype="float32")
    scale, zp = _params("quantize", x, attrs)
    with np.errstate(invalid="ignore"):
        r = np.rint(x / scale)  # float32 division, round half to even (ONNX QuantizeLinear)
        r = np.where(np.isnan(r), 0, np.clip(r, -1024, 1024)).astype("int32")  # NaN -> the zero point
    lo, hi = CODE_RANGE[dtype]
    return np.clip(r + zp, lo, hi).astype(numpy_dtype(dtype))


def _dequantize(xs, attrs):
    q = np.asarray(xs[0]).astype("int32")
    scale, zp = _params("dequantize", q, attrs)
    return (q - zp).astype("float32") * scale


def _quant_signature(op: str):
    """quantize: f32 -> the op's dtype; dequantize: the op's dtype -> f32. The zero points must be codes
    of that dtype (checked here, where the dtype is known: the shape rule sees only the attrs)."""

    def signature(dtype, n, attrs):
        lo, hi = CODE_RANGE[dtype]
        bad = [z for z in attrs.get("zero_points") or () if not lo <= z <= hi]
        if bad:
            raise OpError(f"{op}: zero_points of a {dtype} {op} must be in [{lo}, {hi}], got {bad}")
        return (["f32"], dtype) if op == "quantize" else ([dtype], "f32")

    return signature


_QUANT_ATTRS = (
    Attr("scales", "floats", doc="positive scales: one for the whole tensor, or one per channel along axis"),
    Attr("zero_points", "ints", [], doc="zero points (codes of the op's dtype: i8, u8, i4 or u4), one per scale; "
         "[] means all zero"),
    Attr("axis", "int", 1, doc="the channel axis (used only when there is more than one scale)"),
)

# ---- int8 GEMM helpers (the reference design's accuracy contract) ------------------------


# the largest float32 below 0.5: floor(|v| + HALF_DOWN) is round-half-away-from-zero
# of |v| for every float32 (with 0.5 itself, 0.49999997 + 0.5 would round up to 1)
_HALF_DOWN = 0.49999997


def _codes(v, dtype="int8"):
    """Round half away from zero (Rust's f32::round), clamp to +-127, int8; NaN becomes 0 (Rust's ``as i8``).

    copysign(floor(|v| + 0.49999997), v) in float32, in place: quantising the
    activation is a large share of an int8 GEMM run. Checked against
    trunc + (|frac| >= 0.5) * sign for all 2**32 float32 bit patterns.
    """
    v = np.asarray(v, dtype=np.float32)
    r = np.abs(v)
    r += np.float32(_HALF_DOWN)
    np.floor(r, out=r)
    np.copysign(r, v, out=r)
    np.clip(r, -127, 127, out=r)  # NaN stays NaN
    r[np.isnan(r)] = 0
    return r if dtype == "float32" else r.astype(np.int8)


def quantize_per_row(a2d, codes_dtype: str = "int8"):
    """Symmetric int8 per row: ``(codes int8 [M, K], scales float32 [M])``.

    ``codes_dtype="float32"`` gives the same codes as float32 integers (for a
    float32 product that is exact, without two conversions).

    scale = max|row| / 127 (float32); codes = round_half_away(v * (1 / scale))
    clamped to +-127. An all-zero row keeps scale 1 and codes 0.
    """
    a = np.asarray(a2d, dtype="float32")
    if a.ndim != 2:
        raise ValueError(f"quantize_per_row needs a 2-D array, got shape {a.shape}")
    # max |row|, NaN ignored like f32::max: from the row's max and min (no |a| temporary)
    amax = np.fmax(np.fmax.reduce(a, axis=1, initial=np.float32(0)), -np.fmin.reduce(a, axis=1, initial=np.float32(0)))
    zero = amax == 0
    with np.errstate(invalid="ignore", over="ignore"):  # inf/NaN inputs end as code 0, as in Rust
        scale = np.where(zero, np.float32(1), amax / np.float32(127)).astype("float32")
        inv = (np.float32(1) / scale).astype("float32")
        codes = _codes(a * inv[:, None], codes_dtype)  # float32 * float32: float32
    codes[zero, :] = 0
    return codes, scale


def quantize_per_col(b2d):
    """Symmetric int8 per column: ``(codes int8 [K, N], scales float32 [N])``.

    scale = max|column| / 127 (float32), 1 for an all-zero column;
    codes = round_half_away(v / scale) clamped to +-127.
    """
    b = np.asarray(b2d, dtype="float32")
    if b.ndim != 2:
        raise ValueError(f"quantize_per_col needs a 2-D array, got shape {b.shape}")
    amax = np.fmax.reduce(np.abs(b), axis=0, initial=np.float32(0))
    with np.errstate(invalid="ignore", over="ignore"):
        scale = np.where(amax == 0, np.float32(1), amax / np.float32(127)).astype("float32")
        codes = _codes(b / scale[None, :])
    return codes, scale


def int8_matmul_accumulate(qa, qb):
    """int32 [M, N] = sum over K of int8 qa [M, K] times int8 qb [K, N] (wraps like int32)."""
    # float64 holds every partial sum exactly (|sum| <= K * 127^2 << 2^53) and uses BLAS.
    acc = np.asarray(qa, dtype="float64") @ np.asarray(qb, dtype="float64")
    return np.rint(acc).astype("int64").astype("int32")


def int8_matmul(a2d, b2d):
    """The reference int8 GEMM of f32 ``a2d`` [M, K] and ``b2d`` [K, N] -> float32 [M, N]."""
    qa, sx = quantize_per_row(a2d)
    qb, sw = quantize_per_col(b2d)
    acc = int8_matmul_accumulate(qa, qb).astype("float32")
    return (acc * sx[:, None]) * sw[None, :]


# ---- matmul ------------------------------------------------------------------------------


def _infer_matmul(shapes, attrs):
    a, b = tuple(shapes[0]), tuple(shapes[1])
    if len(a) < 2:
        raise OpError(f"matmul: a must be [..., M, K] (rank >= 2), got {fmt_shape(a)}")
    if len(b) != 2:
        raise OpError(f"matmul: b must be [K, N] (rank 2), got {fmt_shape(b)}")
    if a[-1] != b[0]:
        raise OpError(f"matmul: a is [M, K={a[-1]}] but b is [K={b[0]}, N] (a {fmt_shape(a)}, b {fmt_shape(b)})")
    return a[:-1] + (b[1],)


def _matmul_signature(dtype, n, attrs):
    if dtype == "bf16":
        return ["bf16", "bf16"], "bf16"
    return ["f32", "f32"], "f32"


def _matmul(xs, attrs, dtype):
    """f32 and i8 instances take the same f32 tensors, so the op dtype decides
    (``oracle_needs_dtype``): f32 is exact, i8 is the reference int8 GEMM."""
    a, b = (np.asarray(x, dtype="float32") for x in xs)
    if dtype == "f32":
        return (a.astype("float64") @ b.astype("float64")).astype("float32")
    k, n = b.shape
    return int8_matmul(a.reshape(-1, k), b).reshape(a.shape[:-1] + (n,))


register(
    OpDef(
        name="quantize",
        family="quant",
        doc="q = saturate(round_half_even(x / scale) + zero_point) to int8, uint8, int4 or uint4 (ONNX "
        "QuantizeLinear, per tensor or per channel)",
        inputs=("x",),
        infer=_infer_quant("quantize"),
        oracle=_quantize,
        oracle_needs_dtype=True,
        attrs=_QUANT_ATTRS,
        dtypes=("i8", "u8", "i4", "u4"),
        signature=_quant_signature("quantize"),
        dtype_doc="the op's dtype (i8, u8, i4 or u4) names the output and the range of the zero points; the input x "
        "is f32",
    ),
    OpDef(
        name="dequantize",
        family="quant",
        doc="x = (q - zero_point) * scale in f32 (ONNX DequantizeLinear, per tensor or per channel)",
        inputs=("q",),
        infer=_infer_quant("dequantize"),
        oracle=_dequantize,
        attrs=_QUANT_ATTRS,
        dtypes=("i8", "u8", "i4", "u4"),
        signature=_quant_signature("dequantize"),
        dtype_doc="the op's dtype (i8, u8, i4 or u4) names the input q and the range of the zero points; the output "
        "is f32",
    ),
    OpDef(
        name="matmul",
        family="matmul",
        doc="a [..., M, K] @ b [K, N]; dtype i8 runs the reference int8 GEMM (per-row/per-column symmetric int8, "
        "int32 accumulate, f32 dequantisation)",
        inputs=("a", "b"),
        infer=_infer_matmul,
        oracle=_matmul,
        oracle_needs_dtype=True,
        dtypes=("f32", "bf16", "i8"),
        signature=_matmul_signature,
        dtype_doc="f32 and i8: a, b and the output are f32, the dtype is the compute precision "
        "(i8: a quantised per row, b per column, int32 accumulation, output acc * sx[m] * sw[n]); "
        "bf16: a, b and the output are bf16, products and sums in f32, the sum rounded once to bf16; "
        "the oracle takes the dtype as a third argument",
    ),
)
