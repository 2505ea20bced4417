"""Housekeeping of a local store (Bazel disk-cache layout): statistics and LRU eviction.

``ac/<hh>/<key>``     action entries; an entry's mtime is its last use (the
                      store refreshes it on every hit)
``cas/<hh>/<sha256>`` blobs, shared between entries
``tmp/`` and files named ``fsio.TMP_PREFIX...`` anywhere: temporary files

``gc`` removes, in this order: temporary files older than an hour (a day when
the process whose id the name carries still runs); dangling
entries (unreadable, or naming a blob that is gone); blobs no entry names that
are older than an hour (younger ones may belong to an entry being written:
blobs are stored first, the entry last); then, while the store is larger than
the limit, the least recently used entries, each followed by the blobs no
remaining entry names. A blob another entry still names is never removed.
Everything else in the store (e.g. toolchain fingerprint caches) is counted
but left alone.
"""
from __future__ import annotations

import json
import os
import shutil
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from ..core.fsio import TMP_PREFIX, writer_alive

TEMP_AGE = 3600  # seconds before a temporary file counts as abandoned
TEMP_AGE_LIVE = 24 * 3600  # ... when the process named in it (.npb-tmp-<pid>-...) still runs
ORPHAN_AGE = 3600  # seconds before an unreferenced blob may be removed


@dataclass
class _File:
    path: Path
    size: int
    mtime: float


@dataclass
class _Entry(_File):
    digests: frozenset | None = None  # None: unreadable


@dataclass
class _Scan:
    root: Path
    entries: list = field(default_factory=list)  # _Entry
    blobs: dict = field(default_factory=dict)  # digest -> _File
    temps: list = field(default_factory=list)  # _File (files, and directories under tmp/ with their contents' size)
    other_files: int = 0
    other_bytes: int = 0

    def total(self) -> int:
        return (
            sum(e.size for e in self.entries) + sum(b.size for b in self.blobs.values()) + sum(t.size for t in self.temps) + self.other_bytes
        )


def _read_entry(path: Path) -> frozenset | None:
    try:
        files = json.loads(path.read_text())["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(files, dict) or not all(isinstance(d, str) for d in files.values()):
        return None
    return frozenset(files.values())


def scan(root: Path) -> _Scan:
    root = Path(root)
    s = _Scan(root)
    if not root.is_dir():
        return s
    tmpdir = root / "tmp"
    for dirpath, dirnames, filenames in os.walk(root):
        d = Path(dirpath)
        rel = d.relative_to(root).parts
        if d == tmpdir:
            for name in dirnames:  # abandoned temporary directories: one item each
                sub = d / name
                size, mtime = 0, _mtime(sub)
                for p, _, fs in os.walk(sub):
                    mtime = max(mtime, _mtime(Path(p)))
                    for f in fs:
                        st = _lstat(Path(p) / f)
                        if st:
                            size, mtime = size + st.st_size, max(mtime, st.st_mtime)
                s.temps.append(_File(sub, size, mtime))
            dirnames[:] = []
        for name in list(dirnames):
            if name.startswith(TMP_PREFIX) and d != tmpdir:  # a temporary directory elsewhere: one item
                dirnames.remove(name)
                sub = d / name
                size = sum(st.st_size for p, _, fs in os.walk(sub) for f in fs if (st := _lstat(Path(p) / f)))
                s.temps.append(_File(sub, size, _mtime(sub)))
        for name in filenames:
            p = d / name
            st = _lstat(p)
            if st is None:
                continue
            if name.startswith(TMP_PREFIX) or (rel[:1] == ("tmp",)):
                s.temps.append(_File(p, st.st_size, st.st_mtime))
            elif len(rel) == 2 and rel[0] == "ac" and os.path.isfile(p) and not os.path.islink(p):
                s.entries.append(_Entry(p, st.st_size, st.st_mtime, _read_entry(p)))
            elif len(rel) == 2 and rel[0] == "cas" and os.path.isfile(p) and not os.path.islink(p):
                s.blobs[name] = _File(p, st.st_size, st.st_mtime)
            else:
                s.other_files += 1
                s.other_bytes += st.st_size
    return s


def _lstat(p: Path):
    try:
        return os.lstat(p)
    except OSError:
        return None


def _mtime(p: Path) -> float:
    st = _lstat(p)
    return st.st_mtime if st else 0.0


def _iso(t: float | None) -> str | None:
    return None if t is None else datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def stats(root: Path, now: float | None = None) -> dict:
    """Counts and sizes of a store, as a JSON-able dict."""
    now = time.time() if now is None else now
    s = scan(root)
    referenced = set()
    dangling = 0
    for e in s.entries:
        if e.digests is None or not e.digests <= s.blobs.keys():
            dangling += 1
        if e.digests:
            referenced |= e.digests
    orphans = [b for d, b in s.blobs.items() if d not in referenced]
    stale = [t for t in s.temps if _stale(t, now)]
    uses = [e.mtime for e in s.entries]
    return {
        "store": str(Path(root)),
        "exists": Path(root).is_dir(),
        "entries": len(s.entries),
        "entry_bytes": sum(e.size for e in s.entries),
        "dangling_entries": dangling,
        "blobs": len(s.blobs),
        "blob_bytes": sum(b.size for b in s.blobs.values()),
        "orphan_blobs": len(orphans),
        "orphan_bytes": sum(b.size for b in orphans),
        "temp_files": len(s.temps),
        "temp_bytes": sum(t.size for t in s.temps),
        "stale_temp_files": len(stale),
        "other_files": s.other_files,
        "other_bytes": s.other_bytes,
        "total_bytes": s.total(),
        "oldest_use": _iso(min(uses) if uses else None),
        "newest_use": _iso(max(uses) if uses else None),
    }


def _stale(t: _File, now: float) -> bool:
    age = now - t.mtime
    return age > TEMP_AGE_LIVE or (age > TEMP_AGE and not writer_alive(t.path.name))


def _remove(item: _File, dry_run: bool) -> bool:
    if dry_run:
        return True
    try:
        if item.path.is_dir() and not item.path.is_symlink():
            shutil.rmtree(item.path)
        else:
            item.path.unlink(missing_ok=True)
        return True
    except OSError:
        return False


def gc(root: Path, max_size: int | None = None, dry_run: bool = False, now: float | None = None) -> dict:
    """Clean the store and evict least recently used entries until it is at most ``max_size`` bytes."""
    now = time.time() if now is None else now
    s = scan(root)
    total_before = total = s.total()
    removed = Counter()
    freed = Counter()
    failed = 0

    def drop(kind: str, item: _File) -> None:
        nonlocal total, failed
        if _remove(item, dry_run):
            removed[kind] += 1
            freed[kind] += item.size
            total -= item.size
        else:
            failed += 1

    for t in s.temps:
        if _stale(t, now):
            drop("temp_files", t)
    live = []
    for e in s.entries:
        if e.digests is None or not e.digests <= s.blobs.keys():
            drop("dangling_entries", e)
        else:
            live.append(e)
    refs = Counter(d for e in live for d in e.digests)
    for digest, b in sorted(s.blobs.items()):
        if refs[digest] == 0 and b.mtime < now - ORPHAN_AGE:
            drop("orphan_blobs", b)
    if max_size is not None:
        for e in sorted(live, key=lambda e: (e.mtime, e.path.name)):
            if total <= max_size:
                break
            drop("entries", e)
            for digest in sorted(e.digests):
                refs[digest] -= 1
                if refs[digest] == 0:  # no remaining entry names it
                    drop("blobs", s.blobs[digest])
    return {
        "store": str(Path(root)),
        "dry_run": dry_run,
        "max_size": max_size,
        "total_bytes_before": total_before,
        "total_bytes_after": total,
        "removed": {k: removed[k] for k in ("entries", "blobs", "dangling_entries", "orphan_blobs", "temp_files")},
        "freed_bytes": sum(freed.values()),
        "failed": failed,
        "over_limit": max_size is not None and total > max_size,
    }


def fmt_size(n: int) -> str:
    """``512 B``, ``1.5 KiB``, ``3.2 MiB``, ``1.0 GiB``."""
    if n < 1024:
        return f"{n} B"
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        n /= 1024
        if n < 1024 or unit == "TiB":
            return f"{n:.1f} {unit}"
    return f"{n} B"
