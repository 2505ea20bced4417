"""Warnings and refusals from build workers, printed once by the build report.

Actions run in doit worker processes, so what the report must say is left as
small marker files under the local store: ``tmp/unreachable/<hash of the URL>``
(one per unusable store: its warning line; the other workers see it and skip
that store at once) and ``tmp/refused/<hash of URL and key>`` (an entry that was
found but not used). The reporter clears them when a build starts and prints
and removes them when it ends.
"""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from ...fsio import atomic_write_text

UNREACHABLE, REFUSED = "unreachable", "refused"
MAX_REFUSED_LINES = 5


def _dir(store_root, kind: str) -> Path:
    return Path(store_root) / "tmp" / kind


def _name(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def unreachable_line(display: str, reason: str) -> str:
    return f"npubuild: store {display} unreachable ({reason}); building without it"


def record_unreachable(store_root, url: str, display: str, reason: str) -> None:
    try:
        atomic_write_text(_dir(store_root, UNREACHABLE) / _name(url), unreachable_line(display, reason) + "\n")
    except OSError:
        pass  # the warning is lost, the build goes on


def is_down(store_root, url: str) -> bool:
    """Whether a worker of this build already found ``url`` unusable."""
    return (_dir(store_root, UNREACHABLE) / _name(url)).is_file()


def record_refused(store_root, url: str, key: str, reason: str) -> None:
    try:
        atomic_write_text(_dir(store_root, REFUSED) / _name(url, key), f"npubuild: {reason}; not used\n")
    except OSError:
        pass


def _take(store_root, kind: str) -> list[str]:
    d = _dir(store_root, kind)
    lines = []
    try:
        files = sorted(p for p in d.iterdir() if p.is_file() and not p.name.startswith("."))
    except OSError:
        return []
    for p in files:
        try:
            lines.append(p.read_text().strip())
            p.unlink()
        except OSError:
            pass
    return sorted(set(filter(None, lines)))


def take_notices(store_root) -> list[str]:
    """The report lines of this build (each unusable store once, then refused entries) and forget them."""
    lines = _take(store_root, UNREACHABLE)
    refused = _take(store_root, REFUSED)
    lines += refused[:MAX_REFUSED_LINES]
    if len(refused) > MAX_REFUSED_LINES:
        more = len(refused) - MAX_REFUSED_LINES
        lines.append(f"npubuild: ... and {more} more store entr{'y' if more == 1 else 'ies'} not used")
    return lines


def clear_notices(store_root) -> None:
    """Forget the markers of an earlier build that did not finish."""
    for kind in (UNREACHABLE, REFUSED):
        shutil.rmtree(_dir(store_root, kind), ignore_errors=True)
