"""The kinds of further store, by URL scheme: ``file://`` a shared directory,
``http(s)://`` a Bazel remote cache, ``redis://`` a Redis server."""
from __future__ import annotations

from .base import TIMEOUT, Backend, StoreDown


def open_backend(url: str, root: str, timeout: float = TIMEOUT) -> Backend:
    """``timeout``: seconds for one whole request to a network store (limits.store_request_timeout)."""
    scheme = url.split("://", 1)[0].lower()
    try:
        # each kind is imported only when a project names one
        if scheme == "file":
            from .directory import DirectoryStore

            return DirectoryStore(url, root)
        if scheme in ("http", "https"):
            from .httpcache import HttpStore

            return HttpStore(url, timeout)
        if scheme == "redis":
            from .redisstore import RedisStore

            return RedisStore(url, timeout)
    except ValueError as e:
        raise StoreDown(f"invalid URL: {e}") from None
    raise StoreDown(f"unknown store scheme {scheme!r}")
