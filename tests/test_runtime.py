"""The runtime: input/param checking, backend choice, lazy LRU kernels, CLI run."""
from __future__ import annotations

import numpy as np
import pytest

import npubuild
from npubuild.core.errors import UserError
from npubuild.runner.runtime import KernelCache

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
  with_ref_only:
    targets: [ref]
    inputs:
      x: {shape: [4, 16], dtype: f32}
    nodes:
      s: {op: softmax, inputs: [x]}
      y: {op: relu, inputs: [s]}
    outputs: [y]
  bf16_chain:
    inputs:
      x: {shape: [4, 16], dtype: bf16}
    params:
      w: {shape: [16], dtype: bf16}
    nodes:
      a: {op: mul, inputs: [x, w]}
      s: {op: softmax, inputs: [a]}
      y: {op: cast, inputs: [s], attrs: {to: f32}}
    outputs: [a, y]
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    p = new_project(tmp_path_factory.mktemp("rt") / "proj", graphs=GRAPHS)
    p.doit("build")
    return p


def _inputs():
    rng = np.random.default_rng(7)
    return rng.standard_normal((4, 16)).astype(np.float32), rng.standard_normal(16).astype(np.float32)


def test_run_matches_numpy_on_host_and_ref(built):
    x, w = _inputs()
    rt = npubuild.load(built.artifacts)
    for backend in ("host", "ref"):
        g = rt.graph("chain", backend=backend)
        g.set_params(w=w)
        out = g.run(x=x)
        assert set(out) == {"y", "a"}
        np.testing.assert_array_equal(out["y"], np.maximum(-np.abs(x * w), x))


def test_auto_falls_back_to_ref_and_says_why(built):
    rt = npubuild.load(built.artifacts)
    g = rt.graph("with_ref_only")
    assert g.backend == "ref"
    assert "softmax_f32_4x16" in g.fallback_reason
    with pytest.raises(UserError, match="cannot run on host: no host binary for .*softmax_f32_4x16"):
        rt.graph("with_ref_only", backend="host")
    x, _ = _inputs()
    y = g.run(x=x)["y"]
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(y, e / e.sum(axis=-1, keepdims=True), rtol=1e-6)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda g, x, w: g.run(x=x), r"call set_params\(w\) before run\(\)"),
        (lambda g, x, w: g.set_params(), "missing params: w"),
        (lambda g, x, w: g.set_params(w=w, v=w), "unknown params: v"),
        (lambda g, x, w: g.set_params(w=w[:8]), r"param 'w' must have shape \[16\], got \[8\]"),
        (lambda g, x, w: g.set_params(w=w.astype(np.float64)), r"param 'w' must be float32 \(f32\), got float64"),
        (lambda g, x, w: (g.set_params(w=w), g.run()), "missing inputs: x"),
        (lambda g, x, w: (g.set_params(w=w), g.run(x=x, z=x)), r"unknown inputs: z \(declared: x\)"),
        (lambda g, x, w: (g.set_params(w=w), g.run(x=x.T)), r"input 'x' must have shape \[4, 16\], got \[16, 4\]"),
        (lambda g, x, w: (g.set_params(w=w), g.run(x=x.astype(np.int32))), "input 'x' must be float32"),
    ],
)
def test_bad_inputs_and_params_are_clear_errors(built, call, message):
    x, w = _inputs()
    g = npubuild.load(built.artifacts).graph("chain", backend="host")
    with pytest.raises(UserError, match=message):
        call(g, x, w)


def test_unknown_graph_and_backend(built):
    rt = npubuild.load(built.artifacts)
    with pytest.raises(UserError, match="no graph 'chian'.*did you mean 'chain'"):
        rt.graph("chian")
    with pytest.raises(UserError, match="unknown backend 'npu'"):
        rt.graph("chain", backend="npu")


def test_kernels_open_lazily_and_at_most_n(built):
    x, w = _inputs()
    rt = npubuild.load(built.artifacts, max_open=2)
    g = rt.graph("chain", backend="host")
    assert rt.kernels.open_ids() == []  # nothing opened before the first run
    g.set_params(w=w)
    g.run(x=x)
    assert len(rt.kernels.open_ids()) == 2
    assert rt.kernels.open_ids() == ["neg_f32_4x16", "max_f32_4x16_4x16"]
    first = rt.kernels.opened
    g.run(x=x)  # a 4-step chain through a 2-slot cache reopens every kernel
    assert rt.kernels.opened == first + 4


def test_lru_evicts_least_recently_used():
    closed = []

    class K:
        def __init__(self, name):
            self.name = name

        def close(self):
            closed.append(self.name)

    cache = KernelCache(lambda kid, backend: K(kid), max_open=2)
    cache.get("a", "host")
    cache.get("b", "host")
    cache.get("a", "host")  # a is now most recent
    cache.get("c", "host")
    assert closed == ["b"]
    assert cache.open_ids() == ["a", "c"]


def test_a_kernel_with_only_the_three_methods_gets_the_protocol_defaults():
    from npubuild.runner.open_context import BareKernel, as_kernel
    from npubuild.runner.ref import RefKernel
    from npubuild.targets.base import KernelBase

    bound = []

    class Plain:
        def __call__(self, x):
            return x + 1

        def bind_param(self, index, array, generation):
            bound.append((index, generation))

        def close(self):
            pass

    k = as_kernel(Plain())
    assert isinstance(k, BareKernel) and k(1) == 2
    assert (k.writes_device_buffer, k.gemm_dispatches, k.bound_generation) == (False, 0, None)
    k.bind_param(1, np.zeros(2), 7)
    assert bound == [(1, 7)] and k.bound_generation == 7
    assert issubclass(RefKernel, KernelBase) and RefKernel.writes_device_buffer is False  # as_kernel leaves it as is


def test_the_runtime_reads_typed_records(built):
    from npubuild.runner.records import GraphRecord, KernelRecord, Step, TensorSpec

    rt = npubuild.load(built.artifacts)
    g = rt.records.graphs["chain"]
    assert isinstance(g, GraphRecord) and g.kind is None and g.outputs == ("y", "a")
    assert g.params["w"] == TensorSpec("w", (16,), "f32")
    assert [s.output for s in g.steps] == ["a", "b", "c", "y"] and isinstance(g.steps[0], Step)
    k = rt.record_of(g.steps[0].kernel)
    assert isinstance(k, KernelRecord) and k.op == "mul" and k.output.shape == (4, 16) and k.built_for("host")
    assert k.open_record() == dict(rt.manifest["kernels"][k.id], id=k.id)  # what Target.open receives
    assert rt.graph("chain", backend="ref").record is rt.manifest["graphs"]["chain"]  # the raw dicts stay


def test_missing_manifest_is_a_clear_error(tmp_path):
    with pytest.raises(UserError, match="manifest.json not found; run `doit build`"):
        npubuild.load(tmp_path)


def test_cli_run_ref_and_host_agree(built, tmp_path):
    x, w = _inputs()
    np.savez(tmp_path / "in.npz", x=x)
    np.savez(tmp_path / "p.npz", w=w)
    outs = {}
    for backend in ("ref", "host"):
        out = tmp_path / f"{backend}.npz"
        r = built.npubuild("run", "chain", "-i", str(tmp_path / "in.npz"), "-p", str(tmp_path / "p.npz"), "-o", str(out), "--backend", backend)
        assert f"backend: {backend}" in r.err
        outs[backend] = np.load(out)["y"]
    assert np.array_equal(outs["ref"], outs["host"])
    r = built.npubuild("run", "chain", "-i", str(tmp_path / "in.npz"), check=False)
    assert r.rc == 1 and "missing params: w" in r.err and "Traceback" not in r.err
    (tmp_path / "empty.npz").write_bytes(b"")
    np.save(tmp_path / "one.npy", x)
    for bad, why in (("empty.npz", "cannot read inputs file"), ("one.npy", "is a single .npy array")):
        r = built.npubuild("run", "chain", "-i", str(tmp_path / bad), "-p", str(tmp_path / "p.npz"), check=False)
        assert r.rc == 1 and why in r.err and "Traceback" not in r.err, r.err


def test_non_finite_attr_defaults_round_trip_through_strict_json():
    import json

    from npubuild.runner.ref import RefKernel
    from npubuild.specfile.instances import make_instance

    inst = make_instance("clamp", "f32", [[4]], {"max": 1.5})
    desc = json.loads(json.dumps(inst.describe(), allow_nan=False))
    assert desc["attrs"] == {"min": "-inf", "max": 1.5}
    y = RefKernel(desc)(np.array([-1e30, 0.0, 2.0, np.inf], np.float32))
    np.testing.assert_array_equal(y, np.array([-1e30, 0.0, 1.5, 1.5], np.float32))


def _bf16_inputs():
    import ml_dtypes

    x, w = _inputs()
    return x.astype(ml_dtypes.bfloat16), w.astype(ml_dtypes.bfloat16)


def test_run_takes_and_gives_bf16_arrays(built):
    """bf16 in, bf16 out: mul is exact (bit-identical on host and ref, and equal to
    ml_dtypes' own product); softmax is f32 rounded once, within 1 bf16 ulp."""
    x, w = _bf16_inputs()
    rt = npubuild.load(built.artifacts)
    outs = {}
    for backend in ("host", "ref"):
        g = rt.graph("bf16_chain", backend=backend)
        g.set_params(w=w)
        outs[backend] = g.run(x=x)
        assert str(outs[backend]["a"].dtype) == "bfloat16" and outs[backend]["y"].dtype == np.float32
    assert outs["host"]["a"].view(np.uint16).tolist() == (x * w).view(np.uint16).tolist()
    assert outs["ref"]["a"].view(np.uint16).tolist() == (x * w).view(np.uint16).tolist()
    np.testing.assert_allclose(outs["host"]["y"], outs["ref"]["y"], rtol=2.0**-7, atol=0)
    g = rt.graph("bf16_chain", backend="host")
    with pytest.raises(UserError, match=r"param 'w' must be bfloat16 \(bf16\), got float32; convert with .astype\(ml_dtypes.bfloat16\)"):
        g.set_params(w=w.astype(np.float32))


def test_cli_run_reads_and_writes_bf16_npz(built, tmp_path):
    """.npz: a bf16 array goes in as np.savez writes it (|V2) or as uint16 bits named
    '<name>.bf16'; it comes out as '<name>.bf16' bits."""
    import ml_dtypes

    x, w = _bf16_inputs()
    np.savez(tmp_path / "in.npz", x=x)  # NumPy's own: a 2-byte void member
    np.savez(tmp_path / "p.npz", **{"w.bf16": w.view(np.uint16)})
    for backend in ("ref", "host"):
        out = tmp_path / f"{backend}.npz"
        built.npubuild("run", "bf16_chain", "-i", str(tmp_path / "in.npz"), "-p", str(tmp_path / "p.npz"), "-o", str(out),
                       "--backend", backend)
        z = np.load(out)
        assert sorted(z.files) == ["a.bf16", "y"]
        a = z["a.bf16"].view(ml_dtypes.bfloat16)
        assert a.view(np.uint16).tolist() == (x * w).view(np.uint16).tolist()
    r = built.npubuild("run", "bf16_chain", "-i", str(tmp_path / "in.npz"), "-p", str(tmp_path / "p.npz"))
    assert "a: shape [4, 16] bfloat16" in r.out
