"""The arithmetic a route stands for, shared by the programs npubuild writes
(:mod:`.program_text`) and the host emulation that runs them (:mod:`npubuild.runner.ane`).

gelu (coremltools ``ops/defs/iOS15/activation.py``, class ``gelu``; ``mode`` defaults to EXACT):

* ``EXACT``: ``0.5 x (1 + erf(x / sqrt 2))``;
* ``TANH_APPROXIMATION``: ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``;
* ``SIGMOID_APPROXIMATION``: ``x sigmoid(1.702 x)``.

The Neural Engine compiler rejects a standalone ``gelu`` op (mechramc/Orion
``docs/ane_constraints.md``: "decompose to tanh form"), and MIL's ``erf`` is not
among the ops public ANE programs use, so a program spells each mode in
elementwise ops: the tanh and sigmoid forms literally, and EXACT through
Abramowitz & Stegun 7.1.26, an erf with |error| <= 1.5e-7 built from abs, mul,
add, real_div, exp and relu only::

    q(a) = 0.5 * t (A1 + t (A2 + t (A3 + t (A4 + t A5)))) * exp(-a^2 / 2),  t = 1 / (1 + P a / sqrt 2),  a = |x|
    gelu(x) = relu(x) - a q(a)        (x Phi(x) with Phi(x) = 1 - q(|x|) for x >= 0 and q(|x|) below)

``ERF_FREE_MAX_ERROR`` bounds that form against the erf definition in float32.
The emulation computes EXACT with the erf-free form too, in float32: what the
program computes, within 1.5e-7 of MIL's erf, far below fp16's resolution.
"""
from __future__ import annotations

from ..ops.lazy_numpy import np

GELU_MODES = ("EXACT", "TANH_APPROXIMATION", "SIGMOID_APPROXIMATION")

TANH_C = 0.044715
SQRT_2_OVER_PI = 0.7978845608028654  # sqrt(2 / pi)
SIGMOID_C = 1.702
# Abramowitz & Stegun 7.1.26 (erf(z) = 1 - t (A1 + ... + A5 t^4) exp(-z^2), t = 1/(1 + P z), z >= 0)
AS_P = 0.3275911
AS_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)
INV_SQRT2 = 0.7071067811865476
ERF_FREE_MAX_ERROR = 2e-7  # |gelu_erf_free(x) - x Phi(x)| / max(1, |x|) in float32, measured in tests/test_ane.py


def sigmoid(x):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-x))


def gelu_tail(a):
    """q(a) = 1 - Phi(a) for a >= 0, the erf-free way (A&S 7.1.26 at z = a / sqrt 2)."""
    t = 1.0 / (1.0 + (AS_P * INV_SQRT2) * a)
    poly = t * (AS_A[0] + t * (AS_A[1] + t * (AS_A[2] + t * (AS_A[3] + t * AS_A[4]))))
    with np.errstate(under="ignore"):
        return 0.5 * poly * np.exp(-0.5 * (a * a))


def gelu(x, mode: str = "EXACT"):
    x = np.asarray(x, dtype=np.float32)
    if mode == "TANH_APPROXIMATION":
        return 0.5 * x * (1.0 + np.tanh(SQRT_2_OVER_PI * (x + TANH_C * x * x * x)))
    if mode == "SIGMOID_APPROXIMATION":
        return x * sigmoid(SIGMOID_C * x)
    if mode == "EXACT":
        a = np.abs(x)
        return np.maximum(x, 0) - a * gelu_tail(a)
    raise ValueError(mode)


ACT = {
    "sigmoid": sigmoid,
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0),
    "silu": lambda x: x * sigmoid(x),
}


def blockwise_dequantize(data, scale, offset=None, out_dtype="float16"):
    """``scale * (data - offset)`` with each scale value covering a block of ``data``
    (coremltools ``ops/defs/iOS18/compression.py``, constexpr_blockwise_shift_scale), computed
    as npubuild's MIL reader computes it (float32, then the output dtype)."""
    data, scale = np.asarray(data), np.asarray(scale)

    def expand(a):
        for ax, (d, s) in enumerate(zip(data.shape, a.shape)):
            if d != s:
                a = np.repeat(a, d // s, axis=ax)
        return a.astype(np.float32)

    x = data.astype(np.float32)
    if offset is not None:
        x = x - expand(np.asarray(offset))
    with np.errstate(over="ignore", invalid="ignore"):
        return (expand(scale) * x).astype(out_dtype)
