"""Crash-safe file writes and hashing.

Every output is written to a temporary name in the same directory, fsynced and
renamed into place, so an interrupted build never leaves a half-written file
that looks finished.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

TMP_PREFIX = ".npb-tmp-"


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _tmp_for(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, dir=path.parent)
    return fd, Path(tmp)


def atomic_write_bytes(path: Path, data: bytes, mode: int = 0o644) -> None:
    fd, tmp = _tmp_for(path)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_copy(src: Path, dst: Path, mode: int | None = None) -> None:
    fd, tmp = _tmp_for(dst)
    try:
        with os.fdopen(fd, "wb") as f, open(src, "rb") as s:
            shutil.copyfileobj(s, f, 1 << 20)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode if mode is not None else (os.stat(src).st_mode & 0o777))
        os.replace(tmp, dst)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_if_changed(path: Path, content: str | bytes) -> bool:
    """Write ``content`` unless the file already holds exactly it; True when written."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    atomic_write_bytes(path, data)
    return True
