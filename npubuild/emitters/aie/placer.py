"""Placement as a strategy: which tiles a design's columns and core rows land on.

A design is built against "column ``c``, core row ``j``"; a :class:`Placer`
turns those into tiles and says which ``columns x rows`` shapes to try, in
order. The planners (:mod:`.placement`, and the GEMM designs :mod:`.gemm` and
:mod:`.gemm_whole`) take their tiles from one, so another placement (columns
from an offset, the alternate columns of the full 8-column npu2, a placement
around tiles another design holds) is a new placer, not a change to every
design. mlir-aie IRON has the same seam (``Placer.make_placement``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .devices import FIRST_CORE_ROW, Device

Tile = tuple[int, int]


class Placer(Protocol):
    def shim(self, col: int) -> Tile: ...

    def mem(self, col: int) -> Tile: ...

    def core(self, col: int, row: int) -> Tile: ...

    def shapes(self, n_chunks: int, device: Device, row_cap: int) -> list[tuple[int, int]]: ...


@dataclass(frozen=True)
class ColumnPlacer:
    """Columns from 0; in column ``c`` the shim is (c, 0), the mem tile (c, 1) and core row ``j`` is
    (c, FIRST_CORE_ROW + j), as mlir-aie's placed examples lay a column out."""

    first_core_row: int = FIRST_CORE_ROW

    def shim(self, col: int) -> Tile:
        return (col, 0)

    def mem(self, col: int) -> Tile:
        return (col, 1)

    def core(self, col: int, row: int) -> Tile:
        return (col, self.first_core_row + row)

    def shapes(self, n_chunks: int, device: Device, row_cap: int) -> list[tuple[int, int]]:
        """(columns, rows) whose cores divide the chunks: most cores first, then most columns
        (every column brings its own shim DMA bandwidth)."""
        opts = [
            (c, r)
            for c in range(1, device.columns + 1)
            for r in range(1, row_cap + 1)
            if n_chunks % (c * r) == 0
        ]
        return sorted(opts, key=lambda cr: (-cr[0] * cr[1], -cr[0]))


COLUMNS = ColumnPlacer()
