"""fake_pyxrt: a test double of XRT's Python binding for the xrt backend's tests.

It mimics the calls the backend makes, as XRT's binding defines them
(src/python/pybind11/src/pyxrt.cpp @963c58ee; research notes xdna.md §1d-§3):
``device(i).get_info(xrt_info_device.name)``, ``xclbin(path).get_uuid()``,
``device.register_xclbin``, ``hw_context(device, uuid)`` (refused with
``STATE.refusal``, by default the driver's ``No such file or directory``, once
``driver_limit`` contexts are alive, like amdxdna), ``kernel(ctx,
"MLIR_AIE").group_id(i)``, ``bo(device, size, flags, group)`` with
``write(buf, seek)``, ``read(size, skip)``, ``map()`` (a writable byte
memoryview of the whole host buffer), ``size()``, ``sync(direction[, size,
offset])``, sub-buffers ``bo(parent, size, offset)`` (sharing the parent's
memory, synced through it), and ``kernel(3, insts, n_words, *bos)`` returning a
started run.

A bo has host memory (what write/read/map touch) and device memory (what the
NPU sees); only ``sync`` moves bytes between them, so a missing sync shows as
stale data, as on hardware. A kernel call runs the Python ``program``
registered for its xclbin path on the device memories (bytearrays), standing
in for the NPU; a program that returns ``HANG`` never completes. ``run.wait()``
and ``run.wait(0)`` block until completion (pyxrt: ``r.wait(0)``), so on a hung
run they fail the test instead of hanging it; ``run.wait(timeout_ms)`` takes an
unsigned int (pybind11 refuses floats and negatives with TypeError), sleeps
that long on a hung run and returns ``ERT_CMD_STATE_TIMEOUT`` (xrt_kernel.h).
Nothing here is used outside tests, and nothing it does counts as the NPU working.
"""
from __future__ import annotations

import time
import types

ENOENT = "DRM_IOCTL_AMDXDNA_CREATE_HWCTX IOCTL failed (err=-2): No such file or directory"
HANG = object()  # a program's answer meaning "this run never completes"

STATE = types.SimpleNamespace(
    name="RyzenAI-npu1", driver_limit=6, alive=0, programs={}, created=0, fail_device=False, runs=[], epoch=0,
    refusal=ENOENT, waits=[],
)


def reset(name="RyzenAI-npu1", driver_limit=6):
    STATE.name, STATE.driver_limit, STATE.alive, STATE.created = name, driver_limit, 0, 0
    STATE.programs, STATE.fail_device, STATE.runs = {}, False, []
    STATE.refusal, STATE.waits = ENOENT, []
    STATE.epoch += 1  # contexts of an earlier test, collected later, are not counted


class xrt_info_device:  # noqa: N801 - pyxrt's spelling
    name = "name"
    bdf = "bdf"
    host = "host"


class xclBOSyncDirection:  # noqa: N801
    XCL_BO_SYNC_BO_TO_DEVICE = "to_device"
    XCL_BO_SYNC_BO_FROM_DEVICE = "from_device"


class ert_cmd_state:  # noqa: N801
    ERT_CMD_STATE_NEW = "new"
    ERT_CMD_STATE_COMPLETED = "completed"
    ERT_CMD_STATE_ERROR = "error"
    ERT_CMD_STATE_TIMEOUT = "timeout"


class device:  # noqa: N801
    def __init__(self, index=0):
        if STATE.fail_device:
            raise RuntimeError("No such device")
        self.index = index
        self.registered = []

    def get_info(self, what):
        return {"name": STATE.name, "bdf": "0000:c5:00.1", "host": '{"version": "2.19.0"}'}[what]

    def register_xclbin(self, xb):
        self.registered.append(xb.path)


class xclbin:  # noqa: N801
    def __init__(self, path):
        self.path = str(path)
        with open(self.path, "rb") as f:
            self.data = f.read()

    def get_uuid(self):
        return self.path


class hw_context:  # noqa: N801
    def __init__(self, dev, uuid):
        if STATE.alive >= STATE.driver_limit:
            raise RuntimeError(STATE.refusal)
        STATE.alive += 1
        STATE.created += 1
        self.uuid = uuid
        self._epoch = STATE.epoch

    def __del__(self):
        if getattr(self, "_epoch", None) == STATE.epoch:
            STATE.alive -= 1
            self._epoch = None


class bo:  # noqa: N801
    """``bo(device, size, flags, group)``, or ``bo(parent, size, offset)``: a sub-buffer
    (pyxrt.cpp:519, positional only, as pybind11 binds an unnamed ``py::init<xrt::bo, size_t,
    size_t>``), modelled on xrt_bo.cpp's ``buffer_sub`` (944-997): refused unless it lies
    within the parent (957-958), it shares the parent's host and device memory from
    ``offset`` on (no copy: what the parent's map() shows, the sub's shows, and a kernel
    writing the sub writes the parent), and its sync goes through the parent for the
    sub-range, bounds checked against the parent (986-993)."""

    normal, cacheable, device_only, host_only = "normal", "cacheable", "device_only", "host_only"

    def __init__(self, *args):
        if len(args) == 3 and isinstance(args[0], bo):
            parent, size, offset = args
            if not (_size_t(size) and _size_t(offset)):
                raise TypeError(f"__init__(): incompatible constructor arguments {args!r}")
            if offset > parent.size() or size > parent.size() - offset:
                raise RuntimeError("sub buffer size and offset")
            self.parent, self.offset = parent, offset
            self.data = memoryview(parent.data)[offset : offset + size]  # host memory: the parent's
            self.device = memoryview(parent.device)[offset : offset + size]  # device memory: the parent's
            self.flags, self.group = parent.flags, parent.group
        elif len(args) == 4 and not isinstance(args[0], bo):
            _dev, size, flags, group = args
            self.parent, self.offset = None, 0
            self.data = bytearray(size)  # host memory
            self.device = bytearray(size)  # what the NPU reads and writes
            self.flags, self.group = flags, group
        else:
            raise TypeError(f"__init__(): incompatible constructor arguments {args!r}")
        self.syncs = []  # (direction, size, offset) of every sync, this buffer's own coordinates

    def size(self):
        return len(self.data)

    def write(self, buf, seek):
        raw = bytes(memoryview(buf).cast("B"))
        assert seek + len(raw) <= len(self.data), "write past the end of the bo"
        self.data[seek : seek + len(raw)] = raw

    def read(self, size, skip):
        return bytes(self.data[skip : skip + size])

    def sync(self, direction, *args):
        if len(args) not in (0, 2):
            raise TypeError(f"sync(): incompatible function arguments {args!r}")
        size, offset = args if args else (self.size(), 0)  # xrt_bo.h: sync(dir) is sync(dir, size(), 0)
        if not (_size_t(size) and _size_t(offset)):
            raise TypeError(f"sync(): incompatible function arguments {args!r}")
        self.syncs.append((direction, size, offset))
        if self.parent is not None:  # xrt_bo.cpp buffer_sub::sync: checked against the parent, then the parent's
            limit = self.parent.size()
            if offset > limit or self.offset > limit - offset or size > limit - (offset + self.offset):
                raise RuntimeError("Invalid offset and size when syncing sub buffer")
            self.parent.sync(direction, size, offset + self.offset)
            return
        if offset > len(self.data) or size > len(self.data) - offset:  # the shim's check (buffer.cpp sync)
            raise RuntimeError(f"Invalid BO offset and size for sync'ing: {offset}, {size}")
        if direction == xclBOSyncDirection.XCL_BO_SYNC_BO_TO_DEVICE:
            self.device[offset : offset + size] = self.data[offset : offset + size]
        else:
            self.data[offset : offset + size] = self.device[offset : offset + size]

    def map(self):
        # format "B", writable, bo.size() bytes from the buffer's own start: from_memory(b.map(), b.size()),
        # where a sub-buffer's map() is the parent's host memory + offset (buffer_sub::get_hbuf)
        return memoryview(self.data)


def _size_t(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**64


def _unsigned_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**32


class _run:
    def __init__(self, state):
        self.state = state

    def wait(self, *timeout_ms):
        if len(timeout_ms) > 1 or (timeout_ms and not _unsigned_int(timeout_ms[0])):
            raise TypeError(f"wait(): incompatible function arguments {timeout_ms!r}; takes (self) or (self, timeout_ms: int)")
        ms = timeout_ms[0] if timeout_ms else 0
        STATE.waits.append(ms)
        if self.state is not HANG:
            return self.state
        if ms == 0:
            raise AssertionError("run.wait() without a timeout on a run that never completes: it would block for ever")
        time.sleep(ms / 1000)
        return ert_cmd_state.ERT_CMD_STATE_TIMEOUT


class kernel:  # noqa: N801
    def __init__(self, ctx, name):
        self.ctx, self.name = ctx, name

    def group_id(self, i):
        return i

    def __call__(self, opcode, insts, n_words, *bos):
        assert opcode == 3 and isinstance(insts, bo) and insts.flags == bo.cacheable
        assert n_words * 4 == len(insts.data), "the instruction count is in 32-bit words"
        assert insts.device == insts.data, "the instruction buffer was not synced to the device"
        STATE.runs.append(self.ctx.uuid)
        program = STATE.programs[self.ctx.uuid]
        result = program([b.device for b in bos])
        if result is HANG:
            return _run(HANG)
        return _run(ert_cmd_state.ERT_CMD_STATE_COMPLETED if result is not False else ert_cmd_state.ERT_CMD_STATE_ERROR)
