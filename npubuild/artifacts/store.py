"""Content-addressed store in the Bazel disk-cache layout.

``ac/<hh>/<key>``     action entry: JSON naming the output files by sha256
``cas/<hh>/<sha256>`` the bytes of one file

A compile looks its key up first and materialises a hit instead of running the
compiler. Uploads go blobs first and the action entry last, so an entry that
exists always refers to complete blobs; an entry whose blobs are missing is a
miss.

An entry is ``{"key": <its key>, "files": {name: sha256}, "modes": {name: mode},
"meta": {...}}``, plus ``"signature"`` when the project has a signing key (an
Ed25519 signature over :func:`signed_bytes`, see npubuild.artifacts.trust). The further
stores a project configures (shared directory, HTTP cache, Redis) hold the same
entries and blobs; npubuild.artifacts.stores layers them behind this one.

The local store travels inside a copied ``artifacts/`` directory, so it is
checked like a further store: :func:`parse_entry` on every entry, paths built
only through :func:`npubuild.core.fsio.inside`, blobs opened without blocking and
re-hashed while they are copied out, outputs written with a fixed mode. An
entry that fails a check raises :class:`Refused` (a miss with a reason).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import tempfile
from pathlib import Path, PurePosixPath

from ..core.fsio import atomic_copy, atomic_write_text, inside, open_regular, read_regular, sha256_file, tmp_prefix

ENTRY_LIMIT = 16 << 20  # an action entry is a small JSON document
CHUNK = 1 << 20
_HEX64 = re.compile(r"[0-9a-f]{64}")
_SCALARS = (str, int, float, bool, type(None))


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


def signed_bytes(entry: dict) -> bytes:
    """What an entry's signature covers: its canonical JSON without the signature."""
    from ..core.canonical import canonical_json

    return canonical_json({k: v for k, v in entry.items() if k != "signature"}).encode()


def entry_text(entry: dict) -> str:
    return json.dumps(entry, sort_keys=True, indent=1)


# ---- checking an entry, wherever it came from -----------------------------------------------------------------------


def shown(value, limit: int = 80) -> str:
    """``value`` for a one-line message: repr (so control characters are escaped), cut short."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def safe_name(name) -> bool:
    """A relative path of plain components: ANE graphs keep their programs in subdirectories."""
    if not isinstance(name, str) or not name or "\\" in name or "\0" in name:
        return False
    p = PurePosixPath(name)
    return not p.is_absolute() and all(part not in ("", ".", "..") for part in name.split("/"))


def _flat(value) -> bool:
    # meta data and signatures are flat: a deep structure could only be there to exhaust the JSON encoder
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, _SCALARS) for k, v in value.items())


def _load_json(data: bytes):
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: "[[[[..." nested past the stack
        raise Refused("is not valid JSON") from None


def _check_key(entry: dict, key: str, require_key: bool) -> None:
    if "key" not in entry:
        if require_key:
            raise Refused("does not name its key")
    elif entry["key"] != key:
        raise Refused(f"belongs to another key ({shown(entry['key'], 20)})")


def _check_files(files: dict) -> None:
    for name, digest in files.items():
        if not safe_name(name):
            raise Refused(f"names a file outside its directory: {shown(name)}")
        if not isinstance(digest, str) or not _HEX64.fullmatch(digest):
            raise Refused(f"names {shown(name)} by a malformed digest")


def _check_modes(modes) -> None:
    if not isinstance(modes, dict):
        raise Refused("has malformed file modes")
    for name, m in modes.items():
        if not isinstance(m, int) or isinstance(m, bool) or m < 0:
            raise Refused("has malformed file modes")
        if m & ~0o777:
            raise Refused(f"asks for mode {m:#o} on {shown(name)} (setuid, setgid and sticky bits are refused)")


def parse_entry(data: bytes, key: str, require_key: bool = True) -> dict:
    """The entry in ``data`` if it is well-formed for ``key``; raises Refused.

    ``require_key=False`` only for :meth:`Store.get`, which tells presence
    (housekeeping); anything that copies an entry's files requires it.
    """
    entry = _load_json(data)
    if not isinstance(entry, dict) or not isinstance(entry.get("files"), dict) or not entry["files"]:
        raise Refused("names no files")
    _check_key(entry, key, require_key)
    _check_files(entry["files"])
    _check_modes(entry.get("modes", {}))
    if "meta" in entry and not _flat(entry["meta"]):
        raise Refused("has malformed meta data")
    if entry.get("signature") is not None and not _flat(entry["signature"]):
        raise Refused("has a malformed signature")
    return entry


def check_names(entry: dict, names) -> None:
    """An entry must name exactly the files its caller produces (None: any), so that it cannot
    overwrite another file of the output directory (the source, the build record)."""
    if names is None:
        return
    extra = sorted(set(entry["files"]) - set(names))
    if extra:
        raise Refused(f"names a file this build does not produce: {shown(extra[0])}")
    missing = sorted(set(names) - set(entry["files"]))
    if missing:
        raise Refused(f"lacks the output {shown(missing[0])}")


def output_mode(entry: dict, name: str) -> int:
    """0o755 when the entry marks ``name`` executable, else 0o644: whatever it asks for, no
    output is ever group- or world-writable, setuid, setgid or sticky."""
    m = entry.get("modes", {}).get(name, 0o644)
    return 0o755 if m & 0o111 else 0o644


# ---- the store --------------------------------------------------------------------------------------------------------


class Store:
    def __init__(self, root: Path):
        self.root = Path(root)

    def _path(self, kind: str, name: str) -> Path:
        """ValueError for anything but a sha256 name, or a path a symlink leads out of the store."""
        if not isinstance(name, str) or not _HEX64.fullmatch(name):
            raise ValueError(f"{shown(name)} is not a sha256 name")
        return inside(self.root, kind, name[:2], name)

    def entry_path(self, key: str) -> Path:
        return self._path("ac", key)

    def blob_path(self, digest: str) -> Path:
        return self._path("cas", digest)

    def has_blob(self, digest: str) -> bool:
        try:
            return stat.S_ISREG(os.stat(self.blob_path(digest)).st_mode)
        except (OSError, ValueError):
            return False

    def _read(self, key: str, require_key: bool) -> dict | None:
        """The checked entry of ``key`` if all its blobs are present; None on a miss, Refused on a bad entry."""
        try:
            path = self.entry_path(key)
            data = read_regular(path, ENTRY_LIMIT)
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            return None
        except ValueError as e:
            raise Refused(f"cannot be read: {e}") from None
        entry = parse_entry(data, key, require_key)
        if not all(self._blob_present(digest) for digest in entry["files"].values()):
            return None
        try:
            os.utime(path)  # last-use time for LRU housekeeping
        except OSError:
            pass
        return entry

    def _blob_present(self, digest: str) -> bool:
        """False for a missing blob (a miss); Refused for something else in its place."""
        try:
            mode = os.stat(self.blob_path(digest)).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return False
        except (OSError, ValueError) as e:
            raise Refused(f"has blob {digest[:12]} that cannot be read: {e}") from None
        if not stat.S_ISREG(mode):
            raise Refused(f"has blob {digest[:12]} that is not a regular file (a directory, FIFO, socket or device)")
        return True

    def get(self, key: str) -> dict | None:
        """The action entry for ``key`` if it is well-formed and all its blobs are present."""
        try:
            return self._read(key, require_key=False)
        except Refused:
            return None

    def materialize(self, key: str, dest: Path, names=None) -> dict | None:
        """Copy the files of ``key`` into ``dest`` (re-hashed); None on a miss.

        ``names``: the files the caller produces; an entry naming any other is
        refused. Raises Refused (a miss with a reason) for an entry that may not
        be used; nothing is then written outside ``dest`` or removed outside the store.
        """
        try:
            entry = self._read(key, require_key=True)
            if entry is None:
                return None
            check_names(entry, names)
            return entry if self._copy_out(entry, Path(dest)) else None
        except Refused as e:
            raise Refused(f"local store entry key {key[:12]} in {self.root} {e}") from None

    def _copy_out(self, entry: dict, dest: Path) -> bool:
        """Every file staged and verified before any is renamed into place; False when a blob is gone."""
        staged: list[tuple[Path, Path]] = []
        try:
            for name, digest in sorted(entry["files"].items()):
                try:
                    target = inside(dest, *name.split("/"))
                except ValueError as e:
                    raise Refused(f"names a file outside its directory: {e}") from None
                tmp = self._stage(digest, target, output_mode(entry, name))
                if tmp is None:
                    return False  # evicted meanwhile (npubuild gc next to a build): a miss, not a failure
                staged.append((tmp, target))
            for tmp, target in staged:
                os.replace(tmp, target)
            staged.clear()
            return True
        finally:
            for tmp, _ in staged:
                tmp.unlink(missing_ok=True)

    def _stage(self, digest: str, target: Path, mode: int) -> Path | None:
        """A temporary copy of blob ``digest`` beside ``target``, hashed while copied; None when the blob is gone."""
        blob = self.blob_path(digest)
        try:
            src = open_regular(blob)
        except (FileNotFoundError, NotADirectoryError):
            return None
        except ValueError as e:
            raise Refused(f"has blob {digest[:12]} that {e}") from None
        with src:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=tmp_prefix(), dir=target.parent)
            tmp = Path(name)
            try:
                with os.fdopen(fd, "wb") as out:
                    actual = _copy_hashed(src, out)
            except BaseException:
                tmp.unlink(missing_ok=True)
                raise
        try:
            if actual != digest:
                blob.unlink(missing_ok=True)  # inside the store (blob_path): the next put writes it afresh
                raise Refused(f"has blob {digest[:12]} that does not match its sha256 (damaged); removed it")
            os.chmod(tmp, mode)
            return tmp
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def put_entry(self, key: str, entry: dict) -> None:
        """Write an action entry as it is (its blobs must be in place already)."""
        atomic_write_text(self.entry_path(key), entry_text(entry))

    def put(self, key: str, files: dict[str, Path], meta: dict | None = None, signing_key: Path | None = None) -> dict:
        """Store ``files`` (name -> path) under ``key``; blobs first, entry last.

        With ``signing_key`` the entry carries a signature over :func:`signed_bytes`.
        Raises Refused when the store cannot take it (a path leading out of the
        store, something other than a file in the way, a full disk).
        """
        digests, modes = {}, {}
        for name, path in sorted(files.items()):
            digests[name] = sha256_file(path)
            modes[name] = 0o755 if os.stat(path).st_mode & 0o111 else 0o644  # the only modes materialize writes
        entry = {"key": key, "files": digests, "modes": modes, "meta": meta or {}}
        if signing_key is not None:
            from .trust import sign

            entry["signature"] = sign(signed_bytes(entry), Path(signing_key))
        try:
            for name, path in sorted(files.items()):
                if not self.has_blob(digests[name]):
                    blob = self.blob_path(digests[name])
                    _clear(blob)
                    atomic_copy(path, blob, mode=0o444)
            _clear(self.entry_path(key))
            self.put_entry(key, entry)
        except (OSError, ValueError) as e:
            raise Refused(f"local store {self.root} cannot store key {key[:12]}: {e}") from None
        return entry


def _copy_hashed(src, out) -> str:
    h = hashlib.sha256()
    for block in iter(lambda: src.read(CHUNK), b""):
        h.update(block)
        out.write(block)
    out.flush()
    os.fsync(out.fileno())
    return h.hexdigest()


def _clear(path: Path) -> None:
    """Make way for a file at ``path`` (inside the store): a rename replaces a FIFO or a link
    but not a directory. Only an empty one is removed; one with contents stays and the put
    fails with a warning."""
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            os.rmdir(path)
    except FileNotFoundError:
        pass
