"""`npubuild run --example` and `npubuild inputs` on graphs whose declared inputs are huge
(refused by limits.max_input_bytes before anything is allocated), and `run --json` statistics
of integer outputs (exact, never through float64)."""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

import numpy as np
import pytest

from npubuild.cli.run import run_report
from npubuild.core.errors import UserError
from npubuild.core.limits import Limits
from npubuild.runner import examples
from npubuild.runner.examples import example_array, example_arrays
from npubuild.runner.npzio import read_npz, write_npz

from .conftest import new_project

GRAPHS = """
graphs:
  big:
    inputs: {x: {shape: [46340, 46340], dtype: f32}}
    nodes:
      y: {op: relu, inputs: [x]}
    outputs: [y]
  small:
    inputs: {x: {shape: [16, 32], dtype: f32}}
    nodes:
      y: {op: relu, inputs: [x]}
    outputs: [y]
  wide:
    inputs: {x: {shape: [4], dtype: i64}}
    nodes:
      y: {op: relu, inputs: [x]}
    outputs: [y]
"""
BIG_BYTES = 46340 * 46340 * 4  # 8.0 GiB of f32; 16 GiB as the float64 the generator draws
MEMORY_CAP = 3 << 30  # address space of the commands under test: far below one such array


@pytest.fixture(scope="module")
def proj(tmp_path_factory):
    p = new_project(tmp_path_factory.mktemp("examples") / "proj", graphs=GRAPHS, targets=("ref",))
    p.doit("build")
    return p


def _capped(proj, *args):
    """``npubuild ARGS`` in a subprocess that cannot map more than MEMORY_CAP bytes: a command that
    allocated the array before checking its size would die of MemoryError, not print the message."""
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))

    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    return subprocess.run([sys.executable, "-m", "npubuild.cli", *map(str, args)], cwd=proj.root, env=env,
                          capture_output=True, text=True, timeout=300, preexec_fn=cap)


@pytest.mark.parametrize("command", [["inputs", "big", "-o", "x.npz"], ["run", "big", "--example"],
                                     ["run", "big", "--example", "--json"]])
def test_a_huge_example_input_is_one_message_before_any_allocation(proj, command):
    r = _capped(proj, *command)
    assert r.returncode == 1 and "Traceback" not in r.stderr and "MemoryError" not in r.stderr, r.stderr
    line = r.stderr.strip().splitlines()[-1]
    assert (f"graph 'big': example input 'x' (f32 [46340, 46340]) would be {BIG_BYTES} bytes (8.0 GiB), over the limit "
            f"of {4 << 30} bytes (limits.max_input_bytes); raise max_input_bytes in [tool.npubuild.limits]") in line, line
    assert not (proj.root / "x.npz").exists()
    if "--json" in command:  # asked for JSON: the error as JSON on stdout (README: exit statuses)
        assert json.loads(r.stdout) == {"error": line.removeprefix("npubuild: ")}
    else:
        assert r.stdout == ""


def test_the_projects_limit_applies_and_raising_it_works(proj, tmp_path):
    pp = proj.root / "pyproject.toml"
    original = pp.read_text()
    try:
        pp.write_text(original + '\n[tool.npubuild.limits]\nmax_input_bytes = "1K"\n')
        r = proj.npubuild("inputs", "small", "-o", tmp_path / "x.npz", check=False)
        assert r.rc == 1 and "example input 'x' (f32 [16, 32]) would be 2048 bytes (2.0 KiB), over the limit of 1024" in r.err
        r = proj.npubuild("run", "small", "--example", check=False)
        assert r.rc == 1 and "limits.max_input_bytes" in r.err and "Traceback" not in r.err
        pp.write_text(original + '\n[tool.npubuild.limits]\nmax_input_bytes = "2K"\n')  # exactly the array's size
        proj.npubuild("inputs", "small", "-o", tmp_path / "x.npz")
        assert read_npz(tmp_path / "x.npz", "inputs")["x"].shape == (16, 32)
    finally:
        pp.write_text(original)


def test_sizes_are_checked_for_every_array_before_any_is_drawn(monkeypatch):
    sig = {"graph": "g", "inputs": {"a": {"shape": [4], "dtype": "f32"}},
           "params": {"w": {"shape": [1 << 20, 1 << 20], "dtype": "bf16"}}}
    drawn = []
    monkeypatch.setattr(examples, "example_array", lambda s, rng: drawn.append(s))
    with pytest.raises(UserError, match=r"graph 'g': example param 'w' \(bf16 \[1048576, 1048576\]\) would be "
                                        r"2199023255552 bytes \(2048\.0 GiB\)"):
        example_arrays(sig, 0, Limits())
    assert drawn == []  # not even the small input first


def test_drawing_in_chunks_gives_the_values_of_one_draw(monkeypatch):
    monkeypatch.setattr(examples, "CHUNK", 7)  # chunks that do not divide the array
    for dtype, whole in (
        ("f32", lambda rng, n: (rng.standard_normal(n) * 0.5).astype(np.float32)),
        ("i32", lambda rng, n: rng.integers(-4, 5, size=n).astype(np.int32)),
        ("bool", lambda rng, n: rng.random(n) < 0.5),
    ):
        got = example_array({"shape": [5, 9], "dtype": dtype}, np.random.default_rng(3))
        np.testing.assert_array_equal(got, whole(np.random.default_rng(3), 45).reshape(5, 9))


def test_run_json_reports_integers_exactly():
    big = np.array([2**62 + 1, -(2**63), 2**63 - 1, 3], dtype=np.int64)
    out = {"i": big, "u": np.array([2**64 - 1, 1], dtype=np.uint64), "s": np.array([-3, 5, 7], dtype=np.int8),
           "b": np.array([True, False, True, True]), "e": np.zeros((0, 3), dtype=np.int32)}
    doc = json.loads(json.dumps(run_report("g", "ref", None, out, None), allow_nan=False))["outputs"]
    assert doc["i"]["values"] == [2**62 + 1, -(2**63), 2**63 - 1, 3]  # float64 would give 4611686018427387904
    assert doc["i"]["min"] == -(2**63) and doc["i"]["max"] == 2**63 - 1
    assert isinstance(doc["i"]["min"], int) and isinstance(doc["i"]["max"], int)
    assert doc["i"]["mean"] == (2**62 + 1 - 2**63 + 2**63 - 1 + 3) / 4 and doc["i"]["nan"] == doc["i"]["inf"] == 0
    assert doc["u"]["max"] == 2**64 - 1 and doc["u"]["mean"] == (2**64) / 2
    assert doc["s"] == {"shape": [3], "dtype": "int8", "nan": 0, "inf": 0, "min": -3, "max": 7, "mean": 3.0, "values": [-3, 5, 7]}
    assert doc["b"]["min"] is False and doc["b"]["max"] is True and doc["b"]["mean"] == 0.75
    assert doc["e"] == {"shape": [0, 3], "dtype": "int32", "nan": 0, "inf": 0, "values": []}


def test_integer_mean_is_exact_over_many_chunks():
    v = np.full(3 << 20, 2**62 + 7, dtype=np.int64)  # an int64 sum of these would wrap
    doc = run_report("g", "ref", None, {"y": v}, None)["outputs"]["y"]
    assert doc["mean"] == float(2**62 + 7) and doc["min"] == doc["max"] == 2**62 + 7 and "values" not in doc


def test_run_json_on_an_int64_graph(proj, tmp_path):
    x = np.array([2**62 + 1, -5, 2**53 + 1, 0], dtype=np.int64)
    write_npz(tmp_path / "x.npz", {"x": x})
    r = proj.npubuild("run", "wide", "-i", tmp_path / "x.npz", "--json")
    y = json.loads(r.out)["outputs"]["y"]
    assert y["values"] == [2**62 + 1, 0, 2**53 + 1, 0] and y["max"] == 2**62 + 1 and y["min"] == 0
