"""The matmul on the NPU through XRT: the int8 GEMM (:class:`XrtGemmKernel`, one dispatch per call on
the one-dispatch whole-array design, one per tile on the blocked overlay, both over
:mod:`npubuild.runner.gemm`) and the bf16 GEMM (:class:`XrtBf16GemmKernel`, whole-array only).
The device calls are :class:`npubuild.runner.xrt.HwKernel`'s."""
from __future__ import annotations

from ..core.constants import numpy_dtype
from ..core.errors import UserError
from ..ops.lazy_numpy import np
from .kernel_base import KernelBase
from .xrt import ContextPool, HwKernel
from .xrt_packing import to_host


def _weight_on_device(kernel, b):
    """(the kernel's context, the weight's device buffer) once the weight's buffer ``b`` = (context, bo)
    belongs to the kernel's current context (an evicted context took its buffers with it)."""
    hw_b, b_bo = b
    hw = kernel.hw()
    if hw is not hw_b:
        raise UserError(f"kernel {kernel.id}: its hardware context was evicted; set the params again")
    return hw, b_bo


class XrtGemmDispatch:
    """The overlay's stream contract on the NPU: B tiles uploaded once, one dispatch per d rows."""

    def __init__(self, kernel: "XrtGemmKernel", d: int, kt: int, cols: int, mmul):
        from .gemm import OverlayDispatch

        self.k = kernel
        self.stream = OverlayDispatch(self._call, d, kt, cols, mmul)
        self._bufs = None

    def _buffers(self, hw):
        if self._bufs is None or self._bufs[0] is not hw:
            a = hw.buffer(self.k.sizes[0], 0)
            c = hw.buffer(self.k.sizes[2] * 4, 2)
            self._bufs = (hw, a, c)
        return self._bufs

    def prepare_b(self, b_blk):
        hw = self.k.hw()
        stream = self.stream.prepare_b(b_blk)
        bo = hw.buffer(stream.nbytes, 1)
        hw.write(bo, stream)  # resident for as long as the weight
        return (hw, bo)

    def prepare_a(self, a_rows):
        return a_rows

    def run(self, a_rows, b):
        return self.stream.run(a_rows, b)

    def _call(self, a_stream, b):
        hw, b_bo = _weight_on_device(self.k, b)
        _, a_bo, c_bo = self._buffers(hw)
        hw.write(a_bo, a_stream)
        hw.run([a_bo, b_bo, c_bo], f"kernel {self.k.id}")
        # a view, not a copy: OverlayDispatch.run untiles it into the accumulator before the next dispatch
        return hw.view(c_bo, self.k.sizes[2] * 4, "i32")


class XrtWholeDispatch:
    """The one-dispatch design on the NPU: B resident, A padded in place, one run, C's corner read."""

    def __init__(self, kernel: "XrtGemmKernel", padded: tuple[int, int, int]):
        self.k = kernel
        self.mp, self.kp, self.np = padded
        self._bufs = None

    def _buffers(self, hw):
        if self._bufs is None or self._bufs[0] is not hw:
            self._bufs = (hw, hw.buffer(self.mp * self.kp, 0), hw.buffer(self.mp * self.np * 4, 2))
        return self._bufs

    def prepare_b(self, qw):
        """The weight's codes into a zeroed [Kp, Np] device buffer (resident while the weight is)."""
        hw = self.k.hw()
        bo = hw.buffer(self.kp * self.np, 1)
        out = hw.mapped(bo, self.kp * self.np, np.int8).reshape(self.kp, self.np)
        out[:] = 0
        out[: qw.shape[0], : qw.shape[1]] = qw
        hw.to_device(bo, self.kp * self.np)
        return (hw, bo)

    def run(self, qa, b):
        hw, b_bo = _weight_on_device(self.k, b)
        _, a_bo, c_bo = self._buffers(hw)
        a = hw.mapped(a_bo, self.mp * self.kp, np.int8).reshape(self.mp, self.kp)
        a[:] = 0  # the padding rows and columns: zero codes add nothing to any sum
        np.copyto(a[: qa.shape[0], : qa.shape[1]], qa, casting="unsafe")
        hw.to_device(a_bo, self.mp * self.kp)
        hw.run([a_bo, b_bo, c_bo], f"kernel {self.k.id}")
        return hw.read(c_bo, self.mp * self.np * 4, "i32").reshape(self.mp, self.np)


class XrtBf16GemmKernel(KernelBase):
    """The bf16 matmul on the NPU, one dispatch per call on the whole-array design: the weight
    (a parameter) resident in a zeroed padded [Kp, Np] buffer, ``a`` copied into a zeroed padded
    [Mp, Kp] one, C's f32 [M, N] corner rounded once to bf16 (to nearest even, ml_dtypes) as the
    oracle rounds its f32 sum (npubuild.ops.bf16)."""

    def __init__(self, kernel_id: str, desc: dict, pool: ContextPool):
        from .gemm import check_whole_array_abi

        self.id = kernel_id
        self.pool = pool
        abi = desc["targets"]["xdna"].get("abi")
        if not isinstance(abi, dict) or abi.get("kind") != "gemm_whole_array":
            raise UserError(f"kernel '{kernel_id}': a bf16 matmul runs on the one-dispatch design only; rebuild with `doit build`")
        self.mp, self.kp, self.np = check_whole_array_abi(kernel_id, desc, abi)
        a, b = desc["inputs"][0]["shape"], desc["inputs"][1]["shape"]
        self.k, self.n = a[-1], b[1]
        self.out_shape = tuple(desc["outputs"][0]["shape"])
        self._weight = None  # (hw, bo, the array it holds)
        self._bufs = None
        self.bound_generation = None
        self.dispatches = 0
        self.last_accumulator = None

    def hw(self) -> HwKernel:
        return self.pool.get(self.id)

    def _padded_upload(self, hw, bo, x, rows: int, cols: int) -> None:
        bf16 = numpy_dtype("bf16")
        out = hw.mapped(bo, rows * cols * 2, bf16).reshape(rows, cols)
        out[:] = 0  # zero rows and columns add nothing to any sum
        out[: x.shape[0], : x.shape[1]] = x
        hw.to_device(bo, rows * cols * 2)

    def bind_param(self, index: int, array, generation=None) -> None:
        if index != 1:
            return
        w = np.asarray(to_host(array)).astype(numpy_dtype("bf16"), copy=False)
        if w.shape != (self.k, self.n):
            raise UserError(f"kernel {self.id}: the weight must be [{self.k}, {self.n}], got {list(w.shape)}")
        hw = self.hw()
        bo = hw.buffer(self.kp * self.np * 2, 1)
        self._padded_upload(hw, bo, w, self.kp, self.np)
        self._weight = (hw, bo, array)
        self.bound_generation = generation

    def __call__(self, a, w):
        hw = self.hw()
        if self._weight is None or self._weight[2] is not w or self._weight[0] is not hw:
            self.bind_param(1, w, self.bound_generation)  # a new weight, or the context was reopened
        a2 = np.asarray(to_host(a)).astype(numpy_dtype("bf16"), copy=False).reshape(-1, self.k)
        if a2.shape[0] > self.mp:
            raise UserError(f"kernel {self.id}: the design takes at most {self.mp} rows, got {a2.shape[0]}")
        if self._bufs is None or self._bufs[0] is not hw:
            self._bufs = (hw, hw.buffer(self.mp * self.kp * 2, 0), hw.buffer(self.mp * self.np * 4, 2))
        _, a_bo, c_bo = self._bufs
        self._padded_upload(hw, a_bo, a2, self.mp, self.kp)
        hw.run([a_bo, self._weight[1], c_bo], f"kernel {self.id}")
        self.dispatches += 1
        acc = hw.read(c_bo, self.mp * self.np * 4, "f32").reshape(self.mp, self.np)[: a2.shape[0], : self.n]
        self.last_accumulator = acc
        return acc.astype(np.float32).astype(numpy_dtype("bf16")).reshape(self.out_shape)

    def close(self) -> None:
        pass


class XrtGemmKernel(KernelBase):
    """The int8 matmul on the NPU: :class:`npubuild.runner.gemm.GemmKernel` with NPU dispatches,
    one per call on the whole-array design, one per tile on the blocked overlay."""

    def __init__(self, kernel_id: str, desc: dict, pool: ContextPool):
        from .checks import check_gemm_abi, gemm_geometry
        from .gemm import GemmKernel, check_whole_array_abi

        self.id = kernel_id
        self.pool = pool
        abi = desc["targets"]["xdna"].get("abi")
        if isinstance(abi, dict) and abi.get("kind") == "gemm_whole_array":
            padded = check_whole_array_abi(kernel_id, desc, abi)
            self.inner = GemmKernel(desc, lambda g: XrtWholeDispatch(self, padded), padded=padded)
            self.gemm = self.inner.gemm
            self.bound_generation = None
            self._bound_hw = None
            return
        check_gemm_abi(kernel_id, desc, abi)  # the buffers below are the geometry's
        # the geometry the build chose for its device, never recomputed (a device's columns are not K x N's)
        d, kt, cols, mmul = gemm_geometry(kernel_id, abi)
        self.sizes = [int(np.prod(b["shape"])) for b in abi["buffers"]]
        self.inner = GemmKernel(desc, lambda g: XrtGemmDispatch(self, d, kt, cols, mmul), geometry=(d, kt, cols))
        self.gemm = self.inner.gemm
        self.bound_generation = None
        self._bound_hw = None

    def hw(self) -> HwKernel:
        return self.pool.get(self.id)

    def bind_param(self, index: int, array, generation=None) -> None:
        self.inner.bind_param(index, array, generation)
        self.bound_generation = generation
        self._bound_hw = self.hw()

    def __call__(self, a, w):
        if self._bound_hw is not None and self.hw() is not self._bound_hw:
            # the context was evicted and reopened: its buffers (the weight's tiles) went with it
            self.bind_param(1, w, self.bound_generation)
        return self.inner(to_host(a), to_host(w))

    @property
    def last_accumulator(self):
        return self.inner.last_accumulator

    @property
    def gemm_dispatches(self) -> int:
        return self.gemm.dispatches

    def close(self) -> None:
        pass
