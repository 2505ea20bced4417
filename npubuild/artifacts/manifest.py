"""``artifacts/manifest.json`` (schema 1): the only thing the runtime reads.

It lists every kernel (id, op, inputs, outputs, attrs, key, per-target files
with sha256 and size, toolchain fingerprint) and every graph (inputs, params,
constants, outputs, topologically ordered steps). Paths are relative to the
artifact directory and may never leave it. This module reads it (bounded in
size and depth, every field type-checked by :mod:`.manifest_schema`) and the
files it names; :mod:`.verify` checks those files and records against each
other, :mod:`.abi` the ABI each binary carries (the build writes the manifest:
npubuild.engine.manifest_writer).
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path, PurePosixPath

from ..core.errors import UserError, VerifyError
from ..core.fsio import read_regular
from ..core.limits import Limits, over
from .manifest_schema import schema_problems

SCHEMA = 1
MANIFEST = "manifest.json"
ABI_FILE = "abi.json"  # an xdna kernel's ABI, next to its binaries (artifacts.abi reads it)


def read_manifest(artifacts: Path, limits: Limits | None = None) -> dict:
    """The parsed manifest; VerifyError (one message naming the field) when it is malformed."""
    limits = limits or Limits()
    path = Path(artifacts) / MANIFEST
    data = _read_bounded(path, limits)
    try:
        m = json.loads(data, parse_constant=no_constant)
    except RecursionError:
        deep = over(f"{path}: the JSON nesting", "deeper than Python parses", "manifest_max_depth", limits.manifest_max_depth)
        raise VerifyError(str(deep)) from None
    except ValueError as e:
        raise VerifyError(f"{path}: unreadable manifest ({e})") from None
    if not isinstance(m, dict) or m.get("schema") != SCHEMA:
        schema = m.get("schema") if isinstance(m, dict) else "?"
        raise VerifyError(f"{path}: unsupported manifest schema {schema} (this npubuild reads schema {SCHEMA})")
    depth = _depth(m)
    if depth > limits.manifest_max_depth:
        raise VerifyError(str(over(f"{path}: the JSON nesting", depth, "manifest_max_depth", limits.manifest_max_depth)))
    problems = schema_problems(m, limits)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise VerifyError(f"{path}: malformed manifest: {problems[0]}{more}")
    return m


def _read_bounded(path: Path, limits: Limits) -> bytes:
    try:
        size = os.stat(path).st_size
    except FileNotFoundError:
        raise UserError(f"{path} not found; run `doit build` (or point at a built artifact directory)") from None
    except OSError as e:
        raise VerifyError(f"{path}: unreadable manifest ({e})") from None
    if size > limits.manifest_max_size:
        raise VerifyError(str(over(f"{path}", f"{size} bytes", "manifest_max_size", limits.manifest_max_size)))
    try:
        return read_regular(path, limits.manifest_max_size)
    except (OSError, ValueError) as e:
        raise VerifyError(f"{path}: unreadable manifest ({e})") from None


def no_constant(name: str):
    """``parse_constant`` of json.loads: NaN and Infinity are not JSON, and the build never writes them."""
    raise ValueError(f"{name} is not a JSON number (the build writes strict JSON)")


def _depth(obj) -> int:
    """Nesting of lists and objects, counted without recursion."""
    deepest, stack = 0, [(obj, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            deepest = max(deepest, d)
            stack.extend((c, d + 1) for c in (v.values() if isinstance(v, dict) else v))
    return deepest


def safe_path(artifacts: Path, rel: str) -> Path:
    """``rel`` inside ``artifacts``; refuse absolute paths and paths that leave it."""
    if not isinstance(rel, str) or "\0" in rel:
        raise VerifyError(f"manifest path {rel!r} is not a plain relative path; refusing it")
    p = PurePosixPath(rel)
    if p.is_absolute() or ".." in p.parts or not p.parts:
        raise VerifyError(f"manifest path {rel!r} leaves the artifact directory; refusing it")
    full = (Path(artifacts) / p).resolve()
    if not full.is_relative_to(Path(artifacts).resolve()):
        raise VerifyError(f"manifest path {rel!r} resolves outside the artifact directory; refusing it")
    return full


def read_verified(artifacts: Path, rec: dict, what: str) -> bytes:
    """The bytes of a file the manifest names, read once and checked against its sha256 and size.

    The caller uses these bytes, never the path again: a file swapped after the
    check cannot be what is used."""
    path = safe_path(artifacts, rec["path"])
    changed = VerifyError(f"{what}: {rec['path']} changed since the manifest was written (sha256/size differ); refusing to use it")
    try:
        data = read_regular(path, rec["size"])  # a larger file is refused before it is read
    except FileNotFoundError:
        raise VerifyError(f"{what}: {rec['path']} is missing; rebuild with `doit build`") from None
    except (OSError, ValueError) as e:
        raise (changed if path.is_file() else VerifyError(f"{what}: {rec['path']} cannot be read ({e}); refusing to use it")) from None
    if len(data) != rec["size"] or hashlib.sha256(data).hexdigest() != rec["sha256"]:
        raise changed
    return data


def manifest_files(m: dict):
    """(what, record) for every file the manifest names."""
    for kid, k in _items(m.get("kernels")):
        for t, tr in _items(k.get("targets") if isinstance(k, dict) else None):
            if not isinstance(tr, dict):
                continue
            for role, f in _items(tr.get("files")):
                yield f"kernel {kid} [{t} {role}]", f
            if isinstance(tr.get("abi_file"), dict):
                yield f"kernel {kid} [{t} abi]", tr["abi_file"]
    for gname, g in _items(m.get("graphs")):
        if not isinstance(g, dict):
            continue
        for cname, c in _items(g.get("constants")):
            if isinstance(c, dict) and "path" in c:
                yield f"graph {gname} constant {cname}", c
        if g.get("kind") == "ane":
            yield from _ane_files(f"ane graph {gname}", g)
            # a multifunction graph's other functions: each a plan record of its own (npubuild.ane.build)
            for fname, f in _items(g.get("functions")):
                if isinstance(f, dict):
                    yield from _ane_files(f"ane graph {gname} function {fname}", f)
            # a seq graph's other sizes: each a plan record of its own (npubuild.ane.sizes)
            for size, f in _items(g["seq"].get("plans") if isinstance(g.get("seq"), dict) else None):
                if isinstance(f, dict):
                    yield from _ane_files(f"ane graph {gname} seq {size}", f)


def _ane_files(label: str, g: dict):
    """(what, record) for the files of one ANE plan record: node programs, fills, Core ML packages."""
    for i, n in enumerate(g.get("nodes") or []):
        for role in ("mil", "weights"):
            if isinstance(n, dict) and n.get(role):
                yield f"{label} node {i} ({n.get('name')}) [{role}]", n[role]
    if g.get("fills"):
        yield f"{label} [fills]", g["fills"]
    # every file of each Core ML package (a directory Core ML reads whole: npubuild.ane.coreml)
    for what, h in [*((f"{label} node {i} [mlpackage]", n) for i, n in enumerate(g.get("nodes") or [])), (f"{label} [mlpackage]", g)]:
        pkg = h.get("mlpackage") if isinstance(h, dict) else None
        yield from ((what, f) for f in pkg["files"]) if isinstance(pkg, dict) and isinstance(pkg.get("files"), list) else ()


def _items(d):
    return d.items() if isinstance(d, dict) else ()
