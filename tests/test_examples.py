"""The repository's own specs: they build, every kernel gets a host binary, and
each example graph gives the same answer on host as on ref."""
from __future__ import annotations

import re

import shutil

import numpy as np
import pytest

import npubuild
from npubuild.ops.registry import NUMPY_DTYPE

from .conftest import REPO, new_project


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    p = new_project(tmp_path_factory.mktemp("examples") / "proj")
    shutil.copytree(REPO / "specs", p.root / "specs")
    r = p.doit("build")
    # every kernel of the examples has a host binary; each ane graph is one compile too
    assert r.summary["compiled"] == r.summary["kernels"] + r.summary.get("graphs", 0)
    p.build_output = r.out
    return p


def test_every_xdna_instance_has_its_design(built):
    """Without a toolchain (here) each xdna kernel still gets its aie.mlir, and one line says why no binary."""
    m = npubuild.load(built.artifacts).manifest
    xdna = {kid: k["targets"]["xdna"] for kid, k in m["kernels"].items() if "xdna" in k["targets"]}
    assert len(xdna) >= 10
    for kid, t in xdna.items():
        text = (built.artifacts / t["files"]["source"]["path"]).read_text()
        assert "aie.runtime_sequence(" in text and "aie.device(npu1" in text, kid
        # a core calls the generated body, or a linked kernel the abi names (mm.cc, an mlir-aie kernel) and the
        # generated prologue it names before such a kernel
        body = t["abi"].get("body") or {}
        linked = t["abi"].get("microkernel", {}).get("symbols") or ([body["symbol"]] if body.get("symbol") else [])
        prologue = [body["prologue"]["function"]] if body.get("prologue") else []
        calls = set(re.findall(r"func\.call @(\w+)\(", text))
        assert calls <= {"body", *linked, *prologue} and (calls or "func.func @body(" not in text), (kid, calls)
        assert all(f"func.func @{p}(" in text for p in prologue), kid
    notes = [ln for ln in built.build_output.splitlines() if ln.startswith("xdna:")]
    assert len(notes) == 1 and notes[0].startswith(f"xdna: {len(xdna)} kernels emitted, not compiled"), notes


def _random(sig, rng):
    return (rng.standard_normal(sig["shape"]) * 0.5).astype(NUMPY_DTYPE[sig["dtype"]])


# elementwise_chain is exact arithmetic on both backends. mlp_block's int8 GEMM
# is bit-exact, but tanh-GELU and RMS norm run in f32 on host where the oracle
# uses float64: a few f32 roundings of difference (docs/kernels.md gives the
# per-op bounds), far below 1e-5 of values of order 1.
TOLERANCE = {"elementwise_chain": 0.0, "mlp_block": 1e-5}


@pytest.mark.parametrize("graph", sorted(TOLERANCE))
def test_example_graph_host_matches_ref(built, graph):
    rt = npubuild.load(built.artifacts)
    assert sorted(rt.graph_names()) == sorted([*TOLERANCE, "swiglu", "kv_decode", "train_mlp"])
    rec = rt.manifest["graphs"][graph]
    rng = np.random.default_rng(3)
    inputs = {n: _random(s, rng) for n, s in rec["inputs"].items()}
    params = {n: _random(s, rng) for n, s in rec["params"].items()}
    outs = {}
    for backend in ("ref", "host"):
        g = rt.graph(graph, backend=backend)
        g.set_params(**params)
        outs[backend] = g.run(**inputs)
    for name in rec["outputs"]:
        np.testing.assert_allclose(outs["host"][name], outs["ref"][name], rtol=TOLERANCE[graph], atol=TOLERANCE[graph])


def test_mlp_block_matmul_accumulators_are_identical_on_ref_and_host(built):
    """The int8 GEMM runs the same blocked algorithm on both backends: equal int32 accumulators."""
    rt = npubuild.load(built.artifacts)
    rec = rt.manifest["graphs"]["mlp_block"]
    rng = np.random.default_rng(11)
    inputs = {n: _random(s, rng) for n, s in rec["inputs"].items()}
    params = {n: _random(s, rng) for n, s in rec["params"].items()}
    (mm,) = [s["kernel"] for s in rec["steps"] if s["kernel"].startswith("matmul_i8")]
    acc = {}
    for backend in ("ref", "host"):
        g = rt.graph("mlp_block", backend=backend)
        g.set_params(**params)
        g.run(**inputs)
        acc[backend] = rt.kernels.get(mm, backend).last_accumulator.copy()
        assert g.last_stats["gemm_tiles"] > 0 and g.last_stats["host_to_device_bytes"] == 0
    assert acc["ref"].dtype == np.int32
    np.testing.assert_array_equal(acc["ref"], acc["host"])


def test_example_mil_graph_runs_on_ane(built):
    """specs/graphs/swiglu.mil: per-node artifacts in the manifest, run by the ane backend;
    compared with a float32 NumPy evaluation of the same block (the reference design's
    tolerance for fp16 programs: 0.03 + 5%)."""
    from npubuild.ane.mil import parse_mil

    rt = npubuild.load(built.artifacts)
    g = rt.graph("swiglu")
    assert g.backend == "ane"
    x = (np.arange(64) / 64 - 0.5).astype(np.float16).reshape(1, 64, 1, 1)
    y = g.run(x=x)["y"].astype(np.float32).reshape(-1)
    src = REPO / "specs" / "graphs" / "swiglu.mil"
    c = parse_mil(src.read_text(), file=str(src), base_dir=src.parent).main.consts
    xv = x.astype(np.float32).reshape(-1)
    xn = xv / np.sqrt((xv * xv).mean() + 1e-5) * c["gam"].astype(np.float32)
    u = c["Wu"].astype(np.float32) @ xn
    gg = c["Wg"].astype(np.float32) @ xn
    want = xv + c["Wd"].astype(np.float32) @ (u * gg / (1 + np.exp(-gg)))
    assert np.all(np.abs(y - want) < 0.03 + 0.05 * np.abs(want)), np.abs(y - want).max()


def _package_states(built, graph: str) -> dict:
    """The states of ``graph``'s package as coremltools' load_spec reads them: name -> (shape, dtype name)."""
    from coremltools.proto.FeatureTypes_pb2 import ArrayFeatureType

    from npubuild.ane.coreml import coremltools, quiet

    rec = npubuild.load(built.artifacts).manifest["graphs"][graph]
    with quiet():
        spec = coremltools()[0].utils.load_spec(str(built.artifacts / rec["mlpackage"]["path"]))
    return {s.name: (list(s.type.stateType.arrayType.shape), ArrayFeatureType.ArrayDataType.Name(s.type.stateType.arrayType.dataType))
            for s in spec.description.state}


def test_example_kv_cache_carries_its_states_and_fills_them(built):
    """specs/graphs/kv_decode.yaml: the seed's in-place accumulate as a KV cache; its package declares both caches as
    states, each run fills one row of each, and reset_state empties them."""
    assert _package_states(built, "kv_decode") == {"k_cache": ([8, 64], "FLOAT16"), "v_cache": ([8, 64], "FLOAT16")}
    rt = npubuild.load(built.artifacts)
    g = rt.graph("kv_decode")
    assert g.backend == "ane"
    rng = np.random.default_rng(5)
    ks = []
    for pos in range(3):
        slot = np.zeros((8, 1), np.float32)
        slot[pos] = 1
        mask = np.where(np.arange(8) <= pos, 0, -30000).astype(np.float32).reshape(1, 8)
        ks.append(rng.uniform(-1, 1, (1, 64)).astype(np.float16))
        g.run(q=ks[-1], k=ks[-1], v=ks[-1], slot=slot, mask=mask)
    np.testing.assert_array_equal(g.read_state("k_cache")[:3], np.concatenate(ks))
    assert not g.read_state("k_cache")[3:].any()
    g.reset_state()
    assert not g.read_state("k_cache").any() and not g.read_state("v_cache").any()


def test_example_training_keeps_its_weights_as_states_and_learns(built):
    """specs/graphs/train_mlp.mil: the seed's training scenario, its weights iOS18 states updated in place; its
    package declares them, and 16 runs through the runtime cut the loss by more than 95 % (the seed's criterion)."""
    from .test_ane import train_init

    assert _package_states(built, "train_mlp") == {"W1_state": ([1, 64, 1, 64], "FLOAT16"), "W2_state": ([1, 64, 1, 64], "FLOAT16")}
    xv, tv, w1, w2 = train_init()
    g = npubuild.load(built.artifacts).graph("train_mlp")
    g.write_ext("W1_state", w1.reshape(1, 64, 1, 64))
    g.write_ext("W2_state", w2.reshape(1, 64, 1, 64))
    feed = {"x": xv.reshape(1, 1, 1, 64), "target": tv.reshape(1, 64, 1, 1),
            "neg_lr": np.full((1, 64, 1, 1), -0.15, np.float16), "one": np.ones((1, 64, 1, 1), np.float16)}
    losses = [float(((g.run(**feed)["y"].astype(np.float32).reshape(-1) - tv) ** 2).mean()) for _ in range(16)]
    assert losses[-1] < losses[0] * 0.05, losses
