"""conv_transpose (ONNX ConvTranspose, 2-D, NCHW): the gradient of a convolution with respect to
its input, i.e. every input pixel spreads its value times the kernel over the output.

``x`` is ``[N, C, H, W]`` and ``w`` is ``[C, M/group, kH, kW]`` (ONNX's layout); the output is
``[N, M, Ho, Wo]`` with ``Ho = strides[0]·(H-1) + output_padding[0] + dilations[0]·(kH-1) + 1
- pads[0] - pads[2]`` (and the same for W with the second entries), ONNX's formula. Input pixel
``(ih, iw)`` of channel ``c`` (group ``g = c // (C/group)``) adds ``x · w[c, m - g·M/group, kh,
kw]`` to output ``(ih·sh - pads[0] + kh·dh, iw·sw - pads[1] + kw·dw)`` of every channel ``m`` of
group ``g``; contributions outside the output are dropped. ONNX's optional bias ``B`` is an
``add`` of a ``[M, 1, 1]`` tensor after this op; ``auto_pad`` and ``output_shape`` are not taken:
give ``pads`` (ONNX order ``[top, left, bottom, right]``) and ``output_padding``.
"""
from __future__ import annotations

from ..core.errors import OpError
from .lazy_numpy import np
from .registry import FLOAT_DTYPES, Attr, OpDef, fmt_shape, register


def _nonneg(n: int, what: str):
    def check(v):
        if len(v) != n:
            return f"must have {n} entries ({what}), got {len(v)}"
        if any(e < 0 for e in v):
            return f"must be non-negative, got {v}"
        return None

    return check


def _positive(n: int, what: str):
    def check(v):
        if len(v) != n:
            return f"must have {n} entries ({what}), got {len(v)}"
        if any(e < 1 for e in v):
            return f"must be at least 1, got {v}"
        return None

    return check


def geometry(shapes, attrs) -> dict:
    """Sizes of one instance: n, c, h, w (input), m, kh, kw, cg (channels per group), mg (outputs per
    group), ho, wo (output); OpError for shapes that do not fit."""
    x, w = tuple(shapes[0]), tuple(shapes[1])
    if len(x) != 4 or len(w) != 4:
        raise OpError(f"conv_transpose: x must be [N, C, H, W] and w [C, M/group, kH, kW], got x {fmt_shape(x)} "
                      f"and w {fmt_shape(w)}")
    n, c, h, wd = x
    group = attrs["group"]
    if w[0] != c:
        raise OpError(f"conv_transpose: w {fmt_shape(w)} must have x's {c} input channels first (ONNX layout "
                      f"[C, M/group, kH, kW])")
    if c % group:
        raise OpError(f"conv_transpose: group {group} must divide the {c} input channels")
    (sh, sw), (dh, dw) = attrs["strides"], attrs["dilations"]
    pt, pl, pb, pr = attrs["pads"]
    oph, opw = attrs["output_padding"]
    kh, kw = w[2], w[3]
    ho = sh * (h - 1) + oph + dh * (kh - 1) + 1 - pt - pb
    wo = sw * (wd - 1) + opw + dw * (kw - 1) + 1 - pl - pr
    if ho < 1 or wo < 1:
        raise OpError(f"conv_transpose: pads {attrs['pads']} leave an output of {ho} x {wo} for x {fmt_shape(x)} "
                      f"and a {kh} x {kw} kernel; make them smaller")
    return {"n": n, "c": c, "h": h, "w": wd, "m": w[1] * group, "kh": kh, "kw": kw, "cg": c // group,
            "mg": w[1], "ho": ho, "wo": wo}


def _infer(shapes, attrs):
    g = geometry(shapes, attrs)
    return (g["n"], g["m"], g["ho"], g["wo"])


def _conv_transpose(xs, attrs):
    """The definition's scatter: each kernel tap adds x·w to a strided window of the output, in float64,
    rounded once to the dtype."""
    x, w = (a.astype(np.float64) for a in xs)
    g = geometry([x.shape, w.shape], attrs)
    (sh, sw), (dh, dw) = attrs["strides"], attrs["dilations"]
    pt, pl = attrs["pads"][0], attrs["pads"][1]
    # the full output before cropping the pads: every tap lands inside it
    full_h = sh * (g["h"] - 1) + dh * (g["kh"] - 1) + 1 + attrs["output_padding"][0]
    full_w = sw * (g["w"] - 1) + dw * (g["kw"] - 1) + 1 + attrs["output_padding"][1]
    full = np.zeros((g["n"], g["m"], max(full_h, pt + g["ho"]), max(full_w, pl + g["wo"])))
    groups = g["c"] // g["cg"]
    with np.errstate(invalid="ignore", over="ignore"):
        for gi in range(groups):
            xg = x[:, gi * g["cg"] : (gi + 1) * g["cg"]]
            wg = w[gi * g["cg"] : (gi + 1) * g["cg"]]
            for i in range(g["kh"]):
                for j in range(g["kw"]):
                    contrib = np.einsum("nchw,cm->nmhw", xg, wg[:, :, i, j])
                    full[:, gi * g["mg"] : (gi + 1) * g["mg"],
                         i * dh : i * dh + sh * (g["h"] - 1) + 1 : sh,
                         j * dw : j * dw + sw * (g["w"] - 1) + 1 : sw] += contrib
    return full[:, :, pt : pt + g["ho"], pl : pl + g["wo"]].astype(xs[0].dtype)


register(
    OpDef(
        name="conv_transpose",
        family="conv_transpose",
        doc="2-D transposed convolution, NCHW (ONNX ConvTranspose without bias: add one after it)",
        inputs=("x", "w"),
        infer=_infer,
        oracle=_conv_transpose,
        attrs=(
            Attr("strides", "ints", [1, 1], doc="[sh, sw]: input pixels land sh, sw outputs apart",
                 check=_positive(2, "[sh, sw]")),
            Attr("pads", "ints", [0, 0, 0, 0], doc="[top, left, bottom, right] cropped off the output (ONNX order)",
                 check=_nonneg(4, "[top, left, bottom, right]")),
            Attr("dilations", "ints", [1, 1], doc="[dh, dw]: spacing between kernel taps",
                 check=_positive(2, "[dh, dw]")),
            Attr("output_padding", "ints", [0, 0], doc="[oh, ow] added to the bottom and right of the output",
                 check=_nonneg(2, "[oh, ow]")),
            Attr("group", "int", 1, doc="channel groups: divides C; M = group * w.shape[1]",
                 check=lambda v: None if v >= 1 else f"must be at least 1, got {v}"),
        ),
        dtypes=FLOAT_DTYPES,
    )
)
