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
output objects are written back through the output transfer's pattern. A join
must write every element of its object exactly once, as the hardware's locks
would require (else the shim would wait for data nobody writes). The body
is the ``func.func @body`` text taken out of the emitted file and compiled by the
host toolchain, so the test covers the exact text aiecc would get.
"""
from __future__ import annotations

import re
from collections import defaultdict, deque
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
            deliver(ln.outs[0], obj)
        elif ln.kind == "distribute":
            assert obj.size == fifos[name].elems
            for off, child in zip(ln.offsets, ln.outs):
                deliver(child, obj[off : off + fifos[child].elems])

    for t in d.transfers:
        if t.wait:
            continue
        stream = host[t.buffer][pattern_indices(t.offset, t.sizes, t.strides)]
        for obj in stream.reshape(-1, fifos[t.fifo].elems):
            deliver(t.fifo, obj)
    produced: dict[str, list] = defaultdict(list)  # FIFO -> objects the cores produced into it
    for core in d.cores:
        params = {n: queues[(n, core.tile)].popleft() for n in core.params}
        for _ in range(core.chunks):
            objs = dict(params)
            objs.update({n: queues[(n, core.tile)].popleft() for n in core.streamed_in})
            args = []
            for k, op in enumerate(core.operands):
                shape = d.body.inputs[k].shape
                obj = objs[op.fifo]
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
            data = np.concatenate(out_streams.pop(t.fifo))
            idx = pattern_indices(t.offset, t.sizes, t.strides)
            assert data.size == idx.size, (t.fifo, data.size, idx.size)
            host[t.buffer][idx] = data
    assert not out_streams and not produced and all(not q for q in queues.values()), "the design left data in flight"
    return host[-1][: d.buffers[-1].parts[0][1]]


def _through(ln, fifos, children: list[list]) -> list:
    """The objects a plain link or a join hands to its out FIFO, from each in FIFO's objects."""
    if ln.kind == "plain":
        return children[0]
    parent = fifos[ln.outs[0]]
    rounds = {len(objs) for objs in children}
    assert len(rounds) == 1, f"join {ln.outs[0]}: children produced {sorted(rounds)} objects"
    out = []
    for objs in zip(*children):
        obj = np.zeros(parent.elems, dtype=objs[0].dtype)
        written = np.zeros(parent.elems, dtype=np.int64)
        for off, child in zip(ln.offsets, objs):
            assert 0 <= off and off + child.size <= parent.elems, f"join {ln.outs[0]}: offset {off} outside its object"
            obj[off : off + child.size] = child
            written[off : off + child.size] += 1
        assert (written == 1).all(), f"join {ln.outs[0]}: offsets {ln.offsets} do not tile its object"
        out.append(obj)
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
