"""The fresh-machine flow: a colleague with the same specs but no build state
gets the artifacts by copying the directory or unpacking a bundle; then
`doit build` compiles nothing and `npubuild run` works. (A warm remote cache is
the third way: tests/test_stores.py.)"""
from __future__ import annotations

import shutil

import numpy as np

from .conftest import new_project

KERNELS = """kernels:
  a:
    op: relu
    shapes:
      - [64]
      - [8, 32]
"""
GRAPHS = """graphs:
  chain:
    inputs: {x: {shape: [8, 32]}}
    params: {b: {shape: [32]}}
    nodes:
      s: {op: add, inputs: [x, b]}
      y: {op: relu, inputs: [s]}
    outputs: [y]
"""


def _colleague(tmp_path, name):
    return new_project(tmp_path / name, KERNELS, GRAPHS)


def _run(p, tmp_path):
    rng = np.random.default_rng(0)
    np.savez(tmp_path / "in.npz", x=rng.standard_normal((8, 32)).astype(np.float32))
    np.savez(tmp_path / "p.npz", b=rng.standard_normal(32).astype(np.float32))
    r = p.npubuild("run", "chain", "-i", str(tmp_path / "in.npz"), "-p", str(tmp_path / "p.npz"),
                   "-o", str(tmp_path / f"out_{p.root.name}.npz"), "--backend", "host")
    assert r.rc == 0, r.err
    return np.load(tmp_path / f"out_{p.root.name}.npz")["y"]


def test_copied_artifacts_and_unpacked_bundles_build_nothing(tmp_path):
    me = new_project(tmp_path / "me", KERNELS, GRAPHS)
    assert me.doit("build").summary["compiled"] == 3  # relu 64, relu 8x32 (also the graph's y), add
    want = _run(me, tmp_path)

    # 1. a copy of artifacts/ (it carries the store)
    copy = _colleague(tmp_path, "copy")
    shutil.copytree(me.artifacts, copy.artifacts)
    assert copy.doit("build").summary == {"kernels": 3, "compiled": 0, "store": 3, "uptodate": 0}
    np.testing.assert_array_equal(_run(copy, tmp_path), want)

    # 2. a bundle: only the manifest and the files it names (no store, no build records)
    bundle = tmp_path / "a.tar.zst"
    assert me.npubuild("pack", "-o", str(bundle)).rc == 0
    other = _colleague(tmp_path, "other")
    assert other.npubuild("unpack", str(bundle), "-C", str(other.artifacts)).rc == 0
    r = other.doit("build")
    assert r.summary["compiled"] == 0, r.out
    assert other.npubuild("verify").rc == 0
    np.testing.assert_array_equal(_run(other, tmp_path), want)
