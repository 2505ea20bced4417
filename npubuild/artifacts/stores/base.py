"""One further store: the interface every kind implements, and its errors."""
from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from ...core.limits import Limits

TIMEOUT = Limits().store_request_timeout  # seconds for one whole request, unless the project sets limits.store_request_timeout
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


def printable(text: str, limit: int = 120) -> str:
    """Text a server chose (a reason phrase, an error reply) made safe for one line of a terminal."""
    text = "".join(c if c.isprintable() else "?" for c in str(text))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def timed_out(timeout: float) -> str:
    return f"timed out: no complete answer within {timeout:g} s (limits.store_request_timeout)"


def os_reason(e: BaseException, timeout: float = TIMEOUT) -> str:
    """A short lower-case reason for a network or file error, or a malformed answer."""
    import http.client
    import socket

    if isinstance(e, ConnectionRefusedError):
        return "connection refused"
    if isinstance(e, (TimeoutError, socket.timeout)):
        return timed_out(timeout)
    if isinstance(e, socket.gaierror):
        return f"cannot resolve the host name ({printable(e.strerror or e)})"
    if isinstance(e, ConnectionResetError):
        return "connection reset"
    if isinstance(e, http.client.HTTPException):
        detail = printable(e, 60)
        return f"malformed HTTP answer ({type(e).__name__}{': ' + detail if detail else ''})"
    if isinstance(e, OSError) and e.strerror:
        return printable(e.strerror[0].lower() + e.strerror[1:])
    if isinstance(e, ValueError):  # UnicodeError too
        return f"malformed answer ({printable(e, 60) or type(e).__name__})"
    return printable(e) or type(e).__name__


class Backend(ABC):
    """A further store. Every method raises StoreDown when the store cannot be used;
    ``get_entry``/``get_blob`` raise Refused for something that is not a file."""

    def __init__(self, url: str, timeout: float = TIMEOUT):
        self.url = url
        self.display = redact(url)
        self.timeout = timeout  # seconds for one whole request: connect, send, read the whole answer

    @abstractmethod
    def get_entry(self, key: str, sink: BlobSink) -> bool:
        """Stream the action entry of ``key`` into ``sink``; False when there is none."""

    @abstractmethod
    def get_blob(self, digest: str, sink: BlobSink) -> bool:
        """Stream the blob ``digest`` into ``sink``; False when there is none."""

    @abstractmethod
    def has_blob(self, digest: str) -> bool:
        """Whether the store holds the blob ``digest``."""

    @abstractmethod
    def put_blob(self, digest: str, path: Path) -> None:
        """Upload the file ``path`` as the blob ``digest``."""

    @abstractmethod
    def put_entry(self, key: str, data: bytes) -> None:
        """Upload the action entry of ``key`` (after its blobs)."""

    def close(self) -> None:
        pass
