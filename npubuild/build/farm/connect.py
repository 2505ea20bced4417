"""One Dask Client per build process, made on first use and reused by every compile.

doit runs actions in worker processes (``-n N``) or threads (``-P thread``):
the client is kept per process id (a forked child never uses its parent's) and
made under a lock (threads share it). A scheduler that does not answer within
CONNECT_TIMEOUT is remembered as down for the rest of the process, so a build
without its farm waits once, not once per kernel.
"""
from __future__ import annotations

import logging
import os
import threading

from . import scheduler_address

CONNECT_TIMEOUT = 5.0  # seconds to reach the scheduler
# A client whose scheduler went away stops trying after this long (Dask's default is minutes).
RECONNECT_TIMEOUT = "5s"

_LOCK = threading.Lock()
_CLIENTS: dict[tuple[int, str], object] = {}  # (pid, executor) -> Client
_DOWN: dict[tuple[int, str], FarmUnavailable] = {}  # (pid, executor) -> why there is no client


class FarmUnavailable(Exception):
    """No usable scheduler; the message says why (one line). ``lost``: it answered earlier in
    this build and went away (the build has said so already)."""

    def __init__(self, why: str, lost: bool = False):
        super().__init__(why)
        self.lost = lost


def client_for(executor: str):
    """The Client of ``executor`` (``dask://host:port``) for this process; FarmUnavailable when
    distributed is not installed or the scheduler cannot be reached."""
    slot = (os.getpid(), executor)
    with _LOCK:
        if slot in _CLIENTS:
            return _CLIENTS[slot]
        if slot in _DOWN:
            raise _DOWN[slot]
        try:
            client = _connect(executor)
        except FarmUnavailable as e:
            _DOWN[slot] = e
            raise
        _CLIENTS[slot] = client
        return client


def forget(executor: str, why: str) -> None:
    """The scheduler went away during the build: no more remote compiles from this process."""
    slot = (os.getpid(), executor)
    with _LOCK:
        client = _CLIENTS.pop(slot, None)
        _DOWN[slot] = FarmUnavailable(why, lost=True)
    if client is not None:
        try:
            client.close(timeout=1)
        except Exception:  # already broken: nothing to close cleanly
            pass


def reset() -> None:
    """Forget the clients and failures of this process (tests)."""
    with _LOCK:
        clients = [c for (pid, _), c in _CLIENTS.items() if pid == os.getpid()]
        _CLIENTS.clear()
        _DOWN.clear()
    for c in clients:
        try:
            c.close(timeout=1)
        except Exception:
            pass


def _connect(executor: str):
    try:
        import dask
        from distributed import Client
    except ImportError:
        raise FarmUnavailable('the Dask distributed package is not installed (pip install "npubuild[farm]")') from None
    # Dask logs every failed (re)connection attempt, with tracebacks, on its own loggers
    # (distributed.client, distributed.comm ...); the build says what happened once, itself.
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        with dask.config.set({"distributed.comm.timeouts.connect": f"{CONNECT_TIMEOUT}s",
                              "distributed.client.reconnect-timeout": RECONNECT_TIMEOUT}):
            return Client(scheduler_address(executor), timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError) as e:
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise FarmUnavailable(f"no answer within {CONNECT_TIMEOUT:.0f} s: {reason[:200]}") from None


def workers_of(client) -> dict:
    """address -> the scheduler's record of every worker (older distributed lists all without n_workers)."""
    try:
        info = client.scheduler_info(n_workers=-1)
    except TypeError:
        info = client.scheduler_info()
    return info.get("workers", {})
