"""Temporary files (``.npb-tmp-<pid>-...``) of a killed pack, unpack or build are swept by the next run
that looks there — also when that run is another command (a build after a killed unpack into the
artifacts) or a no-op build — and never those of a writer that still runs."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from npubuild.core.fsio import TMP_PREFIX

# SIGKILL the process at its N-th call that changes the filesystem: every point a kill can land on, in turn
KILL_AT = """\
import os, runpy, signal, sys
n, module, args = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
count = [0]
def hook(fn):
    def call(*a, **k):
        count[0] += 1
        if count[0] == n:
            os.kill(os.getpid(), signal.SIGKILL)
        return fn(*a, **k)
    return call
for name in ("write", "rename", "replace", "link", "mkdir", "unlink", "rmdir", "fsync", "chmod"):
    setattr(os, name, hook(getattr(os, name)))
sys.argv = [module, *args]
runpy.run_module(module, run_name="__main__", alter_sys=True)
"""


def _temps(*roots) -> list[str]:
    return sorted(os.path.join(d, n) for r in roots for d, dirs, files in os.walk(r) for n in dirs + files if n.startswith(TMP_PREFIX))


@pytest.fixture
def built(project, tmp_path):
    p = project("kernels:\n  r:\n    op: relu\n    shapes:\n      - [4]\n      - [8]\n")
    p.doit("build")
    (tmp_path / "killat.py").write_text(KILL_AT)
    p.killat = lambda n, module, *args: subprocess.run([sys.executable, str(tmp_path / "killat.py"), str(n), module, *args],
                                                       cwd=p.root, capture_output=True, text=True).returncode
    return p


def _kill_points(p, module, *args, reset=lambda: None, limit=400):
    """Run the command killed at its 1st, 2nd, ... filesystem call, yielding after each kill, until it ends by itself."""
    for n in range(1, limit):
        reset()
        rc = p.killat(n, module, *args)
        if rc != -9:
            assert rc == 0, (module, args, n, rc)
            return
        yield n
    raise AssertionError(f"{module} {args} did not finish within {limit} calls")


def test_a_killed_pack_is_swept_by_the_next_unpack_of_its_bundle_and_by_a_pack_elsewhere(built, tmp_path):
    p, out = built, tmp_path / "out"
    out.mkdir()
    p.npubuild("pack", "-o", str(tmp_path / "good.tar.zst"))
    kills = 0
    for _ in _kill_points(p, "npubuild.cli", "pack", "-o", str(out / "b.tar.zst")):
        kills += 1
        shutil.rmtree(tmp_path / "dest", ignore_errors=True)
        # the next run reads a bundle from that directory: it sweeps the killed pack's temp there
        p.npubuild("unpack", str(out / "b.tar.zst") if (out / "b.tar.zst").exists() else str(tmp_path / "good.tar.zst"),
                   "-C", str(tmp_path / "dest"))
        if (out / "b.tar.zst").exists():
            assert _temps(out) == [], _temps(out)
        p.npubuild("pack", "-o", str(out / "b.tar.zst"))
        assert _temps(tmp_path) == []
    assert kills >= 3


def test_a_killed_unpack_into_the_artifacts_is_swept_by_the_next_build(built, tmp_path):
    p = built
    p.npubuild("pack", "-o", str(tmp_path / "b.tar.zst"))
    kills = 0
    for i, _ in enumerate(_kill_points(p, "npubuild.cli", "unpack", str(tmp_path / "b.tar.zst"), "-C", "artifacts", "--force")):
        if i % 6:
            continue  # every 6th point: each costs a build and a verify
        kills += 1
        p.doit("build")  # not an unpack: the build sweeps beside its artifacts too
        assert _temps(p.root) == [], _temps(p.root)
        assert p.npubuild("verify").rc == 0
    assert kills >= 5


def test_a_build_killed_anywhere_leaves_nothing_after_the_next_no_op_build(built):
    p = built
    kills = 0
    for i, n in enumerate(_kill_points(p, "doit", "build", reset=lambda: shutil.rmtree(p.artifacts / "kernels", ignore_errors=True))):
        if i % 8:
            continue  # every 8th point: each kill costs two builds
        kills += 1
        r = p.doit("build")
        r = p.doit("build")  # a no-op now
        assert _temps(p.root) == [], (n, _temps(p.root))
    assert kills >= 3


def test_a_build_next_to_a_live_writer_keeps_its_temp_and_records_no_stamp(built):
    p = built
    writer = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    try:
        kdir = next((p.artifacts / "kernels").iterdir()) / "host"
        live = kdir / f"{TMP_PREFIX}{writer.pid}-x"
        live.write_bytes(b"half")
        p.write("specs/kernels/more.yaml", "kernels:\n  s:\n    op: neg\n    shapes:\n      - [4]\n")
        p.doit("build")  # does work while the other writer runs
        assert live.exists()  # never a live writer's
        assert not (p.root / ".npubuild.noop-stamp").exists()
    finally:
        writer.kill()
        writer.wait()
    r = p.doit("build")  # the writer was killed: this run (not a no-op, there is no stamp) sweeps
    assert "nothing changed since the last build" not in r.out
    assert not live.exists() and _temps(p.root) == []
    assert "nothing changed since the last build" in p.doit("build").out
