"""Placement (docs/ane.md, Placement): an op no ANE route computes is a CPU node, computed on the host with
MIL's semantics, instead of a build refusal; ane_strict = true keeps the refusal.

Every program here is MIL text built and run on the ``ane`` backend (its fp16 emulation), and compared with a
NumPy computation written in this file from coremltools 9.0's op definitions, on the same fp16 inputs in
float64. A CPU node reads fp16 values, computes in float32 and rounds its result to fp16 once, so its result
is within one fp16 ulp of the float64 reference, plus the float32 rounding of its sums (absolute, given per
test from the length and size of the sums; it matters only where the result is near zero, where an ulp is tiny).
"""
from __future__ import annotations

import json
import shutil
import types

import numpy as np
import pytest

from npubuild.ane.build import manifest_record, write_graph
from npubuild.ane.mil import parse_mil
from npubuild.ane.plan import PlanError, compile_plan
from npubuild.ane.plan_model import CpuNode, PlanBounds, ProgNode
from npubuild.cli.show import placement_lines, placements
from npubuild.runner.ane import AneRuntime
from npubuild.runner.ane_graph import AneGraphRunner

f16 = np.float16


def program(body: str, inputs: str, outputs: str = "y") -> str:
    return f"program(1.3)\n{{\n    func main<ios18>({inputs}) {{\n{body}\n    }} -> ({outputs});\n}}\n"


def blob(d, name: str, values) -> str:
    """A raw fp16 blob file in ``d`` and the const line that reads it (BLOBFILE, as in tests/test_ane.py)."""
    values = np.asarray(values, f16)
    values.tofile(d / f"{name}.bin")
    t = f"tensor<fp16, [{', '.join(map(str, values.shape))}]>"
    return f'        {t} {name} = const()[val = {t}(BLOBFILE(path = string("@model_path/{name}.bin"), offset = uint64(0)))];\n'


def plan_of(d, text: str, strict: bool = False):
    return compile_plan(parse_mil(text, file="m.mil", base_dir=d), PlanBounds(ane_strict=True) if strict else None)


def rand(shape, seed, lo=-2.0, hi=2.0):
    return np.random.default_rng(seed).uniform(lo, hi, size=shape).astype(f16)


def run(plan, **inputs):
    rt = AneRuntime(plan)
    for k, v in inputs.items():
        rt.write_ext(k, np.asarray(v).reshape(-1))
    rt.run()
    return rt


def close(y, ref, atol=0.0) -> bool:
    """Within one fp16 ulp of the float64 reference (the one rounding of the result) plus ``atol``."""
    y, ref = np.asarray(y, np.float64).reshape(-1), np.asarray(ref, np.float64).reshape(-1)
    ulp = np.spacing(np.abs(ref).astype(f16)).astype(np.float64)
    return bool(np.all(np.abs(y - ref) <= ulp + atol))


def where(plan) -> list[tuple[str, str]]:
    """(placement, the CPU node's MIL op or the program's route) per node, in run order."""
    return [(n.placement, n.attrs["op"] if isinstance(n, CpuNode) else n.route) for n in (plan.nodes[i] for i in plan.order)]


def twice_the_same(plan, name: str, **inputs) -> None:
    """run() twice with the same inputs gives the same bytes (a CPU node keeps no state between runs)."""
    rt = AneRuntime(plan)
    outs = []
    for _ in range(2):
        for k, v in inputs.items():
            rt.write_ext(k, np.asarray(v).reshape(-1))
        rt.run()
        outs.append(rt.output(name).copy())
    assert outs[0].tobytes() == outs[1].tobytes()


# ---- the seed's refusals, now CPU nodes ---------------------------------------------------------------------------------

RELU16 = program('        tensor<fp16, [1, 16, 1, 1]> y = relu(x = x)[name = string("y")];', "tensor<fp16, [1, 16, 1, 1]> x")


def test_relu_on_16_channels_runs_on_the_cpu(tmp_path):
    plan = plan_of(tmp_path, RELU16)
    assert where(plan) == [("cpu", "relu")]
    assert plan.nodes[0].reason == "relu on 16 values: the ANE relu program takes exactly 64 channels"
    xv = rand((1, 16, 1, 1), 1)
    assert np.array_equal(run(plan, x=xv).output("y"), np.maximum(xv, 0).reshape(-1))  # exact: relu rounds nothing
    twice_the_same(plan, "y", x=xv)


def test_ane_strict_refuses_with_the_routes_message(tmp_path):
    with pytest.raises(PlanError, match=r"^m.mil:4: relu 'y' on 16 elements is off route \(the ANE relu program takes exactly 64 channels\)$"):
        plan_of(tmp_path, RELU16, strict=True)


@pytest.mark.parametrize("form", ["linear", "matmul"])
def test_a_64_to_10_matvec_runs_on_the_cpu(tmp_path, form):
    wv, bv, xv = rand((10, 64), 2, -0.3, 0.3), rand(10, 3), rand((1, 64), 4)
    consts = blob(tmp_path, "W", wv) + blob(tmp_path, "B", bv)
    op = ("linear(x = x, weight = W, bias = B)" if form == "linear" else "matmul(x = x, y = W, transpose_y = bool(true))")
    text = program(consts + f'        tensor<fp16, [1, 10]> y = {op}[name = string("y")];', "tensor<fp16, [1, 64]> x")
    plan = plan_of(tmp_path, text)
    assert where(plan) == [("cpu", form)]
    if form == "matmul":
        assert plan.nodes[0].reason == "10 outputs (the ANE matvec program takes at least 32)"
        with pytest.raises(PlanError, match=r"m.mil:6: matmul 'y' \(x \[1, 64\], y \[10, 64\] -> \[1, 10\]\) is off route: 10 outputs"):
            plan_of(tmp_path, text, strict=True)
    ref = xv.astype(np.float64) @ wv.astype(np.float64).T + (bv if form == "linear" else 0)
    # float32 sums of 64 products of |x| <= 2, |w| <= 0.3: at most 64 * 0.6 * 2^-24 * 64 apart from the exact sum
    assert close(run(plan, x=xv).output("y"), ref, 2e-4)


def test_layer_norm_runs_on_the_cpu(tmp_path):
    gv, bv, xv = rand(32, 5, 0.5, 1.5), rand(32, 6, -0.5, 0.5), rand((1, 4, 32), 7)
    text = program(blob(tmp_path, "G", gv) + blob(tmp_path, "Bt", bv)
                   + '        tensor<fp16, [1, 4, 32]> y = layer_norm(x = x, axes = tensor<int32, [1]>([-1]), gamma = G, beta = Bt, '
                     'epsilon = fp16(0x1.4p-17))[name = string("y")];', "tensor<fp16, [1, 4, 32]> x")
    plan = plan_of(tmp_path, text)
    assert where(plan) == [("cpu", "layer_norm")] and "layer_norm has no ANE program" in plan.nodes[0].reason
    x = xv.astype(np.float64)
    num = x - x.mean(axis=-1, keepdims=True)  # normalization.py layer_norm: (x - mean) / sqrt(var + eps) * gamma + beta
    ref = num / np.sqrt((num * num).mean(axis=-1, keepdims=True) + float(np.float16(float.fromhex("0x1.4p-17")))) * gv + bv
    assert close(run(plan, x=xv).output("y"), ref, 1e-5)  # float32 mean and variance of 32 values, |y| < 4
    twice_the_same(plan, "y", x=xv)


def test_concat_runs_on_the_cpu(tmp_path):
    text = program('        tensor<fp16, [1, 3, 1, 24]> y = concat(values = (a, b), axis = int32(1), interleave = bool(false))'
                   '[name = string("y")];', "tensor<fp16, [1, 1, 1, 24]> a, tensor<fp16, [1, 2, 1, 24]> b")
    plan = plan_of(tmp_path, text)
    assert where(plan) == [("cpu", "concat")]
    av, bv = rand((1, 1, 1, 24), 8), rand((1, 2, 1, 24), 9)
    assert np.array_equal(run(plan, a=av, b=bv).output("y"), np.concatenate([av, bv], axis=1).reshape(-1))  # a copy: exact


def test_rms_norm_on_several_rows_runs_on_the_cpu(tmp_path):
    gv, xv = rand(16, 10, 0.5, 1.5), rand((1, 4, 1, 16), 11)
    text = program(blob(tmp_path, "G", gv) + '        tensor<fp16, [1, 4, 1, 16]> y = rms_norm(x = x, w = G, eps = fp16(0x1p-10))'
                   '[name = string("y")];', "tensor<fp16, [1, 4, 1, 16]> x")
    plan = plan_of(tmp_path, text)
    assert where(plan) == [("cpu", "rms_norm")] and plan.nodes[0].reason == "rms_norm over 4 vectors: the host rsqrt route takes one"
    x = xv.astype(np.float64)
    ref = x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + 2.0 ** -10) * gv  # docs/ane.md: npubuild's rms_norm
    assert close(run(plan, x=xv).output("y"), ref, 1e-5)


def conv_ref(x, w, stride: int, pad: int, groups: int):
    """conv.py's conv, written out: y[o, i, j] = sum over the group's channels and the 3x3 taps, x zero-padded."""
    n, cin, hh, ww = x.shape
    cout, cg, kh, kw = w.shape
    xp = np.pad(x, [(0, 0), (0, 0), (pad, pad), (pad, pad)])
    oh, ow = (hh + 2 * pad - kh) // stride + 1, (ww + 2 * pad - kw) // stride + 1
    y = np.zeros((n, cout, oh, ow))
    for o in range(cout):
        g = o // (cout // groups)
        for i in range(oh):
            for j in range(ow):
                patch = xp[0, g * cg:(g + 1) * cg, i * stride:i * stride + kh, j * stride:j * stride + kw]
                y[0, o, i, j] = np.sum(patch * w[o])
    return y


@pytest.mark.parametrize("stride, pad, groups", [(1, 0, 1), (1, 1, 1), (2, 1, 2)], ids=["valid", "padded", "strided-grouped"])
def test_a_3x3_conv_runs_on_the_cpu(tmp_path, stride, pad, groups):
    xv, wv = rand((1, 4, 6, 5), 12), rand((6, 4 // groups, 3, 3), 13, -0.5, 0.5)
    oh, ow = (6 + 2 * pad - 3) // stride + 1, (5 + 2 * pad - 3) // stride + 1
    text = program(blob(tmp_path, "W", wv) + f'        tensor<fp16, [1, 6, {oh}, {ow}]> y = conv(x = x, weight = W, '
                   f'strides = tensor<int32, [2]>([{stride}, {stride}]), pad_type = string("custom"), '
                   f'pad = tensor<int32, [4]>([{pad}, {pad}, {pad}, {pad}]), dilations = tensor<int32, [2]>([1, 1]), '
                   f'groups = int32({groups}))[name = string("y")];', "tensor<fp16, [1, 4, 6, 5]> x")
    plan = plan_of(tmp_path, text)
    assert where(plan) == [("cpu", "conv")] and plan.nodes[0].reason.startswith("kernel 3x3" if groups == 1 else "groups = 2")
    ref = conv_ref(xv.astype(np.float64), wv.astype(np.float64), stride, pad, groups)
    assert close(run(plan, x=xv).output("y"), ref, 1e-5)  # float32 sums of at most 36 products, each below 1


# ---- ANE and CPU nodes in one graph -------------------------------------------------------------------------------------

def mixed(d) -> tuple[str, dict]:
    """x [1, 1, 1, 64] -> linear 64 -> 64 (ANE) -> layer_norm (CPU) -> reshape to a channel vector -> relu on 64 (ANE:
    the CPU's contig result goes through the identity adapter to the relu's strided layout) -> concat with x's 16
    first values (CPU: reads the relu's strided buffer as it is held) -> sigmoid (ANE)."""
    wv = rand((64, 64), 20, -0.2, 0.2)
    consts = blob(d, "W", wv)
    body = (consts
            + '        tensor<fp16, [1, 1, 1, 64]> h = matmul(x = x, y = W, transpose_y = bool(true))[name = string("h")];\n'
            + '        tensor<fp16, [1, 1, 1, 64]> n = layer_norm(x = h, axes = tensor<int32, [1]>([-1]), epsilon = fp16(0x1p-14))'
              '[name = string("n")];\n'
            + '        tensor<fp16, [1, 64, 1, 1]> c = reshape(x = n, shape = tensor<int32, [4]>([1, 64, 1, 1]))[name = string("c")];\n'
            + '        tensor<fp16, [1, 64, 1, 1]> r = relu(x = c)[name = string("r")];\n'
            + '        tensor<fp16, [1, 16, 1, 1]> s = slice_by_size(x = c, begin = tensor<int32, [4]>([0, 0, 0, 0]), '
              'size = tensor<int32, [4]>([1, 16, 1, 1]))[name = string("s")];\n'
            + '        tensor<fp16, [1, 80, 1, 1]> k = concat(values = (r, s), axis = int32(1), interleave = bool(false))[name = string("k")];\n'
            + '        tensor<fp16, [1, 80, 1, 1]> y = sigmoid(x = k)[name = string("y")];')
    return program(body, "tensor<fp16, [1, 1, 1, 64]> x"), {"W": wv}


def mixed_ref(xv, wv):
    """The same computation in float64, rounded to fp16 where each node stores its result (so only the last node's
    arithmetic is compared, as a one-node test does)."""
    r16 = lambda v: np.asarray(v, np.float64).astype(f16).astype(np.float64)  # noqa: E731
    h = r16(xv.astype(np.float64).reshape(64) @ wv.astype(np.float64).T)
    num = h - h.mean()
    n = r16(num / np.sqrt((num * num).mean() + 2.0 ** -14))
    k = np.concatenate([np.maximum(n, 0), n[:16]])
    return 1 / (1 + np.exp(-k))


def test_a_graph_mixing_ane_and_cpu_nodes(tmp_path):
    text, w = mixed(tmp_path)
    plan = plan_of(tmp_path, text)
    assert where(plan) == [("ane", "matvec"), ("cpu", "layer_norm"), ("ane", "matvec"), ("ane", "relu"),
                           ("cpu", "slice_by_size"), ("cpu", "concat"), ("ane", "lut")]
    adapter = plan.nodes[plan.order[2]]
    assert adapter.name == "c%unrp" and adapter.binds[0].node == plan.order[1]  # CPU contig -> the relu's strided layout
    concat = next(n for n in plan.nodes if isinstance(n, CpuNode) and n.attrs["op"] == "concat")
    assert [str(c) for c in concat.ins] == ["strided[64]", "strided[16]"]  # read as held: no adapter before a CPU node
    xv = rand((1, 1, 1, 64), 21)
    y = run(plan, x=xv).output("y")
    assert close(y, mixed_ref(xv, w["W"]), 1e-6)
    twice_the_same(plan, "y", x=xv)
    with pytest.raises(PlanError, match=r"m.mil:6: op 'layer_norm' \('n', shape \[1, 1, 1, 64\]\) is not on an ANE graph route"):
        plan_of(tmp_path, text, strict=True)


def test_cpu_nodes_write_no_program_and_run_from_the_artifacts(tmp_path):
    """The record names each node's placement and reason; a CPU node has no model.mil, weight.bin or package of its
    own (the graph package keeps every op); the graph runs from the artifacts as it ran from the plan."""
    text, w = mixed(tmp_path)
    (tmp_path / "g.mil").write_text(text)
    plan = plan_of(tmp_path, text)
    art = tmp_path / "artifacts"
    pytest.importorskip("coremltools")
    write_graph(plan, art / "ane" / "g")
    rec = manifest_record(art / "ane" / "g", art)
    for i, n in enumerate(rec["nodes"]):
        assert n["placement"] == plan.nodes[i].placement
        if n["placement"] == "cpu":
            assert n["reason"] and "mil" not in n and "mlpackage" not in n and not list((art / "ane" / "g").glob(f"n{i}_*"))
        else:
            assert (art / n["mil"]["path"]).is_file() and n["mlpackage"]["files"]
    runner = AneGraphRunner(types.SimpleNamespace(path=art), "g", rec, None)
    xv = rand((1, 1, 1, 64), 22)
    y1, y2 = runner.run(x=xv)["y"], runner.run(x=xv)["y"]
    assert close(y1, mixed_ref(xv, w["W"]), 1e-6) and y1.tobytes() == y2.tobytes()
    places = placements(json.loads(json.dumps(rec)))
    lines = placement_lines(places)
    assert lines[0] == "placement: 4 on ane, 3 on cpu"
    assert any(line.split()[:3] == ["n", "cpu", "layer_norm"] and "layer_norm has no ANE program" in line for line in lines)


def test_an_op_without_a_cpu_form_is_one_refusal(tmp_path):
    text = program('        tensor<fp16, [1, 8, 2, 2]> y = local_response_norm(x = x, size = int32(3))[name = string("y")];',
                   "tensor<fp16, [1, 8, 2, 2]> x")
    with pytest.raises(PlanError, match=r"^m.mil:4: local_response_norm 'y' \(x \[1, 8, 2, 2\] -> \[1, 8, 2, 2\]\) has no ANE route "
                                        r"\(local_response_norm has no ANE program\) and no CPU form yet$"):
        plan_of(tmp_path, text)


# ---- a build: the manifest and `npubuild show` ---------------------------------------------------------------------------

def test_build_and_show_list_placements(project):
    p = project("kernels:\n  r:\n    op: relu\n    shapes:\n      - [4]\n")
    (p.root / "specs" / "graphs").mkdir(parents=True, exist_ok=True)
    p.write("specs/graphs/r16.mil", RELU16)
    p.doit("build")
    show = p.npubuild("show", "r16").out
    assert "placement: 0 on ane, 1 on cpu" in show
    assert "  y  cpu  relu  relu on 16 values: the ANE relu program takes exactly 64 channels" in show, show
    assert not list((p.artifacts / "ane" / "r16").glob("n0_*"))  # no per-node program for the CPU node
    assert (p.artifacts / "ane" / "r16" / "r16.mlpackage").is_dir()  # the graph package keeps the op
    assert p.npubuild("verify").rc == 0
    with open(p.root / "pyproject.toml", "a") as f:
        f.write("ane_strict = true\n")
    r = p.doit("build", check=False)
    assert r.rc != 0 and "specs/graphs/r16.mil:4: relu 'y' on 16 elements is off route" in r.out + r.err
    shutil.rmtree(p.root / "specs" / "graphs")
