"""Crash-safe file writes and hashing.

Every output is written to a temporary name in the same directory, fsynced and
renamed into place, so an interrupted build never leaves a half-written file
that looks finished. Temporary names carry the writing process's id
(``.npb-tmp-<pid>-...``): :func:`sweep_stale_temps` removes those of
processes that no longer exist (a build killed with SIGKILL) and never those
of a build still running next to this one.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import shutil
import stat
import tempfile
from pathlib import Path

TMP_PREFIX = ".npb-tmp-"
# temp files of a process still alive are left alone unless they are this old (a wedged writer)
STALE_AFTER = 24 * 3600


def tmp_prefix(kind: str = "") -> str:
    """The prefix of this process's temporary names (``kind`` tells what they are)."""
    return f"{TMP_PREFIX}{os.getpid()}-{kind + '-' if kind else ''}"


def _pid_of(name: str) -> int | None:
    rest = name[len(TMP_PREFIX):]
    head = rest.split("-", 1)[0]
    return int(head) if head.isdigit() else None


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, killed but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError, ValueError):
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
        return state not in (b"Z", b"X")
    except (OSError, IndexError):
        return True


def writer_alive(name: str) -> bool:
    """Whether the process whose id a temporary name carries (``.npb-tmp-<pid>-...``) still runs."""
    pid = _pid_of(name) if name.startswith(TMP_PREFIX) else None
    return pid is not None and _alive(pid)


def is_stale_temp(path: Path, now: float) -> bool:
    """A temporary file or directory of a writer that is gone (or that has been at it for a day)."""
    try:
        if now - path.lstat().st_mtime > STALE_AFTER:
            return True
    except OSError:
        return False
    return not writer_alive(path.name)


def sweep_stale_temps(*roots: Path) -> int:
    """Remove temporary files and directories left by dead writers under ``roots``; returns how many."""
    return _sweep(roots)[0]


def sweep_and_count_live(*roots: Path) -> int:
    """Sweep as :func:`sweep_stale_temps` does; returns how many temporaries of live writers remain. A build
    that ends while another still writes must not record a nothing-changed stamp: should that writer be
    killed, only a full run's sweep (which the stamp would skip) removes what it left."""
    return _sweep(roots)[1]


def _sweep(roots) -> tuple[int, int]:
    import time

    now = time.time()
    removed = kept = 0
    for root in roots:
        root = Path(root)
        if not root.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            for name in [*filenames, *dirnames]:
                if not name.startswith(TMP_PREFIX):
                    continue
                path = Path(dirpath) / name
                if not is_stale_temp(path, now):
                    kept += 1
                    continue
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    path.unlink(missing_ok=True)
                removed += 1
            dirnames[:] = [d for d in dirnames if not d.startswith(TMP_PREFIX)]
    return removed, kept


# what the temporary names of bundle packs and unpacks (npubuild.artifacts.bundle_install) say after the pid
BUNDLE_KINDS = ("pack", "unpack", "old")


def _left_by(name: str) -> str | None:
    """The kind of a temporary name a bundle pack or unpack made (``.npb-tmp-<pid>-<kind>-...``), or None."""
    if not name.startswith(TMP_PREFIX):
        return None
    kind = name[len(TMP_PREFIX) :].partition("-")[2].partition("-")[0]
    return kind if kind in BUNDLE_KINDS else None


def _moved_aside_from(parent: Path, name: str) -> Path | None:
    """The directory that a swap killed between its two renames left missing, for the old tree it had moved aside."""
    if _left_by(name) != "old":
        return None
    home = parent / name.partition("-old-")[2].rpartition("-")[0]
    return home if home.name and not os.path.lexists(home) else None


def sweep_beside(parent: Path, every: bool = False) -> None:
    """Remove the temporaries that killed packs and unpacks left in ``parent``, and put back a tree a killed swap
    had moved aside. Only ``parent`` itself is looked at, not below it: it may be any directory (a project's
    no-op build looks at its root this way too: a listing, cheap enough for the fast path). ``every``: any
    stale temporary there, not only a bundle's (for a project's own directories)."""
    parent = Path(parent)
    try:
        names = os.listdir(parent)
    except OSError:
        return
    import time

    now = time.time()
    for name in names:
        path = parent / name
        if not (_left_by(name) or (every and name.startswith(TMP_PREFIX))) or not is_stale_temp(path, now):
            continue
        home = _moved_aside_from(parent, name)
        is_tree = path.is_dir() and not path.is_symlink()
        try:
            if home is not None and is_tree:
                os.rename(path, home)
            elif is_tree:
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        except OSError:
            pass  # someone else's to clean up (another user's, or being removed right now)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _tmp_for(path: Path, kind: str = ""):
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=tmp_prefix(kind), dir=path.parent)
    return fd, Path(tmp)


@contextlib.contextmanager
def atomic_writer(path: Path, mode: int = 0o644, kind: str = ""):
    """A binary file object whose contents appear at ``path`` only when the block
    ends without an exception (written to a temporary name beside it, fsynced,
    renamed over it); on any exception nothing is left behind."""
    fd, tmp = _tmp_for(Path(path), kind)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        if e.filename is None and e.errno in (errno.ENOSPC, errno.EDQUOT):  # a write to an fd names no file: say which
            raise OSError(e.errno, e.strerror, str(path)) from None
        raise
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_bytes(path: Path, data: bytes, mode: int = 0o644) -> None:
    with atomic_writer(path, mode) as f:
        f.write(data)


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


# ---- paths from names, and reading files someone else may have made ----------------------------------------------


def inside(root: Path, *parts: str) -> Path:
    """``root/parts...`` for names that came from a spec, a manifest or a store entry.

    Each part must be one plain path component (not empty, ``.`` or ``..``, no
    ``/``, ``\\`` or NUL), and the result must not resolve outside ``root``
    (a symlink inside root that points out is refused too). ValueError otherwise:
    callers turn it into a message naming where the name came from.
    """
    for part in parts:
        if not isinstance(part, str) or part in ("", ".", "..") or any(c in part for c in "/\\\0"):
            raise ValueError(f"{part!r} is not a plain file or directory name")
    path = Path(root).joinpath(*parts)
    real_root = Path(root).resolve()
    if not path.resolve().is_relative_to(real_root):
        raise ValueError(f"{'/'.join(parts)!r} resolves outside {root}")
    return path


def within_roots(path: Path, roots) -> bool:
    """Whether ``path`` (symlinks followed) is inside one of ``roots``."""
    # os.path.realpath, not Path.resolve: on a symlink loop resolve raises RuntimeError; realpath gives the
    # path where the loop was found (inside or not, like any other), and opening it then fails with ELOOP
    real = Path(os.path.realpath(path))
    return any(real.is_relative_to(os.path.realpath(r)) for r in roots)


def open_regular(path: Path):
    """``path`` opened for binary reading when it is a regular file; ValueError for a
    FIFO, socket, device or directory. Opened non-blocking (a FIFO would block the
    open itself), then checked by fstat on the very descriptor that is read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("is not a regular file (a directory, FIFO, socket or device)")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


class TooLarge(ValueError):
    """A file over the size its reader allows."""


def read_regular(path: Path, max_size: int, roots=None, prefix: int | None = None) -> bytes:
    """The bytes of a regular file of at most ``max_size`` bytes, never blocking
    (only its first ``prefix`` bytes when given, e.g. a header).

    Refuses (ValueError, saying why) a path outside ``roots`` (when given; symlinks
    followed), a directory, FIFO, socket or device, and a file over ``max_size``,
    all before reading a byte: a FIFO is opened non-blocking and checked by fstat
    on the descriptor that is read, so swapping the file in between does not help.
    """
    path = Path(path)
    if "\0" in str(path):
        raise ValueError("the path holds a NUL byte")
    if roots is not None and not within_roots(path, roots):
        raise ValueError(f"{path} is outside the project (and any data_dirs); copy it in or list its directory in data_dirs")
    try:
        f = open_regular(path)
    except IsADirectoryError:
        raise ValueError(f"{path} is a directory, not a file") from None
    except ValueError as e:
        raise ValueError(f"{path} {e}") from None
    with f:
        size = os.fstat(f.fileno()).st_size
        if size > max_size:
            raise TooLarge(f"{path} is {size} bytes, over the limit of {max_size}")
        if prefix is not None:
            return f.read(prefix)
        data = f.read(max_size + 1)
    if len(data) > max_size:  # grew after the fstat
        raise TooLarge(f"{path} is over the limit of {max_size} bytes")
    return data
