"""Result types of MIL's image resizing ops (rules for :mod:`.mil_types`).

Each rule follows the ``type_inference`` of coremltools 9.0's definition:
``defs/iOS15/image_resizing.py`` (upsample_nearest_neighbor, resize_nearest_neighbor,
upsample_bilinear, resize_bilinear, crop_resize, crop, affine, resample),
``defs/iOS16/image_resizing.py`` (crop_resize's pad_value, upsample_bilinear's
half_pixel_centers, resample's domains) and ``defs/iOS17/image_resizing.py``
(crop_resize with boxes and box_indices, resize).
"""
from __future__ import annotations

import math

from ..ops.lazy_numpy import np
from .mil_shapes import Bad, Operands, T, dims, known, need_rank, size

SAMPLING = ("STRICT_ALIGN_CORNERS", "ALIGN_CORNERS", "UNALIGN_CORNERS", "DEFAULT", "OFFSET_CORNERS")
BOX_MODES = ("CORNERS_HEIGHT_FIRST", "CORNERS_WIDTH_FIRST", "CENTER_SIZE_HEIGHT_FIRST", "CENTER_SIZE_WIDTH_FIRST")


def _rank3(a: Operands) -> list:
    xs = list(need_rank(a.type("x")))
    if len(xs) < 3:
        raise Bad(f"x {dims(xs)} must have rank 3 or more")
    return xs


def _one_of(a: Operands, key: str, allowed, default) -> str:
    v = a.text(key, default)
    if v not in allowed:
        raise Bad(f"{key} {v!r} is not one of {', '.join(allowed)}")
    return v


def upsample(a: Operands) -> list[T]:
    """upsample_nearest_neighbor / upsample_bilinear: the last two dims times scale_factor_height /
    scale_factor_width (default 1), floored."""
    xs = _rank3(a)
    for i, k in ((-1, "scale_factor_width"), (-2, "scale_factor_height")):
        f = float(np.asarray(a.const(k, 1)).reshape(-1)[0])
        xs[i] = int(math.floor(f * xs[i])) if known(xs[i]) else -1
        if known(xs[i]) and xs[i] < 0:
            raise Bad(f"{k} {f:g} is negative")
    return [T(a.type("x").dtype, tuple(xs))]


def resize_nearest_neighbor(a: Operands) -> list[T]:
    """resize_nearest_neighbor: the last two dims become target_size_height, target_size_width."""
    xs = _rank3(a)
    xs[-1], xs[-2] = (size(a.int(k), k) for k in ("target_size_width", "target_size_height"))
    return [T(a.type("x").dtype, tuple(xs))]


def resize_bilinear(a: Operands) -> list[T]:
    """resize_bilinear: the last two dims become target_size_height, target_size_width (default 1);
    sampling_mode (default DEFAULT) is one of coremltools' five."""
    xs = _rank3(a)
    _one_of(a, "sampling_mode", SAMPLING, "DEFAULT")
    xs[-1], xs[-2] = (size(a.int(k, 1), k) for k in ("target_size_width", "target_size_height"))
    return [T(a.type("x").dtype, tuple(xs))]


def crop(a: Operands) -> list[T]:
    """crop: crop_height and crop_width (2 values each) come off the last two dims; cropping more than a
    dim holds is refused (coremltools infers a negative dim)."""
    xs = _rank3(a)
    for i, k in ((-2, "crop_height"), (-1, "crop_width")):
        c = a.ints(k)
        if len(c) != 2:
            raise Bad(f"{k} {c} must have 2 values")
        if known(xs[i]):
            xs[i] -= c[0] + c[1]
            if xs[i] < 0:
                raise Bad(f"{k} {c} removes more than dimension {i} of x holds")
    return [T(a.type("x").dtype, tuple(xs))]


def crop_resize(a: Operands) -> list[T]:
    """crop_resize: x [B, C, H, W]; iOS15/16 roi [N, *, *, *, *] -> [N, B, C, target_height,
    target_width]; iOS17 boxes [N, 4] and box_indices [N] (int32 or uint16, each below B) -> [N, C,
    target_height, target_width]. Targets default to 1; box_coordinate_mode and sampling_mode are checked."""
    x = a.type("x")
    xs = need_rank(x)
    if len(xs) != 4:
        raise Bad(f"x {dims(xs)} must have rank 4")
    th, tw = (size(a.int(k, 1), k) for k in ("target_height", "target_width"))
    if a.version < 17:
        rs = need_rank(a.type("roi"), "roi")
        if len(rs) != 5:
            raise Bad(f"roi {dims(rs)} must have rank 5")
        _one_of(a, "box_coordinate_mode", BOX_MODES, "CORNERS_HEIGHT_FIRST")
        _one_of(a, "sampling_mode", SAMPLING, "DEFAULT")
        return [T(x.dtype, (rs[0], xs[0], xs[1], th, tw))]
    b = a.type("boxes")
    bs = need_rank(b, "boxes")
    if len(bs) != 2 or (known(bs[1]) and bs[1] != 4):
        raise Bad(f"boxes {dims(bs)} must be [N, 4]")
    if a.has("box_indices"):
        ins = need_rank(a.type("box_indices"), "box_indices")
        if len(ins) != 1 or (known(ins[0]) and known(bs[0]) and ins[0] != bs[0]):
            raise Bad(f"box_indices {dims(ins)} must be [{bs[0]}], one per box")
        v = a.known("box_indices")
        if v is not None and known(xs[0]) and np.any(np.asarray(v) >= xs[0]):
            raise Bad(f"box_indices {np.asarray(v).reshape(-1).tolist()} must be below x's B ({xs[0]})")
    elif known(bs[0]) and known(xs[0]) and bs[0] > xs[0]:
        raise Bad(f"without box_indices, boxes' N ({bs[0]}) must not exceed x's B ({xs[0]})")
    _one_of(a, "box_coordinate_mode", BOX_MODES, "CORNERS_HEIGHT_FIRST")
    _one_of(a, "sampling_mode", SAMPLING, "DEFAULT")
    if a.flag("normalized_coordinates") and b.dtype not in ("fp16", "fp32"):
        raise Bad(f"normalized_coordinates needs fp16 or fp32 boxes, not {b.dtype}")
    return [T(x.dtype, (bs[0], xs[1], th, tw))]


def affine(a: Operands) -> list[T]:
    """affine: x [N, C, H, W], transform_matrix [*, 6] -> [N, C, output_height, output_width]; coremltools
    implements only sampling_mode bilinear, coordinates_mode normalized_minus_one_to_one and
    padding_mode constant with padding_value 0."""
    x = a.type("x")
    xs = list(need_rank(x))
    ms = need_rank(a.type("transform_matrix"), "transform_matrix")
    if len(xs) != 4:
        raise Bad(f"x {dims(xs)} must have rank 4")
    if len(ms) != 2:
        raise Bad(f"transform_matrix {dims(ms)} must have rank 2")
    if a.text("sampling_mode").lower() != "bilinear":
        raise Bad(f"sampling_mode {a.text('sampling_mode')!r} is not bilinear, the one coremltools implements")
    if a.text("coordinates_mode").lower() != "normalized_minus_one_to_one":
        raise Bad(f"coordinates_mode {a.text('coordinates_mode')!r} is not normalized_minus_one_to_one, the one "
                  "coremltools implements")
    if a.text("padding_mode").lower() != "constant" or float(np.asarray(a.const("padding_value")).reshape(-1)[0]) != 0:
        raise Bad("coremltools implements only padding_mode constant with padding_value 0")
    if known(ms[-1]) and ms[-1] != 6:
        raise Bad(f"transform_matrix {dims(ms)} must have 6 values per row")
    xs[2], xs[3] = (size(a.int(k), k) for k in ("output_height", "output_width"))
    return [T(x.dtype, tuple(xs))]


def resample(a: Operands) -> list[T]:
    """resample: x [N, C, H, W], coordinates [N, H_out, W_out, 2] -> [N, C, H_out, W_out]."""
    x = a.type("x")
    xs = list(need_rank(x))
    cs = need_rank(a.type("coordinates"), "coordinates")
    if len(xs) != 4 or len(cs) != 4:
        raise Bad(f"x {dims(xs)} and coordinates {dims(cs)} must have rank 4")
    if known(xs[0]) and known(cs[0]) and xs[0] != cs[0]:
        raise Bad(f"x {dims(xs)} and coordinates {dims(cs)} differ in batch size")
    if known(cs[-1]) and cs[-1] != 2:
        raise Bad(f"coordinates {dims(cs)} must end in 2 (x, y)")
    xs[2], xs[3] = cs[1], cs[2]
    return [T(x.dtype, tuple(xs))]


def resize(a: Operands) -> list[T]:
    """defs/iOS17/image_resizing.py resize: the last resized_dims dims of x become the last resized_dims
    values of shape (0 keeps x's dim; unknown when shape is computed at run time)."""
    x, s = a.type("x"), a.type("shape")
    xs = list(need_rank(x))
    rd = a.int("resized_dims")
    v = a.known("shape")
    if v is not None:
        n = np.asarray(v).size
        if rd > n:
            raise Bad(f"resized_dims {rd} exceeds shape's {n} values")
        if n > len(xs):
            raise Bad(f"shape has {n} values; x {dims(xs)} has rank {len(xs)}")
    if s.shape is None or len(s.shape) != 1:
        raise Bad(f"shape must be a vector, not {s}")
    _one_of(a, "interpolation_mode", ("LINEAR", "NEAREST_NEIGHBOR"), "LINEAR")
    _one_of(a, "sampling_mode", ("DEFAULT", "STRICT_ALIGN_CORNERS", "ALIGN_CORNERS", "OFFSET_CORNERS", "UNALIGN_CORNERS"),
            "DEFAULT")
    if rd > len(xs):
        raise Bad(f"resized_dims {rd} exceeds x's rank {len(xs)}")
    vals = None if v is None else [int(i) for i in np.asarray(v).reshape(-1)]
    start = (len(vals) if vals is not None else s.shape[0]) - rd
    for i in range(rd):
        j = len(xs) - rd + i
        t = -1 if vals is None or start < 0 else size(vals[start + i], "shape's value")
        xs[j] = xs[j] if t == 0 else t
    return [T(x.dtype, tuple(xs))]
