"""Local store housekeeping: npubuild gc and npubuild cache stats."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from npubuild.artifacts import housekeeping
from npubuild.artifacts.store import Store
from npubuild.core.fsio import TMP_PREFIX

from .conftest import REPO

NOW = time.time()
HOUR = 3600


def _blob(store: Path, data: bytes, age: float = 2 * HOUR) -> str:
    d = hashlib.sha256(data).hexdigest()
    p = store / "cas" / d[:2] / d
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    os.utime(p, (NOW - age, NOW - age))
    return d


def _entry(store: Path, key: str, files: dict[str, bytes], used: float, blobs: bool = True) -> Path:
    """An action entry naming ``files`` (their blobs written too unless ``blobs`` is false), last used ``used`` seconds ago."""
    digests = {n: (_blob(store, b) if blobs else hashlib.sha256(b).hexdigest()) for n, b in files.items()}
    p = store / "ac" / key[:2] / key
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps({"files": digests, "modes": {n: 0o644 for n in files}, "meta": {}}, sort_keys=True, indent=1))
    os.utime(p, (NOW - used, NOW - used))
    return p


def _key(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()


SHARED = b"S" * 1000


@pytest.fixture
def store(tmp_path):
    """Entries a (oldest), b, c (newest); a and c share one blob; each has a blob of its own."""
    s = tmp_path / "store"
    _entry(s, _key("a"), {"kernel.so": b"a" * 1000, "shared.bin": SHARED}, used=3 * HOUR)
    _entry(s, _key("b"), {"kernel.so": b"b" * 1000}, used=2 * HOUR)
    _entry(s, _key("c"), {"kernel.so": b"c" * 1000, "shared.bin": SHARED}, used=1 * HOUR)
    (s / "host-toolchain.json").write_text("{}")  # not the store's to evict
    return s


def _size(s: Path) -> int:
    return sum(p.stat().st_size for p in s.rglob("*") if p.is_file())


def _has(s: Path, data: bytes) -> bool:
    d = hashlib.sha256(data).hexdigest()
    return (s / "cas" / d[:2] / d).is_file()


def _ac(s: Path, name: str) -> bool:
    k = _key(name)
    return (s / "ac" / k[:2] / k).is_file()


def test_gc_evicts_least_recently_used_and_keeps_shared_blobs(store):
    total = _size(store)
    entry_a = (store / "ac" / _key("a")[:2] / _key("a")).stat().st_size
    # evicting a alone frees its entry and its own blob; the shared blob stays (c needs it)
    r = housekeeping.gc(store, max_size=total - 1, now=NOW)
    assert r["removed"] == {"entries": 1, "blobs": 1, "dangling_entries": 0, "orphan_blobs": 0, "temp_files": 0}
    assert r["freed_bytes"] == entry_a + 1000 and r["total_bytes_after"] == _size(store) == total - entry_a - 1000
    assert not _ac(store, "a") and _ac(store, "b") and _ac(store, "c")
    assert not _has(store, b"a" * 1000) and _has(store, SHARED) and _has(store, b"c" * 1000)
    # next in line is b
    housekeeping.gc(store, max_size=_size(store) - 1, now=NOW)
    assert not _ac(store, "b") and _ac(store, "c") and not _has(store, b"b" * 1000) and _has(store, SHARED)
    # a limit no entry fits: everything evictable goes, the shared blob with its last user; other files stay
    r = housekeeping.gc(store, max_size=0, now=NOW)
    assert not _ac(store, "c") and not _has(store, SHARED) and not _has(store, b"c" * 1000)
    assert (store / "host-toolchain.json").is_file() and r["over_limit"]
    # a limit the store already fits removes nothing
    assert housekeeping.gc(store, max_size=10**9, now=NOW)["freed_bytes"] == 0


def test_gc_dry_run_removes_nothing(store):
    before = {p: p.read_bytes() for p in store.rglob("*") if p.is_file()}
    r = housekeeping.gc(store, max_size=0, dry_run=True, now=NOW)
    assert r["removed"]["entries"] == 3 and r["removed"]["blobs"] == 4 and r["dry_run"]
    assert {p: p.read_bytes() for p in store.rglob("*") if p.is_file()} == before


def test_a_store_hit_makes_an_entry_recent(store):
    assert Store(store).get(_key("a")) is not None  # refreshes a's last use
    housekeeping.gc(store, max_size=_size(store) - 1, now=time.time())
    assert _ac(store, "a") and not _ac(store, "b") and _ac(store, "c")


def test_gc_cleans_temps_orphans_and_dangling_entries(store):
    young_tmp = store / "cas" / "ab" / (TMP_PREFIX + "young")
    old_tmp = store / "ac" / "cd" / (TMP_PREFIX + "old")
    old_tmpdir = store / "tmp" / "0123-uuid"
    for p in (young_tmp, old_tmp, old_tmpdir / "part"):
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"t" * 100)
    for p in (old_tmp, old_tmpdir / "part", old_tmpdir):
        os.utime(p, (NOW - 2 * HOUR, NOW - 2 * HOUR))
    old_orphan = _blob(store, b"old orphan", age=2 * HOUR)
    young_orphan = _blob(store, b"young orphan", age=60)  # may belong to an entry being written
    _entry(store, _key("dangling"), {"kernel.so": b"gone"}, used=60, blobs=False)
    bad = store / "ac" / "ee" / ("e" * 64)
    bad.parent.mkdir(parents=True)
    bad.write_text("{not json")
    s = housekeeping.stats(store, now=NOW)
    assert (s["entries"], s["dangling_entries"], s["orphan_blobs"], s["temp_files"], s["stale_temp_files"]) == (5, 2, 2, 3, 2)

    r = housekeeping.gc(store, now=NOW)  # no --max-size: only the cleaning
    assert r["removed"] == {"entries": 0, "blobs": 0, "dangling_entries": 2, "orphan_blobs": 1, "temp_files": 2}
    assert young_tmp.exists() and not old_tmp.exists() and not old_tmpdir.exists() and (store / "tmp").is_dir()
    assert not (store / "cas" / old_orphan[:2] / old_orphan).exists() and (store / "cas" / young_orphan[:2] / young_orphan).exists()
    assert not bad.exists() and not _ac(store, "dangling")
    assert _ac(store, "a") and _ac(store, "b") and _ac(store, "c") and _has(store, SHARED)


def test_cache_stats_numbers(store):
    orphan = _blob(store, b"o" * 300)
    (store / "tmp").mkdir()
    (store / "tmp" / "x").write_bytes(b"t" * 50)
    s = housekeeping.stats(store, now=NOW)
    entry_bytes = sum(p.stat().st_size for p in (store / "ac").rglob("*") if p.is_file())
    assert s["entries"] == 3 and s["entry_bytes"] == entry_bytes and s["dangling_entries"] == 0
    assert s["blobs"] == 5 and s["blob_bytes"] == 4 * 1000 + 300
    assert s["orphan_blobs"] == 1 and s["orphan_bytes"] == 300
    assert s["temp_files"] == 1 and s["temp_bytes"] == 50 and s["stale_temp_files"] == 0
    assert s["other_files"] == 1 and s["other_bytes"] == 2
    assert s["total_bytes"] == _size(store) == entry_bytes + 4300 + 50 + 2
    iso = lambda t: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))
    assert s["oldest_use"] == iso(int(NOW - 3 * HOUR)) and s["newest_use"] == iso(int(NOW - HOUR))
    assert orphan


def _cli(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "npubuild.cli", *args], cwd=cwd, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=120)


def test_cli_cache_stats_and_gc(store, tmp_path):
    r = _cli("cache", "stats", "--json", "--store", str(store), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert (doc["entries"], doc["blobs"], doc["total_bytes"]) == (3, 4, _size(store))
    r = _cli("cache", "stats", "--store", str(store), cwd=tmp_path)
    assert "entries:     3" in r.stdout and "blobs:       4" in r.stdout and f"({_size(store)} bytes)" in r.stdout

    total = _size(store)
    r = _cli("gc", "--max-size", str(total - 1), "--dry-run", "--store", str(store), cwd=tmp_path)
    assert r.returncode == 0 and "would remove 1 least recently used entries, 1 blobs" in r.stdout and _ac(store, "a")
    r = _cli("gc", "--max-size", "2500", "--store", str(store), cwd=tmp_path)
    assert r.returncode == 0 and "removed 2 least recently used entries, 2 blobs" in r.stdout, r.stdout
    assert _size(store) <= 2500 and _ac(store, "c") and not _ac(store, "a") and not _ac(store, "b")
    r = _cli("gc", "--max-size", "lots", "--store", str(store), cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.strip() == "npubuild: not a size: 'lots' (use bytes or a K/M/G/T suffix, e.g. 1G)"


def test_stats_and_gc_of_a_missing_store(tmp_path):
    s = housekeeping.stats(tmp_path / "nope")
    assert s["exists"] is False and s["entries"] == 0 and s["total_bytes"] == 0 and s["oldest_use"] is None
    assert housekeeping.gc(tmp_path / "nope", max_size=0)["freed_bytes"] == 0
    assert not (tmp_path / "nope").exists()


def test_gc_of_a_built_project_store(project):
    p = project(
        """\
kernels:
  relu:
    op: relu
    dtype: f32
    shapes:
      - [64]
      - [128]
"""
    )
    p.doit("build")
    r = p.npubuild("cache", "stats", "--json")
    doc = json.loads(r.out)
    assert doc["entries"] == 2 and doc["store"] == str(p.artifacts / ".cache")
    p.npubuild("gc", "--max-size", "0")
    assert json.loads(p.npubuild("cache", "stats", "--json").out)["entries"] == 0
    # the evicted kernels are compiled again (the store had nothing left), and the build still succeeds
    for f in p.artifacts.rglob("kernel.so"):
        f.unlink()
    assert p.doit("build").summary["compiled"] == 2


def test_temp_files_of_a_running_writer_are_kept_for_a_day(store):
    live = store / "cas" / "ab" / f"{TMP_PREFIX}{os.getpid()}-blob"
    dead = store / "cas" / "ab" / f"{TMP_PREFIX}999999999-blob"  # no such process
    wedged = store / "ac" / "ab" / f"{TMP_PREFIX}{os.getpid()}-entry"
    for p, age in ((live, 2 * HOUR), (dead, 2 * HOUR), (wedged, 25 * HOUR)):
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"t")
        os.utime(p, (NOW - age, NOW - age))
    assert housekeeping.stats(store, now=NOW)["stale_temp_files"] == 2
    assert housekeeping.gc(store, now=NOW)["removed"]["temp_files"] == 2
    assert live.exists() and not dead.exists() and not wedged.exists()
