"""Result types of MIL's pooling ops and conv_transpose (rules for :mod:`.mil_types`).

Pooling follows ``defs/iOS15/pool.py`` (avg_pool, l2_pool, max_pool) with the
output sizes of ``spatial_dimensions_out_shape`` and ``aggregated_pad`` in
``defs/_utils.py``; conv_transpose follows ``defs/iOS15/conv.py`` (iOS17's
``defs/iOS17/conv.py`` only widens its input domains).
"""
from __future__ import annotations

import math

from .mil_shapes import Bad, Operands, T, dims, known, need_rank, size

POOL_PADS = ("valid", "same", "custom", "same_lower")


def spatial_out(pad_type: str, shape, kernel, strides, dilations=None, pad=None, ceil_mode=False) -> list[int]:
    """defs/_utils.py spatial_dimensions_out_shape: each spatial output size, -1 where the input's is unknown."""
    n = len(kernel)
    dilations = dilations or [1] * n
    pad = pad if pad is not None else [0] * 2 * n
    if not len(shape) == n == len(strides) == len(dilations) == len(pad) / 2:
        raise Bad(f"the spatial dims of x {dims(shape)}, kernel {list(kernel)}, strides {list(strides)}, dilations "
                  f"{list(dilations)} and pad {list(pad)} (two per dim) do not agree in number")
    ek = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    out = []
    for r in range(n):
        i, k, s = shape[r], ek[r], strides[r]
        if s < 1:
            raise Bad(f"strides {list(strides)} must be positive")
        if not known(i):
            out.append(-1)
            continue
        if pad_type in ("same", "same_lower"):
            total = int(max(0, s * math.ceil(i / s) - i + k - s))
        elif pad_type == "valid":
            total = 0
        elif pad_type == "custom":
            total = pad[2 * r] + pad[2 * r + 1]
        else:
            raise Bad(f"pad_type {pad_type!r} is not one of valid, same, same_lower, custom")
        if not ceil_mode:
            o = math.floor((i + total - k) / s + 1)
        else:
            o = math.floor((i + total - k + s - 1) / s + 1)
            if (o - 1) * s >= i + total / 2 and total > 0:
                o -= 1
        if o <= 0:
            raise Bad(f"spatial dimension {r} ({i}) with kernel {k}, stride {s} and padding {total} has no output "
                      f"({o} values)")
        out.append(o)
    return out


def pool(a: Operands) -> list[T]:
    """defs/iOS15/pool.py Pooling.type_inference: x [N, C, *D]; kernel_sizes, strides (default 1), pad
    (default 0, used with pad_type custom); ceil_mode only for 1-D and 2-D pools, not with pad_type same,
    and only with symmetric pads; same_lower from iOS16."""
    x = a.type("x")
    xs = need_rank(x)
    n = len(xs) - 2
    if n < 1:
        raise Bad(f"x {dims(xs)} must have rank 3 or more ([N, C, *spatial])")
    kernel = a.ints("kernel_sizes")
    strides = a.ints("strides", [1] * n)
    pad_type = a.text("pad_type").lower()
    pad = a.ints("pad", [0] * 2 * n)
    ceil = a.flag("ceil_mode")
    if pad_type not in POOL_PADS:
        raise Bad(f"pad_type {pad_type!r} is not one of {', '.join(POOL_PADS)}")
    if ceil:
        if n > 2:
            raise Bad("ceil_mode is only for 1-D and 2-D pools")
        if pad_type == "same":
            raise Bad("ceil_mode must be false with pad_type same")
        if any(pad[2 * i] != pad[2 * i + 1] for i in range(min(n, len(pad) // 2))):
            raise Bad(f"ceil_mode needs symmetric padding; pad is {pad}")
    if a.version == 15 and a.text("pad_type") == "same_lower":
        raise Bad("pad_type same_lower is not in iOS15's pools")
    return [T(x.dtype, tuple(xs[:2]) + tuple(spatial_out(pad_type, xs[2:], kernel, strides, None, pad, ceil)))]


def l2_pool(a: Operands) -> list[T]:
    """defs/iOS15/pool.py l2_pool: 1-D or 2-D only."""
    if len(need_rank(a.type("x"))) - 2 > 2:
        raise Bad("l2_pool is 1-D or 2-D only (x of rank 3 or 4)")
    return pool(a)


def conv_transpose(a: Operands) -> list[T]:
    """defs/iOS15/conv.py conv_transpose: weight [C_in, C_out / groups, *K]; C_out = weight's dim 1 * groups;
    output_shape, when given, is the result's shape (its N and C_out must match); otherwise per spatial
    dim valid s * (d - 1) + dilated K, same s * d, custom that minus both pads (pads that leave no output
    are refused, where coremltools infers 0 or a negative dim, as conv refuses them)."""
    x, w = a.type("x"), a.type("weight")
    xs, ws = need_rank(x), need_rank(w, "weight")
    n = len(xs) - 2
    if n < 1 or len(ws) != len(xs):
        raise Bad(f"x {dims(xs)} and weight {dims(ws)} must both have rank 3, 4 or 5")
    groups = a.int("groups", 1)
    if groups < 1:
        raise Bad(f"groups {groups} must be positive")
    c_out = ws[1] * groups if known(ws[1]) else -1
    if a.has("bias"):
        if a.known("bias") is None:
            raise Bad("bias must be a constant (coremltools reads its value's shape)")
        bs = a.type("bias").shape or ()
        if not bs or (known(c_out) and bs[0] != c_out):
            raise Bad(f"bias is {dims(bs)}; it needs one value per output channel ({c_out})")
    if a.has("output_shape"):
        out = [size(d, "output_shape's value") for d in a.ints("output_shape")]
        if len(out) < 2 or (known(xs[0]) and out[0] != xs[0]) or (known(c_out) and out[1] != c_out):
            raise Bad(f"output_shape {out} must start with x's N ({xs[0]}) and C_out ({c_out})")
        return [T(x.dtype, tuple(out))]
    strides, dil = a.ints("strides", [1] * n), a.ints("dilations", [1] * n)
    pad_type = a.text("pad_type", "valid")
    if len(strides) != n or len(dil) != n:
        raise Bad(f"strides {strides} and dilations {dil} need {n} values, one per spatial dim of x {dims(xs)}")
    pad = a.ints("pad", [0] * 2 * n)
    if pad_type == "custom" and len(pad) != 2 * n:
        raise Bad(f"pad {pad} needs {2 * n} values")
    if pad_type not in ("valid", "same", "custom"):
        raise Bad(f"pad_type {pad_type!r} is not one of valid, same, custom")
    sizes = []
    for r in range(n):
        d, k = xs[2 + r], ws[2 + r]
        if not known(d) or not known(k):
            sizes.append(-1)
            continue
        ek = (k - 1) * dil[r] + 1
        out_d = strides[r] * d if pad_type == "same" else strides[r] * (d - 1) + ek
        if pad_type == "custom":
            out_d -= pad[2 * r] + pad[2 * r + 1]
        if out_d <= 0:
            raise Bad(f"spatial dimension {r} would have {out_d} values")
        sizes.append(out_d)
    return [T(x.dtype, (xs[0], c_out, *sizes))]
