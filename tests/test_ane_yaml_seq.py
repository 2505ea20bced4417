"""Flexible sequence length (issue 29, item 2): a YAML ane graph with ``seq: [64, 128]`` and an input dimension
written ``seq`` builds one Core ML package whose input carries both shapes as EnumeratedShapes (checked with
coremltools' ``load_spec``), one plan per size, and runs both sizes, ``npubuild run`` picking by the input's
shape; a range of sizes (RangeDim) and other bad ``seq:`` entries are one message at their file:line."""
from __future__ import annotations

import json

import numpy as np
import pytest

import npubuild
from npubuild.core.errors import UserError

SPEC = """
graphs:
  enc:
    targets: [ane]
    seq: [64, 128]
    inputs:
      x: {shape: [seq, 64], dtype: f32}
      b: {shape: [1, 32], dtype: f32}
    constants:
      w: {shape: [64, 32], file: w.npy}
    nodes:
      h: {op: matmul, inputs: [x, w]}
      hb: {op: add, inputs: [h, b]}
      y: {op: sigmoid, inputs: [hb]}
    outputs: [y]
"""


def weight():
    return (np.random.default_rng(2).standard_normal((64, 32)) / 8).astype(np.float32)


def reference(x, b):
    """sigmoid(x @ w + b) in float64 from the fp16 values the graph holds."""
    f = lambda a: a.astype(np.float16).astype(np.float64)  # noqa: E731
    return 1 / (1 + np.exp(-(f(x) @ f(weight()) + f(b))))


def _project(project, text=SPEC):
    p = project(graphs=text)
    np.save(p.root / "specs/graphs/w.npy", weight())
    return p


def test_seq_graph_is_one_package_with_enumerated_shapes_and_runs_both_sizes(project):
    from coremltools.proto.FeatureTypes_pb2 import ArrayFeatureType

    from npubuild.ane.coreml import coremltools, quiet

    p = _project(project)
    p.doit("build")
    g = json.loads((p.artifacts / "manifest.json").read_text())["graphs"]["enc"]
    assert g["seq"]["sizes"] == [64, 128] and g["seq"]["inputs"] == {"x": 0} and list(g["seq"]["plans"]) == ["128"]
    assert g["inputs"]["x"]["shape"] == [64, 64] and g["seq"]["plans"]["128"]["inputs"]["x"]["shape"] == [128, 64]
    assert all(n["mil"]["path"].startswith("ane/enc/seq/128/") for n in g["seq"]["plans"]["128"]["nodes"] if "mil" in n)
    packages = [f for f in (p.artifacts / "ane" / "enc").rglob("*.mlpackage") if f.parent.name == "enc"]
    assert [f.name for f in packages] == ["enc.mlpackage"]  # one graph package for both sizes

    ct = coremltools()[0]
    with quiet():
        spec = ct.utils.load_spec(str(p.artifacts / g["mlpackage"]["path"]))
    x_in, b_in = spec.description.input
    arr = x_in.type.multiArrayType
    assert arr.WhichOneof("ShapeFlexibility") == "enumeratedShapes"
    assert [list(s.shape) for s in arr.enumeratedShapes.shapes] == [[64, 64], [128, 64]] and list(arr.shape) == [64, 64]
    assert ArrayFeatureType.ArrayDataType.Name(arr.dataType) == "FLOAT16"
    assert b_in.type.multiArrayType.WhichOneof("ShapeFlexibility") is None and list(b_in.type.multiArrayType.shape) == [1, 32]
    # in the MIL program the seq dimension is a symbol (coremltools writes an unknown dimension for it)
    dims = spec.mlProgram.functions["main"].inputs[0].type.tensorType.dimensions
    assert dims[0].WhichOneof("dimension") == "unknown" and dims[1].constant.size == 64

    rng = np.random.default_rng(8)
    b = rng.standard_normal((1, 32)).astype(np.float32)
    rt = npubuild.load(p.artifacts)
    try:
        runner = rt.graph("enc", backend="ane")
        for rows in (64, 128, 64):
            x = rng.standard_normal((rows, 64)).astype(np.float32)
            y = runner.run(x=x, b=b)["y"]
            assert y.shape == (rows, 32)
            # fp16 inputs, weight and one rounding of a 64-term dot product (|h| up to ~3) before the sigmoid, whose
            # slope is at most 1/4: within 3e-3 (measured: 4.3e-4); a wrong size's plan would not even fit
            np.testing.assert_allclose(y.astype(np.float64), reference(x, b), atol=3e-3)
        with pytest.raises(UserError, match=r"graph 'enc': inputs x \[96, 64\] match none of its seq sizes \[64, 128\] \(x axis 0\)"):
            runner.run(x=np.zeros((96, 64), np.float32), b=b)
    finally:
        rt.close()


@pytest.mark.slow  # a build and seven CLI runs; the fast run keeps the package and runtime checks above
def test_seq_graph_through_the_cli_verify_and_a_change_of_sizes(project, tmp_path):
    p = _project(project)
    p.doit("build")
    assert p.doit("build").summary["compiled"] == 0  # nothing changed: nothing runs
    g = json.loads((p.artifacts / "manifest.json").read_text())["graphs"]["enc"]
    rng = np.random.default_rng(9)
    b = rng.standard_normal((1, 32)).astype(np.float32)
    x = rng.standard_normal((128, 64)).astype(np.float32)
    np.savez(tmp_path / "in.npz", x=x, b=b)
    out = json.loads(p.npubuild("run", "enc", "-i", str(tmp_path / "in.npz"), "--json").out)
    assert out["outputs"]["y"]["shape"] == [128, 32]
    np.testing.assert_allclose(np.asarray(out["outputs"]["y"]["values"], np.float64).reshape(128, 32), reference(x, b), atol=3e-3)
    assert p.npubuild("show", "enc").out.splitlines()[1] == \
        "seq: 64 (default, shown), 128 (x axis 0; a run picks the size by the input's shape)"
    assert json.loads(p.npubuild("show", "enc", "--json").out)["seq"] == {"sizes": [64, 128], "inputs": {"x": 0}}
    assert p.npubuild("verify").rc == 0
    # a changed file of the 128 plan is caught by verify, as any file of the manifest
    victim = next(n for n in g["seq"]["plans"]["128"]["nodes"] if "weights" in n)["weights"]["path"]
    (p.artifacts / victim).write_bytes((p.artifacts / victim).read_bytes()[:-2] + b"\x00\x7c")
    v = p.npubuild("verify", check=False)
    assert v.rc != 0 and "ane graph enc seq 128 node" in v.err, v.err
    # the sizes are part of the graph's key: other sizes are another build, not the stored one
    p.write("specs/graphs/g.yaml", SPEC.replace("seq: [64, 128]", "seq: [64, 96]"))
    assert "compile:enc@ane" in p.doit("build").out
    g = json.loads((p.artifacts / "manifest.json").read_text())["graphs"]["enc"]
    assert g["seq"]["sizes"] == [64, 96] and list(g["seq"]["plans"]) == ["96"]
    assert not (p.artifacts / "ane" / "enc" / "seq" / "128").exists()  # the old size's files are gone


@pytest.mark.parametrize("edit, line, why", [
    ("seq: {min: 1, max: 512}", 5, "a range of sizes (Core ML's RangeDim) is refused: a flexible range usually moves the model's "
                                   "work off the Neural Engine"),
    ('seq: "1..512"', 5, "RangeDim) is refused"),
    ("seq: [64]", 5, "give 2 to 16 different sizes"),
    ("seq: [64, 64]", 5, "give 2 to 16 different sizes"),
    ("seq: [64, 0]", 5, "must be a list of sizes (positive integers)"),
    ("seq: [64, 128]\n    state: {s: {shape: [1, 32]}}", 5, "a graph with seq: cannot declare state: yet"),
])
def test_bad_seq_entries_are_one_message_at_their_line(project, edit, line, why):
    p = _project(project, SPEC.replace("seq: [64, 128]", edit))
    r = p.doit("build", check=False)
    said = r.out + r.err
    assert r.rc != 0 and len(said.strip().splitlines()) == 1 and why in said, said
    assert said.startswith(f"specs/graphs/g.yaml:{line}: "), said


@pytest.mark.parametrize("text, line, why", [
    (SPEC.replace("[seq, 64]", "[64, 64]"), 5, "seq lists sizes but no input names a dimension 'seq'"),
    (SPEC.replace("    seq: [64, 128]\n", ""), 6, "dimension 'seq' needs the graph's sizes: add seq: [64, 128]"),
    (SPEC.replace("[seq, 64]", "[seq, seq]"), 7, "'seq' names 2 dimensions"),
    (SPEC.replace("targets: [ane]", "targets: [ref]"), 5, "which only an ane graph builds"),
    (SPEC.replace("[1, 32]", "[64, 32]"), 13, "(seq 128) node 'hb' (add) of graph 'enc'"),
])
def test_seq_dimensions_that_cannot_work_are_one_message(project, text, line, why):
    p = _project(project, text)
    r = p.doit("build", check=False)
    said = r.out + r.err
    assert r.rc != 0 and len(said.strip().splitlines()) == 1 and why in said, said
    assert said.startswith(f"specs/graphs/g.yaml:{line}: "), said
