"""The xrt backend with fake_pyxrt (tests/fake_pyxrt.py) standing in for XRT and
the NPU; the artifacts come from a build with the aiecc/Peano test doubles.
What is tested is the backend's own logic: packing per the manifest's ABI,
device-resident intermediates and the bytes that cross, params uploaded once,
the hardware-context pool (eviction order, retry when the driver refuses in any
of its spellings, bounded, reopening from the artifacts), a hung run stopped by
limits.xrt_run_timeout, results copied once out of mapped buffers, backend
choice, and the GEMM overlay's tiles in the geometry its ABI records.
The fake runs each kernel with NumPy (the op oracle or the overlay
emulation); none of this is the NPU working."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
import types

import numpy as np
import pytest

import npubuild
from npubuild.core.errors import UserError
from npubuild.ops import REGISTRY
from npubuild.ops.registry import NUMPY_DTYPE, normalize_attrs

from . import fake_pyxrt
from .conftest import Project, new_project
from .test_xdna_build import fake_toolchain, make_fake_toolchain  # noqa: F401  (fixture)
from .test_xdna_gemm import emulated_npu
from .test_xdna_toolchain import TOOL_VARS, clean_env, path_without_tools  # noqa: F401  (fixture)

SHAPE = [32, 1024]
GRAPHS = f"""\
graphs:
  chain:
    inputs: {{x: {{shape: {SHAPE}}}}}
    params: {{b: {{shape: {SHAPE}}}}}
    targets: [ref, host, xdna]
    nodes:
      r: {{op: relu, inputs: [x]}}
      n: {{op: neg, inputs: [r]}}
      a: {{op: div, inputs: [n, b]}}
      e: {{op: sigmoid, inputs: [a]}}
      y: {{op: abs, inputs: [e]}}
    outputs: [y]
  fan:                           # r feeds div's packed r‖b and sigmoid's plain input; a and s feed mul (two streams)
    inputs: {{x: {{shape: {SHAPE}}}}}
    params: {{b: {{shape: {SHAPE}}}}}
    targets: [ref, host, xdna]
    nodes:
      r: {{op: relu, inputs: [x]}}
      a: {{op: div, inputs: [r, b]}}
      s: {{op: sigmoid, inputs: [r]}}
      y: {{op: mul, inputs: [a, s]}}
    outputs: [y, r]
  mlp:
    inputs: {{x: {{shape: [8, 256]}}}}
    params: {{w1: {{shape: [256, 512]}}, gamma: {{shape: [512]}}}}
    targets: [ref, host, xdna]
    nodes:
      h: {{op: matmul, inputs: [x, w1], dtype: i8}}
      a: {{op: gelu, inputs: [h], attrs: {{approximate: tanh}}}}
      y: {{op: rms_norm, inputs: [a, gamma], attrs: {{eps: 1.0e-6}}}}
    outputs: [y]
  backward:                      # a weight gradient: the matmul's weight is data, not a param
    inputs: {{x: {{shape: [64, 32]}}, dy: {{shape: [64, 48]}}}}
    targets: [ref, host, xdna]
    nodes:
      xt: {{op: transpose, inputs: [x], attrs: {{perm: [1, 0]}}}}
      gw: {{op: matmul, inputs: [xt, dy], dtype: i8}}
    outputs: [gw]
"""


@pytest.fixture(scope="module")
def built_once(tmp_path_factory):
    """The xdna build the tests read, made once per module (a doit build with the fake toolchain
    takes seconds); each test gets its own copy, so tampering stays in that test."""
    base = tmp_path_factory.mktemp("xrt_build")
    env = {k: v for k, v in os.environ.items() if k not in (*TOOL_VARS, "NPUBUILD_AIE_INCLUDE")}
    env["PATH"] = path_without_tools(env.get("PATH", ""))  # as the clean_env fixture
    (base / "calls.log").write_text("")
    env["FAKE_LOG"] = str(base / "calls.log")
    p = new_project(base / "proj", None, GRAPHS)
    p.doit("build", env=make_fake_toolchain(base, env)["env"])
    return p.root


@pytest.fixture
def built(built_once, tmp_path):
    dst = tmp_path / "proj"
    shutil.copytree(built_once, dst, symlinks=True)
    return Project(dst)


@pytest.fixture
def npu(monkeypatch):
    fake_pyxrt.reset()
    monkeypatch.setitem(sys.modules, "pyxrt", fake_pyxrt)
    monkeypatch.delenv("XRT_CONTEXT_CACHE_SIZE", raising=False)
    return fake_pyxrt.STATE


def _program(rt, kernel_id):
    """What the fake NPU runs for a kernel: unpack per the ABI, the op's oracle, pack the output."""
    rec = rt.manifest["kernels"][kernel_id]
    abi = rec["targets"]["xdna"]["abi"]
    if rec["op"] == "matmul":
        from npubuild.emitters.aie import design_for
        from npubuild.specfile.instances import make_instance

        inst = make_instance("matmul", "i8", [t["shape"] for t in rec["inputs"]], {})
        npu_run = emulated_npu(design_for(inst, {"device": abi["device"]}))

        def gemm(bufs):
            a = np.frombuffer(bufs[0], np.int8)
            b = np.frombuffer(bufs[1], np.int8)
            c = npu_run(a, b)
            bufs[2][:] = np.asarray(c, np.int32).tobytes()

        return gemm
    op = REGISTRY[rec["op"]]
    attrs = normalize_attrs(op, rec["attrs"])
    shapes = {t["name"]: (t["shape"], t["dtype"]) for t in rec["inputs"]}

    def run(bufs):
        values = {}
        for buf, b in zip(bufs, abi["buffers"][:-1]):
            flat = np.frombuffer(buf, NUMPY_DTYPE[b["dtype"]])
            off = 0
            for part in b["parts"]:
                shape, _ = shapes[part["tensor"]]
                values[part["tensor"]] = flat[off : off + part["elements"]].reshape(shape)
                off += part["slot"]
        y = np.asarray(op.evaluate([values[t["name"]] for t in rec["inputs"]], attrs, rec["dtype"]))
        out = np.frombuffer(bufs[-1], NUMPY_DTYPE[rec["outputs"][0]["dtype"]]).copy()
        out[: y.size] = y.astype(out.dtype).reshape(-1)
        bufs[-1][:] = out.tobytes()

    return run


def _load(built, npu, **kw):
    rt = npubuild.load(built.artifacts, **kw)
    for kid, rec in rt.manifest["kernels"].items():
        npu.programs[str(rt._xdna_files(kid)["xclbin"])] = _program(rt, kid)
    return rt


def _inputs(rec, seed=0):
    rng = np.random.default_rng(seed)
    return {n: rng.standard_normal(s["shape"]).astype(np.float32) for n, s in rec.items()}


def test_chain_intermediates_stay_on_the_device(built, npu):
    rt = _load(built, npu)
    g = rt.graph("chain", backend="auto")
    assert g.backend == "xrt"
    rec = rt.manifest["graphs"]["chain"]
    params = _inputs(rec["params"], 1)
    g.set_params(**params)
    x = _inputs(rec["inputs"], 2)
    first = g.run(**x)
    first_stats = g.last_stats
    second = g.run(**x)
    ref = rt.graph("chain", backend="ref")
    ref.set_params(**params)
    np.testing.assert_allclose(second["y"], ref.run(**x)["y"], rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(first["y"], second["y"])
    assert npu.waits and set(npu.waits) == {60_000}  # every wait bounded, by the default limits.xrt_run_timeout
    nbytes = 32 * 1024 * 4
    # per run: x goes in once (128 KiB), y comes out once (128 KiB); r, n, a, e never cross. div reads n
    # and b from one packed buffer (n‖b: one input stream per core, so that it runs on all 4 core rows):
    # neg writes n straight into its slot (an XRT sub-buffer), and b goes into the other slot with the
    # first run after set_params and stays there
    # the first run also loads the instruction streams of the contexts it opens (set_params opened div's)
    insts = sum(os.path.getsize(rt._xdna_files(s["kernel"])["insts"]) for s in rec["steps"][:2] + rec["steps"][3:])
    assert first_stats["host_to_device_bytes"] == 2 * nbytes + insts and first_stats["device_to_host_bytes"] == nbytes
    assert second and g.last_stats["host_to_device_bytes"] == nbytes
    assert g.last_stats["device_to_host_bytes"] == nbytes
    assert g.last_stats["kernel_calls"] == 5
    # new parameter values go into the slot again, and are used
    params2 = _inputs(rec["params"], 9)
    g.set_params(**params2)
    ref.set_params(**params2)
    third = g.run(**x)
    assert g.last_stats["host_to_device_bytes"] == 2 * nbytes
    np.testing.assert_allclose(third["y"], ref.run(**x)["y"], rtol=1e-6, atol=1e-6)
    assert not np.array_equal(third["y"], second["y"])
    for backend in ("ref", "host"):
        h = rt.graph("chain", backend=backend)
        h.set_params(**params)
        h.run(**x)
        assert h.last_stats["host_to_device_bytes"] == h.last_stats["device_to_host_bytes"] == 0


def test_fake_sub_buffers_share_the_parents_memory():
    """The fake's sub-buffers as XRT's (xrt_bo.cpp buffer_sub): no copy, synced through the parent
    over the sub-range only, refused outside the parent, positional arguments only."""
    to, back = fake_pyxrt.xclBOSyncDirection.XCL_BO_SYNC_BO_TO_DEVICE, fake_pyxrt.xclBOSyncDirection.XCL_BO_SYNC_BO_FROM_DEVICE
    parent = fake_pyxrt.bo(fake_pyxrt.device(0), 256, fake_pyxrt.bo.host_only, 3)
    sub = fake_pyxrt.bo(parent, 64, 128)
    assert sub.size() == 64
    parent.map()[:4] = b"host"  # written, never synced
    sub.map()[:] = bytes(range(64))
    assert bytes(parent.map()[128:192]) == bytes(range(64))  # one memory
    sub.sync(to)
    assert parent.syncs == [(to, 64, 128)]  # through the parent, the sub-range only
    assert bytes(parent.device[128:192]) == bytes(range(64)) and bytes(parent.device[:4]) == bytes(4)
    sub.device[:4] = b"npu!"  # a kernel writing the sub writes the parent's device memory
    parent.sync(back, 4, 128)
    assert bytes(parent.map()[128:132]) == b"npu!"
    with pytest.raises(RuntimeError, match="sub buffer size and offset"):
        fake_pyxrt.bo(parent, 64, 224)
    with pytest.raises(RuntimeError, match="syncing sub buffer"):
        sub.sync(to, 200, 0)  # beyond the parent
    for bad in ((parent, 64, -1), (parent, 64.0, 0)):
        with pytest.raises(TypeError):
            fake_pyxrt.bo(*bad)
    with pytest.raises(TypeError):
        fake_pyxrt.bo(parent, size=64, offset=0)  # pyxrt.cpp binds this constructor without argument names


def test_in_place_parts_start_and_end_on_cache_lines():
    from npubuild.runner.xrt_chain import fits

    kib = 128 * 1024
    assert fits(0, kib, 2 * kib) and fits(kib, kib, 2 * kib) and fits(64, 100, 164)  # the parent's end is its own
    assert not fits(4, kib, 2 * kib + 4)  # a 4-byte-aligned DMA address, but a cache line shared with the host's part
    assert not fits(0, 100, 200) and not fits(kib + 64, kib, 2 * kib) and not fits(0, 0, 64)


def test_a_tensor_feeding_a_packed_and_a_plain_consumer(built, npu):
    rt = _load(built, npu)
    rec = rt.manifest["graphs"]["fan"]
    steps = {s["outputs"][0]: s["kernel"] for s in rec["steps"]}
    # div's r‖b is one host buffer (a scalar divide: the model ranks the packed 4-row design first); mul, bound by
    # its DMA, reads a and s on two streams (mlir-aie's ml/eltwise_add layout)
    parts = {k: len(rt.manifest["kernels"][steps[k]]["targets"]["xdna"]["abi"]["buffers"][0]["parts"]) for k in ("a", "y")}
    assert parts == {"a": 2, "y": 1}, parts
    params, x = _inputs(rec["params"], 1), _inputs(rec["inputs"], 2)
    g = rt.graph("fan", backend="xrt")
    g.set_params(**params)
    first = g.run(**x)
    first_stats = g.last_stats
    out = g.run(**x)
    ref = rt.graph("fan", backend="ref")
    ref.set_params(**params)
    want = ref.run(**x)
    for name in ("y", "r"):
        np.testing.assert_allclose(out[name], want[name], rtol=1e-6, atol=1e-6)
        np.testing.assert_array_equal(first[name], out[name])
    nbytes = 32 * 1024 * 4
    # r is written by relu into div's r‖b and handed as that sub-buffer to sigmoid (its plain input); a and s
    # stay on the device for mul; b stays in its slot after the first run. In: x (and b once); out: y and r
    insts = sum(os.path.getsize(rt._xdna_files(k)["insts"]) for k in (steps["r"], steps["s"], steps["y"]))  # opened by run 1
    assert first_stats["host_to_device_bytes"] == 2 * nbytes + insts
    assert g.last_stats["host_to_device_bytes"] == nbytes and g.last_stats["device_to_host_bytes"] == 2 * nbytes
    assert g.last_stats["kernel_calls"] == 4


def _shifted(good, offsets_of_packed):
    """part_offsets with the first part of every packed buffer 64 bytes on: a wrong offset that
    still lies on a cache line and within the buffer."""

    def offsets(b):
        offs = good(b)
        return [o + 64 if i == 0 and len(offs) > 1 else o for i, o in enumerate(offs)] if offsets_of_packed else offs

    return offsets


def test_a_wrong_in_place_offset_is_caught(built, npu, monkeypatch):
    from npubuild.runner import xrt_chain, xrt_packing

    rt = _load(built, npu)
    rec = rt.manifest["graphs"]["chain"]
    params, x = _inputs(rec["params"], 1), _inputs(rec["inputs"], 2)
    ref = rt.graph("chain", backend="ref")
    ref.set_params(**params)
    want = ref.run(**x)["y"]
    nbytes = 32 * 1024 * 4

    # the producer's sub-buffer is not where the consumer's part is: the consumer does not trust it,
    # stages n through the host as it would without sub-buffers, and the answer is right
    monkeypatch.setattr(xrt_chain, "part_offsets", _shifted(xrt_packing.part_offsets, True))
    g = rt.graph("chain", backend="xrt")
    g.set_params(**params)
    g.run(**x)
    y = g.run(**x)["y"]
    np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-6)
    assert g.last_stats["host_to_device_bytes"] == 3 * nbytes and g.last_stats["device_to_host_bytes"] == 2 * nbytes

    # the whole backend agrees on the wrong offset: only the design (the fake NPU unpacks per the ABI)
    # disagrees, and the comparison with ref sees it
    monkeypatch.setattr(xrt_packing, "part_offsets", _shifted(xrt_packing.part_offsets, True))
    g = rt.graph("chain", backend="xrt")
    g.set_params(**params)
    g.run(**x)
    y = g.run(**x)["y"]
    assert g.last_stats["host_to_device_bytes"] == nbytes  # in place (x only, b was written once): the offsets agreed
    assert not np.allclose(y, want, rtol=1e-6, atol=1e-6)


def test_mlp_on_the_overlay_matches_ref_accumulators(built, npu):
    rt = _load(built, npu)
    rec = rt.manifest["graphs"]["mlp"]
    params, x = _inputs(rec["params"], 3), _inputs(rec["inputs"], 4)
    (mm,) = [s["kernel"] for s in rec["steps"] if s["kernel"].startswith("matmul")]
    acc, out = {}, {}
    for backend in ("ref", "host", "xrt"):
        g = rt.graph("mlp", backend=backend)
        g.set_params(**params)
        out[backend] = g.run(**x)["y"]
        acc[backend] = rt.kernels.get(mm, backend).last_accumulator.copy()
    np.testing.assert_array_equal(acc["xrt"], acc["ref"])
    np.testing.assert_array_equal(acc["host"], acc["ref"])
    np.testing.assert_allclose(out["xrt"], out["ref"], rtol=1e-5, atol=1e-5)
    # the weight's codes went over at set_params: a second run sends only the activation's codes
    g = rt.graph("mlp", backend="xrt")
    g.set_params(**params)
    g.run(**x)
    sent = g.last_stats["host_to_device_bytes"]
    path = str(rt._xdna_files(mm)["xclbin"])
    runs = npu.runs.count(path)
    g.run(**x)
    assert g.last_stats["host_to_device_bytes"] == sent
    abi = rt.manifest["kernels"][mm]["targets"]["xdna"]["abi"]
    assert abi["kind"] == "gemm_whole_array" and abi["dispatches_per_run"] == 1
    assert g.last_stats["gemm_tiles"] == 1 and npu.runs.count(path) == runs + 1  # one dispatch for the whole matmul
    a_codes = abi["padded"]["m"] * abi["padded"]["k"]  # the int8 codes, 8 rows padded to 64 by the runtime
    # + gelu's input h (the matmul dequantises on the host); gelu's output stays for rms_norm, gamma was uploaded once
    assert sent == a_codes + 8 * 512 * 4 == abi["bytes_detail"]["to_device"] + 8 * 512 * 4


def test_pool_evicts_least_recently_used_and_reopens(built, npu):
    rt = _load(built, npu, xrt_contexts=2)
    g = rt.graph("chain", backend="xrt")
    rec = rt.manifest["graphs"]["chain"]
    g.set_params(**_inputs(rec["params"], 1))
    x = _inputs(rec["inputs"], 2)
    want = g.run(**x)["y"]
    pool = rt.xrt_session()[2]
    kernels = [s["kernel"] for s in rec["steps"]]
    div = kernels[2]
    assert pool.keys() == kernels[-2:]  # at most two contexts; the last two used
    assert npu.alive == 2  # evicted contexts were really released
    assert pool.opened == [div, *kernels]  # div first: set_params uploaded its parameter b
    assert pool.evicted == [div, kernels[0], kernels[1], div]  # least recently used first
    np.testing.assert_array_equal(g.run(**x)["y"], want)  # reopened from the artifacts, same answer
    assert pool.opened[6:] == kernels and npu.alive == 2


def test_driver_refusal_evicts_and_retries(built, npu, monkeypatch):
    npu.driver_limit = 2  # other processes hold contexts: the driver refuses before our limit
    rt = _load(built, npu)
    g = rt.graph("chain", backend="xrt")
    rec = rt.manifest["graphs"]["chain"]
    g.set_params(**_inputs(rec["params"], 1))
    g.run(**_inputs(rec["inputs"], 2))
    pool = rt.xrt_session()[2]
    assert len(pool.keys()) == 2 and pool.limit == 6 and pool.evicted


def test_no_context_at_all_is_one_clear_error(built, npu):
    npu.driver_limit = 0
    rt = _load(built, npu)
    g = rt.graph("chain", backend="xrt")
    with pytest.raises(UserError, match="no hardware context left"):
        g.set_params(**_inputs(rt.manifest["graphs"]["chain"]["params"], 1))


def test_context_limit_by_family_and_env(built, npu, monkeypatch):
    npu.name = "RyzenAI-npu4"  # an npu2-family NPU: this build's npu1 designs are not opened on it (test_xdna_devices)
    rt = npubuild.load(built.artifacts)
    assert rt.xrt_session()[2].limit == 16
    monkeypatch.setenv("XRT_CONTEXT_CACHE_SIZE", "3")
    rt2 = npubuild.load(built.artifacts)
    assert rt2.xrt_session()[2].limit == 3


def test_auto_falls_back_and_says_why(built, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyxrt", None)  # import fails
    rt = npubuild.load(built.artifacts)
    g = rt.graph("chain", backend="auto")
    assert g.backend == "host" and g.fallback_reason == "xrt: pyxrt is not importable (`npubuild doctor` says how to install it)"
    with pytest.raises(UserError, match="pyxrt is not importable"):
        rt.graph("chain", backend="xrt").set_params(**_inputs(rt.manifest["graphs"]["chain"]["params"], 1))



def test_weight_as_data_is_quantised_per_run_on_every_backend(built, npu):
    """The reference design's rule: a matmul weight that is not a param (here dy) is dynamic."""
    rt = _load(built, npu)
    rec = rt.manifest["graphs"]["backward"]
    (mm,) = [s["kernel"] for s in rec["steps"] if s["kernel"].startswith("matmul")]
    runs = [_inputs(rec["inputs"], seed) for seed in (5, 6)]
    results = {}
    for backend in ("ref", "host", "xrt"):
        g = rt.graph("backward", backend=backend)
        g.set_params()
        results[backend] = []
        for x in runs:
            y = g.run(**x)["gw"]
            results[backend].append((y, rt.kernels.get(mm, backend).last_accumulator.copy()))
    for backend in ("host", "xrt"):
        for (y, acc), (y_ref, acc_ref) in zip(results[backend], results["ref"]):
            np.testing.assert_array_equal(acc, acc_ref)
            np.testing.assert_array_equal(y, y_ref)
    assert not np.array_equal(results["ref"][0][1], results["ref"][1][1])  # the second run used the new dy


def test_doctor_reports_the_npu(npu):
    from npubuild.cli.doctor import report_lines
    from npubuild.runner import xrt

    info = xrt.probe(fake_pyxrt)
    assert info == {"pyxrt": True, "device": "RyzenAI-npu1", "family": "npu1", "xrt_version": "2.19.0", "context_limit": 6, "missing": None}
    npu.name = "RyzenAI-npu5"
    assert xrt.probe(fake_pyxrt)["family"] == "npu2" and xrt.probe(fake_pyxrt)["context_limit"] == 16
    npu.fail_device = True
    assert "no NPU answers on device 0" in xrt.probe(fake_pyxrt)["missing"]
    report = {
        "host": {"ok": False, "error": "x"},
        "xdna": {n: {"path": None, "missing": f"no {n}"} for n in ("aiecc", "peano", "xclbinutil")},
        "pyxrt": {"path": "/x/pyxrt.so", "missing": None},
        "npu": info,
    }
    assert report_lines(report)[-1] == "NPU:          RyzenAI-npu1 (family npu1, XRT 2.19.0, hardware contexts kept open: 6)"


# ---- the xdna ABI: abi.json beside the binaries, checked before a context opens -------------------------------

RELU = "relu_f32_32x1024"
GEMM = "matmul_i8_8x256_256x512"


def _edit(built, fn) -> None:
    m = json.loads((built.artifacts / "manifest.json").read_text())
    fn(m)
    (built.artifacts / "manifest.json").write_text(json.dumps(m))


def _rewrite_abi_json(built, m, kid, fn) -> None:
    """Change abi.json and give the manifest its new hash: a self-consistent edit."""
    t = m["kernels"][kid]["targets"]["xdna"]
    path = built.artifacts / t["abi_file"]["path"]
    abi = json.loads(path.read_text())
    fn(abi)
    data = json.dumps(abi).encode()
    path.write_bytes(data)
    t["abi_file"].update(sha256=hashlib.sha256(data).hexdigest(), size=len(data))


def test_every_compiled_xdna_kernel_has_its_abi_json(built):
    m = json.loads((built.artifacts / "manifest.json").read_text())
    compiled = {kid: k for kid, k in m["kernels"].items() if k["targets"].get("xdna", {}).get("compiled")}
    assert {RELU, GEMM} <= set(compiled) and len(compiled) == len(m["kernels"])
    for kid, k in compiled.items():
        t = k["targets"]["xdna"]
        assert t["abi_file"]["path"] == f"kernels/{kid}/xdna/abi.json" and {"source", "xclbin", "insts"} <= set(t["files"])
        abi = json.loads((built.artifacts / t["abi_file"]["path"]).read_text())
        assert abi["xdna"] == t["abi"] and abi["key"] == k["key"] and abi["outputs"][0]["shape"] == k["outputs"][0]["shape"]
    from npubuild.artifacts.verify import verify

    assert verify(built.artifacts) == []


def _slot(m):
    m["kernels"][RELU]["targets"]["xdna"]["abi"]["buffers"][0]["parts"][0]["slot"] = 16


def _slot_in_both(built):
    def edit(m):
        _slot(m)
        _rewrite_abi_json(built, m, RELU, lambda abi: abi["xdna"]["buffers"][0]["parts"][0].update(slot=16))

    return edit


def _gemm_kt_in_both(built):
    """The one-dispatch GEMM's padding narrower than the kernel's N."""

    def narrow(abi):
        abi["padded"]["n"] = 256

    def edit(m):
        narrow(m["kernels"][GEMM]["targets"]["xdna"]["abi"])
        _rewrite_abi_json(built, m, GEMM, lambda abi: narrow(abi["xdna"]))

    return edit


def _gemm_drop_geometry_in_both(built):
    def drop(abi):
        abi.pop("padded")

    def edit(m):
        drop(m["kernels"][GEMM]["targets"]["xdna"]["abi"])
        _rewrite_abi_json(built, m, GEMM, lambda abi: drop(abi["xdna"]))

    return edit


XDNA_TAMPERED = {
    "manifest-abi-only": (
        lambda built: _slot,
        "chain",
        f"kernel '{RELU}': the manifest's xdna abi differs from abi.json; refusing to run it (rebuild with `doit build`)",
        f"kernel {RELU}: [xdna] the manifest's xdna abi differs from abi.json",
    ),
    "buffer-too-small-in-both": (
        _slot_in_both,
        "chain",
        f"kernel '{RELU}': xdna buffer 0 part 'x' does not fit its tensor (32768 f32 elements); refusing to run it (rebuild with `doit build`)",
        f"kernel {RELU}: [xdna] xdna buffer 0 part 'x' does not fit its tensor (32768 f32 elements)",
    ),
    "no-abi-json": (
        lambda built: lambda m: m["kernels"][RELU]["targets"]["xdna"].pop("abi_file"),
        "chain",
        f"kernel '{RELU}': the manifest names no abi.json for xdna; delete manifest.json and run `doit build`",
        f"kernel {RELU}: [xdna] the manifest names no abi.json; delete manifest.json and run `doit build` to rewrite it",
    ),
    "gemm-geometry-in-both": (
        _gemm_kt_in_both,
        "mlp",
        f"kernel '{GEMM}': its xdna abi's one-dispatch GEMM is padded to 16 x 256 x 256, smaller than the kernel's "
        "8 x 256 x 512; rebuild with `doit build`",
        None,  # the GEMM's geometry is the runner's to check: verify cannot see it
    ),
    "gemm-no-geometry-in-both": (  # an abi written before it recorded the geometry
        _gemm_drop_geometry_in_both,
        "mlp",
        f"kernel '{GEMM}': its xdna abi's one-dispatch GEMM records no padded M, K, N; rebuild with `doit build`",
        None,
    ),
}


@pytest.mark.parametrize("case", sorted(XDNA_TAMPERED))
def test_tampered_xdna_abi_is_refused_before_any_context(built, npu, case):
    edit, graph, message, problem = XDNA_TAMPERED[case]
    _edit(built, edit(built))
    from npubuild.artifacts.verify import verify

    assert [p for p in verify(built.artifacts) if "[xdna]" in p] == ([problem] if problem else [])
    rt = npubuild.load(built.artifacts, verify_files=False)
    g = rt.graph(graph, backend="xrt")
    rec = rt.manifest["graphs"][graph]
    with pytest.raises(UserError) as e:
        g.set_params(**_inputs(rec["params"], 1))
        g.run(**_inputs(rec["inputs"], 2))
    assert str(e.value) == message
    bad = GEMM if graph == "mlp" else RELU
    assert rt._xrt is None or bad not in rt._xrt[2].opened  # no hardware context for a kernel that failed its check


def test_xclbin_swapped_after_load_is_refused(built, npu, monkeypatch):
    from npubuild.runner import pinned

    # a byte-identical xclbin copied by an earlier test would run instead (harmless, but not this test)
    monkeypatch.setattr(pinned, "_COPIES", {})
    rt = npubuild.load(built.artifacts)
    files = rt.manifest["kernels"][RELU]["targets"]["xdna"]["files"]
    (built.artifacts / files["xclbin"]["path"]).write_bytes(b"another design")
    g = rt.graph("chain", backend="xrt")
    with pytest.raises(UserError) as e:
        g.set_params(**_inputs(rt.manifest["graphs"]["chain"]["params"], 1))
        g.run(**_inputs(rt.manifest["graphs"]["chain"]["inputs"], 2))
    assert str(e.value) == (
        f"kernel {RELU} [xdna xclbin]: {files['xclbin']['path']} changed since the manifest was written (sha256/size differ); refusing to use it"
    )


@pytest.mark.slow  # long; runs in CI
def test_any_xdna_field_of_the_wrong_type_or_missing_is_a_user_error(built, npu):
    """Every field of one kernel's xdna record deleted or replaced by values of other types:
    UserError or the right answer (the fake NPU runs Python only, so this runs in process)."""
    import copy

    good = json.loads((built.artifacts / "manifest.json").read_text())
    want = None
    cases, bad = 0, []

    def paths(node, prefix):
        yield prefix
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in children:
            yield from paths(v, prefix + (k,))

    params, x = _inputs(good["graphs"]["chain"]["params"], 1), _inputs(good["graphs"]["chain"]["inputs"], 2)
    for path in list(paths(good["kernels"][RELU]["targets"]["xdna"], ("kernels", RELU, "targets", "xdna")))[1:]:
        for value in ("<delete>", None, "x", [], -1, 7):
            m = copy.deepcopy(good)
            node = m
            for p in path[:-1]:
                node = node[p]
            if value == "<delete>":
                node.pop(path[-1])
            else:
                node[path[-1]] = value
            (built.artifacts / "manifest.json").write_text(json.dumps(m))
            cases += 1
            fake_pyxrt.reset()
            try:
                rt = _load(built, npu)
                g = rt.graph("chain", backend="xrt")
                g.set_params(**params)
                y = g.run(**x)["y"]
                want = y if want is None else want
                if not np.array_equal(y, want):
                    bad.append(f"{'.'.join(map(str, path))}={value!r}: a different answer")
            except UserError:
                pass
            except Exception as e:  # noqa: BLE001 - what this test looks for
                bad.append(f"{'.'.join(map(str, path))}={value!r}: {type(e).__name__}: {e}")
    assert cases > 200 and bad == []


def test_int8_gemm_propagates_nan_identically_on_every_backend(built, npu):
    rt = _load(built, npu)
    rec = rt.manifest["graphs"]["backward"]
    inputs = _inputs(rec["inputs"], 7)
    x, dy = inputs["x"], inputs["dy"]
    dy[9, 5] = np.nan  # a NaN in column 5 of the weight dy
    x[3, 7] = np.nan  # a NaN in row 7 of the activation x^T
    out = {}
    for backend in ("ref", "host", "xrt"):
        g = rt.graph("backward", backend=backend)
        g.set_params()
        out[backend] = g.run(x=x, dy=dy)["gw"]
    np.testing.assert_array_equal(out["host"], out["ref"])
    np.testing.assert_array_equal(out["xrt"], out["ref"])
    want = np.zeros((32, 48), bool)
    want[:, 5] = True
    want[7, :] = True
    np.testing.assert_array_equal(np.isnan(out["ref"]), want)


# ---- a run that never completes: bounded by limits.xrt_run_timeout ------------------------------------------------


def test_wait_takes_pyxrts_unsigned_milliseconds():
    from npubuild.core.limits import limits_from_table
    from npubuild.runner.xrt import wait_ms

    # 0 would block for ever (pyxrt: r.wait(0)); a fraction of a millisecond rounds up, not down to 0
    assert [wait_ms(t) for t in (60.0, 0.05, 0.0001, 1e12)] == [60_000, 50, 1, 2**32 - 1]
    assert limits_from_table({"xrt_run_timeout": 2.5}, "pyproject.toml").xrt_run_timeout == 2.5
    for bad in (0, -1, "60", True, float("inf")):
        with pytest.raises(UserError, match="limits.xrt_run_timeout must be a positive number of seconds"):
            limits_from_table({"xrt_run_timeout": bad}, "pyproject.toml")


def test_a_hung_run_times_out_naming_the_limit_and_recovers(built, npu, monkeypatch):
    from npubuild.runner.xrt import HUNG_HELP

    pp = built.root / "pyproject.toml"
    pp.write_text(pp.read_text() + "\n[tool.npubuild.limits]\nxrt_run_timeout = 0.05\n")
    monkeypatch.chdir(built.root)  # the project npubuild.load reads its settings from
    rt = _load(built, npu)
    rec = rt.manifest["graphs"]["chain"]
    g = rt.graph("chain", backend="xrt")
    g.set_params(**_inputs(rec["params"], 1))
    x = _inputs(rec["inputs"], 2)
    want = g.run(**x)["y"]
    hung = [s["kernel"] for s in rec["steps"]][1]
    path = str(rt._xdna_files(hung)["xclbin"])
    program = npu.programs[path]
    npu.programs[path] = lambda bufs: fake_pyxrt.HANG  # the NPU never answers
    t0 = time.monotonic()
    with pytest.raises(UserError) as e:
        g.run(**x)
    assert time.monotonic() - t0 < 5
    assert str(e.value) == (
        f"kernel {hung}: the NPU run did not finish within 0.05 s (limits.xrt_run_timeout in [tool.npubuild.limits]); "
        f"{HUNG_HELP}; if the kernel really runs this long, raise the limit. Its hardware context was closed"
    )
    assert "xrt-smi examine" in HUNG_HELP and npu.waits[-1] == 50 and 0 not in npu.waits
    pool = rt.xrt_session()[2]
    npu.programs[path] = program  # the NPU was reset
    np.testing.assert_array_equal(g.run(**x)["y"], want)
    assert pool.dropped == [hung] and pool.opened.count(hung) == 2  # the hung context was not reused


# ---- mapped buffers: one copy out, never an alias of device memory -----------------------------------------------


def test_results_are_copied_once_out_of_mapped_buffers(built, npu, monkeypatch):
    def refuse(*args):
        raise AssertionError("bo.read/bo.write: the backend moves data through bo.map()")

    monkeypatch.setattr(fake_pyxrt.bo, "read", refuse)
    monkeypatch.setattr(fake_pyxrt.bo, "write", refuse)
    rt = _load(built, npu)
    rec = rt.manifest["graphs"]["chain"]
    params = _inputs(rec["params"], 1)
    g = rt.graph("chain", backend="xrt")
    g.set_params(**params)
    x1, x2 = _inputs(rec["inputs"], 2), _inputs(rec["inputs"], 3)
    y1 = g.run(**x1)["y"]
    kept = y1.copy()
    y2 = g.run(**x2)["y"]  # the same step output buffer, overwritten by the device
    assert not np.array_equal(y1, y2)
    np.testing.assert_array_equal(y1, kept)  # y1 is the caller's own copy, not a view of that buffer
    ref = rt.graph("chain", backend="ref")
    ref.set_params(**params)
    np.testing.assert_allclose(y2, ref.run(**x2)["y"], rtol=1e-6, atol=1e-6)
    # the GEMM reads its C tiles through views; the accumulators are still exact copies
    mlp = rt.manifest["graphs"]["mlp"]
    (mm,) = [s["kernel"] for s in mlp["steps"] if s["kernel"].startswith("matmul")]
    acc = {}
    for backend in ("ref", "xrt"):
        gm = rt.graph("mlp", backend=backend)
        gm.set_params(**_inputs(mlp["params"], 3))
        gm.run(**_inputs(mlp["inputs"], 4))
        acc[backend] = rt.kernels.get(mm, backend).last_accumulator
    np.testing.assert_array_equal(acc["xrt"], acc["ref"])


# ---- the driver refuses a context: every spelling of "none left", retried a bounded number of times ---------------

NOAVAIL_EINVAL = "DRM_IOCTL_AMDXDNA_CREATE_HWCTX IOCTL failed (err=-22): Invalid argument"  # what XRT says for it
NOAVAIL_STATUS = "create_hw_context: CREATE_HWCTX failed: MGMT_ERT_NOAVAIL (0x2000003)"  # mlir-aie #3526's words
REFUSALS = {"enoent": fake_pyxrt.ENOENT, "noavail-einval": NOAVAIL_EINVAL, "noavail-status": NOAVAIL_STATUS}


@pytest.mark.parametrize("refusal", sorted(REFUSALS))
def test_every_refusal_spelling_evicts_and_retries(built, npu, refusal):
    npu.refusal = REFUSALS[refusal]
    npu.driver_limit = 2  # other processes hold the rest
    rt = _load(built, npu)
    rec = rt.manifest["graphs"]["chain"]
    g = rt.graph("chain", backend="xrt")
    g.set_params(**_inputs(rec["params"], 1))
    g.run(**_inputs(rec["inputs"], 2))
    pool = rt.xrt_session()[2]
    assert len(pool.keys()) == 2 and pool.evicted and npu.alive == 2


@pytest.mark.parametrize("refusal", sorted(REFUSALS))
def test_no_context_in_any_spelling_is_one_clear_error(built, npu, refusal):
    npu.refusal = REFUSALS[refusal]
    npu.driver_limit = 0
    rt = _load(built, npu)
    with pytest.raises(UserError) as e:
        rt.graph("chain", backend="xrt").set_params(**_inputs(rt.manifest["graphs"]["chain"]["params"], 1))
    msg = str(e.value)
    assert "the NPU has no hardware context left" in msg and REFUSALS[refusal] in msg
    assert ("more columns than the NPU has free" in msg) == (refusal == "noavail-einval")


def test_other_context_failures_are_not_retried(built, npu):
    npu.refusal = "DRM_IOCTL_AMDXDNA_CREATE_HWCTX IOCTL failed (err=-13): Permission denied"
    npu.driver_limit = 0
    rt = _load(built, npu)
    with pytest.raises(RuntimeError, match="Permission denied"):
        rt.graph("chain", backend="xrt").set_params(**_inputs(rt.manifest["graphs"]["chain"]["params"], 1))
    assert npu.created == 0


def test_retries_are_bounded_by_the_contexts_held():
    from npubuild.runner.xrt import ContextPool

    calls, refuse = [], [False]

    def opener(key):
        calls.append(key)
        if refuse[0]:
            raise RuntimeError(NOAVAIL_STATUS)
        return types.SimpleNamespace(key=key, closed=False)

    pool = ContextPool(4, opener)
    pool.get("a"), pool.get("b")
    refuse[0] = True  # another process takes every context we free
    with pytest.raises(UserError, match="no hardware context left"):
        pool.get("c")
    assert calls == ["a", "b", "c", "c", "c"] and pool.evicted == ["a", "b"]  # 1 attempt + 1 per context closed


# ---- the GEMM's geometry is the ABI's, not recomputed from K x N --------------------------------------------------

MATMUL_ONLY = """\
graphs:
  mm:
    inputs: {x: {shape: [8, 256]}}
    params: {w: {shape: [256, 512]}}
    targets: [ref, xdna]
    nodes:
      h: {op: matmul, inputs: [x, w], dtype: i8}
    outputs: [h]
"""


def _overlay_in_both(p, kid, device, cols):
    """The kernel's abi (manifest and abi.json) as the build writes it for an overlay of ``cols``
    columns on ``device``: what a build that spreads over another width of the device records."""
    from npubuild.emitters.aie.devices import DEVICES
    from npubuild.emitters.aie.gemm import Overlay, check_overlay
    from npubuild.ops.gemm_layout import overlay_geometry

    m = json.loads((p.artifacts / "manifest.json").read_text())
    rec = m["kernels"][kid]
    old = rec["targets"]["xdna"]["abi"]
    a, b = rec["inputs"][0]["shape"], rec["inputs"][1]["shape"]
    # the build gives this shape the one-dispatch design; the blocked overlay (the fallback for shapes
    # that design cannot take) is put in its place, at a width that recomputing from K x N without the
    # device (the old runner) would not give
    d, kt, default_cols = overlay_geometry(a[-1], b[1])
    assert old["device"] == device and old["kind"] == "gemm_whole_array" and default_cols != cols, "pick another width"
    ov = Overlay(kid, DEVICES[device], d, kt, cols, int(np.prod(a[:-1])), a[-1], b[1], tuple(a), tuple(b), fallback="test")
    check_overlay(ov)
    abi = json.loads(json.dumps(ov.abi()))
    rec["targets"]["xdna"]["abi"] = abi
    _rewrite_abi_json(p, m, kid, lambda j: j.update(xdna=abi))
    (p.artifacts / "manifest.json").write_text(json.dumps(m))
    return ov


def _drive(p, npu, graph, device, cols):
    rt0 = npubuild.load(p.artifacts)
    rec = rt0.manifest["graphs"][graph]
    (kid,) = [s["kernel"] for s in rec["steps"] if s["kernel"].startswith("matmul")]
    ov = _overlay_in_both(p, kid, device, cols)
    rt = _load(p, npu)
    npu_run = emulated_npu(ov)  # asserts the buffers are this overlay's sizes

    def gemm(bufs):
        c = npu_run(np.frombuffer(bufs[0], np.int8), np.frombuffer(bufs[1], np.int8))
        bufs[2][:] = np.asarray(c, np.int32).tobytes()

    path = str(rt._xdna_files(kid)["xclbin"])
    npu.programs[path] = gemm
    params, x = _inputs(rec["params"], 3), _inputs(rec["inputs"], 4)
    acc = {}
    for backend in ("ref", "xrt"):
        g = rt.graph(graph, backend=backend)
        g.set_params(**params)
        g.run(**x)
        acc[backend] = rt.kernels.get(kid, backend).last_accumulator.copy()
        stats = g.last_stats
    np.testing.assert_array_equal(acc["xrt"], acc["ref"])
    assert rt.kernels.get(kid, "xrt").gemm.nn == cols * 64
    n_blocks = -(-rt.manifest["kernels"][kid]["inputs"][1]["shape"][1] // (cols * 64))
    assert stats["gemm_tiles"] == n_blocks and npu.runs.count(path) == n_blocks  # one dispatch per (M, K, N) block


def test_gemm_on_npu2_drives_the_abis_eight_columns(project, fake_toolchain, npu):  # noqa: F811
    npu.name = "RyzenAI-npu4"
    p = project(None, MATMUL_ONLY)
    p.doit("build", env={**fake_toolchain["env"], "NPUBUILD_XDNA_DEVICE": "npu2"})
    _drive(p, npu, "mm", "npu2", 8)  # N = 512 on the device's 8 columns: one dispatch, where 4 columns take two


def test_gemm_on_a_narrower_partition_drives_the_abis_columns(built, npu):
    _drive(built, npu, "mlp", "npu1", 2)  # the npu1_2col partition: four N-blocks of 128
