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
"""
from __future__ import annotations

import itertools
from collections import OrderedDict
from pathlib import Path

from ..artifacts.abi import xdna_abi_problem
from ..artifacts.manifest import read_manifest
from ..artifacts.manifest_records import graph_problems
from ..artifacts.verify import verify
from ..core.constants import numpy_dtype
from ..core.errors import UserError, VerifyError
from ..core.limits import Limits
from .checks import as_checked_array, check_gemm_abi, check_kernel_record
from .pinned import PinnedFiles

BACKENDS = ("ref", "host", "xrt", "auto")


class KernelCache:
    """Opens kernels lazily and keeps at most ``max_open`` of them (least recently used goes)."""

    def __init__(self, opener, max_open: int):
        self._opener = opener
        self.max_open = max_open
        self._open: OrderedDict = OrderedDict()
        self.opened = 0  # how many times a kernel was opened (for tests and stats)

    def get(self, kernel_id: str, backend: str):
        k = (kernel_id, backend)
        if k in self._open:
            self._open.move_to_end(k)
            return self._open[k]
        while len(self._open) >= self.max_open:
            _, old = self._open.popitem(last=False)
            close = getattr(old, "close", None)
            if close:
                close()
        kern = self._opener(kernel_id, backend)
        self.opened += 1
        self._open[k] = kern
        return kern

    def open_ids(self) -> list[str]:
        return [k for k, _ in self._open]

    def close(self) -> None:
        while self._open:
            _, kern = self._open.popitem()
            close = getattr(kern, "close", None)
            if close:
                close()


class Runtime:
    def __init__(self, path: Path, manifest: dict, max_open: int, xrt_contexts: int | None = None):
        self.path = path
        self.manifest = manifest
        self.kernels = KernelCache(self._open_kernel, max_open)
        self.files = PinnedFiles(path)  # what runs: private copies of the bytes that were hashed
        self._checked: set[str] = set()  # kernel records found to be instances of their ops
        self._xdna: dict[str, dict] = {}  # kernel id -> its checked xdna binaries (private copies)
        self.xrt_contexts = xrt_contexts
        self.ane_resident: int | None = None  # ANE programs kept loaded (None: no limit)
        self.limits = Limits()  # the project's, set by load()
        self._xrt = None  # (pyxrt, device, ContextPool, Traffic) once the xrt backend is used

    # -- the NPU --------------------------------------------------------------------------
    def xrt_status(self) -> tuple[bool, str | None]:
        """(usable, why not): pyxrt imports and a Ryzen AI NPU answers."""
        from . import xrt

        if self._xrt is not None:
            return True, None
        info = xrt.probe()
        return (info["missing"] is None), info["missing"]

    def xrt_session(self):
        if self._xrt is None:
            from . import xrt

            pyxrt = xrt.import_pyxrt()
            if pyxrt is None:
                raise UserError(xrt.PYXRT_MISSING)
            info = xrt.probe(pyxrt)
            if info["missing"]:
                raise UserError(f"the xrt backend cannot run: {info['missing']}")
            device = pyxrt.device(0)
            traffic = xrt.Traffic()

            def open_hw(kernel_id: str):
                files = self._xdna_files(kernel_id)
                return xrt.HwKernel(pyxrt, device, files["xclbin"], files["insts"], traffic, run_timeout=self.limits.xrt_run_timeout)

            pool = xrt.ContextPool(xrt.context_limit(info["family"], self.xrt_contexts), open_hw)
            self._xrt = (pyxrt, device, pool, traffic, info)
        return self._xrt

    def _xdna_files(self, kernel_id: str) -> dict:
        """Private copies of the kernel's xclbin and insts, once its abi.json matches its record."""
        if kernel_id in self._xdna:
            return self._xdna[kernel_id]
        rec = self.checked_record(kernel_id)
        t = rec["targets"].get("xdna", {})
        files = t.get("files", {})
        if not t.get("compiled") or "xclbin" not in files or "insts" not in files:
            why = t.get("not_compiled") or "not built for xdna"
            raise UserError(f"kernel '{kernel_id}' has no xdna binary ({why})")
        if "abi_file" not in t:
            raise UserError(f"kernel '{kernel_id}': the manifest names no abi.json for xdna; delete manifest.json and run `doit build`")
        why = xdna_abi_problem(kernel_id, rec, self.files.read(t["abi_file"], f"kernel {kernel_id} [xdna abi]"))
        if why:
            raise UserError(f"kernel '{kernel_id}': {why}; refusing to run it (rebuild with `doit build`)")
        if rec["op"] == "matmul":
            check_gemm_abi(kernel_id, rec, t["abi"])
        pinned = {role: self.files.path(files[role], f"kernel {kernel_id} [xdna {role}]") for role in ("xclbin", "insts")}
        self._xdna[kernel_id] = pinned
        return pinned

    # -- kernels ---------------------------------------------------------------------------
    def kernel_record(self, kernel_id: str) -> dict:
        rec = self.manifest["kernels"].get(kernel_id) if isinstance(kernel_id, str) else None
        if rec is None:
            raise UserError(f"kernel {kernel_id!r} is not in {self.path / 'manifest.json'}")
        return rec

    def checked_record(self, kernel_id: str) -> dict:
        """The record, once found to be an instance its op accepts (UserError naming the kernel otherwise)."""
        rec = self.kernel_record(kernel_id)
        if kernel_id not in self._checked:
            check_kernel_record(kernel_id, rec)
            self._checked.add(kernel_id)
        return rec

    def _open_kernel(self, kernel_id: str, backend: str):
        rec = self.checked_record(kernel_id)
        desc = dict(rec, id=kernel_id)
        if backend == "xrt":
            from . import xrt

            _, _, pool, _, _ = self.xrt_session()
            self._xdna_files(kernel_id)
            if desc.get("op") == "matmul":
                from . import xrt_gemm

                if desc.get("dtype") == "bf16":
                    return xrt_gemm.XrtBf16GemmKernel(kernel_id, desc, pool)
                return xrt_gemm.XrtGemmKernel(kernel_id, desc, pool)
            return xrt.XrtKernel(kernel_id, desc, self._xdna_files(kernel_id), pool)
        if desc.get("op") == "matmul" and desc.get("dtype") == "i8":
            return self._open_gemm(kernel_id, desc, backend)
        if backend == "ref":
            from .ref import RefKernel

            return RefKernel(desc)
        if backend == "host":
            return self._open_kernel_file(kernel_id, desc)
        raise UserError(f"unknown backend '{backend}'")

    def _open_gemm(self, kernel_id: str, desc: dict, backend: str):
        """int8 matmul: the blocked GEMM of npubuild.runner.gemm over the backend's tile product."""
        from .gemm import GemmKernel, RefDispatch, TileDispatch

        if backend == "ref":
            return GemmKernel(desc, lambda g: RefDispatch(g.kk))
        if backend == "host":
            host = self._open_kernel_file(kernel_id, desc)

            def tile(g):
                fn = host.function("gemm_tile", [((g.d, g.kk), "int8"), ((g.kk, g.nn), "int8"), ((g.d, g.nn), "int32")])
                return TileDispatch(fn, g.d)

            return GemmKernel(desc, tile, closer=host)
        raise UserError(f"unknown backend '{backend}'")

    def _open_kernel_file(self, kernel_id: str, desc: dict):
        from .host import HostKernel

        files = desc.get("targets", {}).get("host", {}).get("files", {})
        if "binary" not in files:
            raise UserError(f"kernel '{kernel_id}' has no host binary ({desc.get('unavailable', {}).get('host', 'not built for host')})")
        binary = files["binary"]
        path = self.files.path(binary, f"kernel {kernel_id} [host binary]")
        return HostKernel(path, desc, origin=binary["path"], require_abi=True)

    def has_target(self, kernel_id: str, target: str) -> bool:
        t = self.kernel_record(kernel_id).get("targets", {})
        return target in t and t[target].get("compiled", True)

    # -- graphs ----------------------------------------------------------------------------
    def graph_names(self) -> list[str]:
        return sorted(self.manifest.get("graphs", {}))

    def graph(self, name: str, backend: str = "auto") -> "GraphRunner":
        graphs = self.manifest.get("graphs", {})
        if not isinstance(name, str):
            raise UserError(f"a graph name is a string, got {type(name).__name__}; graphs: {', '.join(sorted(graphs)) or 'none'}")
        if not isinstance(backend, str):
            raise UserError(f"a backend is a string, got {type(backend).__name__}; choose one of {', '.join(BACKENDS)}")
        if name not in graphs:
            from ..ops.registry import did_you_mean

            listing = ", ".join(sorted(graphs)) or "none"
            raise UserError(f"no graph '{name}' in {self.path / 'manifest.json'}{did_you_mean(name, graphs)}; graphs: {listing}")
        g = graphs[name]
        if g.get("kind") == "ane":
            if backend not in ("ane", "auto"):
                raise UserError(f"graph '{name}' is an ANE graph (from {name}.mil): run it with backend 'ane' (or auto)")
            from .ane_graph import AneGraphRunner

            return AneGraphRunner(self, name, g, self.ane_resident)
        if backend not in BACKENDS:
            raise UserError(f"unknown backend '{backend}'; choose one of {', '.join(BACKENDS)}")
        self._check_graph(name, g)
        kernel_ids = [s["kernel"] for s in g["steps"]]

        def lacking(target: str) -> list[str]:
            return sorted({k for k in kernel_ids if not self.has_target(k, target)})

        reason = None
        if backend == "auto":
            reasons = []
            ok, why = self.xrt_status()
            if ok and not lacking("xdna"):
                backend = "xrt"
            else:
                reasons.append(f"xrt: {why}" if not ok else f"xrt: no xdna binary for {', '.join(lacking('xdna'))}")
                if not lacking("host"):
                    backend = "host"
                else:
                    backend = "ref"
                    reasons.append(f"host: binaries missing for {', '.join(lacking('host'))}")
                reason = "; ".join(reasons)
        elif backend in ("host", "xrt") and lacking("host" if backend == "host" else "xdna"):
            target = "host" if backend == "host" else "xdna"
            raise UserError(
                f"graph '{name}' cannot run on {backend}: no {target} binary for {', '.join(lacking(target))} (use --backend ref or auto)"
            )
        return GraphRunner(self, name, g, backend, reason)

    def _check_graph(self, name: str, g: dict) -> None:
        """Steps against the kernels they name, and each kernel against its op: before anything opens."""
        problems = graph_problems(name, g, self.manifest["kernels"])
        if problems:
            raise UserError(f"{self.path / 'manifest.json'}: " + "; ".join(problems[:5]))
        for s in g["steps"]:
            self.checked_record(s["kernel"])

    def close(self) -> None:
        self.kernels.close()
        if self._xrt is not None:
            self._xrt[2].close()


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

    def __init__(self, rt: Runtime, name: str, record: dict, backend: str, fallback_reason: str | None):
        self.rt = rt
        self.name = name
        self.record = record
        self.backend = backend
        self.fallback_reason = fallback_reason
        self._params: dict | None = None if record["params"] else {}
        self._constants = None
        self._generation = 0
        self.last_stats: dict | None = None

    def _load_constants(self) -> dict:
        if self._constants is None:
            self._constants = {n: self._load_constant(n, c) for n, c in self.record["constants"].items()}
        return self._constants

    def _load_constant(self, name: str, c: dict):
        """The .npy's checked bytes, parsed from memory, of exactly the declared shape and dtype."""
        import io

        import numpy as np

        what = f"graph '{self.name}': constant '{name}'"
        try:
            arr = np.load(io.BytesIO(self.rt.files.read(c, what)), allow_pickle=False)
        except (ValueError, OSError, EOFError) as e:
            raise UserError(f"{what}: {c['path']} is not a .npy array ({e})") from None
        return as_checked_array("constant", name, arr, c, self.name)

    def set_params(self, **arrays) -> None:
        import numpy as np

        _check_names("params", arrays, self.record["params"], self.name)
        checked = {n: as_checked_array("param", n, a, self.record["params"][n], self.name) for n, a in arrays.items()}
        # copies: a caller changing its array later must not change what was bound
        self._params = {n: np.array(a, copy=True) for n, a in checked.items()}
        # unique across runners: a kernel shared by two graphs must know whose params it holds
        self._generation = next(_GENERATIONS)
        for step in self.record["steps"]:
            if any(i in self._params for i in step["inputs"]):
                self._bind(self.rt.kernels.get(step["kernel"], self.backend), step)

    def _bind(self, kern, step) -> None:
        bind = getattr(kern, "bind_param", None)
        if bind is None or getattr(kern, "bound_generation", None) == self._generation:
            return
        for i, name in enumerate(step["inputs"]):
            if name in self._params:
                bind(i, self._params[name], self._generation)

    def run(self, **arrays) -> dict:
        if self._params is None:
            raise UserError(f"graph '{self.name}': call set_params({', '.join(sorted(self.record['params']))}) before run()")
        _check_names("inputs", arrays, self.record["inputs"], self.name)
        env = {n: as_checked_array("input", n, a, self.record["inputs"][n], self.name) for n, a in arrays.items()}
        env.update(self._params)
        env.update(self._load_constants())
        stats = {"backend": self.backend, "kernel_calls": 0, "gemm_tiles": 0, "host_to_device_bytes": 0, "device_to_host_bytes": 0}
        traffic = self.rt.xrt_session()[3] if self.backend == "xrt" else None
        start = (traffic.to_device, traffic.from_device) if traffic else (0, 0)
        for k, step in enumerate(self.record["steps"]):
            kern = self.rt.kernels.get(step["kernel"], self.backend)
            if any(i in self._params for i in step["inputs"]):
                self._bind(kern, step)  # reopened after an eviction: bind again
            gemm = getattr(kern, "gemm", None)
            before = gemm.dispatches if gemm is not None else 0
            args = [env[i] for i in step["inputs"]]
            if traffic is not None and hasattr(kern, "output_buffer"):
                env[step["outputs"][0]] = kern(*args, out_bo=self._step_buffer(k, kern))
            else:
                env[step["outputs"][0]] = kern(*args)
            stats["kernel_calls"] += 1
            if gemm is not None:
                stats["gemm_tiles"] += gemm.dispatches - before
        outputs = {o: env[o] for o in self.record["outputs"]}
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
        if not hasattr(self, "_step_bos"):
            from .xrt_chain import StepBuffers

            self._step_bos = StepBuffers(self.record["steps"], lambda s: self.rt.kernels.get(s["kernel"], self.backend))
        return self._step_bos.output(k, kern)


def _register_bf16(manifest: dict) -> None:
    """Import ml_dtypes when a kernel has bf16 tensors: NumPy knows the dtype name
    "bfloat16" (which every backend maps buffers with) only after that import, and
    the import costs about a second, so manifests without bf16 do not pay it."""
    for k in manifest["kernels"].values():
        if any(t["dtype"] == "bf16" for t in (*k["inputs"], *k["outputs"])):
            numpy_dtype("bf16")
            return


def load(path="artifacts", verify_files: bool = True, max_open: int | None = None, xrt_contexts: int | None = None) -> Runtime:
    """Open a built artifact directory; by default re-hash and cross-check every file first.

    Even with ``verify_files=False`` the manifest's fields are type-checked here,
    and a kernel's record, binary bytes and ABI are checked before it first runs."""
    from ..core.config import load_config

    path = Path(path)
    resident, limits = None, Limits()
    try:  # the project's settings fill in what the caller did not give
        cfg = load_config()
        max_open = max_open if max_open is not None else cfg.max_open_kernels
        xrt_contexts = xrt_contexts if xrt_contexts is not None else cfg.xrt_contexts
        resident, limits = cfg.ane_resident_programs, cfg.limits
    except UserError:
        max_open = max_open if max_open is not None else 16
    manifest = read_manifest(path, limits)
    if verify_files:
        problems = verify(path, manifest, limits)
        if problems:
            raise VerifyError(f"{path} does not match its manifest:\n  " + "\n  ".join(problems))
    _register_bf16(manifest)
    rt = Runtime(path, manifest, max_open, xrt_contexts)
    rt.ane_resident = resident
    rt.limits = limits
    return rt
