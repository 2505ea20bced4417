"""Putting an unpacked bundle in place, and cleaning up after killed packs and unpacks.

A bundle is extracted and verified in a temporary directory beside its
destination; this module then makes it the destination. A new or empty
destination is replaced by one rename. A non-empty one (``--force``) gets a
complete new tree first — the bundle's files plus hard links to everything of
the old tree that the bundle does not replace — and the two trees are swapped
with ``renameat2(RENAME_EXCHANGE)``, so that a reader, or a process killed at
any moment, sees the old complete tree or the new one, never a mix. Where the
kernel or filesystem lacks that call, two renames are used and the window in
between (destination missing) is repaired by the next run's sweep.
"""
from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from pathlib import Path

from ..core.fsio import sweep_beside, tmp_prefix  # noqa: F401 - sweep_beside: for callers of this module
from .bundle_stream import BundleError
from .manifest import MANIFEST

def empty_dir(d: Path) -> bool:
    with os.scandir(d) as it:
        return next(it, None) is None


def check_targets(dest: Path, files: dict, force: bool) -> None:
    """With --force into a non-empty ``dest``: every target can be placed without following a link."""
    if not dest.exists() or empty_dir(dest):
        return
    if not force:
        raise BundleError(f"{dest} is not empty; use --force to replace the files the bundle names")
    for rel in [*sorted(files), MANIFEST]:
        parts = rel.split("/")
        p = dest
        for i, part in enumerate(parts):
            p = p / part
            last = i == len(parts) - 1
            if p.is_symlink():
                if last:
                    continue  # the link itself is replaced by the new file, never written through
                raise BundleError(f"{p} is a symbolic link; refusing to write {rel} through it")
            if p.exists() and (p.is_dir() if last else not p.is_dir()):
                raise BundleError(f"{p} is {'a directory' if last else 'not a directory'}; cannot place {rel} there")


def set_dir_modes(tmp: Path) -> None:
    mode = 0o777 & ~_umask()
    os.chmod(tmp, mode)
    for d, subdirs, _ in os.walk(tmp):
        for s in subdirs:
            os.chmod(os.path.join(d, s), mode)


def carry_over(old: Path, new: Path, files: dict) -> None:
    """Hard-link into ``new`` everything in ``old`` that the bundle does not replace (copy where links are
    refused), directories with their modes, so that swapping the trees keeps it."""
    replaced = {*files, MANIFEST}
    modes = [(new, stat.S_IMODE(old.stat().st_mode))]
    todo = [""]
    while todo:
        rel = todo.pop()
        with os.scandir(old / rel) as it:
            for e in it:
                r = f"{rel}/{e.name}" if rel else e.name
                if e.is_dir(follow_symlinks=False):
                    (new / r).mkdir(exist_ok=True)
                    modes.append((new / r, stat.S_IMODE(e.stat(follow_symlinks=False).st_mode)))
                    todo.append(r)
                elif r not in replaced:
                    try:
                        os.link(e.path, new / r, follow_symlinks=False)
                    except OSError:
                        shutil.copy2(e.path, new / r, follow_symlinks=False)
    for d, mode in modes:  # only now: a directory that is read-only in the old tree must be filled in the new one first
        os.chmod(d, mode)


def install(tmp: Path, dest: Path, files: dict, force: bool) -> None:
    if not dest.exists() or empty_dir(dest):
        try:
            os.rename(tmp, dest)  # a new or empty directory: one atomic rename
            return
        except OSError:
            if not dest.is_dir() or empty_dir(dest):
                raise
            check_targets(dest, files, force)  # it filled up meanwhile
            carry_over(dest, tmp, files)
    _swap(tmp, dest)


def _swap(new: Path, dest: Path) -> None:
    """Put the tree ``new`` at ``dest`` so that ``dest`` is the old tree or the new one at every instant;
    the old tree is left at ``new`` for the caller to remove (or removed here)."""
    if _exchange(new, dest):
        return
    # two renames: ``dest`` is missing in between, and if we die there the sweep of a later run puts the
    # old tree back (the name it is moved to says where it came from)
    old = Path(tempfile.mkdtemp(prefix=f"{tmp_prefix('old')}{dest.name}-", dir=dest.parent))
    os.rename(dest, old)
    try:
        os.rename(new, dest)
    except OSError:
        os.rename(old, dest)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directories in one step (Linux renameat2 RENAME_EXCHANGE); False where that is not available."""
    try:
        import ctypes

        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (ImportError, OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False  # an old kernel, or a filesystem without it
    raise OSError(err, os.strerror(err), str(b))


def _umask() -> int:
    m = os.umask(0o022)
    os.umask(m)
    return m
