"""A shared directory (``file:///path``): the local store's layout, for several machines.

``<dir>/ac/<hh>/<key>`` and ``<dir>/cas/<hh>/<sha256>``, like the local store,
so a directory on NFS or one kept in sync with rsync serves every project that
points at it. Writes go to a temporary file in the target's own directory
(same filesystem), are fsynced and renamed into place, so concurrent writers
and readers never see a partial file; an existing blob is never rewritten
unless it was found damaged. Whatever stands where an entry or a blob is
expected is opened without blocking and read only if it is a regular file: a
FIFO, socket, device or directory there is refused, never waited on.
"""
from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ...core.fsio import atomic_copy, atomic_write_bytes, open_regular
from ..store import Refused
from .base import CHUNK, Backend, BlobSink, StoreDown, os_reason


def directory_of(url: str, root: str) -> Path:
    """``file:///abs/dir`` -> /abs/dir; ``file://rel/dir`` -> <project root>/rel/dir."""
    parts = urlsplit(url)
    path = unquote(parts.path)
    if parts.netloc and parts.netloc != "localhost":
        path = parts.netloc + path
        return Path(root or ".") / path
    return Path(path)


class DirectoryStore(Backend):
    def __init__(self, url: str, root: str = ""):
        super().__init__(url)
        self.dir = directory_of(url, root)
        self._checked = False

    def _path(self, kind: str, name: str) -> Path:
        if not self._checked:
            if not self.dir.is_dir():
                raise StoreDown(f"no directory {self.dir}")
            self._checked = True
        return self.dir / kind / name[:2] / name

    def _stream(self, path: Path, sink: BlobSink) -> bool:
        try:
            f = open_regular(path)
        except (FileNotFoundError, NotADirectoryError):
            return False
        except ValueError as e:
            raise Refused(str(e), repair=True) from None
        except OSError as e:
            raise StoreDown(os_reason(e)) from None
        try:
            with f:
                sink.expect(os.fstat(f.fileno()).st_size)
                for block in iter(lambda: f.read(CHUNK), b""):
                    sink.write(block)
        except OSError as e:
            raise StoreDown(os_reason(e)) from None
        return True

    def get_entry(self, key: str, sink: BlobSink) -> bool:
        p = self._path("ac", key)
        found = self._stream(p, sink)
        if found:
            try:
                os.utime(p)  # last use, for whoever trims the directory by age
            except OSError:
                pass
        return found

    def get_blob(self, digest: str, sink: BlobSink) -> bool:
        return self._stream(self._path("cas", digest), sink)

    def has_blob(self, digest: str) -> bool:
        return self._path("cas", digest).is_file()

    def put_blob(self, digest: str, path: Path) -> None:
        try:
            atomic_copy(Path(path), self._path("cas", digest), mode=0o444)
        except OSError as e:
            raise StoreDown(f"cannot write: {os_reason(e)}") from None

    def put_entry(self, key: str, data: bytes) -> None:
        try:
            atomic_write_bytes(self._path("ac", key), data)
        except OSError as e:
            raise StoreDown(f"cannot write: {os_reason(e)}") from None
