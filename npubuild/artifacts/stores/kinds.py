"""The kinds of further store, by URL scheme: ``file://`` a shared directory,
``http(s)://`` a Bazel remote cache, ``redis://`` a Redis server."""
from __future__ import annotations

from .base import Backend, StoreDown


def open_backend(url: str, root: str) -> Backend:
    scheme = url.split("://", 1)[0].lower()
    try:
        # each kind is imported only when a project names one
        if scheme == "file":
            from .directory import DirectoryStore

            return DirectoryStore(url, root)
        if scheme in ("http", "https"):
            from .httpcache import HttpStore

            return HttpStore(url)
        if scheme == "redis":
            from .redisstore import RedisStore

            return RedisStore(url)
    except ValueError as e:
        raise StoreDown(f"invalid URL: {e}") from None
    raise StoreDown(f"unknown store scheme {scheme!r}")
