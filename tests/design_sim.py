"""Run an xdna design's data movement on the host, with its compute body compiled
from the emitted aie.mlir text.

A model of what the hardware does with a :class:`npubuild.emitters.aie.design.Design`:
the runtime sequence's ``dma_memcpy_nd`` access patterns read the host buffers
into element streams, object FIFOs cut the streams into objects (through the
mem-tile links), each core acquires parameters once and stream objects per
chunk, copies packed parts into its local buffers, calls the body, and the
output objects are written back through the output transfer's pattern. The body
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
from npubuild.toolchain import host as toolchain

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
    so = Path(out_dir) / f"body_{body_instance.key[:12]}.so"
    toolchain.compile_shared_library(body_module(aie_text), so, so.with_suffix(".log"))
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
    link_dst = {ln.src: ln.dst for ln in d.links}
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
    queues: dict[str, deque] = defaultdict(deque)
    for t in d.transfers:
        if t.wait:
            continue
        stream = host[t.buffer][pattern_indices(t.offset, t.sizes, t.strides)]
        f = fifos[t.fifo]
        objs = stream.reshape(-1, f.elems)
        queues[link_dst.get(t.fifo, t.fifo)].extend(objs)
    out_streams: dict[str, list] = defaultdict(list)
    for core in d.cores:
        params = {n: queues[n].popleft() for n in core.params}
        for _ in range(core.chunks):
            objs = dict(params)
            objs.update({n: queues[n].popleft() for n in core.streamed_in})
            args = []
            for k, op in enumerate(core.operands):
                shape = d.body.inputs[k].shape
                obj = objs[op.fifo]
                part = obj[op.offset : op.offset + op.elems] if op.local else obj
                args.append(np.ascontiguousarray(part).reshape(shape))
            y = body(*args)
            out_streams[link_dst[core.out]].append(np.asarray(y).ravel())
    for t in d.transfers:
        if t.wait:
            data = np.concatenate(out_streams.pop(t.fifo))
            idx = pattern_indices(t.offset, t.sizes, t.strides)
            assert data.size == idx.size, (t.fifo, data.size, idx.size)
            host[t.buffer][idx] = data
    assert not out_streams and all(not q for q in queues.values()), "the design left data in flight"
    return host[-1][: d.buffers[-1].parts[0][1]]


def dma_lines(aie_text: str) -> list[str]:
    return [ln.strip() for ln in aie_text.splitlines() if "aiex.npu.dma_memcpy_nd" in ln]


_FIFO = re.compile(r"aie\.objectfifo @(\w+)\((%\w+), \{(%\w+)\}, (\d+) : i32\) : !aie\.objectfifo<memref<([\dx]*)(\w+)>>")


def declared_fifos(aie_text: str) -> dict:
    """name -> (producer tile, consumer tile, depth, memref type) from the text."""
    out = {}
    for m in _FIFO.finditer(aie_text):
        out[m.group(1)] = (m.group(2), m.group(3), int(m.group(4)), m.group(5) + m.group(6))
    return out
