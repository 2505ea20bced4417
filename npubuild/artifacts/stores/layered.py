"""The local store first, then the project's further stores in order.

Lookup: a local hit is used as it is. Otherwise each further store is asked in
turn; a hit there is verified before anything of it is used:

1. the entry must be well-formed JSON naming its own key, files by relative
   paths and sha256 digests, and plain modes;
2. its signature is checked (npubuild.artifacts.trust) against ``trusted_keys`` with
   ``require_signatures``;
3. every blob the local store lacks is downloaded (refused above
   ``max_artifact_size``) and re-hashed: its sha256 must equal its name;
4. only then are the blobs and the entry written into the local store, and the
   outputs materialised from there.

A refused entry (1-3) is a miss whose reason goes to the build report; an entry
whose blobs are missing is a plain miss. A store that cannot be reached is
skipped for the rest of the build with one warning.

Put: into the local store (signed when the project has a signing key), then to
every read-write further store, blobs first (those it already has are skipped,
except one found damaged there) and the entry last. An entry refused only by
this project's policy (an untrusted or missing signature, the size limit) is
not overwritten in the store that holds it; a damaged one is.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path, PurePosixPath

from ...fsio import tmp_prefix
from ..store import Store, signed_bytes
from . import notices
from .base import ENTRY_LIMIT, BlobSink, StoreDown, TooLarge, redact
from .kinds import open_backend

_DIGEST = re.compile(r"[0-9a-f]{64}")

# url -> reason, for the stores this process found unusable during the current build
_DOWN: dict[str, str] = {}


class Refused(Exception):
    """An entry was found but may not be used; the message says why.

    ``repair``: the entry is damaged (a blob that does not match its hash, a
    malformed entry), so this project's own result may replace it in that
    store. Otherwise (signature, size limit) it is another writer's valid
    entry that this project's policy refuses, and it is left alone.
    """

    def __init__(self, message: str, repair: bool = False):
        super().__init__(message)
        self.repair = repair


def _label(key: str, entry: dict) -> str:
    meta = entry.get("meta") if isinstance(entry.get("meta"), dict) else {}
    what = None
    if isinstance(meta.get("kernel"), str):
        what = meta["kernel"] + (f"@{meta['target']}" if isinstance(meta.get("target"), str) else "")
    else:
        for k in ("ane_graph", "microkernel"):
            if isinstance(meta.get(k), str):
                what = meta[k]
                break
    if what:
        what = "".join(c if c.isprintable() else "?" for c in what)[:80]
        return f"{what} (key {key[:12]})"
    return f"key {key[:12]}"


def _safe_name(name) -> bool:
    if not isinstance(name, str) or not name or "\\" in name or "\0" in name:
        return False
    p = PurePosixPath(name)
    return not p.is_absolute() and all(part not in ("", ".", "..") for part in name.split("/"))


def parse_entry(data: bytes, key: str) -> dict:
    """The entry in ``data`` if it is well-formed for ``key``; raises Refused."""
    try:
        entry = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise Refused("is not valid JSON") from None
    if not isinstance(entry, dict) or not isinstance(entry.get("files"), dict) or not entry["files"]:
        raise Refused("names no files")
    if "key" in entry and entry["key"] != key:
        raise Refused(f"belongs to another key ({str(entry['key'])[:12]})")
    for name, digest in entry["files"].items():
        if not _safe_name(name):
            raise Refused(f"names a file outside its directory: {name!r}")
        if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
            raise Refused(f"names {name!r} by a malformed digest")
    modes = entry.get("modes", {})
    if not isinstance(modes, dict) or any(
        not isinstance(m, int) or isinstance(m, bool) or m < 0 or m > 0o777 for m in modes.values()
    ):
        raise Refused("has malformed file modes")
    if "meta" in entry and not isinstance(entry["meta"], dict):
        raise Refused("has malformed meta data")
    return entry


class Layered:
    def __init__(self, access):
        self.access = access
        self.local = Store(Path(access.local))
        self._backends: dict[str, object] = {}
        self._damaged: dict[str, set[str]] = {}  # url -> digests found damaged there: re-uploaded on put
        self._kept: set[tuple[str, str]] = set()  # (url, key): a valid entry this project refused, not overwritten
        self._trusted: dict | None = None
        self.refused: list[str] = []  # reasons of the last lookup

    # -- stores ------------------------------------------------------------

    def _usable(self, rw_only: bool = False):
        """(url, backend) of every further store not known to be down, in order."""
        for spec in self.access.remotes:
            if rw_only and spec.mode != "rw":
                continue
            if spec.url in _DOWN:
                continue
            if notices.is_down(self.access.local, spec.url):
                _DOWN[spec.url] = "found unusable by another worker"
                continue
            backend = self._backends.get(spec.url)
            if backend is None:
                try:
                    backend = self._backends[spec.url] = open_backend(spec.url, self.access.root)
                except StoreDown as e:
                    self._down(spec.url, e)
                    continue
            yield spec.url, backend

    def _down(self, url: str, err: StoreDown) -> None:
        reason = str(err) or "unknown error"
        _DOWN[url] = reason
        backend = self._backends.pop(url, None)
        if backend is not None:
            backend.close()
        notices.record_unreachable(self.access.local, url, redact(url), reason)

    def close(self) -> None:
        for backend in self._backends.values():
            backend.close()
        self._backends.clear()

    # -- lookup -------------------------------------------------------------

    def materialize(self, key: str, dest: Path) -> dict | None:
        """Copy the files of ``key`` into ``dest`` from the first store that has them; None on a miss."""
        self.refused = []
        entry = self.local.materialize(key, dest)
        if entry is not None or not self.access.remotes:
            return entry
        for url, backend in self._usable():
            try:
                found = self._import(url, backend, key)
            except StoreDown as e:
                self._down(url, e)
                continue
            except Refused as e:
                reason = str(e)
                if not e.repair:
                    self._kept.add((url, key))
                self.refused.append(reason)
                notices.record_refused(self.access.local, url, key, reason)
                continue
            if found:
                entry = self.local.materialize(key, dest)
                if entry is not None:
                    return entry
        return None

    def _check_signature(self, entry: dict, what: str) -> None:
        a = self.access
        if not entry.get("signature") and not a.require_signatures:
            return
        if self._trusted is None:
            from ..trust import load_trusted

            self._trusted = load_trusted(a.trusted_keys)  # a missing key file is a configuration error
        from ..trust import TrustError, check

        try:
            check(signed_bytes(entry), entry.get("signature"), self._trusted, a.require_signatures, what)
        except TrustError as e:
            raise Refused(str(e)) from None

    def _import(self, url: str, backend, key: str) -> bool:
        """Copy ``key``'s entry and blobs from ``backend`` into the local store; False on a miss."""
        import io

        buf = io.BytesIO()
        try:
            if not backend.get_entry(key, BlobSink(buf, ENTRY_LIMIT)):
                return False
        except TooLarge as e:
            raise Refused(f"store entry key {key[:12]} from {redact(url)} is {e}", repair=True) from None
        try:
            entry = parse_entry(buf.getvalue(), key)
        except Refused as e:
            raise Refused(f"store entry key {key[:12]} from {redact(url)} {e}", repair=True) from None
        what = f"store entry for {_label(key, entry)} from {redact(url)}"
        self._check_signature(entry, what)
        limit = self.access.max_artifact_size
        fetched: dict[str, Path] = {}
        try:
            for digest in sorted(set(entry["files"].values())):
                if digest in fetched or self.local.has_blob(digest):
                    continue
                blob = self.local.blob_path(digest)
                blob.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(prefix=tmp_prefix("fetch"), dir=blob.parent)
                fetched[digest] = Path(tmp)
                with os.fdopen(fd, "wb") as f:
                    sink = BlobSink(f, limit)
                    try:
                        if not backend.get_blob(digest, sink):
                            return False  # an entry whose blobs are missing is a miss
                    except TooLarge as e:
                        raise Refused(f"{what}: blob {digest[:12]} is {e} (max_artifact_size)") from None
                    f.flush()
                    os.fsync(f.fileno())
                if sink.hexdigest() != digest:
                    self._damaged.setdefault(url, set()).add(digest)
                    raise Refused(f"{what}: blob {digest[:12]} does not match its sha256 (damaged or altered in the store)", repair=True)
            for digest, tmp in list(fetched.items()):
                os.chmod(tmp, 0o444)
                os.replace(tmp, self.local.blob_path(digest))
                del fetched[digest]
        finally:
            for tmp in fetched.values():
                tmp.unlink(missing_ok=True)
        self.local.put_entry(key, entry)
        return True

    # -- put ----------------------------------------------------------------

    def put(self, key: str, files: dict[str, Path], meta: dict | None = None) -> dict:
        """Store ``files`` under ``key`` locally, then upload them to every read-write store."""
        sk = self.access.signing_key
        entry = self.local.put(key, files, meta, signing_key=Path(sk) if sk else None)
        if not any(s.mode == "rw" for s in self.access.remotes):
            return entry
        data = self.local.entry_path(key).read_bytes()
        digests = sorted(set(entry["files"].values()))
        for url, backend in self._usable(rw_only=True):
            if (url, key) in self._kept:
                self._kept.discard((url, key))
                continue  # another writer's entry, refused by this project's policy only: leave it
            damaged = self._damaged.get(url, set())
            try:
                for digest in digests:  # blobs first ...
                    if digest in damaged or not backend.has_blob(digest):
                        backend.put_blob(digest, self.local.blob_path(digest))
                        damaged.discard(digest)
                backend.put_entry(key, data)  # ... the entry last
            except StoreDown as e:
                self._down(url, e)
        return entry


def reset_process_state() -> None:
    _DOWN.clear()
