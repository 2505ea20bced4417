"""What a MIL ``matmul`` computes, read as roles of axes, and which ANE route that is.

coremltools ``ops/defs/iOS15/linear.py`` (class ``matmul``, ``type_inference``):
``transpose_x`` / ``transpose_y`` swap the last two axes; a rank-1 x is
promoted to ``[1, K]`` (and the row axis dropped from the result); the axes
before the last two broadcast (NumPy rules); the result is
``batch + [M, N]`` with ``out[b, m, n] = sum_k x[b, m, k] y[b, k, n]``.

Every axis of x, y and the result then carries one role: ``b`` (batch), ``m``
(rows), ``k`` (the reduction) or ``n`` (columns). Axes of size 1 carry nothing,
so the row-major storage of each operand is a sequence of roles, and the
routes are sequences:

=========  ==========================  =====================  ==============
route      vector                      matrix                 result
=========  ==========================  =====================  ==============
matvec     rows of x: (k)              constant [n, k]/[k, n]  (n)
linear     rows of x: (b|m..., k)      constant [n, k]/[k, n]  (rows, n)
avw        (k)                         (r, k)                 (r)
attn_v     (k)                         (k, r)                 (r)
outer      (t) and (d), no k           —                      (t, d)
=========  ==========================  =====================  ==============

Anything else (a batched dot product, a matrix product of two computed
matrices, a partial batch broadcast, a rank-1 y) is off route.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .plan_model import broadcast, count


@dataclass
class MatmulForm:
    kind: str | None  # matvec | linear | avw | attn_v | outer | None (off route)
    out: list  # the result shape MIL infers
    roles: str  # "x (k), y (n, k) -> (n)": for messages
    attrs: dict = field(default_factory=dict)
    const_side: str = ""  # matvec/linear: which operand is the constant matrix
    w_transposed: bool = False  # the constant is stored [k, n] (or [k, m]): transposed into [n, k] at build time
    swapped: bool = False  # the route's first port reads y


def classify(xs: list, ys: list, tx: bool, ty: bool, x_const: bool = False, y_const: bool = False) -> MatmulForm | str:
    """The route of ``matmul(x, y, transpose_x, transpose_y)``; a string says why the shapes are no matmul."""
    xs, ys = [int(d) for d in xs], [int(d) for d in ys]
    if not xs or not ys:
        return "matmul needs tensors of rank 1 or more"
    if len(ys) == 1:
        return "a rank-1 y is not on an ANE route (reshape it to [K, 1])"
    if len(xs) == 1 and tx:
        return "x is rank 1 but transpose_x is true, which MIL does not allow"
    rank1 = len(xs) == 1
    xm = [1, *xs] if rank1 else list(xs)
    if tx:
        xm[-1], xm[-2] = xm[-2], xm[-1]
    ym = list(ys)
    if ty:
        ym[-1], ym[-2] = ym[-2], ym[-1]
    if xm[-1] != ym[-2]:
        return f"x's {xm[-1]} columns do not meet y's {ym[-2]} rows (not broadcastable, coremltools iOS15/linear.py)"
    batch = broadcast(xm[:-2], ym[:-2])
    if batch is None:
        return f"the batch axes {xm[:-2]} and {ym[:-2]} do not broadcast"
    out = batch + [xm[-2], ym[-1]]
    if rank1:
        out = out[1:]
    nb, bx, by = count(batch), count(xm[:-2]), count(ym[:-2])
    if bx not in (1, nb) or by not in (1, nb):
        return f"the batch axes {xm[:-2]} and {ym[:-2]} broadcast against each other (off route)"
    size = {"b": nb, "m": xm[-2], "k": xm[-1], "n": ym[-1]}
    xr = [r for r in (["b"] if bx > 1 else []) + (["k", "m"] if tx else ["m", "k"]) if size[r] > 1]
    yr = [r for r in (["b"] if by > 1 else []) + (["n", "k"] if ty else ["k", "n"]) if size[r] > 1]
    orr = [r for r in ("b", "m", "n") if size[r] > 1]
    roles = f"x ({', '.join(xr)}), y ({', '.join(yr)}) -> ({', '.join(orr)})"
    form = MatmulForm(None, out, roles)
    k = size["k"]
    if x_const and y_const:
        form.roles += "; both operands are constants: fold them"
        return form
    if y_const:
        rows = [r for r in ("b", "m") if size[r] > 1]
        if by == 1 and xr == rows + (["k"] if k > 1 else []):
            nrows = count(size[r] for r in rows)
            form.kind = "matvec" if nrows == 1 else "linear"
            form.attrs = {"k": k, "n": size["n"]} if nrows == 1 else {"rows": nrows, "k": k, "n": size["n"]}
            form.const_side, form.w_transposed = "y", not ty
        return form
    if x_const:
        if bx == 1 and yr == (["k"] if k > 1 else []) and size["n"] == 1 and not rank1:
            form.kind, form.attrs = "matvec", {"k": k, "n": size["m"]}
            form.const_side, form.w_transposed = "x", tx
        return form
    for vec, mat, swapped in ((xr, yr, False), (yr, xr, True)):
        if vec == ["k"] and len(mat) == 2 and "k" in mat and orr == [r for r in mat if r != "k"]:
            r = orr[0]
            form.kind = "avw" if mat[1] == "k" else "attn_v"
            form.attrs = {"r": size[r], "k": k} if form.kind == "avw" else {"t": k, "d": size[r]}
            form.swapped = swapped
            return form
    if k == 1 and len(xr) == 1 and len(yr) == 1 and sorted(orr) == sorted(xr + yr):
        form.kind, form.swapped = "outer", orr != xr + yr
        first, second = (yr[0], xr[0]) if form.swapped else (xr[0], yr[0])
        form.attrs = {"t": size[first], "d": size[second]}
    return form
