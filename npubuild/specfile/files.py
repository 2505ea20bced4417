"""What a plan is made from, cheaply: the spec files, npubuild's own sources,
and one key over both. Kept free of heavy imports: the nothing-changed check
of a no-op build runs it before anything else is loaded."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .milrefs import blob_paths


def walk_spec_files(spec_dir: Path, kind: str) -> list[Path]:
    """The .yaml/.yml files under spec_dir/kind (kernels or graphs), sorted."""
    d = Path(spec_dir) / kind
    if not d.is_dir():
        return []
    return sorted(p for p in d.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def spec_files(spec_dir: Path) -> list[Path]:
    """Every spec file, in load order (YAML kernels, YAML graphs, MIL graphs)."""
    d = Path(spec_dir) / "graphs"
    mil = sorted(p for p in d.rglob("*.mil") if p.is_file()) if d.is_dir() else []
    return walk_spec_files(spec_dir, "kernels") + walk_spec_files(spec_dir, "graphs") + mil


def code_stamp() -> list:
    """(file, size, mtime) of npubuild's own sources: a changed npubuild invalidates cached plans."""
    root = Path(__file__).resolve().parent.parent  # the npubuild package
    out = []
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith(".py"):
                st = os.stat(os.path.join(dirpath, f))
                out.append((os.path.relpath(os.path.join(dirpath, f), root), st.st_size, st.st_mtime_ns))
    return sorted(out)


def stat_stamp(paths) -> list:
    out = []
    for p in paths:
        try:
            st = os.stat(p)
            out.append((str(p), st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((str(p), -1, -1))
    return out


def plan_key(config) -> str:
    """Digest of the config, npubuild's sources, every spec file's bytes, and the
    blob files each .mil names by size, mtime, inode and change time: a rewritten
    blob changes the key, and stat keeps this cheap on the nothing-changed path
    (the ane build itself keys its artifacts by the blobs' bytes)."""
    h = hashlib.sha256(repr((config, code_stamp())).encode())
    for path in spec_files(config.specs):
        data = path.read_bytes()
        h.update(str(path).encode() + b"\0")
        h.update(hashlib.sha256(data).digest())
        if path.suffix != ".mil":
            continue
        for blob in blob_paths(data.decode("utf-8", "replace"), path.parent):
            try:
                st = os.stat(blob)
                h.update(f"{blob}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\0{st.st_ctime_ns}\n".encode())
            except (OSError, ValueError):  # missing, or a NUL in the name
                h.update(f"{blob}\0missing\n".encode())
    return h.hexdigest()
