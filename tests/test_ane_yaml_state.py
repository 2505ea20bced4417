"""A YAML graph's ``state:`` (issue 29, item 1): a KV-cache decode step written in a project of its own, built with
``doit build``, whose package declares its states (coremltools' ``load_spec``), run 8 times through the public
runtime against a NumPy reference written from attention's definition, and ``reset_state`` zeroing the caches;
hostile ``state:`` entries are one message each at their file:line."""
from __future__ import annotations

import json

import numpy as np
import pytest

import npubuild

T, D = 8, 64
MASKED = -30000.0  # a position not yet written: exp(-30000 + s) is 0 in float32 and fp16 alike

# one decode step of single-head attention over an 8-position KV cache held as two iOS18 states: the step writes
# k and v into the row `slot` (a one-hot column) picks, by adding the outer product slot ⊗ k to the zero row (the
# in-place add the ANE plan writes a state with), then attends with q over the positions `mask` leaves open
KV_DECODE = f"""
graphs:
  kv_decode:
    targets: [ane]
    inputs:
      q: {{shape: [1, {D}], dtype: f32}}
      k: {{shape: [1, {D}], dtype: f32}}
      v: {{shape: [1, {D}], dtype: f32}}
      slot: {{shape: [{T}, 1], dtype: f32}}
      mask: {{shape: [1, {T}], dtype: f32}}
    state:
      k_cache: {{shape: [{T}, {D}], update: k_all}}
      v_cache: {{shape: [{T}, {D}], update: v_all}}
    constants:
      scale: {{value: [0.125], dtype: f32}}
    nodes:
      k_row: {{op: matmul, inputs: [slot, k]}}
      k_all: {{op: add, inputs: [k_cache, k_row]}}
      v_row: {{op: matmul, inputs: [slot, v]}}
      v_all: {{op: add, inputs: [v_row, v_cache]}}
      k_t: {{op: transpose, inputs: [k_all]}}
      s: {{op: matmul, inputs: [q, k_t]}}
      s_scaled: {{op: mul, inputs: [s, scale]}}
      s_masked: {{op: add, inputs: [s_scaled, mask]}}
      p: {{op: softmax, inputs: [s_masked], attrs: {{axis: -1}}}}
      o: {{op: matmul, inputs: [p, v_all]}}
    outputs: [o, k_all]
"""


def step_inputs(rng, pos: int) -> dict:
    q, k, v = (rng.uniform(-1, 1, (1, D)).astype(np.float16) for _ in range(3))
    slot = np.zeros((T, 1), np.float16)
    slot[pos] = 1
    mask = np.full((1, T), MASKED, np.float16)
    mask[0, : pos + 1] = 0
    return {"q": q, "k": k, "v": v, "slot": slot, "mask": mask}


def reference_step(cache_k, cache_v, x, pos: int):
    """Attention's definition in float64: write k, v at ``pos``; softmax(q·Kᵀ/8) over positions 0..pos; times V."""
    cache_k[pos], cache_v[pos] = x["k"][0], x["v"][0]
    s = (x["q"].astype(np.float64) @ cache_k[: pos + 1].T)[0] * 0.125
    p = np.exp(s - s.max())
    p /= p.sum()
    return p @ cache_v[: pos + 1]


def test_kv_cache_decode_runs_8_steps_against_numpy_and_resets(project):
    from npubuild.ane.coreml import coremltools, quiet

    p = project(graphs=KV_DECODE)
    p.doit("build")
    g = json.loads((p.artifacts / "manifest.json").read_text())["graphs"]["kv_decode"]
    assert g["states"] == {n: {"shape": [T, D], "dtype": "fp16"} for n in ("k_cache", "v_cache")}
    assert sorted(g["inputs"]) == ["k", "mask", "q", "slot", "v"]
    assert [n["route"] for n in g["nodes"] if n.get("alias")] == ["add4d", "add4d"]  # both caches updated in place

    # the package declares both states (description.state), not as inputs, as coremltools' StateTensorSpec makes them
    ct = coremltools()[0]
    with quiet():
        spec = ct.utils.load_spec(str(p.artifacts / g["mlpackage"]["path"]))
    states = {s.name: (list(s.type.stateType.arrayType.shape), s.type.stateType.arrayType.dataType) for s in spec.description.state}
    fp16 = ct.proto.FeatureTypes_pb2.ArrayFeatureType.FLOAT16
    assert states == {"k_cache": ([T, D], fp16), "v_cache": ([T, D], fp16)}
    assert sorted(f.name for f in spec.description.input) == ["k", "mask", "q", "slot", "v"]
    ops = [op.type for op in next(iter(spec.mlProgram.functions["main"].block_specializations.values())).operations]
    assert ops.count("read_state") >= 2 and ops.count("write_state") == 2, ops

    rt = npubuild.load(p.artifacts)
    try:
        runner = rt.graph("kv_decode", backend="ane")
        rng = np.random.default_rng(29)
        cache_k, cache_v = np.zeros((T, D)), np.zeros((T, D))
        first = None
        for pos in range(T):
            x = step_inputs(rng, pos)
            got = runner.run(**x)
            want = reference_step(cache_k, cache_v, x, pos)
            # fp16 inputs; every intermediate (scores, probabilities, the weighted sum of 8 rows in [-1, 1]) is
            # rounded to fp16 once (unit roundoff 4.9e-4): within 2e-3 of float64 (measured: 4.6e-4 at most); a
            # cache row lost, misplaced or not carried to the next step is off by O(0.1)
            np.testing.assert_allclose(got["o"].astype(np.float64), want[None, :], atol=2e-3, err_msg=f"step {pos}")
            np.testing.assert_array_equal(got["k_all"], cache_k.astype(np.float16))  # the state out: exact (adds to 0)
            np.testing.assert_array_equal(runner.read_state("v_cache"), cache_v.astype(np.float16))
            first = got["o"].copy() if first is None else first
        assert np.count_nonzero(runner.read_state("k_cache").any(axis=1)) == T
        runner.reset_state()
        for name in ("k_cache", "v_cache"):
            np.testing.assert_array_equal(runner.read_state(name), np.zeros((T, D), np.float16))
        again = runner.run(**step_inputs(np.random.default_rng(29), 0))["o"]
        np.testing.assert_array_equal(again, first)  # from zeros, the first step's answer again
    finally:
        rt.close()


@pytest.mark.parametrize("state, line, why", [
    ("k_cache: {shape: [8, 64], dtype: i32, update: k_all}", 12,
     "dtype 'i32': Core ML holds a state in fp16 only"),
    ("k_cache: {shape: [8, 64], update: nothing}", 12,
     "update 'nothing' is not a node of the graph"),
    ("k_cache: {shape: [8, 64], update: s}", 12,
     "update 's' is matmul(q, k_t) -> [1, 8]: the ANE writes a state only in place, as add(k_cache, x)"),
    ("k_cache: {shape: [8, 64], update: [k_all]}", 12, "update must name the node"),
    ("k_cache: {shape: [8, 0]}", 12, "must be a list of positive integers"),
    ("k_cache: {shape: [8, 64], updates: k_all}", 12, "unknown key 'updates'"),
    ("k_cache: {shape: [8, 64], update: k_all}\n      q: {shape: [1, 64]}", 13, "tensor 'q' is declared twice (also at line 6)"),
])
def test_bad_state_entries_are_one_message_at_their_line(project, state, line, why):
    text = KV_DECODE.replace("      k_cache: {shape: [8, 64], update: k_all}", "      " + state)
    p = project(graphs=text)
    r = p.doit("build", check=False)
    said = r.out + r.err
    assert r.rc != 0 and said.strip().splitlines() == [next(x for x in said.splitlines() if why in x)], said  # one message
    assert said.startswith(f"specs/graphs/g.yaml:{line}: "), said
    assert not (p.artifacts / "ane").exists()


def test_a_state_with_the_channels_first_layout_is_one_message(project):
    """layout: channels_first rewrites the graph's inputs, outputs and nodes, not a state's buffer: refused at the
    layout line rather than built wrong."""
    text = KV_DECODE.replace("    targets: [ane]\n", "    targets: [ane]\n    layout: channels_first\n", 1)
    p = project(graphs=text)
    r = p.doit("build", check=False)
    said = (r.out + r.err).strip().splitlines()
    assert r.rc != 0 and len(said) == 1 and said[0].startswith("specs/graphs/g.yaml:5: "), said
    assert "layout: channels_first does not combine with state:" in said[0]


def test_state_on_a_graph_without_ane_is_refused(project):
    p = project(graphs="""
graphs:
  g:
    inputs: {x: {shape: [4, 8], dtype: f32}}
    state: {acc: {shape: [4, 8], update: y}}
    nodes:
      y: {op: add, inputs: [acc, x]}
    outputs: [y]
""")
    r = p.doit("build", check=False)
    said = r.out + r.err
    assert r.rc != 0 and "specs/graphs/g.yaml:5: state of graph 'g' is an iOS18 Core ML state, which only an ane graph has" in said, said
