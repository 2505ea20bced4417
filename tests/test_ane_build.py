"""ane graphs in the build: specs/graphs/*.mil -> per-node artifacts (MIL + weight.bin v2)
through a doit task and the store, the manifest's record, and `npubuild run` on the ane backend."""
from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

import npubuild
from npubuild.ane.mil import parse_mil
from npubuild.ane.plan import compile_plan
from npubuild.runner.ane import AneRuntime

from .conftest import REPO


@pytest.fixture
def mil_project(project):
    p = project("kernels:\n  r:\n    op: relu\n    shapes:\n      - [4]\n")
    (p.root / "specs" / "graphs").mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "specs" / "graphs" / "swiglu.mil", p.root / "specs" / "graphs" / "swiglu.mil")
    shutil.copytree(REPO / "specs" / "graphs" / "weights", p.root / "specs" / "graphs" / "weights")
    return p


def _x():
    return (np.arange(64).reshape(1, 64, 1, 1) / 64 - 0.5).astype(np.float16)


def test_mil_graph_builds_into_node_artifacts_and_runs(mil_project, tmp_path):
    p = mil_project
    r = p.doit("build")
    assert "ane:swiglu" in r.out
    m = json.loads((p.artifacts / "manifest.json").read_text())
    g = m["graphs"]["swiglu"]
    assert g["kind"] == "ane" and len(g["nodes"]) == 9
    assert [g["nodes"][i]["route"] for i in g["order"]][0] == "host_rsqrt_broadcast"
    # every program artifact parses as MIL and its weights are the plan's
    src = REPO / "specs" / "graphs" / "swiglu.mil"
    plan = compile_plan(parse_mil(src.read_text(), file=str(src), base_dir=src.parent))
    for i, n in enumerate(g["nodes"]):
        if "mil" not in n:
            continue
        path = p.artifacts / n["mil"]["path"]
        prog = parse_mil(path.read_text(), file=str(path), base_dir=path.parent)
        for name, w in plan.nodes[i].weights.items():
            got = prog.main.consts[name]
            np.testing.assert_array_equal(got.reshape(w.shape), w)
    assert p.npubuild("verify").rc == 0
    # run from the manifest = run the plan in process
    rt = npubuild.load(p.artifacts)
    runner = rt.graph("swiglu", backend="auto")
    assert runner.backend == "ane"
    y = runner.run(x=_x())["y"]
    direct = AneRuntime(plan)
    direct.write_ext("x", _x().reshape(-1))
    direct.run()
    np.testing.assert_array_equal(y.reshape(-1), direct.output("y"))
    assert runner.last_stats["loads"] == 8  # eight programs loaded lazily on the first run
    # the CLI
    np.savez(tmp_path / "x.npz", x=_x())
    out = p.npubuild("run", "swiglu", "-i", str(tmp_path / "x.npz"), "-o", str(tmp_path / "y.npz"), "--backend", "ane")
    assert out.rc == 0
    np.testing.assert_array_equal(np.load(tmp_path / "y.npz")["y"], y)
    # second build: nothing runs
    again = p.doit("build")
    assert "ane:swiglu" not in again.out


def test_store_and_rebuild(mil_project):
    p = mil_project
    p.doit("build")
    shutil.rmtree(p.artifacts / "ane")
    (p.root / ".npubuild.doit.db").unlink()
    (p.root / ".npubuild.noop-stamp").unlink(missing_ok=True)
    p.doit("build")
    assert p.npubuild("verify").rc == 0  # restored from the store
    mil = p.root / "specs" / "graphs" / "swiglu.mil"
    mil.write_text(mil.read_text().replace("silu(x = g)", "sigmoid(x = g)"))
    r = p.doit("build")
    assert "ane:swiglu" in r.out
    m = json.loads((p.artifacts / "manifest.json").read_text())
    assert [n["route"] for n in m["graphs"]["swiglu"]["nodes"]].count("lut") == 1
    assert p.npubuild("verify").rc == 0


def test_bad_mil_fails_the_build_naming_file_and_line(mil_project):
    p = mil_project
    mil = p.root / "specs" / "graphs" / "swiglu.mil"
    mil.write_text(mil.read_text().replace("silu(x = g)", "exp(x = g)"))
    r = p.doit("build", check=False)
    assert r.rc != 0
    assert "specs/graphs/swiglu.mil:15: op 'exp'" in r.out + r.err
