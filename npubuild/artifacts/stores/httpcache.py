"""An HTTP cache speaking the Bazel remote-cache protocol (urllib).

``GET``/``HEAD``/``PUT`` on ``<url>/ac/<key>`` (the action entry, our JSON)
and ``<url>/cas/<sha256>`` (the bytes). Works with nginx's WebDAV module
(``dav_methods PUT``), bazel-remote with AC validation off, or any server that
stores what is PUT and serves it back. ``https://user:password@host/...``
sends basic authentication. 404 is a miss; connection errors, time-outs,
5xx answers and malformed answers make the store unusable for the rest of the
build. Each request (connect, send, read the whole answer, any redirects) has
one deadline, ``timeout`` seconds after it starts (see :mod:`.deadline`).
"""
from __future__ import annotations

import base64
import http.client
import os
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from .base import CHUNK, TIMEOUT, Backend, BlobSink, StoreDown, os_reason, printable
from .deadline import connect, deadline_ssl_context

_LENGTH = re.compile(r"[0-9]{1,20}")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        # urllib would follow ftp:// too, where no deadline applies
        if req.get_method() in ("GET", "HEAD") and urlsplit(newurl).scheme in ("http", "https"):
            return super().redirect_request(req, fp, code, msg, headers, newurl)
        return None


class _Bounded:
    """An http.client connection whose socket must finish by ``deadline``."""

    def __init__(self, *args, deadline: float, **kwargs):
        super().__init__(*args, **kwargs)
        self._deadline = deadline
        self._create_connection = lambda address, timeout, source=None: connect(address, deadline, source)

    def connect(self):
        super().connect()
        self.sock.deadline = self._deadline  # the TLS socket wrapped around the plain one needs it too


class _HTTPConnection(_Bounded, http.client.HTTPConnection):
    pass


class _HTTPSConnection(_Bounded, http.client.HTTPSConnection):
    pass


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, deadline):
        super().__init__()
        self._deadline = deadline  # a callable: the deadline of the request being made

    def http_open(self, req):
        return self.do_open(_HTTPConnection, req, deadline=self._deadline())


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, deadline):
        super().__init__()
        self._deadline = deadline

    def https_open(self, req):
        if self._context is None:  # made on first use: an http:// store may never need it
            self._context = deadline_ssl_context()
        return self.do_open(_HTTPSConnection, req, context=self._context, deadline=self._deadline())


def _announced(length) -> int | None:
    """The Content-Length as a number, or None when there is no usable one."""
    return int(length) if length and _LENGTH.fullmatch(length) else None


class HttpStore(Backend):
    def __init__(self, url: str, timeout: float = TIMEOUT):
        super().__init__(url, timeout)
        parts = urlsplit(url)
        if not parts.hostname:
            raise ValueError(f"{self.display}: no host")
        parts.port  # raises ValueError on a bad port
        netloc = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
        if parts.port:
            netloc += f":{parts.port}"
        self.base = urlunsplit((parts.scheme, netloc, parts.path.rstrip("/"), "", ""))
        self.headers = {"User-Agent": "npubuild"}
        if parts.username is not None or parts.password is not None:
            cred = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}".encode()
            self.headers["Authorization"] = "Basic " + base64.b64encode(cred).decode()
        self._deadline = float("inf")
        deadline = lambda: self._deadline  # noqa: E731
        self._opener = urllib.request.build_opener(_NoRedirect(), _HTTPHandler(deadline), _HTTPSHandler(deadline))

    def _open(self, method: str, kind: str, name: str, data=None, headers=None):
        """The response, or None for 404. Raises StoreDown for anything but 2xx / 404."""
        req = urllib.request.Request(
            f"{self.base}/{kind}/{name}", data=data, method=method, headers={**self.headers, **(headers or {})}
        )
        self._deadline = time.monotonic() + self.timeout  # until the whole answer is read (_get)
        try:
            return self._opener.open(req, timeout=self.timeout)
        except urllib.error.HTTPError as e:
            e.close()
            if e.code == 404:
                return None
            raise StoreDown(f"HTTP {e.code} {printable(e.reason, 60)} on {method} /{kind}/") from None
        except urllib.error.URLError as e:
            reason = e.reason if isinstance(e.reason, BaseException) else OSError(str(e.reason))
            raise StoreDown(os_reason(reason, self.timeout)) from None
        except (OSError, ValueError, http.client.HTTPException) as e:  # a malformed status line or headers, a time-out
            raise StoreDown(os_reason(e, self.timeout)) from None

    def _get(self, kind: str, name: str, sink: BlobSink) -> bool:
        resp = self._open("GET", kind, name)
        if resp is None:
            return False
        with resp:
            length = _announced(resp.headers.get("Content-Length"))
            if length is not None:
                sink.expect(length)
            try:
                for block in iter(lambda: resp.read(CHUNK), b""):
                    sink.write(block)
            except (OSError, ValueError, http.client.HTTPException) as e:  # bad chunking, a time-out
                raise StoreDown(os_reason(e, self.timeout)) from None
        if length is not None and sink.size != length:  # http.client ends a short body quietly
            raise StoreDown(f"the answer ended after {sink.size} of {length} bytes")
        return True

    def get_entry(self, key: str, sink: BlobSink) -> bool:
        return self._get("ac", key, sink)

    def get_blob(self, digest: str, sink: BlobSink) -> bool:
        return self._get("cas", digest, sink)

    def has_blob(self, digest: str) -> bool:
        resp = self._open("HEAD", "cas", digest)
        if resp is None:
            return False
        self._close(resp)
        return True

    def _close(self, resp) -> None:
        try:
            resp.close()
        except (OSError, http.client.HTTPException):
            pass  # the answer was read: what is left of the connection does not matter

    def _put(self, kind: str, name: str, data, size: int) -> None:
        resp = self._open("PUT", kind, name, data=data,
                          headers={"Content-Length": str(size), "Content-Type": "application/octet-stream"})
        if resp is None:
            raise StoreDown(f"HTTP 404 on PUT /{kind}/ (does the server accept PUT?)")
        self._close(resp)

    def put_blob(self, digest: str, path: Path) -> None:
        with open(path, "rb") as f:
            self._put("cas", digest, f, os.fstat(f.fileno()).st_size)

    def put_entry(self, key: str, data: bytes) -> None:
        self._put("ac", key, data, len(data))
