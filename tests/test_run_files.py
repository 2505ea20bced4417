"""The .npz files `npubuild run` reads and writes: hostile or broken ones are one
message, checked before anything is allocated; -o writes only regular files."""
from __future__ import annotations

import io
import os
import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest

from npubuild.core.errors import UserError
from npubuild.core.limits import Limits
from npubuild.runner.npzio import read_npz, write_npz


def _npy_bytes(arr) -> bytes:
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=True)
    return buf.getvalue()


def _zip(path: Path, members: dict) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def test_round_trip(tmp_path):
    arrays = {"x": np.arange(6, dtype=np.float32).reshape(2, 3), "m": np.asfortranarray(np.eye(3)), "b": np.array([True, False])}
    write_npz(tmp_path / "a.npz", arrays)
    back = read_npz(tmp_path / "a.npz", "inputs")
    assert set(back) == set(arrays)
    for k in arrays:
        np.testing.assert_array_equal(back[k], arrays[k])
        assert back[k].dtype == arrays[k].dtype
    assert [p.name for p in tmp_path.iterdir()] == ["a.npz"]  # no temp file left


@pytest.mark.parametrize("arr,what", [(np.array([{"a": 1}], dtype=object), "dtype object"), (np.array(["abc"]), "dtype <U3"),
                                      (np.array([b"ab"]), "dtype |S2")])
def test_object_and_string_arrays_are_refused(tmp_path, arr, what):
    p = _zip(tmp_path / "i.npz", {"x.npy": _npy_bytes(arr)})
    with pytest.raises(UserError, match=f"array 'x' has {what}; inputs are numeric or bool arrays"):
        read_npz(p, "inputs")


def test_a_header_claiming_more_than_the_member_holds(tmp_path):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2000000, 2000000), }"
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    member = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + b"\0" * 64
    p = _zip(tmp_path / "i.npz", {"x.npy": member})
    with pytest.raises(UserError, match=r"array 'x' claims 16000000000000 bytes, over the limit of \d+ \(limits.max_input_bytes\)"):
        read_npz(p, "inputs")
    small = np.zeros(4, np.float32)
    p = _zip(tmp_path / "j.npz", {"x.npy": _npy_bytes(small)[:-4]})
    with pytest.raises(UserError, match="its header says 16 bytes of data but the member holds 12"):
        read_npz(p, "inputs")


def test_input_size_limit_at_and_past(tmp_path):
    p = tmp_path / "i.npz"
    np.savez(p, x=np.zeros(256, np.float32))
    assert read_npz(p, "inputs", Limits(max_input_bytes=1024))["x"].shape == (256,)
    with pytest.raises(UserError, match="over the limit of 1023"):
        read_npz(p, "inputs", Limits(max_input_bytes=1023))


def _corrupt_npz(path: Path) -> Path:
    np.savez(path, x=np.arange(64, dtype=np.float32))
    data = bytearray(path.read_bytes())
    data[200] ^= 0xFF  # inside the member's data: the CRC check fails when it is read
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("content,msg", [(b"PK\x03\x04garbage", r"not a .npz \(zip\) file"), (b"hello", r"not a .npz \(zip\) file"),
                                         (_npy_bytes(np.ones(2)), "is a single .npy array"), (None, "a damaged .npz")])
def test_damaged_files(tmp_path, content, msg):
    p = tmp_path / "i.npz"
    if content is None:
        _corrupt_npz(p)
    else:
        p.write_bytes(content)
    with pytest.raises(UserError, match=msg):
        read_npz(p, "inputs")


def test_members_that_are_not_arrays(tmp_path):
    with pytest.raises(UserError, match="member 'notes.txt' is not a .npy array"):
        read_npz(_zip(tmp_path / "a.npz", {"notes.txt": b"hi"}), "inputs")
    with pytest.raises(UserError, match="array 'x' is not a .npy array"):
        read_npz(_zip(tmp_path / "b.npz", {"x.npy": b"not numpy"}), "inputs")


def test_fifo_input_does_not_block(tmp_path):
    fifo = tmp_path / "in.npz"
    os.mkfifo(fifo)
    got = []
    t = threading.Thread(target=lambda: got.append(pytest.raises(UserError, read_npz, fifo, "inputs")), daemon=True)
    t.start()
    t.join(10)
    assert got and "is not a regular file" in str(got[0].value)
    with pytest.raises(UserError, match="not a regular file"):
        read_npz(tmp_path, "params")


@pytest.mark.parametrize("kind", ["dir", "fifo", "symlink", "device"])
def test_output_only_onto_regular_files(tmp_path, kind):
    target = tmp_path / "out.npz"
    if kind == "dir":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        (tmp_path / "elsewhere").write_bytes(b"keep")
        target.symlink_to(tmp_path / "elsewhere")
    else:
        target = Path("/dev/null")
    with pytest.raises(UserError, match="exists and is not a regular file"):
        write_npz(target, {"y": np.ones(2)})
    if kind == "symlink":
        assert (tmp_path / "elsewhere").read_bytes() == b"keep"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".npb-tmp-")]


def test_output_replaces_a_file_whole(tmp_path):
    target = tmp_path / "out.npz"
    target.write_bytes(b"old")
    write_npz(target, {"y": np.arange(3)})
    np.testing.assert_array_equal(read_npz(target, "outputs")["y"], np.arange(3))
    with pytest.raises(UserError, match="cannot write"):
        write_npz(tmp_path / "missing-dir" / "o.npz", {"y": np.ones(1)})


def test_cli_run_reports_bad_files_in_one_line(project, tmp_path):
    p = project(graphs="graphs:\n  g:\n    inputs: {x: {shape: [4]}}\n    nodes:\n      y: {op: relu, inputs: [x]}\n    outputs: [y]\n",
                targets=("ref",))
    p.doit()
    bad = _corrupt_npz(tmp_path / "bad.npz")
    r = p.npubuild("run", "g", "-i", str(bad), check=False)
    assert r.rc == 1 and "Traceback" not in r.err and "a damaged .npz" in r.err
    good = tmp_path / "x.npz"
    np.savez(good, x=np.array([-1, 2, -3, 4], np.float32))
    r = p.npubuild("run", "g", "-i", str(good), "-o", str(tmp_path), check=False)
    assert r.rc == 1 and "exists and is not a regular file" in r.err and "Traceback" not in r.err
    p.npubuild("run", "g", "-i", str(good), "-o", str(tmp_path / "y.npz"))
    np.testing.assert_array_equal(np.load(tmp_path / "y.npz")["y"], [0, 2, 0, 4])


def test_bf16_round_trips_as_uint16_bits(tmp_path):
    import ml_dtypes

    x = np.array([[1.5, -2.0, np.inf], [-0.0, 3e38, 1e-40]], np.float32).astype(ml_dtypes.bfloat16)
    write_npz(tmp_path / "o.npz", {"y": x, "z": np.ones(2, np.float32)})
    with zipfile.ZipFile(tmp_path / "o.npz") as z:
        assert sorted(z.namelist()) == ["y.bf16.npy", "z.npy"]
    raw = np.load(tmp_path / "o.npz")
    assert raw["y.bf16"].dtype == np.uint16  # what a plain NumPy reader sees: the bit patterns
    back = read_npz(tmp_path / "o.npz", "inputs")
    assert set(back) == {"y", "z"} and back["y"].dtype == x.dtype
    assert back["y"].view(np.uint16).tolist() == x.view(np.uint16).tolist()


def test_bf16_as_numpy_saves_it_and_names_ending_in_bf16(tmp_path):
    import ml_dtypes

    x = np.array([1.25, -3.0], ml_dtypes.bfloat16)
    np.savez(tmp_path / "v.npz", x=x)  # NumPy writes a 2-byte void ('|V2')
    back = read_npz(tmp_path / "v.npz", "inputs")
    assert back["x"].dtype == x.dtype and back["x"].view(np.uint16).tolist() == x.view(np.uint16).tolist()
    # a float tensor whose own name ends in '.bf16' is not bf16 bits: only uint16 members are
    np.savez(tmp_path / "n.npz", **{"t.bf16": np.ones(2, np.float32)})
    assert read_npz(tmp_path / "n.npz", "inputs")["t.bf16"].dtype == np.float32
    np.savez(tmp_path / "d.npz", **{"x": np.ones(2, np.float32), "x.bf16": x.view(np.uint16)})
    with pytest.raises(UserError, match="holds 'x' twice"):
        read_npz(tmp_path / "d.npz", "inputs")


def test_run_one_kernel_with_typed_inputs_and_expect_ref(project, tmp_path):
    """`npubuild run KERNEL_ID`: the kernel alone, inputs as iree-run-module takes them (a .npy, SHAPExDTYPE=values,
    SHAPExDTYPE for seeded random values), and --expect ref's max abs error against the NumPy oracle."""
    import json

    import numpy as np

    p = project("kernels:\n  e:\n    op: exp\n    shapes:\n      - [4, 8]\n")
    p.doit("build")
    np.save(tmp_path / "x.npy", np.full((4, 8), 0.25, np.float32))
    for given in (f"x=@{tmp_path / 'x.npy'}", "x=4x8xf32=0.25", "x=4x8xf32=" + ",".join(["0.25"] * 32)):
        r = p.npubuild("run", "exp_f32_4x8", "--input", given, "--backend", "host", "--expect", "ref", "--json")
        doc = json.loads(r.out)
        y = np.array(doc["outputs"]["y"]["values"])
        assert doc["backend"] == "host" and y.shape == (4, 8)
        # the host kernel's exp is within a few ulp of NumPy's (docs/kernels.md); --expect reports the same gap
        err = float(np.abs(y - np.exp(np.float32(0.25))).max())
        assert err < 1e-6 and doc["expect"]["backend"] == "ref"
        assert abs(doc["expect"]["max_abs_error"]["y"] - err) < 1e-7
    a = json.loads(p.npubuild("run", "exp_f32_4x8", "--input", "x=4x8xf32", "--json", "--seed", "3").out)
    b = json.loads(p.npubuild("run", "exp_f32_4x8", "--input", "x=4x8xf32", "--json", "--seed", "3").out)
    assert a["outputs"]["y"]["values"] == b["outputs"]["y"]["values"]  # seeded
    for bad, said in (("x=4x4xf32", "input 'x' must have shape [4, 8], got [4, 4]"),
                      ("x=4x8xq8", "'4x8xq8' is not SHAPExDTYPE"),
                      ("x=4x8xf32=1,2", "2 values for a 4x8 f32 (32 elements): give all of them, or one to fill it"),
                      ("x=4x8xi8=300", "a value outside i8's range"),
                      ("x", "write NAME=@FILE.npy")):
        r = p.npubuild("run", "exp_f32_4x8", "--input", bad, check=False)
        assert r.rc == 1 and said in r.err and "Traceback" not in r.err, r.err


def test_bench_times_a_kernel_and_the_oracle_in_the_same_run(project):
    import json

    p = project("kernels:\n  m:\n    op: matmul\n    shapes:\n      - {a: [4, 8], b: [8, 16]}\n")
    p.doit("build")
    doc = json.loads(p.npubuild("bench", "matmul_f32_4x8_8x16", "--backend", "host", "--repeat", "3", "--json").out)
    assert doc["backend"] == "host" and set(doc["results"]) == {"host", "ref"}
    for r in doc["results"].values():
        assert r["calls"] == 3 and 0 < r["min_s"] <= r["median_s"]
        assert r["elements_per_s"] == 4 * 16 / r["median_s"] and r["gop_per_s"] == 2 * 4 * 8 * 16 / r["median_s"] / 1e9
    assert doc["speedup_over_ref"] == doc["results"]["ref"]["median_s"] / doc["results"]["host"]["median_s"]
    text = p.npubuild("bench", "matmul_f32_4x8_8x16", "--backend", "host", "--repeat", "2").out
    assert "GOP/s" in text and text.strip().splitlines()[-1].startswith("matmul_f32_4x8_8x16: host ")
    r = p.npubuild("bench", "matmul_f32_4x8_8x16", "--repeat", "0", check=False)
    assert r.rc == 1 and "--repeat must be at least 1" in r.err


def test_bench_of_an_ane_graph_times_it_alone(project):
    """An ANE graph runs only on ane: bench times it there, says there is no oracle beside it, and does not fail."""
    import json

    from .test_ane_state import ACC

    p = project(targets=("ref",))
    p.write("specs/graphs/acc.mil", ACC)
    p.doit("build")
    doc = json.loads(p.npubuild("bench", "acc", "--repeat", "2", "--json").out)
    assert doc["backend"] == "ane" and set(doc["results"]) == {"ane"} and doc["speedup_over_ref"] is None
    assert "no oracle timed beside it" in p.npubuild("bench", "acc", "--repeat", "2").out
    r = p.npubuild("run", "acc", "--backend", "ref", "--example", check=False)
    assert r.rc == 1 and "is an ANE graph (from specs/graphs/acc.mil)" in r.err
