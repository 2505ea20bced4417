"""Authenticated caches: what a build derived and kept to skip work next time.

A build keeps derived data (spec parses, the plan, toolchain fingerprints, the
nothing-changed stamp) so that it need not recompute it. Such a record is only
as good as whoever wrote it: one shipped with a copied folder, or edited by
hand, would make the build believe a spec says what it does not. So each
record is sealed with an HMAC-SHA256 under a secret of this user on this
machine, kept outside every project: ``$XDG_CACHE_HOME/npubuild/cache-secret``
(else ``~/.cache/npubuild/cache-secret``), 32 random bytes, created 0600 in a
0700 directory. A record whose tag does not check is a miss: the caller
recomputes it and writes it again. Without a usable secret (no writable cache
directory, a secret file someone else owns or can read) nothing is read from a
cache or written to one: builds are slower, never wrong.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import stat
import tempfile
from pathlib import Path

SECRET_NAME = "cache-secret"
_SECRET_BYTES = 32
_TAG_BYTES = 32
MAGIC = b"npb-sealed-1\n"
_memo: dict[str, bytes | None] = {}


def secret_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or ""
    # XDG: a relative $XDG_CACHE_HOME is invalid and must be ignored
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "npubuild" / SECRET_NAME


def _read_secret(path: Path) -> bytes | None:
    """The secret when ``path`` is a regular file of ours that nobody else can read; None when missing.
    ValueError when it is there but unusable."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except OSError as e:  # a symlink (ELOOP with O_NOFOLLOW), no permission ...
        raise ValueError(str(e)) from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        uid = os.getuid() if hasattr(os, "getuid") else st.st_uid  # no owners to compare on Windows
        if not stat.S_ISREG(st.st_mode) or st.st_uid != uid or st.st_mode & 0o077:
            raise ValueError("not a regular file of this user readable by this user alone")
        data = f.read(_SECRET_BYTES + 1)
    if len(data) != _SECRET_BYTES:
        raise ValueError("not a secret of this version")
    return data


def _create_secret(path: Path) -> None:
    """Write a new secret, whole or not at all: a second build creating one at the same time keeps the first."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".npb-tmp-{os.getpid()}-", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(os.urandom(_SECRET_BYTES))
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)  # never replaces a secret another build made in between
        except FileExistsError:
            pass
    finally:
        os.unlink(tmp)


def secret() -> bytes | None:
    """This user's cache secret on this machine, made on first use; None when there is none to be had."""
    try:
        path = secret_path()
    except (RuntimeError, KeyError):  # no home directory to be found
        return None
    key = str(path)
    if key not in _memo:
        try:
            value = _read_secret(path)
            if value is None:
                _create_secret(path)
                value = _read_secret(path)
        except (OSError, ValueError, RuntimeError):
            value = None
        _memo[key] = value
    return _memo[key]


def tag(data: bytes, context: str = "") -> bytes | None:
    s = secret()
    if s is None:
        return None
    return hmac.new(s, context.encode("utf-8", "surrogateescape") + b"\0" + data, hashlib.sha256).digest()


def seal(data: bytes, context: str = "") -> bytes | None:
    """``data`` with its tag in front, for a cache file; None when there is no secret (then write nothing).

    ``context``: what the entry is the answer to when that is not inside ``data`` (a parse cache entry's key,
    which is its file name): a sealed entry moved under another name does not check."""
    t = tag(data, context)
    return None if t is None else MAGIC + t + data


def unseal(blob: bytes, context: str = "") -> bytes | None:
    """What :func:`seal` sealed, when its tag checks under this machine's secret; None otherwise (a miss)."""
    if not blob.startswith(MAGIC) or len(blob) < len(MAGIC) + _TAG_BYTES:
        return None
    head = len(MAGIC) + _TAG_BYTES
    data = blob[head:]
    want = tag(data, context)
    if want is None or not hmac.compare_digest(want, blob[len(MAGIC):head]):
        return None
    return data
