"""The work done by doit tasks: emit a source, compile it (or take it from the
store), write the manifest.

Actions are module-level functions with picklable arguments, so they run in
``doit -n N`` worker processes, and they return only JSON-safe values (doit
stores them in its database). A user error becomes a TaskFailed with one clear
message rather than a traceback.
"""
from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from doit.exceptions import TaskFailed

from .errors import UserError
from .fsio import atomic_write_text, sha256_file, write_if_changed

# Bump to invalidate every compile key (e.g. when the build record format changes).
CACHE_VERSION = 1
RECORD_NAME = "build.json"


def user_errors_fail(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except UserError as e:
            return TaskFailed(str(e))

    return wrapper


@user_errors_fail
def emit_source(target: str, instance, out: str, options: dict) -> dict:
    """Write the kernel source; rewrite only when the text changes."""
    from .targets import COMPILED

    text = COMPILED[target].emit(instance, options)
    return {"changed": write_if_changed(Path(out), text)}


def compile_key(target: str, source_sha256: str, toolchain_id: str, flags, linked: dict | None = None) -> str:
    from .canonical import canonical_json

    recipe = {
        "v": CACHE_VERSION,
        "target": target,
        "source_sha256": source_sha256,
        "toolchain": toolchain_id,
        "flags": flags,
    }
    if linked:
        recipe["linked"] = linked
    return hashlib.sha256(canonical_json(recipe).encode()).hexdigest()


@user_errors_fail
def compile_kernel(target: str, kernel_id: str, instance, source: str, out_dir: str, store_root: str, toolchain: dict, flags, options: dict) -> dict:
    """Compile ``source`` unless the store has its key; write the build record."""
    from .store import Store
    from .targets import COMPILED

    tgt = COMPILED[target]
    src, out = Path(source), Path(out_dir)
    binaries = list(tgt.binaries.values())
    try:
        linked = tgt.linked_inputs(instance, options, toolchain)
    except UserError as e:
        raise UserError(f"kernel {kernel_id}: {e}") from None
    key = compile_key(target, sha256_file(src), toolchain["id"], flags, linked)
    store = Store(Path(store_root))
    if store.materialize(key, out) is not None:
        outcome = "store"
    else:
        try:
            tgt.compile(src.read_text(), out, out / "build.log", instance, options, Path(store_root), toolchain)
        except UserError as e:
            raise UserError(f"kernel {kernel_id}: {e}") from None
        store.put(key, {b: out / b for b in binaries}, {"kernel": kernel_id, "target": target})
        outcome = "compiled"
    files = {}
    for name in (src.name, *binaries):
        p = out / name
        files[name] = {"sha256": sha256_file(p), "size": p.stat().st_size}
    record = {"key": key, "toolchain": toolchain, "flags": flags, "files": files}
    atomic_write_text(out / RECORD_NAME, json.dumps(record, sort_keys=True, indent=1))
    return {"outcome": outcome}


def write_constants(artifacts: Path, graph, out_dir: Path) -> dict:
    """Constants as .npy under artifacts/graphs/<graph>/; returns their manifest records."""
    import io

    import numpy as np

    from .ops.registry import NUMPY_DTYPE

    recs = {}
    for name, c in sorted(graph.constants.items()):
        if c.file is not None:
            arr = np.load(c.file, allow_pickle=False)
        else:
            arr = np.asarray(c.value, dtype=NUMPY_DTYPE[c.dtype]).reshape(c.shape)
        buf = io.BytesIO()
        np.save(buf, np.ascontiguousarray(arr), allow_pickle=False)
        path = out_dir / f"{name}.npy"
        write_if_changed(path, buf.getvalue())
        recs[name] = {
            "shape": list(c.shape),
            "dtype": c.dtype,
            "path": path.relative_to(artifacts).as_posix(),
            "sha256": sha256_file(path),
            "size": path.stat().st_size,
        }
    return recs


@user_errors_fail
def write_manifest(root: str) -> dict:
    from .config import load_config
    from .manifest import build_manifest
    from .plan import build_plan
    from .tasks import _State

    plan = _State.plan  # loaded by the task creators in this process (or inherited by fork)
    if plan is None or plan.config.root != Path(root):
        plan = build_plan(load_config(Path(root)))
    build_manifest(plan)
    return {}
