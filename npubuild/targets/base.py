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
    """One opened kernel: called with the step's input arrays, returns its output.

    Every kernel has the three methods; the members after them are what the runtime reads
    instead of probing: a kernel derived from :class:`KernelBase` inherits their defaults,
    and the runtime wraps any other kernel (the three methods only, as a test's may be) in an
    adapter that gives it the same defaults (``npubuild.runner.open_context.as_kernel``)."""

    def __call__(self, *arrays) -> Any: ...

    def bind_param(self, index: int, array, generation: int) -> None:
        """Input ``index`` is a graph param: ``array``, the same until the next ``set_params``
        (``generation`` names that call); a kernel may prepare it once (quantise, upload)."""

    def close(self) -> None:
        """Release what the kernel holds (a library, device buffers); the runtime may open it again."""

    # the runtime binds a kernel's params again unless this is the generation of the current set_params
    bound_generation: int | None
    # True: called as ``kernel(*arrays, out_bo=buffer)`` on a target with a device, it writes its output
    # to that device buffer (runner.xrt_chain.StepBuffers); False: called with the arrays only
    writes_device_buffer: bool
    # GEMM tile products computed since it was opened (``last_stats["gemm_tiles"]``); 0 for other kernels
    gemm_dispatches: int


class KernelBase:
    """The defaults of :class:`Kernel`'s members: no params, nothing to close, no device buffer, no GEMM."""

    bound_generation: int | None = None
    writes_device_buffer = False

    def bind_param(self, index: int, array, generation=None) -> None:
        """No param to prepare: the array reaches ``__call__`` like every input."""

    def close(self) -> None:
        pass

    @property
    def gemm_dispatches(self) -> int:
        return 0


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
    # A target whose unit is a whole graph names the manifest graphs it runs (ane: "ane") and
    # answers ``open_graph(runtime, name, record, backend)``; None for a kernel target.
    graph_kind: str | None

    def open(self, record: dict, files) -> Kernel:
        """The kernel ``record`` describes, ready to call. ``record`` is the kernel's manifest record
        (a fresh dict, with ``id``), as the schema checked it and after the runtime found it an
        instance of its op: the kernel classes read the target's own fields from it (``targets.<name>``:
        files, abi). ``files`` is the runtime's :class:`npubuild.runner.open_context.OpenContext`:
        ``files.path(file_record, what)`` and ``files.read(file_record, what)`` hand out checked
        private copies of artifact files (a kernel runs the bytes the manifest hashed),
        ``files.session(name, factory)`` is the state the target keeps per runtime (made on first use,
        closed with the runtime: xdna's device and hardware contexts), ``files.limits`` and
        ``files.xrt_contexts`` are the project's settings."""

    def auto_problem(self, ctx, lacking: list[str]) -> str | None:
        """Why ``backend="auto"`` cannot pick this target (``lacking``: kernels without its binary).
        ``ctx``: the same :class:`~npubuild.runner.open_context.OpenContext` ``open`` gets."""

    def traffic(self, ctx):
        """The byte counter of host-device transfers while a graph runs on it, or None (no device).
        ``ctx``: the same :class:`~npubuild.runner.open_context.OpenContext` ``open`` gets."""
