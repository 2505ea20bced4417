"""`npubuild ane-compare` on the graph package: every function of a (multifunction) graph package against the
``ane`` backend running that function, and each op's device from Core ML's compute plan on a Mac.

Core ML does not run on Linux: there the comparison path is driven by test doubles, ``fake_predict`` (the package
read back with coremltools' milproto loader and evaluated in fp16 NumPy: tests.test_ane_coreml.fake_run_program)
and ``fake_devices``; on macOS a real predict and compute plan run on the built package."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import npubuild
from npubuild.runner import ane_compare

from .test_ane_coreml import _load, fake_run_program
from .test_ane_multifunction import two_functions, weight


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from .conftest import new_project

    p = new_project(tmp_path_factory.mktemp("compare") / "proj", targets=("ref",))
    p.write("specs/graphs/g.mil", two_functions())
    (p.root / "specs" / "graphs" / "weights").mkdir(parents=True, exist_ok=True)
    (p.root / "specs" / "graphs" / "weights" / "w.bin").write_bytes(weight().tobytes())
    p.doit("build")
    return p


def _graph(p) -> dict:
    return json.loads((p.artifacts / "manifest.json").read_text())["graphs"]["g"]


def fake_predict(path, inputs: dict, function: str | None = None) -> dict:
    """MLModel(path, function_name=function).predict(inputs), as far as the program goes: that function of the
    package read back and evaluated in fp16 NumPy."""
    prog = _load(Path(path))[1]
    return fake_run_program(SimpleNamespace(functions={"main": prog.functions[function or "main"]}), inputs)


def fake_devices(path, function: str) -> list:
    """The package's ops of ``function`` (read back), each said to run on the ANE but the add on the CPU."""
    fn = _load(Path(path))[1].functions[function]
    return [(op.op_type, [o.name for o in op.outputs], "CPU" if op.op_type == "add" else "ANE")
            for op in fn.operations if op.op_type != "const"]


def test_the_graph_package_is_compared_per_function_with_its_devices(built, capsys):
    calls = []

    def fake_recording_predict(path, inputs, function=None):
        calls.append((Path(path).name, function, {k: list(v.shape) for k, v in inputs.items()}))
        return fake_predict(path, inputs, function)

    assert ane_compare.run("g", str(built.artifacts), seed=5, predict=fake_recording_predict, nodes=False,
                           devices=fake_devices) == 0
    lines = capsys.readouterr().out.splitlines()
    # each function of the multifunction package by its name, on inputs of its own shapes (no node package)
    assert calls == [("g.mlpackage", "main", {"x": [1, 64, 1, 64]}), ("g.mlpackage", "decode", {"x": [1, 64, 1, 1]})]
    assert lines[0].startswith("graph package ane/g/g.mlpackage function main: y: max abs err ")
    assert lines[1:3] == ["  conv c: ANE", "  add y: CPU"]
    assert lines[3].startswith("graph package ane/g/g.mlpackage function decode: y: max abs err ")
    assert lines[4:6] == ["  conv c: ANE", "  add y: CPU"]
    assert lines[6] == "ane-compare g: the graph package (2 function(s)), seed 5, 0 failed on Core ML"
    assert len(lines) == 7

    rt = npubuild.load(built.artifacts)
    rows = ane_compare.compare_package(rt, "g", fake_predict, seed=5)
    assert [r["function"] for r in rows] == ["main", "decode"]
    for r in rows:
        max_abs, max_ulp = r["outputs"]["y"]
        assert max_ulp is not None and max_ulp <= 4 and max_abs < 1e-2, r
        assert "devices" not in r


def test_a_graph_package_that_differs_or_fails_is_reported(built, capsys):
    rt = npubuild.load(built.artifacts)

    def fake_one_ulp_off_predict(path, inputs, function=None):
        y = fake_predict(path, inputs, function)["y"]
        return {"y": np.nextafter(y, np.float16(np.inf))}

    exact = ane_compare.compare_package(rt, "g", fake_predict)
    off = ane_compare.compare_package(rt, "g", fake_one_ulp_off_predict)
    for r, e in zip(off, exact):
        assert r["outputs"]["y"][1] >= 1 and r["outputs"]["y"][0] > 0 and r["outputs"]["y"] != e["outputs"]["y"]

    def fake_failing_predict(path, inputs, function=None):
        if function == "decode":
            raise RuntimeError("Error compiling model:\nno ANE")
        return fake_predict(path, inputs, function)

    def fake_failing_devices(path, function):
        raise RuntimeError("no compute plan")

    assert ane_compare.run("g", str(built.artifacts), predict=fake_failing_predict, devices=fake_failing_devices) == 1
    out = capsys.readouterr().out
    assert "graph package ane/g/g.mlpackage function decode: Core ML failed: Error compiling model: no ANE" in out
    assert "  devices: Core ML's compute plan failed: no compute plan" in out
    # the default: every function's node packages too, the other functions' rows named by their function
    g = _graph(built)
    main_nodes = [(i, n) for i, n in enumerate(g["nodes"]) if "mil" in n]
    decode_nodes = [(i, n) for i, n in enumerate(g["functions"]["decode"]["nodes"]) if "mil" in n]
    lines = out.splitlines()
    heads = [f"n{i} {n['name']} ({n['route']})" for i, n in main_nodes] + [f"decode n{i} {n['name']} ({n['route']})" for i, n in decode_nodes]
    assert [ln.split(":")[0] for ln in lines[:len(heads)]] == heads
    assert all(": max abs err " in ln for ln in lines[:len(heads)])
    total = len(main_nodes) + len(decode_nodes)
    assert lines[-1] == f"ane-compare g: {total} node(s) and the graph package (2 function(s)), seed 0, 1 failed on Core ML"


def test_cli_no_nodes_flag_and_no_runtime(built):
    assert "--no-nodes" in built.npubuild("ane-compare", "--help").out
    if sys.platform != "darwin":
        r = built.npubuild("ane-compare", "g", "--no-nodes", check=False)
        assert r.rc != 0 and "no Core ML runtime on" in r.err and "Traceback" not in r.err


@pytest.mark.skipif(sys.platform != "darwin", reason=ane_compare.no_runtime_reason() or "Core ML runs here")
def test_graph_package_predicts_on_core_ml(built, capsys):
    """A real MLModel.predict of each function of the graph package (CPU and Neural Engine) against the emulation,
    and each op's device from MLComputePlan."""
    rt = npubuild.load(built.artifacts)
    rows = ane_compare.compare_package(rt, "g", ane_compare.coreml_predictor(), seed=2, devices=ane_compare.coreml_devices())
    assert [r["function"] for r in rows] == ["main", "decode"]
    for r in rows:
        assert "error" not in r, r
        max_abs, _ = r["outputs"]["y"]
        assert max_abs < 5e-2, r
        assert "devices_error" not in r, r
        assert [op for op, _, _ in r["devices"]] == ["conv", "add"]
        assert {d for _, _, d in r["devices"]} <= {"CPU", "GPU", "ANE", "unknown"}
    assert ane_compare.run("g", str(built.artifacts), nodes=False) == 0
