"""An HTTP cache speaking the Bazel remote-cache protocol (urllib).

``GET``/``HEAD``/``PUT`` on ``<url>/ac/<key>`` (the action entry, our JSON)
and ``<url>/cas/<sha256>`` (the bytes). Works with nginx's WebDAV module
(``dav_methods PUT``), bazel-remote with AC validation off, or any server that
stores what is PUT and serves it back. ``https://user:password@host/...``
sends basic authentication. 404 is a miss; connection errors, time-outs and
5xx answers make the store unusable for the rest of the build.
"""
from __future__ import annotations

import base64
import os
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from .base import CHUNK, TIMEOUT, Backend, BlobSink, StoreDown, os_reason


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if req.get_method() in ("GET", "HEAD"):
            return super().redirect_request(req, fp, code, msg, headers, newurl)
        return None


class HttpStore(Backend):
    def __init__(self, url: str):
        super().__init__(url)
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
        self._opener = urllib.request.build_opener(_NoRedirect())

    def _open(self, method: str, kind: str, name: str, data=None, headers=None):
        """The response, or None for 404. Raises StoreDown for anything but 2xx / 404."""
        req = urllib.request.Request(
            f"{self.base}/{kind}/{name}", data=data, method=method, headers={**self.headers, **(headers or {})}
        )
        try:
            return self._opener.open(req, timeout=TIMEOUT)
        except urllib.error.HTTPError as e:
            e.close()
            if e.code == 404:
                return None
            raise StoreDown(f"HTTP {e.code} {e.reason} on {method} /{kind}/") from None
        except urllib.error.URLError as e:
            reason = e.reason if isinstance(e.reason, BaseException) else OSError(str(e.reason))
            raise StoreDown(os_reason(reason)) from None
        except (OSError, ValueError) as e:  # timeouts and resets while reading the status line
            raise StoreDown(os_reason(e)) from None

    def _get(self, kind: str, name: str, sink: BlobSink) -> bool:
        resp = self._open("GET", kind, name)
        if resp is None:
            return False
        with resp:
            length = resp.headers.get("Content-Length")
            if length and length.isdigit():
                sink.expect(int(length))
            try:
                for block in iter(lambda: resp.read(CHUNK), b""):
                    sink.write(block)
            except OSError as e:
                raise StoreDown(os_reason(e)) from None
        return True

    def get_entry(self, key: str, sink: BlobSink) -> bool:
        return self._get("ac", key, sink)

    def get_blob(self, digest: str, sink: BlobSink) -> bool:
        return self._get("cas", digest, sink)

    def has_blob(self, digest: str) -> bool:
        resp = self._open("HEAD", "cas", digest)
        if resp is None:
            return False
        resp.close()
        return True

    def _put(self, kind: str, name: str, data, size: int) -> None:
        resp = self._open("PUT", kind, name, data=data,
                          headers={"Content-Length": str(size), "Content-Type": "application/octet-stream"})
        if resp is None:
            raise StoreDown(f"HTTP 404 on PUT /{kind}/ (does the server accept PUT?)")
        resp.close()

    def put_blob(self, digest: str, path: Path) -> None:
        with open(path, "rb") as f:
            self._put("cas", digest, f, os.fstat(f.fileno()).st_size)

    def put_entry(self, key: str, data: bytes) -> None:
        self._put("ac", key, data, len(data))
