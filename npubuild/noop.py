"""The "nothing changed" fast path of `doit build`.

doit's own no-op costs ~0.1 ms per task in up-to-date checks and task objects;
at thousands of kernels that is most of a no-op build. After a complete,
successful `build`, npubuild records a *state digest*: the plan's cache key
(spec bytes, npubuild's sources, the config, .npy constants), every target
toolchain's fingerprint id, the size and mtime of every file any build task
reads or writes, and the doit database's. The next plain `doit build` whose
digest matches creates no per-kernel tasks and reports everything up to date.

This decides exactly what doit would: doit's MD5 checker also takes an
unchanged mtime and size as "unchanged", every other up-to-date input is in
the digest, and anything else (a deleted or touched file, another compiler,
`doit forget`, an edited spec) changes the digest and takes the full path.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

STAMP_FILE = ".npubuild.noop-stamp"

# doit options that do not change what a build decides; anything else (-a,
# --always, -s, a task name other than build, another command) disables the
# fast path.
_NEUTRAL_OPTS_WITH_VALUE = ("-n", "--process", "-P", "--parallel-type")
_NEUTRAL_FLAGS = ("-v0", "-v1", "-v2")


def plain_build(argv: list[str]) -> bool:
    """True when doit's arguments ask for nothing but the default build."""
    args = list(argv)
    rest = []
    while args:
        a = args.pop(0)
        if a in _NEUTRAL_OPTS_WITH_VALUE and args:
            args.pop(0)
        elif a.startswith(("-n", "--process=", "-P", "--parallel-type=")) or a in _NEUTRAL_FLAGS:
            continue
        else:
            rest.append(a)
    return rest in ([], ["build"], ["run"], ["run", "build"])


def doit_argv() -> list[str]:
    """doit's own arguments when run as `doit ...` or `python -m doit ...`; None otherwise."""
    prog = Path(sys.argv[0]).name
    if prog == "doit" or sys.argv[0].endswith(os.path.join("doit", "__main__.py")):
        return sys.argv[1:]
    return None


def state_digest(plan_key: str, toolchain_ids: dict, files, db_file: Path) -> str:
    h = hashlib.sha256()
    h.update(json.dumps([plan_key, sorted(toolchain_ids.items())]).encode())
    for path in files:
        try:
            st = os.stat(path)
            h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        except OSError:
            h.update(f"{path}\0missing\n".encode())
    for suffix in ("", "-journal", "-wal"):
        try:
            st = os.stat(f"{db_file}{suffix}")
            h.update(f"db{suffix}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        except OSError:
            h.update(f"db{suffix}\0missing\n".encode())
    return h.hexdigest()


def read_stamp(root: Path) -> str | None:
    try:
        return (root / STAMP_FILE).read_text().strip()
    except OSError:
        return None


def write_stamp(root: Path, digest: str) -> None:
    from .fsio import atomic_write_text

    try:
        atomic_write_text(root / STAMP_FILE, digest + "\n")
    except OSError:
        pass  # an optimisation only


def clear_stamp(root: Path) -> None:
    try:
        (root / STAMP_FILE).unlink()
    except OSError:
        pass
