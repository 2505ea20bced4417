"""Redis as a store (``redis://[[user]:password@]host[:port][/db]``).

Keys ``npubuild:ac:<key>`` (the action entry, our JSON) and
``npubuild:cas:<sha256>`` (the bytes). Spoken with the small RESP client in
:mod:`.resp`. Give the server a ``maxmemory`` and ``maxmemory-policy
allkeys-lru`` to make it a cache that evicts; values are limited to Redis's
``proto-max-bulk-len`` (512 MB by default).
"""
from __future__ import annotations

import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .base import TIMEOUT, Backend, BlobSink, StoreDown, os_reason, printable
from .resp import RespConnection, RespError

PREFIX = "npubuild:"


class RedisStore(Backend):
    def __init__(self, url: str, timeout: float = TIMEOUT):
        super().__init__(url, timeout)
        parts = urlsplit(url)
        db = parts.path.strip("/")
        if db and not db.isdigit():
            raise ValueError(f"{self.display}: the path must be a database number")
        self._address = dict(
            host=parts.hostname or "127.0.0.1", port=parts.port or 6379,
            password=unquote(parts.password) if parts.password is not None else None,
            username=unquote(parts.username) if parts.username else None,
            db=int(db or 0), timeout=timeout,
        )
        # one connection per thread: a build runs its tasks on threads (npubuild.engine.jobs), and a RESP
        # exchange on a socket two threads share would read the other's reply
        self._local = threading.local()
        self._conns: list[RespConnection] = []
        self._lock = threading.Lock()

    @property
    def conn(self) -> RespConnection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = RespConnection(**self._address)
            self._local.conn = conn
            with self._lock:
                self._conns.append(conn)
        return conn

    def _do(self, fn, *args):
        try:
            return fn(*args)
        except RespError as e:
            raise StoreDown(f"redis: {printable(e)}") from None
        except (OSError, ValueError) as e:  # socket.timeout is an OSError; UnicodeError a ValueError
            raise StoreDown(os_reason(e, self.timeout)) from None

    def get_entry(self, key: str, sink: BlobSink) -> bool:
        return self._do(self.conn.get_into, f"{PREFIX}ac:{key}", sink)

    def get_blob(self, digest: str, sink: BlobSink) -> bool:
        return self._do(self.conn.get_into, f"{PREFIX}cas:{digest}", sink)

    def has_blob(self, digest: str) -> bool:
        return bool(self._do(self.conn.call, "EXISTS", f"{PREFIX}cas:{digest}"))

    def put_blob(self, digest: str, path: Path) -> None:
        self._do(self.conn.set_from_file, f"{PREFIX}cas:{digest}", Path(path))

    def put_entry(self, key: str, data: bytes) -> None:
        reply = self._do(self.conn.call, "SET", f"{PREFIX}ac:{key}", data)
        if reply != "OK":
            raise StoreDown(f"redis: unexpected reply to SET: {printable(repr(reply), 60)}")

    def close(self) -> None:
        with self._lock:
            conns, self._conns = self._conns, []
        for conn in conns:
            conn.close()
        self._local = threading.local()
