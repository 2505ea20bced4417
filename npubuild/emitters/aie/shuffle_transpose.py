"""xdna ``transpose`` (2-D, perm [1, 0]) of bf16: the DMAs regroup each tile into 4x8 blocks, a core
transposes every block with one vector shuffle, and the DMAs put the transposed blocks back together.

The DMAs alone cannot transpose 16-bit elements (:mod:`.dma_transpose`: a transposing pattern needs an
inner-most stride other than 1, which ``DMABDOp::verify`` refuses below 32 bits). mlir-aie's
``programming_examples/basic/combined_transpose`` (tested on npu1 with i16: tests/2_run_makefile_i16_s4.lit)
splits the work the same way: DMA patterns move whole runs of elements, a core transposes small blocks.
Here, per lane (column ``c``, shim channel ``k``, the core in row ``k`` of that column):

* ``@in{c}_{k}``: shim -> mem tile, one ``th x tw`` input tile per object (row-major), written into the mem
  tile with ``dimensionsFromStream [<th/4, 32 tw/8>, <4, 8>, <tw/8, 32>, <8, 1>]``: the tile's 4x8 blocks,
  each row-major, one after the other (block ``(bi, bj)`` at ``32 (bi tw/8 + bj)``). A mem-tile
  consumer's ``dimensionsFromStream`` on a FIFO forwarded to a core is combined_transpose.py's
  ``in_L3L2_fifo.cons(dims_from_stream=...).forward(...)``; the inner-most stride is 1 and a mem-tile BD
  takes 4 dimensions (``DMABDOp::verify``).
* ``@blk{c}_{k}``: mem tile -> core, a plain link (``forward``); ``@body`` reads each 32-element block as
  ``vector<32xbf16>``, ``vector.shape_cast`` to ``vector<4x8xbf16>``, ``vector.transpose [1, 0]`` to
  ``vector<8x4xbf16>``, ``shape_cast`` back and writes it. convert-vector-to-aievec lowers that transpose
  to one ``aievec.shuffle ... [t16_4x8]`` (test/Conversion/VectorToAIEVec/vector-transpose.mlir,
  ``transpose_16b_types``: ``vector<4x8xbf16>`` at aie-target=aie2; LowerVectorTransposeOpToAIEVecShuffleOpPattern
  takes 512-bit results of 8, 16 or 32-bit elements), and convert-aievec-to-llvm lowers the shuffle to
  ``xllvm.intr.aie2.vshuffle`` (test/Conversion/AIEVecToLLVM/test-shuffle.mlir); the shape casts around it
  fold. 512-bit bf16 reads: test/unit_tests/aievec_tests/aie2/bf16_max_reduce (``vector.transfer_read ...
  memref<1024xbf16>, vector<32xbf16>``).
* ``@tr{c}_{k}``: core -> mem tile, the transposed 8x4 blocks in the same order, linked to ``@out{c}_{k}``:
  mem tile -> shim with ``dimensionsToStream [<tw/8, 32>, <8, 4>, <th/4, 32 tw/8>, <4, 1>]``, which reads the
  ``tw x th`` transposed tile row by row (runs of 4 elements, inner-most stride 1).
* the runtime sequence moves the tiles exactly as the 32-bit DMA-only design does (its ``_patterns``).

Only npu1 (aie2): ``aievec.shuffle`` lowers to the aie2 intrinsic alone (AIEVecToLLVM.cpp's
ShuffleOpConversion builds ``xllvm.intr.aie2.vshuffle`` whatever the target, and no aie2p test lowers a
transpose), so npu2 is refused with that reason. One core per lane keeps up with its lane: a block costs a
read, a shuffle and a write (3 vector instructions per 64 bytes) while the lane's shim channel moves
4 bytes a cycle; more cores per lane would add no bandwidth.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...core.errors import UnsupportedOnTarget
from ...specfile.instances import KernelInstance
from .design import HostBuffer, Transfer
from .devices import DMA_WRAP_MAX, Device
from .dma_transpose import DEPTH, TILE_SIDE_MAX, TransposeDesign, _divisors, _patterns, choose_tiling, require_2d
from .fifos import Fifo, Link

BLOCK_ROWS, BLOCK_COLS = 4, 8  # one input block: vector<4x8xbf16> -> vector<8x4xbf16> (t16_4x8)
BLOCK = BLOCK_ROWS * BLOCK_COLS  # 32 bf16: one 512-bit register
# a core holds its two FIFOs' objects (depth 2 each) and its stack in 64 KiB: tiles of at most 4096 elements
TILE_ELEMS_MAX = 4096
STACK = 1024
AIE2_ONLY = ("a bf16 transpose runs on npu1 only: its core shuffle (vector.transpose -> aievec.shuffle) lowers "
             "to the aie2 intrinsic alone (mlir-aie lib/Conversion/AIEVecToLLVM/AIEVecToLLVM.cpp, "
             "ShuffleOpConversion: xllvm.intr.aie2.vshuffle; no aie2p test lowers a transpose)")


@dataclass(frozen=True)
class ShuffleCore:
    """One core of a lane: every object of ``fifo_in`` becomes one of ``fifo_out`` through ``@body``."""

    tile: tuple[int, int]
    fifo_in: str
    fifo_out: str
    calls: int  # objects per run

    # what the static checker reads of a streamed design's core (check.design_layout)
    @property
    def streamed_in(self) -> tuple[str, ...]:
        return (self.fifo_in,)

    @property
    def out(self) -> str:
        return self.fifo_out

    @property
    def chunks(self) -> int:
        return self.calls

    preamble = 0
    params = ()


class ShuffleTransposeDesign(TransposeDesign):
    """The DMA-only design's lanes with a core in each (see the module docstring)."""

    def abi(self) -> dict:
        return {**super().abi(), "dma_only": False, "cores": len(self.cores), "core_rows": self.core_rows,
                "block": [BLOCK_ROWS, BLOCK_COLS]}

    @property
    def tile_elems(self) -> int:
        return self.tile[0] * self.tile[1]

    def block_body(self) -> list[str]:
        """``@body``'s text (the roofline counts its operations)."""
        return body_text(self.tile_elems)


def block_dims(th: int, tw: int) -> tuple[tuple[int, int], ...]:
    """``dimensionsFromStream`` of the mem tile: a row-major th x tw tile -> its 4x8 blocks, each row-major."""
    per_row = tw // BLOCK_COLS  # blocks per block row
    return ((th // BLOCK_ROWS, BLOCK * per_row), (BLOCK_ROWS, BLOCK_COLS), (per_row, BLOCK), (BLOCK_COLS, 1))


def unblock_dims(th: int, tw: int) -> tuple[tuple[int, int], ...]:
    """``dimensionsToStream`` of the mem tile: the transposed 8x4 blocks -> the tw x th tile, row-major."""
    per_row = tw // BLOCK_COLS
    return ((per_row, BLOCK), (BLOCK_COLS, BLOCK_ROWS), (th // BLOCK_ROWS, BLOCK * per_row), (BLOCK_ROWS, 1))


def body_text(elems: int) -> list[str]:
    """``@body``: transpose each 32-element block of ``elems`` (a 4x8 block -> 8x4)."""
    mem = f"memref<{elems}xbf16>"
    return [
        f"func.func @body(%in_x: {mem}, %out_y: {mem}) {{",
        "  %c0 = arith.constant 0 : index",
        f"  %cn = arith.constant {elems} : index",
        f"  %cb = arith.constant {BLOCK} : index",
        "  %pad = arith.constant 0.0 : bf16",
        "  scf.for %i = %c0 to %cn step %cb {",
        f"    %v = vector.transfer_read %in_x[%i], %pad {{in_bounds = [true]}} : {mem}, vector<{BLOCK}xbf16>",
        f"    %b = vector.shape_cast %v : vector<{BLOCK}xbf16> to vector<{BLOCK_ROWS}x{BLOCK_COLS}xbf16>",
        f"    %t = vector.transpose %b, [1, 0] : vector<{BLOCK_ROWS}x{BLOCK_COLS}xbf16> to vector<{BLOCK_COLS}x{BLOCK_ROWS}xbf16>",
        f"    %w = vector.shape_cast %t : vector<{BLOCK_COLS}x{BLOCK_ROWS}xbf16> to vector<{BLOCK}xbf16>",
        f"    vector.transfer_write %w, %out_y[%i] {{in_bounds = [true]}} : vector<{BLOCK}xbf16>, {mem}",
        "  }",
        "  return",
        "}",
    ]


def transpose16_design(inst: KernelInstance, dev: Device) -> ShuffleTransposeDesign:
    require_2d(inst)
    x = inst.inputs[0]
    if dev.arch != "aie2":
        raise UnsupportedOnTarget(f"{inst.id}: {AIE2_ONLY}; build it for npu1, or transpose f32")
    R, C = x.shape
    if R % BLOCK_ROWS or C % BLOCK_COLS:
        raise UnsupportedOnTarget(
            f"{inst.id}: a bf16 transpose on the NPU takes {R}x{C} only when the rows are a multiple of {BLOCK_ROWS} "
            f"and the columns of {BLOCK_COLS} (the core transposes 4x8 blocks); pad the tensor or transpose f32")
    side = min(TILE_SIDE_MAX, DMA_WRAP_MAX)
    lanes_max = dev.columns * min(dev.shim_in_channels, dev.shim_out_channels, dev.core_rows)
    heights = [t for t in _divisors(R, side) if t % BLOCK_ROWS == 0]
    widths = [t for t in _divisors(C, side) if t % BLOCK_COLS == 0]
    best, why = choose_tiling(R, C, 2, dev.columns, lanes_max, heights, widths, TILE_ELEMS_MAX)
    if best is None:
        raise UnsupportedOnTarget(
            f"{inst.id}: transpose of {R}x{C} bf16 does not tile for the NPU: tiles of rows a multiple of {BLOCK_ROWS} "
            f"and columns of {BLOCK_COLS}, at most {TILE_ELEMS_MAX} elements and {side} per side, dividing the shape"
            + (f", and with those {why}" if why else "") + "; transpose smaller blocks")
    _, th, tw, axis, bands = best
    name_in, name_out = inst.input_names[0], inst.opdef.output
    buffers = [HostBuffer(name_in, "bf16", ((name_in, R * C),), True),
               HostBuffer(name_out, "bf16", ((name_out, R * C),), True, True)]
    columns = min(dev.columns, len(bands))
    d = ShuffleTransposeDesign(inst.id, dev, columns, R, C, (th, tw), axis, tuple(bands), buffers)
    d.stack = STACK
    d.core_rows = min(2, -(-len(bands) // columns))
    start, outputs = 0, []
    n = th * tw
    for lane, k in enumerate(bands):
        i0, ki, j0, kj = (start, k, 0, C // tw) if axis == "rows" else (0, R // th, start, k)
        start += k
        c, ch = lane % columns, lane // columns
        shim, mem, core = (c, 0), (c, 1), (c, 2 + ch)
        fin, fblk, ftr, fout = f"in{c}_{ch}", f"blk{c}_{ch}", f"tr{c}_{ch}", f"out{c}_{ch}"
        d.fifos += [Fifo(fin, shim, (mem,), DEPTH, (n,), "bf16", from_dims=block_dims(th, tw)),
                    Fifo(fblk, mem, (core,), DEPTH, (n,), "bf16"),
                    Fifo(ftr, core, (mem,), DEPTH, (n,), "bf16"),
                    Fifo(fout, mem, (shim,), DEPTH, (n,), "bf16", dims=unblock_dims(th, tw))]
        d.links += [Link(fin, fblk), Link(ftr, fout)]
        (ioff, isz, ist), (ooff, osz, ost) = _patterns(R, C, th, tw, i0, ki, j0, kj)
        d.transfers += [Transfer(0, fin, c, ioff, isz, ist, 2 * ch, False),
                        Transfer(1, fout, c, ooff, osz, ost, 2 * ch + 1, True)]
        d.cores.append(ShuffleCore(core, fblk, ftr, ki * kj))
        outputs.append(fout)
    d.outputs = tuple(outputs)
    return d


def header(inst: KernelInstance, d: ShuffleTransposeDesign) -> list[str]:
    th, tw = d.tile
    x = inst.inputs[0]
    return [
        f"npubuild xdna kernel {inst.id}",
        f"op: {inst.op}, dtype: {inst.dtype}, attrs: {inst.attrs_json}",
        f"inputs: {inst.input_names[0]}: {d.rows}x{d.cols} {x.dtype}; output: {inst.opdef.output}: {d.cols}x{d.rows} bf16",
        f"device {d.device.name}, partition {d.partition}: {th}x{tw} tiles cut into 4x8 blocks by each mem tile's "
        f"dimensionsFromStream, every block transposed by one core shuffle, the blocks put back by dimensionsToStream; "
        f"{len(d.bands)} lane(s) (column, shim channel, one core each) with bands of tile {d.split_axis}: "
        f"{', '.join(map(str, d.bands))}",
        f"host buffers (XRT group id: name (parts x dtype)): "
        + "; ".join(f"{3 + k}: {b.name} ({' | '.join(f'{t} {n}' for t, n in b.parts)} x {b.dtype})"
                    for k, b in enumerate(d.buffers)),
    ]


def core_program(core: ShuffleCore, elems: int, stack: int) -> list[str]:
    """The core's run-forever loop: one object in, ``@body``, one object out (the streamed designs' form)."""
    from .frame import core_lines
    from .text import FOREVER

    mem = f"memref<{elems}xbf16>"
    sub = f"!aie.objectfifosubview<{mem}>"
    loop = [
        f"scf.for %run = %c0 to %c{FOREVER} step %c1 {{",
        f"  %s_sv = aie.objectfifo.acquire @{core.fifo_in}(Consume, 1) : {sub}",
        f"  %s = aie.objectfifo.subview.access %s_sv[0] : {sub} -> {mem}",
        f"  %o_sv = aie.objectfifo.acquire @{core.fifo_out}(Produce, 1) : {sub}",
        f"  %o = aie.objectfifo.subview.access %o_sv[0] : {sub} -> {mem}",
        f"  func.call @body(%s, %o) : ({mem}, {mem}) -> ()",
        f"  aie.objectfifo.release @{core.fifo_in}(Consume, 1)",
        f"  aie.objectfifo.release @{core.fifo_out}(Produce, 1)",
        "}",
    ]
    consts = ["      %c0 = arith.constant 0 : index", f"      %c{FOREVER} = arith.constant {FOREVER} : index",
              "      %c1 = arith.constant 1 : index"]
    return core_lines(core.tile, consts, loop, f"stack_size = {stack} : i32")


def render(inst: KernelInstance, d: ShuffleTransposeDesign, options: dict) -> str:
    from .frame import DeviceModule, sequence_op
    from .text import sequence_steps

    decls = ["    // compute body: the host target compiles this same function", *("    " + ln for ln in d.block_body())]
    cores = [ln for core in d.cores for ln in core_program(core, d.tile_elems, d.stack)]
    module = DeviceModule(header(inst, d), d.partition, d.fifos, d.links, decls, cores, d.buffers, sequence_steps(d))
    return module.render(sequence_op(options))
