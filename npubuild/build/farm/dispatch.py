"""The client side of one remote compile: route, submit, wait, check, write.

:func:`compile_on_farm` either leaves the outputs and build.log in the kernel
directory (returning the worker's address), raises UserError (the compile
failed on the worker, as it would have here, or did not finish in time), or
returns None: this kernel is compiled locally, and a one-line notice, printed
once at the end of the build, says why (scheduler unreachable or lost, no
worker with the target's resource, a worker refused, workers died).

Outputs are checked (every binary present, within max_artifact_size, its
sha256 re-computed) before the first one is written, and each is written
atomically, so a bad answer or an interrupted build leaves nothing half-written.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
import uuid
from pathlib import Path

from ...errors import UserError
from ...fsio import atomic_write_bytes, atomic_write_text
from ...limits import Limits
from .connect import FarmUnavailable, client_for, forget, workers_of
from .worker import CompileRequest, run_compile

# Dask resources a worker must offer for a target's compiles (`dask worker --resources xdna=1`).
RESOURCES: dict[str, dict] = {"host": {}, "xdna": {"xdna": 1}}
RETRIES = 1  # an exception inside the task (not a refusal, not a compile error) is tried once more
INFO_TTL = 5.0  # seconds the scheduler's worker list is reused before asking again
POLL = 5.0  # seconds between checks that the farm still has a worker for a compile being waited on
QUEUE_ALLOWANCE = 60.0  # seconds on top of the tool timeouts: lowering, transfer, a short queue

_LOCK = threading.Lock()
_INFO: dict[tuple[int, str], tuple[float, dict]] = {}
_REFUSING: dict[tuple[int, str, str], set] = {}  # (pid, executor, target) -> workers that refused


def wait_budget(target: str, limits: Limits) -> float:
    """How long the client waits for one compile: the tool timeouts the compile itself runs
    under (host: llc and cc; xdna: two Peano objects and aiecc), plus an allowance."""
    if target == "xdna":
        return limits.aiecc_timeout + 2 * limits.tool_timeout + QUEUE_ALLOWANCE
    return 2 * limits.tool_timeout + QUEUE_ALLOWANCE


def _notice(store_root, executor: str, topic: str, line: str) -> None:
    from ...artifacts.stores.notices import record

    record(store_root, executor, topic, line)


def _workers(client, executor: str) -> dict:
    slot = (os.getpid(), executor)
    with _LOCK:
        hit = _INFO.get(slot)
    if hit is not None and time.monotonic() - hit[0] < INFO_TTL:
        return hit[1]
    workers = workers_of(client)
    with _LOCK:
        _INFO[slot] = (time.monotonic(), workers)
    return workers


def _able(workers: dict, target: str) -> list[str]:
    need = RESOURCES.get(target, {})
    return sorted(a for a, w in workers.items() if all((w.get("resources") or {}).get(r, 0) >= n for r, n in need.items()))


def compile_on_farm(executor: str, req: CompileRequest, out: Path, store_root) -> str | None:
    try:
        client = client_for(executor)
    except FarmUnavailable as e:
        if e.lost:
            return None  # the notice that it went away is there already
        _notice(store_root, executor, "unreachable", f"npubuild: compile farm {executor} unreachable ({e}); compiling locally")
        return None
    refusing = _REFUSING.setdefault((os.getpid(), executor, req.target), set())
    while True:
        try:
            able = _able(_workers(client, executor), req.target)
        except (OSError, TimeoutError) as e:
            return _lost(executor, store_root, f"{type(e).__name__}: {e}")
        if not able:
            res = ", ".join(f"{r}={n}" for r, n in RESOURCES[req.target].items())
            _notice(store_root, executor, f"none:{req.target}",
                    f"npubuild: compile farm {executor} has no worker for {req.target} compiles"
                    f"{f' (dask worker --resources {res})' if res else ''}; compiling them locally")
            return None
        good = [a for a in able if a not in refusing]
        if not good:
            _notice(store_root, executor, f"all-refuse:{req.target}",
                    f"npubuild: every worker of {executor} that takes {req.target} compiles refused them; "
                    "compiling them locally")
            return None
        result = _run(client, executor, req, good if refusing else None, store_root)
        if result is None:
            return None
        if "refused" in result:
            refusing.add(result["worker"])
            _notice(store_root, executor, f"refused:{result['worker']}:{req.target}",
                    f"npubuild: farm worker {result['worker']} refused {req.target} compiles: {result['refused']}; "
                    "they go to other workers or are compiled locally")
            continue
        return _take(executor, req, result, out)


def _run(client, executor: str, req: CompileRequest, workers, store_root) -> dict | None:
    """Submit and wait; None (after a notice) when the kernel must be compiled locally."""
    from distributed import KilledWorker

    budget = wait_budget(req.target, req.limits)
    # pure=False and a unique key: two builds of the same kernel are two tasks, never one shared result
    fut = client.submit(run_compile, req, key=f"npubuild-compile-{req.kernel_id}@{req.target}-{uuid.uuid4().hex[:12]}",
                        resources=RESOURCES.get(req.target) or None, workers=workers, retries=RETRIES, pure=False)
    try:
        return _wait(client, executor, fut, req.target, budget, store_root)
    except _OutOfTime:
        fut.cancel()
        raise UserError(
            f"kernel {req.kernel_id}: the {req.target} compile on the farm {executor} did not finish within {budget:.0f} s "
            "(the tool timeouts in [tool.npubuild.limits] plus a minute); it was cancelled and nothing was written"
        ) from None
    except KilledWorker as e:
        _notice(store_root, executor, "killed",
                f"npubuild: compile farm {executor}: workers died running one compile more often than the scheduler's "
                f"allowed-failures ({str(e)[:200]}); such kernels were compiled locally")
        return None
    except _NoWorkerLeft:
        fut.cancel()
        _notice(store_root, executor, f"none-left:{req.target}",
                f"npubuild: compile farm {executor} has no worker left for {req.target} compiles; compiling the rest locally")
        return None
    except (OSError, EOFError) as e:
        return _lost(executor, store_root, f"{type(e).__name__}: {e}")
    except Exception as e:  # noqa: BLE001 - the task raised on the worker (e.g. npubuild missing there); cancelled futures
        if type(e).__name__ in ("CancelledError", "FutureCancelledError"):
            return _lost(executor, store_root, "its futures were cancelled")
        first = (str(e).splitlines() or [""])[0][:200]
        _notice(store_root, executor, f"raised:{type(e).__name__}",
                f"npubuild: compile farm {executor}: a worker raised {type(e).__name__}: {first}; "
                "such kernels were compiled locally")
        return None


class _NoWorkerLeft(Exception):
    pass


class _OutOfTime(Exception):
    pass


def _wait(client, executor: str, fut, target: str, budget: float, store_root):
    """fut.result(timeout=budget), looking every POLL seconds whether a worker that can run it is
    still there: when the last one went away, the task would wait at the scheduler for nothing."""
    deadline = time.monotonic() + budget
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise _OutOfTime
        try:
            return fut.result(timeout=min(POLL, left))
        except TimeoutError:
            pass
        if not _able(workers_of(client), target):
            with _LOCK:
                _INFO.pop((os.getpid(), executor), None)
            raise _NoWorkerLeft


def _lost(executor: str, store_root, why: str):
    forget(executor, why)
    _notice(store_root, executor, "lost",
            f"npubuild: compile farm {executor} went away during the build ({why[:200]}); compiling the rest locally")
    return None


def _take(executor: str, req: CompileRequest, result: dict, out: Path) -> str:
    """Check the worker's answer, then write it; UserError for a compile error or a bad answer."""
    from ..targets import COMPILED

    worker, scratch = result["worker"], result.get("scratch") or "\0"
    header = f"# compiled on farm worker {worker} ({executor})\n"
    log = header + (result.get("log") or "").replace(scratch, str(out))
    if "error" in result:
        atomic_write_text(out / "build.log", log)
        raise UserError(f"kernel {req.kernel_id} (on farm worker {worker}): {result['error'].replace(scratch, str(out))}")
    files = result.get("files") or {}
    for name in COMPILED[req.target].binaries.values():
        f = files.get(name)
        data = f.get("data") if isinstance(f, dict) else None
        if not isinstance(data, bytes) or len(data) > req.max_size or hashlib.sha256(data).hexdigest() != f.get("sha256"):
            raise UserError(f"kernel {req.kernel_id}: farm worker {worker} sent {name} missing, too large or not matching "
                            "its sha256; nothing was written (compile it locally with executor = \"local\")")
    for name in COMPILED[req.target].binaries.values():
        f = files[name]
        atomic_write_bytes(out / name, f["data"], mode=int(f.get("mode", 0o644)) & 0o755)
    atomic_write_text(out / "build.log", log)
    return worker


def reset() -> None:
    """Forget worker lists and refusals (tests)."""
    with _LOCK:
        _INFO.clear()
        _REFUSING.clear()
