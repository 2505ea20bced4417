"""The one-dispatch GEMV: a matmul whose M fits one microkernel tile (M <= tm), N spread over every core.

The whole-array GEMM (:mod:`.gemm_whole`) gives each core row its own M-block, so a 1 x K x N product is
padded to ``4 * tm`` rows: A is sent 4 times over, C written for 64 rows. Here the 4 core rows of a column
take **different N-tiles** and A, padded once to ``tm`` rows, is shared:

* A: ``A_L3L2_i`` shim -> mem tile of column ``2 i``, ``A_L2L1_i`` broadcast from that mem tile to the 8
  cores of columns ``2 i`` and ``2 i + 1`` (4 on a one-column design), with whole_array.py's A
  ``dimensionsToStream``. A broadcast from one mem tile to 8 cores of several columns is whole_array.py's
  8-column ``A_L2L1`` (every core of a row, from the mem tile of column ``2 row``).
  **One row of A** (M = 1, a decode step) leaves DDR unpadded: ``A_L3L2_i`` carries ``tk`` elements per
  K-block and the mem tile's MM2S adds the zero rows as it streams ``A_L2L1_i`` (``padDimensions``, a
  smaller input linked to a larger padded output: mlir-aie
  test/objectFifo-stateful-transform/data_movement_patterns/link/link_via_shared_mem_padDimensions.mlir,
  whose mem tile keeps the input's smaller buffers). The pattern is 3-D, as the AIE-ML mem-tile BD pads
  only its 3 inner dimensions: ``[<1, tk>, <tk / s, s>, <s, 1>]`` with pads ``[(0, tm / r - 1), (0, 0),
  (0, (r - 1) s)]`` gives, per K-block, the ``s`` values of row 0 followed by the ``r - 1`` zero rows of
  each ``r x s`` sub-tile, then the ``tm / r - 1`` all-zero row blocks: mm.cc's sub-tiled A of a
  ``tm x tk`` tile whose rows 1.. are zero. Several rows are padded by the runtime, as before.
* B: ``B_L3L2_c`` shim -> mem tile, **distributed** (link offsets ``tk*tn*row``) to the column's 4 cores
  ``B_L2L1_c_row``, each with whole_array.py's B ``dimensionsToStream``. A distribute link with offsets:
  whole_array.py's ``A_L3L2 -> A_L2L1`` with fewer than 4 columns, and
  ``test/objectFifo-stateful-transform/dma_transformations/nd_dma_distribute_broadcast_AIE2.mlir``.
* C: joined per column as in the whole-array design (``C_L1L2_c_row`` -> ``C_L2L3_c``, offsets
  ``tm*tn*row``, whole_array.py's C pattern applied per join input).
* Core ``(c, row)`` computes N-tile ``(t * cols + c) * 4 + row`` for ``t`` in its tiles: zero, K-blocks of
  ``matmul``, release (mm.cc's ``zero_*`` and ``matmul_*``, as the whole-array design). The core loop is
  the whole-array design's (:func:`.gemm_micro.tile_step`).

Runtime sequence: per column one C transfer ``(tiles, 4, tm, tn)`` (the repeat walks the N-tiles), the A
transfer of the columns that carry A ``(tiles, k_blocks, tm, tk)`` (stride 0 repeat: A once per N-tile, as
whole_array.py repeats A), and one B transfer per N-tile ``(k_blocks, 4, tk, tn)`` (the 4 row tiles of
that N-tile), then a ``dma_wait`` on every column's C. One transfer block: every BD id is used once.

mlir-aie's own ``matrix_vector`` example is not followed: at the pinned commit its kernel
(``aie_kernels/aie2/mv.cc``) is instantiated for int16 -> int32 only (the bf16 combo is commented out),
the example runs its scalar variant on one core (its own comment calls the vectorized kernel erroneous), and
there is no ``aie2p/mv.cc``; int8 and bf16 GEMVs therefore keep mm.cc.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...core.constants import DTYPE_BYTES
from ...ops.gemm_layout import cdiv
from .check import Layout, layout_problems
from .design import Transfer
from .fifos import Fifo, Link
from .rules_check import pad_problems
from .frame import Wait
from .gemm_whole import (
    DEPTH, PLACER, ROWS, TILE_K, TILE_MULTIPLES, WIDTHS, WholeArray, call_cost, core_bytes, effective_bf16_mmul, sequence_problems,
)

GEMV_TILE_M = (8, 16)  # the smallest tiles mm.cc's asserts take (aie2p native bf16: 8; otherwise 16)
GEMV_TILE_N = (64, 32, 16)
MAX_N_TILES = 8  # B transfers per column: one BD each (ids 2 .. 9)
A_SPAN = 2  # columns one A broadcast feeds (8 cores, as whole_array.py's 8-column A_L2L1)


@dataclass(frozen=True)
class Gemv(WholeArray):
    variant = "gemv"

    @property
    def padded(self) -> tuple[int, int, int]:
        step = self.tn * self.cols * ROWS
        return self.tm, cdiv(self.k, self.tk) * self.tk, cdiv(self.n, step) * step

    @property
    def row_blocks(self) -> int:
        return 1

    @property
    def n_tiles(self) -> int:
        """tn-wide N-tiles per core."""
        return self.padded[2] // (self.tn * self.cols * ROWS)

    @property
    def tiles_per_core(self) -> int:
        return self.n_tiles

    @property
    def a_shims(self) -> int:
        return cdiv(self.cols, A_SPAN)

    def a_column(self, i: int) -> int:
        return A_SPAN * i

    @property
    def a_rows(self) -> int:
        """Rows of A each A transfer sends: one row is padded to ``tm`` by the mem tile, more by the runtime."""
        return 1 if max(self.m, 1) == 1 else self.tm

    @property
    def a_stream(self) -> tuple[tuple, tuple]:
        """(dimensionsToStream, padDimensions) of ``A_L2L1``: whole_array.py's A pattern over a padded tile,
        or the padding pattern of one row (module docstring)."""
        r, s, _ = self.mmul
        m, k = self.tm, self.tk
        if self.a_rows == m:
            return ((m // r, r * k), (k // s, s), (r, k), (s, 1)), ()
        return ((1, k), (k // s, s), (s, 1)), ((0, m // r - 1), (0, 0), (0, (r - 1) * s))

    def core_fifos(self, col: int, row: int) -> tuple[str, str, str]:
        return f"A_L2L1_{col // A_SPAN}", f"B_L2L1_{col}_{row}", self.c_l1(col, row)

    @property
    def fifos(self) -> list[Fifo]:
        r, s, t = self.mmul
        m, k, n = self.tm, self.tk, self.tn
        a_dims, a_pads = self.a_stream
        b_dims = ((k // s, s * n), (n // t, t), (s, n), (t, 1))  # whole_array.py B_L2L1 dims
        c_dims = ((m // r, r * n), (r, t), (n // t, r * t), (t, 1))  # whole_array.py C_L2L3 dims, per join input
        out: list[Fifo] = []
        for i in range(self.a_shims):
            c0 = self.a_column(i)
            cols = range(c0, min(self.cols, c0 + A_SPAN))
            out.append(Fifo(f"A_L3L2_{i}", PLACER.shim(c0), (PLACER.mem(c0),), DEPTH, (self.a_rows * k,), self.in_dtype))
            cons = tuple(self.core_tile(c, row) for c in cols for row in range(ROWS))
            out.append(Fifo(f"A_L2L1_{i}", PLACER.mem(c0), cons, DEPTH, (m, k), self.in_dtype, a_dims, a_pads))
        for c in range(self.cols):
            out.append(Fifo(f"B_L3L2_{c}", PLACER.shim(c), (PLACER.mem(c),), DEPTH, (ROWS * k * n,), self.in_dtype))
            for row in range(ROWS):
                out.append(Fifo(f"B_L2L1_{c}_{row}", PLACER.mem(c), (self.core_tile(c, row),), DEPTH, (k, n), self.in_dtype, b_dims))
        return out + self.c_fifos(c_dims)

    @property
    def links(self) -> list[Link]:
        kn, mn = self.tk * self.tn, self.tm * self.tn
        out = [Link(f"A_L3L2_{i}", f"A_L2L1_{i}") for i in range(self.a_shims)]
        for c in range(self.cols):
            out.append(Link(f"B_L3L2_{c}", tuple(f"B_L2L1_{c}_{row}" for row in range(ROWS)), tuple(kn * r for r in range(ROWS))))
        for c in range(self.cols):
            out.append(Link(tuple(self.c_l1(c, r) for r in range(ROWS)), f"C_L2L3_{c}", tuple(mn * r for r in range(ROWS))))
        return out

    @property
    def sequence(self) -> list:
        _, kp, np_ = self.padded
        m, k, n, cols = self.tm, self.tk, self.tn, self.cols
        out: list = []
        for c in range(cols):
            out.append(Transfer(2, f"C_L2L3_{c}", c, c * ROWS * n, (self.n_tiles, ROWS, m, n), (cols * ROWS * n, n, np_, 1), 0, True))
            if c % A_SPAN == 0:
                out.append(Transfer(0, f"A_L3L2_{c // A_SPAN}", c, 0, (self.n_tiles, self.k_blocks, self.a_rows, k),
                                    (0, k, kp, 1), 1, False))
            for t in range(self.n_tiles):
                out.append(Transfer(1, f"B_L3L2_{c}", c, (t * cols + c) * ROWS * n, (self.k_blocks, ROWS, k, n),
                                    (k * np_, n, np_, 1), 2 + t, False))
        return out + [Wait(f"C_L2L3_{c}") for c in range(cols)]

    def header_streams(self) -> str:
        pad = "one row of A padded to a tile by the mem tile" if self.a_rows < self.tm else "A padded to one tile of rows"
        return (f"streams (GEMV): {pad}, broadcast from the mem tile of every second column to "
                "the 8 cores of two columns; B distributed over each column's 4 cores (a different N-tile per core "
                "row); C joined per column; mem-tile dimensionsToStream does the sub-tiling")

    def abi(self) -> dict:
        abi = {**super().abi(), "variant": "gemv", "core_rows": ROWS}
        if self.a_rows < self.tm:  # the host buffer keeps its zeroed rows; only row 0 crosses to the array
            abi["padding"] = {**abi["padding"], "m": "mem tile (padDimensions): the DMA reads row 0 of a's buffer"}
        return abi


def gemv_problems(w: Gemv) -> list[str]:
    """What aiecc, mm.cc or the hardware would reject (the whole-array checks, for this layout)."""
    p: list[str] = []
    r, s, t = w.mmul
    fm, fk, fn = TILE_MULTIPLES[(w.arch, w.in_dtype)]
    if w.tm % (fm * r) or w.tk % (fk * s) or w.tn % (fn * t):
        p.append(f"a {w.tm}x{w.tk}x{w.tn} microkernel does not satisfy mm.cc's m % {fm * r}, k % {fk * s}, n % {fn * t}")
    if max(w.m, 1) > w.tm:
        p.append(f"M = {w.m} exceeds the GEMV's one tile of {w.tm} rows")
    if w.in_dtype == "i8" and w.padded[1] * 128 * 128 > 2**31 - 1:
        p.append(f"K padded to {w.padded[1]} sums more int8 products per output than an int32 accumulator holds")
    if w.cols not in WIDTHS or w.cols > w.device.columns:
        return p + [f"{w.cols} columns: the GEMV takes {', '.join(map(str, WIDTHS))} up to the device's {w.device.columns}"]
    if w.n_tiles > MAX_N_TILES:
        return p + [f"{w.n_tiles} N-tiles per core: one B transfer (buffer descriptor) each, at most {MAX_N_TILES}"]
    fifos = {f.name: f for f in w.fifos}
    expect = {}
    per_core = w.tiles_per_core * w.k_blocks
    for i in range(w.a_shims):
        expect[f"A_L3L2_{i}"] = per_core * fifos[f"A_L3L2_{i}"].elems
        if fifos[f"A_L2L1_{i}"].pads:  # the padding is written into the mem tile's BD fields: what fits them
            p += pad_problems(f"@A_L2L1_{i}", fifos[f"A_L2L1_{i}"], "mem", fifos[f"A_L2L1_{i}"].elems)
    for c in range(w.cols):
        expect[f"B_L3L2_{c}"] = ROWS * per_core * fifos[f"B_L2L1_{c}_0"].elems
        expect[f"C_L2L3_{c}"] = ROWS * w.tiles_per_core * fifos[w.c_l1(c, 0)].elems
    lay = Layout(
        device=w.device, columns=w.cols, buffers=w.buffers, fifos=w.fifos, links=w.links,
        transfers=[tr for tr in w.sequence if isinstance(tr, Transfer)],
        cores=[w.core_tile(c, row) for c in range(w.cols) for row in range(ROWS)], stack=w.stack,
        core_acquires={f.name for f in w.fifos if f.name.startswith(("A_L2L1", "B_L2L1", "C_L1L2"))},
        expect=expect, outputs=[f"C_L2L3_{c}" for c in range(w.cols)],
    )
    p += layout_problems(lay)
    p += sequence_problems(w)
    return list(dict.fromkeys(p))


def plan_gemv(kernel: str, device, m: int, k: int, n: int, a_shape=(), b_shape=(), in_dtype: str = "i8",
              bf16_mmul: str = "native") -> Gemv | None:
    """The cheapest GEMV that passes every check (fewest MACs and calls per core, then fewest bytes), or None."""
    eb = DTYPE_BYTES[in_dtype]
    mode = effective_bf16_mmul(bf16_mmul, device.arch, in_dtype)
    best, best_key = None, None
    for cols in (c for c in WIDTHS if c <= device.columns):
        for tm in GEMV_TILE_M:
            if tm < max(m, 1):
                continue
            for tk in TILE_K:
                for tn in GEMV_TILE_N:
                    if core_bytes(tm, tk, tn, eb) > device.core_memory:
                        continue
                    w = Gemv(kernel, device, m, k, n, tm, tk, tn, cols, tuple(a_shape), tuple(b_shape), in_dtype=in_dtype,
                             bf16_mmul=mode)
                    mp, kp, np_ = w.padded
                    calls = w.tiles_per_core * w.k_blocks
                    # the busiest shim channel's bytes (B per column) bounds a GEMV; then work, then bytes
                    key = (kp * np_ * eb // cols, calls * (tm * tk * tn + call_cost(w)), eb * (mp * kp + kp * np_) + 4 * mp * np_, -tn, -tk)
                    if best_key is not None and key >= best_key:
                        continue
                    if not gemv_problems(w):
                        best, best_key = w, key
    return best
