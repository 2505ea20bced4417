"""One Dask Client per build process, made on first use and reused by every compile.

doit runs actions in worker processes (``-n N``) or threads (``-P thread``):
the client is kept per process id (a forked child never uses its parent's) and
made under a lock (threads share it). A scheduler that does not answer within
CONNECT_TIMEOUT is remembered as down for the rest of the process, so a build
without its farm waits once, not once per kernel.

What the client accepts from the farm (docs/farm.md, "Threat model"): it
connects over Dask TLS when farm_tls_* are set, and refuses plain TCP to a
scheduler on another machine unless farm_trusted; results are fetched from the
workers themselves and deserialised with msgpack only (SAFE_DESERIALIZERS), so a
result that arrives pickled is refused instead of unpickled.
"""
from __future__ import annotations

import logging
import os
import threading

from . import scheduler_address
from ...core.farm_settings import FarmSettings, is_loopback

CONNECT_TIMEOUT = 5.0  # seconds to reach the scheduler
# A client whose scheduler went away stops trying after this long (Dask's default is minutes).
RECONNECT_TIMEOUT = "5s"
# The only serialisation family the client takes data in: msgpack builds bytes, str, numbers, lists and
# dicts and nothing else ("pickle", "dask" (which unpickles its type) and "error" are refused).
SAFE_DESERIALIZERS = ("msgpack",)

_LOCK = threading.Lock()
_CLIENTS: dict[tuple, object] = {}  # (pid, executor, settings) -> Client
_DOWN: dict[tuple, "FarmUnavailable"] = {}  # (pid, executor, settings) -> why there is no client


class FarmUnavailable(Exception):
    """No usable scheduler; the message says why (one line). ``lost``: it answered earlier in
    this build and went away (the build has said so already)."""

    def __init__(self, why: str, lost: bool = False, untrusted: bool = False):
        super().__init__(why)
        self.lost = lost
        self.untrusted = untrusted  # not connected on purpose: plain TCP to another machine


def client_for(executor: str, farm: FarmSettings | None = None):
    """The Client of ``executor`` (``dask://host:port``) for this process; FarmUnavailable when
    distributed is not installed, the scheduler cannot be reached, or the connection would be
    plain TCP to another machine without farm_trusted."""
    farm = farm or FarmSettings()
    slot = (os.getpid(), executor, farm)
    with _LOCK:
        if slot in _CLIENTS:
            return _CLIENTS[slot]
        if slot in _DOWN:
            raise _DOWN[slot]
        try:
            client = _connect(executor, farm)
        except FarmUnavailable as e:
            _DOWN[slot] = e
            raise
        _CLIENTS[slot] = client
        return client


def forget(executor: str, why: str, farm: FarmSettings | None = None) -> bool:
    """The scheduler went away during the build: no more remote compiles from this process.
    True for the first caller only: threads waiting on the same lost scheduler each see it fail,
    often with different errors, and the build should say it once."""
    slot = (os.getpid(), executor, farm or FarmSettings())
    with _LOCK:
        client = _CLIENTS.pop(slot, None)
        first = not getattr(_DOWN.get(slot), "lost", False)
        if first:
            _DOWN[slot] = FarmUnavailable(why, lost=True)
    if client is not None:
        try:
            client.close(timeout=1)
        except Exception:  # already broken: nothing to close cleanly
            pass
    return first


def reset() -> None:
    """Forget the clients and failures of this process (tests)."""
    with _LOCK:
        clients = [c for slot, c in _CLIENTS.items() if slot[0] == os.getpid()]
        _CLIENTS.clear()
        _DOWN.clear()
    for c in clients:
        try:
            c.close(timeout=1)
        except Exception:
            pass


def _connect(executor: str, farm: FarmSettings):
    if not farm.tls and not farm.trusted and not is_loopback(executor):
        raise FarmUnavailable("plain TCP to a scheduler on another machine is not authenticated: anyone who reaches it can "
                              "join as a worker; set farm_tls_ca, farm_tls_cert and farm_tls_key (Dask TLS), or "
                              "farm_trusted = true if everyone who can reach it may run code in this build", untrusted=True)
    try:
        import dask
        from distributed import Client
        from distributed.security import Security
    except ImportError:
        raise FarmUnavailable('the Dask distributed package is not installed (pip install "npubuild[farm]")') from None
    # Dask logs every failed (re)connection attempt, with tracebacks, on its own loggers
    # (distributed.client, distributed.comm ...), and a refused result as "critical" with a traceback
    # (distributed.protocol.core); the build says what happened once, itself.
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    _refused_now(executor)
    try:
        with dask.config.set({"distributed.comm.timeouts.connect": f"{CONNECT_TIMEOUT}s",
                              "distributed.client.reconnect-timeout": RECONNECT_TIMEOUT}):
            if farm.tls:
                security = Security(tls_ca_file=farm.tls_ca, tls_client_cert=farm.tls_cert, tls_client_key=farm.tls_key,
                                    require_encryption=True)
                address = scheduler_address(executor).replace("tcp://", "tls://", 1)
            else:
                security, address = None, scheduler_address(executor)
            # direct_to_workers: results are fetched from the worker that holds them, asking for msgpack
            # (Dask passes the client's deserializers on as the serializers the worker must use);
            # through the scheduler they would come pickled and be refused.
            return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False, security=security,
                          deserializers=list(SAFE_DESERIALIZERS), direct_to_workers=True)
    except (OSError, TimeoutError, ValueError) as e:
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise FarmUnavailable(f"no answer within {CONNECT_TIMEOUT:.0f} s: {reason[:200]}") from None


def _refused_now(executor: str) -> None:
    """A scheduler that is not there at all refuses the TCP connection at once; Dask would retry it until
    its connect timeout. Say so now (a host that does not answer still gets the whole timeout, from Dask)."""
    import socket

    host, _, port = executor.removeprefix("dask://").rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT).close()
    except ConnectionRefusedError:
        raise FarmUnavailable(f"connection refused: no scheduler listens on {host}:{port} "
                              f"(start one: dask scheduler --port {port})") from None
    except (OSError, ValueError):
        return  # unreachable, slow, or a name that does not resolve: Dask tries and says why


def workers_of(client) -> dict:
    """address -> the scheduler's record of every worker (older distributed lists all without n_workers)."""
    try:
        info = client.scheduler_info(n_workers=-1)
    except TypeError:
        info = client.scheduler_info()
    return info.get("workers", {})
