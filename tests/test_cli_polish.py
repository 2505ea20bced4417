"""Small command-line promises: output paths whose directory is missing are refused (nothing is
created), and `npubuild build --explain` says why before it builds."""
from __future__ import annotations


def test_pack_and_keygen_refuse_a_missing_parent_directory(project, tmp_path):
    p = project("kernels:\n  a:\n    op: relu\n    shapes:\n      - [64]\n")
    p.doit("build")
    r = p.npubuild("pack", "-o", str(tmp_path / "no" / "such" / "b.tar.zst"), check=False)
    assert r.rc != 0 and "its directory does not exist" in r.err and "Traceback" not in r.err
    k = p.npubuild("keygen", "--dir", str(tmp_path / "no" / "keys"), check=False)
    assert k.rc != 0 and "its parent directory" in k.err and "does not exist" in k.err
    assert not (tmp_path / "no").exists()
    assert p.npubuild("keygen", "--dir", str(tmp_path / "keys")).rc == 0  # a new directory in an existing one is fine


def test_build_explain_says_why_then_builds(project):
    p = project("kernels:\n  a:\n    op: relu\n    shapes:\n      - [64]\n")
    r = p.npubuild("build", "--explain")
    assert "relu_f32_64@host: will be rebuilt: new: no build has made it yet; asked for by kernel family 'a'" in r.out
    assert r.summary["compiled"] == 1
    again = p.npubuild("build", "--explain")
    assert "0 of 1 kernel target(s) will be rebuilt" in again.out and again.summary["compiled"] == 0


def test_version(project):
    from npubuild import __version__

    p = project("kernels:\n  a:\n    op: relu\n    shapes:\n      - [64]\n")
    assert p.npubuild("--version").out.strip() == f"npubuild {__version__}"


def test_build_outside_a_project_writes_nothing(tmp_path):
    import subprocess
    import sys

    empty = tmp_path / "not_a_project"
    empty.mkdir()
    r = subprocess.run([sys.executable, "-m", "npubuild.cli", "build"], cwd=empty, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "not in an npubuild project" in r.stderr and "Traceback" not in r.stderr
    assert list(empty.iterdir()) == []


def test_ops_op_is_readable_and_json_op_is_one_record(project):
    import json

    p = project("kernels:\n  a:\n    op: relu\n    shapes:\n      - [64]\n")
    text = p.npubuild("ops", "gelu").out
    assert text.startswith("gelu (unary): ") and "approximate (str, default \"none\")" in text
    # the default erf form: npubuild's bf16 polynomial; the tanh form: mlir-aie's kernel under auto
    assert "npu1 bf16: generated vector x16" in text and "mlir-aie: aie_kernels/aie2/gelu.cc" in text
    assert "default (auto): generated (mlir-aie kernel when approximate: tanh)" in text
    one = json.loads(p.npubuild("ops", "--json", "gelu").out)
    assert one["name"] == "gelu" and "bodies" in one["targets"]["xdna"]


def test_list_names_the_ane_graphs(project):
    import shutil

    from .conftest import REPO

    p = project("kernels:\n  a:\n    op: relu\n    shapes:\n      - [64]\n")
    (p.root / "specs" / "graphs").mkdir(parents=True)
    shutil.copy(REPO / "specs" / "graphs" / "swiglu.mil", p.root / "specs" / "graphs")
    shutil.copytree(REPO / "specs" / "graphs" / "weights", p.root / "specs" / "graphs" / "weights")
    out = p.npubuild("list").out
    assert "1 ane graphs" in out and "swiglu" in out and "specs/graphs/swiglu.mil" in out


def test_unknown_build_options_get_a_usage_message(project):
    p = project("kernels:\n  a:\n    op: relu\n    shapes:\n      - [64]\n")
    r = p.npubuild("build", "--foo", check=False)
    assert r.rc == 2 and "npubuild build: error: unrecognized argument --foo" in r.err and "CmdOption" not in r.out + r.err
    r = p.npubuild("build", "-n", check=False)
    assert r.rc == 2 and "-n expects a value" in r.err
    assert p.npubuild("build", "-n", "2").summary["compiled"] == 1  # doit's own options pass


def test_cache_push_seeds_a_shared_store(project, tmp_path):
    import json
    import shutil

    p = project("kernels:\n  a:\n    op: relu\n    shapes:\n      - [64]\n      - [128]\n")
    assert p.npubuild("cache", "push", check=False).rc != 0  # no shared store configured: one message
    p.doit("build")  # built before any shared store was configured: nothing was uploaded
    shared = tmp_path / "shared"
    shared.mkdir()
    p.write("pyproject.toml", f'[tool.npubuild]\ntargets = ["ref", "host"]\nstores = ["file://{shared}"]\n')
    r = json.loads(p.npubuild("cache", "push", "--json").out)
    assert r["entries"] == 2 and r["skipped"] == 0 and list(r["pushed"].values()) == [2]
    # a colleague with an empty local store gets both from the shared one
    shutil.rmtree(p.artifacts)
    (p.root / ".npubuild.doit.db").unlink()
    assert p.doit("build").summary["store"] == 2


def test_a_json_command_that_fails_prints_json_too(project):
    """`--json` asked for: a failure is {"error": ...} on stdout (the line on stderr, exit 1), never text on stdout."""
    import json

    p = project("kernels:\n  r:\n    op: relu\n    shapes: [[64]]\n")
    r = p.npubuild("cache", "push", "--json", check=False)
    assert r.rc == 1 and "no read-write store is configured" in r.err
    assert json.loads(r.out) == {"error": r.err.strip().removeprefix("npubuild: ")}
    r = p.npubuild("show", "nope", "--json", check=False)
    assert r.rc == 1 and "error" in json.loads(r.out)
    plain = p.npubuild("cache", "push", check=False)
    assert plain.rc == 1 and plain.out == ""  # without --json: stderr only
