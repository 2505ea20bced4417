"""Where each step of a graph on the ``xrt`` backend writes its output.

A step's output gets a device buffer of its own, kept across runs and renewed
with the producer's hardware context, except when a later step reads it as one
*part* of a packed input buffer (``add``'s n‖b: docs/kernels.md "Packing").
Then that packed buffer (the *parent*) is allocated first and the producer
writes straight into an XRT sub-buffer of it at the part's byte offset
(pyxrt.cpp:519, ``xrt::bo(parent, size, offset)``; :meth:`.xrt.HwKernel.sub_buffer`),
so the consumer finds the part already on the device and writes only the
others (:func:`.xrt_packing.packed_in_place`).

A tensor with several consumers: the first packed consumer (in step order) gets
it in place; any other packed consumer stages it through the host as before;
plain consumers with the producer's layout are handed the sub-buffer itself
(XRT binds a sub-buffer argument at its offset, xrt_kernel.cpp:1155-1160), and
a graph output is read back from it (its ``sync`` covers the sub-range only,
xrt_bo.cpp:986-997).
"""
from __future__ import annotations

from dataclasses import dataclass

from .xrt import XrtKernel
from .xrt_packing import SubBuffer, buffer_nbytes, itemsize, part_offsets

# XRT puts no alignment rule on a sub-buffer, only bounds (xrt_bo.cpp:957-958, "sub buffer size
# and offset"), and the NPU's DMAs take any 4-byte-aligned address (mlir-aie
# lib/Dialect/AIEX/IR/AIEXDialect.cpp:455, "Offset must be 4-byte-aligned"). The host side is
# stricter: the NPU is not cache coherent (xdna-driver src/shim/kmq/pcidev.cpp:46), so a sync
# flushes every CPU cache line the range touches (src/shim/buffer.cpp:147-160, 667-679). A line
# shared by a device-written part and a host-written neighbour could write the host's stale copy
# of the device's bytes back over them. So a producer writes in place only when its part starts
# and ends on a cache line (64 bytes on x86-64; the parent itself is page aligned, xrt_bo.cpp:1206
# and the driver's mapping for host_only buffers); any other part goes through the host.
CACHE_LINE = 64


@dataclass(frozen=True)
class InPlace:
    """Step ``consumer``'s host buffer ``buffer`` holds a step's output at byte ``offset``."""

    consumer: int
    buffer: int
    offset: int
    nbytes: int
    parent_nbytes: int


def fits(offset: int, nbytes: int, parent_nbytes: int) -> bool:
    """Whether a part may be a sub-buffer the device writes (see CACHE_LINE)."""
    end = offset + nbytes
    return nbytes > 0 and end <= parent_nbytes and offset % CACHE_LINE == 0 and (end % CACHE_LINE == 0 or end == parent_nbytes)


def find_in_place(steps: list, k: int, producer: XrtKernel, kernel_of) -> InPlace | None:
    """The first later packed input buffer that can hold step ``k``'s output in place, or None
    (``steps``: the graph's :class:`~npubuild.runner.records.Step` records)."""
    name = steps[k].output
    ob = producer.buffers[-1]
    nbytes = ob["parts"][0]["slot"] * itemsize(ob)
    for j in range(k + 1, len(steps)):
        if name not in steps[j].inputs:
            continue
        consumer = kernel_of(steps[j])
        if not isinstance(consumer, XrtKernel):  # the GEMM stages its operands itself
            continue
        locals_ = {consumer.inputs[i][0] for i, n in enumerate(steps[j].inputs) if n == name}
        for i, b in enumerate(consumer.buffers[:-1]):
            if len(b["parts"]) < 2:
                continue  # a buffer of this tensor alone gets the producer's own buffer (XrtKernel.__call__)
            for part, off in zip(b["parts"], part_offsets(b)):
                if part["tensor"] not in locals_ or b["dtype"] != ob["dtype"] or part["slot"] != ob["parts"][0]["slot"]:
                    continue
                total = buffer_nbytes(b)
                if fits(off, nbytes, total):
                    return InPlace(j, i, off, nbytes, total)
                # not on whole cache lines: this part is read back and packed on the host
    return None


class StepBuffers:
    """The output buffers of one graph runner's steps (see the module docstring)."""

    def __init__(self, steps: list, kernel_of):
        self.steps = steps
        self.kernel_of = kernel_of  # Step -> its kernel on this backend
        self._plan: dict = {}  # step -> InPlace | None, decided once
        self._own: dict = {}  # step -> (hw, bo)
        self._parents: dict = {}  # (consumer step, buffer) -> (step that allocated it, its hw, parent bo)
        self._subs: dict = {}  # step -> SubBuffer

    def output(self, k: int, kern):
        hw = kern._hw()
        if k not in self._plan:
            self._plan[k] = find_in_place(self.steps, k, kern, self.kernel_of) if isinstance(kern, XrtKernel) else None
        where = self._plan[k]
        if where is None:
            held = self._own.get(k)
            if held is None or held[0] is not hw:
                held = self._own[k] = (hw, kern.output_buffer())
            return held[1]
        key = (where.consumer, where.buffer)
        held = self._parents.get(key)
        if held is None or (held[0] == k and held[1] is not hw):
            # allocated by the first producer to run (the earliest step), in its context and with
            # its output's memory group, as a plain step buffer is; renewed with that context, and
            # every producer into it then takes a new sub-buffer (below) before the consumer runs
            held = self._parents[key] = (k, hw, hw.buffer(where.parent_nbytes, kern.output_arg))
        sub = self._subs.get(k)
        if sub is None or sub.parent is not held[2]:
            bo = hw.sub_buffer(held[2], where.nbytes, where.offset)
            sub = self._subs[k] = SubBuffer(bo, held[2], where.offset, where.parent_nbytes)
        return sub
