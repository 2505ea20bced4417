"""Two YAML graphs declared as the functions of one model (issue 29, item 3): ``models: {llm: {functions: [prefill,
decode]}}`` builds one multifunction Core ML package whose functions share one weight.bin (coremltools'
save_multifunction), each function runnable on the ``ane`` backend by name; bad ``models:`` entries are one message
at their file:line."""
from __future__ import annotations

import json

import numpy as np
import pytest

import npubuild
from npubuild.core.errors import UserError

# prefill on 8 positions, decode on one: y = x + silu(x @ w), w the same .npy file in both
GRAPH = """
  {name}:
    targets: [ane]
    inputs: {{x: {{shape: [{rows}, 64], dtype: f32}}}}
    constants: {{w: {{shape: [64, 64], file: w.npy}}}}
    nodes:
      h: {{op: matmul, inputs: [x, w]}}
      a: {{op: silu, inputs: [h]}}
      y: {{op: add, inputs: [x, a]}}
    outputs: [y]"""
MODELS = """
models:
  llm:
    functions: [prefill, decode]
"""
SPEC = "graphs:" + GRAPH.format(name="prefill", rows=8) + GRAPH.format(name="decode", rows=1) + "\n" + MODELS


def weight():
    return (np.random.default_rng(4).standard_normal((64, 64)) / 8).astype(np.float32)


def reference(x):
    """y = x + silu(x @ w) in float64 from the fp16 values the ANE graph holds."""
    x64 = x.astype(np.float16).astype(np.float64)
    h = x64 @ weight().astype(np.float16).astype(np.float64)
    return x64 + h / (1 + np.exp(-h))


def _project(project, text=SPEC):
    p = project(graphs=text)
    np.save(p.root / "specs/graphs/w.npy", weight())
    return p


def test_two_yaml_graphs_are_one_multifunction_package_sharing_one_weight(project):
    from npubuild.ane.coreml import coremltools, quiet

    p = _project(project)
    r = p.doit("build")
    assert "compile:llm@ane" in r.out and "compile:prefill@ane" not in r.out  # the functions are built in their model
    m = json.loads((p.artifacts / "manifest.json").read_text())
    assert sorted(m["graphs"]) == ["llm"]
    g = m["graphs"]["llm"]
    assert g["kind"] == "ane" and g["default_function"] == "prefill" and list(g["functions"]) == ["decode"]
    assert g["inputs"]["x"]["shape"] == [8, 64] and g["functions"]["decode"]["inputs"]["x"]["shape"] == [1, 64]
    pkg = p.artifacts / g["mlpackage"]["path"]
    assert [f["name"] for f in g["mlpackage"]["functions"]] == ["prefill", "decode"]

    ct = coremltools()[0]
    with quiet():
        spec = ct.utils.load_spec(str(pkg))
        decode = ct.models.MLModel(str(pkg), skip_model_load=True, function_name="decode")
    assert [f.name for f in spec.description.functions] == ["prefill", "decode"]
    assert spec.description.defaultFunctionName == "prefill" and decode.function_name == "decode"
    assert {f.name: list(f.input[0].type.multiArrayType.shape) for f in spec.description.functions} == \
        {"prefill": [8, 64], "decode": [1, 64]}
    # one weight.bin, holding the 64x64 fp16 weight once although both functions read it
    weights = list(pkg.rglob("weight.bin"))
    assert len(weights) == 1 and 64 * 64 * 2 <= weights[0].stat().st_size < 2 * 64 * 64 * 2

    rng = np.random.default_rng(6)
    x_pre, x_dec = rng.standard_normal((8, 64)).astype(np.float32), rng.standard_normal((1, 64)).astype(np.float32)
    rt = npubuild.load(p.artifacts)
    try:
        got_pre = rt.graph("llm", backend="ane").run(x=x_pre)["y"]
        got_dec = rt.graph("llm", backend="ane", function="decode").run(x=x_dec)["y"]
        with pytest.raises(UserError, match=r"no function 'main'; its functions: prefill, decode"):
            rt.graph("llm", backend="ane", function="main")
    finally:
        rt.close()
    for got, x in ((got_pre, x_pre), (got_dec, x_dec)):
        # fp16 inputs, weight and intermediates (unit roundoff 4.9e-4) over a 64-term dot product and |y| up to ~4:
        # within 2e-2 (the YAML graph test's bound); a wrong function or weight is off by O(1)
        np.testing.assert_allclose(got.astype(np.float64), reference(x), rtol=2e-2, atol=2e-2)


@pytest.mark.slow  # a build and four CLI runs; the fast run keeps the package and runtime checks above
def test_a_model_through_the_cli(project, tmp_path):
    p = _project(project)
    p.doit("build")
    x_dec = np.random.default_rng(6).standard_normal((1, 64)).astype(np.float32)
    rt = npubuild.load(p.artifacts)
    try:
        got_dec = rt.graph("llm", backend="ane", function="decode").run(x=x_dec)["y"]
    finally:
        rt.close()
    np.savez(tmp_path / "x.npz", x=x_dec)
    out = json.loads(p.npubuild("run", "llm", "--function", "decode", "-i", str(tmp_path / "x.npz"), "--json").out)
    np.testing.assert_array_equal(np.asarray(out["outputs"]["y"]["values"], np.float16).reshape(1, 64), got_dec)
    assert p.npubuild("show", "llm").out.splitlines()[1].startswith("functions: prefill (default, shown), decode")
    assert p.npubuild("verify").rc == 0
    assert p.doit("build").summary["compiled"] == 0  # nothing changed: nothing runs


@pytest.mark.parametrize("models, line, why", [
    ("models:\n  llm:\n    functions: [prefill, nope]\n", 22, "model 'llm': function 'nope' is no graph of the specs"),
    ("models:\n  llm:\n    functions: [prefill, prefill]\n", 22, "model 'llm' lists function 'prefill' twice"),
    ("models:\n  llm:\n    functions: [prefill]\n", 22, "model 'llm' has 1 function(s); a multifunction model holds 2 to"),
    ("models:\n  llm:\n    functions: prefill\n", 22, "model 'llm' needs 'functions': a list of the ane graphs"),
    ("models:\n  llm:\n    functions: [prefill, decode]\n    default: decode\n", 23, "unknown key 'default' in model 'llm'"),
    ("models:\n  llm:\n    functions: [prefill, decode]\n  two:\n    functions:\n      - decode\n      - third\n", 25,
     "model 'two': function 'decode' is already a function of model 'llm'"),
    ("models:\n  prefill:\n    functions: [prefill, decode]\n", 21, "model 'prefill' takes the name of the graph or model"),
    ("models:\n  llm:\n    functions: [prefill, host_graph]\n", 22, "function 'host_graph' is a graph with targets"),
])
def test_bad_model_entries_are_one_message_at_their_line(project, models, line, why):
    host = "\n  host_graph:\n    inputs: {x: {shape: [4], dtype: f32}}\n    nodes: {y: {op: relu, inputs: [x]}}\n    outputs: [y]"
    text = "graphs:" + GRAPH.format(name="prefill", rows=8) + GRAPH.format(name="decode", rows=1) + "\n" + models
    p = _project(project, text)
    p.write("specs/graphs/h.yaml", "graphs:" + host + GRAPH.format(name="third", rows=2).replace("w.npy", "../graphs/w.npy") + "\n")
    r = p.doit("build", check=False)
    said = r.out + r.err
    assert r.rc != 0 and len(said.strip().splitlines()) == 1 and why in said, said
    assert said.startswith(f"specs/graphs/g.yaml:{line}: "), said
