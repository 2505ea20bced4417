"""What a Dask worker runs for one compile: the same target code as a local build.

The worker trusts nothing about its own machine: it computes its own toolchain
fingerprint and the compile key from it, and refuses (a value, not an
exception, so that Dask does not retry it elsewhere as a failure) when the key
differs from the client's. It compiles in a private temporary directory, with a
temporary store of its own for linked objects (xdna's microkernels), and sends
back the outputs' bytes with their sha256 and the build log. It never sees, let
alone writes, the client's tree: paths in the log and messages are the
worker's, and the client rewrites them.

The task the client submits is :func:`farm_task`: it never raises (an exception
is returned as ``{"raised": ...}``; some, such as RecursionError, Dask cannot
send back, and the client would wait its whole budget) and its answer is plain
data (bytes, str, int, dicts), which the client takes in msgpack only.
"""
from __future__ import annotations

import atexit
import functools
import hashlib
import io
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from ...core.errors import UserError
from ...core.limits import Limits

LOG_LIMIT = Limits().farm_log_max_size  # default bytes of build log sent back (limits.farm_log_max_size; the tail is kept)


@dataclass(frozen=True)
class CompileRequest:
    target: str
    kernel_id: str
    instance: object  # spec KernelInstance (picklable)
    source: bytes  # the source file's bytes: the key hashes them, the compile reads them as text
    options: dict
    key: str  # the client's compile key: the worker's must equal it
    toolchain: dict  # the client's fingerprint, to say what differs when the keys do not match
    flags: object = None
    limits: Limits = field(default_factory=Limits)
    max_size: int = 1 << 30  # config.max_artifact_size: larger outputs are not sent
    code: str = ""  # code_id() of the client: the compile drivers must be the same code on both sides


# What a compile runs besides the tools: npubuild's drivers. The compile key does not hash them
# (a local build's code is the build's own), so a worker checks that it runs the same ones.
_CODE_FILES = ("toolchain/*.py", "build/targets.py", "build/keys.py", "build/farm/worker.py")


@functools.lru_cache(maxsize=1)
def code_id() -> str:
    root = Path(__file__).resolve().parents[2]  # npubuild/
    h = hashlib.sha256()
    for pattern in _CODE_FILES:
        for p in sorted(root.glob(pattern)):
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def worker_name() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return f"pid {os.getpid()}"  # called outside a Dask worker (a test)


_SCRATCH: dict[int, Path] = {}
_SCRATCH_LOCK = threading.Lock()


def scratch_dir() -> Path:
    """This worker process's private directory: its fingerprint cache and its temporary
    store of linked objects, kept for the life of the process and removed at exit."""
    with _SCRATCH_LOCK:
        d = _SCRATCH.get(os.getpid())
        if d is None:
            d = _SCRATCH[os.getpid()] = Path(tempfile.mkdtemp(prefix="npubuild-farm-"))
            (d / "store").mkdir()
            atexit.register(shutil.rmtree, d, True)
        return d


def own_toolchain(target: str) -> dict:
    """This machine's fingerprint of ``target``'s toolchain (UserError when it has none or misses a tool)."""
    from ..targets import kernel_target

    tgt = kernel_target(target)
    problem = tgt.toolchain_problem(scratch_dir() / "store")
    if problem:
        raise UserError(problem)
    return tgt.fingerprint(scratch_dir() / "store")


def differences(theirs: dict, ours: dict) -> list[str]:
    """The fingerprint entries that differ (not the id, which always does then)."""
    keys = sorted((set(theirs) | set(ours)) - {"id"})
    return [k for k in keys if theirs.get(k) != ours.get(k)]


def farm_task(req: CompileRequest) -> dict:
    """What the client submits: :func:`run_compile` (looked up at call time), any exception turned into
    ``{"raised": "Type: first line", "worker"}`` so that the client always gets an answer it can read."""
    try:
        return run_compile(req)
    except BaseException as e:  # noqa: BLE001 - RecursionError, MemoryError ... must come back as data, not as a lost task
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        first = (str(e).splitlines() or [""])[0][:300]
        return {"raised": f"{type(e).__name__}: {first}" if first else type(e).__name__, "worker": worker_name()}


def run_compile(req: CompileRequest) -> dict:
    """Compile on this worker. Returns one of
    ``{"files": {name: {"data", "sha256", "mode"}}, "log", "worker", "scratch"}``,
    ``{"error": message, "log", "worker", "scratch"}`` (the compiler failed, as it would locally),
    ``{"refused": reason, "worker"}`` (this worker cannot produce the client's key)."""
    from ..keys import compile_key
    from ..targets import kernel_target

    tgt = kernel_target(req.target)
    where = worker_name()
    if tgt is None:
        return {"refused": f"no target '{req.target}' here compiles kernels", "worker": where}
    if req.code != code_id():
        return {"refused": f"its npubuild differs (compile code {code_id()[:12]} here, {req.code[:12] or '?'} on the client: "
                           "install the same npubuild on the workers)", "worker": where}
    try:
        tc = own_toolchain(req.target)
        linked = tgt.linked_inputs(req.instance, req.options, tc, req.flags)
    except UserError as e:
        return {"refused": f"no usable {req.target} toolchain ({str(e).splitlines()[0]})", "worker": where}
    key = compile_key(req.target, hashlib.sha256(req.source).hexdigest(), tc["id"], req.flags, linked)
    if key != req.key:
        diff = differences(req.toolchain, tc)
        if diff:
            first = diff[0]
            what = (f"its {req.target} toolchain differs in {', '.join(diff[:4])}"
                    f" ({first}: {_short(tc.get(first))} here, {_short(req.toolchain.get(first))} on the client)")
        else:
            what = "what the kernel links differs here (linked sources)"
        return {"refused": what, "worker": where}
    with tempfile.TemporaryDirectory(prefix="compile-", dir=scratch_dir()) as tmp:
        out = Path(tmp) / "out"
        out.mkdir()
        log = out / "build.log"
        try:
            # read as the local build reads the file (Path.read_text: universal newlines)
            text = io.TextIOWrapper(io.BytesIO(req.source), encoding="utf-8").read()
            tgt.compile(text, out, log, req.instance, req.options, scratch_dir() / "store", tc, limits=req.limits,
                        flags=req.flags)
        except UserError as e:
            return {"error": str(e), "log": _log_text(log, req.limits), "worker": where, "scratch": str(out)}
        files = {}
        for name in tgt.binaries.values():
            p = out / name
            size = p.stat().st_size
            if size > req.max_size:
                return {"error": f"{name} is {size} bytes, over max_artifact_size ({req.max_size}); not sent",
                        "log": _log_text(log, req.limits), "worker": where, "scratch": str(out)}
            data = p.read_bytes()
            files[name] = {"data": data, "sha256": hashlib.sha256(data).hexdigest(), "mode": p.stat().st_mode & 0o777}
        return {"files": files, "log": _log_text(log, req.limits), "worker": where, "scratch": str(out)}


def _short(value, limit: int = 100) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _log_text(path: Path, limits: Limits | None = None) -> str:
    limit = getattr(limits, "farm_log_max_size", LOG_LIMIT)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > limit:
                f.seek(size - limit)  # the tail only: a runaway log is not read into memory whole
            data = f.read(limit)
    except OSError:
        return ""
    if size > limit:
        data = b"# ... (the start of the log is left out: limits.farm_log_max_size)\n" + data
    return data.decode("utf-8", "replace")


def describe_worker() -> dict:
    """For ``npubuild farm status`` (through Client.run): this worker's toolchain ids, or why it has none."""
    from ..targets import kernel_targets

    out = {}
    for name in kernel_targets():
        try:
            out[name] = {"id": own_toolchain(name)["id"]}
        except UserError as e:
            out[name] = {"problem": str(e).splitlines()[0]}
        except Exception as e:  # a broken installation on that worker: say so in the table, do not fail the command
            out[name] = {"problem": f"{type(e).__name__}: {e}"}
    return out
