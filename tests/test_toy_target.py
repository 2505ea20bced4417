"""A new target is a registration, not an edit of npubuild: a toy target defined here is found by
name, says what it supports, is built by the build's own task creators (`npubuild build`, in this
process, where it is registered: emit, then a compile that copies the source), lands in the manifest
with its binary, and runs a graph through the runtime from that binary."""
from __future__ import annotations

import numpy as np
import pytest

import npubuild
from npubuild import targets
from npubuild.core.errors import UserError

from .conftest import new_project

GRAPHS = """\
graphs:
  clip:
    inputs:
      x: {shape: [4, 8], dtype: f32}
    nodes:
      y: {op: relu, inputs: [x]}
    outputs: [y]
"""


class ToyKernel:
    def __init__(self, program: str):
        self.program = program  # what the toy "compiler" produced
        self.calls = 0

    def __call__(self, x):
        self.calls += 1
        assert self.program == "RELU\n"  # what the toy compiler made of the emitted source
        return np.maximum(x, 0)

    def bind_param(self, index, array, generation) -> None:
        raise AssertionError("relu has no params")

    def close(self) -> None:
        pass


class ToyTarget:
    name = "toy"
    unit = "kernel"
    backend = "toy"
    variants = ()
    needs_binary = True  # the build emits and compiles it, the runtime runs its binary
    auto_rank = None  # auto never picks it
    source_name = "kernel.toysrc"
    emitter_dirs = ()  # its emitter is this file, outside npubuild
    binaries = {"binary": "kernel.toy"}

    def supports(self, op, shapes=None, dtype=None, attrs=None):
        return None if op == "relu" else f"toy has no {op}"

    def restrictions(self, op):
        return ()

    def emitter_version(self):
        return "toy-1"

    def emit_options(self, config, cache_dir=None):
        return {}

    def kernel_variants(self, plan, kernel_id):
        return [(None, {})]

    def emit(self, instance, options):
        return f"{instance.op}\n"

    def pinned_interface(self, text):
        return None

    def toolchain_problem(self, cache_dir):
        return None

    def fingerprint(self, cache_dir):
        return {"id": "toy-compiler-1"}

    def flags(self, config=None):
        return None

    def linked_inputs(self, instance, options, toolchain, flags=None):
        return {}

    def linked_files(self, instance, options):
        return []

    def abi(self, instance, options):
        return None

    def design_problem(self, instance, device):
        return None

    def compile_budget(self, limits):
        return 10.0

    def compile(self, source_text, out_dir, log_path, instance, options, store_root, toolchain, **kw):
        (out_dir / self.binaries["binary"]).write_text(source_text.upper())  # the toy compiler

    def open(self, record, files):
        assert self.supports(record["op"]) is None
        binary = record["targets"]["toy"]["files"]["binary"]
        return ToyKernel(files.path(binary, f"kernel {record['id']} [toy binary]").read_text())

    def auto_problem(self, runtime, lacking):
        return "toy: only when asked for"

    def traffic(self, runtime):
        return None


@pytest.fixture
def toy(tmp_path):
    t = targets.register(ToyTarget())
    yield t
    targets.unregister("toy")


def test_the_builtin_targets_are_found_by_name():
    assert [t.name for t in targets.all_targets()][:4] == ["ref", "host", "xdna", "ane"]
    assert targets.by_backend("xrt") is targets.get("xdna")
    assert targets.get("xdna").variants == ("npu1", "npu2")
    assert targets.get("ref").supports("relu") is None
    assert targets.backends(kernels_only=True) == ("ref", "host", "xrt")


def test_a_toy_target_registers_builds_and_runs_through_the_runtime(tmp_path, toy, monkeypatch):
    from npubuild.cli.table import main

    assert targets.get("toy") is toy and "toy" in targets.backends()
    assert toy.supports("relu") is None and toy.supports("softmax") == "toy has no softmax"

    p = new_project(tmp_path / "proj", graphs=GRAPHS, targets=("ref", "toy"))
    monkeypatch.chdir(p.root)
    assert main(["build"]) == 0
    kernel = "relu_f32_4x8"
    d = p.root / "artifacts/kernels" / kernel / "toy"
    assert (d / "kernel.toysrc").read_text() == "relu\n" and (d / "kernel.toy").read_text() == "RELU\n"
    rt = npubuild.load(p.root / "artifacts")
    rec = rt.manifest["kernels"][kernel]["targets"]["toy"]
    assert rec["compiled"] and rec["toolchain"] == "toy-compiler-1" and set(rec["files"]) == {"source", "binary"}
    x = np.linspace(-1, 1, 32, dtype=np.float32).reshape(4, 8)
    g = rt.graph("clip", backend="toy")
    g.set_params()
    np.testing.assert_array_equal(g.run(x=x)["y"], np.maximum(x, 0))
    assert g.last_stats["kernel_calls"] == 1
    assert rt.graph("clip").backend == "ref"  # auto does not pick a target that asks not to be
    rt.close()
    assert main(["build"]) == 0  # built again: nothing to do
    assert (d / "kernel.toy").read_text() == "RELU\n"


def test_an_unregistered_backend_is_refused(tmp_path):
    p = new_project(tmp_path / "proj", graphs=GRAPHS, targets=("ref",))
    p.doit("build")
    rt = npubuild.load(p.root / "artifacts")
    with pytest.raises(UserError, match="unknown backend 'toy'"):
        rt.graph("clip", backend="toy")
    # a backend that exists but runs only whole graphs of its own kind says so, not "unknown"
    with pytest.raises(UserError, match=r"graph 'clip' is a graph of kernels; the ane backend runs only ane graphs \(\.mil files"):
        rt.graph("clip", backend="ane")


def test_the_ane_target_refuses_a_kernel_instance_with_its_reason():
    """ane's unit is a whole graph: asked to emit or compile one kernel, it says so instead of failing oddly."""
    from types import SimpleNamespace

    ane = targets.get("ane")
    inst = SimpleNamespace(id="relu_f32_8", op="relu")
    assert ane.supports("relu") is not None
    for call in (lambda: ane.emit(inst, {}), lambda: ane.compile("", None, None, inst, {}, None, None)):
        with pytest.raises(UserError, match=r"kernel 'relu_f32_8': ane builds whole graphs"):
            call()
