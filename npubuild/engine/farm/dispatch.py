"""The client side of one remote compile: route, submit, wait, check, write.

:func:`compile_on_farm` either leaves the outputs and build.log in the kernel
directory (returning their provenance: the worker, its certificate, why it is
trusted, whether farm_verify compiled it here too), raises UserError (the compile
failed on the worker, as it would have here, or did not finish in time), or
returns None: this kernel is compiled locally, and a one-line notice, printed
once at the end of the build, says why (scheduler unreachable, lost or not
authenticated, no trusted worker, no worker with the target's resource, a worker
refused, workers died, a worker sent something that is not an answer).

Compiles go only to trusted workers (npubuild.core.farm_settings): an untrusted worker's output
is never written, stored, signed or shared, because it is never asked for.

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

from ...core.errors import UserError
from ...core.fsio import atomic_write_bytes, atomic_write_text
from ...core.limits import Limits
from . import answer
from .connect import FarmUnavailable, client_for, forget, workers_of
from ...core.farm_settings import FarmSettings
from .trust import trusted_workers
from .worker import CompileRequest, farm_task

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
    under (the target's compile_budget: host, llc and cc; xdna, two Peano objects and aiecc),
    plus an allowance."""
    from ..targets import kernel_target

    compiled = kernel_target(target) or kernel_target("host")  # a name the build does not compile: host's budget, as before
    return compiled.compile_budget(limits) + QUEUE_ALLOWANCE


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


def compile_on_farm(executor: str, req: CompileRequest, out: Path, store_root, farm: FarmSettings | None = None) -> dict | None:
    farm = farm or FarmSettings()
    if not farm.trusted and not farm.tls:
        # no worker could be trusted: do not even connect (Dask's messages can carry pickles)
        _notice(store_root, executor, "untrusted",
                f"npubuild: compile farm {executor}: its workers are not trusted (plain TCP, no farm_trusted), so no compile "
                f"is sent there; compiling locally. To use them, {farm.how_to_trust()}")
        return None
    try:
        client = client_for(executor, farm)
    except FarmUnavailable as e:
        if e.lost:
            return None  # the notice that it went away is there already
        what = "not used" if e.untrusted else "unreachable"
        _notice(store_root, executor, what, f"npubuild: compile farm {executor} {what} ({e}); compiling locally")
        return None
    refusing = _REFUSING.setdefault((os.getpid(), executor, req.target), set())
    while True:
        try:
            able = _able(_workers(client, executor), req.target)
            trusted = trusted_workers(client, executor, farm, able) if able else {}
        except (OSError, TimeoutError) as e:
            return _lost(executor, store_root, f"{type(e).__name__}: {e}", farm)
        if not able:
            res = ", ".join(f"{r}={n}" for r, n in RESOURCES[req.target].items())
            _notice(store_root, executor, f"none:{req.target}",
                    f"npubuild: compile farm {executor} has no worker for {req.target} compiles"
                    f"{f' (dask worker --resources {res})' if res else ''}; compiling them locally")
            return None
        if not trusted:
            _notice(store_root, executor, f"untrusted:{req.target}",
                    f"npubuild: compile farm {executor}: none of its {len(able)} worker{'s' if len(able) != 1 else ''} for "
                    f"{req.target} compiles is trusted, so none is sent there; compiling locally. To use them, "
                    f"{farm.how_to_trust()}")
            return None
        good = [a for a in sorted(trusted) if a not in refusing]
        if not good:
            _notice(store_root, executor, f"all-refuse:{req.target}",
                    f"npubuild: every worker of {executor} that takes {req.target} compiles refused them; "
                    "compiling them locally")
            return None
        got = _run(client, executor, req, good, store_root, farm)
        if got is None:
            return None
        result, holder = got
        try:
            kind = answer.kind_of(result)
        except answer.Malformed as e:
            raise _malformed(req, executor, holder, e) from None
        if holder not in trusted:  # the scheduler says another worker than the ones it was sent to holds it
            _notice(store_root, executor, f"elsewhere:{holder}",
                    f"npubuild: compile farm {executor}: a compile sent to trusted workers came back from {holder}; "
                    "its output was not used and such kernels were compiled locally")
            return None
        if kind == "raised":
            _notice(store_root, executor, f"raised:{result['raised'].split(':')[0][:60]}",
                    f"npubuild: compile farm {executor}: worker {holder} raised {result['raised'][:200]}; "
                    "such kernels were compiled locally")
            return None
        if kind == "refused":
            refusing.add(result["worker"])
            _notice(store_root, executor, f"refused:{result['worker']}:{req.target}",
                    f"npubuild: farm worker {result['worker'][:200]} refused {req.target} compiles: {result['refused'][:300]}; "
                    "they go to other workers or are compiled locally")
            continue
        return _take(executor, req, result, out, store_root, {"worker": holder, **trusted[holder]}, farm)


def _malformed(req: CompileRequest, executor: str, holder: str, e) -> UserError:
    return UserError(f"kernel {req.kernel_id}: farm worker {holder} ({executor}) sent a malformed answer ({e}); nothing from it "
                     "was written (compile it locally with executor = \"local\", and check that worker)")


def _run(client, executor: str, req: CompileRequest, workers, store_root, farm: FarmSettings) -> tuple | None:
    """Submit to ``workers`` and wait; (answer, the worker the scheduler says holds it), or None (after
    a notice) when the kernel must be compiled locally."""
    from distributed import KilledWorker

    budget = wait_budget(req.target, req.limits)
    # pure=False and a unique key: two builds of the same kernel are two tasks, never one shared result
    fut = client.submit(farm_task, req, key=f"npubuild-compile-{req.kernel_id}@{req.target}-{uuid.uuid4().hex[:12]}",
                        resources=RESOURCES.get(req.target) or None, workers=workers, allow_other_workers=False,
                        retries=RETRIES, pure=False)
    try:
        result = _wait(client, executor, fut, req.target, budget, store_root)
        return result, _holder(client, fut, result)
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
        return _lost(executor, store_root, f"{type(e).__name__}: {e}", farm)
    except Exception as e:  # noqa: BLE001 - the task raised on the worker (e.g. npubuild missing there); cancelled futures
        if type(e).__name__ in ("CancelledError", "FutureCancelledError"):
            return _lost(executor, store_root, "its futures were cancelled", farm)
        first = (str(e).splitlines() or [""])[0][:200]
        if isinstance(e, TypeError) and ("only able to deserialize" in first or "Could not serialize" in first):
            # distributed.protocol.serialize.deserialize refused a result that is not msgpack (a pickle)
            _notice(store_root, executor, "not-data",
                    f"npubuild: compile farm {executor}: a worker sent a result that is not plain data ({first}); "
                    "it was refused, not unpickled, and such kernels were compiled locally")
            return None
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


def _holder(client, fut, result) -> str:
    """The worker the scheduler says holds the result: the worker's own word is not evidence."""
    try:
        held = client.who_has(fut).get(fut.key) or ()
    except Exception:  # noqa: BLE001 - the scheduler went away after answering: the answer is all there is
        held = ()
    if held:
        return str(held[0])
    return str(result.get("worker")) if isinstance(result, dict) else "?"


def _lost(executor: str, store_root, why: str, farm: FarmSettings | None = None):
    if forget(executor, why, farm):
        _notice(store_root, executor, "lost",
                f"npubuild: compile farm {executor} went away during the build ({why[:200]}); compiling the rest locally")
    return None


def _take(executor: str, req: CompileRequest, result: dict, out: Path, store_root, prov: dict, farm: FarmSettings) -> dict:
    """Check the worker's answer, compile it here too when farm_verify picks it, then write it;
    UserError for a compile error or a bad answer. Returns the provenance the build record keeps."""
    from ..targets import kernel_target

    worker = prov["worker"]
    cert = prov.get("certificate")
    header = (f"# compiled on farm worker {worker} ({executor}); certificate: {cert or 'none (plain TCP)'}; "
              f"trusted: {prov.get('trusted_by')}\n")
    log = header + answer.log_text(result, out, req.limits.farm_log_max_size)
    if "error" in result:
        atomic_write_text(out / "build.log", log)
        raise UserError(f"kernel {req.kernel_id} (on farm worker {worker}): {answer.message(result, out)}")
    try:
        files = answer.outputs(result, kernel_target(req.target).binaries.values(), req.max_size)
    except answer.Malformed as e:
        raise _malformed(req, executor, worker, e) from None
    if farm.sample():
        _verify_here(req, files, store_root, worker)
        prov["verified"] = True
        log = header + "# farm_verify: this machine's compile gave the same bytes\n" + log[len(header):]
    for name, (data, mode) in files.items():
        atomic_write_bytes(out / name, data, mode=mode)
    atomic_write_text(out / "build.log", log)
    return prov


def _verify_here(req: CompileRequest, files: dict, store_root, worker: str) -> None:
    """farm_verify: compile the kernel here, in a private directory, and compare byte for byte."""
    import tempfile

    from ..targets import kernel_target

    with tempfile.TemporaryDirectory(prefix="npubuild-verify-") as tmp:
        d = Path(tmp)
        text = req.source.decode("utf-8")
        try:
            kernel_target(req.target).compile(text, d, d / "build.log", req.instance, req.options, store_root, req.toolchain,
                                         limits=req.limits, flags=req.flags)
        except UserError as e:
            raise UserError(f"kernel {req.kernel_id}: farm_verify: farm worker {worker} compiled it, but it fails here: {e}") from None
        for name, (data, _) in files.items():
            mine = (d / name).read_bytes()
            if mine != data:
                raise UserError(
                    f"kernel {req.kernel_id}: farm_verify: farm worker {worker} sent a {name} that differs from this machine's "
                    f"compile (sha256 {hashlib.sha256(data).hexdigest()[:16]} there, {hashlib.sha256(mine).hexdigest()[:16]} here); "
                    "nothing from it was written, stored or signed. Check that worker's toolchain, or stop trusting it "
                    "(farm_trusted, farm_trusted_workers; docs/farm.md)")


def reset() -> None:
    """Forget worker lists, refusals and certificate subjects (tests)."""
    from . import trust

    with _LOCK:
        _INFO.clear()
        _REFUSING.clear()
    trust.reset()
