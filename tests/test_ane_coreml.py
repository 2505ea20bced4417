"""Core ML packages of ANE graphs (npubuild.ane.coreml, .coreml_graph, npubuild.runner.ane_compare):
one .mlpackage per program node and per graph, built with coremltools' MIL builder, reloaded and
round-tripped through milproto in the build, listed file by file in the manifest and in bundles,
byte-reproducible, and `npubuild ane-compare` (Core ML on macOS; one line elsewhere).

Core ML itself does not run here, so the packages' numbers are checked with a test double,
``fake_coreml_predict``: a NumPy evaluation of the MIL program read back from a saved package
(ct.utils.load_spec + the milproto loader), rounding every op's result to fp16 as an fp16 program does."""
from __future__ import annotations

import hashlib
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import coremltools as ct  # a dependency of npubuild (pyproject.toml)
import numpy as np
import pytest
from coremltools.converters.mil.mil import types

from npubuild.ane.mil import parse_mil
from npubuild.ane.plan import compile_plan
from npubuild.ane.plan_model import Cur, ProgNode
from npubuild.ane.weightbin import write_weight_bin
from npubuild.core.errors import UserError
from npubuild.runner import ane_compare

from .conftest import new_project

INT = "tensor<int32, [{n}]>([{v}])"


def _blk_mil(offsets) -> str:
    """rms_norm (npubuild's extension op, over the last axis) + a 64 -> 64 conv fused with its sigmoid
    + a residual add; explicit reshapes between the [1,1,1,64] row and the [1,64,1,1] channel vector."""
    conv = (f'strides = {INT.format(n=2, v="1, 1")}, pad_type = string("valid"), pad = {INT.format(n=4, v="0, 0, 0, 0")}, '
            f'dilations = {INT.format(n=2, v="1, 1")}, groups = int32(1)')
    blob = 'BLOBFILE(path = string("@model_path/weights/weight.bin"), offset = uint64({}))'
    return f"""program(1.3)
{{
    func main<ios18>(tensor<fp16, [1, 1, 1, 64]> x) {{
        tensor<fp16, [64]> gam = const()[name = string("gam"), val = tensor<fp16, [64]>({blob.format(offsets[0])})];
        tensor<fp16, [64, 64, 1, 1]> W = const()[name = string("W"), val = tensor<fp16, [64, 64, 1, 1]>({blob.format(offsets[1])})];
        tensor<fp16, [1, 1, 1, 64]> xn = rms_norm(x = x, w = gam, eps = fp16(0x1.4f8p-17))[name = string("xn")];
        tensor<fp16, [1, 64, 1, 1]> xc = reshape(x = xn, shape = {INT.format(n=4, v="1, 64, 1, 1")})[name = string("xc")];
        tensor<fp16, [1, 64, 1, 1]> c = conv(x = xc, weight = W, {conv})[name = string("c")];
        tensor<fp16, [1, 64, 1, 1]> s = sigmoid(x = c)[name = string("s")];
        tensor<fp16, [1, 1, 1, 64]> sr = reshape(x = s, shape = {INT.format(n=4, v="1, 1, 1, 64")})[name = string("sr")];
        tensor<fp16, [1, 1, 1, 64]> y = add(x = x, y = sr)[name = string("y")];
    }} -> (y);
}}
"""


def _t(shape, dtype: str = "fp16") -> str:
    return f"tensor<{dtype}, [{', '.join(map(str, shape))}]>"


def _lit(shape, seed: int = 0) -> str:
    a = np.random.default_rng(seed).uniform(-0.2, 0.2, size=shape).astype(np.float16)
    return f"{_t(shape)}([{', '.join(repr(float(v)) for v in a.reshape(-1))}])"


def _prog(inputs, body, outputs: str = "y") -> str:
    sig = ", ".join(f"{_t(s, d)} {n}" for n, s, d in inputs)
    lines = "\n".join(f"        {ln}" for ln in body)
    return f"program(1.3)\n{{\n    func main<ios18>({sig}) {{\n{lines}\n    }} -> ({outputs});\n}}\n"


def _op(shape, name: str, call: str) -> str:
    return f'{_t(shape)} {name} = {call}[name = string("{name}")];'


def _const(shape, name: str, seed: int = 0) -> str:
    return f'{_t(shape)} {name} = const()[name = string("{name}"), val = {_lit(shape, seed)}];'


_Q = np.random.default_rng(3).integers(-127, 128, size=(32, 64))
# an int8 blockwise weight (two blocks of 32 per row): the plan keeps it compressed
MATVEC_Q8 = _prog([("a", [1, 1, 1, 64], "fp16")], [
    f'tensor<int8, [32, 64]> wq = const()[name = string("wq"), val = tensor<int8, [32, 64]>([{", ".join(map(str, _Q.reshape(-1)))}])];',
    f'tensor<fp16, [32, 2]> ws = const()[name = string("ws"), val = tensor<fp16, [32, 2]>([{", ".join(["0.004"] * 64)}])];',
    'tensor<fp16, [32, 64]> w = constexpr_blockwise_shift_scale(data = wq, scale = ws)[name = string("w")];',
    _op([1, 1, 1, 32], "y", "matmul(x = a, y = w, transpose_x = bool(false), transpose_y = bool(true))"),
])


def _write_project(root: Path):
    p = new_project(root, targets=("ref",))
    weights = root / "specs" / "graphs" / "weights"
    weights.mkdir(parents=True)
    gam = (1 + np.arange(64) / 64).astype(np.float16)
    w = (((np.arange(64 * 64) % 13) / 13 - 0.5) / 8).astype(np.float16).reshape(64, 64, 1, 1)
    blob, offsets = write_weight_bin([gam, w])
    (weights / "weight.bin").write_bytes(blob)
    (root / "specs" / "graphs" / "blk.mil").write_text(_blk_mil(offsets))
    (root / "specs" / "graphs" / "mv.mil").write_text(MATVEC_Q8)
    return p


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    p = _write_project(tmp_path_factory.mktemp("coreml") / "proj")
    r = p.doit("build")
    p.first_build = r
    return p


def _record(p, graph: str = "blk") -> dict:
    return json.loads((p.artifacts / "manifest.json").read_text())["graphs"][graph]


def _packages(rec) -> list[dict]:
    return [n["mlpackage"] for n in rec["nodes"] if "mil" in n] + [rec["mlpackage"]]


def _load(pkg: Path):
    from coremltools.converters.mil.frontend.milproto.load import load

    spec = ct.utils.load_spec(str(pkg))
    return spec, load(spec, spec.specificationVersion, str(pkg / "Data" / "com.apple.CoreML" / "weights"))


# ---- the test double: an fp16 NumPy evaluation of a MIL program ----------------------------------------------------------


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float32])(x)


FAKE_OPS = {
    "add": lambda a: a["x"] + a["y"], "sub": lambda a: a["x"] - a["y"], "mul": lambda a: a["x"] * a["y"],
    "minimum": lambda a: np.minimum(a["x"], a["y"]), "maximum": lambda a: np.maximum(a["x"], a["y"]),
    "sigmoid": lambda a: 1 / (1 + np.exp(-a["x"])), "tanh": lambda a: np.tanh(a["x"]), "relu": lambda a: np.maximum(a["x"], 0),
    "silu": lambda a: a["x"] / (1 + np.exp(-a["x"])), "erf": lambda a: _erf(a["x"]),
    "rsqrt": lambda a: 1 / np.sqrt(a["x"] + a["epsilon"]),
    "reshape": lambda a: a["x"].reshape([int(d) for d in a["shape"]]),
    "transpose": lambda a: np.transpose(a["x"], [int(d) for d in a["perm"]]),
    "cast": lambda a: a["x"], "abs": lambda a: np.abs(a["x"]), "exp": lambda a: np.exp(a["x"]),
    "real_div": lambda a: a["x"] / a["y"],
    "reduce_mean": lambda a: a["x"].mean(axis=tuple(int(d) for d in a["axes"]), keepdims=bool(a["keep_dims"])),
    "softmax": lambda a: np.exp(a["x"] - a["x"].max(axis=int(a["axis"]), keepdims=True))
    / np.exp(a["x"] - a["x"].max(axis=int(a["axis"]), keepdims=True)).sum(axis=int(a["axis"]), keepdims=True),
    # iOS15/activation.py gelu, each mode by its definition
    "gelu": lambda a: {"EXACT": lambda x: 0.5 * x * (1 + _erf(x / np.sqrt(2))),
                       "TANH_APPROXIMATION": lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))),
                       "SIGMOID_APPROXIMATION": lambda x: x / (1 + np.exp(-1.702 * x))}[str(a["mode"])](a["x"]),
    "linear": lambda a: a["x"] @ a["weight"].T + a["bias"],
    "matmul": lambda a: np.matmul(np.swapaxes(a["x"], -1, -2) if a["transpose_x"] else a["x"],
                                  np.swapaxes(a["y"], -1, -2) if a["transpose_y"] else a["y"]),
}


def _fake_conv(a):
    # the only conv npubuild emits: 1x1, stride 1, no padding, no dilation, one group
    assert list(a["strides"]) == [1, 1] and str(a["pad_type"]) == "valid" and list(a["pad"]) == [0, 0, 0, 0]
    assert list(a["dilations"]) == [1, 1] and int(a["groups"]) == 1 and a["weight"].shape[2:] == (1, 1)
    y = np.einsum("oc,nchw->nohw", a["weight"][:, :, 0, 0], a["x"])
    return y + a["bias"].reshape(1, -1, 1, 1) if a.get("bias") is not None else y


def fake_run_program(prog, inputs: dict) -> dict:
    """Every output of ``prog``'s main function, each op computed in float32 and rounded to fp16."""
    fn = prog.functions["main"]
    env = {name: np.asarray(inputs[name], _np(v.dtype)).astype(np.float32) for name, v in fn.inputs.items()}

    def val(v):
        if isinstance(v, (list, tuple)):
            return [val(x) for x in v]
        if v.name in env:
            return env[v.name]
        return np.asarray(v.val)

    for op in fn.operations:
        out = op.outputs[0]
        if op.op_type == "const":
            env[out.name] = np.asarray(out.val)
            continue
        a = {k: val(v) for k, v in op.inputs.items()}
        if op.op_type == "conv":
            r = _fake_conv(a)
        elif op.op_type == "constexpr_blockwise_shift_scale":
            data, scale = a["data"].astype(np.float32), a["scale"].astype(np.float32)
            for ax, (d, s) in enumerate(zip(data.shape, scale.shape)):
                scale = np.repeat(scale, d // s, axis=ax)
            r = data * scale
        else:
            r = FAKE_OPS[op.op_type]({k: (x.astype(np.float32) if isinstance(x, np.ndarray) and x.dtype.kind == "f" else x)
                                      for k, x in a.items()})
        env[out.name] = np.asarray(r, np.float32).astype(_np(out.dtype)).astype(np.float32)  # the op's result type
    return {v.name: env[v.name].astype(_np(v.dtype)) for v in fn.outputs}


def _np(dtype):
    return np.float32 if types.builtin_to_string(dtype) == "fp32" else np.float16


def fake_coreml_predict(path: Path, inputs: dict) -> dict:
    """MLModel(path).predict(inputs), as far as the program goes: the package read back and evaluated."""
    return fake_run_program(_load(Path(path))[1], inputs)


# ---- the build -------------------------------------------------------------------------------------------------------------


def test_build_writes_a_package_per_node_and_per_graph(built):
    rec = _record(built)
    programs = [n for n in rec["nodes"] if "mil" in n]
    # the host nodes (the rsqrt, the layout adapters) have no program
    assert {"ew", "conv_act"} <= {n["route"] for n in programs}
    assert len(programs) == sum(n.get("placement") != "cpu" for n in rec["nodes"]) < len(rec["nodes"])
    for n in programs:
        assert n["mlpackage"]["path"] == n["mil"]["path"].rsplit("/", 1)[0] + "/model.mlpackage"
    assert rec["mlpackage"]["path"] == "ane/blk/blk.mlpackage"
    out = built.first_build.out + built.first_build.err
    for noise in ("passes/s", "Running MIL", "Failed to load", "Warning"):  # coremltools' progress bars and logs
        assert noise not in out, out
    for pkg in _packages(rec):
        root = built.artifacts / pkg["path"]
        spec, prog = _load(root)  # reloads and round-trips through milproto
        assert spec.WhichOneof("Type") == "mlProgram" and spec.specificationVersion >= 9
        assert [types.builtin_to_string(v.dtype) for v in prog.functions["main"].outputs] == ["fp16"]
        on_disk = sorted(q.relative_to(built.artifacts).as_posix() for q in root.rglob("*") if q.is_file())
        assert [f["path"] for f in pkg["files"]] == on_disk  # every file listed
        assert {"Manifest.json", "model.mlmodel"} <= {Path(f).name for f in on_disk}
        for f in pkg["files"]:
            assert hashlib.sha256((built.artifacts / f["path"]).read_bytes()).hexdigest() == f["sha256"]
    # the graph's package: the whole function, rms_norm as MIL ops, the weights by their names
    _, prog = _load(built.artifacts / rec["mlpackage"]["path"])
    fn = prog.functions["main"]
    ops = [o.op_type for o in fn.operations if o.op_type != "const"]
    assert ops == ["mul", "reduce_mean", "add", "rsqrt", "mul", "mul", "reshape", "conv", "sigmoid", "reshape", "add"]
    conv = next(o for o in fn.operations if o.op_type == "conv")
    assert {k: conv.inputs[k].val.tolist() for k in ("strides", "pad", "dilations")} == {"strides": [1, 1], "pad": [0, 0, 0, 0], "dilations": [1, 1]}
    assert list(fn.inputs) == ["x"] and [v.name for v in fn.outputs] == ["y"]


def test_graph_package_computes_the_graph(built):
    """The whole-graph package, evaluated, against running the graph on the ane backend."""
    import npubuild

    x = np.linspace(-1, 1, 64, dtype=np.float32).reshape(1, 1, 1, 64).astype(np.float16)
    want = npubuild.load(built.artifacts).graph("blk", backend="ane").run(x=x)["y"]
    got = fake_coreml_predict(built.artifacts / _record(built)["mlpackage"]["path"], {"x": x})["y"]
    max_abs, _ = ane_compare.errors(got.reshape(want.shape), want)
    assert max_abs <= 2e-3  # fp16 rounding per op (the emulation's rsqrt runs on the host in fp32): |y| <= 1.5


def test_node_packages_hold_the_ops_of_model_mil(built):
    for n in (n for n in _record(built)["nodes"] if "mil" in n):
        path = built.artifacts / n["mil"]["path"]
        emitted = [o.op for o in parse_mil(path.read_text(), file=str(path), base_dir=path.parent).main.ops]
        _, prog = _load(built.artifacts / n["mlpackage"]["path"])
        assert [o.op_type for o in prog.functions["main"].operations if o.op_type != "const"] == emitted, n["name"]


def test_verify_rehashes_packages_and_tampering_fails(built, tmp_path):
    art = tmp_path / "artifacts"
    shutil.copytree(built.artifacts, art, ignore=shutil.ignore_patterns(".cache"))
    r = built.npubuild("verify", str(art))
    listed = sum(len(p["files"]) for p in _packages(_record(built)))
    assert r.rc == 0 and listed >= 8
    conv = next(n for n in _record(built)["nodes"] if n["route"] == "conv_act")
    target = art / conv["mlpackage"]["files"][0]["path"]
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 1
    target.write_bytes(bytes(data))
    r = built.npubuild("verify", str(art), check=False)
    assert r.rc != 0 and f"altered: {target.relative_to(art).as_posix()}" in r.err
    target.unlink()
    r = built.npubuild("verify", str(art), check=False)
    assert r.rc != 0 and f"missing: {target.relative_to(art).as_posix()}" in r.err


def test_bundle_carries_the_packages(built, tmp_path):
    bundle, out = tmp_path / "a.tar.zst", tmp_path / "out"
    built.npubuild("pack", str(built.artifacts), "-o", str(bundle))
    built.npubuild("unpack", str(bundle), "-C", str(out))
    assert built.npubuild("verify", str(out)).rc == 0
    for pkg in _packages(_record(built)):
        for f in pkg["files"]:
            assert (out / f["path"]).read_bytes() == (built.artifacts / f["path"]).read_bytes()
        _load(out / pkg["path"])  # an unpacked package loads: nothing it needs is left behind


def test_packages_come_back_from_the_store(built, tmp_path):
    p = new_project(tmp_path / "copy")
    shutil.copytree(built.root, p.root, dirs_exist_ok=True)
    shutil.rmtree(p.artifacts / "ane")
    for f in (".npubuild.doit.db", ".npubuild.noop-stamp"):
        (p.root / f).unlink(missing_ok=True)
    r = p.doit("build")
    assert "compile:blk@ane" in r.out and p.npubuild("verify").rc == 0
    for pkg in _packages(_record(p)):
        _load(p.artifacts / pkg["path"])  # restored file by file, it loads: nothing rests on an empty directory


def test_a_malformed_package_record_is_refused(built, tmp_path):
    art = tmp_path / "artifacts"
    shutil.copytree(built.artifacts, art, ignore=shutil.ignore_patterns(".cache"))
    m = json.loads((art / "manifest.json").read_text())
    m["graphs"]["blk"]["mlpackage"]["files"] = "everything"
    (art / "manifest.json").write_text(json.dumps(m))
    r = built.npubuild("verify", str(art), check=False)
    assert r.rc != 0 and "graphs.blk.mlpackage.files must be a list" in r.err and "Traceback" not in r.err


def test_a_noop_build_does_not_import_coremltools(built):
    code = ("import sys; from doit.doit_cmd import DoitMain; from doit.cmd_base import ModuleTaskLoader; import dodo; "
            "rc = DoitMain(ModuleTaskLoader(dodo)).run(['build']); "
            "print('IMPORTED' if 'coremltools' in sys.modules else 'NOT IMPORTED', rc)")
    for fast in (True, False):  # with the nothing-changed stamp (when the build wrote one), then without it
        if not fast:
            (built.root / ".npubuild.noop-stamp").unlink(missing_ok=True)
        r = subprocess.run([sys.executable, "-c", code], cwd=built.root, capture_output=True, text=True, timeout=300)
        assert r.stdout.strip().splitlines()[-1] == "NOT IMPORTED 0", r.stdout + r.stderr
        assert "compile:blk@ane" not in r.stdout


@pytest.mark.slow
def test_packages_are_byte_reproducible_across_processes(built, tmp_path):
    """coremltools' own output is not (protobuf maps in hash order, random item UUIDs, the date): a rebuild in
    a process with another hash seed, without the store, gives the same bytes."""
    p = _write_project(tmp_path / "again")
    p.doit("build", env={"PYTHONHASHSEED": "12345"})
    for pkg in _packages(_record(built)):
        for f in pkg["files"]:
            assert (p.artifacts / f["path"]).read_bytes() == (built.artifacts / f["path"]).read_bytes(), f["path"]


def test_a_graph_coremltools_refuses_fails_its_build_naming_the_line(tmp_path):
    """A declared type coremltools' inference disagrees with (the seed's HWX-style matmul: a [1,64,1,1] vector
    times a [32,64] weight is no MIL matmul) fails the graph's build at file:line; either npubuild's reader or
    the Core ML package catches it."""
    p = new_project(tmp_path / "bad", targets=("ref",))
    (p.root / "specs" / "graphs").mkdir(parents=True)
    w = ", ".join(["0.5"] * 32 * 64)
    (p.root / "specs" / "graphs" / "bad.mil").write_text(f"""program(1.3)
{{
    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> x) {{
        tensor<fp16, [32, 64]> W = const()[name = string("W"), val = tensor<fp16, [32, 64]>([{w}])];
        tensor<bool, []> bt = const()[name = string("bt"), val = bool(true)];
        tensor<fp16, [1, 1, 1, 32]> y = matmul(x = x, y = W, transpose_y = bt)[name = string("y")];
    }} -> (y);
}}
""")
    r = p.doit("build", check=False)
    said = r.out + r.err
    assert r.rc != 0 and "bad.mil:6: matmul 'y'" in said and "Traceback" not in said, said


# ---- node programs against the emulation, route by route --------------------------------------------------------------

V = [1, 64, 1, 1]
CONV = f'strides = {INT.format(n=2, v="1, 1")}, pad_type = string("valid"), pad = {INT.format(n=4, v="0, 0, 0, 0")}, dilations = {INT.format(n=2, v="1, 1")}, groups = int32(1)'
MM = "transpose_x = bool(false), transpose_y = bool({})"
# small valid-MIL programs whose plans take every route between them (test_every_route_is_exercised)
PROGRAMS = {
    "ew": _prog([("a", V, "fp16"), ("b", V, "fp16")], [
        _op(V, "p", "add(x = a, y = b)"), _op(V, "q", "sub(x = a, y = b)"), _op(V, "r", "mul(x = a, y = b)"),
        _op(V, "s", "minimum(x = a, y = b)"), _op(V, "m", "maximum(x = p, y = q)"), _op(V, "n", "add(x = r, y = s)"),
        _const(V, "c"), _op(V, "y", "mul(x = m, y = c)")]),
    # in place only on a declared state: acc <- acc + b
    "add4d": _prog([("acc", [1, 4, 1, 8], "fp16"), ("b", [1, 4, 1, 8], "fp16")], [
        _op([1, 4, 1, 8], "a", "read_state(input = acc)"), _op([1, 4, 1, 8], "y", "add(x = a, y = b)"),
        'write_state(data = y, input = acc)[name = string("w")];']).replace(
        "tensor<fp16, [1, 4, 1, 8]> acc", "state<tensor<fp16, [1, 4, 1, 8]>> acc"),
    "unary": _prog([("a", V, "fp16")], [
        _op(V, "s", "sigmoid(x = a)"), _op(V, "th", "tanh(x = s)"), _op(V, "r", "relu(x = th)"),
        _op(V, "g1", 'gelu(x = r, mode = string("EXACT"))'), _op(V, "g2", 'gelu(x = g1, mode = string("TANH_APPROXIMATION"))'),
        _op(V, "y", 'gelu(x = g2, mode = string("SIGMOID_APPROXIMATION"))')]),
    "softmax": _prog([("a", [1, 1, 1, 32], "fp16"), ("b", [1, 16, 1, 1], "fp16")], [
        _op([1, 1, 1, 32], "y", "softmax(x = a, axis = int32(-1))"), _op([1, 16, 1, 1], "z", "softmax(x = b, axis = int32(1))")], "y, z"),
    "transpose": _prog([("a", [1, 4, 1, 16], "fp16")], [_op([1, 16, 1, 4], "y", f"transpose(x = a, perm = {INT.format(n=4, v='0, 3, 2, 1')})")]),
    "cast": _prog([("a", V, "fp32")], [_op(V, "y", 'cast(x = a, dtype = string("fp16"))')]),
    "conv": _prog([("a", [1, 64, 1, 3], "fp16")], [_const([32, 64, 1, 1], "w"), _op([1, 32, 1, 3], "y", f"conv(x = a, weight = w, {CONV})")]),
    "conv_act": _prog([("a", V, "fp16")], [
        _const([64, 64, 1, 1], "w"), _op(V, "c", f"conv(x = a, weight = w, {CONV})"), _op(V, "y", "tanh(x = c)")]),
    "conv_silu": _prog([("a", V, "fp16")], [
        _const([64, 64, 1, 1], "w"), _op(V, "c", f"conv(x = a, weight = w, {CONV})"), _op(V, "s", "sigmoid(x = c)"),
        _op(V, "y", "mul(x = c, y = s)")]),
    "conv_chain": _prog([("a", V, "fp16")], [
        _const([96, 64, 1, 1], "w1"), _const([64, 96, 1, 1], "w2", 1), _op([1, 96, 1, 1], "c", f"conv(x = a, weight = w1, {CONV})"),
        _op(V, "y", f"conv(x = c, weight = w2, {CONV})")]),
    "matvec": _prog([("a", [1, 1, 1, 64], "fp16")], [_const([32, 64], "w"), _op([1, 1, 1, 32], "y", f"matmul(x = a, y = w, {MM.format('true')})")]),
    "matvec_q8": MATVEC_Q8,
    "linear": _prog([("a", [1, 1, 4, 64], "fp16")], [_const([32, 64], "w"), _op([1, 1, 4, 32], "y", f"matmul(x = a, y = w, {MM.format('true')})")]),
    "avw": _prog([("a", [1, 1, 1, 64], "fp16"), ("m", [1, 8, 1, 64], "fp16")], [_op([1, 8, 1, 1], "y", f"matmul(x = a, y = m, {MM.format('true')})")]),
    "attn_v": _prog([("s", [1, 1, 1, 8], "fp16"), ("v", [1, 1, 8, 16], "fp16")], [_op([1, 1, 1, 16], "y", f"matmul(x = s, y = v, {MM.format('false')})")]),
    "outer": _prog([("u", [1, 1, 8, 1], "fp16"), ("v", [1, 1, 1, 16], "fp16")], [_op([1, 1, 8, 16], "y", f"matmul(x = u, y = v, {MM.format('false')})")]),
}


def _plan(name: str):
    return compile_plan(parse_mil(PROGRAMS[name], f"{name}.mil"))


def _inputs(node, seed: int = 7) -> list:
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1, 1, size=c.shape).astype(np.float32 if c.dtype == "fp32" else np.float16) for c in node.ins]


def test_every_route_is_exercised():
    routes = {n.route for name in PROGRAMS for n in _plan(name).nodes if isinstance(n, ProgNode)}
    assert routes >= {"ew", "add4d", "lut", "relu", "gelu", "softmax", "transpose", "cast", "conv1x1", "conv_act",
                      "conv_chain", "matvec", "linear", "avw", "attn_v", "outer"}, routes


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_node_programs_compute_what_the_emulation_computes(name):
    """Each node's coremltools program, evaluated in fp16, against the ane backend's emulation of the node."""
    from npubuild.ane.coreml import node_program

    for node in (n for n in _plan(name).nodes if isinstance(n, ProgNode)):
        inputs = _inputs(node)
        got = fake_run_program(node_program(node), {f"in{p}": a for p, a in enumerate(inputs)})["y"]
        want = ane_compare.emulate(node, inputs)
        assert got.shape == want.shape == tuple(node.out.shape)
        max_abs, ulp = ane_compare.errors(got, want)
        # an fp16 program rounds every op, the emulation once per node (gelu EXACT: 4 ULP, its 15 ops)
        assert ulp <= 4, (node.route, max_abs, ulp)


def test_a_route_with_no_spelling_is_an_error_naming_it(tmp_path):
    from npubuild.ane.coreml import CoreMLError, write_node_package

    node = ProgNode("m", "mystery", {}, [Cur.strided(64)], Cur.strided(64))
    with pytest.raises(CoreMLError, match=r"node 0 'm': npubuild has no MIL program for it \(route 'mystery'"):
        write_node_package(node, tmp_path / "model.mlpackage", "ane graph 'g': node 0 'm'")


def test_int8_blockwise_weights_stay_compressed(built):
    from npubuild.ane.coreml import node_program

    node = _plan("matvec_q8").nodes[0]
    ops = [o.op_type for o in node_program(node).functions["main"].operations]
    assert "constexpr_blockwise_shift_scale" in ops and "w" in node.packed
    rec = _record(built, "mv")
    for pkg in _packages(rec):  # the node's package and the graph's: int8 data, an fp16 scale
        _, prog = _load(built.artifacts / pkg["path"])
        fn = prog.functions["main"]
        cx = next(o for o in fn.operations if o.op_type == "constexpr_blockwise_shift_scale")
        assert cx.inputs["data"].val.dtype == np.int8 and cx.inputs["scale"].val.dtype == np.float16
        blob = next(f for f in pkg["files"] if f["path"].endswith("weight.bin"))
        assert blob["size"] < 32 * 64 * 2  # less than the fp16 matrix would take


def test_check_package_names_what_disagrees(built):
    from npubuild.ane.coreml import CoreMLError, check_package

    n = next(n for n in _record(built)["nodes"] if n["route"] == "conv_act")
    pkg = built.artifacts / n["mlpackage"]["path"]
    check_package(pkg, [("in0", [1, 64, 1, 1], "fp16")], [("y", [1, 64, 1, 1], "fp16")], ["conv", "sigmoid"], "node 2")
    with pytest.raises(CoreMLError, match=r"node 2: the package's inputs are in0 \[1, 64, 1, 1\] FLOAT16, the plan's in0 \[1, 1, 1, 64\]"):
        check_package(pkg, [("in0", [1, 1, 1, 64], "fp16")], [("y", [1, 64, 1, 1], "fp16")], ["conv", "sigmoid"], "node 2")
    with pytest.raises(CoreMLError, match="holds the ops conv sigmoid, built were conv tanh"):
        check_package(pkg, [("in0", [1, 64, 1, 1], "fp16")], [("y", [1, 64, 1, 1], "fp16")], ["conv", "tanh"], "node 2")


# ---- ane-compare -----------------------------------------------------------------------------------------------------------


@pytest.mark.skipif(sys.platform == "darwin", reason="Core ML runs here")
def test_ane_compare_says_in_one_line_that_core_ml_is_missing(built):
    r = built.npubuild("ane-compare", "blk", check=False)
    assert r.rc != 0 and "Traceback" not in r.err
    assert r.err.strip().splitlines() == [r.err.strip()] and "no Core ML runtime on linux" in r.err
    r = built.npubuild("ane-compare", "nope", check=False)
    assert r.rc != 0 and "no ANE graph 'nope'" in r.err and "(ANE graphs: blk, mv)" in r.err
    assert "max ULP per node" in built.npubuild("ane-compare", "--help").out


def test_ane_compare_compares_each_node(built, capsys):
    seen = []

    def fake_recording_predict(path, inputs):
        seen.append((Path(path).name, {k: (v.shape, v.dtype) for k, v in inputs.items()}))
        return fake_coreml_predict(path, inputs)

    assert ane_compare.run("blk", str(built.artifacts), seed=3, predict=fake_recording_predict) == 0
    lines = capsys.readouterr().out.splitlines()
    nodes = [(i, n) for i, n in enumerate(_record(built)["nodes"]) if "mil" in n]
    assert [ln.split(":")[0] for ln in lines[:len(nodes)]] == [f"n{i} {n['name']} ({n['route']})" for i, n in nodes]
    assert lines[len(nodes)].startswith("graph package ane/blk/blk.mlpackage function main: y: max abs err ")
    assert lines[-1] == f"ane-compare blk: {len(nodes)} node(s) and the graph package (1 function(s)), seed 3, 0 failed on Core ML"
    assert len(lines) == len(nodes) + 2  # no devices without Core ML's compute plan
    first = nodes[0][1]
    assert seen[0] == ("model.mlpackage", {f"in{p}": (tuple(Cur.parse(c).shape), np.float16) for p, c in enumerate(first["ins"])})
    rows = ane_compare.compare_graph(__import__("npubuild").load(built.artifacts), "blk", fake_coreml_predict, seed=3)
    assert all(r["max_ulp"] <= 2 for r in rows), rows


def test_ane_compare_reports_differences_and_failures(built, capsys):
    import npubuild

    rt = npubuild.load(built.artifacts)

    def fake_one_ulp_off_predict(path, inputs):
        y = fake_coreml_predict(path, inputs)["y"]
        return {"y": np.nextafter(y, np.float16(np.inf))}

    off = ane_compare.compare_graph(rt, "blk", fake_one_ulp_off_predict)
    exact = ane_compare.compare_graph(rt, "blk", fake_coreml_predict)
    for r, e in zip(off, exact):
        assert r["max_ulp"] >= 1 and abs(r["max_ulp"] - e["max_ulp"]) <= 1 and r["max_abs"] > 0, (r, e)

    def fake_failing_predict(path, inputs):
        raise RuntimeError("Error compiling model: no\nANE")

    assert ane_compare.run("blk", str(built.artifacts), predict=fake_failing_predict) == 1
    out = capsys.readouterr().out
    i = next(i for i, n in enumerate(_record(built)["nodes"]) if n["route"] == "conv_act")
    assert f"n{i} s (conv_act): Core ML failed: Error compiling model: no ANE" in out and " 0 failed" not in out
    assert ane_compare.errors(np.array([np.nan, 1], np.float16), np.array([0, 1], np.float16))[1] is None
    with pytest.raises(UserError, match="no ANE graph"):
        ane_compare.compare_graph(rt, "nope", fake_coreml_predict)


def test_no_progress_bar_escapes_a_stderr_another_task_swapped_in():
    """doit's Python actions swap sys.stderr for the whole process while a task runs; on a threaded build a
    coremltools pass pipeline could start its tqdm bar on another task's stream, outside quiet()'s per-thread
    capture. Once npubuild has loaded coremltools its pipelines draw no bar, whatever sys.stderr is."""
    import io
    import sys

    from npubuild.ane.coreml import coremltools
    from npubuild.ane.ct_quiet import one_at_a_time

    ct, mb, types, _ = coremltools()

    def convert():
        @mb.program(input_specs=[mb.TensorSpec(shape=(1, 4), dtype=types.fp32)])
        def prog(x):
            return mb.relu(x=x)

        other, real = io.StringIO(), sys.stderr
        sys.stderr = other  # what a task's stream swap looks like from this thread
        try:
            ct.convert(prog, convert_to="milinternal")
        finally:
            sys.stderr = real
        return other.getvalue()

    said = one_at_a_time(convert)
    assert "Running MIL" not in said and "passes/s" not in said, said
