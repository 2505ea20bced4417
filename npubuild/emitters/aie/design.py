"""The AIE design of one streamed kernel, as data: host buffers, object FIFOs,
core programs and the runtime sequence's DMA transfers.

Layout per used column ``c`` (all columns identical, each owning a contiguous
range of rows):

* every streamed input buffer goes shim(c, 0) -> mem tile(c, 1) -> core(c, 2)
  through two object FIFOs joined by ``aie.objectfifo.link`` (the mem tile
  holds two chunks, so the shim DMA runs ahead of the core);
* parameters (gamma, beta, indices, k/v of attention ...) go shim -> core
  directly, once per run, and stay acquired while the core works through its
  chunks;
* the output goes core -> mem tile -> shim.

At most two FIFOs can enter a core (it has two input DMA channels), and two
can leave a shim tile towards the array, so inputs are packed into shared host
buffers the way the reference design does: several parameters become one
buffer (gamma‖beta, k‖v), and a third streamed input shares a buffer with the
second (b‖c), read chunk by chunk with a strided DMA pattern. The core copies
packed parts into local buffers before calling the body, whose arguments are
plain contiguous memrefs (the same text that is compiled for the host).

Chunk size: the largest number of rows whose chunk is at most 8 KiB per
buffer (the reference design's 2048 f32) and whose FIFO buffers, double
buffered, fit a core's 64 KiB with the stack; large tensors are then spread
over as many columns as divide the chunk count.

Stack: the body's scratch (``memref.alloca``: per-channel scales, attention
scores ...) lives on the core's stack, which mlir-aie places directly below the
object-FIFO buffers, so an overrun corrupts them silently (mlir-aie PR #3597).
Every core therefore gets ``stack_size`` = mlir-aie's default 0x400 for the
body's own frame plus the scratch bytes, and the chunk choice and the checker
count that whole stack against the core's data memory.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from ...constants import DTYPE_BYTES as ELEMENT_BYTES
from ...errors import UnsupportedOnTarget
from ..host.mlir_text import MEMREF_ELEMENT
from ...ops.registry import fmt_shape, numel
from ...spec.instances import KernelInstance
from .devices import DEFAULT_STACK, DMA_GRANULE, DMA_WRAP_MAX, Device
from .split import Split, chunk_instance, split_for

CHUNK_BYTES_MAX = 8 * 1024


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
class Fifo:
    name: str
    producer: tuple[int, int]
    consumer: tuple[int, int]
    depth: int
    shape: tuple[int, ...]  # of one object: the body argument's shape, or flat when packed
    dtype: str

    @property
    def elems(self) -> int:
        return numel(self.shape)

    @property
    def bytes(self) -> int:
        return self.elems * ELEMENT_BYTES[self.dtype]


@dataclass(frozen=True)
class Link:
    src: str
    dst: str


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
    offset: int = 0  # element offset of the part inside the FIFO object
    local: str | None = None  # aie.buffer symbol the part is copied into (None: pass the object itself)
    elems: int = 0


@dataclass(frozen=True)
class CoreProgram:
    tile: tuple[int, int]
    chunks: int  # body calls per run
    streamed_in: tuple[str, ...]  # FIFOs acquired per chunk
    params: tuple[str, ...]  # FIFOs acquired once per run
    out: str
    operands: tuple[Operand, ...]  # one per body input, in the body's argument order


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

    @property
    def partition(self) -> str:
        return self.device.partition(self.columns)

    def abi(self) -> dict:
        """What the runtime needs to call the kernel: host buffers in argument order."""
        return {
            "device": self.device.name,
            "partition": self.partition,
            "columns": self.columns,
            "rows": self.rows,
            "padded_rows": self.padded_rows,
            "chunk_rows": self.chunk_rows,
            "stack_size": self.stack,
            "scratch_bytes": self.scratch,
            "buffers": [b.describe() for b in self.buffers],
        }


# ---- packing -----------------------------------------------------------------------------------------------------


def _buffers(inst: KernelInstance, split: Split) -> list[HostBuffer]:
    """Host buffers in argument order: inputs (packed to <= 2 FIFOs per core), then the output."""
    names, ins = inst.input_names, inst.inputs

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
    if len(streamed) + len(params) > 2:
        # b‖c: the trailing streamed inputs share one buffer, read chunk by chunk
        keep = 2 - len(params)
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


def stack_bytes(scratch: int) -> int:
    """``stack_size`` for a body with ``scratch`` bytes of allocas (a multiple of 16)."""
    return -(-(DEFAULT_STACK + scratch) // SCRATCH_ALIGN) * SCRATCH_ALIGN


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
    """Every chunk of every streamed buffer is a whole number of 32-bit words (DMA granule)."""
    for b in buffers:
        eb = ELEMENT_BYTES[b.dtype]
        if not b.streamed:
            continue
        row = split.out_row_elems(inst) if b.output else sum(n // split.rows for _, n in b.parts)
        if (r * row * eb) % DMA_GRANULE:
            return False
        if len(b.parts) > 1 and (r * (row // len(b.parts)) * eb) // DMA_GRANULE > DMA_WRAP_MAX:
            return False  # packed streams are read with an inner wrap of one part's chunk
    return True


def choose_chunk(inst: KernelInstance, split: Split, buffers: list[HostBuffer], device: Device, stack_of) -> tuple[int, int, int]:
    """(rows per chunk, FIFO depth, rows after padding), or UnsupportedOnTarget saying what does not fit.

    ``stack_of(r)`` is the core's stack for chunks of ``r`` rows (its body's
    scratch grows with the chunk for some ops). The best chunk that divides
    the rows is taken unless padding the rows to whole chunks of a size at
    least twice as large is possible (a prime row count would otherwise stream
    one row at a time).
    """
    budget = device.core_memory
    widest = max(
        (split.out_row_elems(inst) if b.output else sum(n // split.rows for _, n in b.parts)) * ELEMENT_BYTES[b.dtype]
        for b in buffers
        if b.streamed
    )

    def fits(r: int, chunks: int):
        if (r > 1 and r * widest > CHUNK_BYTES_MAX) or not _granular(split, buffers, r, inst):
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
    exact = next(((r, dep) for r in _divisors_desc(rows) if (dep := fits(r, rows // r))), None)
    if split.kind != "whole":
        top = min(rows, max(1, CHUNK_BYTES_MAX // widest))
        for r in range(top, (exact[0] if exact else 0), -1):
            chunks = -(-rows // r)
            if r < 2 * (exact[0] if exact else 0):
                break
            dep = fits(r, chunks)
            if dep:
                return r, dep, chunks * r
    if exact:
        return exact[0], exact[1], rows
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


def _sizes(inst: KernelInstance) -> str:
    parts = [f"{n} {fmt_shape(t.shape)} {t.dtype}" for n, t in zip(inst.input_names, inst.inputs)]
    return ", ".join(parts + [f"{inst.opdef.output} {fmt_shape(inst.output.shape)} {inst.output.dtype}"])


def _columns(n_chunks: int, device: Device) -> int:
    return max(d for d in range(1, device.columns + 1) if n_chunks % d == 0)


# ---- the design ---------------------------------------------------------------------------------------------------


def plan_design(inst: KernelInstance, device: Device) -> Design:
    split = split_for(inst)
    buffers = _buffers(inst, split)
    scratch_of: dict[int, int] = {}

    def stack_of(r: int) -> int:
        if r not in scratch_of:
            scratch_of[r] = body_scratch(chunk_instance(inst, split, r))
        return stack_bytes(scratch_of[r])

    r, depth, padded = choose_chunk(inst, split, buffers, device, stack_of)
    stack = stack_of(r)
    if padded != split.rows:
        buffers = [
            b if not b.streamed else dataclasses.replace(b, slots=tuple(padded * (n // split.rows) for _, n in b.parts))
            for b in buffers
        ]
    n_chunks = padded // r
    cols = _columns(n_chunks, device)
    per_col = n_chunks // cols
    body = chunk_instance(inst, split, r)
    d = Design(inst.id, device, cols, split.rows, r, split, body, buffers, stack=stack, padded_rows=padded, scratch=scratch_of[r])
    position = {name: k for k, name in enumerate(inst.input_names)}
    for c in range(cols):
        shim, mem, core = (c, 0), (c, 1), (c, 2)
        bd = 0
        streamed_in, params = [], []
        operand_of: dict[int, Operand] = {}
        for bi, b in enumerate(buffers):
            eb_rows = sum(n // split.rows for _, n in b.parts) if not b.output else split.out_row_elems(inst)
            if b.output:
                obj = r * eb_rows
                shape = body.output.shape
                d.fifos.append(Fifo(f"{b.name}_c{c}", core, mem, depth, shape, b.dtype))
                d.fifos.append(Fifo(f"{b.name}_c{c}_shim", mem, shim, 2 if per_col > 1 else 1, shape, b.dtype))
                d.links.append(Link(f"{b.name}_c{c}", f"{b.name}_c{c}_shim"))
                out_fifo = f"{b.name}_c{c}"
                d.transfers.append(
                    Transfer(bi, f"{b.name}_c{c}_shim", c, c * per_col * obj, (1, 1, 1, per_col * obj), (0, 0, 0, 1), bd, True)
                )
                bd += 1
                continue
            if b.streamed:
                obj = r * eb_rows
                fifo = f"{b.name}_c{c}"
                shape = _object_shape(b, body, position, obj)
                d.fifos.append(Fifo(f"{fifo}_shim", shim, mem, 2 if per_col > 1 else 1, shape, b.dtype))
                d.fifos.append(Fifo(fifo, mem, core, depth, shape, b.dtype))
                d.links.append(Link(f"{fifo}_shim", fifo))
                streamed_in.append(fifo)
                part = r * (eb_rows // len(b.parts))
                if len(b.parts) == 1:
                    d.transfers.append(Transfer(bi, f"{fifo}_shim", c, c * per_col * obj, (1, 1, 1, per_col * obj), (0, 0, 0, 1), bd, False))
                else:
                    # chunk k of column c = [part 0 rows | part 1 rows | ...], each part a separate tensor in the buffer
                    plen = b.slot(0)
                    d.transfers.append(
                        Transfer(bi, f"{fifo}_shim", c, c * per_col * part, (1, per_col, len(b.parts), part), (0, part, plen, 1), bd, False)
                    )
            else:
                obj = b.elems
                fifo = f"{b.name}_c{c}"
                d.fifos.append(Fifo(fifo, shim, core, 1, _object_shape(b, body, position, obj), b.dtype))
                params.append(fifo)
                d.transfers.append(Transfer(bi, fifo, c, 0, (1, 1, 1, obj), (0, 0, 0, 1), bd, False))
            bd += 1
            off = 0
            for tensor, n in b.parts:
                elems = (r * (n // split.rows)) if b.streamed else n
                local = None
                if len(b.parts) > 1:
                    local = f"{tensor}_c{c}_local"
                    d.locals.append((core, local, body.inputs[position[tensor]].shape, b.dtype))
                operand_of[position[tensor]] = Operand(fifo, off, local, elems)
                off += elems
        operands = tuple(operand_of[k] for k in range(len(inst.inputs)))
        d.cores.append(CoreProgram(core, per_col, tuple(streamed_in), tuple(params), out_fifo, operands))
    return d


def _object_shape(b: HostBuffer, body: KernelInstance, position: dict, elems: int) -> tuple[int, ...]:
    """A FIFO object has the body argument's shape; a packed one is flat."""
    if len(b.parts) == 1:
        return body.inputs[position[b.parts[0][0]]].shape
    return (elems,)
