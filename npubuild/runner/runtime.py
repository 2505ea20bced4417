"""The runtime: load a built artifact directory, pick a backend, run graphs.

    rt = npubuild.load("artifacts")            # reads + verifies the manifest
    g = rt.graph("mlp_block", backend="auto")  # host if every kernel has a host binary, else ref
    g.set_params(w1=w1, gamma=gamma)
    out = g.run(x=x)                           # {"y": ndarray}

What is checked when (docs/runtime.md): ``load`` reads the manifest (bounded,
every field typed) and, by default, verifies it; ``graph`` checks the graph's
steps against its kernels and each kernel record against its op; opening a
kernel reads its binary once, checks the bytes against the manifest and loads a
private copy of them, after comparing the ABI compiled into it with the record.

The runtime reads the manifest's kernel and graph records as the typed records of
:mod:`.records` (built once at load); a target opens a kernel from its raw record and
the :class:`.open_context.OpenContext` (files, per-runtime state, settings), never from
the runtime itself.
"""
from __future__ import annotations

import itertools
import sys
import threading
from collections import OrderedDict
from pathlib import Path

from .. import targets
from ..artifacts.manifest import read_manifest
from ..artifacts.manifest_records import graph_problems
from ..artifacts.verify import verify
from ..core.constants import numpy_dtype
from ..core.errors import UserError, VerifyError
from ..core.limits import Limits
from .call_plan import CallPlan
from .checks import as_checked_array, check_kernel_record
from .kernel_base import KernelBase
from .open_context import OpenContext, as_kernel
from .pinned import PinnedFiles
from .records import GraphRecord, KernelRecord, Records, Step


def kernel_backends() -> tuple[str, ...]:
    """The registry's targets that run kernels (ref, host, xrt and any registered later), then "auto"."""
    return (*targets.backends(kernels_only=True), "auto")


BACKENDS = kernel_backends()  # the built-in ones, for callers that list them


class KernelCache:
    """Opens kernels lazily and keeps at most ``max_open`` of them (least recently used goes)."""

    def __init__(self, opener, max_open: int):
        self._opener = opener
        self.max_open = max_open
        self._open: OrderedDict = OrderedDict()
        self.opened = 0  # how many times a kernel was opened (for tests and stats)
        # how many times a kernel was closed: a call plan holding a closed kernel's addresses is stale
        self.epoch = 0
        # held while a kernel is opened or closed and while a call plan runs, so that no library is
        # unloaded under a plan's call
        self.lock = threading.RLock()

    def get(self, kernel_id: str, backend: str):
        k = (kernel_id, backend)
        with self.lock:
            if k in self._open:
                self._open.move_to_end(k)
                return self._open[k]
            while len(self._open) >= self.max_open:
                _, old = self._open.popitem(last=False)
                self.epoch += 1
                old.close()
            kern = as_kernel(self._opener(kernel_id, backend))
            self.opened += 1
            self._open[k] = kern
            return kern

    def open_ids(self) -> list[str]:
        return [k for k, _ in self._open]

    def open_kernels(self, backend: str) -> dict:
        """kernel id -> the open kernel object of ``backend``."""
        return {kid: kern for (kid, b), kern in self._open.items() if b == backend}

    def close(self) -> None:
        with self.lock:
            while self._open:
                _, kern = self._open.popitem()
                self.epoch += 1
                kern.close()


class Runtime:
    def __init__(self, path: Path, manifest: dict, max_open: int, xrt_contexts: int | None = None,
                 limits: Limits | None = None, ane_resident: int | None = None, ane_accumulate: str = "fp32"):
        self.path = path
        self.manifest = manifest  # the raw, schema-checked manifest (for callers; the runtime reads self.records)
        self.records = Records.of(manifest)
        self.kernels = KernelCache(self._open_kernel, max_open)
        self.files = PinnedFiles(path)  # what runs: private copies of the bytes that were hashed
        self._checked: set[str] = set()  # kernel records found to be instances of their ops
        self._stale_said: set = set()  # (kernel, target) whose previous-good binary the runtime has said it runs
        self.xrt_contexts = xrt_contexts
        self.ane_resident = ane_resident  # ANE programs kept loaded (None: no limit)
        self.ane_accumulate = ane_accumulate  # how the ANE emulator sums: fp32 (best case) or fp16 (worst case)
        self.limits = limits or Limits()  # the project's
        # what a target's open/auto_problem/traffic get: the files, the targets' per-runtime state, the settings
        self.context = OpenContext(self.files, self.limits, xrt_contexts)

    @property
    def sessions(self) -> dict:
        """Target name -> what that target keeps open for this runtime (xdna: binaries, device, contexts)."""
        return self.context.sessions

    def session(self, name: str, factory):
        """The per-runtime state of target ``name``, made by ``factory()`` on first use."""
        return self.context.session(name, factory)

    # -- the NPU (kept for callers and tests; the xdna target owns the session) ------------
    @property
    def _xrt(self):
        return targets.get("xdna").open_session(self.context)

    def xrt_status(self) -> tuple[bool, str | None]:
        """(usable, why not): pyxrt imports and a Ryzen AI NPU answers."""
        return targets.get("xdna").status(self.context)

    def xrt_session(self):
        return targets.get("xdna").device_session(self.context)

    def _xdna_files(self, kernel_id: str) -> dict:
        """Private copies of the kernel's xclbin and insts (of the design for the NPU that answers), once
        its abi.json matches its record."""
        return targets.get("xdna").kernel_binaries(self.context, self.record_of(kernel_id, checked=True).open_record())

    # -- kernels ---------------------------------------------------------------------------
    def record_of(self, kernel_id: str, checked: bool = False) -> KernelRecord:
        """The kernel's typed record; ``checked``: once found to be an instance its op accepts
        (UserError naming the kernel otherwise)."""
        rec = self.records.kernels.get(kernel_id) if isinstance(kernel_id, str) else None
        if rec is None:
            raise UserError(f"kernel {kernel_id!r} is not in {self.path / 'manifest.json'}")
        if checked and kernel_id not in self._checked:
            check_kernel_record(kernel_id, self.manifest["kernels"][kernel_id])
            self._checked.add(kernel_id)
        return rec

    def kernel_record(self, kernel_id: str) -> dict:
        """The kernel's record as the manifest has it (for callers; the runtime reads :meth:`record_of`)."""
        return self.manifest["kernels"][self.record_of(kernel_id).id]

    def checked_record(self, kernel_id: str) -> dict:
        """The manifest's record, once found to be an instance its op accepts (UserError naming the kernel otherwise)."""
        return self.manifest["kernels"][self.record_of(kernel_id, checked=True).id]

    def _open_kernel(self, kernel_id: str, backend: str):
        rec = self.record_of(kernel_id, checked=True)
        target = targets.by_backend(backend)
        if target is None or backend not in kernel_backends():
            raise UserError(f"unknown backend '{backend}'")
        if 0 in rec.output.shape:
            return EmptyKernel(rec.output)
        self._say_stale(rec, backend)
        return target.open(rec.open_record(), self.context)

    def _say_stale(self, rec, backend: str) -> None:
        """Once per kernel and target: the binary is the previous good build's (the last compile failed)."""
        for label, t in rec.raw.get("targets", {}).items():
            if label.partition(".")[0] == backend and isinstance(t, dict) and t.get("stale") and (rec.id, label) not in self._stale_said:
                self._stale_said.add((rec.id, label))
                sys.stderr.write(f"npubuild: kernel {rec.id} [{label}]: {t['stale']}\n")

    def has_target(self, kernel_id: str, target: str) -> bool:
        return self.record_of(kernel_id).built_for(target)

    # -- graphs ----------------------------------------------------------------------------
    def graph_names(self) -> list[str]:
        return sorted(self.records.graphs)

    def graph(self, name: str, backend: str = "auto", function: str | None = None) -> "GraphRunner":
        """The runner of graph ``name`` on ``backend``; ``function``: which function of an ANE graph built from a
        multifunction .mil (default: its default function, ``main``)."""
        graphs = self.records.graphs
        if not isinstance(name, str):
            raise UserError(f"a graph name is a string, got {type(name).__name__}; graphs: {', '.join(sorted(graphs)) or 'none'}")
        if not isinstance(backend, str):
            raise UserError(f"a backend is a string, got {type(backend).__name__}; choose one of {', '.join(kernel_backends())}")
        if name not in graphs:
            from ..ops.registry import did_you_mean

            listing = ", ".join(sorted(graphs)) or "none"
            raise UserError(f"no graph '{name}' in {self.path / 'manifest.json'}{did_you_mean(name, graphs)}; graphs: {listing}")
        g = graphs[name]
        owner = next((t for t in targets.all_targets() if t.graph_kind == g.kind), None) if g.kind else None
        if function is not None and owner is None:
            raise UserError(f"graph '{name}' is a graph of kernels: it has no functions (an ANE graph from a multifunction "
                            ".mil has one per func)")
        if owner is not None:  # a graph its target runs whole (ane)
            record = g.raw
            if function is not None:
                from .ane_graph import check_function_files, function_record

                record = function_record(name, g.raw, function)
                if record is not g.raw:  # a non-default function: its files are not among those load() verified
                    check_function_files(self.path, name, function, record)
            return owner.open_graph(self, name, record, backend)
        return self._runner(g, backend)

    def kernel(self, kernel_id: str, backend: str = "auto") -> "GraphRunner":
        """One kernel of the manifest run alone: a graph of one step whose inputs are the kernel's (by their
        names) and whose output is its output; the backend is chosen as for a graph."""
        if not isinstance(backend, str):
            raise UserError(f"a backend is a string, got {type(backend).__name__}; choose one of {', '.join(kernel_backends())}")
        rec = self.record_of(kernel_id, checked=True).raw
        names = [t["name"] for t in rec["inputs"]]
        out = rec["outputs"][0]["name"]
        raw = {"inputs": {t["name"]: {"shape": t["shape"], "dtype": t["dtype"]} for t in rec["inputs"]}, "params": {},
               "constants": {}, "outputs": [out],
               "steps": [{"node": kernel_id, "kernel": kernel_id, "op": rec["op"], "key": rec["key"], "inputs": names, "outputs": [out]}]}
        return self._runner(GraphRecord.of(kernel_id, raw), backend)

    def _runner(self, g: GraphRecord, backend: str) -> "GraphRunner":
        """The runner of kernel graph ``g`` on ``backend`` (or the best one that works, for "auto")."""
        name = g.name
        if backend not in kernel_backends():
            whole = targets.by_backend(backend)
            if whole is not None and whole.graph_kind:  # a backend that runs whole graphs of its own kind (ane)
                raise UserError(f"graph '{name}' is a graph of kernels; the {backend} backend runs only {whole.graph_kind} graphs "
                                f"(.mil files, YAML graphs with targets [{whole.name}]): choose one of {', '.join(kernel_backends())}")
            raise UserError(f"unknown backend '{backend}'; choose one of {', '.join(kernel_backends())}")
        self._check_graph(g)

        def lacking(target: str) -> list[str]:
            return sorted({k for k in g.kernel_ids if not self.has_target(k, target)})

        reason = None
        if backend == "auto":
            # the targets in the order auto tries them (xdna, host, ref): the first without a problem
            reasons = []
            for t in sorted((t for t in targets.all_targets() if t.auto_rank is not None), key=lambda t: t.auto_rank):
                why = t.auto_problem(self.context, lacking(t.name) if t.needs_binary else [])
                if why is None:
                    backend = t.backend
                    break
                reasons.append(why)
            reason = "; ".join(reasons) or None
        else:
            target = targets.by_backend(backend)
            missing = lacking(target.name) if target.needs_binary else []
            if missing:
                raise UserError(
                    f"graph '{name}' cannot run on {backend}: no {target.name} binary for {', '.join(missing)} (use --backend ref or auto)"
                )
        return GraphRunner(self, g, backend, reason)

    def _check_graph(self, g: GraphRecord) -> None:
        """Steps against the kernels they name, and each kernel against its op: before anything opens."""
        problems = graph_problems(g.name, g.raw, self.manifest["kernels"])
        if problems:
            raise UserError(f"{self.path / 'manifest.json'}: " + "; ".join(problems[:5]))
        for s in g.steps:
            self.record_of(s.kernel, checked=True)

    def close(self) -> None:
        self.kernels.close()
        self.context.close()


class EmptyKernel(KernelBase):
    """A kernel whose output has no element, on every backend: no binary was built; a call gives the
    empty output (its inputs were checked against the record like every kernel's)."""

    def __init__(self, output):
        self.output = output

    def __call__(self, *arrays):
        import numpy as np

        return np.empty(self.output.shape, dtype=numpy_dtype(self.output.dtype))


def _check_names(kind: str, given, declared, graph: str) -> None:
    missing = sorted(set(declared) - set(given))
    extra = sorted(set(given) - set(declared))
    if missing:
        raise UserError(f"graph '{graph}': missing {kind}: {', '.join(missing)}")
    if extra:
        listing = ", ".join(sorted(declared)) or "none"
        raise UserError(f"graph '{graph}': unknown {kind}: {', '.join(extra)} (declared: {listing})")


_GENERATIONS = itertools.count(1)


class GraphRunner:
    """One graph on one backend.

    ``set_params`` copies the params and hands each to the kernels that take it
    as a parameter (an int8 matmul quantises and tiles its weight there, once);
    ``run`` threads tensors by name. ``last_stats`` describes the last run:
    kernel calls, GEMM tile products, and the bytes that crossed between host
    and device (0 on ``ref`` and ``host``, which have no device).
    """

    def __init__(self, rt: Runtime, graph: GraphRecord, backend: str, fallback_reason: str | None):
        self.rt = rt
        self.graph = graph
        self.name = graph.name
        self.record = graph.raw  # the manifest's record (for callers; the runner reads self.graph)
        self.backend = backend
        self.fallback_reason = fallback_reason
        self._params: dict | None = None if graph.params else {}
        self._constants = None
        self._generation = 0
        self._step_bos = None  # the device buffers steps write to (xrt: StepBuffers), made on the first run
        self._plan: CallPlan | None = None  # made after the first checked run (npubuild.runner.call_plan)
        self.last_stats: dict | None = None

    def _load_constants(self) -> dict:
        if self._constants is None:
            self._constants = {n: self._load_constant(n, c) for n, c in self.graph.constants.items()}
        return self._constants

    def _load_constant(self, name: str, c):
        """The .npy's checked bytes, parsed from memory, of exactly the declared shape and dtype."""
        import io

        import numpy as np

        what = f"graph '{self.name}': constant '{name}'"
        try:
            arr = np.load(io.BytesIO(self.rt.files.read(c.file, what)), allow_pickle=False)
        except (ValueError, OSError, EOFError) as e:
            raise UserError(f"{what}: {c.file['path']} is not a .npy array ({e})") from None
        return as_checked_array("constant", name, arr, c.spec, self.name)

    def set_params(self, **arrays) -> None:
        import numpy as np

        params = self.graph.params
        _check_names("params", arrays, params, self.name)
        checked = {n: as_checked_array("param", n, a, params[n], self.name) for n, a in arrays.items()}
        # copies: a caller changing its array later must not change what was bound; C order, so that a
        # call plan hands kernels these very arrays (a kernel that keeps a param knows it by identity)
        self._params = {n: np.array(a, copy=True, order="C") for n, a in checked.items()}
        self._plan = None  # its pointers are the old params'
        # unique across runners: a kernel shared by two graphs must know whose params it holds
        self._generation = next(_GENERATIONS)
        for step in self.graph.steps:
            if any(i in self._params for i in step.inputs):
                self._bind(self._kernel(step), step)

    def _kernel(self, step: Step):
        return self.rt.kernels.get(step.kernel, self.backend)

    def _bind(self, kern, step: Step) -> None:
        if kern.bound_generation == self._generation:
            return
        for i, name in enumerate(step.inputs):
            if name in self._params:
                kern.bind_param(i, self._params[name], self._generation)

    def run(self, **arrays) -> dict:
        plan, cache = self._plan, self.rt.kernels
        if plan is not None:
            with cache.lock:
                if plan.epoch == cache.epoch:
                    stats = {"backend": self.backend, "kernel_calls": 0, "gemm_tiles": 0, "host_to_device_bytes": 0,
                             "device_to_host_bytes": 0}
                    outputs = plan.run(arrays, stats)
                    if outputs is not None:
                        self.last_stats = stats
                        return outputs
                else:
                    self._plan = None
        outputs = self._checked_run(arrays)
        if self._plan is None and self._plannable():
            with cache.lock:
                self._plan = CallPlan(self, cache.epoch)
        return outputs

    def _plannable(self) -> bool:
        """Whether a call plan can run this graph: no device, and every kernel open at once."""
        return (targets.by_backend(self.backend).traffic(self.rt.context) is None
                and len(set(self.graph.kernel_ids)) <= self.rt.kernels.max_open)

    def _checked_run(self, arrays: dict) -> dict:
        """One run with every check (the first run, and any run whose inputs a call plan does not take as they are)."""
        if self._params is None:
            raise UserError(f"graph '{self.name}': call set_params({', '.join(sorted(self.graph.params))}) before run()")
        _check_names("inputs", arrays, self.graph.inputs, self.name)
        env = {n: as_checked_array("input", n, a, self.graph.inputs[n], self.name) for n, a in arrays.items()}
        env.update(self._params)
        env.update(self._load_constants())
        stats = {"backend": self.backend, "kernel_calls": 0, "gemm_tiles": 0, "host_to_device_bytes": 0, "device_to_host_bytes": 0}
        traffic = targets.by_backend(self.backend).traffic(self.rt.context)  # None on a target without a device
        start = (traffic.to_device, traffic.from_device) if traffic else (0, 0)
        for step in self.graph.steps:
            kern = self._kernel(step)
            if any(i in self._params for i in step.inputs):
                self._bind(kern, step)  # reopened after an eviction: bind again
            before = kern.gemm_dispatches
            args = [env[i] for i in step.inputs]
            if traffic is not None and kern.writes_device_buffer:
                env[step.output] = kern(*args, out_bo=self._step_buffer(step.index, kern))
            else:
                env[step.output] = kern(*args)
            stats["kernel_calls"] += 1
            stats["gemm_tiles"] += kern.gemm_dispatches - before
        outputs = {o: env[o] for o in self.graph.outputs}
        if traffic is not None:
            from .xrt_packing import to_host

            outputs = {o: to_host(v) for o, v in outputs.items()}
            stats["host_to_device_bytes"] = traffic.to_device - start[0]
            stats["device_to_host_bytes"] = traffic.from_device - start[1]
        self.last_stats = stats
        return outputs

    def _step_buffer(self, k: int, kern):
        """The device buffer step ``k`` writes its output to: its own (kept across runs, renewed with
        the context) or a sub-buffer of a later step's packed input (:mod:`.xrt_chain`)."""
        if self._step_bos is None:
            from .xrt_chain import StepBuffers

            self._step_bos = StepBuffers(self.graph.steps, self._kernel)
        return self._step_bos.output(k, kern)


def _register_bf16(records: Records) -> None:
    """Import ml_dtypes when a kernel has bf16 tensors: NumPy knows the dtype name
    "bfloat16" (which every backend maps buffers with) only after that import, and
    the import costs about a second, so manifests without bf16 do not pay it."""
    for k in records.kernels.values():
        if any(t.dtype == "bf16" for t in (*k.inputs, k.output)):
            numpy_dtype("bf16")
            return


def load(path="artifacts", verify_files: bool = True, max_open: int | None = None, xrt_contexts: int | None = None) -> Runtime:
    """Open a built artifact directory; by default re-hash and cross-check every file first.

    Even with ``verify_files=False`` the manifest's fields are type-checked here,
    and a kernel's record, binary bytes and ABI are checked before it first runs."""
    from ..core.config import load_config

    path = Path(path)
    resident, limits, accumulate = None, Limits(), "fp32"
    try:  # the project's settings fill in what the caller did not give
        cfg = load_config()
        max_open = max_open if max_open is not None else cfg.max_open_kernels
        xrt_contexts = xrt_contexts if xrt_contexts is not None else cfg.xrt_contexts
        resident, limits, accumulate = cfg.ane_resident_programs, cfg.limits, cfg.ane_accumulate
    except UserError:
        max_open = max_open if max_open is not None else 16
    manifest = read_manifest(path, limits)
    if verify_files:
        problems = verify(path, manifest, limits)
        if problems:
            raise VerifyError(f"{path} does not match its manifest:\n  " + "\n  ".join(problems))
    rt = Runtime(path, manifest, max_open, xrt_contexts, limits=limits, ane_resident=resident, ane_accumulate=accumulate)
    _register_bf16(rt.records)
    return rt
