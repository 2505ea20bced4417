"""YAML graphs with targets [ane]: translated into a MIL program (npubuild.ane.from_graph), planned and
built like a .mil graph, run through the same API; spec-time errors for what the translation cannot
honour, build-time errors at the spec's line for what no ANE route takes, and the no-op check over the
Core ML packages."""
from __future__ import annotations

import json

import numpy as np
import pytest

import npubuild
from npubuild.core.errors import UserError

# x -> matmul(w1) -> silu -> matmul(w2) -> + x: the linear, lut (+ ew for silu's mul), linear and add routes
BODY = """
    inputs: {{x: {{shape: [4, 64], dtype: f32}}}}
    constants:
      w1: {{shape: [64, 128], file: w1.npy}}
      w2: {{shape: [128, {n}], file: w2.npy}}
    nodes:
      h: {{op: matmul, inputs: [x, w1]}}
      a: {{op: {act}, inputs: [h]}}
      d: {{op: matmul, inputs: [a, w2]}}
      y: {{op: add, inputs: [x, d]}}
    outputs: [y]
"""


def _project(project, act="silu", n=64, twin=True):
    text = "graphs:\n  mlp_ane:\n    targets: [ane]" + BODY.format(act=act, n=n)
    if twin:  # the same nodes on the ref target: the oracle the ANE result is compared with
        text += "  mlp_ref:\n    targets: [ref]" + BODY.format(act=act, n=n)
    p = project(graphs=text)
    rng = np.random.default_rng(0)
    np.save(p.root / "specs/graphs/w1.npy", (rng.standard_normal((64, 128)) / 8).astype(np.float32))
    np.save(p.root / "specs/graphs/w2.npy", (rng.standard_normal((128, n)) / 11).astype(np.float32))
    return p


def _x():
    return np.random.default_rng(1).standard_normal((4, 64)).astype(np.float32)


def test_yaml_graph_builds_as_ane_plan_and_matches_ref(project, tmp_path):
    p = _project(project)
    r = p.doit("build")
    assert "compile:mlp_ane@ane" in r.out
    m = json.loads((p.artifacts / "manifest.json").read_text())
    g = m["graphs"]["mlp_ane"]
    assert g["kind"] == "ane" and "steps" not in g
    # the silu is fused into the first linear program (one program: matmul and activation); the residual add reads
    # the input x: a plain input is never written, so it is an ew program, not in place
    assert [n["route"] for n in g["nodes"]] == ["linear", "linear", "ew"]
    assert g["nodes"][0]["attrs"]["act"] == "silu" and "act" not in g["nodes"][1]["attrs"]
    assert g["states"] == {} and not any(n.get("alias") or n.get("zero") for n in g["nodes"])
    assert g["inputs"] == {"x": {"shape": [4, 64], "dtype": "fp16"}}  # the ANE computes in fp16
    assert g["mlpackage"]["files"] and all("mlpackage" in n for n in g["nodes"])
    # no kernel instance is built for the ane graph: only the ref twin's kernels are in the manifest
    assert all(k["targets"].keys() == {"ref"} for k in m["kernels"].values())
    assert p.npubuild("verify").rc == 0
    assert g["file"] == "specs/graphs/g.yaml"  # the spec it came from, not a .mil that does not exist
    assert p.npubuild("show", "mlp_ane").out.splitlines()[0].startswith("ANE graph mlp_ane (specs/graphs/g.yaml)")
    rt = npubuild.load(p.artifacts)
    runner = rt.graph("mlp_ane", backend="auto")
    assert runner.backend == "ane"
    y = runner.run(x=_x())["y"]
    np.testing.assert_array_equal(runner.run(x=_x())["y"], y)  # pure: the residual add does not accumulate into x
    ref = rt.graph("mlp_ref", backend="ref").run(x=_x())["y"]
    # fp16 tolerance: inputs, weights and every intermediate are rounded to fp16 (unit roundoff 2^-11 ~ 4.9e-4);
    # over two dot products of 64 and 128 terms and |y| up to ~4 the error stays within ~1e-2 absolute and relative
    # (measured: 1.6e-3); a wrong op, a transposed weight or a lost residual is off by O(1)
    np.testing.assert_allclose(y.astype(np.float32), ref, rtol=1e-2, atol=1e-2)
    assert np.abs(ref).max() > 1  # the comparison is not of near-zero values
    with pytest.raises(UserError, match="ANE graph"):  # the same refusal as a .mil graph
        rt.graph("mlp_ane", backend="ref")
    # the CLI runs it the same way
    np.savez(tmp_path / "x.npz", x=_x())
    out = p.npubuild("run", "mlp_ane", "-i", str(tmp_path / "x.npz"), "-o", str(tmp_path / "y.npz"), "--backend", "ane")
    assert out.rc == 0
    np.testing.assert_array_equal(np.load(tmp_path / "y.npz")["y"], y)


@pytest.mark.slow  # a full doit build (or two); the fast run keeps a lighter case of the same check
def test_deleted_package_file_is_rebuilt(project):
    p = _project(project, twin=False)
    p.doit("build")
    assert p.doit("build").executed("compile:") == []  # nothing changed: nothing runs
    rec = json.loads((p.artifacts / "ane/mlp_ane/plan.json").read_text())
    for victim in (rec["nodes"][0]["mlpackage"]["files"][-1]["path"], rec["mlpackage"]["files"][0]["path"]):
        f = p.artifacts / "ane/mlp_ane" / victim
        f.unlink()
        r = p.doit("build")
        assert r.executed("compile:") == ["compile:mlp_ane@ane"], r.out
        assert f.is_file()
    assert p.npubuild("verify").rc == 0


def test_unsupported_op_is_a_spec_error_at_its_line(project):
    p = _project(project, act="exp", twin=False)
    r = p.doit("build", check=False)
    assert r.rc != 0
    text = r.out + r.err
    # line 10 of g.yaml: "a: {op: exp, ...}" (line 3 is "targets: [ane]")
    assert "specs/graphs/g.yaml:10: node 'a' of graph 'mlp_ane': exp is not supported on ane: no MIL op" in text, text
    assert not (p.artifacts / "ane").exists()


def test_params_and_other_targets_are_spec_errors(project):
    p = project(graphs="""
        graphs:
          g1:
            targets: [ane, host]
            inputs: {x: {shape: [1, 64], dtype: f32}}
            params: {w: {shape: [64, 64]}}
            nodes:
              y: {op: matmul, inputs: [x, w]}
            outputs: [y]
        """)
    r = p.doit("build", check=False)
    text = r.out + r.err
    assert r.rc != 0
    assert "specs/graphs/g.yaml:3: graph 'g1': targets ['ref', 'ane', 'host']" in text, text
    assert "specs/graphs/g.yaml:6: graph 'g1': param 'w': an ANE graph has no params" in text, text


def test_off_route_shape_fails_its_task_naming_node_and_line_under_strict(project):
    # relu of 4x64 values read from the input (no matmul to fuse it into): the ANE relu program takes exactly 64
    p = project(graphs="graphs:\n  mlp_ane:\n    targets: [ane]" + BODY.format(act="silu", n=64).replace(
        "a: {op: silu, inputs: [h]}", "a: {op: silu, inputs: [h]}\n      r: {op: relu, inputs: [x]}").replace(
        "y: {op: add, inputs: [x, d]}", "y: {op: add, inputs: [r, d]}"))
    rng = np.random.default_rng(0)
    np.save(p.root / "specs/graphs/w1.npy", (rng.standard_normal((64, 128)) / 8).astype(np.float32))
    np.save(p.root / "specs/graphs/w2.npy", (rng.standard_normal((128, 64)) / 11).astype(np.float32))
    with open(p.root / "pyproject.toml", "a") as f:
        f.write("ane_strict = true\n")  # without it the relu is a CPU node (tests/test_ane_placement.py)
    r = p.doit("build", check=False)
    assert r.rc != 0
    text = r.out + r.err
    # line 11: "r: {op: relu, inputs: [x]}"
    assert "specs/graphs/g.yaml:11: relu 'r'" in text and "off route" in text, text


def test_mil_and_yaml_graph_of_one_name_is_an_error(project):
    p = _project(project, twin=False)
    (p.root / "specs/graphs/mlp_ane.mil").write_text("program(1.3)\n{\n}\n")
    r = p.doit("build", check=False)
    assert r.rc != 0 and "graph 'mlp_ane' is already defined (a YAML graph at specs/graphs/g.yaml)" in r.out + r.err
