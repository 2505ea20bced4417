"""Core ML metadata in every package an ane graph builds: author, version, license and a description in the
model's ``description.metadata``, a description of every input and output; from the graph spec's ``metadata:`` and
``description:``, else the project's ane_author / ane_version / ane_license (their defaults from ``[project]``) and
generated text. Bad values are one spec error at file:line; the metadata is part of the graph's key. model.mil's
buildInfo names only what wrote it (npubuild)."""
from __future__ import annotations

import json
import textwrap

import pytest

from npubuild import __version__

HEAD = 'program(1.3)\n[buildInfo = dict<string, string>({{"coremltools-version", "9.0"}})]\n{\n'
MIL = HEAD + """    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> x) {
        tensor<fp16, [1, 64, 1, 1]> s = sigmoid(x = x)[name = string("s")];
        tensor<fp16, [1, 64, 1, 1]> y = tanh(x = s)[name = string("y")];
    } -> (y);
}
"""

GRAPH = """
graphs:
  g:
    targets: [ane]
{metadata}    inputs: {{x: {{shape: [4, 64], dtype: f32}}}}
    nodes:
      h: {{op: relu, inputs: [x]}}
      y: {{op: sigmoid, inputs: [h]}}
    outputs: [y]
"""

META = """    metadata:
      author: "Ada Lovelace"
      version: "2.1.0"
      license: "Apache-2.0"
      description: "A relu then a sigmoid, for the metadata test."
      inputs: {x: "activations, one row per token"}
      outputs: {y: "the gate, in (0, 1)"}
"""


def load_spec(pkg):
    from npubuild.ane.coreml import coremltools, quiet

    ct = coremltools()[0]
    with quiet():
        return ct.utils.load_spec(str(pkg))


def meta_of(spec) -> dict:
    md = spec.description.metadata
    return {"author": md.author, "version": md.versionString, "license": md.license, "description": md.shortDescription}


def features(spec) -> dict:
    """side + name -> description of every input, output and state (a multifunction package's: per function)."""
    out = {}
    for prefix, holder in [("", spec.description), *((f"{f.name}: ", f) for f in spec.description.functions)]:
        for side in ("input", "output", "state"):
            out.update({f"{prefix}{side} {f.name}": f.shortDescription for f in getattr(holder, side)})
    return out


def packages(graph_dir):
    """(the graph package, [the node packages]) recorded by a built graph's plan.json."""
    rec = json.loads((graph_dir / "plan.json").read_text())
    nodes = [graph_dir / n["mlpackage"]["path"] for n in rec["nodes"] if n.get("mlpackage")]
    return graph_dir / rec["mlpackage"]["path"], nodes


def assert_complete(spec):
    assert all(v.strip() for v in meta_of(spec).values()), meta_of(spec)
    feats = features(spec)
    assert feats and all(v.strip() for v in feats.values()), feats


def graph_text(metadata=""):
    return textwrap.dedent(GRAPH).format(metadata=metadata)


def test_yaml_graph_packages_carry_the_spec_metadata(project):
    p = project(graphs=graph_text(META))
    p.doit("build")
    graph_pkg, node_pkgs = packages(p.artifacts / "ane" / "g")
    spec = load_spec(graph_pkg)
    assert meta_of(spec) == {"author": "Ada Lovelace", "version": "2.1.0", "license": "Apache-2.0",
                             "description": "A relu then a sigmoid, for the metadata test."}
    assert features(spec) == {"input x": "activations, one row per token", "output y": "the gate, in (0, 1)"}
    assert node_pkgs
    for pkg in node_pkgs:  # each node's package: the graph's author, version, license; its own description
        node = load_spec(pkg)
        assert_complete(node)
        assert {k: meta_of(node)[k] for k in ("author", "version", "license")} == {
            "author": "Ada Lovelace", "version": "2.1.0", "license": "Apache-2.0"}
        assert "ane graph 'g': node" in node.description.metadata.shortDescription
        assert f"built by npubuild {__version__}" in node.description.metadata.shortDescription
        assert all(v.startswith(("input in", "output y: fp16 [")) for v in features(node).values()), features(node)


def test_defaults_come_from_the_project_and_generated_text(project):
    p = project(graphs=graph_text())
    (p.root / "pyproject.toml").write_text(
        '[project]\nname = "demo"\nversion = "3.4.5"\nauthors = [{name = "Grace Hopper"}]\nlicense = {text = "MIT"}\n\n'
        + (p.root / "pyproject.toml").read_text())
    p.doit("build")
    graph_pkg, node_pkgs = packages(p.artifacts / "ane" / "g")
    spec = load_spec(graph_pkg)
    assert_complete(spec)
    md = meta_of(spec)
    assert (md["author"], md["version"], md["license"]) == ("Grace Hopper", "3.4.5", "MIT")
    # the generated description: the graph, its ops, its inputs' and outputs' shapes and dtypes, npubuild's version
    for part in ("ane graph 'g'", "relu", "sigmoid", "x fp16 [4, 64]", "y fp16 [4, 64]", f"built by npubuild {__version__}"):
        assert part in md["description"], (part, md["description"])
    assert features(spec) == {"input x": "input x: fp16 [4, 64]", "output y": "output y: fp16 [4, 64]"}
    for pkg in node_pkgs:
        assert_complete(load_spec(pkg))
        assert meta_of(load_spec(pkg))["author"] == "Grace Hopper"


def test_changing_the_author_rebuilds_with_the_new_one(project):
    p = project(graphs=graph_text())
    pp = p.root / "pyproject.toml"
    base = pp.read_text()
    pp.write_text(base + 'ane_author = "First Author"\n')
    assert "compile:g@ane" in p.doit("build").out
    assert "compile:g@ane" not in p.doit("build").out  # up to date
    pp.write_text(base + 'ane_author = "Second Author"\n')
    assert "compile:g@ane" in p.doit("build").out
    graph_pkg, node_pkgs = packages(p.artifacts / "ane" / "g")
    assert {meta_of(load_spec(x))["author"] for x in [graph_pkg, *node_pkgs]} == {"Second Author"}


def test_the_key_covers_the_metadata(tmp_path):
    from npubuild.ane.build import graph_key
    from npubuild.ane.plan_model import PlanBounds

    src = tmp_path / "g.mil"
    src.write_text(MIL)
    a = graph_key(src, PlanBounds(package_meta=("A", "1", "MIT")))
    assert a == graph_key(src, PlanBounds(package_meta=("A", "1", "MIT")))
    assert a != graph_key(src, PlanBounds(package_meta=("B", "1", "MIT")))
    assert a != graph_key(src, PlanBounds(package_meta=("A", "2", "MIT")))
    assert a != graph_key(src, PlanBounds())


def test_a_mil_graph_gets_defaults_and_every_feature_a_description(tmp_path):
    """A .mil graph has no spec metadata: the project's values (here npubuild's defaults) and generated text, in
    the graph package and the per-node packages; model.mil's buildInfo names npubuild, not coremlc."""
    from npubuild.ane.build import plan_graph, write_graph
    from npubuild.ane.metadata import PackageMeta
    from npubuild.ane.mil_model import MilBounds

    src = tmp_path / "g.mil"
    src.write_text(MIL)
    out = tmp_path / "g"
    write_graph(plan_graph(src, "g.mil", MilBounds()), out, (src, "g.mil", MilBounds()),
                meta=PackageMeta("Team NPU", "7", "BSD-3-Clause"))
    graph_pkg, node_pkgs = packages(out)
    for pkg in [graph_pkg, *node_pkgs]:
        spec = load_spec(pkg)
        assert_complete(spec)
        assert (spec.description.metadata.author, spec.description.metadata.versionString,
                spec.description.metadata.license) == ("Team NPU", "7", "BSD-3-Clause")
    spec = load_spec(graph_pkg)
    assert features(spec) == {"input x": "input x: fp16 [1, 64, 1, 1]", "output y": "output y: fp16 [1, 64, 1, 1]"}
    assert "sigmoid" in spec.description.metadata.shortDescription and "tanh" in spec.description.metadata.shortDescription
    mils = sorted(out.rglob("model.mil"))
    assert mils
    for m in mils:
        info = m.read_text().splitlines()[1]
        assert f'{{"npubuild-version", "{__version__}"}}' in info and "npubuild-ane-route" in info
        assert "coremlc" not in info and "coremltools" not in info


def test_model_mil_still_reads_and_replays_in_coremltools(tmp_path):
    """The new buildInfo costs nothing: npubuild's reader takes the file and coremltools' builder re-creates and
    converts the program (coremltools' own loader skips buildInfo: milproto load's _load_program_spec_attributes)."""
    from npubuild.ane.build import plan_graph, write_graph
    from npubuild.ane.coreml_graph import graph_program
    from npubuild.ane.mil import load_mil
    from npubuild.ane.mil_model import MilBounds

    src = tmp_path / "g.mil"
    src.write_text(MIL)
    out = tmp_path / "g"
    write_graph(plan_graph(src, "g.mil", MilBounds()), out)
    for m in sorted(out.rglob("model.mil")):
        prog = load_mil(m, m.name, MilBounds())
        assert graph_program(prog.main, m.name).functions["main"].operations


@pytest.mark.parametrize("text, message", [
    ('{author: "A", version: 1.0}', "graph 'g': metadata version must be a string, got 1.0 (float; quote it)"),
    ('{author: ""}', "graph 'g': metadata author must not be empty"),
    ('{license: "' + "x" * 1001 + '"}', "graph 'g': metadata license is 1001 characters long, over the limit of 1000"),
    ('{authr: "A"}', "unknown key 'authr' in metadata of graph 'g' (did you mean 'author'?)"),
    ('"A"', "metadata of graph 'g' must be a mapping"),
    ("{inputs: {x: [1, 2]}}", "graph 'g': metadata inputs 'x' must be a string, got [1, 2] (list; quote it)"),
    ('{outputs: {y: "' + "y" * 1001 + '"}}', "graph 'g': metadata outputs 'y' is 1001 characters long"),
    ('{outputs: {z: "no such output"}}', "graph 'g': metadata outputs names 'z', which is not one of its outputs; its outputs are y"),
    ('{inputs: [x]}', "graph 'g': metadata inputs must be a mapping such as {x: \"what x is\"}"),
], ids=["float-version", "empty-author", "long-license", "unknown-key", "not-a-mapping", "list-description",
        "long-description", "unknown-output", "inputs-not-a-mapping"])
def test_a_bad_value_is_one_error_at_its_line(project, text, message):
    p = project(graphs=graph_text(f"    metadata: {text}\n"))
    r = p.doit("build", check=False)
    assert r.rc != 0
    out = r.out + r.err
    lines = [ln for ln in out.splitlines() if message in ln]
    assert len(lines) == 1, out
    spec_lines = (p.root / "specs/graphs/g.yaml").read_text().splitlines()
    want = next(i + 1 for i, s in enumerate(spec_lines) if "metadata:" in s)
    assert f"specs/graphs/g.yaml:{want}: " in lines[0], lines[0]
    assert "Traceback" not in out


def test_a_bad_config_value_names_pyproject(project):
    p = project(graphs=graph_text())
    pp = p.root / "pyproject.toml"
    pp.write_text(pp.read_text() + "ane_author = 5\n")
    r = p.doit("build", check=False)
    out = r.out + r.err
    assert r.rc != 0 and "pyproject.toml: [tool.npubuild] ane_author must be a string, got 5 (int; quote it)" in out, out
    assert "Traceback" not in out


def test_a_multifunction_package_carries_it_for_every_function(tmp_path):
    from npubuild.ane.build import plan_functions, write_functions
    from npubuild.ane.metadata import PackageMeta
    from npubuild.ane.mil_model import MilBounds

    def fn(name, n):
        return (f"    func {name}<ios18>(tensor<fp16, [1, 64, 1, {n}]> x) {{\n"
                f'        tensor<fp16, [1, 64, 1, {n}]> y = sigmoid(x = x)[name = string("y")];\n    }} -> (y);\n')

    src = tmp_path / "m.mil"
    src.write_text("program(1.3)\n{\n" + fn("main", 8) + fn("decode", 1) + "}\n")
    out = tmp_path / "m"
    write_functions(plan_functions(src, "m.mil", MilBounds()), out, (src, "m.mil", MilBounds()), PackageMeta("Team", "9", "MIT"))
    rec = json.loads((out / "plan.json").read_text())
    spec = load_spec(out / rec["mlpackage"]["path"])
    assert [f.name for f in spec.description.functions] == ["main", "decode"]
    assert_complete(spec)
    assert meta_of(spec)["author"] == "Team" and "functions main, decode" in meta_of(spec)["description"]
    for f in spec.description.functions:
        assert [x.shortDescription for x in f.input] == [f"input x: fp16 [1, 64, 1, {8 if f.name == 'main' else 1}]"]
        assert [x.shortDescription for x in f.output] == [f"output y: fp16 [1, 64, 1, {8 if f.name == 'main' else 1}]"]
