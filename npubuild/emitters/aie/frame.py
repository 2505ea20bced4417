"""The parts of an ``aie.mlir`` module every xdna design kind writes the same way.

The streamed designs (:mod:`.text`), the blocked GEMM overlay (:mod:`.gemm`)
and the one-dispatch GEMM (:mod:`.gemm_whole_text`) differ in their cores'
programs and their declarations; each hands the renderer a :class:`DeviceModule`,
and the module around them, the tiles, FIFOs and links (:mod:`.fifos`), each
``aie.core``'s frame and the runtime sequence are written here once, so a
dialect change is made in one place.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..host.mlir_text import memref_type
from .fifos import Fifo, Link, stream_lines, tile_lines, tile_name
from .rules_check import check_text


@dataclass(frozen=True)
class Wait:
    """``aiex.npu.dma_wait`` on one output FIFO: retires its oldest outstanding transfer."""

    fifo: str


@dataclass(frozen=True)
class DeviceModule:
    """One xdna design as the renderer takes it, whichever kind built it: the tiles (those its FIFOs
    touch), FIFOs and links, declarations (the compute body or the microkernel's, local buffers),
    the cores' programs, the host buffers and the runtime sequence's steps (Transfer or Wait).
    ``decls_first``: the declarations go between the tiles and the FIFOs, where the GEMM designs
    have always put them; the streamed designs put theirs after the links."""

    header: list[str]
    partition: str
    fifos: list[Fifo]
    links: list[Link]
    decls: list[str]
    cores: list[str]
    buffers: list
    steps: list
    decls_first: bool = False

    def render(self, runtime_sequence: str) -> str:
        """``module { aie.device(partition) { ... } }`` with the header as comments; ``runtime_sequence``
        is the sequence op of the installed mlir-aie (see :mod:`npubuild.emitters.aie`)."""
        out = [f"// {h}" if h else "//" for h in self.header]
        out += ["module {", f"  aie.device({self.partition}) {{"]
        out += tile_lines(self.fifos)
        streams = stream_lines(self.fifos, self.links)
        out += self.decls + streams if self.decls_first else streams + self.decls
        out += self.cores + sequence_lines(runtime_sequence, self.buffers, self.steps)
        out += ["  }", "}", ""]
        text = "\n".join(out)
        # every design kind passes mlir-aie's verifier and lowering rules (rules.py) before anyone gets the text
        check_text(self.kernel, text)
        return text

    @property
    def kernel(self) -> str:
        """The kernel id the header's first line names."""
        first = self.header[0] if self.header else ""
        return first.removeprefix("npubuild xdna kernel ") or "xdna design"


def sequence_op(options: dict) -> str:
    return options.get("runtime_sequence", "aie.runtime_sequence")


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
