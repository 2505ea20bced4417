"""``artifacts/manifest.json`` (schema 1): the only thing the runtime reads.

It lists every kernel (id, op, inputs, outputs, attrs, key, per-target files
with sha256 and size, toolchain fingerprint) and every graph (inputs, params,
constants, outputs, topologically ordered steps). Paths are relative to the
artifact directory and may never leave it. This module reads and verifies it;
the build writes it (npubuild.build.manifest_writer).
"""
from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

from ..errors import UserError, VerifyError
from ..fsio import sha256_file

SCHEMA = 1
MANIFEST = "manifest.json"


def read_manifest(artifacts: Path) -> dict:
    path = Path(artifacts) / MANIFEST
    try:
        m = json.loads(path.read_text())
    except FileNotFoundError:
        raise UserError(f"{path} not found; run `doit build` (or point at a built artifact directory)") from None
    except (OSError, ValueError) as e:
        raise VerifyError(f"{path}: unreadable manifest ({e})") from None
    if not isinstance(m, dict) or m.get("schema") != SCHEMA:
        raise VerifyError(f"{path}: unsupported manifest schema {m.get('schema') if isinstance(m, dict) else '?'} (this npubuild reads schema {SCHEMA})")
    return m


def safe_path(artifacts: Path, rel: str) -> Path:
    """``rel`` inside ``artifacts``; refuse absolute paths and paths that leave it."""
    p = PurePosixPath(rel)
    if p.is_absolute() or ".." in p.parts or not p.parts:
        raise VerifyError(f"manifest path {rel!r} leaves the artifact directory; refusing it")
    full = (Path(artifacts) / p).resolve()
    if not full.is_relative_to(Path(artifacts).resolve()):
        raise VerifyError(f"manifest path {rel!r} resolves outside the artifact directory; refusing it")
    return full


def manifest_files(m: dict):
    """(what, record) for every file the manifest names."""
    for kid, k in m.get("kernels", {}).items():
        for t, tr in k.get("targets", {}).items():
            for role, f in tr.get("files", {}).items():
                yield f"kernel {kid} [{t} {role}]", f
    for gname, g in m.get("graphs", {}).items():
        for cname, c in g.get("constants", {}).items():
            if isinstance(c, dict):
                yield f"graph {gname} constant {cname}", c
        if g.get("kind") == "ane":
            for i, n in enumerate(g.get("nodes", [])):
                for role in ("mil", "weights"):
                    if n.get(role):
                        yield f"ane graph {gname} node {i} ({n.get('name')}) [{role}]", n[role]
            if g.get("fills"):
                yield f"ane graph {gname} [fills]", g["fills"]


def verify(artifacts: Path) -> list[str]:
    """Re-hash every file the manifest names; return one problem line per bad file."""
    artifacts = Path(artifacts)
    m = read_manifest(artifacts)
    problems = []
    for what, f in manifest_files(m):
        try:
            p = safe_path(artifacts, f["path"])
        except VerifyError as e:
            problems.append(f"{what}: {e}")
            continue
        rel = f["path"]
        if not p.is_file():
            problems.append(f"missing: {rel} ({what})")
        elif p.stat().st_size != f["size"] or sha256_file(p) != f["sha256"]:
            problems.append(f"altered: {rel} ({what}): sha256/size differ from the manifest")
    return problems
