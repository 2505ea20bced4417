"""A graph's call plan (npubuild.runner.call_plan): after the first checked run, host runs go through
precomputed buffers and pointers, give the same results, never write an array the caller kept, and
still answer every bad input with the checked path's message."""
from __future__ import annotations

import numpy as np
import pytest

import npubuild
from npubuild.core.errors import UserError

from .conftest import new_project

GRAPHS = """\
graphs:
  chain:
    inputs:
      x: {shape: [4, 16], dtype: f32}
    params:
      w: {shape: [16], dtype: f32}
    nodes:
      a: {op: mul, inputs: [x, w]}
      b: {op: abs, inputs: [a]}
      c: {op: neg, inputs: [b]}
      y: {op: max, inputs: [c, x]}
    outputs: [y, a]
  gemm_relu:
    inputs:
      x: {shape: [3, 64], dtype: f32}
    params:
      w: {shape: [64, 32], dtype: f32}
    nodes:
      h: {op: matmul, inputs: [x, w], dtype: i8}
      s: {op: neg, inputs: [h]}
      y: {op: relu, inputs: [s]}
    outputs: [y]
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    p = new_project(tmp_path_factory.mktemp("plan") / "proj", graphs=GRAPHS)
    p.doit("build")
    return p


def _x(seed: int, shape=(4, 16)):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


W = _x(99, (16,))


def _want(x, w=W):
    a = x * w
    return {"y": np.maximum(-np.abs(a), x), "a": a}


def _chain(built, **kw):
    g = npubuild.load(built.artifacts, **kw).graph("chain", backend="host")
    g.set_params(w=W)
    return g


def _equal(out, want):
    assert set(out) == set(want)
    for k in want:
        np.testing.assert_array_equal(out[k], want[k])


def test_runs_after_the_first_go_through_the_plan_and_give_the_same_results(built):
    g = _chain(built)
    _equal(g.run(x=_x(0)), _want(_x(0)))
    assert g._plan is not None
    for seed in range(1, 4):
        _equal(g.run(x=_x(seed)), _want(_x(seed)))
        assert g.last_stats["kernel_calls"] == 4 and g.last_stats["backend"] == "host"
    w2 = _x(7, (16,))
    g.set_params(w=w2)  # new params: new pointers
    _equal(g.run(x=_x(5)), _want(_x(5), w2))
    _equal(g.run(x=_x(6)), _want(_x(6), w2))


def test_an_output_the_caller_keeps_is_never_written_again(built):
    g = _chain(built)
    kept = g.run(x=_x(0))
    y_only = g.run(x=_x(1))["y"]  # the dict is dropped, the array kept
    later = g.run(x=_x(2))
    _equal(kept, _want(_x(0)))
    np.testing.assert_array_equal(y_only, _want(_x(1))["y"])
    _equal(later, _want(_x(2)))
    view = later["a"][1:]  # a view keeps its base
    del later
    g.run(x=_x(3))
    np.testing.assert_array_equal(view, _want(_x(2))["a"][1:])
    for arrays in (kept, {"y": y_only}):
        for a in arrays.values():
            assert not np.shares_memory(a, view)


def test_an_output_the_caller_dropped_is_reused(built):
    g = _chain(built)
    g.run(x=_x(0))
    y = g.run(x=_x(1))["y"]
    where = y.ctypes.data
    del y
    y = g.run(x=_x(2))["y"]
    assert y.ctypes.data == where
    np.testing.assert_array_equal(y, _want(_x(2))["y"])


BAD = [
    (lambda g, x: g.run(), "missing inputs: x"),
    (lambda g, x: g.run(x=x, z=x), r"unknown inputs: z \(declared: x\)"),
    (lambda g, x: g.run(x=x.T), r"input 'x' must have shape \[4, 16\], got \[16, 4\]"),
    (lambda g, x: g.run(x=x.astype(np.float64)), r"input 'x' must be float32 \(f32\), got float64"),
    (lambda g, x: g.run(x=x[:, :8]), r"input 'x' must have shape \[4, 16\], got \[4, 8\]"),
    (lambda g, x: g.run(x="x"), "input 'x' must be a NumPy array, got str"),
    (lambda g, x: g.run(x=[[1.0, 2.0], [3.0]]), "input 'x' is not a rectangular array"),
]


@pytest.mark.parametrize("call, message", BAD, ids=[m.split("'")[0][:30] + str(i) for i, (_, m) in enumerate(BAD)])
def test_bad_inputs_after_the_plan_exists_get_the_checked_message(built, call, message):
    g = _chain(built)
    g.run(x=_x(0))
    assert g._plan is not None
    with pytest.raises(UserError, match=message):
        call(g, _x(1))
    _equal(g.run(x=_x(2)), _want(_x(2)))  # and the plan still runs


def test_inputs_the_plan_cannot_take_as_they_are_still_give_the_right_results(built):
    g = _chain(built)
    g.run(x=_x(0))
    x = _x(1)
    fortran = np.asfortranarray(x)
    readonly = x.copy()
    readonly.flags.writeable = False
    strided = np.repeat(x, 2, axis=1)[:, ::2]
    for given in (fortran, readonly, strided):
        _equal(g.run(x=given), _want(x))
    assert g._plan is not None


def test_a_closed_or_evicted_kernel_drops_the_plan(built):
    g = _chain(built)
    g.run(x=_x(0))
    g.rt.kernels.close()  # the libraries are unloaded: the plan's addresses are gone
    _equal(g.run(x=_x(1)), _want(_x(1)))
    _equal(g.run(x=_x(2)), _want(_x(2)))
    small = _chain(built, max_open=2)  # 4 kernels through 2 slots: every run reopens, no plan
    for seed in range(3):
        _equal(small.run(x=_x(seed)), _want(_x(seed)))
    assert small._plan is None


def test_a_plan_with_the_int8_gemm_between_direct_steps_matches_ref(built):
    rt = npubuild.load(built.artifacts)
    w = _x(5, (64, 32))
    runs = {}
    for backend in ("host", "ref"):
        g = rt.graph("gemm_relu", backend=backend)
        g.set_params(w=np.asfortranarray(w))  # kept in C order: the plan hands the GEMM the array it bound
        runs[backend] = [g.run(x=_x(seed, (3, 64)))["y"] for seed in range(3)]
        assert g.last_stats["gemm_tiles"] > 0
        assert g._plan.tensors["w"] is g._params["w"]
    for host, ref in zip(runs["host"], runs["ref"]):
        np.testing.assert_array_equal(host, ref)
