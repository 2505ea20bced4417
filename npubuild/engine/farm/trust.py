"""Which of the scheduler's workers are trusted, and by what (npubuild.core.farm_settings says the rules).

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

from ...core.farm_settings import FarmSettings, subject_text

TTL = 5.0  # seconds a list of subjects is reused (workers join and leave)

_LOCK = threading.Lock()
_SUBJECTS: dict[tuple[int, str], tuple[float, dict]] = {}


def _peer_certs_factory():
    """The function run on the scheduler, made here as a closure over builtins only so that
    cloudpickle sends it by value: the scheduler needs Dask, not npubuild."""
    def peer_certs(dask_scheduler=None):
        out = {}
        for addr, stream in dict(getattr(dask_scheduler, "stream_comms", {}) or {}).items():
            info = getattr(getattr(stream, "comm", None), "extra_info", None)
            cert = info.get("peercert") if isinstance(info, dict) else None
            out[str(addr)] = cert.get("subject") if isinstance(cert, dict) else None
        return out

    return peer_certs


def subjects(client, executor: str) -> dict:
    """worker address -> its certificate subject text (None: none), as the scheduler verified it;
    {} when the scheduler cannot say (then no worker is trusted by certificate)."""
    slot = (os.getpid(), executor)
    with _LOCK:
        hit = _SUBJECTS.get(slot)
    if hit is not None and time.monotonic() - hit[0] < TTL:
        return hit[1]
    try:
        got = client.run_on_scheduler(_peer_certs_factory())
    except (OSError, TimeoutError):
        raise  # the scheduler went away: the caller says so
    except Exception:  # noqa: BLE001 - the scheduler refused to run it (distributed.scheduler.pickle = false ...)
        got = {}
    clean = {str(a): subject_text({"subject": s}) for a, s in (got.items() if isinstance(got, dict) else ())}
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
