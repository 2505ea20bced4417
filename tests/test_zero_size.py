"""Zero-size tensors (a dimension of 0, as ONNX allows): accepted in specs, instances and manifests; a
kernel whose output has no element is compiled for no target and gives the empty output on every
backend; an empty input with a non-empty output is an ordinary kernel (its loops run zero times), whose
value is the op's on nothing (a sum of nothing is +0.0, a max of nothing is refused at spec time); xdna
refuses an empty input that would have to be streamed.
"""
from __future__ import annotations

import numpy as np
import pytest

from npubuild import ops, targets
from npubuild.core.errors import OpError
from npubuild.ops.registry import normalize_attrs
from npubuild.specfile.instances import make_instance
from npubuild.targets.xdna import rules

from .hostkit import compile_kernels
from .test_host_select_movement import assert_same


def test_instances_take_a_zero_dimension_and_say_they_are_empty():
    relu = make_instance("relu", "f32", [(0, 4)], None)
    assert relu.output.shape == (0, 4) and relu.empty
    cat = make_instance("concat", "f32", [(0, 4), (3, 4)], {"axis": 0})
    assert cat.output.shape == (3, 4) and not cat.empty
    with pytest.raises(OpError, match="negative dimension"):
        make_instance("relu", "f32", [(-1, 4)], None)


@pytest.mark.parametrize("op, shapes, attrs", [
    ("resize", [(4, 4)], {"sizes": [100000, 100000]}),  # its emit-time tables would be built from this
    ("tile", [(1000, 1000)], {"reps": [1000, 1000]}),
])
def test_an_output_over_the_element_limit_is_refused(op, shapes, attrs):
    with pytest.raises(OpError, match=r"has \d+ elements; a tensor may have at most 2\*\*31 - 1"):
        make_instance(op, "f32", shapes, attrs)


@pytest.mark.parametrize("op, shape, attrs, what", [
    ("reduce_max", (3, 0), {}, "the max of nothing is undefined"),
    ("reduce_min", (0, 2), {"axes": [0]}, "the min of nothing"),
    ("argmax", (2, 0), {}, "the max of nothing"),
    ("argmin", (0, 5), {"axis": 0}, "the min of nothing"),
])
def test_a_search_over_nothing_is_refused(op, shape, attrs, what):
    with pytest.raises(OpError, match=what):
        make_instance(op, "f32", [shape], attrs)
    # an output without elements has nothing to search for: fine
    assert make_instance(op, "f32", [(0,) + shape], {**attrs, **({"axes": [-1]} if op.startswith("reduce") else {})})


# (op, dtype, shapes, attrs): an empty input, a non-empty output, compiled like any other kernel
NOTHING = [
    ("reduce_sum", "f32", [(3, 0)], {}),
    ("reduce_sum", "f32", [(0, 2)], {"axes": [0]}),
    ("reduce_mean", "f32", [(3, 0)], {}),
    ("reduce_prod", "i32", [(3, 0)], {}),
    ("concat", "f32", [(0, 4), (3, 4)], {"axis": 0}),
    ("einsum", "f32", [(2, 0), (0, 3)], {"equation": "ij,jk->ik"}),
    ("scatter_elements", "f32", [(3, 4), (0, 4), (0, 4)], {"reduction": "add"}),
]


@pytest.fixture(scope="module")
def compiled():
    return compile_kernels([make_instance(*c) for c in NOTHING])


@pytest.mark.parametrize("case", NOTHING, ids=lambda c: c[0])
def test_ops_on_nothing_match_the_oracle_bit_for_bit(case, compiled):
    inst = make_instance(*case)
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal(t.shape).astype(np.float32) if t.dtype == "f32" else np.ones(t.shape, np.int64
                                                                                                  if t.dtype == "i64"
                                                                                                  else np.int32)
          for t in inst.inputs]
    with np.errstate(invalid="ignore"):  # the mean of nothing: 0 / 0
        want = np.asarray(inst.opdef.evaluate(xs, inst.attrs, inst.dtype))
    assert_same(np.asarray(compiled[inst.key](*xs)), want, inst.id)


def test_the_sum_of_nothing_is_positive_zero(compiled):
    inst = make_instance(*NOTHING[0])
    got = compiled[inst.key](np.zeros((3, 0), np.float32))
    assert got.tobytes() == np.zeros(3, np.float32).tobytes()


def test_xdna_refuses_an_empty_input_it_would_stream_and_takes_an_empty_output():
    xdna = targets.get("xdna")
    cat = ops.REGISTRY["concat"]
    attrs = normalize_attrs(cat, {"axis": 0})
    assert xdna.supports("concat", [(0, 64), (8, 64)], "f32", attrs) == rules.EMPTY_INPUT_TEXT
    assert xdna.supports("relu", [(0, 64)], "f32", None) is None  # nothing to compute: built for no target
    assert all(r.text != rules.EMPTY_INPUT_TEXT or r.check([(4, 4)], {}, "f32")
               for r in xdna.restrictions("relu"))


GRAPH = """\
graphs:
  g:
    inputs: {x: {shape: [0, 4]}, y: {shape: [3, 4]}}
    nodes:
      a: {op: relu, inputs: [x]}
      b: {op: concat, inputs: [a, y], attrs: {axis: 0}}
      c: {op: reduce_sum, inputs: [a], attrs: {axes: [0]}}
    outputs: [a, b, c]
"""


def test_a_graph_with_an_empty_tensor_builds_and_runs_on_ref_and_host(project):
    p = project(graphs=GRAPH)
    r = p.npubuild("build")
    assert r.summary["kernels"] == 3 and r.summary["compiled"] == 2  # the empty relu: nothing to compile
    assert not r.executed("compile:relu")
    from npubuild.runner import runtime

    rt = runtime.load(p.artifacts)
    relu_id = next(k for k in rt.manifest["kernels"] if k.startswith("relu"))
    assert rt.manifest["kernels"][relu_id]["targets"]["host"] == {}
    y = np.arange(12, dtype=np.float32).reshape(3, 4)
    for backend in ("ref", "host"):
        g = rt.graph("g", backend)
        g.set_params()
        out = g.run(x=np.zeros((0, 4), np.float32), y=y)
        assert out["a"].shape == (0, 4) and out["a"].dtype == np.float32
        np.testing.assert_array_equal(out["b"], y)
        assert out["c"].tobytes() == np.zeros(4, np.float32).tobytes(), backend
    rt.close()


def test_an_empty_kernel_wanted_on_xdna_is_checked_and_built_for_nothing(project):
    from npubuild.emitters import aie

    assert aie.check_instance(make_instance("relu", "f32", [(0, 64)], None), {"device": "npu1"}) is None
    p = project(kernels="kernels:\n  e:\n    op: relu\n    shapes:\n      - [0, 64]\n", targets=("ref", "xdna"))
    r = p.npubuild("build")
    assert r.summary["kernels"] == 1 and r.summary["compiled"] == 0
    from npubuild.runner import runtime

    rt = runtime.load(p.artifacts)
    assert rt.manifest["kernels"]["relu_f32_0x64"]["targets"] == {"ref": {}, "xdna": {}}
    rt.close()
