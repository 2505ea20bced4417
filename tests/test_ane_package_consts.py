"""MIL as coremltools writes it builds a Core ML graph package (issue 26, item 2): parameters given as named
consts of every type (string, bool, int, float, int tensors, sub-byte palettized indices) reach coremltools' MIL
builder as its ``const`` takes them; an input coremltools renames (``state`` -> ``state_workaround``) is mapped and recorded; an output
that is only a view of an input builds (a CPU copy) and a second function builds, with file:line refusals where they remain.

Each graph is built with ``doit build``; its package is read back with coremltools (``ct.utils.load_spec`` and
the milproto loader: Linux cannot predict) and evaluated, and the graph runs on the ``ane`` backend within fp16
tolerance of NumPy."""
from __future__ import annotations

import json

import numpy as np
import pytest

from coremltools.converters.mil.mil import types

import npubuild
from npubuild.core.errors import UserError

from .conftest import new_project
from .test_ane_coreml import _lit, _load, fake_coreml_predict

HEAD = 'program(1.3)\n[buildInfo = dict<string, string>({{"coremltools-version", "9.0"}})]\n{\n'

# the review's example: cast's dtype as a named string const
CAST = HEAD + """    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> x) {
            string to_fp32 = const()[name = string("to_fp32"), val = string("fp32")];
            tensor<fp16, [1, 64, 1, 1]> s = sigmoid(x = x)[name = string("s")];
            tensor<fp32, [1, 64, 1, 1]> y = cast(dtype = to_fp32, x = s)[name = string("y")];
    } -> (y);
}
"""

# a conv with every parameter a named const, as coremltools prints one: string, int32 tensors, int32 scalar
CONV = HEAD + f"""    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> x) {{
            string pt = const()[name = string("pt"), val = string("valid")];
            tensor<int32, [2]> st = const()[name = string("st"), val = tensor<int32, [2]>([1, 1])];
            tensor<int32, [4]> pd = const()[name = string("pd"), val = tensor<int32, [4]>([0, 0, 0, 0])];
            tensor<int32, [2]> dl = const()[name = string("dl"), val = tensor<int32, [2]>([1, 1])];
            int32 gr = const()[name = string("gr"), val = int32(1)];
            tensor<fp16, [64, 64, 1, 1]> w = const()[name = string("w"), val = {_lit([64, 64, 1, 1], 1)}];
            tensor<fp16, [1, 64, 1, 1]> y = conv(dilations = dl, groups = gr, pad = pd, pad_type = pt, strides = st, weight = w, x = x)[name = string("y")];
    }} -> (y);
}}
"""

# bool (matmul's transposes), int32 scalar (softmax's axis), fp16 scalar (an add's operand), string (gelu's mode)
PARAMS = HEAD + f"""    func main<ios18>(tensor<fp16, [1, 1, 1, 64]> x) {{
            bool tx = const()[name = string("tx"), val = bool(false)];
            bool ty = const()[name = string("ty"), val = bool(true)];
            tensor<fp16, [32, 64]> w = const()[name = string("w"), val = {_lit([32, 64], 2)}];
            tensor<fp16, [1, 1, 1, 32]> u = matmul(transpose_x = tx, transpose_y = ty, x = x, y = w)[name = string("u")];
            fp16 half = const()[name = string("half"), val = fp16(0x1p-1)];
            tensor<fp16, [1, 1, 1, 32]> v = add(x = u, y = half)[name = string("v")];
            int32 ax = const()[name = string("ax"), val = int32(-1)];
            tensor<fp16, [1, 1, 1, 32]> s = softmax(axis = ax, x = v)[name = string("s")];
            string md = const()[name = string("md"), val = string("TANH_APPROXIMATION")];
            tensor<fp16, [1, 1, 1, 32]> y = gelu(mode = md, x = v)[name = string("y")];
    }} -> (s, y);
}}
"""

# an input named `state`: coremltools names it state_workaround in the package
STATE = HEAD + """    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> state) {
            tensor<fp16, [1, 64, 1, 1]> y = sigmoid(x = state)[name = string("y")];
    } -> (y);
}
"""

# a palettized weight: uint4 indices (one 16-entry palette) given as a named const of a sub-byte type
_IDX = np.random.default_rng(5).integers(0, 16, size=(32, 64))
_LUT = (np.linspace(-1, 1, 16) / 4).astype(np.float16)
PALETTIZED = HEAD + f"""    func main<ios18>(tensor<fp16, [1, 1, 1, 64]> x) {{
            tensor<uint4, [32, 64]> wi = const()[name = string("wi"), val = tensor<uint4, [32, 64]>([{", ".join(map(str, _IDX.reshape(-1)))}])];
            tensor<fp16, [1, 1, 16, 1]> wl = const()[name = string("wl"), val = tensor<fp16, [1, 1, 16, 1]>([{", ".join(repr(float(v)) for v in _LUT)}])];
            tensor<fp16, [32, 64]> w = constexpr_lut_to_dense(indices = wi, lut = wl)[name = string("w")];
            tensor<fp16, [1, 1, 1, 32]> y = matmul(transpose_x = bool(false), transpose_y = bool(true), x = x, y = w)[name = string("y")];
    }} -> (y);
}}
"""

VIEW = HEAD + """    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> x) {
            tensor<int32, [4]> shp = const()[name = string("shp"), val = tensor<int32, [4]>([1, 1, 1, 64])];
            tensor<fp16, [1, 1, 1, 64]> y = reshape(shape = shp, x = x)[name = string("y")];
            tensor<fp16, [1, 64, 1, 1]> z = sigmoid(x = x)[name = string("z")];
    } -> (y, z);
}
"""

MULTI = HEAD + """    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> x) {
            tensor<fp16, [1, 64, 1, 1]> y = sigmoid(x = x)[name = string("y")];
    } -> (y);
    func decode<ios18>(tensor<fp16, [1, 64, 1, 1]> x) {
            tensor<fp16, [1, 64, 1, 1]> y = tanh(x = x)[name = string("y")];
    } -> (y);
}
"""


def _w(shape, seed):
    return np.random.default_rng(seed).uniform(-0.2, 0.2, size=shape).astype(np.float16).astype(np.float64)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def _matvec(x):
    return x.astype(np.float64) @ _w([32, 64], 2).T


# graph -> (MIL text, inputs, NumPy reference of every output)
GOOD = {
    "cast": (CAST, {"x": [1, 64, 1, 1]}, lambda x: {"y": _sigmoid(x)}),
    "conv": (CONV, {"x": [1, 64, 1, 1]}, lambda x: {"y": np.einsum("oc,nchw->nohw", _w([64, 64, 1, 1], 1)[:, :, 0, 0], x)}),
    "params": (PARAMS, {"x": [1, 1, 1, 64]}, lambda x: {"s": _softmax(_matvec(x) + 0.5), "y": _gelu_tanh(_matvec(x) + 0.5)}),
    "palettized": (PALETTIZED, {"x": [1, 1, 1, 64]}, lambda x: {"y": x @ _LUT[_IDX].astype(np.float64).T}),
    "state": (STATE, {"state": [1, 64, 1, 1]}, lambda state: {"y": _sigmoid(state)}),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    p = new_project(tmp_path_factory.mktemp("consts") / "proj", targets=("ref",))
    for name, (text, _, _) in GOOD.items():
        p.write(f"specs/graphs/{name}.mil", text)
    p.first_build = p.doit("build", check=False)
    return p


def _inputs(shapes):
    return {n: np.linspace(-1, 1, int(np.prod(s)), dtype=np.float32).reshape(s).astype(np.float16) for n, s in shapes.items()}


@pytest.mark.parametrize("graph", sorted(GOOD))
def test_named_const_parameters_and_renamed_inputs_build_a_package(built, graph):
    r = built.first_build
    assert r.rc == 0, r.out + r.err
    text, shapes, ref = GOOD[graph]
    rec = json.loads((built.artifacts / "manifest.json").read_text())["graphs"][graph]
    pkg = built.artifacts / rec["mlpackage"]["path"]
    names = rec["mlpackage"]["io_names"]  # the plan's input/output names -> the package's
    spec, prog = _load(pkg)  # reloads and round-trips through coremltools' milproto loader
    assert spec.WhichOneof("Type") == "mlProgram"
    assert [f.name for f in spec.description.input] == [names[n] for n in shapes]
    assert list(prog.functions["main"].inputs) == [names[n] for n in shapes]
    if graph == "state":
        assert names == {"state": "state_workaround", "y": "y"}
    else:
        assert all(k == v for k, v in names.items())
    x = _inputs(shapes)
    want = ref(**{n: v.astype(np.float64) for n, v in x.items()})
    got = npubuild.load(built.artifacts).graph(graph, backend="ane").run(**x)
    if graph == "palettized":  # the package keeps uint4 indices and the palette (weight.bin ~1 KiB, not 4 KiB of fp16)
        ops = {o.op_type: o for o in prog.functions["main"].operations}
        lut_op = ops["constexpr_lut_to_dense"]
        assert types.builtin_to_string(lut_op.inputs["indices"].dtype) == "uint4"
        np.testing.assert_array_equal(lut_op.inputs["indices"].val, _IDX)
        blob = next(f for f in rec["mlpackage"]["files"] if f["path"].endswith("weight.bin"))
        assert blob["size"] < 32 * 64 * 2 // 2, blob
        package = {"y": (x["x"].astype(np.float32) @ _LUT[lut_op.inputs["indices"].val].astype(np.float32).T)}
    else:
        package = fake_coreml_predict(pkg, {names[n]: v for n, v in x.items()})  # the package, evaluated
    for out, w in want.items():
        np.testing.assert_allclose(np.asarray(got[out], np.float64).reshape(w.shape), w, atol=2e-3, rtol=1e-2, err_msg=f"{graph} {out}")
        np.testing.assert_allclose(np.asarray(package[names[out]], np.float64).reshape(w.shape), w, atol=2e-3, rtol=1e-2,
                                   err_msg=f"{graph} {out} (package)")
    if graph == "cast":
        assert np.asarray(got["y"]).dtype == np.float32 and package["y"].dtype == np.float32
        cast = next(o for o in prog.functions["main"].operations if o.op_type == "cast")
        assert cast.inputs["dtype"].val == "fp32"
    if graph == "conv":
        conv = next(o for o in prog.functions["main"].operations if o.op_type == "conv")
        assert conv.inputs["pad_type"].val == "valid" and int(conv.inputs["groups"].val) == 1


def test_a_view_output_and_a_second_function_build_and_run(tmp_path):
    """An output that is only a reshape of an input: no program writes it, so the plan copies it on the CPU (as
    Core ML returns a copy); it runs, twice the same, and a missing input is one error."""
    p = new_project(tmp_path / "proj", targets=("ref",))
    p.write("specs/graphs/view.mil", VIEW)
    p.write("specs/graphs/multi.mil", MULTI)
    p.write("specs/graphs/ok.mil", STATE.replace("state", "x"))
    p.doit("build")
    plan = json.loads((p.artifacts / "ane" / "view" / "plan.json").read_text())
    copy = next(n for n in plan["nodes"] if n.get("placement") == "cpu")
    assert copy["route"] == "cpu" and "the function output 'y' is the value of 'x'" in copy["reason"], copy
    assert (p.artifacts / "ane" / "view" / "view.mlpackage").is_dir()  # the graph package keeps the reshape
    x = np.random.default_rng(5).uniform(-2, 2, (1, 64, 1, 1)).astype(np.float16)
    rt = npubuild.load(p.artifacts)
    try:
        g = rt.graph("view", backend="ane")
        first, second = g.run(x=x), g.run(x=x)
        assert first["y"].tolist() == x.reshape(1, 1, 1, 64).tolist() == second["y"].tolist()
        np.testing.assert_allclose(first["z"].astype(np.float32), _sigmoid(x.astype(np.float32)), atol=1e-3)
        with pytest.raises(UserError, match="missing inputs: x"):
            g.run()
    finally:
        rt.close()
    multi = json.loads((p.artifacts / "ane" / "multi" / "plan.json").read_text())
    assert multi["default_function"] == "main" and list(multi["functions"]) == ["decode"]
    assert [f["name"] for f in multi["mlpackage"]["functions"]] == ["main", "decode"]


def test_reserved_output_names_are_mapped_and_a_clash_is_refused(tmp_path):
    """coremltools' sanitizer renames outputs too (`fp16` -> `fp16_workaround`), and keeps unchanged names as they
    are, so `state` renamed may meet an output already called `state_workaround`: one message naming both."""
    from npubuild.ane.build import plan_graph, write_graph
    from npubuild.ane.mil_model import MilBounds
    from npubuild.core.errors import UserError

    body = """    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> state) {
            tensor<fp16, [1, 64, 1, 1]> fp16 = sigmoid(x = state)[name = string("fp16")];
            tensor<fp16, [1, 64, 1, 1]> OUT = tanh(x = fp16)[name = string("OUT")];
    } -> (fp16, OUT);
}
"""
    src = tmp_path / "g.mil"
    src.write_text(HEAD + body.replace("OUT", "t"))
    write_graph(plan_graph(src, "g.mil", MilBounds()), tmp_path / "g", (src, "g.mil", MilBounds()))
    rec = json.loads((tmp_path / "g" / "plan.json").read_text())["mlpackage"]
    assert rec["io_names"] == {"state": "state_workaround", "fp16": "fp16_workaround", "t": "t"}
    spec, _ = _load(tmp_path / "g" / rec["path"])
    assert [f.name for f in spec.description.output] == ["fp16_workaround", "t"]
    src.write_text(HEAD + body.replace("OUT", "state_workaround"))
    with pytest.raises(UserError, match="'state' \\(coremltools names it 'state_workaround'\\) and 'state_workaround' "
                                        "would share the name 'state_workaround' in the package"):
        write_graph(plan_graph(src, "g.mil", MilBounds()), tmp_path / "h", (src, "g.mil", MilBounds()))
