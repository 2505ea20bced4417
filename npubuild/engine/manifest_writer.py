"""Writing ``artifacts/manifest.json`` from a plan and the build records of
its kernels (the schema and its reader: npubuild.artifacts.manifest).

``write_manifest`` is the ``manifest`` task's action; the graph constants are
written next to the manifest, as .npy files it names, and each compiled xdna
kernel gets an ``abi.json`` beside its xclbin (what the binary takes and gives:
an xclbin has no room for it, unlike a host kernel.so, whose ABI is compiled in).
A compiled xdna kernel's entry also carries ``resources``: each core's measured
stack and program memory against its limits, from the compile's
``resources.json`` (npubuild.toolchain.core_elf).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
from pathlib import Path

from .. import __version__
from ..ane.build import manifest_record
from ..ane.coreml import relocate
from ..artifacts.manifest import ABI_FILE, MANIFEST, SCHEMA
from ..core.errors import UserError
from ..core.fsio import atomic_write_bytes, inside, read_regular, sha256_file, write_if_changed
from ..core.limits import Limits
from ..core.nospace import is_disk_full
from .actions import RECORD_NAME, user_errors_fail
from .records import TASK_VALUES
from .targets import compiled_pairs, kernel_targets, not_built_reason


def kernel_dir(artifacts: Path, kernel_id: str, target: str) -> Path:
    return _under(artifacts, "kernels", kernel_id, target)


def _under(artifacts: Path, *parts: str) -> Path:
    """A path from names (checked at spec time; checked again here, where they become paths)."""
    try:
        return inside(artifacts, *parts)
    except ValueError as e:
        raise UserError(f"refusing to write outside {artifacts}: {e}") from None


def _unit_entry(plan, unit, problem: str | None, options: dict, toolchains: dict, stale: str | None = None) -> dict:
    """The manifest entry of one kernel unit (its files, key, toolchain, ABI ...); records its toolchain.
    ``stale``: this build's compile of the unit failed (why); the entry is then the previous good build's
    binaries, each still as its build record says, without the source (the one on disk is the new one), and
    says so; None (not a dict) when there is no such build."""
    art, kid, tgt, inst = plan.config.artifacts, unit.kid, unit.target, unit.instance
    d = kernel_dir(art, kid, unit.label)
    if stale is not None:
        return _previous_good(plan, unit, d, toolchains, stale)
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
            raise UserError(f"kernel {kid}: no build record for target {unit.label} ({e}); run `doit build`") from None
        files = {}
        for role, name in (("source", tgt.source_name), *tgt.binaries.items()):
            f = build["files"][name]
            files[role] = {"path": (d / name).relative_to(art).as_posix(), "sha256": f["sha256"], "size": f["size"]}
        entry = {"files": files, "key": build["key"], "toolchain": build["toolchain"]["id"], "compiled": True, **_isa(build)}
        toolchains[f"{tgt.name}:{build['toolchain']['id']}"] = build["toolchain"]
        if "resources" in tgt.binaries:
            entry["resources"] = core_resources(d / tgt.binaries["resources"], files["resources"], kid)
    abi = tgt.abi(inst, options)
    if abi is not None:
        entry["abi"] = abi
        if entry.get("compiled"):
            entry["abi_file"] = write_abi_file(art, d, inst, abi)
    pinned = plan.pinned.get(kid, {}).get(tgt.name)
    if pinned is not None:
        entry["pinned_source"] = pinned[1]  # hand-written, in place of the emitted source
    return entry


def _isa(build: dict) -> dict:
    """``{"isa": [...]}``: the instruction-set variants the binary holds, baseline first, when its recipe
    compiles several (the host's, npubuild.core.host_isa); the runtime takes the widest the CPU has."""
    flags = build.get("flags")
    return {"isa": list(flags["isa"])} if isinstance(flags, dict) and isinstance(flags.get("isa"), list) else {}


def _previous_good(plan, unit, d: Path, toolchains: dict, why: str) -> dict | None:
    """The entry of the binaries a unit's last successful compile left (its build record and files untouched by
    the failed one: binaries are replaced only on success), or None when they are not all as that record says."""
    art, tgt = plan.config.artifacts, unit.target
    try:
        build = json.loads((d / RECORD_NAME).read_text())
        files = {}
        for role, name in tgt.binaries.items():
            f, p = build["files"][name], d / name
            if p.stat().st_size != f["size"] or sha256_file(p) != f["sha256"]:
                return None
            files[role] = {"path": p.relative_to(art).as_posix(), "sha256": f["sha256"], "size": f["size"]}
        key, toolchain = build["key"], build["toolchain"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    toolchains[f"{tgt.name}:{toolchain['id']}"] = toolchain
    entry = {"files": files, "key": key, "toolchain": toolchain["id"], "compiled": True, **_isa(build),
             "stale": f"{why}; this is the previous good build's binary, not of the source the specs name now"}
    if "resources" in tgt.binaries:
        entry["resources"] = core_resources(d / tgt.binaries["resources"], files["resources"], unit.kid)
    return entry


def build_manifest(plan, failed: dict[str, str] | None = None) -> dict:
    """The manifest of what ``plan`` built. ``failed``: ``"<kernel id>@<label>"`` (or ``"<graph>@<target>"``)
    -> why, for units whose task failed in this build (:func:`write_manifest_after_failures`): they are left
    out (a kernel's unit under ``unavailable``, with the reason), so that everything else stays usable."""
    # the spec loader and op catalog: not on the no-op path
    from .plan import graph_record

    failed = failed or {}

    art = plan.config.artifacts
    kernels = {}
    toolchains = {}
    compiled = kernel_targets()
    problems = {t: c.toolchain_problem(plan.config.store) for t, c in compiled.items()}
    options = {t: c.emit_options(plan.config, plan.config.store) for t, c in compiled.items()}
    units: dict[tuple[str, str], list] = {}
    for unit in compiled_pairs(plan):
        units.setdefault((unit.kid, unit.target.name), []).append(unit)
    for kid, inst in plan.instances.items():
        rec = inst.describe()
        del rec["id"]
        targets, unavailable = {}, {}
        for t in plan.targets[kid]:
            reason = not_built_reason(t, inst.op)
            if reason:
                unavailable[t] = reason
                continue
            if t not in compiled or inst.empty:  # no binary (ref; an output without elements): runs from the record
                targets[t] = {}
                continue
            for unit in units.get((kid, t), ()):
                why = failed.get(f"{kid}@{unit.label}")
                if why is not None:  # the previous good binary stays usable; without one, the unit is left out
                    previous = _unit_entry(plan, unit, problems[t], {}, toolchains, stale=why)
                    if previous is None:
                        unavailable[unit.label] = why
                    else:
                        targets[unit.label] = previous
                    continue
                # one entry per unit: "xdna", or "xdna.npu1" and "xdna.npu2" for a kernel wanted on both
                targets[unit.label] = _unit_entry(plan, unit, problems[t], {**options[t], **unit.own}, toolchains)
        rec["targets"] = targets
        if unavailable:
            rec["unavailable"] = unavailable
        kernels[kid] = rec
    graphs = {}
    for name in sorted(plan.ane_graphs):
        if any(key.rpartition("@")[0] == name for key in failed):
            continue  # its build failed: not in this manifest (the build's failure says why)
        # the Core ML packages' files too, relative to the artifact directory (npubuild.ane.coreml)
        graphs[name] = relocate(manifest_record(_under(art, "ane", name), art), f"ane/{name}")
        graphs[name]["file"] = plan.ane_graphs[name][1]  # the spec it came from (a .mil, or a YAML graph's file)
    for name, g in sorted(plan.spec.graphs.items()):
        rec = graph_record(g, plan.graph_kernels[name])
        rec["constants"] = write_constants(art, g, _under(art, "graphs", name), plan.config.limits)
        graphs[name] = rec
    manifest = {
        "schema": SCHEMA,
        "generator": f"npubuild {__version__}",
        "kernels": kernels,
        "graphs": graphs,
        "toolchains": dict(sorted(toolchains.items())),
    }
    _prune(art, set(kernels), set(graphs) - set(plan.ane_graphs), set(plan.ane_graphs))
    write_output(art / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True, allow_nan=False) + "\n", art)
    return manifest


def write_output(path: Path, content: str | bytes, art: Path) -> None:
    """Write a file the manifest task owns unless it already holds exactly ``content``, whatever was put in
    its place since: a link, FIFO or socket is replaced (never followed, never read: a FIFO would block), a
    file of another size is not read, and a directory (or a file where a directory must be) is one message."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    rel = path.relative_to(art).as_posix() if path.is_relative_to(art) else str(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:  # a file where a directory of the path must be
        raise UserError(f"cannot write {rel}: {e.strerror}; remove what is in its way and run `doit build` again") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise UserError(f"{rel} is a directory where the build writes a file; remove it and run `doit build` again")
    try:
        if st is not None and stat.S_ISREG(st.st_mode) and st.st_size == len(data):
            write_if_changed(path, data)
        else:
            atomic_write_bytes(path, data)
    except OSError as e:
        if is_disk_full(e):
            raise
        raise UserError(f"cannot write {rel}: {e.strerror or e}; remove what is in its way and run `doit build` again") from None


def _output_under(out_dir: Path, fname: str) -> Path:
    """:func:`_under` for a file this task writes: a symlink put in its place (which :func:`_under` refuses
    when it leads out) is removed, never followed, and the file is written again."""
    try:
        return inside(out_dir, fname)
    except ValueError:
        leaf = out_dir / fname
        if "/" in fname or fname in ("", ".", "..") or not leaf.is_symlink():
            raise UserError(f"refusing to write outside {out_dir}: {fname!r}") from None
        leaf.unlink()
        return _under(out_dir, fname)


def _prune(art: Path, kernel_ids: set[str], graph_names: set[str], ane_names: set[str] = frozenset()) -> None:
    """Remove outputs of kernels/graphs that are no longer in the specs."""
    for sub, keep in (("kernels", kernel_ids), ("graphs", graph_names), ("ane", ane_names)):
        d = art / sub
        if d.is_dir():
            for child in d.iterdir():
                if child.is_dir() and child.name not in keep:
                    shutil.rmtree(child, ignore_errors=True)


# what the manifest keeps of each core in resources.json; None where not measured
RESOURCE_FIELDS = {"col": int, "row": int, "stack_bytes": (int, type(None)), "stack_limit": int,
                   "stack_measured": str, "text_bytes": (int, type(None)), "program_memory": (int, type(None)),
                   "not_measured": (str, type(None))}
_MAX_RESOURCES = 1 << 20


def core_resources(path: Path, rec: dict, kernel_id: str) -> dict:
    """Core name -> its figures (:data:`RESOURCE_FIELDS`) from ``resources.json``, whose
    bytes must be the ones the build record hashed (``rec``)."""
    what = f"kernel {kernel_id}: {path.name}"
    try:
        data = read_regular(path, _MAX_RESOURCES)
    except (OSError, ValueError) as e:
        raise UserError(f"{what} cannot be read ({e}); run `doit build`") from None
    if len(data) != rec["size"] or hashlib.sha256(data).hexdigest() != rec["sha256"]:
        raise UserError(f"{what} changed since it was built; run `doit build`")
    try:
        cores = json.loads(data)["cores"]
        out = {}
        for name, core in sorted(cores.items()):
            fields = {k: core[k] for k in RESOURCE_FIELDS}
            bad = [k for k, kind in RESOURCE_FIELDS.items() if not isinstance(fields[k], kind) or isinstance(fields[k], bool)]
            if bad or not isinstance(name, str):
                raise ValueError(f"core {name}: bad {', '.join(bad)}")
            out[name] = fields
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise UserError(f"{what} is malformed ({e}); run `doit build`") from None
    return out


def write_abi_file(artifacts: Path, target_dir: Path, inst, target_abi: dict) -> dict:
    """``abi.json`` beside the binaries: the kernel's tensors (the host ABI's form) and the target's buffers."""
    from ..emitters.host.mlir_text import kernel_abi

    path = target_dir / ABI_FILE
    text = json.dumps({**kernel_abi(inst), "xdna": target_abi}, indent=1, sort_keys=True, allow_nan=False) + "\n"
    write_output(path, text, artifacts)
    data = text.encode()
    return {"path": path.relative_to(artifacts).as_posix(), "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}


def write_constants(artifacts: Path, graph, out_dir: Path, limits: Limits = Limits()) -> dict:
    """Constants as .npy under artifacts/graphs/<graph>/; returns their manifest records."""
    import io

    import numpy as np

    from ..ops.registry import NUMPY_DTYPE

    recs = {}
    for name, c in sorted(graph.constants.items()):
        if c.file is not None:
            # checked when the specs were read; read again as bytes, bounded, in case it changed since
            what = f"graph '{graph.name}': constant '{name}' ({c.file})"
            try:
                data = read_regular(c.file, limits.max_constant_bytes + (1 << 16) + 16)
                arr = np.load(io.BytesIO(data), allow_pickle=False)
            except (OSError, ValueError, EOFError) as e:
                raise UserError(f"{what}: cannot be read: {e}; run `doit build` again after fixing it") from None
            if tuple(arr.shape or (1,)) != tuple(c.shape) or str(arr.dtype) != NUMPY_DTYPE[c.dtype]:
                raise UserError(f"{what} changed while the build ran (now {list(arr.shape)} {arr.dtype}); run `doit build` again")
        else:
            arr = np.asarray(c.value, dtype=NUMPY_DTYPE[c.dtype]).reshape(c.shape)
        buf = io.BytesIO()
        np.save(buf, np.ascontiguousarray(arr), allow_pickle=False)
        path = _output_under(out_dir, f"{name}.npy")
        write_output(path, buf.getvalue(), artifacts)
        recs[name] = {
            "shape": list(c.shape),
            "dtype": c.dtype,
            "path": path.relative_to(artifacts).as_posix(),
            "sha256": sha256_file(path),
            "size": path.stat().st_size,
        }
    return recs


@user_errors_fail
def write_manifest(root: str, plan=None) -> dict:
    """The ``manifest`` task's action; its value ``outputs`` (saved by doit) is what :class:`OutputsIntact`
    checks on the next build. ``plan``: the one the task creators loaded (a forked worker inherits it;
    doit does not pickle actions), or None on the nothing-changed path, which loads none."""
    from ..core.config import load_config
    from .plan import build_plan

    if plan is None or plan.config.root != Path(root):
        plan = build_plan(load_config(Path(root)))
    manifest = build_manifest(plan)
    return {"outputs": written_files(plan.config.artifacts, manifest)}


def write_manifest_after_failures(plan, failed: dict[str, str]) -> str:
    """After a build in which some units failed (their tasks, or tasks they need): the manifest of everything
    else, so that `run`, `verify`, `pack` and ``load()`` keep working for every other kernel and graph. Returns
    the line the build prints (what was left out, or why the manifest could not be written)."""
    try:
        manifest = build_manifest(plan, failed)
    except UserError as e:
        return f"npubuild: manifest.json not rewritten: {e}"
    def kept(unit: str) -> bool:
        kid, _, label = unit.partition("@")
        return "stale" in manifest["kernels"].get(kid, {}).get("targets", {}).get(label, {})

    old = sorted(u for u in failed if kept(u))
    left = sorted(u for u in failed if not kept(u))
    kernels = [k for k in left if k.partition("@")[0] in manifest["kernels"]]
    said = []
    if old:
        said.append(f"the previous good build kept ({len(old)}): {', '.join(old[:5])}{' ...' if len(old) > 5 else ''}")
    if left:
        said.append(f"left out ({len(left)}): {', '.join(left[:5])}{' ...' if len(left) > 5 else ''}"
                    + ("; their kernels run on the targets that built" if kernels else ""))
    return "npubuild: manifest.json written for everything that built; " + "; ".join(said)


def written_files(art: Path, manifest: dict) -> dict:
    """Every file the manifest task wrote (the manifest, graph constants, xdna abi.json files):
    path -> [size, sha256, inode, mtime_ns, ctime_ns] as it is now."""
    rels = [c["path"] for g in manifest["graphs"].values() if g.get("kind") != "ane" for c in g["constants"].values()]
    rels += [t["abi_file"]["path"] for k in manifest["kernels"].values() for t in k["targets"].values() if "abi_file" in t]
    out = {}
    for path in [art / MANIFEST, *(art / r for r in rels)]:
        st = path.stat()
        out[str(path)] = [st.st_size, sha256_file(path), st.st_ino, st.st_mtime_ns, st.st_ctime_ns]
    return out


class OutputsIntact:
    """The ``manifest`` task is up to date only while every file it wrote is as it left it: doit checks
    only that targets exist, so a truncated manifest.json or a flipped byte in a graph constant would
    otherwise stay "up to date" while `verify` and `run` fail. An unchanged stat (inode, size, mtime
    and change time, which no one can set back) means unchanged; otherwise the bytes are hashed."""

    __signature__ = TASK_VALUES

    def __call__(self, task, values) -> bool:
        outputs = values.get("outputs")
        if not isinstance(outputs, dict) or not outputs:
            return False  # written by an older npubuild, or never: write it
        for path, rec in outputs.items():
            try:
                size, sha, ino, mtime, ctime = rec
                st = os.lstat(path)
                if (st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns) == (size, ino, mtime, ctime) and stat.S_ISREG(st.st_mode):
                    continue
                if not stat.S_ISREG(st.st_mode) or st.st_size != size or sha256_file(Path(path)) != sha:
                    return False
            except (OSError, ValueError, TypeError):
                return False
        return True
