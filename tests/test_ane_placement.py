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
import types

import numpy as np
import pytest

from npubuild.ane.build import manifest_record, write_graph
from npubuild.ane.mil import parse_mil
from npubuild.ane.plan import PlanError, compile_plan
from npubuild.ane.plan_model import CpuNode, PlanBounds, ProgNode
from npubuild.cli.show import placement_lines, placements
from npubuild.core.errors import UserError
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
    assert where(plan) == [("ane", "matvec"), ("cpu", "layer_norm"), ("cpu", "reshape"), ("ane", "relu"),
                           ("cpu", "slice_by_size"), ("cpu", "concat"), ("ane", "lut")]
    adapter = plan.nodes[plan.order[2]]
    # CPU contig -> the relu's strided layout: a layout step of the emulator, no program (the seed's identity matvec)
    assert adapter.name == "c%rp" and adapter.binds[0].node == plan.order[1] and "layout adapter" in adapter.reason
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
    edited = json.loads(json.dumps(rec))  # a CPU node's shape edited in the manifest: one message, not its allocation
    next(n for n in edited["nodes"] if n["route"] == "cpu")["attrs"]["shape"] = [46340, 46340]
    with pytest.raises(UserError, match=r"CPU node 'n' \(layer_norm\): its shapes are not its currencies' .*rebuild"):
        AneGraphRunner(types.SimpleNamespace(path=art), "g", edited, None).run(x=xv)
    places = placements(json.loads(json.dumps(rec)))
    lines = placement_lines(places)
    assert lines[0] == "placement: 3 on ane, 4 on cpu"  # the layout adapter among the CPU's
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


# ---- every CPU form against coremltools' own value inference, in fp32 ---------------------------------------------------
# An fp32 graph is all CPU nodes (the ANE programs are fp16) computing in fp32 end to end, so each form can be held
# to coremltools' value_inference of the same builder program (tests/mil_convert.coreml_value: NumPy, in float32
# for fp32 ops) to float32 precision. Float constant tensors are fp16 values: the plan reads constants as fp16.

def c16(shape, seed, lo=-1.0, hi=1.0):
    """A constant of fp16 values, as fp32 (the plan reads float constants as fp16: these lose nothing)."""
    return rand(shape, seed, lo, hi).astype(np.float32)


def _chan(v):
    return np.asarray(v, np.float64).reshape(1, -1, 1, 1)


# NumPy references written here where coremltools' value inference has none (batch_norm, instance_norm,
# depth_to_space, space_to_depth) or does not follow its own definition (concat's value_inference ignores
# interleave, which its docstring defines as output[0::2] = in1, output[1::2] = in2 along axis; cumsum's
# exclusive branch raises). Each from the op's definition in coremltools' iOS15 docstrings.
OWN_REFS = {
    "batch_norm": lambda x: (x - _chan(c16(3, 37))) / np.sqrt(_chan(c16(3, 38, 0.5, 1.5)) + 1e-3) * _chan(c16(3, 39)) + _chan(c16(3, 40)),
    "instance_norm": lambda x: ((x - x.mean(axis=(2, 3), keepdims=True)) / np.sqrt(x.var(axis=(2, 3), keepdims=True) + 1e-3)
                                * _chan(c16(3, 41)) + _chan(c16(3, 42))),
    "depth_to_space": lambda x: x.reshape(1, 2, 2, 2, 2, 2).transpose(0, 3, 4, 1, 5, 2).reshape(1, 2, 4, 4),  # DCR
    "space_to_depth": lambda x: x.reshape(1, 2, 2, 2, 2, 2).transpose(0, 3, 5, 1, 2, 4).reshape(1, 8, 2, 2),
    "concat-interleave": lambda x, y: np.stack([x[:, j // 2] if j % 2 == 0 else y[:, j // 2] for j in range(6)], axis=1),
    "cumsum": lambda x: np.stack([x[:, j + 1:].sum(axis=1) for j in range(4)], axis=1),  # reverse and exclusive
}


def _loop_ref(fn):
    """A reference written as loops over the op's definition: ``fn(out, *inputs)`` edits a copy of input 0."""
    def ref(x, *rest):
        out = np.array(x, copy=True)
        fn(out, x, *rest)
        return out
    return ref


def _scatter_max(out, x, u):
    for r, cols in enumerate([[0, 3], [1, 1], [2, 0]]):
        for k, c in enumerate(cols):
            out[r, c] = max(out[r, c], u[r, k])


def _pixel_unshuffle_ref(x):
    out = np.zeros((1, 8, 2, 2))
    for c in range(2):
        for i in range(2):
            for j in range(2):
                out[0, c * 4 + i * 2 + j] = x[0, c, i::2, j::2]  # channel c's pixels at offset (i, j) of each 2x2 block
    return out


def _reverse_sequence_ref(x):
    out = np.array(x, copy=True)
    for b, n in enumerate([2, 5, 0]):
        out[b, :n] = x[b, :n][::-1]
    return out


def _space_to_batch_ref(x):
    xp = np.pad(x, [(0, 0), (0, 0), (0, 0), (1, 1)])  # paddings [[0, 0], [1, 1]]: W 2 -> 4
    out = np.zeros((4, 2, 2, 2))
    for oh in range(2):
        for ow in range(2):
            out[oh * 2 + ow] = xp[0, :, oh::2, ow::2]  # TF space_to_batch_nd: batch (oh * bw + ow) * n + b
    return out


def _batch_to_space_ref(x):
    full = np.zeros((1, 2, 4, 4))
    for oh in range(2):
        for ow in range(2):
            full[0, :, oh::2, ow::2] = x[oh * 2 + ow]
    return full[:, :, 0:3, 1:4]  # crops [[0, 1], [1, 0]]


def _conv_transpose_ref(x):
    """y[o, i * 2 + kh * 2, j * 2 + kw] += x[c, i, j] * w[c, o, kh, kw] (strides 2, dilations 2), then pad [1, 0, 0, 2] off."""
    w = c16((2, 3, 2, 3), 51)
    full = np.zeros((1, 3, (3 - 1) * 2 + (2 - 1) * 2 + 1, (2 - 1) * 2 + (3 - 1) * 2 + 1))
    for c in range(2):
        for i in range(3):
            for j in range(2):
                for kh in range(2):
                    for kw in range(3):
                        full[0, :, i * 2 + kh * 2, j * 2 + kw * 2] += x[0, c, i, j] * w[c, :, kh, kw]
    return full[:, :, 1:, :full.shape[3] - 2] + c16(3, 52).reshape(1, 3, 1, 1)


def _pool_ref(x, reduce, k=(2, 3), s=(2, 1), pad=(1, 0, 1, 1), fill=0.0):
    xp = np.pad(x, [(0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])], constant_values=fill)
    oh, ow = (xp.shape[2] - k[0]) // s[0] + 1, (xp.shape[3] - k[1]) // s[1] + 1
    return np.array([[[[reduce(xp[0, c, i * s[0]:i * s[0] + k[0], j * s[1]:j * s[1] + k[1]]) for j in range(ow)]
                       for i in range(oh)] for c in range(x.shape[1])]])


def _avg_excluding_pad(x):
    ones = _pool_ref(np.ones_like(x), np.sum)
    return _pool_ref(x, np.sum) / ones


OWN_REFS.update({
    "conv_transpose": _conv_transpose_ref,
    "max_pool": lambda x: _pool_ref(x, np.max, fill=-np.inf),
    "avg_pool": lambda x: _pool_ref(x, np.mean),  # padding counts as zeros in the mean
    "avg_pool-exclude": _avg_excluding_pad,
    "l2_pool": lambda x: _pool_ref(x, lambda v: np.sqrt(np.sum(v * v))),
    "conv-dilated": lambda x: _conv_dilated_ref(x),
    "scatter": _loop_ref(lambda out, x, u: [out.__setitem__(j, out[j] + u[i]) for i, j in enumerate([3, 1])]),
    "scatter-update": _loop_ref(lambda out, x, u: [out.__setitem__((slice(None), j), u[:, i]) for i, j in enumerate([2, 0])]),
    "scatter_along_axis-max": _loop_ref(_scatter_max),
    "scatter_nd": _loop_ref(lambda out, x, u: [out.__setitem__(j, out[j] * u[i]) for i, j in enumerate([1, 3])]),
    "slice_update": _loop_ref(lambda out, x, u: out.__setitem__((slice(1, 4, 2), slice(0, 6, 2)), u)),
    "pixel_unshuffle": _pixel_unshuffle_ref,
    "crop": lambda x: x[:, :, 1:3, 0:3],
    "sliding_windows": lambda x: np.stack([x[:, 2 * i:2 * i + 3] for i in range(3)], axis=1),
    "reverse_sequence": _reverse_sequence_ref,
    "space_to_batch": _space_to_batch_ref,
    "batch_to_space": _batch_to_space_ref,
    # quantization_ops.py: quantize = clip(round(x / scale) + zero_point), dequantize = (q - zero_point) * scale
    "dequantize": lambda x: (np.clip(np.round(x / np.float32(0.05)), -128, 127) + 2) * np.float32(0.05),
})


def _conv_dilated_ref(x):
    """conv.py conv with dilations [2, 1], same padding (2 rows, 1 column in all: 1 / 1 and 0 / 1), groups 2."""
    w = c16((4, 1, 2, 2), 53)
    xp = np.pad(x, [(0, 0), (0, 0), (1, 1), (0, 1)])
    out = np.zeros((1, 4, 4, 3))
    for o in range(4):
        for i in range(4):
            for j in range(3):
                out[0, o, i, j] = sum(xp[0, o // 2, i + kh * 2, j + kw] * w[o, 0, kh, kw] for kh in range(2) for kw in range(2))
    return out


def _sweep_cases():
    from coremltools.converters.mil import Builder as mb

    i32 = lambda v: np.asarray(v, np.int32)  # noqa: E731
    unary = {"abs": None, "acos": (-0.9, 0.9), "asin": (-0.9, 0.9), "atan": None, "atanh": (-0.9, 0.9), "ceil": None,
             "cos": None, "cosh": None, "erf": None, "exp": None, "exp2": None, "floor": None, "round": None,
             "sign": None, "sin": None, "sinh": None, "sqrt": (0.1, 2.0), "square": None, "tan": (-1.0, 1.0), "tanh": None,
             "relu": None, "relu6": (-8.0, 8.0), "sigmoid": None, "softplus": None, "softsign": None}
    cases = [(f"{op}", [(2, 3, 4)], (lambda op: lambda x: getattr(mb, op)(x=x))(op), rng) for op, rng in unary.items()]
    for op in ("add", "sub", "mul", "real_div", "maximum", "minimum", "pow", "floor_div", "mod"):
        rng = (0.5, 2.0) if op in ("pow", "real_div", "floor_div", "mod") else None
        cases.append((op, [(2, 3, 4), (3, 1)], (lambda op: lambda x, y: getattr(mb, op)(x=x, y=y))(op), rng))
    for op in ("equal", "not_equal", "greater", "greater_equal", "less", "less_equal"):
        cases.append((op, [(2, 3, 4), (2, 3, 4)], (lambda op: lambda x, y: mb.cast(x=getattr(mb, op)(x=mb.round(x=x), y=mb.round(x=y)),
                                                                                        dtype="fp32"))(op), None))
    for op in ("logical_and", "logical_or", "logical_xor"):
        cases.append((op, [(2, 3, 4), (2, 3, 4)], (lambda op: lambda x, y: mb.cast(x=getattr(mb, op)(
            x=mb.greater(x=x, y=0.0), y=mb.less(x=y, y=0.0)), dtype="fp32"))(op), None))
    cases += [
        ("logical_not", [(2, 3, 4)], lambda x: mb.cast(x=mb.logical_not(x=mb.greater(x=x, y=0.0)), dtype="fp32"), None),
        ("inverse", [(2, 3, 4)], lambda x: mb.inverse(x=x, epsilon=1e-3), (0.5, 2.0)),
        ("log", [(2, 3, 4)], lambda x: mb.log(x=x, epsilon=1e-3), (0.5, 2.0)),
        ("rsqrt", [(2, 3, 4)], lambda x: mb.rsqrt(x=x, epsilon=1e-3), (0.5, 2.0)),
        ("threshold", [(2, 3, 4)], lambda x: mb.threshold(x=x, alpha=0.25), None),
        ("clip", [(2, 3, 4)], lambda x: mb.clip(x=x, alpha=-0.5, beta=0.75), None),
        ("leaky_relu", [(2, 3, 4)], lambda x: mb.leaky_relu(x=x, alpha=0.1), None),
        ("elu", [(2, 3, 4)], lambda x: mb.elu(x=x, alpha=0.7), None),
        ("prelu", [(1, 3, 4, 2)], lambda x: mb.prelu(x=x, alpha=c16(3, 30, 0.0, 0.5)), None),
        ("sigmoid_hard", [(2, 3, 4)], lambda x: mb.sigmoid_hard(x=x, alpha=0.3, beta=0.4), None),
        ("scaled_tanh", [(2, 3, 4)], lambda x: mb.scaled_tanh(x=x, alpha=1.5, beta=0.5), None),
        ("linear_activation", [(2, 3, 4)], lambda x: mb.linear_activation(x=x, alpha=1.5, beta=0.25), None),
        ("clamped_relu", [(2, 3, 4)], lambda x: mb.clamped_relu(x=x, alpha=0.2, beta=0.5), None),
        ("thresholded_relu", [(2, 3, 4)], lambda x: mb.thresholded_relu(x=x, alpha=0.3), None),
        ("softplus_parametric", [(1, 3, 4, 2)], lambda x: mb.softplus_parametric(x=x, alpha=c16(3, 31, 0.5, 1.5),
                                                                                 beta=c16(3, 32, 0.5, 1.5)), None),
        ("gelu-tanh", [(2, 3, 4)], lambda x: mb.gelu(x=x, mode="TANH_APPROXIMATION"), None),
        ("gelu-sigmoid", [(2, 3, 4)], lambda x: mb.gelu(x=x, mode="SIGMOID_APPROXIMATION"), None),
        ("gelu-exact", [(2, 3, 4)], lambda x: mb.gelu(x=x, mode="EXACT"), None),
        ("softmax", [(2, 3, 4)], lambda x: mb.softmax(x=x, axis=1), None),
        ("matmul", [(2, 3, 4), (2, 5, 4)], lambda x, y: mb.matmul(x=x, y=y, transpose_y=True), None),
        ("matmul-broadcast", [(2, 1, 3, 4), (5, 4, 2)], lambda x, y: mb.matmul(x=x, y=y), None),
        ("linear", [(3, 4)], lambda x: mb.linear(x=x, weight=c16((5, 4), 33), bias=c16(5, 34)), None),
        ("layer_norm", [(2, 3, 4)], lambda x: mb.layer_norm(x=x, axes=[1, 2], gamma=c16((3, 4), 35), beta=c16((3, 4), 36),
                                                            epsilon=1e-4), None),
        ("batch_norm", [(1, 3, 2, 2)], lambda x: mb.batch_norm(x=x, mean=c16(3, 37), variance=c16(3, 38, 0.5, 1.5),
                                                               gamma=c16(3, 39), beta=c16(3, 40), epsilon=1e-3), None),
        ("instance_norm", [(1, 3, 2, 4)], lambda x: mb.instance_norm(x=x, gamma=c16(3, 41), beta=c16(3, 42), epsilon=1e-3), None),
        ("l2_norm", [(2, 3, 2, 2)], lambda x: mb.l2_norm(x=x, epsilon=1e-4), None),
        ("concat", [(2, 3), (2, 1)], lambda x, y: mb.concat(values=(x, y), axis=1), None),
        ("concat-interleave", [(2, 3), (2, 3)], lambda x, y: mb.concat(values=(x, y), axis=1, interleave=True), None),
        ("stack", [(2, 3), (2, 3)], lambda x, y: mb.stack(values=(x, y), axis=1), None),
        ("split", [(2, 6)], lambda x: mb.split(x=x, split_sizes=[1, 5], axis=1)[1], None),
        ("slice_by_index", [(4, 6)], lambda x: mb.slice_by_index(x=x, begin=[1, 5], end=[4, 0], stride=[2, -2],
                                                                 begin_mask=[False, False], end_mask=[False, True]), None),
        ("slice_by_size", [(4, 6)], lambda x: mb.slice_by_size(x=x, begin=[1, 2], size=[2, -1]), None),
        ("reshape", [(2, 3, 4)], lambda x: mb.reshape(x=x, shape=[4, 6]), None),
        ("transpose", [(2, 3, 4)], lambda x: mb.transpose(x=x, perm=[2, 0, 1]), None),
        ("squeeze", [(2, 1, 4)], lambda x: mb.squeeze(x=x, axes=[1]), None),
        ("expand_dims", [(2, 4)], lambda x: mb.expand_dims(x=x, axes=[1]), None),
        ("tile", [(2, 3)], lambda x: mb.tile(x=x, reps=[2, 1]), None),
        ("gather", [(4, 3)], lambda x: mb.gather(x=x, indices=i32([3, 0, 2]), axis=0), None),
        ("gather_along_axis", [(3, 4)], lambda x: mb.gather_along_axis(x=x, indices=i32([[0, 3], [1, 1], [2, 0]]), axis=1), None),
        ("pad", [(2, 3)], lambda x: mb.pad(x=x, pad=i32([1, 0, 2, 1]), mode="constant", constant_val=0.5), None),
        ("pad-reflect", [(3, 4)], lambda x: mb.pad(x=x, pad=i32([0, 0, 2, 1]), mode="reflect"), None),
        ("cast-int", [(2, 3)], lambda x: mb.cast(x=mb.cast(x=mb.mul(x=x, y=4.0), dtype="int32"), dtype="fp32"), None),
        ("select", [(2, 3), (2, 3)], lambda x, y: mb.select(cond=mb.greater(x=x, y=y), a=x, b=y), None),
        ("sdpa", [(1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4)],
         lambda q, k, v: mb.scaled_dot_product_attention(query=q, key=k, value=v), None),
        ("band_part", [(4, 4)], lambda x: mb.band_part(x=x, lower=1, upper=0), None),
        ("cumsum", [(2, 4)], lambda x: mb.cumsum(x=x, axis=1, exclusive=True, reverse=True), None),
        ("topk", [(2, 5)], lambda x: mb.topk(x=x, k=2, axis=1)[0], None),
        ("argsort", [(2, 5)], lambda x: mb.cast(x=mb.argsort(x=x, axis=1), dtype="fp32"), None),
        ("depth_to_space", [(1, 8, 2, 2)], lambda x: mb.depth_to_space(x=x, block_size=2), None),
        ("space_to_depth", [(1, 2, 4, 4)], lambda x: mb.space_to_depth(x=x, block_size=2), None),
        ("reverse", [(2, 3)], lambda x: mb.reverse(x=x, axes=[1]), None),
        ("reduce_argmax", [(2, 3, 4)], lambda x: mb.cast(x=mb.reduce_argmax(x=x, axis=1), dtype="fp32"), None),
        ("reduce_argmin", [(2, 3, 4)], lambda x: mb.cast(x=mb.reduce_argmin(x=x, axis=-1, keep_dims=True), dtype="fp32"), None),
    ]
    cases += [
        ("scatter", [(4, 3), (2, 3)], lambda x, u: mb.scatter(data=x, indices=i32([3, 1]), updates=u, axis=0, mode="add"), None),
        ("scatter-update", [(4, 3), (4, 2)], lambda x, u: mb.scatter(data=x, indices=i32([2, 0]), updates=u, axis=1,
                                                                     mode="update"), None),
        ("scatter_along_axis", [(3, 4), (3, 2)], lambda x, u: mb.scatter_along_axis(
            data=x, indices=i32([[0, 3], [1, 2], [2, 0]]), updates=u, axis=1, mode="update"), None),
        ("scatter_along_axis-max", [(3, 4), (3, 2)], lambda x, u: mb.scatter_along_axis(
            data=x, indices=i32([[0, 3], [1, 1], [2, 0]]), updates=u, axis=1, mode="max"), None),
        ("scatter_nd", [(4, 3), (2, 3)], lambda x, u: mb.scatter_nd(data=x, indices=i32([[1], [3]]), updates=u, mode="mul"), None),
        ("slice_update", [(4, 6), (2, 3)], lambda x, u: mb.slice_update(x=x, update=u, begin=i32([1, 0]), end=i32([4, 6]),
                                                                        stride=i32([2, 2])), None),
        ("fill_like", [(2, 3)], lambda x: mb.add(x=x, y=mb.fill_like(ref_tensor=x, value=0.5)), None),
        ("pixel_unshuffle", [(1, 2, 4, 4)], lambda x: mb.pixel_unshuffle(x=x, downscale_factor=np.uint32(2)), None),
        ("crop", [(1, 2, 5, 6)], lambda x: mb.crop(x=x, crop_height=[1, 2], crop_width=[0, 3]), None),
        ("sliding_windows", [(2, 7)], lambda x: mb.sliding_windows(x=x, axis=1, size=3, stride=2), None),
        ("reverse_sequence", [(3, 5)], lambda x: mb.reverse_sequence(x=x, lengths=i32([2, 5, 0]), seq_axis=1, batch_axis=0), None),
        ("space_to_batch", [(1, 2, 4, 2)], lambda x: mb.space_to_batch(x=x, block_shape=i32([2, 2]),
                                                                       paddings=i32([[0, 0], [1, 1]])), None),
        ("quantize", [(2, 3)], lambda x: mb.cast(x=mb.quantize(input=x, scale=np.float32(0.05), zero_point=np.int8(3),
                                                              output_dtype="int8"), dtype="fp32"), None),
        ("quantize-axis", [(2, 3)], lambda x: mb.cast(x=mb.quantize(input=x, scale=c16(3, 50, 0.01, 0.05), zero_point=np.uint8([1, 2, 3]),
                                                                   axis=1, output_dtype="uint8"), dtype="fp32"), None),
        ("dequantize", [(2, 3)], lambda x: mb.dequantize(input=mb.quantize(input=x, scale=np.float32(0.05), output_dtype="int8"),
                                                         scale=np.float32(0.05), zero_point=np.int8(-2)), None),
        ("conv_transpose", [(1, 2, 3, 2)], lambda x: mb.conv_transpose(x=x, weight=c16((2, 3, 2, 3), 51), bias=c16(3, 52),
                                                                       strides=[2, 2], dilations=[2, 2], pad_type="custom",
                                                                       pad=[1, 0, 0, 2]), None),
        ("conv-dilated", [(1, 2, 4, 3)], lambda x: mb.conv(x=x, weight=c16((4, 1, 2, 2), 53), dilations=[2, 1], groups=2,
                                                           pad_type="same"), None),
        ("max_pool", [(1, 2, 5, 4)], lambda x: mb.max_pool(x=x, kernel_sizes=[2, 3], strides=[2, 1], pad_type="custom",
                                                           pad=[1, 0, 1, 1]), None),
        ("avg_pool", [(1, 2, 5, 4)], lambda x: mb.avg_pool(x=x, kernel_sizes=[2, 3], strides=[2, 1], pad_type="custom",
                                                           pad=[1, 0, 1, 1], exclude_padding_from_average=False), None),
        ("avg_pool-exclude", [(1, 2, 5, 4)], lambda x: mb.avg_pool(x=x, kernel_sizes=[2, 3], strides=[2, 1], pad_type="custom",
                                                                   pad=[1, 0, 1, 1], exclude_padding_from_average=True), None),
        ("l2_pool", [(1, 2, 5, 4)], lambda x: mb.l2_pool(x=x, kernel_sizes=[2, 3], strides=[2, 1], pad_type="custom",
                                                         pad=[1, 0, 1, 1]), None),
        ("batch_to_space", [(4, 2, 2, 2)], lambda x: mb.batch_to_space(x=x, block_shape=i32([2, 2]),
                                                                       crops=i32([[0, 1], [1, 0]])), None),
    ]
    for op in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_l1_norm", "reduce_l2_norm",
               "reduce_sum_square", "reduce_log_sum", "reduce_log_sum_exp"):
        cases.append((op, [(2, 3, 4)], (lambda op: lambda x: getattr(mb, op)(x=x, axes=[0, 2], keep_dims=False))(op),
                      (0.5, 2.0) if op == "reduce_log_sum" else None))
    return cases


def _sweep_ids():
    try:
        return [c[0] for c in _sweep_cases()]
    except ImportError:
        return []


@pytest.mark.parametrize("case", _sweep_ids())
def test_cpu_forms_match_coremltools_value_inference_in_fp32(tmp_path, case):
    ct = pytest.importorskip("coremltools")
    from coremltools.converters.mil import Builder as mb
    from coremltools.converters.mil.mil import types

    from npubuild.ane.mil import MilError

    from .mil_convert import coreml_value, program_text

    name, shapes, build, rng = next(c for c in _sweep_cases() if c[0] == case)
    names = ["x", "y", "z"][:len(shapes)]
    specs = [mb.TensorSpec(shape=s, dtype=types.fp32) for s in shapes]
    fn = {1: lambda x: build(x), 2: lambda x, y: build(x, y), 3: lambda x, y, z: build(x, y, z)}[len(shapes)]
    prog = mb.program(input_specs=specs, opset_version=ct.target.iOS18)(fn)
    text = program_text(prog)
    lo, hi = rng or (-2.0, 2.0)
    inputs = {n: np.random.default_rng([7, i]).uniform(lo, hi, size=s).astype(np.float32) for i, (n, s) in enumerate(zip(names, shapes))}
    args = list(prog.functions["main"].inputs)
    inputs = dict(zip(args, inputs.values()))
    if name in OWN_REFS:
        ref = [OWN_REFS[name](*(np.asarray(v, np.float64) for v in inputs.values()))]
    else:
        ref, missing = coreml_value(prog, inputs)
        assert missing is None, f"coremltools has no value inference for {missing}: give a reference in OWN_REFS"
    try:
        plan = plan_of(tmp_path, text)
    except MilError as e:
        if "not a MIL op npubuild knows" in str(e):
            pytest.skip(f"the reader does not type this op yet: {e}")
        raise
    assert all(n.placement == "cpu" for n in plan.nodes)  # fp32 throughout: nothing for an fp16 ANE program
    rt = run(plan, **inputs)
    out = prog.functions["main"].outputs[0].name
    y = rt.output(out)
    want = np.asarray(ref[0], np.float64).reshape(-1)
    # float32 arithmetic against coremltools' NumPy (float32 or float64): a few float32 ulps of the operands' size
    assert np.allclose(y.astype(np.float64), want, rtol=2e-6, atol=2e-6, equal_nan=True), (name, y, want)


# the grid points of coremltools' resize_bilinear / upsample_bilinear Notes (iOS15/image_resizing.py), for Xin = 2 sampled
# as [0, 1]: resizing the row [0, 1] gives back exactly these positions
GRIDS = [
    ("UNALIGN_CORNERS", 5, [0., 0.1, 0.5, 0.9, 1.]), ("STRICT_ALIGN_CORNERS", 5, [0., 0.25, 0.5, 0.75, 1.]),
    ("ALIGN_CORNERS", 5, [0., 0.25, 0.5, 0.75, 1.]), ("DEFAULT", 5, [0., 0.4, 0.8, 1., 1.]),
    ("OFFSET_CORNERS", 5, [0.1, 0.3, 0.5, 0.7, 0.9]), ("UNALIGN_CORNERS", 6, [0., 0., 1 / 3, 2 / 3, 1., 1.]),
    ("STRICT_ALIGN_CORNERS", 6, [0., 0.2, 0.4, 0.6, 0.8, 1.]), ("DEFAULT", 6, [0., 1 / 3, 2 / 3, 1., 1., 1.]),
    ("OFFSET_CORNERS", 6, [1 / 12, 0.25, 5 / 12, 7 / 12, 0.75, 11 / 12]),
]


@pytest.mark.parametrize("mode, n, grid", GRIDS, ids=[f"{m}-{n}" for m, n, _ in GRIDS])
def test_resize_bilinear_samples_the_grid_its_definition_gives(tmp_path, mode, n, grid):
    text = program(f'        tensor<fp16, [1, 1, 1, {n}]> y = resize_bilinear(x = x, target_size_height = int32(1), '
                   f'target_size_width = int32({n}), sampling_mode = string("{mode}"))[name = string("y")];',
                   "tensor<fp16, [1, 1, 1, 2]> x")
    plan = plan_of(tmp_path, text)
    assert where(plan) == [("cpu", "resize_bilinear")]
    assert close(run(plan, x=np.array([0, 1], f16)).output("y"), grid)


@pytest.mark.parametrize("align", [True, False])
def test_upsample_bilinear_interpolates_both_axes(tmp_path, align):
    xv = rand((1, 2, 3, 2), 60)
    text = program(f'        tensor<fp16, [1, 2, 6, 6]> y = upsample_bilinear(x = x, scale_factor_height = int32(2), '
                   f'scale_factor_width = int32(3), align_corners = bool({str(align).lower()}))[name = string("y")];',
                   "tensor<fp16, [1, 2, 3, 2]> x")
    plan = plan_of(tmp_path, text)

    def grid(n_in, n_out):  # the op's Notes: align_corners true / false
        i = np.arange(n_out)
        g = i * (n_in - 1) / (n_out - 1) if align else i * n_in / n_out + 0.5 * n_in / n_out - 0.5
        return np.clip(g, 0, n_in - 1)

    x = xv.astype(np.float64)
    ref = np.zeros((1, 2, 6, 6))
    for i, gy in enumerate(grid(3, 6)):
        for j, gx in enumerate(grid(2, 6)):
            y0, x0 = int(np.floor(gy)), int(np.floor(gx))
            y1, x1 = min(y0 + 1, 2), min(x0 + 1, 1)
            wy, wx = gy - y0, gx - x0
            ref[0, :, i, j] = (x[0, :, y0, x0] * (1 - wy) * (1 - wx) + x[0, :, y0, x1] * (1 - wy) * wx
                               + x[0, :, y1, x0] * wy * (1 - wx) + x[0, :, y1, x1] * wy * wx)
    assert close(run(plan, x=xv).output("y"), ref, 1e-6)
