"""One deadline for a whole request to a further store, not one per read.

A socket timeout bounds each read on its own, so a server that sends one byte
just before each read would time out holds a build for as long as it likes.
These sockets set every read's and write's timeout to the time left until the
request's deadline, and fail once it has passed.
"""
from __future__ import annotations

import socket
import ssl
import time


def time_left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the request's deadline has passed")
    return left


class _Bounded:
    """Re-arms the socket's timeout before each call; ``deadline`` is a time.monotonic() value."""

    __slots__ = ()

    def _arm(self) -> None:
        self.settimeout(time_left(self.deadline))

    def recv(self, *args):
        self._arm()
        return super().recv(*args)

    def recv_into(self, *args):
        self._arm()
        return super().recv_into(*args)

    def send(self, *args):
        self._arm()
        return super().send(*args)

    def sendall(self, *args):  # sendall's timeout already covers the whole call (Python >= 3.5)
        self._arm()
        return super().sendall(*args)


class DeadlineSocket(_Bounded, socket.socket):
    __slots__ = ("deadline",)


class DeadlineSSLSocket(_Bounded, ssl.SSLSocket):
    """What an SSLContext with ``sslsocket_class`` set to it wraps; the TLS handshake is
    bounded by the timeout of the plain socket it wraps (the time left at connect)."""

    deadline = float("inf")  # set by whoever wraps it, before any read


def connect(address, deadline: float, source_address=None) -> DeadlineSocket:
    """A TCP connection to ``address`` (host, port) that must finish all its work by ``deadline``."""
    plain = socket.create_connection(address, timeout=time_left(deadline), source_address=source_address)
    sock = DeadlineSocket(plain.family, plain.type, plain.proto, fileno=plain.detach())
    sock.deadline = deadline
    sock.settimeout(time_left(deadline))  # for the TLS handshake, which reads below recv()
    return sock


def deadline_ssl_context() -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    ctx.sslsocket_class = DeadlineSSLSocket
    return ctx
