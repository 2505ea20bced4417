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


def enabled() -> bool:
    """NPUBUILD_FAST_NOOP=0 makes every build go through doit's own checks."""
    return os.environ.get("NPUBUILD_FAST_NOOP", "1") != "0"


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
            # size and mtime alone miss a file replaced by a copy (or a directory)
            # with both set back: the inode, type and change time do not follow
            st = os.lstat(path)
            h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\0{st.st_mode}\0{st.st_ctime_ns}\n".encode())
        except OSError:
            h.update(f"{path}\0missing\n".encode())
    for suffix in ("", "-journal", "-wal"):
        try:
            st = os.stat(f"{db_file}{suffix}")
            h.update(f"db{suffix}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        except OSError:
            h.update(f"db{suffix}\0missing\n".encode())
    return h.hexdigest()


def fresh_stamp(config, db_file: Path) -> dict | None:
    """The last complete build's stamp if nothing has changed since; else None.

    Needs neither the plan nor the op catalog: the stamp lists the files to
    stat and the targets whose toolchains to fingerprint. The stamp is sealed
    with this machine's cache secret (npubuild.core.cache_auth): one edited or
    copied in is not believed. The pinned sources it lists must still lead
    inside the project or its data_dirs (a link re-pointed outside changes
    their stat too; this says so without relying on it).
    """
    from ..core.cache_auth import unseal
    from ..core.fsio import read_regular, within_roots
    from ..specfile.files import plan_key
    from .targets import kernel_target

    try:
        payload = unseal(read_regular(config.root / STAMP_FILE, _MAX_STAMP))
        if payload is None:
            return None
        stamp = json.loads(payload)
        roots = config.data_roots()
        if not all(within_roots(Path(p), roots) for p in stamp["pinned"]):
            return None
        ids = {t: kernel_target(t).fingerprint(config.store)["id"] for t in stamp["targets"]}
        digest = state_digest(plan_key(config), ids, stamp["files"], db_file)
    except Exception:  # noqa: BLE001 - any doubt means "take the full path"
        return None
    if digest != stamp.get("digest"):
        return None
    stamp["toolchain_ids"] = ids
    return stamp


_MAX_STAMP = 1 << 30  # a stamp lists every file of a build: large for a large project, bounded all the same


def write_stamp(config, db_file: Path, plan_key: str, toolchain_ids: dict, files: list[str], summary: dict,
                pinned: list[str] = ()) -> None:
    """Record the state after a complete, successful build (see module doc)."""
    from ..core.cache_auth import seal
    from ..core.fsio import atomic_write_bytes

    stamp = dict(summary, targets=sorted(toolchain_ids), files=files, pinned=list(pinned))
    stamp["digest"] = state_digest(plan_key, toolchain_ids, files, db_file)
    sealed = seal(json.dumps(stamp).encode())
    try:
        if sealed is not None:  # no cache secret: no fast path
            atomic_write_bytes(config.root / STAMP_FILE, sealed)
    except OSError:
        pass  # an optimisation only
