"""The parts of an ``aie.mlir`` module every xdna design kind writes the same way.

The streamed designs (:mod:`.text`), the blocked GEMM overlay (:mod:`.gemm`)
and the one-dispatch GEMM (:mod:`.gemm_whole_text`) differ in their cores'
programs and their declarations; the module around them, the tiles, FIFOs and
links (:mod:`.fifos`), each ``aie.core``'s frame and the runtime sequence are
written here once, so a dialect change is made in one place.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..host.mlir_text import memref_type
from .fifos import Fifo, Link, stream_lines, tile_lines, tile_name


@dataclass(frozen=True)
class Wait:
    """``aiex.npu.dma_wait`` on one output FIFO: retires its oldest outstanding transfer."""

    fifo: str


def device_module(header: list[str], partition: str, fifos: list[Fifo], links: list[Link], decls: list[str],
                  cores: list[str], sequence: list[str], decls_first: bool = False) -> str:
    """``module { aie.device(partition) { ... } }`` with the header as comments. ``decls`` (the compute
    body or the microkernel declarations, local buffers) follow the FIFOs, or, ``decls_first``, come
    between the tiles and the FIFOs, where the GEMM designs have always put their declarations."""
    out = [f"// {h}" if h else "//" for h in header]
    out += ["module {", f"  aie.device({partition}) {{"]
    out += tile_lines(fifos)
    streams = stream_lines(fifos, links)
    out += decls + streams if decls_first else streams + decls
    out += cores + sequence
    out += ["  }", "}", ""]
    return "\n".join(out)


def core_lines(tile: tuple[int, int], consts: list[str], loop: list[str], attrs: str) -> list[str]:
    """One ``aie.core``: its hoisted constants, its (run-forever) loop and its attributes."""
    col, row = tile
    return [f"    %run_{col}_{row} = aie.core({tile_name(tile)}) {{", *consts, *("      " + ln for ln in loop), "      aie.end",
            f"    }} {{{attrs}}}"]


def sequence_lines(op: str, buffers: list, steps: list) -> list[str]:
    """The runtime sequence: one ``aiex.npu.dma_memcpy_nd`` per Transfer, one ``dma_wait`` per Wait, in order."""
    types = [memref_type((b.elems,), b.dtype) for b in buffers]
    lines = [f"    {op}({', '.join(f'%{b.name}: {t}' for b, t in zip(buffers, types))}) {{"]
    for s in steps:
        if isinstance(s, Wait):
            lines.append(f"      aiex.npu.dma_wait {{symbol = @{s.fifo}}}")
            continue
        b = buffers[s.buffer]
        attrs = f"id = {s.bd_id} : i64, " + ("issue_token = true, " if s.wait else "") + f"metadata = @{s.fifo}"
        lines.append(
            f"      aiex.npu.dma_memcpy_nd(%{b.name}[0, 0, 0, {s.offset}][{', '.join(map(str, s.sizes))}]"
            f"[{', '.join(map(str, s.strides))}]) {{{attrs}}} : {types[s.buffer]}"
        )
    lines.append("    }")
    return lines
