"""Object FIFOs and links: the one record every xdna design kind builds, and their one rendering.

The streamed designs (:mod:`.placement`), the blocked GEMM overlay (:mod:`.gemm`)
and the one-dispatch GEMM (:mod:`.gemm_whole`) all describe their data movement
as :class:`Fifo` and :class:`Link` records, and :func:`stream_lines` writes the
``aie.tile``, ``aie.objectfifo`` and ``aie.objectfifo.link`` lines of each, so a
dialect change to these ops is made in one place.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import prod

from ...core.constants import DTYPE_BYTES
from ..host.mlir_text import memref_type


@dataclass(frozen=True)
class Fifo:
    """One ``aie.objectfifo``: several consumers for a broadcast (mlir-aie
    test/objectFifo-stateful-transform/register_external_buffers/shim_broadcast_test.mlir:
    one shim FIFO read by three cores); ``dims`` the producer's ``dimensionsToStream``."""

    name: str
    producer: tuple[int, int]
    consumers: tuple[tuple[int, int], ...]
    depth: int
    shape: tuple[int, ...]  # of one object
    dtype: str
    dims: tuple[tuple[int, int], ...] = ()  # (size, stride), outermost first
    # (const_pad_before, const_pad_after) per entry of ``dims``: zeros the mem tile's MM2S adds around what
    # ``dims`` reads (``padDimensions``; see :func:`fifo_line`)
    pads: tuple[tuple[int, int], ...] = ()
    # the (single) consumer's ``dimensionsFromStream``: where its S2MM writes each incoming element
    from_dims: tuple[tuple[int, int], ...] = ()

    @property
    def elems(self) -> int:
        return prod(self.shape)

    @property
    def bytes(self) -> int:
        return self.elems * DTYPE_BYTES[self.dtype]


@dataclass(frozen=True)
class Link:
    """``aie.objectfifo.link [@ins] -> [@outs] ([src offsets] [dst offsets])`` at a mem tile.

    One in, one out: a plain link (no offsets). One in, several outs: a
    *distribute*, out ``i`` taking elements ``offsets[i]`` .. ``offsets[i]`` + its
    object size of each in object. Several ins, one out: a *join*, the reverse.
    Offsets are in elements. mlir-aie's verifier (lib/Dialect/AIE/IR/AIEDialect.cpp,
    ``ObjectFifoLinkOp::verify``; test/dialect/AIE/objectfifo_bad_link.mlir) wants
    join/distribute at a mem tile, one offset per child and never both at once.

    The mem tile moves a join's or distribute's object with one buffer descriptor per child,
    at its offset (lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp,
    ``createMemTileDMA``), so a join output's ``dims`` walk each join input's slice, not the
    joined object, and must stay inside the shortest one (``ObjectFifoLinkOp::verify``: "out of
    bounds access in join input"; checked by :func:`.check.join_bounds_problem`).
    """

    ins: tuple[str, ...] | str
    outs: tuple[str, ...] | str
    offsets: tuple[int, ...] = ()

    def __post_init__(self):
        for name in ("ins", "outs"):
            v = getattr(self, name)
            object.__setattr__(self, name, (v,) if isinstance(v, str) else tuple(v))
        object.__setattr__(self, "offsets", tuple(self.offsets))

    @property
    def kind(self) -> str:
        return "join" if len(self.ins) > 1 else "distribute" if len(self.outs) > 1 else "plain"

    @property
    def src(self) -> str:
        """The single in FIFO (a plain link or a distribute)."""
        if len(self.ins) != 1:
            raise ValueError(f"a join has {len(self.ins)} sources")
        return self.ins[0]

    @property
    def dst(self) -> str:
        """The single out FIFO (a plain link or a join)."""
        if len(self.outs) != 1:
            raise ValueError(f"a distribute has {len(self.outs)} destinations")
        return self.outs[0]


def tile_name(t: tuple[int, int]) -> str:
    kind = {0: "shim", 1: "mem"}.get(t[1], "core")
    return f"%{kind}_{t[0]}_{t[1]}"


def tile_lines(fifos: list[Fifo]) -> list[str]:
    """``aie.tile`` of every tile a FIFO touches, row by row (shims, mem tiles, cores)."""
    tiles = sorted({t for f in fifos for t in (f.producer, *f.consumers)}, key=lambda t: (t[1], t[0]))
    return [f"    {tile_name(t)} = aie.tile({t[0]}, {t[1]})" for t in tiles]


def _dims(f: Fifo) -> str:
    if not f.dims:
        return ""
    return " dimensionsToStream [" + ", ".join(f"<size = {sz}, stride = {st}>" for sz, st in f.dims) + "]"


def _pads(f: Fifo) -> str:
    """``padDimensions`` as mlir-aie's tests write it on a mem tile's output FIFO
    (test/objectFifo-stateful-transform/data_movement_patterns/link/link_via_shared_mem_padDimensions.mlir:
    a smaller input linked to a larger padded output; dma_transformations/memtile_padding_test.mlir)."""
    if not f.pads:
        return ""
    pads = ", ".join(f"<const_pad_before = {b}, const_pad_after = {a}>" for b, a in f.pads)
    return f" {{padDimensions = #aie<bd_pad_layout_array[{pads}]>}}"


def fifo_line(f: Fifo) -> str:
    ty = memref_type(f.shape, f.dtype)
    ends = ", ".join(tile_name(t) for t in f.consumers)
    if f.from_dims:  # ``{%tile dimensionsFromStream [...]}`` (mlir-aie test/objectFifo-stateful-transform/dma_transformations/nd_dma_base_AIE2.mlir)
        assert len(f.consumers) == 1, f"@{f.name}: dimensionsFromStream of one consumer only"
        ends += " dimensionsFromStream [" + ", ".join(f"<size = {sz}, stride = {st}>" for sz, st in f.from_dims) + "]"
    return (f"    aie.objectfifo @{f.name}({tile_name(f.producer)}{_dims(f)}, {{{ends}}}, {f.depth} : i32){_pads(f)} : "
            f"!aie.objectfifo<{ty}>")


def link_line(ln: Link) -> str:
    """``aie.objectfifo.link``; a distribute's offsets go in the second list, a join's in the first
    (mlir-aie test/npu-xrt/two_col/aie.mlir: ``[@in0] -> [@in1, .., @in4] ([] [0, 128, 256, 384])`` and
    ``[@out1, .., @out4] -> [@out0] ([0, 128, 256, 384] [])``; test/dialect/AIE/roundtrip.mlir)."""
    offs = ", ".join(map(str, ln.offsets))
    src, dst = (offs, "") if ln.kind == "join" else ("", offs)
    ins = ", ".join(f"@{n}" for n in ln.ins)
    outs = ", ".join(f"@{n}" for n in ln.outs)
    return f"    aie.objectfifo.link [{ins}] -> [{outs}] ([{src}] [{dst}])"


def stream_lines(fifos: list[Fifo], links: list[Link]) -> list[str]:
    """Every FIFO, then every link, in the designs' order."""
    return [fifo_line(f) for f in fifos] + [link_line(ln) for ln in links]
