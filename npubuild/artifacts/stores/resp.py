"""A minimal Redis client (RESP2 over a socket), enough for the store.

Our own rather than the ``redis`` package: the store needs five commands
(AUTH, SELECT, GET, EXISTS, SET) and streams blobs in and out without holding
them twice in memory, which a dependency would not make simpler.
"""
from __future__ import annotations

import os
import socket
from pathlib import Path

CHUNK = 1 << 20


class RespError(Exception):
    """An error reply from the server (``-ERR ...``)."""


class ProtocolError(OSError):
    pass


def _arg(a) -> bytes:
    return a if isinstance(a, bytes) else str(a).encode()


def _header(args) -> bytes:
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        a = _arg(a)
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


class RespConnection:
    """One connection, opened lazily and re-opened after an error or a fork."""

    def __init__(self, host: str, port: int, password: str | None = None, username: str | None = None,
                 db: int = 0, timeout: float = 10.0):
        self.host, self.port, self.password, self.username, self.db, self.timeout = host, port, password, username, db, timeout
        self._sock = self._rfile = None
        self._pid = None

    def close(self) -> None:
        for f in (self._rfile, self._sock):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        self._sock = self._rfile = None

    def _connect(self) -> None:
        if self._sock is not None and self._pid == os.getpid():
            return
        self._sock = self._rfile = None  # a connection inherited from a parent process is not ours to use
        sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
        self._sock, self._rfile, self._pid = sock, sock.makefile("rb"), os.getpid()
        try:
            if self.password is not None:
                self.call(*(("AUTH", self.username, self.password) if self.username else ("AUTH", self.password)))
            if self.db:
                self.call("SELECT", self.db)
        except BaseException:
            self.close()
            raise

    def _line(self) -> bytes:
        line = self._rfile.readline(1 << 16)
        if not line.endswith(b"\r\n"):
            raise ProtocolError("connection closed by the server" if not line else "malformed reply")
        return line[:-2]

    def _read_exact(self, n: int, write=None) -> bytes | None:
        parts = []
        while n > 0:
            block = self._rfile.read(min(n, CHUNK))
            if not block:
                raise ProtocolError("connection closed by the server")
            n -= len(block)
            if write is None:
                parts.append(block)
            else:
                write(block)
        return b"".join(parts) if write is None else None

    def _reply(self, bulk_sink=None):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise RespError(rest.decode(errors="replace"))
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return None
            if bulk_sink is not None:
                bulk_sink.expect(n)
                self._read_exact(n, bulk_sink.write)
                data = True
            else:
                data = self._read_exact(n)
            if self._read_exact(2) != b"\r\n":
                raise ProtocolError("malformed bulk reply")
            return data
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self._reply() for _ in range(n)]
        raise ProtocolError(f"unexpected reply {line[:40]!r}")

    def _run(self, send, bulk_sink=None):
        self._connect()
        try:
            send(self._sock)
            return self._reply(bulk_sink)
        except RespError:
            raise
        except BaseException:
            self.close()  # the reply stream is out of step: start afresh next time
            raise

    def call(self, *args):
        return self._run(lambda s: s.sendall(_header(args)))

    def get_into(self, key: str, sink) -> bool:
        """GET ``key`` streaming the value into ``sink`` (expect/write); False when missing."""
        return self._run(lambda s: s.sendall(_header(("GET", key))), bulk_sink=sink) is not None

    def set_from_file(self, key: str, path: Path) -> None:
        """SET ``key`` to the bytes of ``path`` without reading it into memory at once."""

        def send(s):
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                s.sendall(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n" % (len(key), key.encode(), size))
                sent = 0
                for block in iter(lambda: f.read(CHUNK), b""):
                    s.sendall(block)
                    sent += len(block)
                if sent != size:
                    raise ProtocolError(f"{path} changed size while being sent")
                s.sendall(b"\r\n")

        reply = self._run(send)
        if reply != "OK":
            raise ProtocolError(f"unexpected reply to SET: {reply!r}")
