"""Which of the scheduler's workers are trusted, and by what (settings.py says the rules).

Under Dask TLS every worker holds a certificate signed by the farm's CA; the
scheduler checked it when the worker joined and keeps it on the worker's
connection (``comm.extra_info["peercert"]``). The client asks the scheduler for
those subjects (Client.run_on_scheduler; the answer comes back as msgpack like
every other): the worker's own claim about its name is not evidence.
"""
from __future__ import annotations

import os
import threading
import time

from .settings import FarmSettings, subject_text

TTL = 5.0  # seconds a list of subjects is reused (workers join and leave)

_LOCK = threading.Lock()
_SUBJECTS: dict[tuple[int, str], tuple[float, dict]] = {}


def peer_subjects(dask_scheduler=None) -> dict:
    """Runs on the scheduler: worker address -> its certificate's subject text, or None (plain TCP)."""
    out = {}
    for addr, stream in dict(getattr(dask_scheduler, "stream_comms", {}) or {}).items():
        comm = getattr(stream, "comm", None)
        info = getattr(comm, "extra_info", None) or {}
        out[str(addr)] = subject_text(info.get("peercert")) if isinstance(info, dict) else None
    return out


def subjects(client, executor: str) -> dict:
    slot = (os.getpid(), executor)
    with _LOCK:
        hit = _SUBJECTS.get(slot)
    if hit is not None and time.monotonic() - hit[0] < TTL:
        return hit[1]
    got = client.run_on_scheduler(peer_subjects)
    clean = {str(a): (s if isinstance(s, str) else None) for a, s in (got.items() if isinstance(got, dict) else ())}
    with _LOCK:
        _SUBJECTS[slot] = (time.monotonic(), clean)
    return clean


def trusted_workers(client, executor: str, farm: FarmSettings, able) -> dict:
    """address -> {"certificate", "trusted_by"} for the workers of ``able`` whose outputs may be used."""
    certs = subjects(client, executor) if farm.tls else {}
    out = {}
    for addr in able:
        subject = certs.get(addr)
        if farm.trusted:
            out[addr] = {"certificate": subject, "trusted_by": "farm_trusted"}
        elif subject is not None and subject in farm.trusted_workers:
            out[addr] = {"certificate": subject, "trusted_by": "farm_trusted_workers"}
    return out


def reset() -> None:
    with _LOCK:
        _SUBJECTS.clear()
