"""fake_pyxrt: a test double of XRT's Python binding for the xrt backend's tests.

It mimics the calls the backend makes (research notes xdna.md §1d-§3):
``device(i).get_info(xrt_info_device.name)``, ``xclbin(path).get_uuid()``,
``device.register_xclbin``, ``hw_context(device, uuid)`` (refused with the
driver's ``No such file or directory`` once ``driver_limit`` contexts are
alive, like amdxdna), ``kernel(ctx, "MLIR_AIE").group_id(i)``,
``bo(device, size, flags, group)`` with ``write(buf, seek)``, ``read(size,
skip)``, ``sync(direction)``, and ``kernel(3, insts, n_words, *bos)``
returning a run whose ``wait()`` gives ``ERT_CMD_STATE_COMPLETED``.

A kernel call runs the Python ``program`` registered for its xclbin path on
the data buffers (bytearrays), standing in for the NPU. Nothing here is
used outside tests, and nothing it does counts as the NPU working.
"""
from __future__ import annotations

import types

STATE = types.SimpleNamespace(name="RyzenAI-npu1", driver_limit=6, alive=0, programs={}, created=0, fail_device=False, runs=[], epoch=0)


def reset(name="RyzenAI-npu1", driver_limit=6):
    STATE.name, STATE.driver_limit, STATE.alive, STATE.created = name, driver_limit, 0, 0
    STATE.programs, STATE.fail_device, STATE.runs = {}, False, []
    STATE.epoch += 1  # contexts of an earlier test, collected later, are not counted


class xrt_info_device:  # noqa: N801 - pyxrt's spelling
    name = "name"
    bdf = "bdf"
    host = "host"


class xclBOSyncDirection:  # noqa: N801
    XCL_BO_SYNC_BO_TO_DEVICE = "to_device"
    XCL_BO_SYNC_BO_FROM_DEVICE = "from_device"


class ert_cmd_state:  # noqa: N801
    ERT_CMD_STATE_COMPLETED = "completed"
    ERT_CMD_STATE_ERROR = "error"


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
            raise RuntimeError("DRM_IOCTL_AMDXDNA_CREATE_HWCTX IOCTL failed (err=-2): No such file or directory")
        STATE.alive += 1
        STATE.created += 1
        self.uuid = uuid
        self._epoch = STATE.epoch

    def __del__(self):
        if getattr(self, "_epoch", None) == STATE.epoch:
            STATE.alive -= 1
            self._epoch = None


class bo:  # noqa: N801
    normal, cacheable, device_only, host_only = "normal", "cacheable", "device_only", "host_only"

    def __init__(self, dev, size, flags, group):
        self.data = bytearray(size)
        self.flags, self.group = flags, group
        self.syncs = []

    def write(self, buf, seek):
        raw = bytes(memoryview(buf).cast("B"))
        self.data[seek : seek + len(raw)] = raw

    def read(self, size, skip):
        return bytes(self.data[skip : skip + size])

    def sync(self, direction, *args):
        self.syncs.append(direction)

    def map(self):
        return memoryview(self.data)


class _run:
    def __init__(self, state):
        self.state = state

    def wait(self, *timeout):
        return self.state


class kernel:  # noqa: N801
    def __init__(self, ctx, name):
        self.ctx, self.name = ctx, name

    def group_id(self, i):
        return i

    def __call__(self, opcode, insts, n_words, *bos):
        assert opcode == 3 and isinstance(insts, bo) and insts.flags == bo.cacheable
        assert n_words * 4 == len(insts.data), "the instruction count is in 32-bit words"
        STATE.runs.append(self.ctx.uuid)
        program = STATE.programs[self.ctx.uuid]
        return _run(ert_cmd_state.ERT_CMD_STATE_COMPLETED if program([b.data for b in bos]) is not False else ert_cmd_state.ERT_CMD_STATE_ERROR)
