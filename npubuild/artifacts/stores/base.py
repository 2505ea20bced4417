"""One further store: the interface every kind implements, and its errors."""
from __future__ import annotations

import hashlib
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

TIMEOUT = 10.0  # seconds, for connecting and for each read or write
ENTRY_LIMIT = 16 << 20  # an action entry is a small JSON document
CHUNK = 1 << 20


class StoreDown(Exception):
    """The store cannot be used (unreachable, timed out, server error): skip it for this build."""


class TooLarge(Exception):
    """A download over its size limit; ``exact`` when ``size`` is the announced size, not a running count."""

    def __init__(self, size: int, limit: int, exact: bool):
        self.size, self.limit, self.exact = size, limit, exact
        super().__init__(f"{'' if exact else 'more than '}{size if exact else limit} bytes, over the limit of {limit} bytes")


class BlobSink:
    """Receives the bytes of one download: hashes, counts and writes them, refusing more than ``limit``."""

    def __init__(self, out, limit: int):
        self.out, self.limit, self.size = out, limit, 0
        self._h = hashlib.sha256()

    def expect(self, size: int) -> None:
        """The size the store announced (Content-Length, a Redis bulk length, a file size)."""
        if size > self.limit:
            raise TooLarge(size, self.limit, exact=True)

    def write(self, chunk: bytes) -> None:
        self.size += len(chunk)
        if self.size > self.limit:
            raise TooLarge(self.size, self.limit, exact=False)
        self._h.update(chunk)
        self.out.write(chunk)

    def hexdigest(self) -> str:
        return self._h.hexdigest()


def redact(url: str) -> str:
    """``url`` without a password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit((parts.scheme, user + host, parts.path, parts.query, parts.fragment))


def os_reason(e: BaseException) -> str:
    """A short lower-case reason for a network or file error."""
    import socket

    if isinstance(e, ConnectionRefusedError):
        return "connection refused"
    if isinstance(e, (TimeoutError, socket.timeout)):
        return f"timed out after {TIMEOUT:g} s"
    if isinstance(e, socket.gaierror):
        return f"cannot resolve the host name ({e.strerror or e})"
    if isinstance(e, ConnectionResetError):
        return "connection reset"
    if isinstance(e, OSError) and e.strerror:
        return e.strerror[0].lower() + e.strerror[1:]
    return str(e) or type(e).__name__


class Backend:
    """A further store. Every method raises StoreDown when the store cannot be used."""

    def __init__(self, url: str):
        self.url = url
        self.display = redact(url)

    def get_entry(self, key: str, sink: BlobSink) -> bool:
        """Stream the action entry of ``key`` into ``sink``; False when there is none."""
        raise NotImplementedError

    def get_blob(self, digest: str, sink: BlobSink) -> bool:
        """Stream the blob ``digest`` into ``sink``; False when there is none."""
        raise NotImplementedError

    def has_blob(self, digest: str) -> bool:
        raise NotImplementedError

    def put_blob(self, digest: str, path: Path) -> None:
        raise NotImplementedError

    def put_entry(self, key: str, data: bytes) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass
