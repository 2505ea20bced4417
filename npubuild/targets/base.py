"""What a target is: the one interface the build, the runtime and the command line talk to.

A target builds *units* and opens what it built for the runtime. A unit is a
kernel instance (``unit = "kernel"``: host, xdna; the build emits its source
and compiles it with the target's ``emit``/``compile``) or a whole graph
(``unit = "graph"``: ane; the target hands the build one :class:`GraphUnit`
per graph, built by the same task creator as the kernels). The runtime half
(``open``, ``auto_problem``, ``traffic``) is what the runtime asks instead of
branching on backend names. Protocols, not base classes: a target is any
object with these members (a test may define one in a few lines).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, NamedTuple, Protocol, runtime_checkable

from ..runner.kernel_base import KernelBase  # noqa: F401  (the defaults of Kernel's members; the runner's kernels derive from it)

# a memref type in MLIR text (nested <...> once, for layouts and memory spaces): what a pinned source's
# interface is compared on
MEMREF = re.compile(r"memref<[^<>]*(?:<[^<>]*>[^<>]*)*>")


class GraphUnit(NamedTuple):
    """One whole graph a ``unit = "graph"`` target builds: what the build's compile task runs and checks."""

    name: str  # the graph's name; its task is ``compile:<name>@<target>``
    action: tuple  # (callable, args): builds or takes from the store; returns doit values, or TaskFailed
    sources: list[str]  # the files it reads (doit file_dep)
    outputs: list[str]  # the files doit tracks (the rest are checked by ``intact``)
    key: str  # up to date while this is unchanged (with ``intact``)
    intact: Callable  # doit uptodate callable: every output still as built
    clean: list[str]  # what `doit clean` removes
    fails: bool  # its plan fails now: it runs after every other unit, so one bad graph stops no one else's build


class ToolCommand(NamedTuple):
    """One step of a kernel's compile as ``npubuild commands`` and ``npubuild compdb`` show it: made by the
    same functions the compile calls (a target's ``commands``), never a second copy of its flags."""

    arguments: list[str]  # the argv the compile runs; [] for a step done in process (``note`` says what)
    directory: str  # where it runs (the compile uses a fresh temporary directory inside it)
    note: str | None = None  # one comment line: a step done in process, a tool or source not installed here, the environment
    file: str | None = None  # the C/C++ source it compiles (a compile_commands.json entry), else None
    output: str | None = None  # what it writes, relative to ``directory``


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

    def direct(self):
        """``(fn, inputs, output)`` when the kernel is one C function ``fn(*addresses)`` over C-contiguous
        buffers of those ``(shape, dtype)``s, valid until ``close``; None otherwise (the default). A graph's
        call plan (npubuild.runner.call_plan) calls such a kernel with precomputed addresses."""


class Target(Protocol):
    name: str  # the target's name in specs and the manifest ("xdna")
    unit: str  # what it builds: "kernel" (one kernel instance) or "graph" (a whole graph)
    backend: str  # what `npubuild run --backend` and ``Runtime.graph(backend=...)`` call it ("xrt")
    variants: tuple[str, ...]  # devices one unit may be built for (xdna: npu1, npu2); () when none
    needs_binary: bool  # True when running a kernel needs a compiled artifact for this target
    auto_rank: int | None  # order in which ``backend="auto"`` tries it (lower first); None: never chosen

    # -- what it builds --------------------------------------------------------------------
    def supports(self, op: str, shapes=None, dtype: str | None = None, attrs: dict | None = None) -> str | None:
        """None when the target builds (or needs nothing to run) ``op``; otherwise the reason."""

    def restrictions(self, op: str) -> tuple:
        """What it cannot run of ``op`` (ops.registry.Restriction: text, check), checked at the spec's line; () when nothing."""

    def emitter_version(self) -> str: ...

    def emit(self, instance, options: dict) -> str: ...

    # a kernel target that needs a binary also names its files (``source_name``; ``binaries``: manifest
    # role -> file name; ``emitter_dirs``: the packages under npubuild/ its emitted text depends on) and answers ``emit_options(config, cache_dir)``, ``kernel_variants(plan, kernel_id)``,
    # ``linked_inputs``, ``linked_files``, ``abi``, ``design_problem``, ``compile_budget`` and
    # ``pinned_interface(text)`` (see npubuild.targets.host.build, the smallest); a graph target answers
    # ``graph_names(plan)``, ``graph_units(plan)``, ``graph_files(plan)`` and ``graph_outputs(plan)`` (npubuild.targets.ane.build)

    def toolchain_problem(self, cache_dir: Path | None) -> str | None:
        """None, or one line naming the absent tool and how to get it."""

    def fingerprint(self, cache_dir: Path) -> dict: ...

    def flags(self, config=None): ...

    def compile(self, source_text: str, out_dir: Path, log_path: Path, instance, options: dict, store_root: Path,
                toolchain: dict, **kw) -> None: ...

    # a kernel target may also answer ``commands(instance, options, out_dir, toolchain, flags) -> list[ToolCommand]``:
    # the tool command lines its compile runs, in order (``npubuild commands``, ``npubuild compdb``)

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
