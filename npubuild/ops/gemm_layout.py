"""The int8 GEMM overlay's contract with the host: its blocking and the data
layouts of its streams.

The overlay (:mod:`npubuild.emitters.aie.gemm`) computes one d x (cols*d) block
of C from kt K-blocks per dispatch; the runtime (:mod:`npubuild.runner.gemm`)
blocks any matmul over it and lays A and B out with :func:`tile_a` /
:func:`tile_b`, reading C back with :func:`untile_c`; the host matmul kernel
(:mod:`npubuild.emitters.host.quant`) exports the same tile as ``gemm_tile``.
All three take the geometry from here. It sits in ops, the stage below both the
emitters and the runtime, so that the runtime never imports an emitter.
"""
from __future__ import annotations

from ..core.errors import UnsupportedOnTarget
from .lazy_numpy import np

D = 64  # the microkernel's DIM_M = DIM_K = DIM_N
KT_MAX = 8  # K-blocks per dispatch
COLS_MAX = 4  # N-blocks (columns) per dispatch
# aie::mmul shapes (r, s, t) of mm.cc's int8 x int8 -> int32 kernel per architecture.
MMUL_SHAPES = {"aie2": (4, 8, 8), "aie2p": (8, 8, 8)}


def mmul_shape(arch: str) -> tuple[int, int, int]:
    """(r, s, t) of the int8 ``aie::mmul`` the microkernel uses on ``arch`` (aie2 / aie2p)."""
    try:
        return MMUL_SHAPES[arch]
    except KeyError:
        raise UnsupportedOnTarget(f"no int8 GEMM microkernel for AIE architecture '{arch}' (known: {', '.join(MMUL_SHAPES)})") from None


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def overlay_geometry(k: int, n: int, columns: int = COLS_MAX) -> tuple[int, int, int]:
    """(d, kt, cols) of the overlay for a K x N weight: as many K-blocks (<= 8) and
    columns (<= 4, <= the device's) as the problem fills, as the reference design."""
    return D, min(max(cdiv(k, D), 1), KT_MAX), min(max(cdiv(n, D), 1), COLS_MAX, columns)


# ---- host-side layouts of the streams ------------------------------------------------------------


def _check2d(x, shape: tuple[int, int], what: str):
    x = np.asarray(x)
    if x.shape != shape:
        raise ValueError(f"{what} must have shape {shape}, got {x.shape}")
    return x


def _check_div(d: int, parts: tuple[int, ...]) -> None:
    if d <= 0 or any(p <= 0 or d % p for p in parts):
        raise ValueError(f"block size {d} is not a positive multiple of the mmul sub-tile sizes {parts}")


def tile_a(a_blk, d: int, kt: int, r: int, s: int):
    """int8 A block [d, kt*d] -> the A stream (flat, d*kt*d): the kt K-blocks of
    d x d in order, each as (d/r) x (d/s) sub-tiles of r x s, sub-tiles row-major
    and each sub-tile row-major."""
    _check_div(d, (r, s))
    a = _check2d(a_blk, (d, kt * d), "a_blk")
    return np.ascontiguousarray(a.reshape(d // r, r, kt, d // s, s).transpose(2, 0, 3, 1, 4)).reshape(-1)


def tile_b(b_blk, d: int, kt: int, cols: int, s: int, t: int):
    """int8 B block [kt*d, cols*d] -> the B stream (flat): for each column c, its
    kt K-blocks B[kb*d:(kb+1)*d, c*d:(c+1)*d] in order, each as (d/s) x (d/t)
    sub-tiles of s x t, sub-tiles row-major and each sub-tile row-major. Column
    c's part starts at element c*kt*d*d."""
    _check_div(d, (s, t))
    b = _check2d(b_blk, (kt * d, cols * d), "b_blk")
    return np.ascontiguousarray(b.reshape(kt, d // s, s, cols, d // t, t).transpose(3, 0, 1, 4, 2, 5)).reshape(-1)


def untile_c(c_stream, d: int, cols: int, r: int, t: int):
    """int32 C stream (flat, cols*d*d) -> C [d, cols*d]: column c's d x d block
    starts at element c*d*d, as (d/r) x (d/t) sub-tiles of r x t, sub-tiles
    row-major and each sub-tile row-major."""
    _check_div(d, (r, t))
    c = np.asarray(c_stream)
    if c.size != cols * d * d:
        raise ValueError(f"c_stream must have {cols * d * d} elements, got {c.size}")
    return np.ascontiguousarray(c.reshape(cols, d // r, d // t, r, t).transpose(1, 3, 0, 2, 4)).reshape(d, cols * d)


# ---- the whole-array design's microkernel layout -------------------------------------------------
# The whole-array design (npubuild.emitters.aie.gemm_whole) keeps A, B and C row-major in host
# memory: its mem-tile DMAs (dimensionsToStream) cut them into these sub-tiles on the way to the
# cores. The helpers state the layout one microkernel call sees, for the design's simulator.


def subtile(x, r: int, s: int):
    """[R, C] -> flat: (R/r) x (C/s) sub-tiles of r x s, sub-tiles row-major and each sub-tile
    row-major (mm.cc's operand layout; one K-block of :func:`tile_a` is ``subtile(a, r, s)``)."""
    x = np.asarray(x)
    rows, cols = x.shape
    _check_div(rows, (r,))
    _check_div(cols, (s,))
    return np.ascontiguousarray(x.reshape(rows // r, r, cols // s, s).transpose(0, 2, 1, 3)).reshape(-1)


def unsubtile(flat, rows: int, cols: int, r: int, s: int):
    """The inverse of :func:`subtile`: a flat (rows/r) x (cols/s) grid of r x s sub-tiles -> [rows, cols]."""
    _check_div(rows, (r,))
    _check_div(cols, (s,))
    f = np.asarray(flat)
    if f.size != rows * cols:
        raise ValueError(f"a {rows}x{cols} sub-tiled block has {rows * cols} elements, got {f.size}")
    return np.ascontiguousarray(f.reshape(rows // r, cols // s, r, s).transpose(0, 2, 1, 3)).reshape(rows, cols)
