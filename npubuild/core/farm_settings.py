"""Who the compile farm trusts: the ``farm_*`` settings of [tool.npubuild] and what they mean.

A Dask worker runs the code the client sends, and the client takes what the
worker sends back: a kernel.so that this build signs, shares and runs. So a
worker's outputs are used only when the worker is trusted:

* ``farm_trusted = true``: every worker that can join the scheduler is (the
  cluster is yours, on a network you control);
* with Dask TLS (``farm_tls_ca``/``farm_tls_cert``/``farm_tls_key``), a worker
  whose certificate subject is in ``farm_trusted_workers``.

Compiles are sent only to trusted workers. Plain TCP to a scheduler that is not
on this machine is refused unless ``farm_trusted = true``: anyone who reaches it
could join as a worker, and Dask's protocol unpickles what its peers send.
``farm_verify = "N%"`` compiles a random N % of the farm's kernels here too and
fails the kernel when the bytes differ.
"""
from __future__ import annotations

import ipaddress
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from .errors import UserError

_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


@dataclass(frozen=True)
class FarmSettings:
    trusted: bool = False  # farm_trusted: every worker's outputs are used
    trusted_workers: tuple = ()  # farm_trusted_workers: TLS certificate subjects ("CN=w1,O=Lab")
    tls_ca: str | None = None  # farm_tls_ca: the CA that signs the scheduler's and workers' certificates
    tls_cert: str | None = None  # farm_tls_cert: this client's certificate
    tls_key: str | None = None  # farm_tls_key: its private key
    verify: float = 0.0  # farm_verify: the share (0..1) of farm compiles also compiled here and compared

    @property
    def tls(self) -> bool:
        return self.tls_ca is not None

    def trusts(self, subject: str | None) -> bool:
        """Whether a worker with this certificate subject (None: no certificate) may supply outputs."""
        return self.trusted or (subject is not None and subject in self.trusted_workers)

    def sample(self) -> bool:
        """Whether this compile is checked here: unpredictable to the worker, so it cannot cheat
        only on the compiles that are not checked."""
        return self.verify > 0 and secrets.randbelow(10_000) < round(self.verify * 10_000)

    def how_to_trust(self) -> str:
        if self.tls:
            return "list their certificate subjects in farm_trusted_workers or set farm_trusted = true (docs/farm.md)"
        return ("set farm_tls_ca, farm_tls_cert and farm_tls_key (Dask TLS) and list the workers' certificate subjects in "
                "farm_trusted_workers, or set farm_trusted = true if everyone who can reach the scheduler may (docs/farm.md)")


def subject_text(peercert) -> str | None:
    """``ssl.getpeercert()['subject']`` (RDNs of (name, value) pairs) -> ``CN=w1,O=Lab``; None without one."""
    short = {"commonName": "CN", "organizationName": "O", "organizationalUnitName": "OU", "countryName": "C",
             "localityName": "L", "stateOrProvinceName": "ST", "emailAddress": "emailAddress"}
    try:
        rdns = (peercert or {}).get("subject") or ()
        parts = [f"{short.get(str(k), str(k))}={v}" for rdn in rdns for k, v in rdn]
    except (AttributeError, TypeError, ValueError):
        return None
    return ",".join(parts) or None


def is_loopback(executor: str) -> bool:
    host = executor.removeprefix("dask://").rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_farm_settings(table: dict, root: Path, pp) -> FarmSettings:
    """The farm_* keys of [tool.npubuild] and their NPUBUILD_FARM_* environment forms."""
    env = os.environ
    trusted = _flag(env.get("NPUBUILD_FARM_TRUSTED"), table.get("farm_trusted", False), "farm_trusted (NPUBUILD_FARM_TRUSTED)", pp)
    raw_workers = env.get("NPUBUILD_FARM_TRUSTED_WORKERS")
    workers = [w.strip() for w in raw_workers.split(";") if w.strip()] if raw_workers is not None \
        else table.get("farm_trusted_workers", [])
    if not isinstance(workers, list) or not all(isinstance(w, str) and w.strip() for w in workers):
        raise UserError(f"{pp}: farm_trusted_workers (NPUBUILD_FARM_TRUSTED_WORKERS, ';'-separated) must be a list of "
                        'certificate subjects such as ["CN=worker1,O=Lab"], got {workers!r}')
    paths = {}
    for name in ("ca", "cert", "key"):
        key = f"farm_tls_{name}"
        value = env.get(f"NPUBUILD_FARM_TLS_{name.upper()}") or table.get(key)
        if value is not None and (not isinstance(value, str) or not value or "\0" in value):
            raise UserError(f"{pp}: {key} (NPUBUILD_FARM_TLS_{name.upper()}) must be a path to a PEM file, got {value!r}")
        paths[name] = str((root / value).resolve()) if value else None
    given = [n for n, v in paths.items() if v]
    if given and len(given) != 3:
        missing = ", ".join(f"farm_tls_{n}" for n, v in paths.items() if not v)
        raise UserError(f"{pp}: Dask TLS needs farm_tls_ca, farm_tls_cert and farm_tls_key together; {missing} not set")
    for n, v in paths.items():
        if v and not Path(v).is_file():
            raise UserError(f"{pp}: farm_tls_{n}: no such file {v}")
    if workers and not given:
        raise UserError(f"{pp}: farm_trusted_workers names certificate subjects, so it needs Dask TLS: "
                        "set farm_tls_ca, farm_tls_cert and farm_tls_key")
    verify = _percent(env.get("NPUBUILD_FARM_VERIFY") or table.get("farm_verify", "0%"), pp)
    return FarmSettings(trusted, tuple(w.strip() for w in workers), paths["ca"], paths["cert"], paths["key"], verify)


def _flag(env_value, value, what: str, pp) -> bool:
    if env_value is not None:
        if env_value.strip().lower() not in _TRUE + _FALSE:
            raise UserError(f"{what} must be 1 or 0, got {env_value!r}")
        return env_value.strip().lower() in _TRUE
    if not isinstance(value, bool):
        raise UserError(f"{pp}: {what} must be true or false, got {value!r}")
    return value


def _percent(value, pp) -> float:
    text = value.strip() if isinstance(value, str) else None
    try:
        n = float(text.removesuffix("%")) if text and text.endswith("%") else None
    except ValueError:
        n = None
    if n is None or not 0 <= n <= 100:
        raise UserError(f'{pp}: farm_verify (NPUBUILD_FARM_VERIFY) must be a percentage such as "5%" (0% to 100%), got {value!r}')
    return n / 100
