"""What a target is: the one interface the build, the runtime and the command line talk to.

A target builds *units* (a kernel instance for host and xdna, a whole graph for
ane) and opens what it built for the runtime. The build half (``emit``,
``emitter_version``, ``toolchain_problem``, ``fingerprint``, ``flags``,
``compile``) is what :mod:`npubuild.build.targets` provides per target today;
the runtime half (``open``, ``auto_problem``, ``traffic``) is what the runtime
asks instead of branching on backend names. Protocols, not base classes: a
target is any object with these members (a test may define one in a few lines).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Kernel(Protocol):
    """One opened kernel: called with the step's input arrays, returns its output."""

    def __call__(self, *arrays) -> Any: ...

    def bind_param(self, index: int, array, generation: int) -> None: ...

    def close(self) -> None: ...


class Target(Protocol):
    name: str  # the target's name in specs and the manifest ("xdna")
    backend: str  # what `npubuild run --backend` and ``Runtime.graph(backend=...)`` call it ("xrt")
    variants: tuple[str, ...]  # devices one unit may be built for (xdna: npu1, npu2); () when none
    needs_binary: bool  # True when running a kernel needs a compiled artifact for this target
    auto_rank: int | None  # order in which ``backend="auto"`` tries it (lower first); None: never chosen

    # -- what it builds --------------------------------------------------------------------
    def supports(self, op: str, shapes=None, dtype: str | None = None, attrs: dict | None = None) -> str | None:
        """None when the target builds (or needs nothing to run) ``op``; otherwise the reason."""

    def emitter_version(self) -> str: ...

    def emit(self, instance, options: dict) -> str: ...

    def toolchain_problem(self, cache_dir: Path | None) -> str | None:
        """None, or one line naming the absent tool and how to get it."""

    def fingerprint(self, cache_dir: Path) -> dict: ...

    def flags(self, config=None): ...

    def compile(self, source_text: str, out_dir: Path, log_path: Path, instance, options: dict, store_root: Path,
                toolchain: dict, **kw) -> None: ...

    # -- what the runtime asks -------------------------------------------------------------
    def open(self, record: dict, files, runtime) -> Kernel:
        """The kernel ``record`` (its manifest record, with ``id``) describes, ready to call.
        ``files`` hands out checked private copies of artifact files; ``runtime`` is the
        :class:`npubuild.runner.runtime.Runtime` (its sessions, its limits)."""

    def auto_problem(self, runtime, lacking: list[str]) -> str | None:
        """Why ``backend="auto"`` cannot pick this target (``lacking``: kernels without its binary)."""

    def traffic(self, runtime):
        """The byte counter of host-device transfers while a graph runs on it, or None (no device)."""
