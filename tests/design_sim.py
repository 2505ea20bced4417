"""Run an xdna design's data movement on the host, with its compute body compiled
from the emitted aie.mlir text.

A model of what the hardware does with a :class:`npubuild.emitters.aie.design.Design`:
the runtime sequence's ``dma_memcpy_nd`` access patterns read the host buffers
into element streams, object FIFOs cut the streams into objects (through the
mem-tile links: a plain link passes objects on, a *distribute* cuts each
mem-tile object into its children's objects at the link's offsets, a *join*
assembles one from its children's objects), a broadcast FIFO gives every
consumer its own copy, each core acquires parameters once and stream objects per
chunk, copies packed parts into its local buffers, calls the body, and the
output objects are written back through the output transfer's pattern. A
DMA-only design (no core: npubuild/emitters/aie/dma_transpose.py) hands each
object through its mem-tile link, walked by the output FIFO's
``dimensionsToStream``, straight to the shim's output transfer. A join
must write every element of its object exactly once, as the hardware's locks
would require (else the shim would wait for data nobody writes).

Link patterns are lowered as mlir-aie's objectFifo pass lowers them
(lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp,
``createMemTileDMA``): the mem tile moves a join's or a distribute's object with
one buffer descriptor per child, at that child's offset, so a join output's
``dimensionsToStream`` is applied to each join input's slice, and a distribute
output's to its own slice; never to the whole joined object. Before that, each
link passes ``ObjectFifoLinkOp::verify``'s bound rule
(lib/Dialect/AIE/IR/AIEDialect.cpp, :func:`link_bounds_error`). Every design kind
(this model of the streamed designs, and tests/design_sim_gemm.py's text model
of the GEMMs) moves a link's children with the BDs :func:`link_bds` lays out:
one per child, in the link's order, at its offset, of the length
``getJoinTransferLengths`` / ``getDistributeTransferLengths`` compute (the next
offset minus this one), which must be the child's object size (rule
``link-transfer-length`` of npubuild/emitters/aie/rules.py): swapped or
overlapping offsets are refused, as the lowering cannot move them. The body
is the ``func.func @body`` text taken out of the emitted file and compiled by the
host toolchain, so the test covers the exact text aiecc would get.
"""
from __future__ import annotations

import re
from collections import defaultdict, deque
from math import prod
from pathlib import Path

import numpy as np

from npubuild.ops.registry import NUMPY_DTYPE
from npubuild.runner.host import HostKernel

from .hostkit import compiled_library

_BODY_START = "    // compute body: the host target compiles this same function"


def body_module(aie_text: str) -> str:
    """The body function of an emitted aie.mlir as a host module exporting ``kernel``."""
    lines = aie_text.splitlines()
    i = lines.index(_BODY_START) + 1
    assert lines[i].startswith("    func.func @body("), lines[i]
    j = lines.index("    }", i)
    func = [ln[2:] for ln in lines[i : j + 1]]
    func[0] = func[0].replace("func.func @body(", "func.func @kernel(", 1)
    return "module {\n" + "\n".join(func) + "\n}\n"


def compile_body(aie_text: str, body_instance, out_dir: Path) -> HostKernel:
    """``out_dir`` is unused: bodies are compiled once per session by text (tests/hostkit.py)."""
    so = compiled_library(body_module(aie_text), f"body_{body_instance.key[:12]}")
    return HostKernel(so, body_instance.describe())


class SimError(AssertionError):
    """The design would hang, read or write out of bounds, corrupt a transfer, or be refused by aie-opt."""


def dims_max_index(dims) -> int:
    """The largest index a ``dimensionsToStream`` / ``dimensionsFromStream`` pattern reaches
    (mlir-aie lib/Dialect/AIE/IR/AIEDialect.cpp, ``getDimsMaxIdx``: sum of stride * (size - 1))."""
    return sum(st * (sz - 1) for sz, st in dims)


def link_transfer_lengths(offsets, parent_elems: int) -> list[int]:
    """The length of each child's transfer as mlir-aie computes it from the link's offsets, in the
    order written (``ObjectFifoLinkOp::getJoinTransferLengths`` / ``getDistributeTransferLengths``):
    the next offset minus this one, the last child up to the end of the parent's object."""
    offs = list(offsets)
    return [(offs[i + 1] if i + 1 < len(offs) else parent_elems) - offs[i] for i in range(len(offs))]


def link_bounds_error(kind: str, dims, offsets, parent_elems: int) -> str | None:
    """``ObjectFifoLinkOp::verify``'s bound rule (lib/Dialect/AIE/IR/AIEDialect.cpp) and its message:
    a join's output ``dimensionsToStream`` (a distribute's input ``dimensionsFromStream`` at the mem
    tile) is applied to each child's transfer, so its largest index must stay below the shortest one.
    The shortest is found with verify's own loop (a negative length is replaced by the next one)."""
    if not dims or kind not in ("join", "distribute"):
        return None
    max_idx = dims_max_index(dims)
    least = -1
    for n in link_transfer_lengths(offsets, parent_elems):
        if n <= least or least < 0:
            least = n
    if least > max_idx:
        return None
    side, child = ("output", "join input") if kind == "join" else ("input", "distribute output")
    return (f"'aie.objectfifo.link' op specified {side} stride(s) and size(s) result in out of bounds access "
            f"in {child}, for index {max_idx} in transfer of length {least}.")


def link_bds(kind: str, children, offsets, parent_elems: int, child_elems) -> list[tuple[int, int]]:
    """(offset, length) of each child's buffer descriptor on the parent's mem-tile object, in the link's
    order, as ``createMemTileDMA`` (AIEObjectFifoStatefulTransform.cpp) lays them out; a plain link moves
    the object whole. A length other than the child's object size is refused with the rule's message."""
    from npubuild.emitters.aie.rules import violation

    if kind == "plain":
        return [(0, parent_elems)]
    spans = list(zip(offsets, link_transfer_lengths(offsets, parent_elems)))
    for child, elems, (off, n) in zip(children, child_elems, spans):
        if n != elems or off < 0 or off + n > parent_elems:
            raise SimError(violation("link-transfer-length", f"{kind} over {parent_elems} elements",
                                     child=child, length=n, offset=off, elems=elems))
    return spans


def dims_indices(dims, length: int) -> np.ndarray:
    """Element offsets one buffer descriptor of ``length`` elements visits with a ``dimensionsToStream``
    (or ``dimensionsFromStream``) pattern, relative to its offset; the outermost dimension runs until
    the transfer is used up (the AIE-ML DMA's outermost dimension carries no wrap). The walk must
    visit each of the ``length`` elements exactly once."""
    if not dims:
        return np.arange(length, dtype=np.int64)
    inner = prod(sz for sz, _ in dims[1:])
    outer = -(-length // inner)
    sizes = [outer, *(sz for sz, _ in dims[1:])] + [1] * (4 - len(dims))
    strides = [st for _, st in dims] + [0] * (4 - len(dims))
    idx = pattern_indices(0, sizes, strides)[:length]
    if idx.size != length or idx.max() >= length or np.unique(idx).size != length:
        raise SimError(f"dimensionsToStream {list(dims)} does not walk a transfer of {length} elements exactly once")
    return idx


def padded_indices(dims, pads, length: int) -> np.ndarray:
    """What a mem tile's MM2S BD with ``padDimensions`` streams, as buffer indices (-1: a zero the DMA adds):
    dimension ``d`` runs over ``before + size + after`` positions, and a position is data only when every
    dimension is inside its ``size`` (then at ``sum((i - before) * stride)``), as mlir-aie's
    memtile_padding_test.mlir pads a 61x56 read to 64x64 (2 rows before, 1 after, 4 columns either side).
    The padded volume must be the BD's ``len`` (the padded FIFO's object: createMemTileDMA); every
    dimension, the outermost included, wraps at its size (a padded BD has at most 3, each with a wrap field)."""
    if len(pads) != len(dims) or len(dims) > 3:
        raise SimError(f"padDimensions {list(pads)} for dimensions {list(dims)}")
    idx = np.zeros(1, np.int64)
    data = np.ones(1, bool)
    for (size, stride), (before, after) in zip(dims, pads):
        pos = np.arange(before + size + after) - before
        inside = (pos >= 0) & (pos < size)
        idx = (idx[:, None] + np.where(inside, pos, 0)[None, :] * stride).ravel()
        data = (data[:, None] & inside[None, :]).ravel()
    if idx.size != length:
        raise SimError(f"padDimensions stream {idx.size} elements, the BD moves {length}")
    return np.where(data, idx, -1)


def pattern_indices(offset: int, sizes, strides) -> np.ndarray:
    """Element indices a 4-D DMA pattern visits, in order (outermost first)."""
    idx = np.full(tuple(sizes), offset, dtype=np.int64)
    for k, (n, s) in enumerate(zip(sizes, strides)):
        shape = [1] * 4
        shape[k] = n
        idx = idx + (np.arange(n, dtype=np.int64) * s).reshape(shape)
    return idx.ravel()


def run_design(design, inputs: dict, body) -> np.ndarray:
    d = design
    fifos = {f.name: f for f in d.fifos}
    into = {n: ln for ln in d.links for n in ln.ins}  # FIFO -> the link it feeds
    host = []
    for b in d.buffers:
        dt = np.dtype(NUMPY_DTYPE[b.dtype])
        if b.output:
            host.append(np.zeros(b.elems, dtype=dt))
        else:
            # each part in its slot, the padding zero-filled (the runtime's packing contract)
            parts = []
            for i, (t, n) in enumerate(b.parts):
                slot = np.zeros(b.slot(i), dtype=dt)
                slot[:n] = np.asarray(inputs[t], dtype=dt).ravel()
                parts.append(slot)
            host.append(np.concatenate(parts))
    # (FIFO, consuming tile) -> objects waiting there
    queues: dict[tuple, deque] = defaultdict(deque)

    def deliver(name: str, obj: np.ndarray) -> None:
        """An object produced into FIFO ``name``: through a plain link or a distribute, or to its consumers."""
        ln = into.get(name)
        if ln is None:
            for tile in fifos[name].consumers:
                queues[(name, tile)].append(obj.copy())
        elif ln.kind == "plain":
            out = fifos[ln.outs[0]]
            # S2MM: the in FIFO's dimensionsFromStream at the mem tile places each element; MM2S: the out
            # FIFO's dimensionsToStream reads the buffer (createMemTileDMA: one BD each side, the same buffer)
            from_dims = fifos[name].from_dims
            if from_dims:
                buf = np.empty_like(obj)
                buf[dims_indices(from_dims, obj.size)] = obj
                obj = buf
            deliver(ln.outs[0], obj[dims_indices(out.dims, obj.size)] if out.dims else obj)
        elif ln.kind == "distribute":
            assert obj.size == fifos[name].elems
            # createMemTileDMA: one MM2S buffer descriptor per distribute output, in the link's order, at its
            # offset and of its transfer length, each walking that output's dimensionsToStream over its slice
            bds = link_bds("distribute", ln.outs, ln.offsets, obj.size, [fifos[c].elems for c in ln.outs])
            for (off, n), child in zip(bds, ln.outs):
                part = obj[off : off + n]
                deliver(child, part[dims_indices(fifos[child].dims, part.size)] if fifos[child].dims else part)

    for f in d.fifos:
        if f.dims and f.producer[1] != 1:
            raise SimError(f"@{f.name}: dimensionsToStream on a non-mem-tile producer is not modelled")
    for ln in d.links:
        parent = fifos[ln.outs[0]] if ln.kind == "join" else fifos[ln.ins[0]]
        # a distribute's input-side pattern (dimensionsFromStream) has no field in a Fifo record: only
        # the join's output pattern can break ObjectFifoLinkOp::verify's bound here
        err = link_bounds_error(ln.kind, parent.dims if ln.kind == "join" else (), ln.offsets, parent.elems)
        if err:
            raise SimError(err)
    for t in d.transfers:
        if t.wait:
            continue
        stream = host[t.buffer][pattern_indices(t.offset, t.sizes, t.strides)]
        for obj in stream.reshape(-1, fifos[t.fifo].elems):
            deliver(t.fifo, obj)
    produced: dict[str, list] = defaultdict(list)  # FIFO -> objects the cores produced into it
    for core in d.cores:
        if hasattr(core, "fifo_in"):  # one object in, ``@body``, one object out (.shuffle_transpose)
            for _ in range(core.calls):
                produced[core.fifo_out].append(np.asarray(body(queues[(core.fifo_in, core.tile)].popleft())).ravel())
            continue
        params = {n: queues[(n, core.tile)].popleft() for n in core.params}
        # the parameters riding the first stream: its first objects, end to end
        pre = [queues[(core.streamed_in[0], core.tile)].popleft() for _ in range(core.preamble)]
        pre = np.concatenate(pre) if pre else None
        for _ in range(core.chunks):
            objs = dict(params)
            objs.update({n: queues[(n, core.tile)].popleft() for n in core.streamed_in})
            args = []
            for k, op in enumerate(core.operands):
                shape = d.body.inputs[k].shape
                obj = pre if op.preamble else objs[op.fifo]
                part = obj[op.offset : op.offset + op.elems] if op.local else obj
                args.append(np.ascontiguousarray(part).reshape(shape))
            y = body(*args)
            produced[core.out].append(np.asarray(y).ravel())
    out_streams: dict[str, list] = {}
    for ln in d.links:
        if all(n in produced for n in ln.ins):
            out_streams[ln.outs[0]] = _through(ln, fifos, [produced.pop(n) for n in ln.ins])
    for t in d.transfers:
        if t.wait:
            idx = pattern_indices(t.offset, t.sizes, t.strides)
            if t.fifo in out_streams:
                data = np.concatenate(out_streams.pop(t.fifo))
            else:  # a DMA-only design: the objects a mem-tile link handed straight to the shim
                q = queues[(t.fifo, fifos[t.fifo].consumers[0])]
                objs = [q.popleft() for _ in range(-(-idx.size // fifos[t.fifo].elems)) if q]
                data = np.concatenate(objs) if objs else np.zeros(0, dtype=host[t.buffer].dtype)
            assert data.size == idx.size, (t.fifo, data.size, idx.size)
            host[t.buffer][idx] = data
    assert not out_streams and not produced and all(not q for q in queues.values()), "the design left data in flight"
    return host[-1][: d.buffers[-1].parts[0][1]]


def _through(ln, fifos, children: list[list]) -> list:
    """The objects a plain link or a join hands to its out FIFO, from each in FIFO's objects."""
    if ln.kind == "plain":  # the out FIFO's dimensionsToStream walks each object (its mem-tile MM2S BD)
        dims = fifos[ln.outs[0]].dims
        return [obj[dims_indices(dims, obj.size)] for obj in children[0]] if dims else children[0]
    parent = fifos[ln.outs[0]]
    rounds = {len(objs) for objs in children}
    assert len(rounds) == 1, f"join {ln.outs[0]}: children produced {sorted(rounds)} objects"
    # createMemTileDMA: one S2MM BD per join input (its object lands at its offset, of its transfer length)
    # and one MM2S BD per join input, in the link's order, walking the output's dimensionsToStream over
    # that input's slice
    bds = link_bds("join", ln.ins, ln.offsets, parent.elems, [fifos[c].elems for c in ln.ins])
    out = []
    for objs in zip(*children):
        obj = np.zeros(parent.elems, dtype=objs[0].dtype)
        written = np.zeros(parent.elems, dtype=np.int64)
        for (off, n), child in zip(bds, objs):
            obj[off : off + n] = child
            written[off : off + n] += 1
        assert (written == 1).all(), f"join {ln.outs[0]}: offsets {ln.offsets} do not tile its object"
        out.append(np.concatenate([obj[off + dims_indices(parent.dims, n)] for off, n in bds]))
    return out


def dma_lines(aie_text: str) -> list[str]:
    return [ln.strip() for ln in aie_text.splitlines() if "aiex.npu.dma_memcpy_nd" in ln]


_FIFO = re.compile(r"aie\.objectfifo @(\w+)\((%\w+), \{(%\w+(?:, %\w+)*)\}, (\d+) : i32\) : !aie\.objectfifo<memref<([\dx]*)(\w+)>>")
_LINK = re.compile(r"aie\.objectfifo\.link \[([^\]]*)\] -> \[([^\]]*)\] \(\[([^\]]*)\] \[([^\]]*)\]\)")


def declared_fifos(aie_text: str) -> dict:
    """name -> (producer tile, consumer tiles (", "-joined), depth, memref type) from the text."""
    out = {}
    for m in _FIFO.finditer(aie_text):
        out[m.group(1)] = (m.group(2), m.group(3), int(m.group(4)), m.group(5) + m.group(6))
    return out


def declared_links(aie_text: str) -> list[tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...], tuple[int, ...]]]:
    """(ins, outs, src offsets, dst offsets) of every ``aie.objectfifo.link`` in the text."""

    def names(s):
        return tuple(n.strip().lstrip("@") for n in s.split(",") if n.strip())

    def ints(s):
        return tuple(int(n) for n in s.split(",") if n.strip())

    return [(names(a), names(b), ints(c), ints(e)) for a, b, c, e in _LINK.findall(aie_text)]
