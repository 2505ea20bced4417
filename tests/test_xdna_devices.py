"""One spec, several NPU generations: a family's ``device: [npu1, npu2]`` (or two asks for the same shape
with different devices) gives each xdna kernel one design per device in the same artifact folder, each
in the manifest (``xdna.npu1``, ``xdna.npu2``); list, explain, pack/unpack and verify handle both; the
runtime opens the design for the NPU XRT reports (fake_pyxrt stands in for XRT here: what is tested is
the choice, not the NPU) and names the device it lacks when no design matches."""
from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

import npubuild
from npubuild.core.errors import UserError

from . import fake_pyxrt
from .conftest import new_project
from .test_xdna_build import make_fake_toolchain
from .test_xdna_toolchain import TOOL_VARS, clean_env, path_without_tools  # noqa: F401  (fixture)

SHAPE = [32, 1024]
BOTH = f"""\
graphs:
  g:
    inputs: {{x: {{shape: {SHAPE}}}}}
    targets: [ref, xdna]
    device: [npu2, npu1]
    nodes:
      y: {{op: relu, inputs: [x]}}
    outputs: [y]
"""
KID = "relu_f32_32x1024"


def _manifest(p) -> dict:
    return json.loads((p.artifacts / "manifest.json").read_text())


def _source(p, entry) -> str:
    return (p.artifacts / entry["files"]["source"]["path"]).read_text()


def test_a_device_list_builds_one_design_per_device(tmp_path, clean_env):  # noqa: F811
    p = new_project(tmp_path / "proj", None, BOTH, targets=("ref",))
    r = p.doit("build")  # no mlir-aie here: each design is emitted, not compiled
    assert f"emit:{KID}@xdna.npu1" in r.out and f"emit:{KID}@xdna.npu2" in r.out
    assert "xdna: 1 kernel emitted, not compiled" in r.out  # one kernel, two designs
    k = _manifest(p)["kernels"][KID]
    assert set(k["targets"]) == {"ref", "xdna.npu1", "xdna.npu2"}
    for device in ("npu1", "npu2"):
        entry = k["targets"][f"xdna.{device}"]
        assert entry["abi"]["device"] == device and not entry["compiled"]
        assert entry["files"]["source"]["path"] == f"kernels/{KID}/xdna.{device}/aie.mlir"
        assert f"aie.device({entry['abi']['partition']})" in _source(p, entry)  # the design of that device's array
    assert p.npubuild("verify").rc == 0
    line = next(l for l in p.npubuild("list").out.splitlines() if KID in l)
    assert "xdna npu1: " in line and "; npu2: " in line, line  # each design's summary
    assert set(json.loads(p.npubuild("list", "--json").out)["kernels"][KID]["xdna"]["other_devices"]) == {"npu2"}
    rows = json.loads(p.npubuild("explain", "--json", KID).out)
    assert {row["task"] for row in rows} >= {f"{KID}@xdna.npu1", f"{KID}@xdna.npu2"}, rows
    # shared as a bundle: unpacked elsewhere, both designs verify
    bundle, out = tmp_path / "b.tar.gz", tmp_path / "elsewhere"
    p.npubuild("pack", "-o", str(bundle))
    p.npubuild("unpack", str(bundle), "-C", str(out))
    assert (out / f"kernels/{KID}/xdna.npu1/aie.mlir").is_file() and (out / f"kernels/{KID}/xdna.npu2/aie.mlir").is_file()
    rt = npubuild.load(out)  # verifies every file against the manifest
    rt.close()
    assert p.doit("build").summary["uptodate"] == 0  # nothing to compile, nothing rebuilt
    assert "emit:" not in p.doit("build").out


def test_two_families_asking_for_different_devices_build_both(tmp_path, clean_env):  # noqa: F811
    kernels = ("kernels:\n"
               "  a:\n    op: relu\n    targets: [ref, xdna]\n    device: npu2\n    shapes:\n      - [4]\n"
               "  b:\n    op: relu\n    targets: [ref, xdna]\n    shapes:\n      - [4]\n")
    p = new_project(tmp_path / "proj", kernels, None, targets=("ref",))
    p.doit("build")
    k = _manifest(p)["kernels"]["relu_f32_4"]
    assert {t: e["abi"]["device"] for t, e in k["targets"].items() if t != "ref"} == {"xdna.npu1": "npu1", "xdna.npu2": "npu2"}


def test_one_device_keeps_one_design_named_xdna(tmp_path, clean_env):  # noqa: F811
    p = new_project(tmp_path / "proj", None, BOTH.replace("device: [npu2, npu1]", "device: [npu2]"), targets=("ref",))
    p.doit("build")
    k = _manifest(p)["kernels"][KID]
    assert set(k["targets"]) == {"ref", "xdna"} and k["targets"]["xdna"]["abi"]["device"] == "npu2"
    assert (p.artifacts / f"kernels/{KID}/xdna/aie.mlir").is_file()


@pytest.fixture
def built_for_both(tmp_path, clean_env):  # noqa: F811
    """Both designs compiled with the aiecc/Peano test doubles."""
    env = {k: v for k, v in os.environ.items() if k not in (*TOOL_VARS, "NPUBUILD_AIE_INCLUDE")}
    env["PATH"] = path_without_tools(env.get("PATH", ""))
    (tmp_path / "calls.log").write_text("")
    env["FAKE_LOG"] = str(tmp_path / "calls.log")
    p = new_project(tmp_path / "proj", None, BOTH, targets=("ref",))
    r = p.doit("build", env=make_fake_toolchain(tmp_path, env)["env"])
    assert r.summary["compiled"] == 2, r.out  # one design per device
    return p


def _relu_program(bufs):
    x = np.frombuffer(bufs[0], np.float32)
    bufs[-1][:] = np.maximum(x, 0).astype(np.float32).tobytes()


@pytest.mark.parametrize("name,device", [("RyzenAI-npu1", "npu1"), ("NPU Strix", "npu2")])
def test_the_runtime_opens_the_design_for_the_reported_device(built_for_both, monkeypatch, name, device):
    fake_pyxrt.reset(name=name)
    monkeypatch.setitem(sys.modules, "pyxrt", fake_pyxrt)
    rt = npubuild.load(built_for_both.artifacts)
    xclbin = rt._xdna_files(KID)["xclbin"]
    want = rt.manifest["kernels"][KID]["targets"][f"xdna.{device}"]["files"]["xclbin"]["sha256"]
    import hashlib

    assert hashlib.sha256(open(xclbin, "rb").read()).hexdigest() == want  # the private copy of that design's xclbin
    fake_pyxrt.STATE.programs[str(xclbin)] = _relu_program
    g = rt.graph("g", backend="xrt")
    g.set_params()
    x = np.linspace(-1, 1, 32 * 1024, dtype=np.float32).reshape(SHAPE)
    np.testing.assert_array_equal(g.run(x=x)["y"], np.maximum(x, 0))
    assert fake_pyxrt.STATE.runs  # it ran on the (fake) NPU
    rt.close()


def test_a_kernel_without_a_design_for_the_npu_says_which_device_to_add(built_for_both, monkeypatch):
    m = json.loads((built_for_both.artifacts / "manifest.json").read_text())
    fake_pyxrt.reset(name="NPU Strix")
    monkeypatch.setitem(sys.modules, "pyxrt", fake_pyxrt)
    rt = npubuild.load(built_for_both.artifacts, verify_files=False)
    # a manifest whose kernel has only its npu1 design (as one built before npu2 was listed)
    del rt.manifest["kernels"][KID]["targets"]["xdna.npu2"]
    rec = rt.manifest["kernels"][KID]
    from npubuild import targets

    with pytest.raises(UserError, match=r"has xdna designs for npu1, and this NPU is npu2: add npu2 to the family's device list"):
        targets.get("xdna").design_record(dict(rec, id=KID), "npu2")
    assert targets.get("xdna").design_record(dict(rec, id=KID), "npu1")["targets"]["xdna"] == m["kernels"][KID]["targets"]["xdna.npu1"]
    rt.close()
