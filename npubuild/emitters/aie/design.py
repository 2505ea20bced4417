"""The AIE design of one streamed kernel, as data: host buffers, object FIFOs,
core programs and the runtime sequence's DMA transfers.

Layout per used column ``c`` (all columns identical, each owning a contiguous
range of chunks), with ``R`` core rows (c, 2) .. (c, 1 + R):

* every streamed input buffer goes shim(c, 0) -> mem tile(c, 1) in objects of
  ``R`` chunks, and the mem tile *distributes* chunk ``j`` of each object to
  core (c, 2 + j): ``aie.objectfifo.link [@in] -> [@in_r0, ..] ([] [0, obj, 2 obj, ..])``
  as mlir-aie's ``programming_examples/ml/softmax/softmax_whole_array_placed.py``
  and ``test/npu-xrt/two_col/aie.mlir`` do. The mem tile holds two such
  objects, so the shim DMA runs ahead of the cores;
* the output is *joined* the same way: core (c, 2 + j) fills part ``j`` of the
  mem tile's object (``aie.objectfifo.link [@y_r0, ..] -> [@y] ([0, obj, ..] [])``),
  which goes back to the shim whole. Core j therefore works on chunks j, R + j,
  2R + j, .. of its column, and a column's chunks stay contiguous in the host
  buffer;
* parameters (gamma, beta, indices, k/v of attention ...) go shim -> cores
  directly, once per run, as one FIFO *broadcast* to the R cores of the column
  (one shim channel, one input channel per core; mlir-aie
  ``test/objectFifo-stateful-transform/register_external_buffers/shim_broadcast_test.mlir``),
  and stay acquired while each core works through its chunks.
  With one row (R = 1) the links are plain ``([] [])`` links.
* a kernel with one streamed input, one output and no parameter may split
  each column into two groups of R / 2 cores, each group with its own
  shim -> mem tile FIFO, its own joined output FIFO back and a contiguous half
  of the column's chunks: both shim channels stream each way, as mlir-aie's
  ``programming_examples/ml/eltwise_unary`` does (two input and two output
  FIFOs per column). :mod:`.placement` takes it where the model ranks it faster.
  A kernel whose parameter buffer would take one of those channels (gamma of
  rms_norm, gamma‖beta of layer_norm) may send it *ahead of the rows on each
  group's input FIFO* instead: the runtime sequence queues the parameter's
  transfer (linear, repeated once per core of the group: a repeat of stride 0,
  which ``AIEX::isLinearTransfer`` leaves out of the wrap checks) before the
  rows' on the same shim channel, the mem tile distributes it like any object,
  and each core copies its first ``preamble`` objects into local buffers once
  per run (``CoreProgram.preamble``).

Channels decide the packing. At most two FIFOs can enter a core (it has two
input DMA channels), and two can leave a shim tile towards the array, so
inputs are packed into shared host buffers the way the reference design does:
several parameters become one buffer (gamma‖beta, k‖v), and a third streamed
input shares a buffer with the second (b‖c), read chunk by chunk with a
strided DMA pattern. The mem tile adds a third limit: it has 6 output (MM2S)
channels, and each streamed buffer takes one per core row plus the output
one back to the shim, so ``s`` streamed buffers allow ``(6 - 1) // s`` rows
(and its 6 input channels ``6 - s``): two streams fit 2 rows, one stream 4.
The planner therefore also tries packing *every* streamed input into one
buffer (a‖b of ``add``: one packed buffer per core stream, each chunk
``[a rows | b rows]``), which needs the inputs to share a dtype and a row length,
and takes the packing and placement that use the most cores (4 rows x all
columns when the chunks divide). The price of packing is a smaller chunk: a
packed part is the inner DMA wrap, at most 1023 words. When fewer than 4 rows
are used, ``Design.rows_note`` (and the abi's ``core_rows_note``) says why:
too few chunks, or inputs that cannot share a stream (``where``'s bool
condition and f32 operands, rope's x and cos/sin of different row lengths).
The core copies packed parts into local buffers before calling the body, whose
arguments are plain contiguous memrefs (the same text that is compiled for
the host).

Chunk size: the largest number of rows whose chunk is at most 8 KiB per
buffer (the reference design's 2048 f32) and whose FIFO buffers, double
buffered, fit a core's 64 KiB with the stack; when that leaves cores idle, a
smaller chunk dividing the same rows that gives more of them work, down to
1 KiB per buffer (``CHUNK_BYTES_MIN``); the chunks are then spread over as
many columns x rows as divide the chunk count. Every candidate placement
is run through the static checker (:mod:`.check`: channels, buffer
descriptors, locks and memory of every tile), and one that does not fit is
not taken.

Stack: the body's scratch (``memref.alloca``: per-channel scales, attention
scores ...) lives on the core's stack, which mlir-aie places directly below the
object-FIFO buffers, so an overrun corrupts them silently (mlir-aie PR #3597).
Every core therefore gets ``stack_size`` = mlir-aie's default 0x400 for the
body's own frame plus the scratch bytes, and the chunk choice and the checker
count that whole stack against the core's data memory.

Element sizes come from ``DTYPE_BYTES`` throughout, so every rule above holds
for 16-bit element types as for 32-bit ones.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.constants import DTYPE_BYTES as ELEMENT_BYTES
from ...core.errors import UnsupportedOnTarget
from ...ops.registry import fmt_shape, numel
from ...specfile.instances import KernelInstance
from ..host.mlir_text import MEMREF_ELEMENT
from .devices import DEFAULT_STACK, DMA_GRANULE, DMA_WRAP_MAX, Device
from .fifos import Fifo, Link
from .split import Split

CHUNK_BYTES_MAX = 8 * 1024
# a smaller chunk than the largest that fits is taken to give more cores work, down to this many
# bytes per buffer (the scale of mlir-aie's own examples' objects: 1024 bf16 in ml/eltwise_add, 256 bf16
# in vector_reduce_max), below which per-object FIFO and DMA costs would outweigh the extra cores
CHUNK_BYTES_MIN = 1024


@dataclass(frozen=True)
class HostBuffer:
    """One runtime-sequence argument: one or more tensors packed back to back.

    Streamed tensors whose row count does not divide into good chunks are
    padded to whole chunks: each part then occupies ``slots[i]`` elements
    (>= its own), the runtime zero-fills the tail of an input part and ignores
    the tail of the output.
    """

    name: str
    dtype: str
    parts: tuple[tuple[str, int], ...]  # (tensor name, elements), in order
    streamed: bool
    output: bool = False
    slots: tuple[int, ...] = ()  # elements reserved per part (default: exactly the part)

    def slot(self, i: int) -> int:
        return self.slots[i] if self.slots else self.parts[i][1]

    @property
    def elems(self) -> int:
        return sum(self.slot(i) for i in range(len(self.parts)))

    def describe(self) -> dict:
        return {
            "name": self.name,
            "dtype": self.dtype,
            "parts": [{"tensor": t, "elements": n, "slot": self.slot(i)} for i, (t, n) in enumerate(self.parts)],
        }


@dataclass(frozen=True)
class Transfer:
    """One ``aiex.npu.dma_memcpy_nd``: sizes/strides outermost first, in elements."""

    buffer: int  # index into Design.buffers
    fifo: str  # the shim-side FIFO (its ``metadata``)
    column: int
    offset: int
    sizes: tuple[int, int, int, int]
    strides: tuple[int, int, int, int]
    bd_id: int
    wait: bool  # issue a token and dma_wait on it (outputs)


@dataclass(frozen=True)
class Operand:
    """How the core gets one body argument: a FIFO object, or a part of one copied to a local buffer."""

    fifo: str
    offset: int = 0  # element offset of the part inside the FIFO object (of the preamble's objects, end to end)
    local: str | None = None  # aie.buffer symbol the part is copied into (None: pass the object itself)
    elems: int = 0
    preamble: bool = False  # a parameter part carried by the first objects of the streamed FIFO ``fifo``


@dataclass(frozen=True)
class CoreProgram:
    tile: tuple[int, int]
    chunks: int  # body calls per run
    streamed_in: tuple[str, ...]  # FIFOs acquired per chunk
    params: tuple[str, ...]  # FIFOs acquired once per run
    out: str
    operands: tuple[Operand, ...]  # one per body input, in the body's argument order
    preamble: int = 0  # objects of streamed_in[0] that carry the parameters, read (copied out) once per run first


@dataclass
class Design:
    kernel: str
    device: Device
    columns: int
    rows: int
    chunk_rows: int
    split: Split
    body: KernelInstance  # the instance the body is emitted for
    buffers: list[HostBuffer]
    fifos: list[Fifo] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    cores: list[CoreProgram] = field(default_factory=list)
    locals: list[tuple[tuple[int, int], str, tuple[int, ...], str]] = field(default_factory=list)  # (tile, symbol, shape, dtype)
    transfers: list[Transfer] = field(default_factory=list)
    stack: int = DEFAULT_STACK
    padded_rows: int = 0  # rows including the zero padding up to whole chunks
    scratch: int = 0  # bytes of the body's memref.alloca buffers (part of ``stack``)
    core_rows: int = 1  # cores per used column
    rows_note: str = ""  # why fewer than the device's core rows are used ("" when all are)
    call: object = None  # kernel_library.KernelCall: the cores call mlir-aie's kernel instead of the generated body
    body_note: str = ""  # why mlir-aie's kernel is not used although xdna_body asked for it ("" otherwise)

    @property
    def partition(self) -> str:
        return self.device.partition(self.columns)

    def abi(self) -> dict:
        """What the runtime needs to call the kernel: host buffers in argument order."""
        return {
            "device": self.device.name,
            "partition": self.partition,
            "columns": self.columns,
            "core_rows": self.core_rows,
            "cores": len(self.cores),
            **({"core_rows_note": self.rows_note} if self.rows_note else {}),
            "rows": self.rows,
            "padded_rows": self.padded_rows,
            "chunk_rows": self.chunk_rows,
            "stack_size": self.stack,
            "scratch_bytes": self.scratch,
            "buffers": [b.describe() for b in self.buffers],
        }


# ---- packing -----------------------------------------------------------------------------------------------------


def natural_streams(split: Split) -> int:
    """Streamed FIFOs per core before row placement asks for fewer: a core has two input channels."""
    return min(len(split.streamed), 2 - (1 if split.params else 0))


def pack_buffers(inst: KernelInstance, split: Split, streams: int | None = None) -> list[HostBuffer]:
    """Host buffers in argument order: inputs (the streamed ones packed into ``streams`` buffers,
    the parameters into one), then the output."""
    names, ins = inst.input_names, inst.inputs
    keep = natural_streams(split) if streams is None else streams

    def buf(idx: list[int], streamed: bool) -> HostBuffer:
        dtypes = {ins[i].dtype for i in idx}
        if len(dtypes) != 1:
            raise UnsupportedOnTarget(
                f"{inst.id}: inputs {', '.join(names[i] for i in idx)} must share one host buffer on xdna "
                f"(a core takes two input streams) but have dtypes {', '.join(sorted(dtypes))}"
            )
        return HostBuffer("_".join(names[i] for i in idx), ins[idx[0]].dtype, tuple((names[i], numel(ins[i].shape)) for i in idx), streamed)

    streamed = [[i] for i in split.streamed]
    params = [list(split.params)] if split.params else []
    if len(streamed) > keep:
        # b‖c: the trailing streamed inputs share one buffer, read chunk by chunk
        streamed = streamed[: keep - 1] + [[i for g in streamed[keep - 1 :] for i in g]]
        rows = {split.row_elems(inst, i) for i in streamed[-1]}
        if len(rows) != 1:
            raise UnsupportedOnTarget(f"{inst.id}: packed streamed inputs need equal row lengths on xdna")
    out = HostBuffer(inst.opdef.output, inst.output.dtype, ((inst.opdef.output, numel(inst.output.shape)),), True, True)
    return [buf(g, True) for g in streamed] + [buf(g, False) for g in params] + [out]


# ---- stack ---------------------------------------------------------------------------------------------------------

_ALLOC = re.compile(r"= memref\.(alloca|alloc)\(\) : memref<([^>]*)>")
SCRATCH_ALIGN = 16  # bytes: each alloca rounded up (the widest AIE vector load alignment we rely on)


def body_scratch(body: KernelInstance) -> int:
    """Bytes of stack the compute body allocates (its ``memref.alloca`` buffers, each aligned).

    Read from the emitted text itself, so it is exactly what the core will run.
    A heap buffer (``memref.alloc``) cannot run on a core (no heap): refused.
    """
    from ..host import emit as host_emit

    total = 0
    for kind, ty in _ALLOC.findall(host_emit(body)):
        *dims, elem = ty.split("x")
        n = _ELEM_BYTES[elem]
        for d in dims:
            n *= int(d)
        if kind == "alloc":
            raise UnsupportedOnTarget(
                f"{body.id}: the compute body needs a {n}-byte heap buffer ({ty}) and an AIE core has no heap; "
                f"use smaller shapes or split the op into several kernels"
            )
        total += -(-n // SCRATCH_ALIGN) * SCRATCH_ALIGN
    return total


# mlir-aie places a core's buffers right after its stack, back to back (AIEAssignBuffers.cpp basicAllocation:
# address = stack_size, no padding: "Fixme: alignment"), and CoreOp::verify wants the stack ABI's alignment,
# 32 B on AIE2 and 64 B on AIE2P (test/dialect/AIE/bad_stack_alignment.mlir): a stack_size that is a multiple
# of 64 keeps every buffer after it aligned for the widest vector access on both NPU generations
STACK_ALIGN = 64


def stack_bytes(scratch: int) -> int:
    """``stack_size`` for a body with ``scratch`` bytes of allocas, a multiple of :data:`STACK_ALIGN`."""
    return -(-(DEFAULT_STACK + scratch) // STACK_ALIGN) * STACK_ALIGN


# memref element type -> bytes, from the dtypes the host emitters write (bool buffers are i8 in memory)
_ELEM_BYTES = {MEMREF_ELEMENT[dt]: n for dt, n in ELEMENT_BYTES.items()}


# ---- chunking -----------------------------------------------------------------------------------------------------


def _divisors_desc(n: int) -> list[int]:
    small = [d for d in range(1, int(n**0.5) + 1) if n % d == 0]
    return sorted({*small, *(n // d for d in small)}, reverse=True)


def core_bytes(inst: KernelInstance, split: Split, buffers: list[HostBuffer], r: int, depth: int, stack: int) -> int:
    """Data memory one core needs for chunks of ``r`` rows with FIFOs ``depth`` deep."""
    total = stack
    for b in buffers:
        eb = ELEMENT_BYTES[b.dtype]
        if b.output:
            total += depth * r * split.out_row_elems(inst) * eb
        elif b.streamed:
            per_row = sum(n // split.rows for _, n in b.parts)
            total += depth * r * per_row * eb
            if len(b.parts) > 1:
                total += r * per_row * eb  # local copies of the parts
        else:
            total += b.elems * eb * (2 if len(b.parts) > 1 else 1)
    return total


def _granular(split: Split, buffers: list[HostBuffer], r: int, inst: KernelInstance) -> bool:
    return _granule_problem(split, buffers, r, inst) is None


def _granule_problem(split: Split, buffers: list[HostBuffer], r: int, inst: KernelInstance) -> str | None:
    """Why a chunk of ``r`` rows of some streamed buffer is not a whole number of 32-bit words (DMA granule)
    or, packed, exceeds the DMA's inner wrap; None when every one is fine."""
    for b in buffers:
        eb = ELEMENT_BYTES[b.dtype]
        if not b.streamed:
            continue
        row = split.out_row_elems(inst) if b.output else sum(n // split.rows for _, n in b.parts)
        if (r * row * eb) % DMA_GRANULE:
            return f"a chunk of {b.name} is {r * row * eb} bytes and the DMA moves {DMA_GRANULE}-byte words"
        if len(b.parts) > 1 and (r * (row // len(b.parts)) * eb) // DMA_GRANULE > DMA_WRAP_MAX:
            # packed streams are read with an inner wrap of one part's chunk
            return f"a packed part of {b.name} is {r * (row // len(b.parts)) * eb // DMA_GRANULE} words, over the DMA's inner wrap of {DMA_WRAP_MAX}"
    return None


def choose_chunk(inst: KernelInstance, split: Split, buffers: list[HostBuffer], device: Device, stack_of,
                 only: int | None = None, cores: int = 1) -> tuple[int, int, int]:
    """(rows per chunk, FIFO depth, rows after padding), or UnsupportedOnTarget saying what does not fit.

    ``stack_of(r)`` is the core's stack for chunks of ``r`` rows (its body's
    scratch grows with the chunk for some ops). The best chunk that divides
    the rows is taken unless padding the rows to whole chunks of a size at
    least twice as large is possible (a prime row count would otherwise stream
    one row at a time). ``only``: chunks of exactly that many rows, the rows
    padded to a multiple (a library kernel's fixed chunk). ``cores``: how many
    cores the placement could use; when the chosen chunk leaves some idle, a
    smaller one that divides the same rows is taken, down to
    ``CHUNK_BYTES_MIN`` per buffer (:func:`_spread`).
    """
    budget = device.core_memory
    widest = max(
        (split.out_row_elems(inst) if b.output else sum(n // split.rows for _, n in b.parts)) * ELEMENT_BYTES[b.dtype]
        for b in buffers
        if b.streamed
    )

    def fits(r: int, chunks: int, prefer: bool = True):
        if (prefer and r > 1 and r * widest > CHUNK_BYTES_MAX and only is None) or not _granular(split, buffers, r, inst):
            return None
        depth = 2 if chunks > 1 else 1
        if core_bytes(inst, split, buffers, r, 1, 0) > budget:
            return None  # cheap test first: the stack only adds to this
        stack = stack_of(r)
        if core_bytes(inst, split, buffers, r, depth, stack) <= budget:
            return depth
        if depth == 2 and core_bytes(inst, split, buffers, r, 1, stack) <= budget:
            return 1
        return None

    rows = split.rows
    if only is not None:
        chunks = -(-rows // only)
        dep = fits(only, chunks)
        if dep:
            return only, dep, chunks * only
        need = core_bytes(inst, split, buffers, only, 1, stack_of(only))
        why = (f"they need {need} bytes of core data memory, a core has {budget}" if need > budget
               else _granule_problem(split, buffers, only, inst) or "they do not fit")
        raise UnsupportedOnTarget(f"{inst.id}: chunks of {only} row(s) do not fit ({_sizes(inst)}): {why}")
    exact = next(((r, dep) for r in _divisors_desc(rows) if (dep := fits(r, rows // r))), None)
    if split.kind != "whole":
        top = min(rows, max(1, CHUNK_BYTES_MAX // widest))
        for r in range(top, (exact[0] if exact else 0), -1):
            chunks = -(-rows // r)
            if r < 2 * (exact[0] if exact else 0):
                break
            dep = fits(r, chunks)
            if dep:
                return _spread(r, dep, chunks * r, widest, cores, fits)
    if exact is None:
        # no chunk within the preferred 8 KiB is a whole number of DMA words (e.g. one bf16 per row out
        # of a long-row reduction): the smallest larger chunk that is and still fits the core
        exact = next(((r, dep) for r in reversed(_divisors_desc(rows)) if (dep := fits(r, rows // r, prefer=False))), None)
    if exact:
        return _spread(exact[0], exact[1], rows, widest, cores, fits)
    stack = stack_of(1)
    need = core_bytes(inst, split, buffers, 1, 1, stack)
    what = "the whole kernel" if split.kind == "whole" else "one row"
    if need > budget:
        scratch = stack - DEFAULT_STACK
        of_which = f", of which {scratch} bytes are the body's scratch" if scratch > 0 else ""
        raise UnsupportedOnTarget(
            f"{inst.id}: {what} needs {need} bytes of core data memory ({_sizes(inst)}; {need - stack} bytes of "
            f"buffers, {stack} bytes of stack{of_which}) but an AIE core has {budget}; "
            f"use smaller shapes or split the op into several kernels"
        )
    raise UnsupportedOnTarget(
        f"{inst.id}: no chunk of whole rows is a multiple of 4 bytes ({_sizes(inst)}); the NPU's DMA moves 32-bit words, "
        f"so use sizes whose rows hold a multiple of 4 bytes"
    )


def _spread(r: int, depth: int, padded: int, widest: int, cores: int, fits) -> tuple[int, int, int]:
    """(r, depth, padded), or the smaller chunk dividing ``padded`` that gives the most chunks up to
    ``cores`` while moving at least CHUNK_BYTES_MIN per buffer."""
    if padded // r >= cores:
        return r, depth, padded
    best = (r, depth)
    for d in _divisors_desc(padded):  # larger chunks first: ever more of them
        if d >= r:
            continue
        if d * widest < CHUNK_BYTES_MIN or padded // d > cores:
            break
        dep = fits(d, padded // d)
        if dep:
            best = (d, dep)
    return best[0], best[1], padded


def _sizes(inst: KernelInstance) -> str:
    parts = [f"{n} {fmt_shape(t.shape)} {t.dtype}" for n, t in zip(inst.input_names, inst.inputs)]
    return ", ".join(parts + [f"{inst.opdef.output} {fmt_shape(inst.output.shape)} {inst.output.dtype}"])
