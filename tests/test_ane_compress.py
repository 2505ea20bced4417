"""Compression kept end to end (issue 29, item 4): a YAML ane graph's ``compress:`` key quantizes (blockwise
int4/int8), palettizes (k-means, n bits) and prunes its matmul weights the way ``coremltools.optimize.coreml`` does;
the weights stay compressed — iOS18 ``constexpr_blockwise_shift_scale`` / ``constexpr_lut_to_dense`` /
``constexpr_sparse_to_dense`` over int4 / uint4 / uint1 blobs — in every program's weight.bin, its Core ML package
and the graph package; the ``ane`` emulation computes from those blobs, dequantised as coremltools' own op
definitions compute them (``materialized_val_inference``); bad options are one message at their line."""
from __future__ import annotations

import json

import numpy as np
import pytest

from coremltools.converters.mil.mil import types
from coremltools.optimize import _utils as ct_utils
from coremltools.optimize.coreml._quantization_passes import linear_quantize_weights, prune_weights

import npubuild
from npubuild.ane import compress
from npubuild.ane.programs import load_weights
from npubuild.ane.weightbin import blob_from_bytes

from .conftest import new_project
from .test_ane_coreml import _load

RNG = np.random.default_rng(0)
W = (RNG.standard_normal((64, 48)) * 0.1).astype(np.float16)


# ---- the compressions against coremltools' own ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int4", "uint4"])
@pytest.mark.parametrize("mode", ["linear_symmetric", "linear"])
@pytest.mark.parametrize("blocks", [[0, 0], [0, 1], [32, 1], [16, 0]])
def test_quantize_is_coremltools_bit_for_bit(dtype, mode, blocks):
    want = linear_quantize_weights.blockwise_compress_by_dtype(W, dtype, mode.upper(), blocks)
    got = compress.quantize(W, dtype, mode, blocks)
    assert got.op == "constexpr_blockwise_shift_scale" and got.dtypes["data"] == dtype
    np.testing.assert_array_equal(got.parts["data"].astype(np.int64), np.asarray(want.data).astype(np.int64))
    np.testing.assert_array_equal(got.parts["scale"], np.asarray(want.scale, np.float16).reshape(got.parts["scale"].shape))
    if want.offset is None:
        assert "offset" not in got.parts
    else:
        np.testing.assert_array_equal(got.parts["offset"].astype(np.int64),
                                      np.asarray(want.offset).astype(np.int64).reshape(got.parts["offset"].shape))
    np.testing.assert_array_equal(got.dense, linear_quantize_weights.decompress(want).astype(np.float16))


def test_prune_is_coremltools_bit_for_bit():
    want = ct_utils.ios16_sparse_params_to_ios18(prune_weights.compress_by_magnitude(W, 0.6))
    got = compress.prune(W, 0.6)
    np.testing.assert_array_equal(got.parts["mask"], want.mask.astype(np.uint8))
    np.testing.assert_array_equal(got.parts["nonzero_data"], want.nonzero_data)
    assert 0.55 < 1 - got.parts["mask"].mean() < 0.65


@pytest.mark.parametrize("nbits,group", [(4, 0), (2, 16), (1, 0), (6, 48)])
def test_palettize_is_a_kmeans_palette_in_coremltools_layout(nbits, group):
    got = compress.palettize(W, nbits, 1, group)
    idx, lut = got.parts["indices"], got.parts["lut"]
    groups = 48 // (group or 48)
    assert idx.shape == W.shape and lut.shape == (1, groups, 2 ** nbits, 1) and got.dtypes["indices"] == f"uint{nbits}"
    # coremltools' own dequantisation of these operands (optimize/_utils.py lut_to_dense, the iOS18 op's decompress)
    np.testing.assert_array_equal(ct_utils.lut_to_dense(idx, lut), got.dense)
    for g in range(groups):  # Lloyd's fixed point: every value at its nearest centroid, every centroid its values' mean
        cols = slice(g * (48 // groups), (g + 1) * (48 // groups))
        vals, ind, pal = W[:, cols].astype(np.float64), idx[:, cols], lut[0, g, :, 0].astype(np.float64)
        used = np.unique(ind)
        for k in used:  # the mean, rounded to the palette's fp16
            assert abs(vals[ind == k].mean() - pal[k]) <= np.spacing(np.float16(pal[k])) + 1e-12
        nearest = np.abs(vals[..., None] - pal[used][None, None, :]).min(axis=-1)
        assert np.all(np.abs(vals - pal[ind]) <= nearest + 2 * np.spacing(np.float16(np.abs(vals).max())))
    err = np.abs(got.dense.astype(np.float64) - W).mean()
    uniform = np.abs(W - np.round(W / (np.ptp(W) / (2 ** nbits - 1))) * (np.ptp(W) / (2 ** nbits - 1))).mean()
    assert err < uniform, (err, uniform)  # better than an evenly spaced palette of the same size
    few = np.repeat(np.float16([-0.5, 0.25, 1.0]), 16).reshape(8, 6)  # fewer values than entries: kept exactly
    np.testing.assert_array_equal(compress.palettize(few, 2, 1).dense, few)


# ---- a YAML graph built with compressed weights ----------------------------------------------------------------------------

GRAPH = """graphs:
  cmp:
    targets: [ane]
    inputs: {x: {shape: [4, 64], dtype: f32}}
    constants:
      w1: {shape: [64, 128], file: w1.npy}
      w2: {shape: [128, 64], file: w2.npy}
      w3: {shape: [64, 64], file: w3.npy}
    nodes:
      h: {op: matmul, inputs: [x, w1]}
      a: {op: relu, inputs: [h]}
      d: {op: matmul, inputs: [a, w2]}
      y: {op: matmul, inputs: [d, w3]}
    outputs: [y]
    compress:
      w1: {kind: quantize, dtype: int4, granularity: per_block, block_size: 32}
      w2: {kind: palettize, nbits: 4, granularity: per_grouped_channel, group_size: 16}
      w3: {kind: prune, target_sparsity: 0.5}
"""
WEIGHTS = {"w1": (64, 128), "w2": (128, 64), "w3": (64, 64)}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    p = new_project(tmp_path_factory.mktemp("cmp") / "proj", graphs=GRAPH, targets=("ref",))
    rng = np.random.default_rng(3)
    for name, shape in WEIGHTS.items():
        np.save(p.root / f"specs/graphs/{name}.npy", (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32))
    p.first = p.doit("build", check=False)
    return p


def _constexprs(pkg):
    """The constexpr ops of a saved package, reloaded by coremltools (load_spec + milproto)."""
    fn = _load(pkg)[1].functions["main"]
    return {op.op_type: op for op in fn.operations if op.op_type.startswith("constexpr_")}


def test_compressed_weights_stay_compressed_in_every_package_and_program(built):
    assert built.first.rc == 0, built.first.out + built.first.err
    assert built.npubuild("verify").rc == 0  # the records' compressed blobs are the programs' BLOBFILEs
    rec = json.loads((built.artifacts / "manifest.json").read_text())["graphs"]["cmp"]
    assert [n["route"] for n in rec["nodes"]] == ["linear", "linear", "linear"]  # the relu fused into the first
    want = {"constexpr_blockwise_shift_scale": ("data", "int4"), "constexpr_lut_to_dense": ("indices", "uint4"),
            "constexpr_sparse_to_dense": ("mask", "uint1")}
    # the graph package (load_spec + milproto): each weight its constexpr op over blobs of the compressed dtype
    graph_ops = _constexprs(built.artifacts / rec["mlpackage"]["path"])
    assert sorted(graph_ops) == sorted(want)
    dense = {}
    for op_type, (param, dtype) in want.items():
        op = graph_ops[op_type]
        assert types.builtin_to_string(op.inputs[param].dtype) == dtype, (op_type, op.inputs[param].dtype)
        dense[op_type] = np.asarray(op.materialized_val_inference())  # coremltools' own iOS18 definition
    blob = next(f for f in rec["mlpackage"]["files"] if f["path"].endswith("weight.bin"))
    assert blob["size"] < sum(k * n for k, n in WEIGHTS.values()) * 2 // 2  # under half of the fp16 weights
    # every node program: model.mil + weights/weight.bin hold the same op over the compressed blobs, and so does
    # its package; the emulation's weight is coremltools' dequantisation of them, bit for bit
    rt = npubuild.load(built.artifacts)
    g = rt.graph("cmp", backend="ane")
    x = np.random.default_rng(4).standard_normal((4, 64)).astype(np.float16)
    y = g.run(x=x)["y"]
    kinds = []
    for node in rec["nodes"]:
        kind = node["packed"]["w"].get("kind", "blockwise")
        kinds.append(kind)
        op_type = {"blockwise": "constexpr_blockwise_shift_scale", "lut": "constexpr_lut_to_dense", "sparse": "constexpr_sparse_to_dense"}[kind]
        param, dtype = want[op_type]
        assert node["blobs"][node["packed"]["w"]["data"]]["dtype"] == dtype
        text = (built.artifacts / node["mil"]["path"]).read_text()
        assert f"{op_type}(" in text and f"tensor<{dtype}, " in text
        op = _constexprs(built.artifacts / node["mlpackage"]["path"])[op_type]
        assert types.builtin_to_string(op.inputs[param].dtype) == dtype
        node_dense = np.asarray(op.materialized_val_inference())
        # the program's weight is [n, k] (the matmul's [k, n] transposed): the graph package's, transposed
        np.testing.assert_array_equal(node_dense, dense[op_type].T)
        # what the emulator computes with: the program's weight.bin blobs read back and dequantised (the runtime's
        # load_weights), bit for bit coremltools' dequantisation
        data = (built.artifacts / node["weights"]["path"]).read_bytes()
        weights, packed = load_weights(node, lambda off, dt, shape: blob_from_bytes(data, "weight.bin", off, dt, shape))
        assert packed["w"].kind == kind
        np.testing.assert_array_equal(weights["w"], node_dense.astype(np.float16))
    assert kinds == ["blockwise", "lut", "sparse"]
    # the graph computed from those weights (NumPy, float64, from coremltools' dequantised values)
    w1, w2, w3 = (dense[k].astype(np.float64) for k in want)
    ref = np.maximum(x.astype(np.float64) @ w1, 0) @ w2 @ w3
    # three fp16 programs: inputs and every intermediate rounded to fp16 (2^-11 relative) over sums of 64-128
    # terms; |y| ~ 1: within 1e-2 absolute and relative (a wrong palette, scale or mask is off by O(0.1))
    np.testing.assert_allclose(y.astype(np.float64), ref, rtol=1e-2, atol=1e-2)
    loaded = {n: np.load(built.root / f"specs/graphs/{n}.npy").astype(np.float16).astype(np.float64) for n in WEIGHTS}
    uncompressed = np.maximum(x.astype(np.float64) @ loaded["w1"], 0) @ loaded["w2"] @ loaded["w3"]
    assert np.abs(ref - uncompressed).max() > 0.05  # the compression changes the answer: the test sees which weights ran
    rt.close()


@pytest.mark.parametrize("entry,line,message", [
    ("w1: {kind: squash}", 17, "kind 'squash'; it is one of quantize, palettize, prune"),
    ("w1: {kind: palettize, nbits: 5}", 17, "nbits is 5; palettization takes 1, 2, 3, 4, 6, 8 bits"),
    ("w1: {kind: quantize, granularity: per_block, block_size: 48}", 17, "block_size 48 does not divide the 64 input channels"),
    ("w1: {kind: quantize, dtype: int3}", 17, "dtype is 'int3', none of int8, uint8, int4, uint4"),
    ("w1: {kind: prune, target_sparsity: 1.5}", 17, "target_sparsity is 1.5, not a number from 0 to 1"),
    ("w1: {kind: prune}", 17, "prune needs 'target_sparsity'"),
    ("w1: {kind: prune, target_sparsity: 0.5, bits: 4}", 17, "unknown key 'bits'"),
    ("x: {kind: prune, target_sparsity: 0.5}", 17, "compress names 'x', which is not one of its constants"),
    ("w4: {kind: prune, target_sparsity: 0.5}", 17, "compress 'w4': node a reads it as another operand"),
])
def test_bad_compress_options_are_one_message_at_their_line(tmp_path, entry, line, message):
    text = GRAPH.replace("      w3: {shape: [64, 64], file: w3.npy}\n", "      w3: {shape: [64, 64], file: w3.npy}\n"
                         "      w4: {shape: [4, 128], file: w4.npy}\n").replace(
        "      a: {op: relu, inputs: [h]}", "      a: {op: add, inputs: [h, w4]}")
    text = text[:text.index("    compress:\n")] + f"    compress:\n      {entry}\n"
    p = new_project(tmp_path / "proj", graphs=text, targets=("ref",))
    for name, shape in {**WEIGHTS, "w4": (4, 128)}.items():
        np.save(p.root / f"specs/graphs/{name}.npy", np.full(shape, 0.5, np.float32))
    r = p.doit("build", check=False)
    out = r.out + r.err
    assert r.rc != 0 and f"specs/graphs/g.yaml:{line}:" in out and message in out, out
    assert "Traceback" not in out and not (p.artifacts / "ane").exists()


def test_compress_on_a_graph_not_for_ane_is_refused(tmp_path):
    text = GRAPH.replace("targets: [ane]", "targets: [ref]")
    p = new_project(tmp_path / "proj", graphs=text, targets=("ref",))
    for name, shape in WEIGHTS.items():
        np.save(p.root / f"specs/graphs/{name}.npy", np.full(shape, 0.5, np.float32))
    r = p.doit("build", check=False)
    assert r.rc != 0 and "specs/graphs/g.yaml:15: graph 'cmp': 'compress' and 'layout' are options of an ane graph" in r.out + r.err


def test_a_quantized_block_of_zeros_is_refused_at_its_entry(tmp_path):
    """An all-zero block has scale 0 (coremltools' quantization would write NaN): the graph's task fails at the
    compress entry's line, naming the fix; the other graphs still build."""
    text = GRAPH.replace("      w1: {kind: quantize, dtype: int4, granularity: per_block, block_size: 32}",
                         "      w1: {kind: quantize, granularity: per_tensor}")
    p = new_project(tmp_path / "proj", graphs=text, targets=("ref",))
    for name, shape in WEIGHTS.items():
        np.save(p.root / f"specs/graphs/{name}.npy", np.zeros(shape, np.float32) if name == "w1" else np.full(shape, 0.5, np.float32))
    r = p.doit("build", check=False)
    out = r.out + r.err
    assert r.rc != 0 and "specs/graphs/g.yaml:16: graph 'cmp': compress 'w1': a tensor of its values is all zeros" in out, out
    assert "Traceback" not in out
