"""Content-addressed store in the Bazel disk-cache layout.

``ac/<hh>/<key>``     action entry: JSON naming the output files by sha256
``cas/<hh>/<sha256>`` the bytes of one file

A compile looks its key up first and materialises a hit instead of running the
compiler. Uploads go blobs first and the action entry last, so an entry that
exists always refers to complete blobs; an entry whose blobs are missing (or
whose blob no longer matches its hash) is treated as a miss.

An entry is ``{"key": <its key>, "files": {name: sha256}, "modes": {name: mode},
"meta": {...}}``, plus ``"signature"`` when the project has a signing key (an
Ed25519 signature over :func:`signed_bytes`, see npubuild.artifacts.trust). The further
stores a project configures (shared directory, HTTP cache, Redis) hold the same
entries and blobs; npubuild.artifacts.stores layers them behind this one.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from ..fsio import atomic_copy, atomic_write_text, sha256_file


def signed_bytes(entry: dict) -> bytes:
    """What an entry's signature covers: its canonical JSON without the signature."""
    from ..canonical import canonical_json

    return canonical_json({k: v for k, v in entry.items() if k != "signature"}).encode()


def entry_text(entry: dict) -> str:
    return json.dumps(entry, sort_keys=True, indent=1)


class Store:
    def __init__(self, root: Path):
        self.root = Path(root)

    def _ac(self, key: str) -> Path:
        return self.root / "ac" / key[:2] / key

    def _cas(self, digest: str) -> Path:
        return self.root / "cas" / digest[:2] / digest

    def entry_path(self, key: str) -> Path:
        return self._ac(key)

    def blob_path(self, digest: str) -> Path:
        return self._cas(digest)

    def has_blob(self, digest: str) -> bool:
        return self._cas(digest).is_file()

    def get(self, key: str) -> dict | None:
        """The action entry for ``key`` if it and all its blobs are present."""
        p = self._ac(key)
        try:
            entry = json.loads(p.read_text())
            files = entry["files"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        for digest in files.values():
            if not self._cas(digest).is_file():
                return None
        try:
            os.utime(p)  # last-use time for LRU housekeeping
        except OSError:
            pass
        return entry

    def materialize(self, key: str, dest: Path) -> dict | None:
        """Copy the files of ``key`` into ``dest`` (re-hashed); None on a miss."""
        entry = self.get(key)
        if entry is None:
            return None
        try:
            for name, digest in entry["files"].items():
                blob = self._cas(digest)
                if sha256_file(blob) != digest:  # damaged store entry: treat as a miss
                    blob.unlink(missing_ok=True)
                    return None
            for name, digest in entry["files"].items():
                atomic_copy(self._cas(digest), dest / name, mode=entry.get("modes", {}).get(name, 0o644))
        except FileNotFoundError:
            return None  # evicted meanwhile (npubuild gc next to a build): a miss, not a failure
        return entry

    def put_entry(self, key: str, entry: dict) -> None:
        """Write an action entry as it is (its blobs must be in place already)."""
        atomic_write_text(self._ac(key), entry_text(entry))

    def put(self, key: str, files: dict[str, Path], meta: dict | None = None, signing_key: Path | None = None) -> dict:
        """Store ``files`` (name -> path) under ``key``; blobs first, entry last.

        With ``signing_key`` the entry carries a signature over :func:`signed_bytes`.
        """
        digests, modes = {}, {}
        for name, path in sorted(files.items()):
            digest = sha256_file(path)
            blob = self._cas(digest)
            if not blob.is_file():
                atomic_copy(path, blob, mode=0o444)
            digests[name] = digest
            modes[name] = os.stat(path).st_mode & 0o777
        entry = {"key": key, "files": digests, "modes": modes, "meta": meta or {}}
        if signing_key is not None:
            from .trust import sign

            entry["signature"] = sign(signed_bytes(entry), Path(signing_key))
        self.put_entry(key, entry)
        return entry
