"""Blocks in the ANE's layout (issue 29, item 5): a conv 1x1 or a matmul by a constant, its bias and its activation
are one program (one route, one rounding); the graph package keeps MIL's own ``gelu`` (Core ML's public path runs it),
only the per-node programs spell it in elementwise ops. Each graph is planned, written with its packages (built and
reloaded with coremltools) and run on the ``ane`` emulation against NumPy written from MIL's definitions."""
from __future__ import annotations

import json
import math

import numpy as np

from npubuild.ane.build import plan_graph, write_graph
from npubuild.ane.mil_model import MilBounds
from npubuild.runner.ane import AneRuntime

from .test_ane_coreml import _load

C, S, CO = 64, 128, 96


def _t(shape, dtype="fp16"):
    return f"tensor<{dtype}, [{', '.join(map(str, shape))}]>"


def _lit(a) -> str:
    return f"{_t(a.shape)}([{', '.join(repr(float(v)) for v in a.reshape(-1))}])"


def _w(shape, seed, scale=0.2):
    return np.random.default_rng(seed).uniform(-scale, scale, size=shape).astype(np.float16)


W, B = _w((CO, C, 1, 1), 1), _w((CO,), 2, 1.0)
CONV_GELU = f"""program(1.3)
{{
    func main<ios18>({_t([1, C, 1, S])} x) {{
        {_t(W.shape)} w = const()[name = string("w"), val = {_lit(W)}];
        {_t(B.shape)} b = const()[name = string("b"), val = {_lit(B)}];
        {_t([1, CO, 1, S])} c = conv(x = x, weight = w, bias = b)[name = string("c")];
        {_t([1, CO, 1, S])} y = gelu(x = c)[name = string("y")];
    }} -> (y);
}}
"""

WL, BL = _w((48, 64), 3), _w((48,), 4, 1.0)
LINEAR_RELU = f"""program(1.3)
{{
    func main<ios18>({_t([1, 4, 1, 64])} x) {{
        {_t(WL.shape)} w = const()[name = string("w"), val = {_lit(WL)}];
        {_t(BL.shape)} b = const()[name = string("b"), val = {_lit(BL)}];
        {_t([1, 4, 1, 48])} h = linear(x = x, weight = w, bias = b)[name = string("h")];
        {_t([1, 4, 1, 48])} y = relu(x = h)[name = string("y")];
    }} -> (y);
}}
"""


def _erf_gelu(v):
    return 0.5 * v * (1 + np.vectorize(math.erf)(v / math.sqrt(2)))


def _build(tmp_path, name, text):
    src = tmp_path / f"{name}.mil"
    src.write_text(text)
    plan = plan_graph(src, src.name, MilBounds())
    out = tmp_path / name
    write_graph(plan, out, (src, src.name, MilBounds()))
    return plan, json.loads((out / "plan.json").read_text()), out


def _run(plan, **inputs):
    rt = AneRuntime(plan)
    for k, v in inputs.items():
        rt.write_ext(k, v)
    rt.run()
    return rt


def _ops(pkg):
    return [op.op_type for op in _load(pkg)[1].functions["main"].operations if op.op_type != "const"]


def test_conv_bias_gelu_on_channels_first_is_one_program_and_the_package_keeps_gelu(tmp_path):
    plan, rec, out = _build(tmp_path, "blk", CONV_GELU)
    assert [(n.route, n.attrs.get("act"), n.attrs.get("mode")) for n in plan.nodes] == [("conv_act", "gelu", "EXACT")]
    assert sorted(plan.nodes[0].weights) == ["b", "w"]
    x = np.random.default_rng(5).uniform(-1, 1, (1, C, 1, S)).astype(np.float16)
    y = _run(plan, x=x).output("y").reshape(1, CO, 1, S)
    pre = np.einsum("oc,bchw->bohw", W[:, :, 0, 0].astype(np.float64), x.astype(np.float64)) + B.reshape(1, CO, 1, 1)
    ref = _erf_gelu(pre)
    # one program: float32 sums and the erf-free gelu (within 1.5e-7 of erf) rounded once to fp16: 1/2 ULP
    # plus float32 error; 1 ULP of the result (at least of 1/4: the sums of 64 products may cancel)
    ulp = np.spacing(np.maximum(np.abs(ref), 0.25).astype(np.float16)).astype(np.float64)
    assert np.max(np.abs(y.astype(np.float64) - ref) / ulp) <= 1, np.max(np.abs(y - ref))
    assert np.max(np.abs(y.astype(np.float64) - _erf_gelu(pre - B.reshape(1, CO, 1, 1)))) > 0.1  # the bias counts
    # the node program: one conv with its bias input, gelu spelt in elementwise ops (no gelu, no erf)
    node_ops = _ops(out / rec["nodes"][0]["mlpackage"]["path"])
    assert node_ops.count("conv") == 1 and "gelu" not in node_ops and "erf" not in node_ops, node_ops
    text = (out / rec["nodes"][0]["mil"]["path"]).read_text()
    assert "conv(bias = b, " in text
    # the graph package: MIL's conv with its bias, and MIL's own gelu in its mode
    graph = _load(out / rec["mlpackage"]["path"])[1].functions["main"]
    ops = {op.op_type: op for op in graph.operations if op.op_type != "const"}
    assert sorted(ops) == ["conv", "gelu"], sorted(ops)
    assert ops["gelu"].inputs["mode"].val == "EXACT" and ops["conv"].inputs["bias"] is not None


def test_linear_bias_relu_is_one_linear_program(tmp_path):
    plan, rec, out = _build(tmp_path, "lin", LINEAR_RELU)
    assert [(n.route, n.attrs.get("act")) for n in plan.nodes] == [("linear", "relu")]
    x = np.random.default_rng(6).uniform(-1, 1, (1, 4, 1, 64)).astype(np.float16)
    y = _run(plan, x=x).output("y").reshape(4, 48).astype(np.float64)
    ref = np.maximum(x.reshape(4, 64).astype(np.float64) @ WL.astype(np.float64).T + BL.astype(np.float64), 0)
    ulp = np.spacing(np.maximum(np.abs(ref), 0.25).astype(np.float16)).astype(np.float64)
    assert np.max(np.abs(y - ref) / ulp) <= 1
    assert (ref == 0).any() and (ref > 0).any()  # the relu clips some values and keeps others
    node_ops = _ops(out / rec["nodes"][0]["mlpackage"]["path"])
    assert "linear" in node_ops and "relu" in node_ops and "matmul" not in node_ops, node_ops


def test_fusion_guards_keep_needed_intermediates(tmp_path):
    """A pre-activation value that is also a function output, or a bias that varies along the spatial axis, is
    not fused away: the conv, the add and the activation stay programs of their own where the pattern breaks."""
    shared = CONV_GELU.replace("} -> (y);", "} -> (c, y);")
    plan, _, _ = _build(tmp_path, "out", shared)
    assert [n.route for n in plan.nodes] == ["conv1x1", "gelu"]  # conv + bias fused; c is needed: the gelu apart
    spatial = _w((1, CO, 1, S), 7)
    text = CONV_GELU.replace(", bias = b", "").replace(
        f'{_t([1, CO, 1, S])} y = gelu(x = c)',
        f'{_t(spatial.shape)} s = const()[name = string("s"), val = {_lit(spatial)}];\n'
        f'        {_t([1, CO, 1, S])} a = add(x = c, y = s)[name = string("a")];\n'
        f'        {_t([1, CO, 1, S])} y = gelu(x = a)')
    plan, _, _ = _build(tmp_path, "spatial", text)
    assert [n.route for n in plan.nodes] == ["conv1x1", "ew", "gelu"]


# ---- a YAML graph in the channels-first layout -----------------------------------------------------------------------------

CF = """graphs:
  blk:
    targets: [ane]
    layout: {layout}
    inputs: {{x: {{shape: [128, 64], dtype: f32}}}}
    constants:
      w1: {{shape: [64, 96], file: w1.npy}}
      b1: {{shape: [96], file: b1.npy}}
      w2: {{shape: [96, 64], file: w2.npy}}
    nodes:
      h: {{op: matmul, inputs: [x, w1]}}
      hb: {{op: add, inputs: [h, b1]}}
      a: {{op: gelu, inputs: [hb]}}
      d: {{op: matmul, inputs: [a, w2]}}
      s: {{op: softmax, inputs: [d], attrs: {{axis: -1}}}}
    outputs: [s]
"""


def _cf_project(tmp_path, layout="channels_first", text=None):
    from .conftest import new_project

    p = new_project(tmp_path / "proj", graphs=text or CF.format(layout=layout), targets=("ref",))
    rng = np.random.default_rng(8)
    for name, shape in {"w1": (64, 96), "b1": (96,), "w2": (96, 64)}.items():
        np.save(p.root / f"specs/graphs/{name}.npy", (rng.standard_normal(shape) / 6).astype(np.float32))
    return p


def test_channels_first_yaml_graph_is_conv_blocks_on_1_c_1_s(tmp_path):
    import npubuild

    p = _cf_project(tmp_path)
    p.doit("build")
    rec = json.loads((p.artifacts / "manifest.json").read_text())["graphs"]["blk"]
    assert rec["inputs"] == {"x": {"shape": [1, 64, 1, 128], "dtype": "fp16"}} and rec["output_shapes"] == {"s": [1, 64, 1, 128]}
    # matmul + bias + gelu is one conv program on (1, 64, 1, 128); the second matmul a conv; softmax over the channels
    assert [(n["route"], n["attrs"].get("act")) for n in rec["nodes"]] == [("conv_act", "gelu"), ("conv1x1", None), ("softmax", None)]
    graph = _load(p.artifacts / rec["mlpackage"]["path"])[1].functions["main"]
    assert [o.op_type for o in graph.operations if o.op_type != "const"] == ["conv", "add", "gelu", "conv", "softmax"]
    w = {n: np.load(p.root / f"specs/graphs/{n}.npy").astype(np.float16).astype(np.float64) for n in ("w1", "b1", "w2")}
    x = np.random.default_rng(9).uniform(-1, 1, (128, 64)).astype(np.float16)  # [S, C]
    d = _erf_gelu(x.astype(np.float64) @ w["w1"] + w["b1"]) @ w["w2"]
    e = np.exp(d - d.max(axis=-1, keepdims=True))
    ref = (e / e.sum(axis=-1, keepdims=True)).T.reshape(1, 64, 1, 128)  # [S, C] -> (1, C, 1, S)
    rt = npubuild.load(p.artifacts)
    y = rt.graph("blk", backend="ane").run(x=np.ascontiguousarray(x.T).reshape(1, 64, 1, 128))["s"]
    rt.close()
    # three fp16 programs over sums of 64 and 96 terms: within 2e-3 of probabilities below 1 (measured ~2e-4)
    np.testing.assert_allclose(y.astype(np.float64), ref, atol=2e-3)
    # show reports the last axes: 128 fp16 values are 256 bytes, whole rows; the default layout's [128, 64] too,
    # but a [128, 40] graph's 80-byte rows are padded to 128
    assert "every input and output's last axis is a whole number of 64-byte rows" in p.npubuild("show", "blk").out


def test_show_reports_a_last_axis_not_padded_to_64_bytes(tmp_path):
    text = CF.format(layout="default").replace("[128, 64], dtype", "[128, 40], dtype").replace("[64, 96]", "[40, 96]") \
        .replace("[96, 64], file", "[96, 40], file")
    p = _cf_project(tmp_path, text=text)
    rng = np.random.default_rng(8)
    np.save(p.root / "specs/graphs/w1.npy", (rng.standard_normal((40, 96)) / 6).astype(np.float32))
    np.save(p.root / "specs/graphs/w2.npy", (rng.standard_normal((96, 40)) / 6).astype(np.float32))
    p.doit("build")
    out = p.npubuild("show", "blk").out
    assert "x  fp16 [128, 40]: last axis 80 bytes, padded to 128 (37% of the buffer is padding)" in out, out
    assert "s  fp16 [128, 40]: last axis 80 bytes, padded to 128" in out
    shown = json.loads(p.npubuild("show", "blk", "--json").out)["padding"]
    assert [f["name"] for f in shown] == ["x", "s"]


def test_channels_first_refuses_what_it_cannot_hold(tmp_path):
    text = CF.format(layout="channels_first").replace("      s: {op: softmax, inputs: [d], attrs: {axis: -1}}",
                                                      "      s: {op: reshape, inputs: [d], attrs: {shape: [64, 128]}}")
    p = _cf_project(tmp_path, text=text)
    r = p.doit("build", check=False)
    assert r.rc != 0 and "specs/graphs/g.yaml:15: graph 'blk': layout channels_first: node 's' (reshape): a reshape " \
                         "moves values between the axes of (1, C, 1, S)" in r.out + r.err, r.out + r.err
    r = _cf_project(tmp_path / "b", layout="sideways").doit("build", check=False)
    assert r.rc != 0 and "specs/graphs/g.yaml:4: graph 'blk': layout 'sideways' is none of default, channels_first" in r.out + r.err


def test_channels_first_keeps_compressed_weights_in_the_conv_layout(tmp_path):
    """Compressed weights of a channels-first graph are compressed as conv weights [N, K, 1, 1] (coremltools' conv
    axes: blocks along the input channels, palettes per group of output channels) and stay so in the programs."""
    text = CF.format(layout="channels_first") + """    compress:
      w1: {kind: quantize, dtype: int8, granularity: per_block, block_size: 32}
      w2: {kind: palettize, nbits: 4, granularity: per_grouped_channel, group_size: 16}
"""
    p = _cf_project(tmp_path, text=text)
    p.doit("build")
    rec = json.loads((p.artifacts / "manifest.json").read_text())["graphs"]["blk"]
    first, second = rec["nodes"][0], rec["nodes"][1]
    assert {k: (b["dtype"], b["shape"]) for k, b in first["blobs"].items() if k != "b"} == \
        {"w_data": ("int8", [96, 64, 1, 1]), "w_scale": ("fp16", [96, 2, 1, 1])}
    assert {k: (b["dtype"], b["shape"]) for k, b in second["blobs"].items()} == \
        {"w_indices": ("uint4", [64, 96, 1, 1]), "w_lut": ("fp16", [4, 1, 1, 1, 16, 1])}
    graph = _load(p.artifacts / rec["mlpackage"]["path"])[1].functions["main"]
    ops = {o.op_type for o in graph.operations}
    assert {"constexpr_blockwise_shift_scale", "constexpr_lut_to_dense", "conv", "gelu"} <= ops
