"""The local store first, then the project's further stores in order.

Lookup: the local store first; its entries get the checks of step 1 (it may
have come with a copied artifact directory), its blobs are re-hashed as they
are copied out. Otherwise each further store is asked in turn; a hit there is
verified before anything of it is used:

1. the entry must be well-formed JSON naming its own key, only the files the
   caller produces, by relative paths and sha256 digests, and plain modes
   (npubuild.artifacts.store.parse_entry);
2. its signature is checked (npubuild.artifacts.trust) against ``trusted_keys`` with
   ``require_signatures``;
3. every blob the local store lacks is downloaded (refused above
   ``max_artifact_size``) and re-hashed: its sha256 must equal its name;
4. only then are the blobs and the entry written into the local store, and the
   outputs materialised from there.

A refused entry (1-3, or a bad local one) is a miss whose reason goes to the
build report; an entry whose blobs are missing is a plain miss. A store that
cannot be reached, or answers with something malformed, is skipped for the
rest of the build with one warning.

Put: into the local store (signed when the project has a signing key), then to
every read-write further store, blobs first (those it already has are skipped,
except one found damaged there) and the entry last. An entry refused only by
this project's policy (an untrusted or missing signature, the size limit) is
not overwritten in the store that holds it; a damaged one is.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ...core.fsio import tmp_prefix
from ..store import ENTRY_LIMIT, Refused, Store, check_names, parse_entry, signed_bytes
from . import notices
from .base import BlobSink, StoreDown, TooLarge, redact
from .kinds import open_backend

# url -> reason, for the stores this process found unusable during the current build
_DOWN: dict[str, str] = {}
LOCAL = "local"  # the local store's name in notices


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


class Layered:
    def __init__(self, access):
        self.access = access
        self.local = Store(Path(access.local))
        self._backends: dict[str, object] = {}
        self._damaged: dict[str, set[str]] = {}  # url -> digests found damaged there: re-uploaded on put
        self._kept: set[tuple[str, str]] = set()  # (url, key): a valid entry this project refused, not overwritten
        self._trusted: dict | None = None
        self.refused: list[str] = []  # reasons of the last lookup
        self.hit_shared = False  # the last hit came from a shared store (the build summary counts those apart)

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
                    backend = self._backends[spec.url] = open_backend(spec.url, self.access.root, self.access.request_timeout)
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

    def materialize(self, key: str, dest: Path, names=None) -> dict | None:
        """Copy the files of ``key`` into ``dest`` from the first store that has them; None on a miss.

        ``names``: the files the caller produces (see Store.materialize).
        """
        self.refused = []
        self.hit_shared = False
        entry = self._from_local(key, dest, names)
        if entry is not None or not self.access.remotes:
            return entry
        for url, backend in self._usable():
            try:
                found = self._import(url, backend, key, names)
            except StoreDown as e:
                self._down(url, e)
                continue
            except Refused as e:
                if not e.repair:
                    self._kept.add((url, key))
                self._refuse(url, key, str(e))
                continue
            if found:
                entry = self._from_local(key, dest, names)
                if entry is not None:
                    self.hit_shared = True
                    return entry
        return None

    def _from_local(self, key: str, dest: Path, names) -> dict | None:
        try:
            return self.local.materialize(key, dest, names)
        except Refused as e:
            self._refuse(LOCAL, key, str(e))
            return None

    def _refuse(self, url: str, key: str, reason: str) -> None:
        self.refused.append(reason)
        self._warn(url, key, f"npubuild: {reason}; not used")

    def _warn(self, url: str, key: str, line: str) -> None:
        notices.record(self.access.local, url, key, line)  # the build report prints each once

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

    def _fetch_entry(self, url: str, backend, key: str, names) -> dict | None:
        """The checked entry of ``key`` in ``backend``; None when there is none."""
        import io

        buf = io.BytesIO()
        where = f"store entry key {key[:12]} from {redact(url)}"
        try:
            if not backend.get_entry(key, BlobSink(buf, ENTRY_LIMIT)):
                return None
            entry = parse_entry(buf.getvalue(), key)
            check_names(entry, names)
        except TooLarge as e:
            raise Refused(f"{where} is {e}", repair=True) from None
        except Refused as e:
            raise Refused(f"{where} {e}", repair=True) from None
        return entry

    def _import(self, url: str, backend, key: str, names=None) -> bool:
        """Copy ``key``'s entry and blobs from ``backend`` into the local store; False on a miss."""
        entry = self._fetch_entry(url, backend, key, names)
        if entry is None:
            return False
        what = f"store entry for {_label(key, entry)} from {redact(url)}"
        self._check_signature(entry, what)
        try:
            if not self._fetch_blobs(url, backend, entry, what):
                return False
            self.local.put_entry(key, entry)
        except (OSError, ValueError) as e:  # the local store cannot take it: a path leading out, a full disk
            raise Refused(f"{what}: the local store {self.local.root} cannot hold it ({e})") from None
        return True

    def _fetch_blobs(self, url: str, backend, entry: dict, what: str) -> bool:
        """Download every blob of ``entry`` the local store lacks, verified, then rename them in; False on a miss."""
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
                    if not self._fetch_blob(url, backend, digest, f, what):
                        return False  # an entry whose blobs are missing is a miss
            for digest, tmp in list(fetched.items()):
                os.chmod(tmp, 0o444)
                os.replace(tmp, self.local.blob_path(digest))
                del fetched[digest]
        finally:
            for tmp in fetched.values():
                tmp.unlink(missing_ok=True)
        return True

    def _fetch_blob(self, url: str, backend, digest: str, f, what: str) -> bool:
        sink = BlobSink(f, self.access.max_artifact_size)
        try:
            if not backend.get_blob(digest, sink):
                return False
        except TooLarge as e:
            raise Refused(f"{what}: blob {digest[:12]} is {e} (max_artifact_size)") from None
        except Refused as e:
            raise Refused(f"{what}: blob {digest[:12]} {e}", repair=True) from None
        f.flush()
        os.fsync(f.fileno())
        if sink.hexdigest() != digest:
            self._damaged.setdefault(url, set()).add(digest)
            raise Refused(f"{what}: blob {digest[:12]} does not match its sha256 (damaged or altered in the store)", repair=True)
        return True

    # -- put ----------------------------------------------------------------

    def put(self, key: str, files: dict[str, Path], meta: dict | None = None) -> dict | None:
        """Store ``files`` under ``key`` locally, then upload them to every read-write store.

        None when the local store cannot take them: a warning, never a failed build.
        """
        sk = self.access.signing_key
        try:
            entry = self.local.put(key, files, meta, signing_key=Path(sk) if sk else None)
            data = self.local.entry_path(key).read_bytes()
        except (Refused, OSError, ValueError) as e:
            self._warn(LOCAL, key, f"npubuild: {e}; not stored")
            return None
        self._upload(key, entry, data)
        return entry

    def push(self, key: str) -> list[str] | None:
        """Upload the local entry ``key`` (and its blobs) to every read-write store: the URLs that took it,
        or None when the local store has no complete entry for ``key``."""
        entry = self.local.get(key)
        if entry is None:
            return None
        return self._upload(key, entry, self.local.entry_path(key).read_bytes())

    def _upload(self, key: str, entry: dict, data: bytes) -> list[str]:
        digests = sorted(set(entry["files"].values()))
        took = []
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
                took.append(url)
            except StoreDown as e:
                self._down(url, e)
        return took


def reset_process_state() -> None:
    _DOWN.clear()
