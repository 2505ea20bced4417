"""Private copies of the binaries the runtime runs, made from the bytes it hashed.

``dlopen`` and XRT take a path, and whatever a path names can be replaced
between a hash and an open. So each binary is read once through one
descriptor, checked against the manifest's sha256 and size
(:func:`npubuild.artifacts.manifest.read_verified`), and those bytes are
written to a sealed memfd (Linux): a file that exists only in this process,
that nobody, this process included, can change once sealed, and that the
loaders open as ``/proc/self/fd/N``. Where memfds or ``/proc`` are missing the
copy goes to a file in a 0700 directory this process created. The loaders get
the copy's path; replacing the artifact afterwards changes nothing that runs.

Copies live as long as the process and are shared by its runtimes (one per
artifact path and sha256). A name must never come to mean other bytes: dlopen
hands back an already loaded library whose name matches without opening the
file again, so closing a memfd whose library is still mapped (a runtime
dropped without ``close()``) and reusing its number for another binary would
run the old code with the new kernel's buffer sizes.
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
from pathlib import Path, PurePosixPath

from ..artifacts.manifest import read_verified
from ..core.fsio import tmp_prefix

_LOCK = threading.Lock()
_COPIES: dict[tuple[str, str], Path] = {}  # (artifact-relative path, sha256) -> private copy
_FALLBACK_DIR: list[str] = []


class PinnedFiles:
    """The files of one artifact directory, each read, checked and copied on first use."""

    def __init__(self, artifacts: Path):
        self.artifacts = Path(artifacts)

    def read(self, rec: dict, what: str) -> bytes:
        """The file's bytes, checked against the manifest (for data parsed from memory: never a path)."""
        return read_verified(self.artifacts, rec, what)

    def path(self, rec: dict, what: str) -> Path:
        """A private copy of the file's checked bytes, for loaders that need a path."""
        k = (rec["path"], rec["sha256"])
        with _LOCK:
            if k not in _COPIES:
                _COPIES[k] = _copy(self.read(rec, what), PurePosixPath(rec["path"]).name)
            return _COPIES[k]


def _copy(data: bytes, name: str) -> Path:
    try:
        return _memfd(data, name)
    except (AttributeError, OSError):  # not Linux, no /proc, or sealing refused
        return _private_file(data, name)


def _memfd(data: bytes, name: str) -> Path:
    import fcntl

    fd = os.memfd_create(f"npubuild-{name}", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        _write_all(fd, data)
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_WRITE | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_SEAL)
        path = Path(f"/proc/self/fd/{fd}")
        if path.stat().st_size != len(data):
            raise OSError("/proc/self/fd does not show the memfd")
    except BaseException:
        os.close(fd)
        raise
    return path  # never closed: see the module docstring


def _private_file(data: bytes, name: str) -> Path:
    if not _FALLBACK_DIR:
        _FALLBACK_DIR.append(tempfile.mkdtemp(prefix=tmp_prefix("run")))  # mode 0700
        atexit.register(shutil.rmtree, _FALLBACK_DIR[0], True)
    path = Path(_FALLBACK_DIR[0]) / f"{len(_COPIES)}-{name}"  # a new name for every copy
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o600)
    try:
        _write_all(fd, data)
        os.fchmod(fd, 0o400)
    finally:
        os.close(fd)
    return path


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
