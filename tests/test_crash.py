"""Crash and concurrency safety of the build, with the real doit, MLIR, llc and cc.

A build killed with SIGKILL at random moments must leave a store and an
artifact directory that the next `doit build` repairs by itself (stale temp
files swept, the manifest complete and verified); two builds started at once
on one project must both succeed with the same valid outputs; a flipped byte in
any kind of artifact must be caught when the artifacts are loaded.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time

import pytest

import npubuild
from npubuild.core.errors import VerifyError
from npubuild.core.fsio import TMP_PREFIX

from .conftest import REPO


def _kernels(scale: int) -> str:
    shapes = "\n".join(f"      - [{scale * 16 + i}]" for i in range(12))
    return f"""kernels:
  a:
    op: relu
    shapes:
{shapes}
  b:
    op: neg
    shapes:
{shapes}
  c:
    op: exp
    shapes:
{shapes}
"""


def _start(p, *args):
    return subprocess.Popen(
        [sys.executable, "-m", "doit", *args, "build"], cwd=p.root, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )


def _temps(*roots):
    return [os.path.join(d, n) for r in roots for d, dirs, files in os.walk(r) for n in dirs + files if n.startswith(TMP_PREFIX)]


def _assert_complete(p, kernels: int):
    r = p.doit("build")
    assert r.summary["kernels"] == kernels
    assert p.npubuild("verify").rc == 0
    m = json.loads((p.artifacts / "manifest.json").read_text())
    assert all("host" in k["targets"] for k in m["kernels"].values())
    assert _temps(p.artifacts) == [], _temps(p.artifacts)


@pytest.mark.slow
def test_kill_9_at_random_moments_then_build_repairs(project):
    p = project(_kernels(1))
    t = time.perf_counter()
    p.doit("build")
    full = time.perf_counter() - t
    rng = random.Random(20261129)
    kills = 0
    # the first build's time is only an estimate of the later ones (other jobs share the machine):
    # when a build ends before its kill, the next delays are drawn from a shorter range, and trials go
    # on until 15 of them have really interrupted a build (at most 40)
    upper = 0.6 * full
    for trial in range(40):
        if kills >= 15:
            break
        # vary what the killed build had to do: compile new kernels, restore from the store, or both
        if trial % 3 == 0:
            p.write("specs/kernels/k.yaml", _kernels(trial + 2))
        elif trial % 3 == 1:
            shutil.rmtree(p.artifacts / "kernels", ignore_errors=True)
        else:
            shutil.rmtree(p.artifacts, ignore_errors=True)
        proc = _start(p, *(["-n", "2"] if trial % 2 else []))
        time.sleep(rng.uniform(0.05, max(0.06, upper)))
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            kills += 1
        else:
            upper *= 0.7
        proc.wait()
        _assert_complete(p, 36)
    assert kills >= 15  # most trials really interrupted a build


def test_two_builds_at_once(project):
    p = project(_kernels(1))
    procs = [_start(p), _start(p, "-n", "2")]
    outs = [proc.communicate(timeout=600)[0] for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], outs
    assert p.npubuild("verify").rc == 0
    first = (p.artifacts / "manifest.json").read_bytes()
    r = p.doit("build")
    assert r.summary["compiled"] == 0  # what they built is complete: nothing left to compile
    assert (p.artifacts / "manifest.json").read_bytes() == first
    assert _temps(p.artifacts) == []


GRAPH = """\
graphs:
  g:
    inputs: {x: {shape: [8, 32]}}
    constants: {c: {value: [2.0]}}
    nodes:
      y: {op: mul, inputs: [x, c]}
    outputs: [y]
"""


def test_a_flipped_byte_in_any_artifact_is_caught_by_load(project):
    p = project(_kernels(1) + "  npu:\n    op: relu\n    targets: [ref, xdna]\n    shapes:\n      - [64]\n", GRAPH)
    (p.root / "specs" / "graphs").mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "specs" / "graphs" / "swiglu.mil", p.root / "specs" / "graphs" / "swiglu.mil")
    shutil.copytree(REPO / "specs" / "graphs" / "weights", p.root / "specs" / "graphs" / "weights")
    p.doit("build")
    npubuild.load(p.artifacts)  # clean
    kinds = {
        "host binary": "kernels/relu_f32_16/host/kernel.so",
        "host source": "kernels/relu_f32_16/host/kernel.mlir",
        "xdna source": "kernels/relu_f32_64/xdna/aie.mlir",
        "graph constant": "graphs/g/c.npy",
    }
    m = json.loads((p.artifacts / "manifest.json").read_text())
    ane = m["graphs"]["swiglu"]
    kinds["ane program"] = next(n["mil"]["path"] for n in ane["nodes"] if "mil" in n)
    kinds["ane weights"] = next(n["weights"]["path"] for n in ane["nodes"] if n.get("weights"))
    kinds["ane fills"] = ane["fills"]["path"]
    for kind, rel in kinds.items():
        path = p.artifacts / rel
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0x01
        path.write_bytes(bytes(data))
        with pytest.raises(VerifyError, match=rel.replace(".", r"\.")):
            npubuild.load(p.artifacts)
        data[len(data) // 2] ^= 0x01
        path.write_bytes(bytes(data))
    npubuild.load(p.artifacts)
