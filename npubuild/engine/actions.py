"""The work done by doit tasks: emit a source, compile it (or take it from the
store) and write its build record. (The manifest action: manifest_writer.py.)

Actions are module-level functions with picklable arguments, so they run in
``doit -n N`` worker processes, and they return only JSON-safe values (doit
stores them in its database). A user error becomes a TaskFailed with one clear
message rather than a traceback.
"""
from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path

from doit.exceptions import TaskFailed

from ..core.errors import UserError
from ..core.fsio import atomic_write_text, sha256_file, write_if_changed
from ..core.limits import Limits
from ..core.nospace import disk_full_message, is_disk_full
from .keys import CACHE_VERSION, compile_key  # noqa: F401 - both were defined here; tasks and explain import them from here
from .records import RECORD_NAME


def user_errors_fail(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except UserError as e:
            return TaskFailed(str(e))
        except OSError as e:
            if not is_disk_full(e):
                raise
            return TaskFailed(disk_full_message(e))  # one line, not a traceback (npubuild.core.nospace)

    return wrapper


@user_errors_fail
def emit_source(target: str, instance, out: str, options: dict) -> dict:
    """Write the kernel source; rewrite only when the text changes."""
    from .pinned import source_text
    from .records import hand_edited, write_emit_record
    from .targets import kernel_target

    text = source_text(kernel_target(target), instance, options)
    edited = hand_edited(Path(out))  # before it is overwritten: the reporter says it was restored
    changed = write_if_changed(Path(out), text)
    write_emit_record(Path(out), target, instance.key, options, text)
    return {"changed": changed, "restored": bool(edited and changed)}


@user_errors_fail
def compile_kernel(target: str, kernel_id: str, instance, source: str, out_dir: str, stores, toolchain: dict, flags, options: dict,
                   limits: Limits = Limits(), executor: str = "local", farm=None) -> dict:
    """Compile ``source`` unless a store has its key; write the build record.

    ``stores`` is a StoreAccess (the local store and the project's further
    stores) or just the local store's path. ``executor`` is config.executor: with
    ``dask://host:port`` a compile runs on the compile farm (npubuild.engine.farm) and
    here only when the farm cannot take it; ``farm`` (config.farm) says which workers are trusted.
    """
    from ..artifacts.stores import open_stores
    from .targets import kernel_target

    tgt = kernel_target(target)
    src, out = Path(source), Path(out_dir)
    binaries = list(tgt.binaries.values())
    try:
        linked = tgt.linked_inputs(instance, options, toolchain, flags)
    except UserError as e:
        raise UserError(f"kernel {kernel_id}: {e}") from None
    key = compile_key(target, sha256_file(src), toolchain["id"], flags, linked)
    _clear_non_files(out, binaries)
    store = open_stores(stores)
    worker = None
    if store.materialize(key, out, names=binaries) is not None:  # an entry naming kernel.mlir or build.json is refused
        outcome = "shared" if store.hit_shared else "store"
    elif _adopt(store, key, kernel_id, target, out, binaries):
        outcome = "store"
    else:
        refused = store.refused
        worker = _compile_remotely(executor, target, kernel_id, instance, src, options, key, toolchain, flags, limits, stores,
                                   out, store.local.root, farm)
        if worker is None:
            try:
                tgt.compile(src.read_text(), out, out / "build.log", instance, options, store.local.root, toolchain, limits=limits, flags=flags)
            except UserError as e:
                raise UserError(f"kernel {kernel_id}: {located(str(e), source_shown(src, options))}") from None
        store.put(key, {b: out / b for b in binaries}, {"kernel": kernel_id, "target": target})
        outcome = "compiled"
    files = {}
    for name in (src.name, *binaries):
        p = out / name
        files[name] = {"sha256": sha256_file(p), "size": p.stat().st_size}
    record = {"key": key, "toolchain": toolchain, "flags": flags, "files": files}
    if worker is not None:  # provenance of farm-built outputs: which worker, its certificate, why it is trusted
        record["farm"] = worker
    atomic_write_text(out / RECORD_NAME, json.dumps(record, sort_keys=True, indent=1))
    result = {"outcome": outcome}
    if outcome == "compiled" and refused:
        result["store_refused"] = refused
    if outcome == "compiled" and worker is not None:
        result["farm_worker"] = worker["worker"]
    return result


# where MLIR's diagnostics point when the text was handed over in memory: loc("-":18:30)
_STDIN_LOC = re.compile(r'loc\("-":(\d+):(\d+)\)')


def source_shown(src: Path, options: dict) -> str:
    """The file a user edits for this source: the pinned source as the spec names it (the build copies it
    byte for byte, so its lines are the source's), else the emitted source, relative to the working directory."""
    pinned = options.get("pinned") or {}
    if pinned.get("file"):
        return pinned["file"]
    try:
        return str(src.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(src)


def located(message: str, shown: str) -> str:
    """``message`` with MLIR's in-memory locations (``loc("-":18:30)``) as ``file:18:30``."""
    return _STDIN_LOC.sub(lambda m: f"{shown}:{m.group(1)}:{m.group(2)}", message)


def _compile_remotely(executor: str, target: str, kernel_id: str, instance, src: Path, options: dict, key: str, toolchain: dict,
                      flags, limits: Limits, stores, out: Path, store_root, farm=None) -> dict | None:
    """The provenance of the farm compile that wrote ``out`` ({worker, certificate, trusted_by, ...}),
    or None: compile it here."""
    from .farm import is_remote

    if not is_remote(executor):
        return None
    from .farm.dispatch import compile_on_farm
    from .farm.worker import CompileRequest, code_id

    max_size = getattr(stores, "max_artifact_size", CompileRequest.max_size)
    req = CompileRequest(target, kernel_id, instance, src.read_bytes(), options, key, toolchain, flags, limits, max_size, code_id())
    return compile_on_farm(executor, req, out, store_root, farm)


def _clear_non_files(out: Path, names) -> None:
    """A directory, FIFO or link where a binary belongs (put there by hand or by a
    damaged copy) would make the atomic rename into place fail: remove it first."""
    import shutil
    import stat

    for name in names:
        p = out / name
        try:
            mode = os.lstat(p).st_mode
        except FileNotFoundError:
            continue
        if stat.S_ISDIR(mode):
            shutil.rmtree(p)
        elif not stat.S_ISREG(mode):
            p.unlink()


def _adopt(store, key: str, kernel_id: str, target: str, out: Path, binaries: list[str]) -> bool:
    """Take outputs already in the artifact directory when its manifest says they were
    built under this very key and their bytes match it: an unpacked bundle, or
    artifacts copied without their store. They also go into the stores, so the next
    build finds them there. Not when signatures are required: a manifest is not signed
    once unpacked, so only signed bundles and signed store entries count then."""
    if getattr(store, "access", None) is not None and store.access.require_signatures:
        return False
    artifacts = out.parents[2]  # <artifacts>/kernels/<id>/<target>
    try:
        m = json.loads((artifacts / "manifest.json").read_text())
        rec = m["kernels"][kernel_id]["targets"][target]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    if rec.get("key") != key or not rec.get("compiled", True):
        return False
    from .targets import kernel_target

    roles = {name: role for role, name in kernel_target(target).binaries.items()}
    for name in binaries:
        f = rec.get("files", {}).get(roles[name])
        p = out / name
        if not f or not p.is_file() or p.stat().st_size != f.get("size") or sha256_file(p) != f.get("sha256"):
            return False
    store.put(key, {b: out / b for b in binaries}, {"kernel": kernel_id, "target": target, "adopted": True})
    return True


def remove_outputs(paths: list[str]) -> None:
    """``doit clean``: remove these files and directories (missing ones are fine)."""
    import shutil

    for p in map(Path, paths):
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
