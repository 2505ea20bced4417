"""Warnings and refusals from build workers, printed once by the build report.

Actions run in doit worker processes, so what the report must say is left as
small marker files under the local store: ``tmp/unreachable/<hash of the URL>``
(one per unusable store: its warning line; the other workers see it and skip
that store at once) and ``tmp/refused/<hash of URL and key>`` (an entry that was
found but not used, or outputs the local store could not take). The reporter clears them when a build starts and prints
and removes them when it ends.
"""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from ...core.fsio import atomic_write_text, inside, read_regular

UNREACHABLE, REFUSED = "unreachable", "refused"
MAX_REFUSED_LINES = 5
LINE_LIMIT = 64 << 10  # one marker holds one line


def _dir(store_root, kind: str) -> Path:
    """ValueError when a symlink in a copied store would lead it outside (markers are written and removed there)."""
    return inside(Path(store_root), "tmp", kind)


def _name(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def unreachable_line(display: str, reason: str) -> str:
    return f"npubuild: store {display} unreachable ({reason}); building without it"


def _write(store_root, kind: str, name: str, line: str) -> None:
    try:
        atomic_write_text(_dir(store_root, kind) / name, line + "\n")
    except (OSError, ValueError):
        pass  # the warning is lost, the build goes on


def record_unreachable(store_root, url: str, display: str, reason: str) -> None:
    _write(store_root, UNREACHABLE, _name(url), unreachable_line(display, reason))


def is_down(store_root, url: str) -> bool:
    """Whether a worker of this build already found ``url`` unusable."""
    try:
        return (_dir(store_root, UNREACHABLE) / _name(url)).is_file()
    except ValueError:
        return False


def record(store_root, url: str, key: str, line: str) -> None:
    """A report line about ``key`` in store ``url`` (an entry not used, outputs not stored).
    Workers that find the same problem leave one marker; different problems with one key keep theirs."""
    _write(store_root, REFUSED, _name(url, key, line), line)


def _take(store_root, kind: str) -> list[str]:
    lines = []
    try:
        d = _dir(store_root, kind)
        files = sorted(p for p in d.iterdir() if p.is_file() and not p.name.startswith("."))
    except (OSError, ValueError):
        return []
    for p in files:
        try:
            lines.append(read_regular(p, LINE_LIMIT, roots=[d]).decode("utf-8", "replace").strip())
            p.unlink()
        except (OSError, ValueError):
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
        try:
            shutil.rmtree(_dir(store_root, kind), ignore_errors=True)
        except ValueError:
            pass
