"""`npubuild show`, `inputs`, `run --example` and `graph` on the repository's example
specs (built once per module, as tests/test_examples.py does), plus DOT escaping
of hostile names and the Graphviz rendering path.

The commands run in-process through ``npubuild.cli.main`` (fast); one test runs
the console entry point in a subprocess to see the user's view (exit code,
one line on stderr, no traceback).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from npubuild.cli import main
from npubuild.runner.examples import example_array, example_arrays
from npubuild.runner.graph_dot import quote, signature_dot
from npubuild.runner.npzio import read_npz, write_npz

from .conftest import REPO, new_project

GRAPHS = ("elementwise_chain", "mlp_block", "swiglu")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    p = new_project(tmp_path_factory.mktemp("graphcli") / "proj")
    shutil.copytree(REPO / "specs", p.root / "specs")
    p.doit("build")
    p.manifest = json.loads((p.artifacts / "manifest.json").read_text())
    return p


@pytest.fixture
def cli(built, capsys, monkeypatch):
    """Run ``npubuild ARGS`` in the built project: (exit code, stdout, stderr)."""
    monkeypatch.chdir(built.root)

    def run(*args):
        rc = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return rc, out, err

    return run


def need_dot() -> str:
    """Graphviz's dot: skip without it here, fail without it in CI (scripts/install-test-servers installs it)."""
    path = shutil.which("dot")
    if path:
        return path
    msg = "Graphviz `dot` not found: run scripts/install-test-servers (apt-get install graphviz)"
    if os.environ.get("CI"):
        pytest.fail(msg + " (CI is set, so this is a failure, not a skip)")
    pytest.skip(msg)


# -- show --------------------------------------------------------------------------------


@pytest.mark.parametrize("graph", GRAPHS)
def test_show_lists_the_signature_and_nodes(cli, built, graph):
    rc, out, err = cli("show", graph)
    assert rc == 0, err
    rec = built.manifest["graphs"][graph]
    for name, sig in rec["inputs"].items():
        assert re.search(rf"^  {re.escape(name)}\s+{sig['dtype']} {re.escape(str(sig['shape']))}$", out, re.M), out
    for name, sig in rec.get("params", {}).items():
        assert re.search(rf"^  {re.escape(name)}\s+{sig['dtype']} {re.escape(str(sig['shape']))}$", out, re.M), out
    n = len(rec["steps"]) if "steps" in rec else len(rec["nodes"])
    assert f"nodes ({n}):" in out
    for s in rec.get("steps", []):  # every step's kernel id and the targets it has
        line = next(ln for ln in out.splitlines() if f"kernel {s['kernel']}" in ln)
        assert "host" in line and s["node"] in line


def test_show_json_has_shapes_dtypes_kernels_and_targets(cli, built):
    rc, out, _ = cli("show", "mlp_block", "--json")
    assert rc == 0
    doc = json.loads(out)
    rec = built.manifest["graphs"]["mlp_block"]
    assert doc["inputs"] == {"x": {"shape": [8, 256], "dtype": "f32"}}
    assert doc["params"] == rec["params"] and set(doc["params"]) == {"w1", "gamma"}
    assert doc["outputs"] == {"y": {"shape": [8, 512], "dtype": "f32"}}
    assert [n["kernel"] for n in doc["nodes"]] == [s["kernel"] for s in rec["steps"]]
    matmul = doc["nodes"][0]
    assert (matmul["op"], matmul["dtype"]) == ("matmul", "i8")
    assert matmul["targets"] == ["ref", "host", "xdna"]
    assert "xdna" in matmul["not_compiled"]  # no mlir-aie here: emitted only, and the build said why
    assert doc["tensors"]["h"] == {"shape": [8, 512], "dtype": "f32"}


def test_show_json_of_an_ane_graph(cli, built):
    rc, out, _ = cli("show", "swiglu", "--json")
    assert rc == 0
    doc = json.loads(out)
    rec = built.manifest["graphs"]["swiglu"]
    assert doc["kind"] == "ane"
    assert doc["inputs"] == {"x": {"shape": [1, 64, 1, 1], "dtype": "fp16"}}
    assert doc["outputs"]["y"]["shape"] == [1, 64, 1, 1]
    assert len(doc["nodes"]) == len(rec["nodes"])
    assert [n["name"] for n in doc["nodes"]] == [rec["nodes"][i]["name"] for i in rec["order"]]  # run order
    by_name = {n["name"]: n for n in doc["nodes"]}
    assert by_name["y"]["op"] == "ew add" and set(by_name["y"]["inputs"]) == {"x", "dnc%rp"}
    assert any(n["targets"] == ["host"] for n in doc["nodes"])  # rms_norm's rsqrt runs on the host


def test_show_works_from_a_shared_artifact_folder_without_specs(built, tmp_path, capsys, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    shutil.copy(built.artifacts / "manifest.json", shared / "manifest.json")
    monkeypatch.chdir(tmp_path)  # no project here
    assert main(["show", "elementwise_chain", "--artifacts", str(shared)]) == 0
    out = capsys.readouterr().out
    assert "bias  f32 [1]" in out and "constants:" in out


@pytest.mark.parametrize("cmd", [["show"], ["inputs", "-o", "x.npz"], ["graph"], ["run"]])
def test_an_unknown_graph_is_one_error_with_did_you_mean(cli, cmd):
    rc, out, err = cli(cmd[0], "mlp_blok", *cmd[1:])
    assert rc == 1 and "Traceback" not in err
    # run also takes a kernel id: it says so
    assert ("no graph or kernel 'mlp_blok'" if cmd == ["run"] else "no graph 'mlp_blok'") in err and "did you mean 'mlp_block'?" in err
    assert "elementwise_chain, kv_decode, mlp_block, swiglu, train_mlp" in err


# -- run --example, inputs ---------------------------------------------------------------


@pytest.mark.parametrize("graph", GRAPHS)
def test_run_example_works_and_is_seeded(cli, built, graph, tmp_path):
    outs = {}
    for name, seed in (("a", 1), ("b", 1), ("c", 2)):
        rc, _, err = cli("run", graph, "--example", "--seed", seed, "-o", tmp_path / f"{name}.npz")
        assert rc == 0, err
        outs[name] = read_npz(tmp_path / f"{name}.npz", "outputs")
    assert set(outs["a"]) == set(built.manifest["graphs"][graph]["outputs"])
    for k in outs["a"]:
        assert np.isfinite(outs["a"][k].astype(np.float32)).all()
        np.testing.assert_array_equal(outs["a"][k], outs["b"][k])  # same seed, same values
        assert not np.array_equal(outs["a"][k], outs["c"][k])  # another seed, other values


def test_run_json_reports_the_outputs(cli, built, tmp_path):
    rc, out, err = cli("run", "elementwise_chain", "--example", "--seed", 3, "--json", "-o", tmp_path / "y.npz")
    assert rc == 0, err
    doc = json.loads(out)  # stdout is the JSON document alone
    y = read_npz(tmp_path / "y.npz", "outputs")
    assert doc["graph"] == "elementwise_chain" and doc["backend"] in ("host", "ref") and doc["output_file"].endswith("y.npz")
    assert set(doc["outputs"]) == set(y)
    for name, arr in y.items():
        rec = doc["outputs"][name]
        assert rec["shape"] == list(arr.shape) and rec["dtype"] == str(arr.dtype)
        f = arr.astype(np.float64)
        assert rec["min"] == f.min() and rec["max"] == f.max() and rec["nan"] == 0
        np.testing.assert_array_equal(np.array(rec["values"], dtype=np.float64), f)  # the values themselves


def test_run_json_writes_non_finite_values_as_null():
    from npubuild.cli.run import run_report

    out = {"y": np.array([1.0, np.nan, -np.inf], dtype=np.float32), "i": np.array([3, 4], dtype=np.int64)}
    doc = run_report("g", "ref", None, out, None)
    json.dumps(doc, allow_nan=False)  # valid JSON: no NaN literals
    assert doc["outputs"]["y"]["values"] == [1.0, None, None] and doc["outputs"]["y"]["nan"] == 1 and doc["outputs"]["y"]["inf"] == 1
    assert doc["outputs"]["y"]["min"] == doc["outputs"]["y"]["max"] == 1.0
    assert doc["outputs"]["i"]["values"] == [3, 4] and doc["outputs"]["i"]["dtype"] == "int64"


@pytest.mark.parametrize("graph", ["mlp_block", "swiglu"])
def test_inputs_writes_what_run_accepts(cli, built, graph, tmp_path):
    x, p = tmp_path / "x.npz", tmp_path / "p.npz"
    rc, _, err = cli("inputs", graph, "-o", x, "--params", p, "--seed", 5)
    assert rc == 0, err
    inputs = read_npz(x, "inputs")
    rec = built.manifest["graphs"][graph]
    assert {n: (list(a.shape), a.dtype.name) for n, a in inputs.items()} == {
        n: (s["shape"], {"f32": "float32", "fp16": "float16"}[s["dtype"]]) for n, s in rec["inputs"].items()
    }
    rc, _, err = cli("run", graph, "-i", x, "-p", p, "-o", tmp_path / "y1.npz")
    assert rc == 0, err
    # the files hold exactly the arrays --example draws for the same seed
    rc, _, err = cli("run", graph, "--example", "--seed", 5, "-o", tmp_path / "y2.npz")
    assert rc == 0, err
    y1, y2 = read_npz(tmp_path / "y1.npz", "o"), read_npz(tmp_path / "y2.npz", "o")
    for k in y1:
        np.testing.assert_array_equal(y1[k], y2[k])


def test_inputs_without_params_says_the_graph_takes_them(cli, tmp_path):
    rc, _, err = cli("inputs", "mlp_block", "-o", tmp_path / "x.npz")
    assert rc == 0 and "also takes params (gamma f32 [512], w1 f32 [256, 512])" in err
    assert set(read_npz(tmp_path / "x.npz", "inputs")) == {"x"}


@pytest.mark.parametrize("flag", ["-o", "--params"])
def test_inputs_refuses_a_missing_directory_and_writes_nothing(cli, tmp_path, flag):
    good, bad = tmp_path / "x.npz", tmp_path / "nowhere" / "p.npz"
    args = ["-o", bad] if flag == "-o" else ["-o", good, "--params", bad]
    rc, _, err = cli("inputs", "mlp_block", *args)
    assert rc == 1 and f"cannot write {bad} ({flag}): its directory {bad.parent} does not exist" in err
    assert not good.exists() and not bad.parent.exists()


def test_inputs_refuses_one_file_for_inputs_and_params(cli, tmp_path):
    rc, _, err = cli("inputs", "mlp_block", "-o", tmp_path / "x.npz", "--params", tmp_path / "x.npz")
    assert rc == 1 and "-o and --params are the same file" in err and not (tmp_path / "x.npz").exists()


def test_a_missing_input_names_its_shape_and_dtype(cli, tmp_path):
    write_npz(tmp_path / "p.npz", {"gamma": np.ones(512, np.float32), "w1": np.ones((256, 512), np.float32)})
    rc, _, err = cli("run", "mlp_block", "-p", tmp_path / "p.npz")
    assert rc == 1
    assert "graph 'mlp_block': missing inputs: x (f32 [8, 256]); give -i INPUTS.npz" in err
    rc, _, err = cli("run", "mlp_block")
    assert "missing params: gamma (f32 [512]), w1 (f32 [256, 512]); missing inputs: x (f32 [8, 256]); give -p PARAMS.npz and -i INPUTS.npz" in err


def test_an_ane_graph_never_runs_on_inputs_nobody_gave(cli):
    """Its runtime keeps an input not written (state, zeros at first); the CLI requires every one."""
    rc, out, err = cli("run", "swiglu")
    assert rc == 1 and out == ""
    assert "graph 'swiglu': missing inputs: x (fp16 [1, 64, 1, 1])" in err


@pytest.mark.parametrize("graph", ["mlp_block", "swiglu"])
def test_an_unknown_input_name_is_an_error(cli, graph, tmp_path):
    x = tmp_path / "x.npz"
    assert cli("inputs", graph, "-o", x)[0] == 0
    write_npz(x, {**read_npz(x, "inputs"), "typo": np.zeros(3, np.float32)})
    rc, _, err = cli("run", graph, "-i", x, "--example")
    assert rc == 1 and "unknown input" in err and "typo" in err


def test_example_values_of_every_dtype():
    rng = np.random.default_rng(0)
    a = example_array({"shape": [64, 8], "dtype": "bf16"}, rng)
    assert a.dtype.name == "bfloat16" and a.shape == (64, 8) and 0.2 < float(np.std(a.astype(np.float32))) < 1
    i = example_array({"shape": [1000], "dtype": "i8"}, rng)
    assert i.dtype == np.int8 and i.min() >= -4 and i.max() <= 4 and len(set(i.tolist())) == 9
    b = example_array({"shape": [1000], "dtype": "bool"}, rng)
    assert b.dtype == np.bool_ and 300 < b.sum() < 700
    assert example_array({"shape": [2, 3], "dtype": "fp16"}, rng).dtype == np.float16
    sig = {"inputs": {"x": {"shape": [4], "dtype": "f32"}}, "params": {}}
    x1, _ = example_arrays(sig, 7)
    sig["params"] = {"w": {"shape": [4], "dtype": "f32"}}
    x2, p2 = example_arrays(sig, 7)
    np.testing.assert_array_equal(x1["x"], x2["x"])  # a new param does not change the inputs
    assert set(p2) == {"w"}


# -- graph -------------------------------------------------------------------------------


def _dot_statements(text: str) -> list[str]:
    """The statements of npubuild's DOT, each checked to be one complete line with well-formed quoted strings."""
    lines = text.strip().splitlines()
    assert lines[0].startswith("digraph ") and lines[-1] == "}"
    quoted = r'"(?:[^"\\\n]|\\.)*"'
    stmt = re.compile(rf'^  (?:\w+=(?:{quoted}|\w+);(?: \w+=\w+;)?|(?:node|edge) \[.*\];|[nt]\d+(?: -> [nt]\d+)? ?(?:\[(?:\w+={quoted}|\w+=[\w.]+)(?:, \w+=(?:{quoted}|[\w.]+))*\])?;)$')
    for ln in lines[1:-1]:
        assert stmt.match(ln), f"not a DOT statement npubuild writes: {ln!r}"
    return lines[1:-1]


def _edges(stmts: list[str]) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for ln in stmts if (m := re.match(r"^  ([nt]\d+) -> ([nt]\d+)", ln))]


def test_graph_dot_has_nodes_with_op_dtype_targets_kernel_and_shaped_edges(cli, built, tmp_path):
    out = tmp_path / "g.dot"
    rc, _, err = cli("graph", "mlp_block", "-o", out)
    assert rc == 0, err
    text = out.read_text()
    stmts = _dot_statements(text)
    rec = built.manifest["graphs"]["mlp_block"]
    for s in rec["steps"]:
        assert any(f"{s['kernel']}\"" in ln and "targets: ref, host, xdna (not compiled)" in ln for ln in stmts), s
    assert '[label="h\\nmatmul i8\\n' in text
    assert 'label="input x\\n[8, 256] f32", shape=invhouse' in text
    assert 'label="param w1\\n[256, 512] f32", shape=folder' in text
    assert 'label="output y\\n[8, 512] f32", shape=house' in text
    edges = _edges(stmts)
    assert len(edges) == 6 and '[label="h\\n[8, 512] f32"]' in text  # x, w1 -> h -> a, gamma -> y -> output
    # without -o: the same text on stdout
    assert cli("graph", "mlp_block")[1] == text


def test_graph_of_an_ane_graph_connects_every_node(cli, tmp_path):
    rc, out, _ = cli("graph", "swiglu")
    assert rc == 0
    stmts = _dot_statements(out)
    nodes = {ln.split()[0] for ln in stmts if re.match(r"^  n\d+ \[", ln)}
    edges = _edges(stmts)
    touched = {a for a, _ in edges} | {b for _, b in edges}
    assert nodes == touched  # no node without an edge: every input of a node found its producer
    assert 'label="dnc%rp\\nstrided[64] fp16"' in out


def test_graph_svg_is_valid_svg(cli, tmp_path):
    need_dot()
    out = tmp_path / "g.svg"
    rc, _, err = cli("graph", "mlp_block", "-o", out)
    assert rc == 0, err
    root = ET.parse(out).getroot()
    assert root.tag.endswith("svg")
    text = out.read_text()
    assert "matmul_i8_8x256_256x512" in text and "[256, 512] f32" in text
    png = tmp_path / "g.png"
    assert cli("graph", "swiglu", "-o", png)[0] == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_svg_without_graphviz_is_one_clear_error(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    rc, _, err = cli("graph", "mlp_block", "-o", tmp_path / "g.svg")
    assert rc == 1 and "needs Graphviz's `dot`, which is not on PATH" in err and "write a .dot file" in err
    assert not (tmp_path / "g.svg").exists()
    assert cli("graph", "mlp_block", "-o", tmp_path / "g.dot")[0] == 0  # DOT needs no Graphviz


@pytest.mark.parametrize("args, msg", [
    (["mlp_block", "-o", "g.txt"], "cannot tell the picture format of g.txt: name it .svg, .png or .dot"),
    (["mlp_block", "-o", "nowhere/g.dot"], "its directory nowhere does not exist"),
    ([], "give a graph name or --tasks"),
    (["mlp_block", "--tasks"], "give a graph name or --tasks"),
])
def test_graph_refuses_bad_requests(cli, args, msg):
    rc, _, err = cli("graph", *args)
    assert rc == 1 and msg in err


HOSTILE = ['a"b', 'x"]; evil -> n0; "', "back\\slash\\", "two\nlines", "\\N\\G\\l", "<b>&amp;</b>", "{rec|ord}", "nul\x00\x01"]


def _hostile_signature() -> dict:
    h = HOSTILE
    t = {"shape": [2, 2], "dtype": "f32"}
    return {
        "graph": h[1], "file": h[2], "targets": [],
        "inputs": {h[0]: t}, "params": {h[3]: t}, "constants": {h[5]: t},
        "outputs": {h[6]: t},
        "tensors": {n: t for n in h},
        "nodes": [{"name": h[6], "op": h[4], "dtype": "f32", "kernel": h[7], "targets": [h[2]], "not_compiled": {},
                   "inputs": [h[0], h[3], h[5]], "outputs": [h[6]]}],
    }


def test_hostile_names_are_escaped_in_dot():
    text = signature_dot(_hostile_signature())
    stmts = _dot_statements(text)
    assert len(_edges(stmts)) == 4  # three inputs and the output, nothing injected
    assert quote('a"b') == '"a\\"b"' and quote("a\\") == '"a\\\\"' and quote("l1\nl2") == '"l1\\nl2"'
    assert "\x00" not in text and quote("\ud800") == '"?"'


def test_hostile_names_render_with_graphviz(tmp_path):
    dot = need_dot()
    r = subprocess.run([dot, "-Tsvg"], input=signature_dot(_hostile_signature()).encode(), capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()
    root = ET.fromstring(r.stdout)
    texts = [e.text for e in root.iter() if e.tag.endswith("text")]
    # shown literally: no escape, entity or record syntax of Graphviz is interpreted
    assert 'input a"b' in texts and "targets: back\\slash\\" in texts and "\\N\\G\\l f32" in texts
    assert "constant <b>&amp;</b>" in texts and "{rec|ord}" in texts and 'graph x"]; evil -> n0; " (back\\slash\\)' in texts
    assert sum(1 for e in root.iter() if e.get("class") == "edge") == 4


def test_a_hostile_manifest_graph_name_end_to_end(built, tmp_path, capsys):
    """A shared manifest whose graph is named with quotes and a newline: show and graph still work."""
    m = json.loads(json.dumps(built.manifest))
    name = 'bad"name\n'
    m["graphs"][name] = m["graphs"].pop("mlp_block")
    m["graphs"][name]["steps"][0]["node"] = 'h"]; x -> y; "'
    (tmp_path / "manifest.json").write_text(json.dumps(m))
    assert main(["graph", name, "--artifacts", str(tmp_path), "-o", str(tmp_path / "g.dot")]) == 0
    _dot_statements((tmp_path / "g.dot").read_text())
    assert main(["show", name, "--artifacts", str(tmp_path)]) == 0
    assert 'h"]; x -> y; "' in capsys.readouterr().out


def test_graph_tasks_draws_the_build_dag(cli, built, tmp_path):
    out = tmp_path / "t.dot"
    rc, _, err = cli("graph", "--tasks", "-o", out)
    assert rc == 0, err
    text = out.read_text()
    stmts = _dot_statements(text)
    label = {ln.split()[0]: re.search(r'label="([^"\\]*)', ln).group(1) for ln in stmts if re.match(r"^  t\d+ \[", ln)}
    edges = {(label[a], label[b]) for a, b in _edges(stmts)}
    host = [k for k, v in built.manifest["kernels"].items() if v["targets"].get("host", {}).get("compiled")]
    assert host
    for kid in host:
        assert (f"emit:{kid}@host", f"compile:{kid}@host") in edges
        assert (f"compile:{kid}@host", "manifest") in edges
    xdna = [k for k, v in built.manifest["kernels"].items() if "xdna" in v["targets"]]
    assert xdna and all((f"emit:{k}@xdna", "manifest") in edges for k in xdna)  # emitted only: no toolchain here
    assert ("compile:swiglu@ane", "manifest") in edges and ("manifest", "build") in edges
    assert not any(v.startswith("compile:") and v.endswith("@xdna") for v in label.values())


def test_the_console_command_prints_one_line_and_no_traceback(built):
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "npubuild.cli", "run", "swiglu"], cwd=built.root, capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith("npubuild: graph 'swiglu': missing inputs: x (fp16 [1, 64, 1, 1])")


def test_graph_tasks_of_a_project_without_specs_is_an_error(tmp_path, capsys, monkeypatch):
    p = new_project(tmp_path / "empty")
    monkeypatch.chdir(p.root)
    assert main(["graph", "--tasks"]) == 1
    assert "define no kernels or ANE graphs: the build has no tasks to draw" in capsys.readouterr().err
