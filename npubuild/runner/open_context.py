"""What a target gets from the runtime when it opens a kernel, and what the runtime makes of the kernel.

:class:`OpenContext` is the one object ``Target.open(record, files)``, ``auto_problem`` and
``traffic`` receive (as ``files`` / ``ctx``): the runtime's checked private copies of artifact
files, the state each target keeps per runtime, and the project's settings. A target never
sees the :class:`~npubuild.runner.runtime.Runtime` itself (only ``open_graph`` does: it builds
a whole graph runner).

:func:`as_kernel` gives every opened kernel the members of
:class:`npubuild.targets.base.Kernel`: a kernel derived from
:class:`~npubuild.runner.kernel_base.KernelBase` has them; any other (the three methods only) is
wrapped in :class:`BareKernel`, which has the defaults.
"""
from __future__ import annotations

from pathlib import Path

from ..core.limits import Limits
from .kernel_base import KernelBase
from .pinned import PinnedFiles


class OpenContext:
    """Files, per-runtime target state and settings, for one runtime's targets."""

    def __init__(self, files: PinnedFiles, limits: Limits, xrt_contexts: int | None = None):
        self._files = files
        self.limits = limits  # the project's (run timeouts, sizes)
        self.xrt_contexts = xrt_contexts  # NPU hardware contexts to keep open (None: by device)
        # target name -> what that target keeps open for this runtime (xdna: checked binaries,
        # the device and its contexts); each has close()
        self.sessions: dict[str, object] = {}

    def path(self, rec, what: str) -> Path:
        """A private copy of the file's checked bytes (``rec``: the manifest's file record)."""
        return self._files.path(rec, what)

    def read(self, rec, what: str) -> bytes:
        """The file's bytes, checked against the manifest."""
        return self._files.read(rec, what)

    def session(self, name: str, factory):
        """The per-runtime state of target ``name``, made by ``factory()`` on first use."""
        if name not in self.sessions:
            self.sessions[name] = factory()
        return self.sessions[name]

    def close(self) -> None:
        for state in self.sessions.values():
            state.close()


class BareKernel(KernelBase):
    """A kernel with only ``__call__``, ``bind_param`` and ``close``, with the defaults of the rest."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, *arrays):
        return self.kernel(*arrays)

    def bind_param(self, index: int, array, generation=None) -> None:
        self.kernel.bind_param(index, array, generation)
        self.bound_generation = generation

    def close(self) -> None:
        self.kernel.close()


def as_kernel(kernel):
    """``kernel`` with every member of the Kernel protocol (see the module docstring)."""
    return kernel if isinstance(kernel, KernelBase) else BareKernel(kernel)
