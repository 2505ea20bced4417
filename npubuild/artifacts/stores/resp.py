"""A minimal Redis client (RESP2 over a socket), enough for the store.

Our own rather than the ``redis`` package: the store needs five commands
(AUTH, SELECT, GET, EXISTS, SET) and streams blobs in and out without holding
them twice in memory, which a dependency would not make simpler.

A reply is read within bounds a hostile server cannot stretch: one deadline
for the whole command (``timeout`` seconds from its start, see
:mod:`.deadline`), arrays nested at most MAX_DEPTH deep, and at most
``max_reply`` bytes held in memory per reply (a bulk value streamed into a
sink is bounded by the sink instead).
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

from .deadline import connect

CHUNK = 1 << 20
MAX_DEPTH = 4  # nesting of array replies; the store's commands get flat answers
MAX_REPLY = 16 << 20  # bytes of one reply held in memory
ELEMENT_COST = 64  # bytes counted per array element, for the Python object it becomes
_INTEGER = re.compile(rb"-?[0-9]{1,19}")


class RespError(Exception):
    """An error reply from the server (``-ERR ...``)."""


class ProtocolError(OSError):
    """A reply that is not well-formed RESP2, or past a bound."""


def _arg(a) -> bytes:
    return a if isinstance(a, bytes) else str(a).encode()


def _header(args) -> bytes:
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        a = _arg(a)
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


def _integer(text: bytes) -> int:
    if not _INTEGER.fullmatch(text):
        raise ProtocolError(f"malformed number in a reply {text[:40]!r}")
    return int(text)


class RespConnection:
    """One connection, opened lazily and re-opened after an error or a fork."""

    def __init__(self, host: str, port: int, password: str | None = None, username: str | None = None,
                 db: int = 0, timeout: float = 10.0, max_reply: int = MAX_REPLY):
        self.host, self.port, self.password, self.username, self.db, self.timeout = host, port, password, username, db, timeout
        self.max_reply = max_reply
        self._sock = self._rfile = None
        self._pid = None
        self._budget = 0  # bytes the reply being read may still hold in memory

    def close(self) -> None:
        for f in (self._rfile, self._sock):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        self._sock = self._rfile = None

    def _connect(self, deadline: float) -> None:
        if self._sock is not None and self._pid == os.getpid():
            self._sock.deadline = deadline
            return
        self._sock = self._rfile = None  # a connection inherited from a parent process is not ours to use
        sock = connect((self.host, self.port), deadline)
        self._sock, self._rfile, self._pid = sock, sock.makefile("rb"), os.getpid()
        try:
            if self.password is not None:
                args = ("AUTH", self.username, self.password) if self.username else ("AUTH", self.password)
                self._exchange(lambda s: s.sendall(_header(args)))
            if self.db:
                self._exchange(lambda s: s.sendall(_header(("SELECT", self.db))))
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

    def _spend(self, n: int) -> None:
        self._budget -= n
        if self._budget < 0:
            raise ProtocolError(f"reply larger than {self.max_reply} bytes")

    def _reply(self, bulk_sink=None, depth: int = 0):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if bulk_sink is not None and kind not in (b"$", b"-"):
            raise ProtocolError(f"unexpected reply to GET {line[:40]!r}")
        if kind == b"+":
            return rest.decode(errors="replace")
        if kind == b"-":
            raise RespError(rest.decode(errors="replace"))
        if kind == b":":
            return _integer(rest)
        if kind == b"$":
            return self._bulk(_integer(rest), bulk_sink)
        if kind == b"*":
            return self._array(_integer(rest), depth)
        raise ProtocolError(f"unexpected reply {line[:40]!r}")

    def _bulk(self, n: int, sink):
        if n == -1:
            return None
        if n < 0:
            raise ProtocolError("malformed bulk reply")
        if sink is not None:
            sink.expect(n)
            self._read_exact(n, sink.write)
            data = True
        else:
            self._spend(n)  # before reading: a huge announced length allocates nothing
            data = self._read_exact(n)
        if self._read_exact(2) != b"\r\n":
            raise ProtocolError("malformed bulk reply")
        return data

    def _array(self, n: int, depth: int):
        if n == -1:
            return None
        if n < 0:
            raise ProtocolError("malformed array reply")
        if depth >= MAX_DEPTH:
            raise ProtocolError(f"reply nested deeper than {MAX_DEPTH} arrays")
        self._spend(n * ELEMENT_COST)
        return [self._reply(depth=depth + 1) for _ in range(n)]

    def _run(self, send, bulk_sink=None):
        deadline = time.monotonic() + self.timeout  # for the whole command, connecting included
        self._connect(deadline)
        return self._exchange(send, bulk_sink)

    def _exchange(self, send, bulk_sink=None):
        self._budget = self.max_reply
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
