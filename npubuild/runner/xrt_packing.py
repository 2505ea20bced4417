"""The xrt backend's host buffers: their layout per the manifest ``abi`` and packing them.

A host buffer is one or more tensors (*parts*) back to back, each in a slot of
``slot`` elements (>= its own; the runtime zero-fills an input's tail). This
module writes parts straight into a buffer's mapped host memory
(:func:`fill`), holds what a step leaves on the device (:class:`DeviceTensor`,
possibly in a :class:`SubBuffer` of a later step's packed buffer), and packs a
buffer around the parts its producers already wrote there
(:func:`packed_in_place`).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import UserError
from ..ops.lazy_numpy import np
from ..ops.registry import NUMPY_DTYPE


@dataclass(frozen=True)
class SubBuffer:
    """A step's output buffer that is a sub-buffer of a later step's packed input buffer."""

    bo: object  # the sub-buffer (HwKernel.sub_buffer)
    parent: object  # the packed buffer it lies in
    offset: int  # bytes into the parent
    parent_nbytes: int


@dataclass
class DeviceTensor:
    """A kernel output left in its device buffer, in the producer's layout."""

    bo: object
    hw: object  # the producer's HwKernel
    dtype: str
    shape: tuple[int, ...]
    slot: int  # elements the buffer holds (>= the tensor's)
    parent: object = None  # when ``bo`` is a sub-buffer: the packed buffer it lies in (SubBuffer)
    offset: int = 0  # and its byte offset there
    parent_nbytes: int = 0

    def numpy(self):
        n = 1
        for s in self.shape:
            n *= s
        size = np.dtype(NUMPY_DTYPE[self.dtype]).itemsize
        return self.hw.read(self.bo, n * size, self.dtype)[:n].reshape(self.shape)


def to_host(value):
    return value.numpy() if isinstance(value, DeviceTensor) else value


def same_device(a, b) -> bool:
    return a is not None and b is not None and a.device is b.device


def itemsize(b: dict) -> int:
    return np.dtype(NUMPY_DTYPE[b["dtype"]]).itemsize


def buffer_nbytes(b: dict) -> int:
    """The bytes of one host buffer of a manifest ``abi``: its parts' slots back to back."""
    return sum(p["slot"] for p in b["parts"]) * itemsize(b)


def part_offsets(b: dict) -> list[int]:
    """The byte offset of each part of a host buffer (the slots before it), as the design reads them."""
    offs, off = [], 0
    for p in b["parts"]:
        offs.append(off * itemsize(b))
        off += p["slot"]
    return offs


def put(kernel_id: str, slot, part: dict, value) -> None:
    """One part's tensor into its slot (a view of mapped memory), the slot's tail zero."""
    arr = np.asarray(to_host(value))
    if arr.size > part["slot"] or slot.size < part["slot"]:  # the manifest check refuses such an abi
        raise UserError(f"kernel {kernel_id}: tensor '{part['tensor']}' has {arr.size} elements, its slot {part['slot']}")
    np.copyto(slot[: arr.size].reshape(arr.shape), arr, casting="unsafe")
    slot[arr.size :] = 0


def fill(hw, kernel_id: str, bo, b: dict, by_name: dict) -> None:
    """The host buffer, packed in place in ``bo``'s mapped memory (one copy per part, no
    staging array): each part's tensor in its slot, the slot's tail zero; then sync."""
    dt = np.dtype(NUMPY_DTYPE[b["dtype"]])
    total = buffer_nbytes(b)
    out = hw.mapped(bo, total, dt)
    for p, off in zip(b["parts"], part_offsets(b)):
        start = off // dt.itemsize
        put(kernel_id, out[start : start + p["slot"]], p, by_name[p["tensor"]])
    hw.to_device(bo, total)


def packed_in_place(hw, kernel_id: str, i: int, b: dict, by_name: dict, params: dict, written_by_buffer: dict):
    """Host buffer ``i`` (``b``) as the producers of some of its parts already wrote it, or None.

    A part is on the device when its value was written by its producer into a sub-buffer of
    one parent at exactly this part's offset, in its dtype and slot, on this device (a
    sub-buffer anywhere else is not trusted: the part then goes through the host, into the
    kernel's own staging buffer). The other parts are written into the parent's mapped
    memory and synced each over its own byte range only: a whole-buffer sync would put the
    host's stale copy of the device-written parts over them. A bound parameter (``params``:
    the kernel's) is written once per value and parent: ``written_by_buffer[i]`` remembers
    (parent, {input name: the value its slot holds}), and nothing else writes that slot."""
    offs, total = part_offsets(b), buffer_nbytes(b)
    parent, on_device = None, set()
    for p, part in enumerate(b["parts"]):
        v = by_name[part["tensor"]]
        if (
            isinstance(v, DeviceTensor) and v.parent is not None and (parent is None or v.parent is parent)
            and v.offset == offs[p] and v.parent_nbytes == total and v.dtype == b["dtype"]
            and v.slot == part["slot"] and same_device(v.hw, hw)
        ):
            parent = v.parent
            on_device.add(p)
    if parent is None:
        return None
    held = written_by_buffer.get(i)
    if held is None or held[0] is not parent:  # a new parent (or a context renewed): nothing written yet
        held = written_by_buffer[i] = (parent, {})
    written = held[1]
    dt = np.dtype(NUMPY_DTYPE[b["dtype"]])
    out = hw.mapped(parent, total, dt)
    for p, part in enumerate(b["parts"]):
        if p in on_device:
            continue
        name, value = part["tensor"], by_name[part["tensor"]]
        bound = params.get(name) is value
        if bound and written.get(name) is value:
            continue  # this parameter value is in its slot already
        start = offs[p] // dt.itemsize
        put(kernel_id, out[start : start + part["slot"]], part, value)
        hw.to_device(parent, part["slot"] * dt.itemsize, offs[p])
        if bound:
            written[name] = value
        else:
            written.pop(name, None)
    return parent
