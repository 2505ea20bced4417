"""`npubuild explain` names why a kernel will be rebuilt: a compiler change, an emitter change, a
hand-edited generated source, a new shape; and the build restores a hand-edited source."""
from __future__ import annotations

import json

import pytest

KERNELS = "kernels:\n  a:\n    op: relu\n    shapes:\n      - [64]\n      - [128]\n"


@pytest.fixture
def built(project):
    p = project(KERNELS)
    p.doit("build")
    return p


def _explain(p, *args, env=None):
    r = p.npubuild("explain", "--json", *args, env=env)
    return {row["task"]: (row["runs"], row["reasons"]) for row in json.loads(r.out)}


def test_nothing_changed_says_up_to_date(built):
    rows = _explain(built)
    assert rows == {k: (False, ["nothing it depends on changed"]) for k in ("relu_f32_128@host", "relu_f32_64@host")}
    text = built.npubuild("explain").out
    assert "0 of 2 kernel target(s) will be rebuilt; 2 up to date (--all lists them)" in text


def test_a_compiler_change_is_named(built, tmp_path):
    cc = tmp_path / "mycc"
    cc.write_text('#!/bin/sh\nexec cc "$@"\n')
    cc.chmod(0o755)
    env = {"NPUBUILD_CC": str(cc)}
    runs, why = _explain(built, "relu_f32_64", env=env)["relu_f32_64@host"]
    assert runs
    assert any(w.startswith("C compiler: ") and w.endswith(f"-> {cc}") for w in why), why
    assert why[-1] == "store miss: it compiles"
    assert built.doit("build", env=env).summary["compiled"] == 2
    assert _explain(built, env=env)["relu_f32_64@host"][0] is False


def test_an_emitter_change_is_named(built):
    rec_path = built.artifacts / "kernels" / "relu_f32_64" / "host" / "emit.json"
    rec = json.loads(rec_path.read_text())
    name = "npubuild/emitters/host/elementwise.py"
    assert name in rec["emitter"]
    rec["emitter"][name] = "0" * 64  # as if the kernel had been emitted by another version of that file
    rec_path.write_text(json.dumps(rec))
    runs, why = _explain(built, "emit:relu_f32_64@host")["relu_f32_64@host"]
    assert runs and why == [f"emitter source {name} changed"]
    r = built.doit("build")
    assert r.executed("emit:") == ["emit:relu_f32_64@host"] and r.summary["uptodate"] == 2  # same text: no compile


def test_a_hand_edit_is_named_and_restored(built):
    src = built.artifacts / "kernels" / "relu_f32_128" / "host" / "kernel.mlir"
    original = src.read_text()
    src.write_text(original.replace("arith.maximumf", "arith.minimumf"))
    runs, why = _explain(built)["relu_f32_128@host"]
    assert runs and why[0] == "kernel.mlir was edited by hand (it differs from what the emitter wrote): the build restores it"
    r = built.doit("build")
    assert "warning: relu_f32_128@host: its " in r.out and "was edited by hand; restored what the emitter writes" in r.out
    assert src.read_text() == original
    assert r.summary["compiled"] == 0  # the restored text is what was compiled: the binary stands


def test_a_new_shape_is_named_with_its_spec_line(built):
    built.write("specs/kernels/k.yaml", KERNELS + "      - [256]\n")
    runs, why = _explain(built)["relu_f32_256@host"]
    # the line of the new shape's entry (the 3rd of family 'a', line 7), not the family's (line 2)
    assert runs and why == ["new: no build has made it yet; asked for by kernel family 'a' (specs/kernels/k.yaml:7)"]


def test_an_unknown_kernel_is_one_error(built):
    r = built.npubuild("explain", "relu_f32_65", check=False)
    assert r.rc != 0 and "no kernel 'relu_f32_65' in the plan (did you mean 'relu_f32_64'?)" in r.err
