"""What `doit build` prints: the live status line on a terminal (a real pseudo-terminal here),
one line per task elsewhere, the timing summary, and a failed compile that neither stops the
independent ones nor ends the output on a line that reads like success."""
from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import time

import pytest

from npubuild.engine.jobs import default_jobs

from .conftest import new_project


def threads_of(pid: int) -> int:
    """How many threads the process ``pid`` runs (Linux /proc)."""
    return len(os.listdir(f"/proc/{pid}/task"))


def _relu_family(n: int, targets: str) -> str:
    shapes = "".join(f"      - [{64 * (i + 1)}]\n" for i in range(n))
    return f"kernels:\n  a:\n    op: relu\n    targets: {targets}\n    shapes:\n{shapes}"


def _under_pty(root, env=None, timeout=300) -> tuple[int, str]:
    """``doit build`` with stdout and stderr on a pseudo-terminal; (exit status, everything it wrote)."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "doit", "build"], cwd=root, stdout=slave, stderr=slave,
                            env={**os.environ, **(env or {}), "COLUMNS": "160"}, close_fds=True)
    os.close(slave)
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([master], [], [], timeout)
            if not ready:
                proc.kill()
                raise AssertionError("doit build wrote nothing for too long")
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
    return proc.wait(timeout=60), b"".join(chunks).decode("utf-8", "replace")


def _check_terminal_output(out: str, tasks: int, kernels: int) -> None:
    status = re.findall(r"\[(\d+)/(\d+)\] (emit|compile|manifest)", out)
    assert status, out[-2000:]
    assert {int(total) for _, total, _ in status} == {tasks}
    assert max(int(done) for done, _, _ in status) == tasks
    assert "ETA" in out
    assert not re.search(r"^\.  emit:", out, re.M)  # no line per task on a terminal
    assert re.search(rf"npubuild: {kernels} kernels; compiled \d+, from store \d+, up to date \d+ in \d+\.\ds", out)
    assert "slowest: " in out


def test_a_terminal_gets_the_status_line_and_the_timing_summary(tmp_path):
    p = new_project(tmp_path / "proj", _relu_family(20, "[ref, xdna]"))  # emitted only here: no XDNA toolchain
    rc, out = _under_pty(p.root)
    assert rc == 0, out[-2000:]
    _check_terminal_output(out, 21, 20)  # 20 emits and the manifest


@pytest.mark.slow
def test_a_500_kernel_build_under_a_terminal(tmp_path):
    p = new_project(tmp_path / "proj", _relu_family(500, "[ref, xdna]"))
    rc, out = _under_pty(p.root, timeout=600)
    assert rc == 0, out[-2000:]
    _check_terminal_output(out, 501, 500)


def test_not_a_terminal_gets_a_line_per_task_and_quiet_gets_none(project):
    p = project(_relu_family(3, "[ref, host]"))
    r = p.doit("build")
    assert len(r.executed("emit:")) == 3 and len(r.executed("compile:")) == 3
    assert re.search(r"npubuild: 3 kernels; compiled 3, from store 0, up to date 0 in \d+\.\ds", r.out)
    assert re.search(r"^slowest: compile:relu_f32_\d+@host \d+\.\d\ds", r.out, re.M)
    (p.root / "artifacts").rename(p.root / "old")
    (p.root / ".npubuild.doit.db").unlink()
    q = p.npubuild("build", "--quiet")
    assert not q.executed("") and "slowest" not in q.out and q.summary["compiled"] == 3
    assert q.out.strip().splitlines() == [ln for ln in q.out.strip().splitlines() if ln.startswith("npubuild: ")]


FAIL_CC = """#!/bin/sh
# while FLAG exists, fails to link the one kernel whose object carries the name exp_f32 (its embedded ABI)
if [ -e "FLAG" ]; then
  for a in "$@"; do
    case "$a" in *.o) if grep -q exp_f32 "$a"; then echo "fakecc: error: cannot link exp" >&2; exit 1; fi ;; esac
  done
fi
exec cc "$@"
"""


def test_one_failing_compile_does_not_stop_the_others(project, tmp_path):
    shapes = "".join(f"      - [{16 * (i + 1)}]\n" for i in range(19))
    p = project(f"kernels:\n  a:\n    op: relu\n    shapes:\n{shapes}  b:\n    op: exp\n    shapes:\n      - [64]\n")
    cc, flag = tmp_path / "failcc", tmp_path / "fail-now"
    flag.write_text("")
    cc.write_text(FAIL_CC.replace("FLAG", str(flag)))
    cc.chmod(0o755)
    r = p.doit("build", env={"NPUBUILD_CC": str(cc)}, check=False)
    assert r.rc != 0
    built = sorted(d.parent.name for d in (p.artifacts / "kernels").glob("*/host/kernel.so"))
    assert len(built) == 19 and "exp_f32_64" not in built
    assert "compiled 19, from store 0, up to date 0, failed 1, not built 1" in r.out  # the manifest needs every compile
    lines = r.out.strip().splitlines()
    assert ("FAILED compile:exp_f32_64@host: fakecc: error: cannot link exp "
            "(log: artifacts/kernels/exp_f32_64/host/build.log)") in lines
    assert lines[-1] == "npubuild: BUILD FAILED: 1 task(s) failed, 1 not built"
    assert not (p.artifacts / "kernels" / "exp_f32_64" / "host" / "kernel.so").exists()
    # fixed: the next build compiles the one that failed and writes the manifest
    flag.unlink()
    again = p.doit("build", env={"NPUBUILD_CC": str(cc)})
    assert again.summary["compiled"] == 1 and again.summary["uptodate"] == 19
    assert (p.artifacts / "manifest.json").is_file()


def test_doit_clean_removes_logs_linked_objects_and_ane_programs(project):
    import shutil

    from .conftest import REPO

    p = project(_relu_family(2, "[ref, host]"))
    (p.root / "specs" / "graphs").mkdir(parents=True)
    shutil.copy(REPO / "specs" / "graphs" / "swiglu.mil", p.root / "specs" / "graphs")
    shutil.copytree(REPO / "specs" / "graphs" / "weights", p.root / "specs" / "graphs" / "weights")
    p.doit("build")
    assert list((p.artifacts / "ane" / "swiglu").rglob("*")) and list(p.artifacts.rglob("build.log"))
    p.doit("clean")
    left = [f for f in p.artifacts.rglob("*") if f.is_file() and ".cache" not in f.relative_to(p.artifacts).parts]
    assert left == [], left
    assert p.doit("build").summary["store"] == 3  # the store was kept: both kernels and the ane graph come from it


def test_doit_list_into_a_closed_pipe_is_quiet(project):
    p = project(_relu_family(40, "[ref, host]"))
    r = subprocess.run(f"{sys.executable} -m doit list --all | head -1", shell=True, cwd=p.root, capture_output=True,
                       text=True, timeout=120)
    assert r.stdout.strip() and "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr


def test_json_summary_is_the_only_output_even_after_a_failure(project, tmp_path):
    import json

    p = project("kernels:\n  a:\n    op: relu\n    shapes:\n      - [16]\n  b:\n    op: exp\n    shapes:\n      - [64]\n")
    cc, flag = tmp_path / "failcc", tmp_path / "fail-now"
    flag.write_text("")
    cc.write_text(FAIL_CC.replace("FLAG", str(flag)))
    cc.chmod(0o755)
    r = p.npubuild("build", "--json", env={"NPUBUILD_CC": str(cc)}, check=False)
    assert r.rc != 0
    doc = json.loads(r.out)  # nothing else on stdout
    assert (doc["compiled"], doc["failed"], doc["not_built"], doc["ok"]) == (1, 1, 1, False)
    (f,) = doc["failures"]
    assert f["task"] == "compile:exp_f32_64@host" and f["error"] == "fakecc: error: cannot link exp"
    assert f["log"] == "artifacts/kernels/exp_f32_64/host/build.log"
    # the manifest of everything that built was written: it verifies, and says why exp has no host binary
    assert any(n.startswith("npubuild: manifest.json written for everything that built") for n in doc["notes"]), doc["notes"]
    v = json.loads(p.npubuild("verify", "--json", check=False).out)
    assert v["ok"] is True, v
    m = json.loads((p.artifacts / "manifest.json").read_text())
    assert m["kernels"]["exp_f32_64"]["unavailable"]["host"] == "compile failed in the last build: fakecc: error: cannot link exp"
    assert "host" in m["kernels"]["relu_f32_16"]["targets"]


def test_a_failed_compile_is_said_in_npubuild_words_at_the_users_file_and_line(project):
    """No doit text on the failure path (TaskFailed, UnmetDependency, the '####' dump of captured output),
    and MLIR's in-memory locations (loc("-":2:3)) name the pinned file the user edits."""
    p = project("kernels:\n  r:\n    op: relu\n    shapes: [[1024]]\n    sources: {host: tuned/r.mlir}\n"
                "  e:\n    op: exp\n    shapes: [[1024]]\n")
    p.write("specs/kernels/tuned/r.mlir",
            "func.func @kernel(%a: memref<1024xf32>, %b: memref<1024xf32>) {\n  bogus.op\n  return\n}\n")
    r = p.doit("build", check=False)
    assert r.rc != 0
    text = r.out + r.err
    for doit_text in ("TaskFailed", "UnmetDependency", "####", "<stdout>", "<stderr>", 'loc("-"'):
        assert doit_text not in text, text
    assert "FAILED compile:relu_f32_1024@host: specs/kernels/tuned/r.mlir:2:3: error: Dialect `bogus' not found" in text, text
    assert "npubuild: BUILD FAILED: 1 task(s) failed, 1 not built" in text
    assert (p.artifacts / "kernels/exp_f32_1024/host/kernel.so").is_file()  # the other kernel built


def test_a_build_that_cannot_start_says_why_once_on_stderr(project):
    p = project("kernels:\n  r:\n    op: reluu\n    shapes: [[1024]]\n")
    for tool in (p.doit, p.npubuild):
        r = tool("build", check=False)
        assert r.rc != 0
        assert r.err.strip() == ("specs/kernels/k.yaml:3: unknown op 'reluu' in kernel family 'r' (did you mean 'relu'?); "
                                 "`npubuild ops` lists them"), r.err
        assert "manifest" not in r.out and "failed" not in r.out, r.out  # no task line for a build that never started


@pytest.mark.slow  # a few hundred host compiles, interrupted midway
@pytest.mark.parametrize("tool", [["doit"], ["npubuild.cli"]])
def test_an_interrupted_build_says_so_without_a_traceback_and_the_next_one_goes_on(project, tool):
    import os
    import signal
    import time

    shapes = "".join(f"      - [{16 * i}]\n" for i in range(1, 300))
    p = project("kernels:\n  r:\n    op: exp\n    shapes:\n" + shapes)
    proc = subprocess.Popen([sys.executable, "-m", *tool, "build"], cwd=p.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "NPUBUILD_PROGRESS": "0"})
    # a kernel.so appears when its compile has written it, before the task has finished (store, record):
    # with every core building at once (the default), one more than the workers means one task finished
    deadline = time.monotonic() + 120
    workers = max(1, default_jobs())
    while len(list(p.artifacts.glob("kernels/*/host/kernel.so"))) <= workers and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "the build ended before it could be interrupted"
    if default_jobs() > 1:  # the default build runs on every core: doit's worker threads, one per core, beside the main one
        assert threads_of(proc.pid) >= 1 + default_jobs(), threads_of(proc.pid)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    # Python ends an interrupted program by SIGINT (a shell shows 130): what any interrupted tool does
    assert proc.returncode in (130, -signal.SIGINT), (proc.returncode, out, err)
    assert "Traceback" not in out + err and "KeyboardInterrupt" not in out + err, err
    assert "npubuild: interrupted: " in out and "not run" in out, out
    assert "interrupted" not in err, err  # said once
    again = p.doit("build")
    # what finished before the interrupt is kept: up to date in doit's state, or taken back from the store
    kept = again.summary["uptodate"] + again.summary["store"]
    assert kept >= 1 and again.summary["compiled"] + kept == 299, again.out


def test_a_failed_recompile_leaves_every_other_kernel_and_graph_usable(project):
    """A pinned source edited into one that does not compile: the build fails, and writes the manifest of
    everything else (the failed kernel's host build left out, with the reason), so verify, load and run work."""
    import numpy as np

    import npubuild

    graph = "graphs:\n  g:\n    inputs: {x: {shape: [1024]}}\n    nodes:\n      y: {op: exp, inputs: [x]}\n    outputs: [y]\n"
    p = project("kernels:\n  r:\n    op: relu\n    shapes: [[1024]]\n", graph)
    p.doit("build")
    good = (p.artifacts / "kernels" / "relu_f32_1024" / "host" / "kernel.mlir").read_text()  # npubuild's own, pinned as is
    p.write("specs/kernels/k.yaml", "kernels:\n  r:\n    op: relu\n    shapes: [[1024]]\n    sources: {host: tuned/r.mlir}\n")
    p.write("specs/kernels/tuned/r.mlir", good)
    p.doit("build")
    p.write("specs/kernels/tuned/r.mlir", good + "\nbogus.op\n")
    r = p.doit("build", check=False)
    assert r.rc != 0 and ("npubuild: manifest.json written for everything that built; the previous good build kept (1): "
                          "relu_f32_1024@host") in r.out, r.out
    assert p.npubuild("verify").rc == 0
    rt = npubuild.load(p.artifacts)
    host = rt.manifest["kernels"]["relu_f32_1024"]["targets"]["host"]
    assert host["stale"].startswith("compile failed in the last build: ") and "previous good build's binary" in host["stale"]
    assert "source" not in host["files"]  # the source on disk is the new one: only the previous binary is named
    assert "relu_f32_1024" in p.npubuild("list").out.split("[host: last compile failed, the previous good build is kept]")[0]
    ran = p.npubuild("run", "relu_f32_1024", "--input", "x=1024xf32", "--backend", "host", "--expect", "ref")
    assert ran.rc == 0 and ran.err.count("relu_f32_1024 [host]: compile failed in the last build: ") == 1, ran.err
    g = rt.graph("g", backend="host")  # a graph that does not use the failed kernel runs on host
    g.set_params()
    x = np.linspace(-1, 1, 1024, dtype=np.float32)
    np.testing.assert_allclose(g.run(x=x)["y"], np.exp(x), rtol=1e-6)
    rt.close()
    assert p.npubuild("pack", "-o", str(p.root / "b.tar.gz")).rc == 0
    p.write("specs/kernels/tuned/r.mlir", good)  # fixed: the next build puts the kernel back
    p.doit("build")
    assert "stale" not in json.loads((p.artifacts / "manifest.json").read_text())["kernels"]["relu_f32_1024"]["targets"]["host"]
    # a kernel that never compiled has no previous good build: it is left out, with the reason
    p.write("specs/kernels/k2.yaml", "kernels:\n  s:\n    op: relu\n    shapes: [[512]]\n    sources: {host: tuned/s.mlir}\n")
    p.write("specs/kernels/tuned/s.mlir", "bogus.op\n")
    r = p.doit("build", check=False)
    assert r.rc != 0 and "left out (1): relu_f32_512@host" in r.out, r.out
    m = json.loads((p.artifacts / "manifest.json").read_text())
    assert " failed in the last build: " in m["kernels"]["relu_f32_512"]["unavailable"]["host"]  # no previous build to keep
    listed = json.loads(p.npubuild("list", "--json").out)["kernels"]
    assert " failed in the last build: " in listed["relu_f32_512"]["unavailable"]["host"] and "stale" not in listed["relu_f32_1024"]


def test_the_eta_weighs_each_kind_of_task_by_its_own_mean():
    """Fast emits must not make slow compiles look quick: the ETA is each kind's tasks left times that
    kind's mean, over the tasks run at once, and says nothing until every kind left has run a few times."""
    from types import SimpleNamespace

    from npubuild.engine.reporter import ETA_SAMPLES, ProgressReporter, task_kind, workers_of

    assert task_kind("compile:relu_f32_64@xdna.npu2") == "compile@xdna.npu2" and task_kind("manifest") == "manifest"
    assert [workers_of(a) for a in (["build"], ["-n", "4"], ["-n4"], ["--process=3"], ["-n", "x"])] == [1, 4, 4, 3, 1]
    r = ProgressReporter(open(os.devnull, "w"), {})
    task = lambda name: SimpleNamespace(name=name, actions=[object()])  # noqa: E731
    names = [f"emit:k{i}@host" for i in range(10)] + [f"compile:k{i}@host" for i in range(10)] + ["manifest"]
    r.initialize({n: task(n) for n in names}, names)
    for i in range(10):  # every emit: 0.01 s each
        r.started[f"emit:k{i}@host"] = time.monotonic() - 0.01
        r._finished(task(f"emit:k{i}@host"))
    assert r.eta() is None  # no compile has run yet: an average of emits would say ~0.1 s
    for i in range(ETA_SAMPLES):  # three compiles of 2 s each
        r.started[f"compile:k{i}@host"] = time.monotonic() - 2.0
        r._finished(task(f"compile:k{i}@host"))
    assert 13.5 < r.eta() < 14.5  # 7 compiles left at 2 s (the manifest, one of a kind, is left out)
    r.workers = 2
    assert 6.5 < r.eta() < 7.5


def test_the_status_line_shows_the_last_finished_task_with_its_seconds():
    from types import SimpleNamespace

    from npubuild.engine.reporter import ProgressReporter

    r = ProgressReporter(open(os.devnull, "w"), {})
    task = lambda name: SimpleNamespace(name=name, actions=[object()], title=lambda: name)  # noqa: E731
    names = ["emit:a@host", "compile:a@host"]
    r.initialize({n: task(n) for n in names}, names)
    r.execute_task(task("emit:a@host"))
    assert r.status_line() == "[0/2] emit a@host"
    r.started["emit:a@host"] = time.monotonic() - 0.25
    r._finished(task("emit:a@host"))
    r.execute_task(task("compile:a@host"))
    assert re.fullmatch(r"\[1/2\] emit a@host 0\.2\ds", r.status_line()), r.status_line()


def test_npubuild_jobs_sets_the_default_and_a_bad_value_is_said_once(monkeypatch, capsys):
    from npubuild.engine import jobs

    monkeypatch.setenv("NPUBUILD_JOBS", "3")
    assert jobs.default_jobs() == 3
    monkeypatch.setenv("NPUBUILD_JOBS", "0")
    assert jobs.default_jobs() == 0
    monkeypatch.setenv("NPUBUILD_JOBS", "many")
    assert jobs.default_jobs() == 0 and jobs.default_jobs() == 0
    assert capsys.readouterr().err.count("NPUBUILD_JOBS='many' is not a number of jobs") == 1
    monkeypatch.delenv("NPUBUILD_JOBS")
    assert jobs.default_jobs() == (jobs.cores() if jobs.cores() > 1 else 0)
