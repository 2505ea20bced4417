"""Blocked int8 GEMM: one algorithm for every backend.

The activation is quantised per row and the weight per column (the catalog's
``quantize_per_row`` / ``quantize_per_col``, the reference design's rule);
the weight is cut once (:meth:`BlockedGemm.set_weight`) into
(K-block, N-block) tiles of the overlay geometry (``d = 64``, ``kt <= 8``
K-blocks, ``cols <= 4`` columns: :func:`npubuild.ops.gemm_layout.overlay_geometry`;
on ``xrt`` the geometry recorded in the kernel's ABI, which the build chose for its device),
each handed to the backend's :class:`Dispatch` to keep in its own form
(``xrt``: the NPU stream layout in a device buffer). A run quantises the
activation, zero-pads the edges, and for every K-block adds the dispatch's
int32 product into the accumulator, then dequantises with ``sx[m] * sw[n]``.
Because the products are int8 x int8 summed in int32, every backend gives the
same accumulator bit for bit; ``last_accumulator`` keeps it for tests.

A weight that is not a graph parameter (an intermediate, as in backward
graphs) is quantised and tiled on every run.

NaN: int8 has no NaN, and the reference rule makes a NaN code 0, which would
turn a NaN into ordinary-looking numbers (a NaN weight column into zeros). So
the output rows of activation rows holding a NaN, and the output columns of
weight columns holding one, are NaN, as a float matmul gives; everything else,
and the int32 accumulators, are the reference GEMM's. (A row or column holding
an infinity already comes out NaN: its scale is infinite and its codes 0.)

Dispatches:

* :class:`RefDispatch` multiplies in float32 with BLAS. That is exact: a
  K-block has at most ``kt * d = 512`` terms of magnitude at most 128 * 128,
  so every partial sum is an integer below 2**23 and float32 represents each
  one exactly, whatever order BLAS adds them in (tests/test_gemm.py checks the
  bound at its limit and shows where float32 stops being exact).
* ``host``: :class:`TileDispatch` calls the host-compiled int8 tile kernel
  (``gemm_tile`` in the matmul kernel's library) per d-row tile.
* ``xrt``: one NPU dispatch per tile (:mod:`npubuild.runner.xrt`) on the
  blocked overlay; on the one-dispatch whole-array design
  (:mod:`npubuild.emitters.aie.gemm_whole`) :class:`WholeGemm` instead: the
  codes go once into zeroed padded row-major buffers (the runtime is where the
  padding happens, for every dimension), one dispatch computes all of C, and
  the M x N corner is read back. Quantisation, dequantisation and NaN rules
  are :class:`BlockedGemm`'s, so the accumulators are the same bits.
"""
from __future__ import annotations

from typing import Protocol

from ..ops.lazy_numpy import np
from .kernel_base import KernelBase

# float32 is exact for int8 dot products while |sum| <= 2**24: K <= 2**24 / 128**2 = 1024 terms
F32_EXACT_TERMS = 1024


class Dispatch(Protocol):
    def prepare_b(self, b_blk) -> object:
        """Keep one int8 [kk, nn] weight tile in the form ``run`` wants."""

    def prepare_a(self, a_rows) -> object:
        """One int8 [rows, kk] activation slab (rows a multiple of d), once for all its N-blocks."""

    def run(self, a, b) -> object:
        """int32 [rows, nn] = the prepared activation slab @ the prepared weight tile."""


class RefDispatch:
    """Exact integer arithmetic at BLAS speed (float32, exact for kk <= 1024).

    It takes every N-block, and as many K-blocks as stay exact (1024 terms),
    in one product: the integer sums are the same however they are grouped,
    and BLAS is faster on the larger one."""

    n_blocks_per_call = None  # all
    k_terms_per_call = F32_EXACT_TERMS
    codes_dtype = "float32"  # the activation's codes as float32 integers: no conversion before BLAS
    row_multiple = 1  # no d-row tiles

    def __init__(self, kk: int):
        if kk > F32_EXACT_TERMS:
            raise ValueError(f"a K-block of {kk} terms is not exact in float32 (at most {F32_EXACT_TERMS})")

    def prepare_b(self, b_blk):
        return np.asarray(b_blk, dtype=np.float32)

    def prepare_a(self, a_rows):
        return a_rows if a_rows.dtype == np.float32 else a_rows.astype(np.float32)

    def run(self, a, b):
        return np.matmul(a, b).astype(np.int32)


def pack_pairs(codes, along_rows: bool):
    """int8 codes as the int16 pairs along K that the host's ``gemm_tile`` takes, packed in int32 words
    (npubuild.emitters.host.vector_gemm): ``along_rows`` False: a [rows, k] -> [rows, k/2], word p of a row
    holding a[m, 2p] then a[m, 2p+1]; True: b [k, n] -> [k/2, n], word (p, n) holding b[2p, n] then b[2p+1, n]."""
    wide = np.asarray(codes).astype(np.int16)
    if along_rows:
        k, n = wide.shape
        wide = wide.reshape(k // 2, 2, n).transpose(0, 2, 1)
    return np.ascontiguousarray(wide).view(np.int32).reshape(wide.shape[0], -1)


class TileDispatch:
    """Calls the host's ``tile(a pairs [d, kk/2], b pairs [kk/2, nn], c [d, nn] int32)`` once per d rows, and
    ``rows_tile`` (the same over ``rows`` rows) for the rows left over: a run pads M to a multiple of ``rows``,
    not of d. Both operands are handed over as int16 pairs (:func:`pack_pairs`): b once per weight, a once
    per slab. Without ``rows_tile``, M is padded to d rows."""

    def __init__(self, tile, d: int, rows_tile=None, rows: int | None = None):
        self.tile, self.d = tile, d
        self.rows_tile, self.row_multiple = (rows_tile, rows) if rows_tile is not None else (None, d)

    def prepare_b(self, b_blk):
        return pack_pairs(b_blk, along_rows=True)

    def prepare_a(self, a_rows):
        return pack_pairs(a_rows, along_rows=False)

    def run(self, a_pairs, b):
        rows, d = a_pairs.shape[0], self.d
        out = np.empty((rows, b.shape[1]), dtype=np.int32)
        whole = rows - rows % d
        for r0 in range(0, whole, d):
            self.tile(a_pairs[r0 : r0 + d], b, out[r0 : r0 + d])
        step = self.row_multiple
        for r0 in range(whole, rows, step):
            self.rows_tile(a_pairs[r0 : r0 + step], b, out[r0 : r0 + step])
        return out


class OverlayDispatch:
    """The NPU overlay's contract: ``call(a_stream, b_stream) -> c_stream`` in the
    stream layouts of :mod:`npubuild.emitters.aie.gemm` (one dispatch per d rows)."""

    def __init__(self, call, d: int, kt: int, cols: int, mmul: tuple[int, int, int]):
        self.call, self.d, self.kt, self.cols, self.mmul = call, d, kt, cols, mmul

    def prepare_b(self, b_blk):
        from ..ops.gemm_layout import tile_b

        _, s, t = self.mmul
        return tile_b(b_blk, self.d, self.kt, self.cols, s, t)

    def prepare_a(self, a_rows):
        return a_rows

    def run(self, a_rows, b_stream):
        from ..ops.gemm_layout import tile_a, untile_c

        r, s, t = self.mmul
        d = self.d
        out = np.empty((a_rows.shape[0], self.cols * d), dtype=np.int32)
        for r0 in range(0, a_rows.shape[0], d):
            c = self.call(tile_a(a_rows[r0 : r0 + d], d, self.kt, r, s), b_stream)
            out[r0 : r0 + d] = untile_c(c, d, self.cols, r, t)
        return out


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


class BlockedGemm:
    """y [..., M, N] (f32) = the reference int8 GEMM of a [..., M, K] and b [K, N], blocked for the overlay."""

    def __init__(self, k: int, n: int, dispatch: Dispatch, d: int, kt: int, cols: int):
        self.k, self.n = k, n
        self.d, self.kk, self.nn = d, kt * d, cols * d
        self.nkb, self.nnb = _cdiv(k, self.kk), _cdiv(n, self.nn)
        self.dispatch = dispatch
        self._tiles: dict | None = None
        self._sw = None
        self._nan_cols = None  # weight columns holding a NaN (None: none)
        self.last_accumulator = None
        self.dispatches = 0  # tile products computed (for stats)

    @property
    def has_weight(self) -> bool:
        return self._tiles is not None

    def set_weight(self, w) -> None:
        """Quantise ``w`` [K, N] per column and keep its tiles (once per parameter value)."""
        from ..ops.quant import quantize_per_col

        w = np.asarray(w, dtype=np.float32)
        if w.shape != (self.k, self.n):
            raise ValueError(f"weight must be [{self.k}, {self.n}], got {list(w.shape)}")
        self.set_weight_codes(*quantize_per_col(w))
        cols = np.isnan(w).any(axis=0)
        self._nan_cols = cols if cols.any() else None

    def set_weight_codes(self, qw, sw) -> None:
        """Keep the tiles of already quantised int8 codes ``qw`` [K, N] with column scales ``sw``."""
        self._sw = sw
        self._nan_cols = None
        deep, wide = self._deep, self._wide
        padded = np.zeros((self._k_padded, self.nnb * self.nn), dtype=np.int8)
        padded[: self.k, : self.n] = qw
        self._tiles = {
            (kb, nb): self.dispatch.prepare_b(padded[kb * deep : (kb + 1) * deep, nb * wide : (nb + 1) * wide])
            for kb in range(self._k_padded // deep)
            for nb in range(self.nnb * self.nn // wide)
        }

    @property
    def _k_padded(self) -> int:
        return _cdiv(self.nkb * self.kk, self._deep) * self._deep

    @property
    def _deep(self) -> int:
        """Rows of K per dispatch call: one K-block, or as many as the dispatch sums exactly at once."""
        terms = getattr(self.dispatch, "k_terms_per_call", self.kk)
        return max(1, min(terms // self.kk, self.nkb)) * self.kk

    @property
    def _wide(self) -> int:
        """Columns per dispatch call: one N-block, or as many as the dispatch takes at once."""
        per_call = getattr(self.dispatch, "n_blocks_per_call", 1) or self.nnb
        return min(per_call, self.nnb) * self.nn

    def accumulate(self, qa):
        """int32 [M, N] = int8 codes qa [M, K] (or the same codes as float32) @ the weight's codes,
        K-blocks summed in int32."""
        m = qa.shape[0]
        unit = getattr(self.dispatch, "row_multiple", self.d)
        rows = _cdiv(max(m, 1), unit) * unit
        deep, wide = self._deep, self._wide
        if qa.shape == (rows, self._k_padded) and qa.flags.c_contiguous:
            ap = qa  # nothing to pad
        else:
            ap = np.zeros((rows, self._k_padded), dtype=qa.dtype)
            ap[:m, : self.k] = qa
        acc = np.empty((rows, self.nnb * self.nn), dtype=np.int32)
        for kb in range(ap.shape[1] // deep):
            slab = self.dispatch.prepare_a(ap[:, kb * deep : (kb + 1) * deep])
            for nb in range(self.nnb * self.nn // wide):
                part = self.dispatch.run(slab, self._tiles[kb, nb])
                if kb == 0:
                    acc[:, nb * wide : (nb + 1) * wide] = part
                else:
                    acc[:, nb * wide : (nb + 1) * wide] += part
        self.dispatches += _cdiv(m, self.d) * self.nkb * self.nnb  # overlay tiles, however they were grouped
        return acc[:m, : self.n]

    def __call__(self, a, w=None):
        """The matmul; ``w`` given: a dynamic weight, quantised and tiled for this call."""
        from ..ops.quant import quantize_per_row

        if w is not None:
            self.set_weight(w)
        if self._tiles is None:
            raise ValueError("the weight is not set")
        a = np.asarray(a, dtype=np.float32)
        lead = a.shape[:-1]
        a2 = a.reshape(-1, self.k)
        qa, sx = quantize_per_row(a2, getattr(self.dispatch, "codes_dtype", "int8"))
        acc = self.accumulate(qa)
        self.last_accumulator = acc
        y = acc.astype(np.float32)
        y *= sx[:, None]  # (acc * sx[m]) * sw[n], rounded in that order as the reference GEMM
        y *= self._sw[None, :]
        self._propagate_nan(y, a2)
        return y.reshape(*lead, self.n)

    def _propagate_nan(self, y, a2) -> None:
        """NaN rows of a and NaN columns of the weight give NaN outputs (the codes dropped them)."""
        rows = np.isnan(a2).any(axis=1)
        if rows.any():
            y[rows, :] = np.nan
        if self._nan_cols is not None:
            y[:, self._nan_cols] = np.nan


class WholeGemm(BlockedGemm):
    """The matmul in one dispatch: ``dispatch.prepare_b(int8 [Kp, Np])`` keeps the padded weight codes,
    ``dispatch.run(int8 codes [M, K], the prepared weight) -> int32 [>= M, >= N]`` computes the whole
    product (padding M and K as its design wants)."""

    def __init__(self, k: int, n: int, dispatch, padded: tuple[int, int, int]):
        self.k, self.n = k, n
        self.mp, self.kp, self.np = padded
        self.dispatch = dispatch
        self._tiles = None
        self._sw = None
        self._nan_cols = None
        self.last_accumulator = None
        self.dispatches = 0

    def set_weight_codes(self, qw, sw) -> None:
        self._sw = sw
        self._nan_cols = None
        self._tiles = self.dispatch.prepare_b(qw)

    def accumulate(self, qa):
        m = qa.shape[0]
        if m > self.mp:
            raise ValueError(f"the design takes at most {self.mp} rows, got {m}")
        acc = self.dispatch.run(qa, self._tiles)
        self.dispatches += 1
        return acc[:m, : self.n]


def check_whole_array_abi(kernel_id: str, record: dict, abi: dict) -> tuple[int, int, int]:
    """(Mp, Kp, Np) of a one-dispatch GEMM's ABI, once its buffers and padding are ones the
    runtime can fill for the record's M x K x N (UserError otherwise)."""
    from ..core.errors import UserError

    max_depth = (2**31 - 1) // (128 * 128)  # int8 products an int32 sum holds (runner.checks.MAX_GEMM_DEPTH)

    def fail(why: str):
        raise UserError(f"kernel '{kernel_id}': its xdna abi's one-dispatch GEMM {why}; rebuild with `doit build`")

    pad = abi.get("padded")
    if not isinstance(pad, dict) or not all(isinstance(pad.get(x), int) and not isinstance(pad.get(x), bool) and pad[x] > 0 for x in "mkn"):
        fail("records no padded M, K, N")
    mp, kp, np_ = pad["m"], pad["k"], pad["n"]
    a, b = record["inputs"][0]["shape"], record["inputs"][1]["shape"]
    m = 1
    for x in a[:-1]:
        m *= x
    if mp < m or kp < a[-1] or np_ < b[1]:
        fail(f"is padded to {mp} x {kp} x {np_}, smaller than the kernel's {m} x {a[-1]} x {b[1]}")
    dtype = record.get("dtype", "i8")
    if abi.get("dtype", "i8") != dtype or dtype not in WHOLE_ARRAY_TYPES:
        fail(f"computes in {abi.get('dtype', 'i8')!r}, the kernel is {dtype!r}")
    if dtype == "i8" and kp > max_depth:
        fail(f"sums {kp} int8 products per output, more than int32 holds ({max_depth})")
    bufs = abi.get("buffers")
    ab, cb = WHOLE_ARRAY_TYPES[dtype]
    want = [([mp, kp], ab), ([kp, np_], ab), ([mp, np_], cb)]
    got = [(x.get("shape"), x.get("dtype")) if isinstance(x, dict) else None for x in bufs] if isinstance(bufs, list) else None
    if got != want:
        fail(f"buffers are not those of its padding ({ab} [{mp}, {kp}], {ab} [{kp}, {np_}], {cb} [{mp}, {np_}])")
    return mp, kp, np_


# kernel dtype -> (A and B, C) element types of the one-dispatch design's host buffers
WHOLE_ARRAY_TYPES = {"i8": ("i8", "i32"), "bf16": ("bf16", "f32")}


class GemmKernel(KernelBase):
    """An int8 ``matmul`` kernel on a backend: :class:`BlockedGemm` over that backend's dispatch.

    The weight (input 1) given to :meth:`bind_param` is quantised and tiled
    once; a call with any other weight array (an intermediate of the graph: the
    reference design's dynamic weight) quantises and tiles it for that call.
    """

    def __init__(self, desc: dict, make_dispatch, closer=None, geometry: tuple[int, int, int] | None = None,
                 padded: tuple[int, int, int] | None = None):
        """``geometry``: (d, kt, cols) of the overlay the kernel was built for; the xrt backend
        passes its ABI's (the build chose cols for the device: recomputing it here without the
        device is how the runner once drove a 4-column tile on a design of another width).
        None: the default overlay for K x N, which ref (any geometry is exact) and host (its
        gemm_tile is compiled with the default; HostKernel checks the shapes) use.
        ``padded``: (Mp, Kp, Np) of a one-dispatch design instead (:class:`WholeGemm`)."""
        from ..ops.gemm_layout import overlay_geometry

        a, b = desc["inputs"][0]["shape"], desc["inputs"][1]["shape"]
        self.id = desc["id"]
        self.out_shape = tuple(desc["outputs"][0]["shape"])
        k, n = a[-1], b[1]
        if padded is not None:
            self.gemm = WholeGemm(k, n, None, padded)
        else:
            d, kt, cols = geometry if geometry is not None else overlay_geometry(k, n)
            self.gemm = BlockedGemm(k, n, None, d, kt, cols)
        self.gemm.dispatch = make_dispatch(self.gemm)
        self._bound = None
        self._closer = closer
        self.bound_generation = None

    def bind_param(self, index: int, array, generation=None) -> None:
        if index == 1:
            self.gemm.set_weight(array)
            self._bound = array
            self.bound_generation = generation

    def __call__(self, a, w):
        if w is not self._bound:
            self.gemm.set_weight(w)
            self._bound = None
        return self.gemm(a).reshape(self.out_shape)

    @property
    def last_accumulator(self):
        return self.gemm.last_accumulator

    @property
    def gemm_dispatches(self) -> int:
        return self.gemm.dispatches

    def close(self) -> None:
        if self._closer is not None:
            self._closer.close()
