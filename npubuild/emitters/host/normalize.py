"""Host emitters for the normalisations: softmax, rms_norm, layer_norm, group_norm.

Everything is computed in f32 (f16 inputs, gamma and beta are widened exactly
with ``arith.extf``) and each output is rounded once to the op's dtype. ``exp``
and ``rsqrt`` are the plain-``arith`` expansions of :mod:`.mathfns` (no libm).

* ``softmax`` (any axis), three passes over each row: m = max(x) (exact,
  NaN-propagating); s = Σ exp(x - m) accumulated in f32; y = exp(x - m) / s
  (exp recomputed rather than stored, so an f16 output is rounded only once;
  one division per element). A row containing NaN or +inf, or made only of
  -inf, gives NaN everywhere, as the oracle (``-inf - -inf`` and
  ``inf - inf`` are NaN).
* ``rms_norm``: ms = Σ x² / n in f32, r = rsqrt(ms + eps), y = x · r · gamma.
* ``layer_norm`` and ``group_norm``: **two-pass** mean and population
  variance (mean = Σ x / n, then var = Σ (x - mean)² / n, both accumulated in
  f32), r = rsqrt(var + eps), y = (x - mean) · r · gamma + beta. Two passes
  rather than Welford: the row is in memory anyway and the second pass, summing
  squares of already-centred values, does not lose the variance to
  cancellation when |mean| >> std (as E[x²] - E[x]² would); Welford would need
  a division per element. group_norm applies this to each of the N · G groups
  (C/G channels × all spatial positions), then gamma and beta per channel.

Error (u = 2^-24, n = the row/group length, first order; derived in
docs/kernels.md and checked as a bound in
tests/test_host_reduce_normalize.py): softmax is within
(|x_i - m| + Σ_j y_j·|x_j - m| + 4·ulps(exp) + n) · u relative per element
(the rounding of x - m is amplified by exp); rms_norm within
((n + 3)/2 + 2·ulps(rsqrt) + 3) · u relative;
layer/group_norm within |gamma| · (Δd/σ + |ŷ| · ε) + u|y| absolute, where
Δd ≈ n·u·mean|x| is the error of x - mean and ε ≈ (n/2 + 2·ulps(rsqrt)) · u.
As in the reductions, a float64 oracle does not overflow where f32 can:
Σ x² overflows f32 for |x| above ~1e19.
"""
from __future__ import annotations

from typing import Callable

from ...ops.registry import norm_axis
from ...specfile.instances import KernelInstance
from . import mathfns, vector_rows
from .mlir_text import KernelBuilder
from .reduce import ACC_FLOAT, axis_split, for_acc, from_acc, insert_axis, to_acc

F = ACC_FLOAT


def _load_f32(b: KernelBuilder, arg: str, shape, dtype: str, idx) -> str:
    return to_acc(b, b.load(arg, shape, dtype, idx), dtype)


def _f(b: KernelBuilder, op: str, x: str, y: str) -> str:
    return b.op(f"arith.{op} {x}, {y} : {F}")


# ---- softmax ------------------------------------------------------------------------------------------------


def emit_softmax(inst: KernelInstance) -> str:
    dt = inst.dtype
    shape = inst.inputs[0].shape
    rank = len(shape)
    axis = norm_axis(inst.attrs["axis"], rank)
    b = KernelBuilder(inst, f"softmax along axis {axis}: max, sum of exp(x - max) in f32, exp(x - max) / sum")
    others, length = axis_split(shape, axis)
    x_arg = b.in_args[0]

    with b.loop_nest(others) as outer:

        def x_at(iv: str) -> str:
            return _load_f32(b, x_arg, shape, dt, insert_axis(outer, axis, rank, iv))

        (m,) = for_acc(
            b, [length], [(b.float_const(float("-inf"), F), F)], lambda ivs, c: [_f(b, "maximumf", c[0], x_at(ivs[0]))]
        )

        def e_at(iv: str) -> str:
            return mathfns.exp(b, _f(b, "subf", x_at(iv), m), F)

        (s,) = for_acc(b, [length], [(b.float_const(0.0, F), F)], lambda ivs, c: [_f(b, "addf", c[0], e_at(ivs[0]))])

        def store(ivs, carried):
            y = from_acc(b, _f(b, "divf", e_at(ivs[0]), s), dt)
            b.store(y, b.out_arg, shape, dt, insert_axis(outer, axis, rank, ivs[0]))
            return []

        for_acc(b, [length], [], store)
    return b.finish()


# ---- rms_norm / layer_norm / group_norm ---------------------------------------------------------------------


def _normalize_rows(
    b: KernelBuilder,
    extents: list[int],
    x_idx: Callable[[list[str]], list[str]],
    param_idx: Callable[[list[str]], list[str]],
    center: bool,
    eps: float,
) -> None:
    """Normalise one row (or group) whose elements are indexed by ``x_idx(ivs)``
    for ``ivs`` over ``extents``; gamma (and beta, when ``center``) are read at
    ``param_idx(ivs)``. Emits the passes; the caller has opened the outer loops."""
    inst = b.inst
    dt = inst.dtype
    shape = inst.inputs[0].shape
    p_shape = inst.inputs[1].shape
    n = 1
    for e in extents:
        n *= e
    count = b.float_const(float(n), F)
    zero = b.float_const(0.0, F)
    x_arg, g_arg = b.in_args[0], b.in_args[1]

    def x_at(ivs):
        return _load_f32(b, x_arg, shape, dt, x_idx(ivs))

    if center:
        (total,) = for_acc(b, extents, [(zero, F)], lambda ivs, c: [_f(b, "addf", c[0], x_at(ivs))])
        mean = _f(b, "divf", total, count)

        def sq(ivs, c):
            d = _f(b, "subf", x_at(ivs), mean)
            return [_f(b, "addf", c[0], _f(b, "mulf", d, d))]
    else:
        mean = None

        def sq(ivs, c):
            x = x_at(ivs)
            return [_f(b, "addf", c[0], _f(b, "mulf", x, x))]

    (ss,) = for_acc(b, extents, [(zero, F)], sq)
    var = _f(b, "divf", ss, count)
    r = mathfns.rsqrt(b, _f(b, "addf", var, b.float_const(eps, F)), F)

    def store(ivs, carried):
        x = x_at(ivs)
        d = _f(b, "subf", x, mean) if center else x
        g = _load_f32(b, g_arg, p_shape, dt, param_idx(ivs))
        y = _f(b, "mulf", _f(b, "mulf", d, r), g)
        if center:
            y = _f(b, "addf", y, _load_f32(b, b.in_args[2], p_shape, dt, param_idx(ivs)))
        b.store(from_acc(b, y, dt), b.out_arg, shape, dt, x_idx(ivs))
        return []

    for_acc(b, extents, [], store)


def _emit_last_axis_norm(inst: KernelInstance, center: bool) -> str:
    shape = inst.inputs[0].shape
    what = "two-pass mean and population variance" if center else "mean of squares"
    b = KernelBuilder(inst, f"{inst.op} over the last axis: {what} in f32, rsqrt")
    with b.loop_nest(shape[:-1]) as outer:
        _normalize_rows(
            b,
            [shape[-1]],
            lambda ivs: list(outer) + [ivs[0]],
            lambda ivs: [ivs[0]],
            center,
            inst.attrs["eps"],
        )
    return b.finish()


def emit_rms_norm(inst: KernelInstance) -> str:
    return _emit_last_axis_norm(inst, center=False)


def emit_layer_norm(inst: KernelInstance) -> str:
    return _emit_last_axis_norm(inst, center=True)


def emit_group_norm(inst: KernelInstance) -> str:
    shape = inst.inputs[0].shape
    n_batch, channels, spatial = shape[0], shape[1], list(shape[2:])
    groups = inst.attrs["num_groups"]
    per_group = channels // groups
    b = KernelBuilder(
        inst,
        f"group_norm, {groups} groups of {per_group} channels: two-pass mean and population variance in f32, rsqrt",
    )
    with b.loop_nest([n_batch, groups]) as (n_iv, g_iv):
        base = b.op(f"arith.muli {g_iv}, {b.index(per_group)} : index")
        chan: dict[str, str] = {}  # channel index per inner induction variable (computed once per loop body)

        def channel(ivs):
            # ivs[0] is the channel within the group; every pass has its own loop variables
            if ivs[0] not in chan:
                chan[ivs[0]] = b.op(f"arith.addi {base}, {ivs[0]} : index")
            return chan[ivs[0]]

        _normalize_rows(
            b,
            [per_group] + spatial,
            lambda ivs: [n_iv, channel(ivs)] + list(ivs[1:]),
            lambda ivs: [channel(ivs)],
            True,
            inst.attrs["eps"],
        )
    return b.finish()


def _vector_first(scalar: Callable[[KernelInstance], str]) -> Callable[[KernelInstance], str]:
    """The vector body (:mod:`.vector_rows`) where the shape and target allow it, else ``scalar``'s."""

    def emit(inst: KernelInstance) -> str:
        return vector_rows.emit(inst) or scalar(inst)

    return emit


EMITTERS: dict[str, Callable[[KernelInstance], str]] = {
    "softmax": _vector_first(emit_softmax),
    "rms_norm": _vector_first(emit_rms_norm),
    "layer_norm": _vector_first(emit_layer_norm),
    "group_norm": emit_group_norm,
}
