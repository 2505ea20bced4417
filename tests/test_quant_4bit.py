"""int4 / uint4 codes (ONNX QuantizeLinear / DequantizeLinear, opset 21) through a
built graph: quantize to i4, dequantize back, on ref and host; example inputs of a
4-bit dtype. Per-op oracle cases: test_oracles.py; host kernels: test_host_nn_quant.py."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import npubuild
from npubuild.runner.examples import example_array

from .conftest import new_project

GRAPH = """\
graphs:
  int4_round_trip:
    inputs:
      x: {shape: [4, 32], dtype: f32}
    nodes:
      q: {op: quantize, inputs: [x], dtype: i4, attrs: {scales: [0.25], zero_points: [-1]}}
      y: {op: dequantize, inputs: [q], dtype: i4, attrs: {scales: [0.25], zero_points: [-1]}}
    outputs: [q, y]
"""


@pytest.mark.slow
def test_int4_round_trip_builds_and_runs_on_ref_and_host(tmp_path):
    p = new_project(tmp_path / "proj", graphs=GRAPH)
    r = p.doit("build")
    assert r.rc == 0, r.out + r.err
    x = np.linspace(-3.0, 3.0, 128, dtype=np.float32).reshape(4, 32)
    codes = np.clip(np.rint(x / np.float32(0.25)) - 1, -8, 7)  # ONNX: round half to even, + zero point, saturate
    rt = npubuild.load(p.artifacts)
    for backend in ("ref", "host"):
        out = rt.graph("int4_round_trip", backend=backend).run(x=x)
        assert out["q"].dtype == np.dtype(ml_dtypes.int4)
        np.testing.assert_array_equal(out["q"].astype(np.int8), codes.astype(np.int8))
        np.testing.assert_array_equal(out["y"], ((codes + 1) * 0.25).astype(np.float32))


def test_example_inputs_of_4bit_dtypes_are_codes_in_range():
    rng = np.random.default_rng(0)
    for dtype, lo, hi in (("i4", -8, 7), ("u4", 0, 15)):
        a = example_array({"shape": [64], "dtype": dtype}, rng)
        assert a.dtype.name == {"i4": "int4", "u4": "uint4"}[dtype]
        v = a.astype(np.int8)
        assert v.min() >= lo and v.max() <= hi and len(set(v.tolist())) > 1
