"""CPU forms of MIL's linear algebra, convolution, pooling and normalisation ops (coremltools 9.0
``ops/defs/iOS15/linear.py``, ``conv.py``, ``pool.py``, ``normalization.py``, iOS18 ``transformers.py``),
and npubuild's ``rms_norm`` extension op (docs/ane.md). Registered in :mod:`.cpu_ops_base`."""
from __future__ import annotations

import math

from ..ops.lazy_numpy import np
from .cpu_ops_base import _p, _per_channel, axis_of, register


def _t(v, flag) -> "np.ndarray":
    return np.swapaxes(v, -1, -2) if flag and v.ndim >= 2 else v


@register("matmul")
def _matmul(a):
    # linear.py matmul: transposes of the last two axes, rank-1 promotion and batch broadcasting: np.matmul's rules
    return np.matmul(_t(np.asarray(a.x), _p(a, "transpose_x", False)), _t(np.asarray(a.y), _p(a, "transpose_y", False)))


@register("linear")
def _linear(a):
    y = np.matmul(a.x, np.asarray(a.weight).T)
    return y + a.bias if a.get("bias") is not None else y


@register("einsum")
def _einsum(a):
    x = a["values"]
    return np.einsum(a.equation, *x)


# ---- windows: what conv and pooling read ---------------------------------------------------------------------------------

def pads(a, spatial: list, kernel: list, strides: list, dilations: list) -> list[tuple[int, int]]:
    """(begin, end) padding per spatial axis as conv.py / pool.py define pad_type: valid (none), custom
    (``pad`` = [begin0, end0, begin1, ...]), same (the output is ceil(in / stride); the odd pixel at the
    end) and same_lower (at the beginning)."""
    kind = _p(a, "pad_type", "valid")
    if kind == "custom":
        p = [int(v) for v in np.asarray(_p(a, "pad", [0] * 2 * len(spatial))).reshape(-1)]
        return [(p[2 * i], p[2 * i + 1]) for i in range(len(spatial))]
    if kind not in ("same", "same_lower"):
        return [(0, 0)] * len(spatial)
    out = []
    for n, k, s, d in zip(spatial, kernel, strides, dilations):
        total = max((math.ceil(n / s) - 1) * s + (k - 1) * d + 1 - n, 0)
        small, big = total // 2, total - total // 2
        out.append((small, big) if kind == "same" else (big, small))
    return out


def windows(x, kernel: list, strides: list, dilations: list, pad: list, value: float, out_spatial: list | None = None):
    """x [N, C, *S] as [N, C, *O, *K]: each output position's (dilated) window, padding filled with ``value``.
    ``out_spatial`` (the declared output size) extends the end padding where a pool's ceil_mode asks for it."""
    r = len(kernel)
    span = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    if out_spatial is not None:
        pad = [(b, max(e, (o - 1) * s + sp - n - b)) for (b, e), o, s, sp, n in zip(pad, out_spatial, strides, span, x.shape[2:])]
    xp = np.pad(x, [(0, 0), (0, 0), *pad], constant_values=value)
    w = np.lib.stride_tricks.sliding_window_view(xp, span, axis=tuple(range(2, 2 + r)))
    w = w[(slice(None), slice(None), *(slice(None, None, s) for s in strides), *(slice(None, None, d) for d in dilations))]
    if out_spatial is not None:
        w = w[(slice(None), slice(None), *(slice(0, o) for o in out_spatial))]
    return w


def _conv_params(a, x, kernel):
    r = len(kernel)
    strides = [int(s) for s in np.asarray(_p(a, "strides", [1] * r)).reshape(-1)]
    dilations = [int(d) for d in np.asarray(_p(a, "dilations", [1] * r)).reshape(-1)]
    return strides, dilations, pads(a, list(x.shape[2:]), kernel, strides, dilations)


@register("conv")
def _conv(a):
    x, w = np.asarray(a.x, np.float32), np.asarray(a.weight, np.float32)
    kernel = list(w.shape[2:])
    strides, dilations, pad = _conv_params(a, x, kernel)
    groups = int(_p(a, "groups", 1))
    win = windows(x, kernel, strides, dilations, pad, 0.0)  # [N, Cin, *O, *K]
    n, cin, r = x.shape[0], x.shape[1], len(kernel)
    cout = w.shape[0]
    win = win.reshape(n, groups, cin // groups, *win.shape[2:])
    wg = w.reshape(groups, cout // groups, cin // groups, *kernel)
    o, k = "opq"[:r], "uvw"[:r]
    y = np.einsum(f"ngc{o}{k},gdc{k}->ngd{o}", win, wg).reshape(n, cout, *win.shape[3:3 + r])
    if a.get("bias") is not None:
        y = y + _per_channel(a.bias, y.ndim)
    return y


@register("conv_transpose")
def _conv_transpose(a):
    # conv.py conv_transpose: each input pixel i adds x[i] * w at output i * stride + k * dilation (weight
    # [C_in, C_out / groups, *K]), then ``pad`` is taken off each end (custom; valid takes none; same and an
    # output_shape follow TF's convention, as coremltools' shape inference says it does: the declared size, the
    # odd pixel cut at the end)
    x, w = np.asarray(a.x, np.float32), np.asarray(a.weight, np.float32)
    kernel, r = list(w.shape[2:]), w.ndim - 2
    strides = [int(v) for v in np.asarray(_p(a, "strides", [1] * r)).reshape(-1)]
    dil = [int(v) for v in np.asarray(_p(a, "dilations", [1] * r)).reshape(-1)]
    groups = int(_p(a, "groups", 1))
    n, cin = x.shape[:2]
    cout = w.shape[1] * groups
    full = [(d - 1) * s + (k - 1) * dd + 1 for d, s, k, dd in zip(x.shape[2:], strides, kernel, dil)]
    out = np.zeros((n, cout, *full), np.float32)
    xg = x.reshape(n, groups, cin // groups, *x.shape[2:])
    wg = w.reshape(groups, cin // groups, cout // groups, *kernel)
    sp = "opq"[:r]
    for tap in np.ndindex(*kernel):
        contrib = np.einsum(f"ngc{sp},gcd->ngd{sp}", xg, wg[(slice(None),) * 3 + tap]).reshape(n, cout, *x.shape[2:])
        at = tuple(slice(t * d, t * d + (m - 1) * s + 1, s) for t, d, m, s in zip(tap, dil, x.shape[2:], strides))
        out[(slice(None), slice(None), *at)] += contrib
    want = list(a.out_shape[2:])
    if _p(a, "pad_type", "valid") == "custom":
        p = [int(v) for v in np.asarray(_p(a, "pad", [0] * 2 * r)).reshape(-1)]
        begin = [p[2 * i] for i in range(r)]
    else:
        begin = [max(f - o, 0) // 2 if _p(a, "pad_type", "valid") == "same" else 0 for f, o in zip(full, want)]
    y = out[(slice(None), slice(None), *(slice(b, b + o) for b, o in zip(begin, want)))]
    if list(y.shape[2:]) != want:  # an output_shape past the computed pixels: zeros, as TF pads them
        y = np.pad(y, [(0, 0), (0, 0), *((0, o - h) for o, h in zip(want, y.shape[2:]))])
    if a.get("bias") is not None:
        y = y + _per_channel(a.bias, y.ndim)
    return y


def _pool(a, reduce, value):
    x = np.asarray(a.x, np.float32)
    kernel = [int(k) for k in np.asarray(a.kernel_sizes).reshape(-1)]
    strides, _, pad = _conv_params(a, x, kernel)
    ceil = bool(_p(a, "ceil_mode", False))
    out = list(a.out_shape[2:]) if ceil else None
    win = windows(x, kernel, strides, [1] * len(kernel), pad, value, out)
    axes = tuple(range(-len(kernel), 0))
    return reduce(win, axes, x, kernel, strides, pad, out)


@register("max_pool")
def _max_pool(a):
    return _pool(a, lambda w, axes, *_: np.max(w, axis=axes), -np.inf)


@register("l2_pool")
def _l2_pool(a):
    return _pool(a, lambda w, axes, *_: np.sqrt(np.sum(np.square(w), axis=axes)), 0.0)


@register("avg_pool")
def _avg_pool(a):
    def mean(w, axes, x, kernel, strides, pad, out):
        total = np.sum(w, axis=axes)
        if not _p(a, "exclude_padding_from_average", False):
            return total / math.prod(kernel)
        ones = windows(np.ones((1, 1, *x.shape[2:]), np.float32), kernel, strides, [1] * len(kernel), pad, 0.0, out)
        return total / np.sum(ones, axis=axes)  # only the real pixels of each window count

    return _pool(a, mean, 0.0)


# ---- normalisation (normalization.py) ------------------------------------------------------------------------------------

def _scale_shift(a, y, shaped):
    """``y * gamma + beta``, each where given, laid out by ``shaped`` (the norms' optional affine step)."""
    if a.get("gamma") is not None:
        y = y * shaped(a.gamma)
    if a.get("beta") is not None:
        y = y + shaped(a.beta)
    return y


@register("layer_norm")
def _layer_norm(a):
    x = np.asarray(a.x, np.float32)
    axes = a.get("axes")
    axes = sorted({axis_of(d, x.ndim) for d in (range(x.ndim) if axes is None else np.atleast_1d(axes))})
    shape = [x.shape[i] if i in axes else 1 for i in range(x.ndim)]
    num = x - np.mean(x, axis=tuple(axes), keepdims=True)
    y = num / np.sqrt(np.mean(np.square(num), axis=tuple(axes), keepdims=True) + _p(a, "epsilon", 1e-5))
    return _scale_shift(a, y, lambda v: np.reshape(v, shape))


@register("batch_norm")
def _batch_norm(a):
    x = np.asarray(a.x, np.float32)
    y = (x - _per_channel(a.mean, x.ndim)) / np.sqrt(_per_channel(a.variance, x.ndim) + _p(a, "epsilon", 1e-5))
    return _scale_shift(a, y, lambda v: _per_channel(v, x.ndim))


@register("instance_norm")
def _instance_norm(a):
    x = np.asarray(a.x, np.float32)
    axes = tuple(range(2, x.ndim))  # per sample and channel, over the spatial axes
    num = x - np.mean(x, axis=axes, keepdims=True)
    y = num / np.sqrt(np.mean(np.square(num), axis=axes, keepdims=True) + _p(a, "epsilon", 1e-5))
    return _scale_shift(a, y, lambda v: _per_channel(v, x.ndim))


@register("l2_norm")
def _l2_norm(a):
    # the last three axes are normalised together, the leading ones are batch (value_inference; its
    # rank-3 case adds epsilon inside the root as the batched one does)
    x = np.asarray(a.x, np.float32)
    flat = x.reshape(int(np.prod(x.shape[:-3], dtype=np.int64)), -1)
    return (flat / np.sqrt(np.sum(flat * flat, axis=1, keepdims=True) + _p(a, "epsilon", 1e-6))).reshape(x.shape)


@register("rms_norm")
def _rms_norm(a):
    # npubuild's extension op: y = x / sqrt(mean(x², last axis) + eps) * w
    x = np.asarray(a.x, np.float32)
    y = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + _p(a, "eps", 1e-5))
    return y * np.asarray(a.w).reshape(-1) if a.get("w") is not None else y


@register("scaled_dot_product_attention")
def _sdpa(a):
    # iOS18 transformers.py: softmax(Q K^T / sqrt(d) + mask) V; a bool mask keeps where true (-inf elsewhere)
    q, k, v = (np.asarray(t, np.float32) for t in (a.query, a.key, a.value))
    s = np.matmul(q, np.swapaxes(k, -1, -2)) / np.float32(math.sqrt(q.shape[-1]))
    m = a.get("attn_mask")
    if m is not None:
        m = np.asarray(m)
        s = np.where(m, s, -np.inf) if m.dtype == bool else s + m
    with np.errstate(all="ignore"):
        e = np.exp(s - np.max(s, axis=-1, keepdims=True))
        return np.matmul(e / np.sum(e, axis=-1, keepdims=True), v)


# ---- bilinear resizing (image_resizing.py: the grid of input positions each output samples, per mode) --------------------

def _grid(n_in: int, n_out: int, mode: str):
    """The input positions sampled along one axis, as the op's Notes define them for each sampling mode."""
    i = np.arange(n_out, dtype=np.float64)
    if mode in ("STRICT_ALIGN_CORNERS", "ALIGN_CORNERS"):
        if n_out == 1:
            g = np.full(1, (n_in - 1) / 2 if mode == "ALIGN_CORNERS" else 0.0)
        else:
            g = i * (n_in - 1) / (n_out - 1)
    elif mode == "DEFAULT":
        g = i * (n_in - n_in / n_out) / (n_out - 1) if n_out > 1 else np.zeros(1)
    elif mode == "OFFSET_CORNERS":
        delta = max(1, n_in - 1) / n_out
        g = 0.5 * delta + i * delta
    else:  # UNALIGN_CORNERS
        g = i * n_in / n_out + 0.5 * n_in / n_out - 0.5
    return np.clip(g, 0, n_in - 1)


def _lerp(x, axis: int, grid):
    lo = np.floor(grid).astype(np.int64)
    hi = np.minimum(lo + 1, x.shape[axis] - 1)
    w = (grid - lo).reshape([-1] + [1] * (x.ndim - 1 - axis % x.ndim))
    return np.take(x, lo, axis=axis) * (1 - w) + np.take(x, hi, axis=axis) * w


def _bilinear(x, out_hw, modes):
    y = _lerp(np.asarray(x, np.float64), -2, _grid(x.shape[-2], out_hw[0], modes))
    return _lerp(y, -1, _grid(x.shape[-1], out_hw[1], modes))


@register("resize_bilinear")
def _resize_bilinear(a):
    return _bilinear(a.x, a.out_shape[-2:], _p(a, "sampling_mode", "DEFAULT"))


@register("upsample_bilinear")
def _upsample_bilinear(a):
    # the output size is the declared one (the scale recomputed from it, as the op says); align_corners default true
    return _bilinear(a.x, a.out_shape[-2:], "STRICT_ALIGN_CORNERS" if _p(a, "align_corners", True) else "UNALIGN_CORNERS")
