"""Build behaviour with the real doit, upstream MLIR and the system C compiler."""
from __future__ import annotations

import json
import os
import shutil
import stat

import numpy as np
import pytest

from .conftest import Project, new_project

KERNELS = """\
kernels:
  relu:
    op: relu
    dtype: f32
    shapes:
      - [64]
      - [8, 32]
  add:
    op: add
    dtype: f32
    shapes:
      - {a: [8, 32], b: [32]}
  soft:
    op: gelu
    dtype: f32
    attrs: {approximate: tanh}
    targets: [ref, xdna, ane]    # xdna: emitted, not compiled here; ane: no emitter yet
    shapes:
      - [16]
"""

GRAPHS = """\
graphs:
  chain:
    inputs:
      x: {shape: [8, 32], dtype: f32}
    params:
      b: {shape: [32], dtype: f32}
    constants:
      c: {value: [2.0], dtype: f32}
    nodes:
      s: {op: add, inputs: [x, b]}
      m: {op: mul, inputs: [s, c]}
      y: {op: relu, inputs: [m]}
    outputs: [y]
"""


@pytest.fixture(scope="module")
def _built_once(tmp_path_factory):
    """KERNELS and GRAPHS after one `doit build`, made once per module and kept as a template."""
    base = tmp_path_factory.mktemp("built_once")
    p = new_project(base / "proj", KERNELS, GRAPHS)
    p.doit("build")
    shutil.copytree(p.root, base / "template", symlinks=True)
    return base


@pytest.fixture
def built(_built_once):
    """A project of KERNELS and GRAPHS already built once, for tests that start from a finished build.

    doit's database records absolute paths, so each test's fresh copy of the template goes back to the
    path it was built at (tests run one at a time); the copy keeps every mtime, so doit's own checks see
    the state that build left. The fast no-op stamp also records inodes, so the first build of a copy
    always takes doit's full up-to-date check (tests of the fast path build their own project)."""
    root = _built_once / "proj"
    shutil.rmtree(root)
    shutil.copytree(_built_once / "template", root, symlinks=True)
    return Project(root)


def _manifest(p):
    return json.loads((p.artifacts / "manifest.json").read_text())


def test_full_build_then_noop(project):
    p = project(KERNELS, GRAPHS)
    first = p.doit("build")
    # relu x2 (+ the graph's relu 8x32 is the same instance), add, mul on host; gelu: aie.mlir only
    assert first.summary == {"kernels": 5, "compiled": 4, "store": 0, "uptodate": 0}
    assert "ane: op family 'unary' not yet emitted (gelu); built on ref only" in first.out
    notes = [ln for ln in first.out.splitlines() if ln.startswith("xdna: ")]
    assert len(notes) == 1 and notes[0].startswith("xdna: 1 kernel emitted, not compiled: no aiecc (mlir-aie)"), notes
    m = _manifest(p)
    assert m["schema"] == 1
    assert set(m["kernels"]) == {"relu_f32_64", "relu_f32_8x32", "add_f32_8x32_32", "mul_f32_8x32_1", "gelu_f32_16_approximate-tanh"}
    gelu = m["kernels"]["gelu_f32_16_approximate-tanh"]
    assert gelu["unavailable"] == {"ane": "not yet emitted"}
    assert set(gelu["targets"]) == {"ref", "xdna"}
    assert gelu["targets"]["xdna"]["compiled"] is False and set(gelu["targets"]["xdna"]["files"]) == {"source"}
    assert (p.artifacts / gelu["targets"]["xdna"]["files"]["source"]["path"]).read_text().count("aie.core(") == 1
    assert set(m["kernels"]["relu_f32_64"]["targets"]) == {"ref", "host"}
    steps = m["graphs"]["chain"]["steps"]
    assert [s["kernel"] for s in steps] == ["add_f32_8x32_32", "mul_f32_8x32_1", "relu_f32_8x32"]

    second = p.doit("build")
    assert second.executed("") == []
    assert second.summary == {"kernels": 5, "compiled": 0, "store": 0, "uptodate": 4}
    assert p.npubuild("verify").rc == 0


def test_identical_instances_across_files_build_once(project):
    p = project(KERNELS, GRAPHS)
    p.write("specs/kernels/more.yaml", "kernels:\n  again:\n    op: relu\n    dtype: f32\n    shapes: [[64]]\n")
    r = p.doit("build")
    assert r.executed("compile:") .count("compile:relu_f32_64@host") == 1
    assert r.summary["kernels"] == 5


def test_edit_one_shape_rebuilds_only_that_instance(built):
    p = built
    p.write("specs/kernels/k.yaml", KERNELS.replace("- [64]", "- [128]"))
    r = p.doit("build")
    assert r.executed("emit:") == ["emit:relu_f32_128@host"]
    assert r.executed("compile:") == ["compile:relu_f32_128@host"]
    assert "relu_f32_64" not in _manifest(p)["kernels"]
    assert not (p.artifacts / "kernels" / "relu_f32_64").exists()  # stale outputs pruned


def test_touching_specs_recompiles_nothing(built):
    p = built
    for f in (p.root / "specs").rglob("*.yaml"):
        os.utime(f)
    r = p.doit("build")
    assert r.summary["compiled"] == 0 and r.summary["store"] == 0
    assert r.executed("emit:") == [] and r.executed("compile:") == []


def test_changed_toolchain_recompiles_every_host_kernel(built, tmp_path):
    p = built
    wrapper = tmp_path / "other-cc"
    wrapper.write_text('#!/bin/sh\nexec cc "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    r = p.doit("build", env={"NPUBUILD_CC": str(wrapper)})
    assert r.summary["compiled"] == 4, r.out
    assert r.executed("emit:") == []  # sources are unchanged; only the recipe changed
    fp = {k["targets"]["host"]["toolchain"] for k in _manifest(p)["kernels"].values() if "host" in k["targets"]}
    assert len(fp) == 1
    # back to the original compiler: the store still has those binaries
    r = p.doit("build")
    assert r.summary == {"kernels": 5, "compiled": 0, "store": 4, "uptodate": 0}


def test_host_cpu_is_part_of_the_host_build_key(built):
    p = built
    r = p.doit("build", env={"NPUBUILD_HOST_CPU": "x86-64-v2"})
    assert r.summary["compiled"] == 4, r.out
    assert r.executed("emit:") == []  # the emitted text does not depend on the CPU
    records = [json.loads(f.read_text()) for f in p.artifacts.glob("kernels/*/host/build.json")]
    assert len(records) == 4 and all("-mcpu=x86-64-v2" in rec["flags"]["llc"] for rec in records)
    r = p.doit("build")  # back to portable: the store still has those binaries
    assert r.summary == {"kernels": 5, "compiled": 0, "store": 4, "uptodate": 0}


def test_deleted_output_is_rebuilt_from_the_store(built):
    p = built
    so = p.artifacts / "kernels" / "relu_f32_64" / "host" / "kernel.so"
    so.unlink()
    r = p.doit("build")
    assert r.executed("compile:") == ["compile:relu_f32_64@host"]
    assert r.summary["store"] == 1 and r.summary["compiled"] == 0
    assert so.is_file()
    assert p.npubuild("verify").rc == 0


def test_fresh_checkout_with_copied_artifacts_compiles_nothing(built, tmp_path):
    p = built
    (p.root / ".npubuild.doit.db").unlink()  # a new machine has no doit state
    r = p.doit("build")
    assert r.summary["compiled"] == 0 and r.summary["store"] == 4


def test_flipped_byte_is_reported_by_verify_and_load(built):
    import npubuild
    from npubuild.core.errors import VerifyError

    p = built
    so = p.artifacts / "kernels" / "add_f32_8x32_32" / "host" / "kernel.so"
    data = bytearray(so.read_bytes())
    data[len(data) // 2] ^= 0xFF
    so.write_bytes(bytes(data))
    r = p.npubuild("verify", check=False)
    assert r.rc == 1
    assert "altered: kernels/add_f32_8x32_32/host/kernel.so" in r.err
    try:
        npubuild.load(p.artifacts)
    except VerifyError as e:
        assert "kernels/add_f32_8x32_32/host/kernel.so" in str(e)
    else:
        raise AssertionError("load accepted a corrupted artifact")
    (p.artifacts / "graphs" / "chain" / "c.npy").unlink()
    r = p.npubuild("verify", check=False)
    assert "missing: graphs/chain/c.npy" in r.err


def test_parallel_build(project):
    p = project(KERNELS, GRAPHS)
    r = p.doit("-n", "2", "build")
    assert r.summary["compiled"] == 4
    assert p.doit("build").summary["uptodate"] == 4
    assert p.npubuild("verify").rc == 0


def _script(path, body):
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_failing_compile_keeps_no_half_written_target(built, tmp_path):
    p = built
    so = p.artifacts / "kernels" / "relu_f32_64" / "host" / "kernel.so"
    before = so.read_bytes()
    # a compiler that identifies itself but cannot link
    broken = _script(tmp_path / "broken-cc", 'case "$1" in --version) exec cc --version;; esac\necho "ld: cannot link (broken)" >&2\nexit 1\n')
    r = p.doit("build", env={"NPUBUILD_CC": broken}, check=False)
    assert r.rc != 0
    assert "ld: cannot link (broken)" in r.out + r.err  # the log's tail is shown
    assert "Traceback" not in r.out + r.err
    assert so.read_bytes() == before  # the previous good artifact is kept
    assert not [f for f in so.parent.iterdir() if f.name.startswith(".")]  # no temp files left


@pytest.mark.parametrize("fast", ["1", "0"])
@pytest.mark.parametrize("damage", ["flipped byte", "directory"])
def test_an_altered_output_with_size_and_mtime_kept_is_repaired(project, damage, fast):
    p = project("kernels:\n  relu:\n    op: relu\n    dtype: f32\n    shapes:\n      - [64]\n")
    p.doit()
    so = p.artifacts / "kernels" / "relu_f32_64" / "host" / "kernel.so"
    good, st = so.read_bytes(), so.stat()
    if damage == "flipped byte":
        bad = bytearray(good)
        bad[len(bad) // 2] ^= 0x40
        so.write_bytes(bytes(bad))
    else:
        so.unlink()
        so.mkdir()
    os.utime(so, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert p.npubuild("verify", check=False).rc == 1
    r = p.doit(env={"NPUBUILD_FAST_NOOP": fast})
    assert "from store 1" in r.out and r.shared == 0, r.out  # the local store's
    assert so.is_file() and so.read_bytes() == good
    p.npubuild("verify")


def test_a_hanging_compiler_is_killed_at_the_tool_timeout(project, tmp_path):
    p = project("kernels:\n  relu:\n    op: relu\n    dtype: f32\n    shapes:\n      - [64]\n")
    with open(p.root / "pyproject.toml", "a") as f:
        f.write("\n[tool.npubuild.limits]\ntool_timeout = 1\n")
    hanging = _script(tmp_path / "hanging-cc", 'case "$1" in --version) exec cc --version;; esac\nexec sleep 60\n')
    r = p.doit("build", env={"NPUBUILD_CC": hanging}, check=False)
    assert r.rc != 0 and "Traceback" not in r.out + r.err
    assert "timed out after 1 s (killed; limits.tool_timeout)" in r.out + r.err
    assert not [f for f in (p.artifacts / "kernels" / "relu_f32_64" / "host").iterdir() if f.name.startswith(".npb-tmp")]


def test_unusable_compiler_is_one_clear_line(project):
    p = project(KERNELS, GRAPHS)
    r = p.doit("build", env={"NPUBUILD_CC": "/nonexistent/cc"}, check=False)
    assert r.rc != 0
    assert "host toolchain: C compiler '/nonexistent/cc' (from NPUBUILD_CC) is not an executable file" in r.out + r.err
    assert "Traceback" not in r.out + r.err


def test_doit_list_shows_documented_tasks(project):
    p = project(KERNELS, GRAPHS)
    out = p.doit("list").out
    for name in ("build", "compile", "emit", "manifest", "test"):
        assert any(line.split()[0] == name and len(line.split()) > 1 for line in out.splitlines()), out
    sub = p.doit("list", "--all").out
    assert "compile:relu_f32_64@host" in sub


def test_a_dodo_written_against_npubuild_tasks_still_builds(project):
    """Projects created before the build moved to npubuild.engine import npubuild.tasks."""
    p = project(KERNELS)
    p.write("dodo.py", "from npubuild.tasks import *  # noqa: F401,F403\n\ninstall_signal_handlers()\n")
    r = p.doit()
    assert "npubuild: 4 kernels; compiled 3" in r.out, r.out
    assert json.loads((p.artifacts / "manifest.json").read_text())["kernels"]


def test_clean_removes_outputs(built):
    p = built
    p.doit("clean")
    assert not (p.artifacts / "manifest.json").exists()
    assert not (p.artifacts / "kernels" / "relu_f32_64" / "host" / "kernel.so").exists()


def test_spec_error_fails_build_with_file_line(project):
    p = project(KERNELS.replace("op: relu", "op: relux"), GRAPHS)
    r = p.doit("build", check=False)
    assert r.rc != 0
    assert "specs/kernels/k.yaml:3: unknown op 'relux'" in r.out + r.err
    assert "Traceback" not in r.out + r.err


def test_runtime_ref_and_host_agree(built):
    import npubuild

    p = built
    rng = np.random.default_rng(1)
    x = rng.standard_normal((8, 32)).astype(np.float32)
    b = rng.standard_normal(32).astype(np.float32)
    rt = npubuild.load(p.artifacts)
    outs = {}
    for backend in ("ref", "host"):
        g = rt.graph("chain", backend=backend)
        g.set_params(b=b)
        outs[backend] = g.run(x=x)["y"]
    assert np.array_equal(outs["ref"], outs["host"])
    np.testing.assert_array_equal(outs["ref"], np.maximum((x + b) * np.float32(2.0), 0))
    assert rt.graph("chain").backend == "host"  # auto picks host when every kernel has a binary


def test_npubuild_build_passes_options_to_doit(project):
    p = project(KERNELS, GRAPHS)
    r = p.npubuild("build", "-n", "2")
    assert "compiled 4" in r.out
    assert "up to date 4" in p.npubuild("build").out


def test_plan_cache_follows_npy_constants_and_survives_corruption(project):
    p = project(None, """\
graphs:
  g:
    inputs: {x: {shape: [4], dtype: f32}}
    constants: {c: {file: c.npy}}
    nodes:
      y: {op: add, inputs: [x, c]}
    outputs: [y]
""")
    np.save(p.root / "specs" / "graphs" / "c.npy", np.ones(4, np.float32))
    p.doit("build")
    assert "add_f32_4_4" in _manifest(p)["kernels"]
    np.save(p.root / "specs" / "graphs" / "c.npy", np.ones(1, np.float32))  # new shape, same spec bytes
    p.doit("build")
    assert set(_manifest(p)["kernels"]) == {"add_f32_4_1"}
    (p.root / ".npubuild.plan.pickle").write_bytes(b"not a pickle")
    r = p.doit("build")
    assert r.summary["uptodate"] == 1


def test_sigterm_keeps_finished_work(project):
    import signal
    import subprocess
    import sys
    import time

    shapes = "\n".join(f"      - [{n}]" for n in range(1, 41))
    p = project(f"kernels:\n  many:\n    op: neg\n    dtype: f32\n    shapes:\n{shapes}\n")
    proc = subprocess.Popen([sys.executable, "-m", "doit", "build"], cwd=p.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    kdir = p.artifacts / "kernels"
    while time.time() < deadline:  # wait until a few kernels are finished
        done = list(kdir.glob("*/host/build.json")) if kdir.is_dir() else []
        if len(done) >= 5:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    finished = len(list(kdir.glob("*/host/build.json")))
    assert 5 <= finished < 40, "the build finished before the signal; the test needs more kernels"
    r = p.doit("build")
    # doit kept the state of the finished tasks: they are up to date, not re-run
    assert r.summary["uptodate"] >= 5
    assert r.summary["compiled"] + r.summary["store"] + r.summary["uptodate"] == 40
    assert p.npubuild("verify").rc == 0


FAST = "(nothing changed since the last build)"


def test_nothing_changed_fast_path_and_what_disables_it(project):
    p = project(KERNELS, GRAPHS)
    assert FAST not in p.doit("build").out
    r = p.doit("build")
    assert FAST in r.out and r.summary == {"kernels": 5, "compiled": 0, "store": 0, "uptodate": 4}
    assert FAST in p.doit("-n", "2", "build").out
    # the fast path leaves doit's state as a full check would: switching it off runs nothing
    r = p.doit("build", env={"NPUBUILD_FAST_NOOP": "0"})
    assert FAST not in r.out and r.executed("") == []
    assert "compile:relu_f32_64@host" in p.doit("list", "--all").out  # other commands see every task
    # a touched source takes doit's path (same content: nothing runs), then the fast path again
    os.utime(p.artifacts / "kernels" / "relu_f32_64" / "host" / "kernel.mlir")
    r = p.doit("build")
    assert FAST not in r.out and r.executed("compile:") == []
    assert FAST in p.doit("build").out
    # a deleted graph constant is rebuilt
    const = p.artifacts / "graphs" / "chain" / "c.npy"
    const.unlink()
    r = p.doit("build")
    assert FAST not in r.out and r.executed("manifest") == ["manifest"] and const.is_file()
    # `doit forget` changes doit's database: everything is checked again
    p.doit("forget", "--all")
    r = p.doit("build")
    assert FAST not in r.out and r.summary["store"] == 4  # outputs exist; doit re-runs, the store answers


def test_plain_build_detection():
    from npubuild.engine.noop import plain_build

    for argv in ([], ["build"], ["-n", "2", "build"], ["-n2"], ["run", "build"], ["-P", "thread", "-n", "2"]):
        assert plain_build(argv), argv
    for argv in (["-a", "build"], ["build", "test"], ["list"], ["compile"], ["-s", "build"], ["clean"]):
        assert not plain_build(argv), argv
