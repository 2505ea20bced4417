"""A multifunction .mil on the ane target: every function is planned and built (the default one's programs as a
one-function graph's, each other's under functions/<name>/), one multifunction graph package holds them all with
the weight they share stored once (coremltools' save_multifunction), and each function runs on the ``ane``
backend by name (``rt.graph(g, function=...)``, ``npubuild run g --function ...``); a function that cannot be
planned refuses the graph in one message naming it and its file:line."""
from __future__ import annotations

import json

import numpy as np
import pytest

import npubuild
from npubuild.core.errors import UserError, VerifyError

CONV = ('conv(dilations = tensor<int32, [2]>([1, 1]), groups = int32(1), pad = tensor<int32, [4]>([0, 0, 0, 0]), '
        'pad_type = string("valid"), strides = tensor<int32, [2]>([1, 1]), weight = W, x = x)')


def function(name: str, seq: int, tail: str = "add(x = c, y = x)") -> str:
    """``y = conv1x1(x, W) + x`` on [1, 64, 1, seq]; W is the same blob in every function."""
    return f"""    func {name}<ios18>(tensor<fp16, [1, 64, 1, {seq}]> x) {{
        tensor<fp16, [64, 64, 1, 1]> W = const()[name = string("W"), val = tensor<fp16, [64, 64, 1, 1]>(BLOBFILE(path = string("@model_path/weights/w.bin"), offset = uint64(0)))];
        tensor<fp16, [1, 64, 1, {seq}]> c = {CONV}[name = string("c")];
        tensor<fp16, [1, 64, 1, {seq}]> y = {tail}[name = string("y")];
    }} -> (y);
"""


def two_functions(decode_tail: str = "add(x = c, y = x)") -> str:
    """prefill (the default function, ``main``) on 64 positions and ``decode`` on one, sharing W."""
    return "program(1.3)\n{\n" + function("main", 64) + function("decode", 1, decode_tail) + "}\n"


def weight():
    return np.random.default_rng(7).uniform(-0.125, 0.125, (64, 64, 1, 1)).astype(np.float16)


def reference(x, w):
    """conv1x1 + x in NumPy (float64 from the fp16 values), independent of npubuild."""
    x64, w64 = x.astype(np.float64), w.astype(np.float64)[:, :, 0, 0]
    return np.einsum("oc,bcht->boht", w64, x64) + x64


@pytest.fixture
def mf_project(project):
    def make(text: str):
        p = project("kernels:\n  r:\n    op: relu\n    shapes:\n      - [4]\n")
        p.write("specs/graphs/g.mil", text)
        (p.root / "specs" / "graphs" / "weights").mkdir(parents=True, exist_ok=True)
        (p.root / "specs" / "graphs" / "weights" / "w.bin").write_bytes(weight().tobytes())
        return p

    return make


def test_two_functions_build_into_one_multifunction_package_and_each_runs(mf_project, tmp_path):
    from npubuild.ane.coreml import coremltools, quiet

    p = mf_project(two_functions())
    p.doit("build")
    m = json.loads((p.artifacts / "manifest.json").read_text())
    g = m["graphs"]["g"]
    assert g["kind"] == "ane" and g["default_function"] == "main" and list(g["functions"]) == ["decode"]
    assert g["inputs"]["x"]["shape"] == [1, 64, 1, 64]
    assert g["functions"]["decode"]["inputs"]["x"]["shape"] == [1, 64, 1, 1]
    # the decode function's programs are its own files, named in the manifest relative to the artifacts
    for n in g["functions"]["decode"]["nodes"]:
        if "mil" in n:
            assert n["mil"]["path"].startswith("ane/g/functions/decode/") and (p.artifacts / n["mil"]["path"]).is_file()
            assert (p.artifacts / n["mlpackage"]["path"]).is_dir()
    pkg_rec = g["mlpackage"]
    assert pkg_rec["default_function"] == "main" and [f["name"] for f in pkg_rec["functions"]] == ["main", "decode"]

    # the package reloads with coremltools and lists both functions, main the default
    ct = coremltools()[0]
    pkg = p.artifacts / pkg_rec["path"]
    with quiet():
        model = ct.models.MLModel(str(pkg), skip_model_load=True)
        decode = ct.models.MLModel(str(pkg), skip_model_load=True, function_name="decode")
    spec = model.get_spec()
    assert [f.name for f in spec.description.functions] == ["main", "decode"]
    assert spec.description.defaultFunctionName == "main" and model.function_name == "main"
    shapes = {f.name: list(f.input[0].type.multiArrayType.shape) for f in spec.description.functions}
    assert shapes == {"main": [1, 64, 1, 64], "decode": [1, 64, 1, 1]}
    assert decode.function_name == "decode"
    # W is shared: the package's weight file holds its 64x64 fp16 values once, not once per function
    wb = pkg / "Data" / "com.apple.CoreML" / "weights" / "weight.bin"
    assert 64 * 64 * 2 <= wb.stat().st_size < 2 * 64 * 64 * 2

    # each function on the ane backend, within fp16 tolerance of NumPy
    w = weight()
    rng = np.random.default_rng(3)
    x_pre = rng.uniform(-1, 1, (1, 64, 1, 64)).astype(np.float16)
    x_dec = rng.uniform(-1, 1, (1, 64, 1, 1)).astype(np.float16)
    rt = npubuild.load(p.artifacts)
    try:
        y_pre = rt.graph("g", backend="ane")
        y_dec = rt.graph("g", backend="ane", function="decode")
        assert y_dec.function == "decode" and y_pre.function == "main"
        got_pre = y_pre.run(x=x_pre)["y"]
        got_dec = y_dec.run(x=x_dec)["y"]
        assert rt.graph("g", backend="ane", function="main").run(x=x_pre)["y"].tolist() == got_pre.tolist()
        with pytest.raises(UserError, match=r"no function 'prefill'; its functions: main, decode"):
            rt.graph("g", backend="ane", function="prefill")
        with pytest.raises(UserError, match=r"must have shape \[1, 64, 1, 1\]"):
            y_dec.run(x=x_pre)
    finally:
        rt.close()
    for got, x in ((got_pre, x_pre), (got_dec, x_dec)):
        want = reference(x, w)
        assert got.shape == want.shape
        np.testing.assert_allclose(got.astype(np.float64), want, rtol=2e-2, atol=2e-2)
    assert not np.allclose(got_dec.astype(np.float64), x_dec.astype(np.float64), atol=1e-2)  # W did something

    # the CLI: run --function, and show names the functions
    np.savez(tmp_path / "x.npz", x=x_dec)
    out = p.npubuild("run", "g", "--function", "decode", "-i", str(tmp_path / "x.npz"), "--json", "--backend", "ane")
    report = json.loads(out.out)
    assert report["function"] == "decode"
    np.testing.assert_allclose(np.asarray(report["outputs"]["y"]["values"]), got_dec.astype(np.float64))
    bad = p.npubuild("run", "g", "--function", "nope", "--example", check=False)
    assert bad.rc != 0 and "no function 'nope'" in bad.err
    shown = p.npubuild("show", "g").out.splitlines()
    assert shown[1] == "functions: main (default, shown), decode (`npubuild run g --function NAME`)"
    assert json.loads(p.npubuild("show", "g", "--json").out)["functions"] == ["main", "decode"]
    assert p.npubuild("verify").rc == 0
    # a second build is a no-op; deleting a decode program's file makes it build again
    assert p.doit("build").summary["compiled"] == 0
    first = next(n for n in g["functions"]["decode"]["nodes"] if "mil" in n)
    # the other functions' files are the manifest's too: pack ships them, verify and load() check them
    assert p.npubuild("pack", "-o", str(p.root / "b.bundle")).rc == 0
    assert p.npubuild("unpack", str(p.root / "b.bundle"), "-C", str(p.root / "elsewhere")).rc == 0
    assert (p.root / "elsewhere" / first["weights"]["path"]).is_file()
    weights = p.artifacts / first["weights"]["path"]
    weights.write_bytes(weights.read_bytes()[:-2] + b"\x00\x7c")
    v = p.npubuild("verify", check=False)
    assert v.rc != 0 and f"altered: {first['weights']['path']} (ane graph g function decode node 0 (c) [weights])" in v.err, v.err
    with pytest.raises(VerifyError, match=rf"ane graph g function decode node 0 \(c\) \[weights\]"):
        npubuild.load(p.artifacts)
    # unverified at load: the runtime still refuses that function when it opens it
    rt = npubuild.load(p.artifacts, verify_files=False)
    try:
        with pytest.raises(VerifyError, match=rf"ANE graph 'g' function 'decode' node 0 \(c\) \[weights\]: {first['weights']['path']} changed"):
            rt.graph("g", backend="ane", function="decode")
        rt.graph("g", backend="ane").run(x=x_pre)  # the default function's files are intact
    finally:
        rt.close()
    victim = first["mil"]["path"]
    (p.artifacts / victim).unlink()
    p.doit("build")
    assert (p.artifacts / victim).is_file()
    rt = npubuild.load(p.artifacts)
    try:
        assert rt.graph("g", backend="ane", function="decode").run(x=x_dec)["y"].tolist() == got_dec.tolist()
    finally:
        rt.close()


@pytest.mark.parametrize("tail, strict, why", [
    # an op no ANE route takes, with ane_strict (without it the op is placed on the CPU)
    ("atan(x = c)", True, "g.mil:11: op 'atan' ('y', shape [1, 64, 1, 1]) is not on an ANE graph route"),
])
def test_a_function_that_cannot_be_planned_refuses_the_graph_naming_it(mf_project, tail, strict, why):
    p = mf_project(two_functions(decode_tail=tail))
    if strict:
        (p.root / "pyproject.toml").write_text((p.root / "pyproject.toml").read_text() + "ane_strict = true\n")
    r = p.doit("build", check=False)
    assert r.rc != 0
    text = r.out + r.err
    assert "(1 of 2 functions cannot be planned; no part of this graph is built)" in text, text
    assert "function 'decode' (specs/graphs/g.mil:8) cannot be planned" in text, text  # where the function starts
    assert why in text, text  # the planner's own file:line and reason
    assert "function 'main'" not in text  # main plans: only decode is named
    m = json.loads((p.artifacts / "manifest.json").read_text())
    assert "g" not in m["graphs"] and "r" in str(m["kernels"])  # the graph is refused whole; the kernel still builds
    assert not (p.artifacts / "ane" / "g" / "plan.json").exists()
