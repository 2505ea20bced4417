"""resize (ONNX Resize, opset 19): nearest or N-linear resampling of every axis.

The output size of axis ``i`` is ``sizes[i]``, or ``floor(x.shape[i] · scales[i])`` (the scale as an
f32, ONNX's float tensor); give exactly one of the two, one entry per axis. Output coordinate ``o``
of an axis maps to the input coordinate ``x_ori`` by ``coordinate_transformation_mode``, with the
scale ``s`` (``sizes / shape`` when sizes are given) and ``W = s · shape`` (ONNX's reference keeps
that product a float):

* ``half_pixel`` (default): ``(o + 0.5) / s - 0.5``;
* ``half_pixel_symmetric``: the same plus ``shape/2 · (1 - floor(W)/W)`` (centres the canvas);
* ``pytorch_half_pixel``: ``(o + 0.5) / s - 0.5``, or ``-0.5`` when ``W == 1``;
* ``align_corners``: ``o · (shape - 1) / (W - 1)``, or ``0`` when ``W == 1``;
* ``asymmetric``: ``o / s``.

``nearest`` takes input index ``floor(x_ori)``, ``+1`` by ``nearest_mode`` (``round_prefer_floor``:
when the fraction is above 0.5; ``round_prefer_ceil``: at least 0.5; ``floor``: never; ``ceil``:
when there is a fraction); ``linear`` is ``(1 - r)·x[floor] + r·x[floor + 1]`` per axis with ``r``
the fraction, axis after axis. Indices outside the axis take its edge value (ONNX's reference pads
with the edge). ``tf_crop_and_resize`` (which needs ``roi``), ``cubic``, ``antialias``, ``axes``,
``exclude_outside`` and ``keep_aspect_ratio_policy`` other than ``stretch`` are not taken.

:func:`axis_maps` is pure Python: shape inference and the host emitter's index tables use it.
"""
from __future__ import annotations

import math
import struct

from ..core.errors import OpError
from .lazy_numpy import np
from .registry import FLOAT_DTYPES, Attr, OpDef, fmt_shape, register

COORDINATE_MODES = ("half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric")
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


def _f32(v: float) -> float:
    return struct.unpack("<f", struct.pack("<f", v))[0]


def _check_scales(v):
    if any(not (0 < s < math.inf) or _f32(s) == 0 for s in v):
        return f"must be positive finite numbers (f32), got {v}"
    return None


def _check_sizes(v):
    if any(s < 1 for s in v):
        return f"must be at least 1, got {v}"
    return None


def axis_scales(shape, attrs) -> list[tuple[int, float]]:
    """(output length, scale) per axis; OpError unless exactly one of scales and sizes fits the rank."""
    scales, sizes = attrs["scales"], attrs["sizes"]
    if bool(scales) == bool(sizes):
        raise OpError("resize: give exactly one of scales and sizes " + ("(both are given)" if scales else "(neither is)"))
    given = scales or sizes
    if len(given) != len(shape):
        raise OpError(f"resize: {'scales' if scales else 'sizes'} {list(given)} needs one entry per axis of x "
                      f"{fmt_shape(shape)}")
    if sizes:
        return [(o, o / n) for o, n in zip(sizes, shape)]
    out = []
    for s, n in zip(scales, shape):
        s = _f32(s)
        o = math.floor(s * n)
        if o < 1:
            raise OpError(f"resize: scale {s} leaves no element of an axis of {n} (floor({n} * {s}) = {o})")
        out.append((o, s))
    return out


def source_coordinate(mode: str, o: int, n: int, out_len: int, scale: float) -> float:
    """x_ori of output coordinate ``o`` (the module docstring's formulas, in float64)."""
    width = scale * n
    if mode == "align_corners":
        return 0.0 if width == 1 else o * (n - 1) / (width - 1)
    if mode == "asymmetric":
        return o / scale
    if mode == "pytorch_half_pixel" and width == 1:
        return -0.5
    x = (o + 0.5) / scale - 0.5
    if mode == "half_pixel_symmetric":
        x += n / 2 * (1 - out_len / width)
    return x


def _clamp(i: int, n: int) -> int:
    return min(max(i, 0), n - 1)


def axis_maps(shape, attrs) -> list[list[tuple[int, int, float]]]:
    """Per axis, per output coordinate: (first input index, second input index, weight of the second).
    nearest: both indices are the chosen one and the weight 0."""
    maps = []
    for n, (out_len, scale) in zip(shape, axis_scales(shape, attrs)):
        entries = []
        for o in range(out_len):
            x = source_coordinate(attrs["coordinate_transformation_mode"], o, n, out_len, scale)
            lo = math.floor(x)
            r = x - lo
            if attrs["mode"] == "nearest":
                up = {"round_prefer_floor": r > 0.5, "round_prefer_ceil": r >= 0.5, "floor": False, "ceil": r > 0}
                i = _clamp(lo + int(up[attrs["nearest_mode"]]), n)
                entries.append((i, i, 0.0))
            else:
                entries.append((_clamp(lo, n), _clamp(lo + 1, n), r))
        maps.append(entries)
    return maps


def _infer(shapes, attrs):
    x = tuple(shapes[0])
    if not x:
        raise OpError("resize: x must have rank >= 1")
    return tuple(o for o, _ in axis_scales(x, attrs))


def _resize(xs, attrs):
    """Axis after axis: gather the two neighbours and blend them in float64; rounded once to the dtype."""
    x = xs[0]
    y = x.astype(np.float64)
    for axis, entries in enumerate(axis_maps(x.shape, attrs)):
        i0 = np.array([e[0] for e in entries], dtype=np.int64)
        i1 = np.array([e[1] for e in entries], dtype=np.int64)
        r = np.array([e[2] for e in entries]).reshape([-1 if k == axis else 1 for k in range(x.ndim)])
        a, b = np.take(y, i0, axis=axis), np.take(y, i1, axis=axis)
        with np.errstate(invalid="ignore"):
            y = np.where(r == 0, a, (1 - r) * a + r * b)  # r == 0: the neighbour, even when the other is inf
    return y.astype(x.dtype)


register(
    OpDef(
        name="resize",
        family="resize",
        doc="nearest or N-linear resampling of every axis (ONNX Resize, opset 19: scales or sizes, five "
        "coordinate transformation modes, four nearest modes)",
        inputs=("x",),
        infer=_infer,
        oracle=_resize,
        attrs=(
            Attr("mode", "str", "nearest", ("nearest", "linear"), "nearest neighbour, or linear along every axis"),
            Attr("scales", "floats", [], doc="output/input size per axis (f32); give this or sizes",
                 check=_check_scales),
            Attr("sizes", "ints", [], doc="output size per axis; give this or scales", check=_check_sizes),
            Attr("coordinate_transformation_mode", "str", "half_pixel", COORDINATE_MODES,
                 "how an output coordinate maps to the input (ONNX's formulas; tf_crop_and_resize is not taken)"),
            Attr("nearest_mode", "str", "round_prefer_floor", NEAREST_MODES, "rounding of the input coordinate "
                 "in nearest mode"),
        ),
        dtypes=FLOAT_DTYPES,
    )
)
