"""Verify built artifacts against their manifest: file hashes, each kernel's key against its
record, graph steps against their kernels (:mod:`.manifest_records`), each binary's ABI
against its kernel (:mod:`.abi`), and the checks that live in modules of their own
(:func:`further_problems`).
"""
from __future__ import annotations

from pathlib import Path

from ..core.errors import VerifyError
from ..core.fsio import sha256_file
from ..core.limits import Limits
from .abi import ABI_FILE, abi_mismatch, design_entries, embedded_abi, xdna_abi_problem
from .manifest import manifest_files, read_manifest, read_verified, safe_path
from .manifest_records import record_problems


def verify(artifacts: Path, manifest: dict | None = None, limits: Limits | None = None) -> list[str]:
    """One problem line per missing or altered file, key that does not match its record,
    graph step that does not match its kernel, and binary whose ABI does not match its kernel."""
    artifacts = Path(artifacts)
    m = manifest if manifest is not None else read_manifest(artifacts, limits)
    problems, intact = [], set()
    for what, f in manifest_files(m):
        problem = _file_problem(artifacts, what, f)
        if problem:
            problems.append(problem)
        else:
            intact.add(id(f))
    problems += record_problems(m)
    for kid, k in m.get("kernels", {}).items():
        problems += [f"kernel {kid}: {p}" for p in abi_problems(artifacts, kid, k, intact)]
    return problems + further_problems(artifacts, m, intact)


def further_problems(artifacts: Path, m: dict, intact: set) -> list[str]:
    """Checks of records against the files they name that live in modules of their own, one call each
    (``intact``: ids of the file records whose bytes matched the manifest; the others are reported)."""
    from .ane_records import ane_plan_problems  # ANE plans against their programs

    return ane_plan_problems(m, intact, lambda rel: safe_path(artifacts, rel))


def _file_problem(artifacts: Path, what: str, f: dict) -> str | None:
    try:
        p = safe_path(artifacts, f["path"])
    except VerifyError as e:
        return f"{what}: {e}"
    rel = f["path"]
    if not p.is_file():
        return f"missing: {rel} ({what})"
    if p.stat().st_size != f["size"] or sha256_file(p) != f["sha256"]:
        return f"altered: {rel} ({what}): sha256/size differ from the manifest"
    return None


def abi_problems(artifacts: Path, kernel_id: str, k: dict, intact: set) -> list[str]:
    """The host binary's embedded ABI and the xdna abi.json against the kernel record
    (for files whose bytes matched the manifest: the others are reported already)."""
    out = []
    host = k["targets"].get("host", {}).get("files", {}).get("binary")
    if host is not None and id(host) in intact:
        try:
            why = abi_mismatch(kernel_id, k, embedded_abi(read_verified(artifacts, host, f"kernel {kernel_id}")), host["path"])
        except (ValueError, VerifyError) as e:
            why = f"{host['path']}: {e}"
        if why:
            out.append(f"[host] {why}")
    for label, xdna in design_entries(k, "xdna"):
        if xdna.get("compiled") and "abi_file" not in xdna:
            out.append(f"[{label}] the manifest names no {ABI_FILE}; delete manifest.json and run `doit build` to rewrite it")
        elif "abi_file" in xdna and id(xdna["abi_file"]) in intact:
            why = xdna_abi_problem(kernel_id, k, read_verified(artifacts, xdna["abi_file"], f"kernel {kernel_id}"), xdna)
            if why:
                out.append(f"[{label}] {why}")
    return out
