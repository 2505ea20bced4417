"""Neural-network building blocks: rotary embedding, 2-D pooling and im2col
(attention is in attention.py).

Float oracles compute in float64 and round once to the op's dtype.
"""
from __future__ import annotations

from ..core.errors import OpError
from .lazy_numpy import np
from .registry import (
    FLOAT_DTYPES,
    NUMERIC_DTYPES,
    Attr,
    OpDef,
    fmt_shape,
    numel,
    register,
)


# ---- rope --------------------------------------------------------------------------------


def _rope_dims(x, attrs) -> tuple[int, int, int]:
    """(tokens T, heads H, n_rot) for x = [..., H * head_dim]."""
    hd = attrs["head_dim"]
    if len(x) < 1:
        raise OpError("rope: x must have rank >= 1 ([..., heads * head_dim]), got a scalar")
    if hd <= 0:
        raise OpError(f"rope: head_dim must be positive, got {hd}")
    hidden = x[-1]
    if hidden % hd:
        raise OpError(f"rope: the last dim of x ({hidden}) is not a multiple of head_dim ({hd})")
    n_rot = attrs["n_rot"] or hd
    if n_rot < 0 or n_rot % 2 or n_rot > hd:
        raise OpError(f"rope: n_rot must be even and in 2..head_dim ({hd}), got {attrs['n_rot']}")
    return numel(x[:-1]), hidden // hd, n_rot


def _infer_rope(shapes, attrs):
    x = tuple(shapes[0])
    t, _, n_rot = _rope_dims(x, attrs)
    want = (t, n_rot // 2)
    for name, s in (("cos", shapes[1]), ("sin", shapes[2])):
        if tuple(s) != want:
            raise OpError(
                f"rope: {name} must have shape {fmt_shape(want)} ([tokens, n_rot/2], tokens = product of x's dims "
                f"except the last), got {fmt_shape(s)}"
            )
    return x


def _rope(xs, attrs):
    x, cos, sin = xs
    t, h, n_rot = _rope_dims(x.shape, attrs)
    half = n_rot // 2
    w = x.astype("float64").reshape(t, h, attrs["head_dim"])
    c = cos.astype("float64").reshape(t, 1, half)
    s = sin.astype("float64").reshape(t, 1, half)
    y = w.copy()
    if attrs["style"] == "neox":
        a, b = w[..., :half], w[..., half:n_rot]
        y[..., :half] = a * c - b * s
        y[..., half:n_rot] = b * c + a * s
    else:
        a, b = w[..., 0:n_rot:2], w[..., 1:n_rot:2]
        y[..., 0:n_rot:2] = a * c - b * s
        y[..., 1:n_rot:2] = b * c + a * s
    return y.reshape(x.shape).astype(x.dtype)


# ---- pool / im2col -----------------------------------------------------------------------


def _window_attrs(op: str, x, attrs, dilations: bool) -> tuple:
    """Validate the NCHW window attrs; return (kh, kw, sh, sw, ph, pw, dh, dw, ho, wo)."""
    if len(x) != 4:
        raise OpError(f"{op}: x must be NCHW (rank 4), got {fmt_shape(x)}")
    names = ("kernel_size", "strides", "pads") + (("dilations",) if dilations else ())
    for name in names:
        if len(attrs[name]) != 2:
            raise OpError(f"{op}: {name} must have 2 entries (h, w), got {fmt_shape(attrs[name])}")
    (kh, kw), (sh, sw), (ph, pw) = attrs["kernel_size"], attrs["strides"], attrs["pads"]
    dh, dw = attrs["dilations"] if dilations else (1, 1)
    if min(kh, kw, sh, sw, dh, dw) < 1:
        raise OpError(f"{op}: kernel_size, strides and dilations must be >= 1")
    if min(ph, pw) < 0:
        raise OpError(f"{op}: pads must be non-negative, got {fmt_shape(attrs['pads'])}")
    ekh, ekw = dh * (kh - 1) + 1, dw * (kw - 1) + 1  # effective (dilated) kernel extent
    h, w = x[2] + 2 * ph, x[3] + 2 * pw
    if h < ekh or w < ekw:
        raise OpError(f"{op}: the {kh}x{kw} window does not fit the padded {h}x{w} input (from {fmt_shape(x)})")
    return kh, kw, sh, sw, ph, pw, dh, dw, (h - ekh) // sh + 1, (w - ekw) // sw + 1


def _infer_pool(shapes, attrs):
    x = tuple(shapes[0])
    kh, kw, _, _, ph, pw, _, _, ho, wo = _window_attrs("pool", x, attrs, dilations=False)
    if ph > kh // 2 or pw > kw // 2:
        raise OpError(
            f"pool: pads {fmt_shape(attrs['pads'])} must be at most half the kernel {fmt_shape(attrs['kernel_size'])}"
        )
    return (x[0], x[1], ho, wo)


def _windows(xp, kh, kw, sh, sw, dh, dw, ho, wo):
    """Yield the [N, C, ho, wo] view for every kernel offset (ki, kj)."""
    for ki in range(kh):
        for kj in range(kw):
            r0, c0 = ki * dh, kj * dw
            yield xp[:, :, r0 : r0 + sh * (ho - 1) + 1 : sh, c0 : c0 + sw * (wo - 1) + 1 : sw]


def _pool(xs, attrs):
    x = xs[0]
    kh, kw, sh, sw, ph, pw, dh, dw, ho, wo = _window_attrs("pool", x.shape, attrs, dilations=False)
    mode = attrs["mode"]
    pads = ((0, 0), (0, 0), (ph, ph), (pw, pw))
    fill = -np.inf if mode == "max" else 0.0
    xp = np.pad(x.astype("float64"), pads, constant_values=fill)
    wins = list(_windows(xp, kh, kw, sh, sw, dh, dw, ho, wo))
    if mode == "max":
        y = np.maximum.reduce(wins)
    else:
        y = np.sum(wins, axis=0)
        if mode == "avg":
            if attrs["count_include_pad"]:
                y = y / (kh * kw)
            else:
                ones = np.pad(np.ones((1, 1) + x.shape[2:]), pads)
                y = y / np.sum(list(_windows(ones, kh, kw, sh, sw, dh, dw, ho, wo)), axis=0)
    return y.astype(x.dtype)


def _infer_im2col(shapes, attrs):
    x = tuple(shapes[0])
    kh, kw, _, _, _, _, _, _, ho, wo = _window_attrs("im2col", x, attrs, dilations=True)
    return (x[0] * ho * wo, x[1] * kh * kw)


def _im2col(xs, attrs):
    x = xs[0]
    kh, kw, sh, sw, ph, pw, dh, dw, ho, wo = _window_attrs("im2col", x.shape, attrs, dilations=True)
    n, c = x.shape[:2]
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    cols = np.stack(list(_windows(xp, kh, kw, sh, sw, dh, dw, ho, wo)), axis=2)  # [N, C, kh*kw, ho, wo]
    return cols.transpose(0, 3, 4, 1, 2).reshape(n * ho * wo, c * kh * kw)


_KERNEL = Attr("kernel_size", "ints", doc="window [kh, kw]")
_STRIDES = Attr("strides", "ints", [1, 1], doc="window step [sh, sw]")
_PADS = Attr("pads", "ints", [0, 0], doc="symmetric padding [ph, pw] added to both sides of h and w")

register(
    OpDef(
        name="rope",
        family="rope",
        doc="rotary position embedding of each head of x [..., heads*head_dim] with cos, sin [tokens, n_rot/2]",
        inputs=("x", "cos", "sin"),
        infer=_infer_rope,
        oracle=_rope,
        attrs=(
            Attr("head_dim", "int", doc="size of one head; the last dim of x is heads * head_dim"),
            Attr("n_rot", "int", 0, doc="rotated dims at the start of each head (even, <= head_dim); 0 means head_dim"),
            Attr(
                "style",
                "str",
                "neox",
                ("neox", "gptj"),
                "neox: rotate the halves (x[i], x[i + n_rot/2]); gptj: rotate interleaved pairs (x[2i], x[2i+1])",
            ),
        ),
        dtypes=FLOAT_DTYPES,
    ),
    OpDef(
        name="pool",
        family="pool",
        doc="2-D max/avg/sum pooling of x NCHW; output [N, C, (H + 2ph - kh) // sh + 1, (W + 2pw - kw) // sw + 1]",
        inputs=("x",),
        infer=_infer_pool,
        oracle=_pool,
        attrs=(
            Attr("mode", "str", choices=("max", "avg", "sum"), doc="max (padding is -inf), avg or sum (padding is 0)"),
            _KERNEL,
            _STRIDES,
            Attr("pads", "ints", [0, 0], doc="symmetric padding [ph, pw] on both sides of h and w; at most half the kernel"),
            Attr(
                "count_include_pad",
                "bool",
                False,
                doc="avg only: true divides by kh*kw; false (ONNX default) by the number of non-padding elements",
            ),
        ),
        dtypes=FLOAT_DTYPES,
    ),
    OpDef(
        name="im2col",
        family="im2col",
        doc="unfold x NCHW into [N*Ho*Wo, C*kh*kw]: rows (n, ho, wo), columns (c, ki, kj), zero padding "
        "(PyTorch unfold, transposed)",
        inputs=("x",),
        infer=_infer_im2col,
        oracle=_im2col,
        attrs=(
            _KERNEL,
            _STRIDES,
            _PADS,
            Attr("dilations", "ints", [1, 1], doc="spacing [dh, dw] between kernel taps"),
        ),
        dtypes=NUMERIC_DTYPES,
    ),
)
