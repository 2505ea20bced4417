"""xdna ``transpose`` (2-D, perm [1, 0]) done by the DMAs alone: no core computes.

mlir-aie transposes with DMA access patterns and no kernel:
``programming_examples/basic/dma_transpose/dma_transpose.py`` reads the input through a
transposing shim pattern (``sizes=[1, 1, K, M], strides=[1, 1, 1, K]``, lines 31-33) into a
FIFO that is linked straight back out (``object_fifo_link(of_in, of_out)``, line 51; its core
only loops, lines 56-59), and ``dma_transpose_iron.py`` forwards the FIFO (``of_in.cons().forward``,
line 36) with no Worker at all. Here every column does the same with the transposition in its
mem tile, on tiles:

* per lane (column ``c``, shim channel ``k``): ``@in{c}_{k}`` shim(c, 0) -> mem tile(c, 1), objects
  of one ``th x tw`` tile of the input (row-major), and ``@out{c}_{k}`` mem tile(c, 1) -> shim(c, 0),
  linked to it by a plain ``aie.objectfifo.link [@in{c}_{k}] -> [@out{c}_{k}] ([] [])`` at the mem
  tile, with no core: the
  shape of mlir-aie's ``programming_examples/basic/passthrough_dmas/passthrough_dmas.py``
  (``of_in.cons().forward()``, lines 37-38; ``forward`` places the link on ``AnyMemTile`` and
  takes ``dims_to_stream``, python/iron/dataflow/objectfifo.py:646-654);
* ``@out{c}_{k}`` streams each tile out of the mem tile with
  ``dimensionsToStream [<size = tw, stride = 1>, <size = th, stride = tw>]``: column after
  column, i.e. the ``tw x th`` transposed tile, row-major. That is the 2-D transpose of
  mlir-aie's ``test/objectFifo-stateful-transform/dma_transformations/nd_dma_base_AIE2.mlir``
  (line 131, ``[<size = 16, stride = 1>, <size = 16, stride = 16>, ...] // transpose`` on
  ``memref<256xi32>``), lowered to one mem-tile ``aie.dma_bd`` per buffer (its lines 47-62). A
  mem-tile BD takes 4 dimensions, sizes below 513 and strides below 2^19 within the buffer
  (``DMABDOp::verify``, lib/Dialect/AIE/IR/AIEDialect.cpp:2183-2216); an innermost stride other
  than 1 is refused only for elements narrower (or wider) than 32 bits (:2222-2228), so the
  pattern is for 4-byte elements only;
* the runtime sequence reads each lane's tiles with one ``aiex.npu.dma_memcpy_nd`` (innermost:
  ``tw`` contiguous elements, then ``th`` rows of stride ``C``, then the tiles along one axis in
  the unlimited third dimension and along the other in the repeat, at most 64:
  ``verifyStridesWraps``, lib/Dialect/AIEX/IR/AIEXDialect.cpp:232-262) and writes them back with
  one more to the transposed offsets (runs of ``th`` contiguous elements at stride ``R``).

The tiles of a *lane* are a band of tile rows or tile columns of the input; a lane is one
FIFO pair of one column, and each column has up to two (a shim tile has two MM2S and two S2MM
channels, as mlir-aie's ``programming_examples/ml/eltwise_unary`` uses both each way). Lanes go
to every column of the device (npu1 4, npu2 8) first and then to each column's second channel,
as long as there are tiles along the band's axis for them, and a tile count that does not divide
evenly leaves some lanes one band more. ``th`` divides R and ``tw`` divides C (no padding: the host buffers are
the tensors themselves); a shape whose tiling breaks a DMA limit is refused with the limit named.

bf16 is :mod:`.shuffle_transpose`'s (the same lanes, with a core shuffling 4x8 blocks); other sub-32-bit
types are refused: the DMAs move 32-bit words, and a transposing pattern would need an innermost stride
other than 1 on a narrower buffer, which ``DMABDOp::verify`` refuses ("For <32b width datatypes, inner-most
dim stride must be 1", AIEDialect.cpp:2222-2224; mlir-aie's negative test
test/dialect/AIE/nd-dma-bad-stride.mlir:24-25).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...core.constants import DTYPE_BYTES
from ...core.errors import UnsupportedOnTarget
from ...specfile.instances import KernelInstance
from .design import HostBuffer, Transfer
from .devices import DMA_REPEAT_MAX, DMA_STRIDE_MAX, DMA_WRAP_MAX, Device
from .fifos import Fifo, Link

# a mem-tile BD's dimension size must stay below 513 (DMABDOp::verify, AIEDialect.cpp:2213-2214)
TILE_SIDE_MAX = 512
# one tile object at most 64 KiB: two of them (depth 2) stay well inside a mem tile's 512 KiB
TILE_BYTES_MAX = 64 * 1024
# a mem-tile BD stride below 2^19 (AIEDialect.cpp:2215-2216)
MEM_STRIDE_MAX = (1 << 19) - 1
DEPTH = 2

BF16_TEXT = (
    "transpose moves 32-bit elements (f32, i32) and bf16 only: the DMAs move 32-bit words, and a transposing "
    "pattern on narrower elements needs an inner-most stride other than 1, which mlir-aie refuses "
    "(DMABDOp::verify: 'For <32b width datatypes, inner-most dim stride must be 1', "
    "lib/Dialect/AIE/IR/AIEDialect.cpp; test/dialect/AIE/nd-dma-bad-stride.mlir)"
)


@dataclass
class TransposeDesign:
    """A DMA-only design: FIFOs, links and transfers, no core (``cores`` is empty, ``call`` None).

    ``passes``: per shim-side FIFO, the elements it carries per run (the mem tile forwards every
    object of ``@in{c}`` to ``@out{c}``); the checker compares them with what the runtime sequence
    moves, as it compares a streamed design's with what its cores take and give."""

    kernel: str
    device: Device
    columns: int
    rows: int  # R
    cols: int  # C
    tile: tuple[int, int]  # (th, tw)
    split_axis: str  # "rows" | "cols": the axis whose tile bands are spread over the columns
    bands: tuple[int, ...]  # tile bands per lane (lane l: column l % columns, shim channel l // columns)
    buffers: list[HostBuffer]
    fifos: list[Fifo] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    transfers: list[Transfer] = field(default_factory=list)
    passes: tuple[tuple[str, int], ...] = ()
    outputs: tuple[str, ...] = ()
    cores: list = field(default_factory=list)
    locals: list = field(default_factory=list)
    stack: int = 0
    call: object = None
    core_rows: int = 0

    @property
    def partition(self) -> str:
        return self.device.partition(self.columns)

    def abi(self) -> dict:
        th, tw = self.tile
        return {
            "device": self.device.name,
            "partition": self.partition,
            "columns": self.columns,
            "core_rows": 0,
            "cores": 0,
            "dma_only": True,
            "rows": self.rows,
            "padded_rows": self.rows,
            "tile": [th, tw],
            "split": self.split_axis,
            "bands_per_lane": list(self.bands),
            "buffers": [b.describe() for b in self.buffers],
        }


def _divisors(n: int, top: int) -> list[int]:
    return [d for d in range(1, min(n, top) + 1) if n % d == 0]


def _bands(n: int, cols: int) -> list[int]:
    """``n`` bands over ``cols`` lanes, the first ones taking one more when they do not divide."""
    return [n // cols + (1 if c < n % cols else 0) for c in range(cols)]


def _patterns(R: int, C: int, th: int, tw: int, i0: int, ki: int, j0: int, kj: int):
    """(input (offset, sizes, strides), output (offset, sizes, strides)) of one lane's tiles:
    tile rows [i0, i0 + ki) x tile columns [j0, j0 + kj). The tile loop with the smaller count is
    the repeat (outermost, at most 64), the other the third dimension (no wrap limit)."""
    loops = [(ki, th * C, th), (kj, tw, tw * R)]  # (count, input stride, output stride)
    outer, inner = sorted(loops, key=lambda lp: lp[0])
    def stride(n, s):
        return s if n > 1 else 0
    ins = (i0 * th * C + j0 * tw, (outer[0], inner[0], th, tw),
           (stride(outer[0], outer[1]), stride(inner[0], inner[1]), C if th > 1 else 0, 1))
    outs = (j0 * tw * R + i0 * th, (outer[0], inner[0], tw, th),
            (stride(outer[0], outer[2]), stride(inner[0], inner[2]), R if tw > 1 else 0, 1))
    return ins, outs


def _fits(R: int, C: int, th: int, tw: int, eb: int, kmax_outer: int) -> str | None:
    """Why tiles of th x tw break a DMA limit (None: they fit)."""
    if th * tw * eb > TILE_BYTES_MAX:
        return f"a tile of {th}x{tw} is over {TILE_BYTES_MAX} bytes"
    if max(th, tw) > min(TILE_SIDE_MAX, DMA_WRAP_MAX):
        return f"a tile side over {TILE_SIDE_MAX} elements (mem-tile BD sizes)"
    if th * tw > MEM_STRIDE_MAX:
        return "a mem-tile stride over 2^19"
    if kmax_outer > DMA_REPEAT_MAX:
        return (f"a lane would repeat {kmax_outer} tile bands, the shim DMA's repeat count allows "
                f"{DMA_REPEAT_MAX} (verifyStridesWraps)")
    if max(th * C, tw * R, C, R) * eb // 4 > DMA_STRIDE_MAX:
        return f"a shim stride over {DMA_STRIDE_MAX} words (verifyStridesWraps)"
    return None


def choose_tiling(R: int, C: int, eb: int, columns: int, lanes_max: int, heights, widths, max_elems: int = 0):
    """((score, th, tw, split axis, bands per lane), None) of the best th x tw tiling among ``heights`` x
    ``widths`` (at most ``max_elems`` elements, when given) that fits the DMAs, or (None, why the first one
    that did not fit failed)."""
    best, why = None, None
    for th in heights:
        for tw in widths:
            if max_elems and th * tw > max_elems:
                continue
            for axis in ("rows", "cols"):
                n_split, n_other = (R // th, C // tw) if axis == "rows" else (C // tw, R // th)
                lanes = min(lanes_max, n_split)
                bands = _bands(n_split, lanes)
                problem = _fits(R, C, th, tw, eb, max(min(b, n_other) for b in bands))
                if problem:
                    why = why or problem
                    continue
                # every column, then both shim channels of each, then the shorter contiguous run (th out,
                # tw in) as long as possible, then the larger tile
                score = (min(lanes, columns), lanes, min(th, tw), th * tw, axis == "cols")
                if best is None or score > best[0]:
                    best = (score, th, tw, axis, bands)
    return best, why


def require_2d(inst: KernelInstance) -> None:
    x = inst.inputs[0]
    if len(x.shape) != 2 or list(inst.attrs.get("perm") or [1, 0]) != [1, 0]:
        raise UnsupportedOnTarget(f"{inst.id}: transpose only 2-D with perm [1, 0] on xdna")


def transpose_design(inst: KernelInstance, dev: Device) -> TransposeDesign:
    x = inst.inputs[0]
    dt = x.dtype
    require_2d(inst)
    eb = DTYPE_BYTES[dt]
    if eb != 4:
        raise UnsupportedOnTarget(f"{inst.id}: {BF16_TEXT}")
    R, C = x.shape
    side = min(TILE_SIDE_MAX, DMA_WRAP_MAX)
    lanes_max = dev.columns * min(dev.shim_in_channels, dev.shim_out_channels)
    best, why = choose_tiling(R, C, eb, dev.columns, lanes_max, _divisors(R, side), _divisors(C, side))
    if best is None:
        raise UnsupportedOnTarget(
            f"{inst.id}: transpose of {R}x{C} {dt} does not tile for the NPU's DMAs: tiles divide the shape "
            f"exactly with sides of at most {side} elements (mem-tile BD sizes, DMABDOp::verify), and with those "
            f"{why}; transpose smaller blocks")
    _, th, tw, axis, bands = best
    name_in, name_out = inst.input_names[0], inst.opdef.output
    buffers = [HostBuffer(name_in, dt, ((name_in, R * C),), True),
               HostBuffer(name_out, inst.output.dtype, ((name_out, R * C),), True, True)]
    columns = min(dev.columns, len(bands))
    d = TransposeDesign(inst.id, dev, columns, R, C, (th, tw), axis, tuple(bands), buffers)
    start = 0
    passes, outputs = [], []
    for lane, k in enumerate(bands):
        # lane l: column l % columns, its shim channel l // columns (each column's second pair of FIFOs
        # only once every column has one)
        if axis == "rows":
            i0, ki, j0, kj = start, k, 0, C // tw
        else:
            i0, ki, j0, kj = 0, R // th, start, k
        start += k
        c, ch = lane % columns, lane // columns
        shim, mem = (c, 0), (c, 1)
        fin, fout = f"in{c}_{ch}", f"out{c}_{ch}"
        d.fifos += [Fifo(fin, shim, (mem,), DEPTH, (th * tw,), dt),
                    Fifo(fout, mem, (shim,), DEPTH, (th * tw,), dt, dims=((tw, 1), (th, tw)))]
        d.links.append(Link(fin, fout))
        (ioff, isz, ist), (ooff, osz, ost) = _patterns(R, C, th, tw, i0, ki, j0, kj)
        d.transfers += [Transfer(0, fin, c, ioff, isz, ist, 2 * ch, False),
                        Transfer(1, fout, c, ooff, osz, ost, 2 * ch + 1, True)]
        n = ki * kj * th * tw
        passes += [(fin, n), (fout, n)]
        outputs.append(fout)
    d.passes, d.outputs = tuple(passes), tuple(outputs)
    return d


def header(inst: KernelInstance, d: TransposeDesign) -> list[str]:
    th, tw = d.tile
    R, C = d.rows, d.cols
    x = inst.inputs[0]
    return [
        f"npubuild xdna kernel {inst.id}",
        f"op: {inst.op}, dtype: {inst.dtype}, attrs: {inst.attrs_json}",
        f"inputs: {inst.input_names[0]}: {R}x{C} {x.dtype}; output: {inst.opdef.output}: {C}x{R} {inst.output.dtype}",
        f"device {d.device.name}, partition {d.partition}: DMA-only transpose, no core; {th}x{tw} tiles transposed by "
        f"each mem tile's dimensionsToStream, {len(d.bands)} lane(s) (column, shim channel) with bands of tile "
        f"{d.split_axis}: {', '.join(map(str, d.bands))}",
        f"host buffers (XRT group id: name (parts x dtype)): "
        + "; ".join(f"{3 + k}: {b.name} ({' | '.join(f'{t} {n}' for t, n in b.parts)} x {b.dtype})"
                    for k, b in enumerate(d.buffers)),
    ]


def render(inst: KernelInstance, d: TransposeDesign, options: dict) -> str:
    from .frame import DeviceModule, sequence_op
    from .text import sequence_steps

    module = DeviceModule(header(inst, d), d.partition, d.fifos, d.links, [], [], d.buffers, sequence_steps(d))
    return module.render(sequence_op(options))
