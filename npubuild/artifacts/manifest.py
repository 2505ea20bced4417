"""``artifacts/manifest.json`` (schema 1): the only thing the runtime reads.

It lists every kernel (id, op, inputs, outputs, attrs, key, per-target files
with sha256 and size, toolchain fingerprint) and every graph (inputs, params,
constants, outputs, topologically ordered steps). Paths are relative to the
artifact directory and may never leave it.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path, PurePosixPath

from .. import __version__
from ..errors import UserError, VerifyError
from ..fsio import atomic_write_text, sha256_file

SCHEMA = 1
MANIFEST = "manifest.json"


def kernel_dir(artifacts: Path, kernel_id: str, target: str) -> Path:
    return artifacts / "kernels" / kernel_id / target


def build_manifest(plan) -> dict:
    from ..build.actions import RECORD_NAME, write_constants
    from ..build.plan import graph_record
    from ..build.targets import COMPILED, not_built_reason

    art = plan.config.artifacts
    kernels = {}
    toolchains = {}
    problems = {t: COMPILED[t].toolchain_problem(plan.config.store) for t in COMPILED}
    options = {t: COMPILED[t].emit_options(plan.config, plan.config.store) for t in COMPILED}
    for kid, inst in plan.instances.items():
        rec = inst.describe()
        del rec["id"]
        targets, unavailable = {}, {}
        for t in plan.targets[kid]:
            reason = not_built_reason(t, inst.op)
            if reason:
                unavailable[t] = reason
                continue
            if t == "ref":
                targets[t] = {}
                continue
            d = kernel_dir(art, kid, t)
            tgt = COMPILED[t]
            problem = problems[t]
            entry: dict = {}
            if problem and not (d / RECORD_NAME).is_file():
                # emitted, not compiled (no toolchain here): the source is still an artifact
                src = d / tgt.source_name
                if not src.is_file():
                    raise UserError(f"kernel {kid}: {src} is missing; run `doit build`")
                files = {"source": {"path": src.relative_to(art).as_posix(), "sha256": sha256_file(src), "size": src.stat().st_size}}
                entry = {"files": files, "compiled": False, "not_compiled": problem}
            else:
                try:
                    build = json.loads((d / RECORD_NAME).read_text())
                except (OSError, ValueError) as e:
                    raise UserError(f"kernel {kid}: no build record for target {t} ({e}); run `doit build`") from None
                files = {}
                for role, name in (("source", tgt.source_name), *tgt.binaries.items()):
                    f = build["files"][name]
                    files[role] = {"path": (d / name).relative_to(art).as_posix(), "sha256": f["sha256"], "size": f["size"]}
                entry = {"files": files, "key": build["key"], "toolchain": build["toolchain"]["id"], "compiled": True}
                toolchains[f"{t}:{build['toolchain']['id']}"] = build["toolchain"]
            abi = tgt.abi(inst, {**options[t], "device": plan.device(kid)} if t == "xdna" else options[t])
            if abi is not None:
                entry["abi"] = abi
            targets[t] = entry
        rec["targets"] = targets
        if unavailable:
            rec["unavailable"] = unavailable
        kernels[kid] = rec
    graphs = {}
    from ..ane.build import manifest_record

    for name in sorted(plan.ane_graphs):
        graphs[name] = manifest_record(art / "ane" / name, art)
    for name, g in sorted(plan.spec.graphs.items()):
        rec = graph_record(g, plan.graph_kernels[name])
        rec["constants"] = write_constants(art, g, art / "graphs" / name)
        graphs[name] = rec
    manifest = {
        "schema": SCHEMA,
        "generator": f"npubuild {__version__}",
        "kernels": kernels,
        "graphs": graphs,
        "toolchains": dict(sorted(toolchains.items())),
    }
    _prune(art, set(kernels), set(graphs) - set(plan.ane_graphs), set(plan.ane_graphs))
    atomic_write_text(art / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True, allow_nan=False) + "\n")
    return manifest


def _prune(art: Path, kernel_ids: set[str], graph_names: set[str], ane_names: set[str] = frozenset()) -> None:
    """Remove outputs of kernels/graphs that are no longer in the specs."""
    for sub, keep in (("kernels", kernel_ids), ("graphs", graph_names), ("ane", ane_names)):
        d = art / sub
        if d.is_dir():
            for child in d.iterdir():
                if child.is_dir() and child.name not in keep:
                    shutil.rmtree(child, ignore_errors=True)


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
