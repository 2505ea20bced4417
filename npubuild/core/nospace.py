"""A full disk is one line saying so, where, and what to do — not an OSError or sqlite3 traceback.

ENOSPC (and EDQUOT, a full quota) can come from any write: an artifact, a store entry, the manifest,
a bundle, or doit's own database (``.npubuild.doit.db``, sqlite3: "database or disk is full"). Every
write npubuild makes is atomic (fsio), so what a full disk interrupts is never left half-written; the
message only has to say which disk and how to make room. doit opens and saves its database outside any
task, where an exception becomes doit's traceback: :func:`guard_doit_database` makes a full disk there
the same one line and exit status 1.
"""
from __future__ import annotations

import errno
import os
import shutil
import sys
from pathlib import Path

_FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` says the disk (or the user's quota) is full."""
    if isinstance(exc, OSError):
        return exc.errno in _FULL_ERRNOS
    # sqlite3.OperationalError, and doit's DatabaseException wrapping it, carry only the text
    return type(exc).__name__ in ("OperationalError", "DatabaseException") and "disk is full" in str(exc)


def _free(path: Path) -> str:
    """How much is free on the filesystem holding ``path`` (its nearest existing ancestor)."""
    p = path.absolute()
    while not p.exists() and p != p.parent:
        p = p.parent
    try:
        free = shutil.disk_usage(p).free
    except OSError:
        return "?"
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if free < 1024 or unit == "TiB":
            return f"{free:.0f} {unit}" if unit == "bytes" else f"{free:.1f} {unit}"
        free /= 1024
    return "?"


BUILD_ADVICE = ("make room on that disk (`npubuild gc --max-size SIZE` trims the store) or point NPUBUILD_ARTIFACTS / "
                "NPUBUILD_STORE at another one, then run again")


def disk_full_message(exc: BaseException, path=None, doing: str | None = None, advice: str = BUILD_ADVICE) -> str:
    """One line: the disk is full, while writing what (``path``, else the exception's file name), how much
    is free there, and what to do (``advice``)."""
    path = path or (exc.filename if isinstance(exc, OSError) and exc.filename else None)
    where = Path(os.fsdecode(path)) if path is not None else Path.cwd()
    what = doing or (f"cannot write {where}" if path is not None else "a write failed")
    return f"the disk is full: {what} ({_free(where)} free there); {advice}"


def guard_doit(db_file: Path) -> None:
    """Make a full disk while doit opens or saves its sqlite3 database (``db_file``), or while it loads the
    tasks (the task creators write caches: spec parses, the plan, toolchain fingerprints), one line on stderr
    and exit status 1: doit reports any exception there as a traceback. Applied once per process."""
    from doit import dependency, loader

    cls = dependency.SqliteDB
    if getattr(cls, "_npubuild_guarded", False):
        return
    opened, dumped, load_tasks = cls.__init__, cls.dump, loader.load_tasks

    def fail(e: BaseException, doing: str | None, path=None, advice: str = "make room on that disk, then run again"):
        if not is_disk_full(e):
            raise e
        sys.stderr.write(f"npubuild: {disk_full_message(e, path, doing, advice)}\n")
        raise SystemExit(1) from None

    def __init__(self, *args, **kwargs):
        try:
            opened(self, *args, **kwargs)
        except Exception as e:  # noqa: BLE001 - only a full disk is turned into a message
            fail(e, f"cannot open doit's database {db_file}", db_file)

    def dump(self):
        try:
            dumped(self)
        except Exception as e:  # noqa: BLE001 - only a full disk is turned into a message
            fail(e, f"cannot save doit's database {db_file}; what was built is in place, but this run's results are "
                    "not recorded", db_file)

    def guarded_load_tasks(*args, **kwargs):
        try:
            return load_tasks(*args, **kwargs)
        except OSError as e:
            fail(e, None, advice=BUILD_ADVICE)

    cls.__init__, cls.dump, cls._npubuild_guarded = __init__, dump, True
    loader.load_tasks = guarded_load_tasks  # doit's command looks it up on the module at each call
