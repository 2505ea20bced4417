"""Toolchain fingerprints cached by the stat of the files they hash.

Hashing a toolchain (libLLVM.so alone is >100 MB) on every build would dominate
a no-op; a fingerprint is recomputed only when the stat key — (path, size,
mtime_ns) of every hashed file, plus whatever else the caller puts in it —
changes. Results are memoized per process and kept in a small JSON file in the
store, sealed with this machine's cache secret (npubuild.core.cache_auth): the store
ships with a copied artifact folder, and a fingerprint taken from someone else's
file would put their compile keys (and xdna emit decisions) in this build. A
file that does not check is recomputed.
"""
from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Callable

from ..core.cache_auth import seal, unseal
from ..core.canonical import canonical_json
from ..core.errors import UserError
from ..core.fsio import atomic_write_bytes, read_regular

_memo: dict[str, dict] = {}


def stat_files(paths: dict) -> dict:
    """name -> [path, size, mtime_ns] for each file a fingerprint hashes."""
    out = {}
    for name, path in sorted(paths.items()):
        try:
            st = os.stat(path)
        except OSError as e:
            raise UserError(f"cannot stat {path}: {e}") from e
        out[name] = [path, st.st_size, st.st_mtime_ns]
    return out


def cached_fingerprint(cache_file: Path | None, key: dict, compute: Callable[[], dict],
                       persist: Callable[[dict], bool] | None = None) -> dict:
    """``compute()`` unless a fingerprint for ``key`` is memoized or in ``cache_file``.

    A computed fingerprint for which ``persist`` says False (say, one whose probe
    timed out) is memoized in this process but not written to ``cache_file``.
    """
    key_json = canonical_json(key)
    memo_key = f"{cache_file.name if cache_file else ''}:{key_json}"
    fp = _memo.get(memo_key)
    if fp is not None:
        if cache_file is not None and not cache_file.exists() and (persist is None or persist(fp)):
            _write(cache_file, key, fp)
        return copy.deepcopy(fp)
    if cache_file is not None:
        try:
            payload = unseal(read_regular(cache_file, _MAX_CACHE))
            cached = json.loads(payload) if payload is not None else None
            if isinstance(cached, dict) and cached.get("key") == key and isinstance(cached.get("fingerprint"), dict):
                _memo[memo_key] = cached["fingerprint"]
                return copy.deepcopy(cached["fingerprint"])
        except (OSError, ValueError):
            pass  # missing or corrupt: recompute
    fp = compute()
    if cache_file is not None and (persist is None or persist(fp)):
        _write(cache_file, key, fp)
    _memo[memo_key] = fp
    return copy.deepcopy(fp)


_MAX_CACHE = 1 << 24


def _write(cache_file: Path, key: dict, fp: dict) -> None:
    sealed = seal((json.dumps({"key": key, "fingerprint": fp}, indent=1, sort_keys=True) + "\n").encode())
    if sealed is not None:  # no cache secret: nothing is cached
        atomic_write_bytes(cache_file, sealed)
