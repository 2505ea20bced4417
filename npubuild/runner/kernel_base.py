"""The defaults of an opened kernel's members (npubuild.targets.base.Kernel): the runner's kernel
classes derive from :class:`KernelBase`; a kernel of another target that has only the three methods
is wrapped (npubuild.runner.open_context.as_kernel)."""
from __future__ import annotations


class KernelBase:
    """The defaults of :class:`Kernel`'s members: no params, nothing to close, no device buffer, no GEMM."""

    bound_generation: int | None = None
    writes_device_buffer = False

    def bind_param(self, index: int, array, generation=None) -> None:
        """No param to prepare: the array reaches ``__call__`` like every input."""

    def close(self) -> None:
        pass

    def direct(self):
        """``(fn, inputs, output)`` when the kernel is one C function ``fn(*addresses)`` over C-contiguous
        buffers of the given ``(shape, dtype)`` (inputs in order, then the output), callable until the kernel
        is closed; None otherwise. A graph's call plan calls such kernels without Python in between
        (npubuild.runner.call_plan)."""
        return None

    @property
    def gemm_dispatches(self) -> int:
        return 0
