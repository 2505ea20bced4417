"""A full disk is one line naming the disk and what to do, for `doit build`, `npubuild build`, pack and unpack:
never an OSError or sqlite3.OperationalError traceback. Real ENOSPC on a small tmpfs where this machine lets
the tests mount one (root), and the same paths with the error injected everywhere else."""
from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from doit import dependency
from doit.exceptions import TaskFailed

from npubuild.artifacts import bundle
from npubuild.engine.actions import user_errors_fail
from npubuild.core.errors import UserError
from npubuild.core.nospace import disk_full_message, guard_doit, is_disk_full

ONE_LINE = "the disk is full: "


def test_what_counts_as_a_full_disk():
    assert is_disk_full(OSError(errno.ENOSPC, "No space left on device"))
    assert is_disk_full(OSError(errno.EDQUOT, "Disk quota exceeded"))
    assert is_disk_full(sqlite3.OperationalError("database or disk is full"))
    assert not is_disk_full(OSError(errno.EACCES, "Permission denied"))
    assert not is_disk_full(sqlite3.OperationalError("no such table: doit"))
    msg = disk_full_message(OSError(errno.ENOSPC, "No space left on device", "/nowhere/x/y.so"))
    assert msg.startswith("the disk is full: cannot write /nowhere/x/y.so (") and "free there); make room" in msg


def test_an_action_on_a_full_disk_fails_its_task_with_one_line(tmp_path):
    @user_errors_fail
    def action():
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "kernel.so"))

    r = action()
    assert isinstance(r, TaskFailed) and str(r.message).startswith(f"{ONE_LINE}cannot write {tmp_path / 'kernel.so'}")

    @user_errors_fail
    def other():
        raise OSError(errno.EACCES, "Permission denied")

    with pytest.raises(PermissionError):
        other()  # not a full disk: doit reports it as it is


def test_doits_database_on_a_full_disk_is_one_line_and_exit_1(tmp_path, monkeypatch, capsys):
    guard_doit(Path(".npubuild.doit.db"))
    real = dependency.SqliteDB._sqlite3

    def full(self, name):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(dependency.SqliteDB, "_sqlite3", full)
    with pytest.raises(SystemExit) as e:
        dependency.SqliteDB(str(tmp_path / "db"), codec=dependency.JSONCodec())
    assert e.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith(f"npubuild: {ONE_LINE}cannot open doit's database .npubuild.doit.db (") and err.count("\n") == 1
    monkeypatch.setattr(dependency.SqliteDB, "_sqlite3", real)
    db = dependency.SqliteDB(str(tmp_path / "db"), codec=dependency.JSONCodec())
    db.set("t", "k", "v")
    monkeypatch.setattr(db, "_conn", _FullConnection(db._conn))
    with pytest.raises(SystemExit):
        db.dump()
    assert "cannot save doit's database" in capsys.readouterr().err
    monkeypatch.setattr(dependency.SqliteDB, "_sqlite3", lambda self, name: (_ for _ in ()).throw(sqlite3.OperationalError("no such table")))
    with pytest.raises(sqlite3.OperationalError):  # anything else is doit's to report
        dependency.SqliteDB(str(tmp_path / "db2"), codec=dependency.JSONCodec())


class _FullConnection:
    def __init__(self, conn):
        self.conn = conn

    def execute(self, *a):
        raise sqlite3.OperationalError("database or disk is full")

    def __getattr__(self, name):
        return getattr(self.conn, name)


def test_pack_and_unpack_on_a_full_disk_are_one_line(project, tmp_path, monkeypatch):
    p = project("kernels:\n  r:\n    op: relu\n    shapes:\n      - [4]\n")
    p.doit("build")
    good = bundle.pack(p.artifacts, tmp_path / "good.tar.zst").path

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(bundle, "_write_member", full)
    with pytest.raises(UserError) as e:
        bundle.unpack(good, tmp_path / "dest", max_size=1 << 30, trusted={}, required=False)
    assert f"{ONE_LINE}cannot extract it into {tmp_path} (" in str(e.value) and "unpack elsewhere (-C)" in str(e.value)
    assert not (tmp_path / "dest").exists()
    monkeypatch.setattr(bundle.tarfile.TarFile, "addfile", full)
    with pytest.raises(UserError) as e:
        bundle.pack(p.artifacts, tmp_path / "b.tar.zst")
    assert str(e.value).startswith(f"{ONE_LINE}cannot write {tmp_path / 'b.tar.zst'} (") and "(-o)" in str(e.value)
    assert sorted(os.listdir(tmp_path)) == sorted(["good.tar.zst", "proj"])


# ---- a real full disk -------------------------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MiB tmpfs (needs root: mount); the tests fill it to leave a chosen number of bytes free."""
    d = tmp_path / "small"
    d.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(d)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({r.stderr.strip() or r.returncode}); the injected cases cover it")
    try:
        yield d
    finally:
        subprocess.run(["umount", "-l", str(d)], capture_output=True)


def _fill(d: Path, keep: int) -> None:
    st = os.statvfs(d)
    with open(d / "filler", "wb") as f:
        f.write(b"\0" * max(0, st.f_bavail * st.f_frsize - keep))


def _run(root: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=root, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("keep", [0, 16 << 10, 64 << 10, 160 << 10])
@pytest.mark.parametrize("command", [("doit", "build"), ("npubuild.cli", "build")])
def test_a_build_on_a_full_disk_says_so_in_one_line(small_disk, keep, command):
    from .conftest import new_project

    p = new_project(small_disk / "proj", "kernels:\n  r:\n    op: relu\n    shapes:\n      - [4]\n      - [8]\n")
    _fill(small_disk, keep)
    r = _run(p.root, *command)
    text = r.stdout + r.stderr
    assert "Traceback" not in text and "OperationalError" not in text, text[-3000:]
    if r.returncode != 0:  # with the most room the build may fit
        # 1 when doit's own database could not be saved; 2 when a task failed (a compile whose tool ran out of space)
        assert r.returncode in (1, 2) and ONE_LINE in text, text[-3000:]
        lines = [ln for ln in text.splitlines() if ONE_LINE in ln]
        assert all("make room on that disk" in ln for ln in lines)
    (small_disk / "filler").unlink()
    assert _run(p.root, "doit", "build").returncode == 0  # with room again, the next build completes
    assert _run(p.root, "npubuild.cli", "verify").returncode == 0


def test_pack_and_unpack_onto_a_full_disk(small_disk, project, tmp_path):
    p = project("kernels:\n  r:\n    op: relu\n    shapes:\n      - [4]\n")
    p.doit("build")
    good = tmp_path / "good.tar.zst"
    assert p.npubuild("pack", "-o", str(good)).rc == 0
    _fill(small_disk, 0)
    r = p.npubuild("pack", "-o", str(small_disk / "b.tar.zst"), check=False)
    assert r.rc == 1 and r.err.startswith(f"npubuild: {ONE_LINE}cannot write {small_disk / 'b.tar.zst'}") and "Traceback" not in r.err
    r = p.npubuild("unpack", str(good), "-C", str(small_disk / "dest"), check=False)
    assert r.rc == 1 and f"{ONE_LINE}cannot extract it into {small_disk}" in r.err and "Traceback" not in r.err
    assert sorted(os.listdir(small_disk)) == ["filler"]  # nothing half-written, no temporaries


def test_a_tool_that_ran_out_of_space_is_a_full_disk_not_a_compile_error(tmp_path):
    """ld (or aiecc, Peano) failing with ENOSPC's text: the one disk-full line, not the tool's log tail
    (when every core compiles at once, the tools are often the first to meet a full disk)."""
    from npubuild.engine.actions import user_errors_fail
    from npubuild.toolchain.tool_run import failure

    log = ["$ /usr/bin/cc -shared -o kernel.so kernel.o", "/usr/bin/ld: final link failed: No space left on device", "[exit 1]"]
    e = failure(log, tmp_path / "build.log", "host compile of kernel.so", tmp_path / "kernel.so")
    assert is_disk_full(e)

    @user_errors_fail
    def compile_():
        raise e

    r = compile_()
    assert isinstance(r, TaskFailed) and str(r.message).startswith(f"{ONE_LINE}cannot write {tmp_path / 'kernel.so'} (")
    other = failure(["error: unknown op"], tmp_path / "build.log", "host compile of kernel.so")
    assert not is_disk_full(other) and "unknown op" in str(other)
