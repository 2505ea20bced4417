"""The xdna target inside `doit build`.

Without a toolchain (this machine, CI) every aie.mlir is emitted, one line says
what is missing, the manifest marks the kernels as not compiled, and
xdna_strict turns that into an error. With the aiecc / Peano / xclbinutil test
doubles of test_xdna_driver.py (they compile nothing: this checks the build's
plumbing, not the NPU toolchain) compile tasks run, outputs land in the
manifest, the store is used, the GEMM microkernel object is linked, and a
toolchain change recompiles.
"""
from __future__ import annotations

import json
import os

import pytest

from npubuild.emitters.aie.devices import NO_XDNA_DESIGN

from .test_xdna_driver import _FAKE_CLANG_COMPILE, fake_aiecc_compiler
from .test_xdna_toolchain import clean_env, fake_aie_opt, fake_clang, fake_xclbinutil  # noqa: F401  (clean_env is a fixture)

KERNELS = """\
kernels:
  act:
    op: relu
    targets: [ref, host, xdna]
    shapes:
      - [32, 1024]
  norm:
    op: layer_norm
    targets: [ref, xdna]
    shapes:
      - {x: [64, 256], gamma: [256], beta: [256]}
  gemm:
    op: matmul
    dtype: i8
    targets: [ref, xdna]
    shapes:
      - {a: [64, 200], b: [200, 300]}
"""


def _manifest(p):
    return json.loads((p.artifacts / "manifest.json").read_text())


def _env_without_tools(clean_env):
    env = dict(os.environ)
    for v in ("MLIR_AIE_INSTALL_DIR", "PEANO_INSTALL_DIR", "XILINX_XRT", "AIE_XCLBINUTIL", "NPUBUILD_AIE_INCLUDE"):
        env.pop(v, None)
    return env


def test_without_toolchain_emits_every_design_and_says_so_once(project, clean_env):
    p = project(KERNELS)
    r = p.doit("build", env=_env_without_tools(clean_env))
    lines = [ln for ln in r.out.splitlines() if ln.startswith("xdna:")]
    assert len(lines) == 1 and lines[0].startswith("xdna: 3 kernels emitted, not compiled: no aiecc (mlir-aie)"), lines
    assert lines[0].endswith("; `npubuild doctor` says how to install") and len(lines[0]) < 200  # one short line
    assert "pip install mlir_aie" in p.npubuild("doctor", env=_env_without_tools(clean_env), check=False).out
    m = _manifest(p)
    for kid, k in m["kernels"].items():
        x = k["targets"]["xdna"]
        assert x["compiled"] is False and set(x["files"]) == {"source"}, kid
        assert "no aiecc" in x["not_compiled"]
        assert (p.artifacts / x["files"]["source"]["path"]).read_text().startswith(f"// npubuild xdna kernel {kid}")
    norm = m["kernels"]["layer_norm_f32_64x256_256_256"]["targets"]["xdna"]["abi"]
    assert [b["name"] for b in norm["buffers"]] == ["x", "gamma_beta", "y"]  # gamma‖beta packed
    assert p.npubuild("verify").rc == 0
    again = p.doit("build", env=_env_without_tools(clean_env))
    assert again.executed("emit:") == [] and "(nothing changed since the last build)" in again.out


def test_strict_makes_a_missing_toolchain_an_error(project, clean_env):
    p = project(KERNELS)
    env = {**_env_without_tools(clean_env), "NPUBUILD_XDNA_STRICT": "1"}
    r = p.doit("build", env=env, check=False)
    assert r.rc != 0
    assert "xdna toolchain: no aiecc (mlir-aie)" in r.out + r.err and "xdna_strict" in r.out + r.err
    flag = p.npubuild("build", "--xdna-strict", env=_env_without_tools(clean_env), check=False)
    assert flag.rc != 0 and "xdna toolchain: no aiecc (mlir-aie)" in flag.out + flag.err
    assert p.doit("build", env=_env_without_tools(clean_env)).rc == 0  # not strict: emitted only


def test_a_shape_that_does_not_fit_fails_at_spec_time(project):
    p = project("kernels:\n  big:\n    op: softmax\n    targets: [ref, xdna]\n    shapes:\n      - [4, 20000]\n")
    r = p.doit("build", check=False)
    assert r.rc != 0
    assert "specs/kernels/k.yaml:6: kernel family 'big': not supported on xdna: softmax_f32_4x20000: one row needs" in r.out + r.err
    assert "an AIE core has 65536" in r.out + r.err


@pytest.fixture
def fake_toolchain(tmp_path, clean_env):
    return make_fake_toolchain(tmp_path, _env_without_tools(clean_env))


def make_fake_toolchain(tmp_path: Path, env: dict) -> dict:
    """Fake aiecc, aie-opt, Peano and xclbinutil under ``tmp_path``; ``env`` (without real tools) gets their paths."""
    prefix = tmp_path / "mlir_aie"
    fake_aiecc_compiler(prefix / "bin", "legacy")
    fake_aie_opt(prefix / "bin", 20260401)  # legacy CLI, newest MLIR: aie.runtime_sequence, func-level link_with
    peano = tmp_path / "llvm-aie"
    fake_clang(peano, extra=_FAKE_CLANG_COMPILE)
    fake_xclbinutil(tmp_path / "xrt" / "bin")
    inc = tmp_path / "include"
    for arch in ("aie2", "aie2p"):
        (inc / "aie_kernels" / arch).mkdir(parents=True)
        (inc / "aie_kernels" / arch / "mm.cc").write_text("// mm\n")
    (inc / "aie_api").mkdir()
    env = dict(env)
    env.update(
        MLIR_AIE_INSTALL_DIR=str(prefix), PEANO_INSTALL_DIR=str(peano), XILINX_XRT=str(tmp_path / "xrt"),
        NPUBUILD_AIE_INCLUDE=str(inc), FAKE_AIECC_RECORD=str(tmp_path / "aiecc.jsonl"),
    )
    return {"env": env, "record": tmp_path / "aiecc.jsonl", "mm": inc / "aie_kernels" / "aie2" / "mm.cc"}


def test_with_a_toolchain_compiles_links_and_caches(project, fake_toolchain):
    p = project(KERNELS)
    env = fake_toolchain["env"]
    r = p.doit("build", env=env)
    assert r.summary["compiled"] == 4  # relu on host + 3 xdna designs
    assert not [ln for ln in r.out.splitlines() if ln.startswith("xdna:")]
    m = _manifest(p)
    gemm = m["kernels"]["matmul_i8_64x200_200x300"]["targets"]["xdna"]
    assert gemm["compiled"] is True and set(gemm["files"]) == {"source", "xclbin", "insts", "resources"}
    # this aiecc double links no core ELFs: every core is there, measured by nothing
    assert gemm["resources"] and all(c["stack_bytes"] is None and c["not_measured"] for c in gemm["resources"].values())
    records = [json.loads(ln) for ln in fake_toolchain["record"].read_text().splitlines()]
    calls = [c for c in records if c["argv"][-1:] == ["aie.mlir"]]
    probes = [c["argv"] for c in records if c not in calls]
    assert probes == [["--aie-version"], ["--version"], ["--help"]]  # once: the fingerprint is cached
    assert len(calls) == 3
    linked = [c for c in calls if any(f.startswith("mm_aie2_i8_i32_") and f.endswith(".o") for f in c["files"])]
    assert len(linked) == 1  # the GEMM got its microkernel object (named by its tile), copied by basename
    assert {c["cwd"] for c in calls}.__len__() == 3  # one temp dir per compile
    assert p.npubuild("verify").rc == 0

    # a new mm.cc changes only the GEMM's key
    fake_toolchain["mm"].write_text("// mm v2\n")
    r2 = p.doit("build", env=env)
    assert r2.summary["compiled"] == 1, r2.out

    # the same designs on another machine with a cold doit database: all from the store
    (p.root / ".npubuild.doit.db").unlink()
    (p.root / ".npubuild.noop-stamp").unlink(missing_ok=True)
    for k in m["kernels"].values():
        for f in k["targets"].get("xdna", {}).get("files", {}).values():
            if not f["path"].endswith("aie.mlir"):
                (p.artifacts / f["path"]).unlink()
    r3 = p.doit("build", env=env)
    assert r3.summary["compiled"] == 0 and r3.summary["store"] == 4, r3.out


def test_failed_aiecc_fails_the_build_with_the_log_tail(project, fake_toolchain):
    p = project("kernels:\n  act:\n    op: relu\n    targets: [ref, xdna]\n    shapes:\n      - [1024]\n")
    r = p.doit("build", env={**fake_toolchain["env"], "FAKE_AIECC_MODE": "fail"}, check=False)
    assert r.rc != 0
    out = r.out + r.err
    assert "kernel relu_f32_1024: xdna compile" in out and "FAKE-ERR-40" in out
    log = p.artifacts / "kernels" / "relu_f32_1024" / "xdna" / "build.log"
    assert "FAKE-ERR-01" in log.read_text()


def test_ops_json_shows_host_and_xdna_for_every_op(project):
    p = project("kernels:\n  a:\n    op: relu\n    shapes:\n      - [4]\n")
    doc = json.loads(p.npubuild("ops", "--json").out)
    assert len(doc["ops"]) == 86
    from npubuild.targets.xdna.rules import NO_DESIGN

    for o in doc["ops"]:
        assert o["targets"]["host"]["status"] == "emitted", o["name"]
        want = "refused at spec time" if o["name"] in NO_DESIGN else "emitted"
        assert o["targets"]["xdna"]["status"] == want, o["name"]
        assert o["targets"]["xdna"]["design"], o["name"]


def test_device_per_family_and_graph(project):
    kernels = (
        "kernels:\n"
        "  strix:\n    op: relu\n    targets: [ref, xdna]\n    device: npu2\n    shapes:\n      - [32, 1024]\n"
        "  phoenix:\n    op: neg\n    targets: [ref, xdna]\n    shapes:\n      - [32, 1024]\n"
    )
    graphs = (
        "graphs:\n  g:\n    inputs: {x: {shape: [8, 256]}}\n    targets: [ref, xdna]\n    device: npu2\n"
        "    nodes:\n      y: {op: exp, inputs: [x]}\n    outputs: [y]\n"
    )
    p = project(kernels, graphs)
    p.doit("build")
    m = _manifest(p)
    devices = {kid: k["targets"]["xdna"]["abi"]["partition"] for kid, k in m["kernels"].items()}
    assert devices == {"relu_f32_32x1024": "npu2", "neg_f32_32x1024": "npu1", "exp_f32_8x256": "npu2"}
    text = (p.artifacts / m["kernels"]["relu_f32_32x1024"]["targets"]["xdna"]["files"]["source"]["path"]).read_text()
    assert "aie.device(npu2)" in text and text.count("aie.core(") == 32  # 8 columns x 4 core rows


@pytest.mark.parametrize(
    "body,message",
    [
        ("  a:\n    op: relu\n    targets: [ref, xdna]\n    device: npu3\n    shapes:\n      - [4]\n",
         "specs/kernels/k.yaml:5: device of kernel family 'a' must be npu1 (Phoenix / Hawk Point) or npu2 (Strix / Strix Halo / Krackan), or a list of them, got 'npu3' (did you mean 'npu2'?)"),
        ("  a:\n    op: relu\n    device: npu2\n    shapes:\n      - [4]\n",
         "specs/kernels/k.yaml:4: device of kernel family 'a' applies to the xdna target, which is not in its targets; add xdna to targets or remove device"),
        ("  a:\n    op: relu\n    targets: [ref, xdna]\n    device: [npu2, npu2]\n    shapes:\n      - [4]\n",
         "specs/kernels/k.yaml:5: device of kernel family 'a' lists npu2 twice; name each device once"),
        ("  a:\n    op: relu\n    targets: [ref, xdna]\n    device: []\n    shapes:\n      - [4]\n",
         "specs/kernels/k.yaml:5: device of kernel family 'a' is an empty list; name one or more of npu1, npu2, or remove device"),
        ("  a:\n    op: relu\n    targets: [ref, xdna]\n    device: [npu1, npu7]\n    shapes:\n      - [4]\n",
         "specs/kernels/k.yaml:5: device of kernel family 'a' must be npu1 (Phoenix / Hawk Point) or npu2 (Strix / Strix Halo / Krackan), or a list of them, got 'npu7'"),
    ],
    ids=["unknown", "without-xdna", "twice", "empty", "unknown-in-list"],
)
def test_device_errors(project, body, message):
    p = project("kernels:\n" + body)
    r = p.doit("build", check=False)
    assert r.rc != 0
    assert message in r.out + r.err, r.out + r.err


LIBRARY_KERNELS = """\
kernels:
  act:
    op: gelu
    dtype: bf16
    attrs: {approximate: tanh}
    targets: [ref, xdna]
    shapes:
      - [64, 4096]
  sum:
    op: add
    dtype: bf16
    targets: [ref, xdna]
    shapes:
      - {a: [64, 4096], b: [64, 4096]}
  own:
    op: relu
    dtype: bf16
    targets: [ref, xdna]
    xdna_body: generated
    shapes:
      - [64, 4096]
"""


def _library_sources(fake: dict) -> dict:
    """aie_kernels sources and the AIE2 LUT runtime beside the fake toolchain's include directory."""
    inc = fake["mm"].parent.parent.parent
    for src in ("aie2/gelu.cc", "aie2/add.cc", "aie2/relu.cc"):
        (inc / "aie_kernels" / src).write_text(f"// {src}\n")
    lut = inc.parent / "aie_runtime_lib" / "AIE2" / "lut_based_ops.cpp"
    lut.parent.mkdir(parents=True)
    lut.write_text("// luts\n")
    return {"gelu": inc / "aie_kernels" / "aie2" / "gelu.cc", "lut": lut}


def test_mlir_aie_bodies_link_the_kernels_and_key_on_their_sources(project, fake_toolchain):
    p = project(LIBRARY_KERNELS)
    p.write("pyproject.toml", '[tool.npubuild]\ntargets = ["ref", "host"]\nxdna_bodies = "mlir-aie"\n')
    src = _library_sources(fake_toolchain)
    env = fake_toolchain["env"]
    r = p.doit("build", env=env)
    assert r.summary["compiled"] == 3, r.out
    calls = [json.loads(ln) for ln in fake_toolchain["record"].read_text().splitlines()]
    calls = [c for c in calls if c["argv"][-1:] == ["aie.mlir"]]
    linked = sorted(f for c in calls for f in c["files"] if f.startswith("aiek_"))
    assert linked == ["aiek_aie2_add_bf16.o", "aiek_aie2_gelu_bf16.a"]  # relu keeps its generated body: nothing linked
    m = _manifest(p)
    abi = {kid: k["targets"]["xdna"]["abi"] for kid, k in m["kernels"].items()}
    gelu = abi["gelu_bf16_64x4096_approximate-tanh"]
    assert gelu["body"]["source"] == "mlir-aie kernel" and gelu["body"]["symbol"] == "gelu_bf16"
    assert gelu["summary"]["cores"] == 16 and gelu["summary"]["body"]["lanes"] == 16
    assert abi["relu_bf16_64x4096"]["body"]["source"] == "generated vector"
    text = (p.artifacts / m["kernels"]["add_bf16_64x4096_64x4096"]["targets"]["xdna"]["files"]["source"]["path"]).read_text()
    assert 'link_with = "aiek_aie2_add_bf16.o"' in text
    listing = p.npubuild("list").out
    assert "16 cores, gelu.cc, 1 dispatch" in listing, listing
    assert p.npubuild("verify").rc == 0

    # the kernel's source and the LUT runtime are in the key: only gelu recompiles
    src["gelu"].write_text("// gelu v2\n")
    assert p.doit("build", env=env).summary["compiled"] == 1
    src["lut"].write_text("// luts v2\n")
    assert p.doit("build", env=env).summary["compiled"] == 1
    # back to generated bodies for the project: the two library designs are emitted anew
    p.write("pyproject.toml", '[tool.npubuild]\ntargets = ["ref", "host"]\nxdna_bodies = "generated"\n')
    r = p.doit("build", env=env)
    assert r.summary["compiled"] == 2 and sorted(r.executed("emit:")) == [
        "emit:add_bf16_64x4096_64x4096@xdna", "emit:gelu_bf16_64x4096_approximate-tanh@xdna"]
    # the default, auto: gelu's generated body is scalar on npu1, so mlir-aie's kernel; add's is vector<16>
    p.write("pyproject.toml", '[tool.npubuild]\ntargets = ["ref", "host"]\n')
    r = p.doit("build", env=env)
    assert r.summary["compiled"] == 0 and r.summary["store"] == 1, r.out  # gelu's library design is in the store
    abi = {kid: k["targets"]["xdna"]["abi"]["body"]["source"] for kid, k in _manifest(p)["kernels"].items()}
    assert abi == {"gelu_bf16_64x4096_approximate-tanh": "mlir-aie kernel", "add_bf16_64x4096_64x4096": "generated vector",
                   "relu_bf16_64x4096": "generated vector"}


@pytest.mark.parametrize(
    "body,message",
    [
        ("  a:\n    op: relu\n    targets: [ref, xdna]\n    xdna_body: mlir_aie\n    shapes:\n      - [4]\n",
         "specs/kernels/k.yaml:5: xdna_body of kernel family 'a' must be auto, generated, mlir-aie (docs/xdna-kernels.md), got 'mlir_aie' (did you mean 'mlir-aie'?)"),
        ("  a:\n    op: relu\n    xdna_body: mlir-aie\n    shapes:\n      - [4]\n",
         "specs/kernels/k.yaml:4: xdna_body of kernel family 'a' applies to the xdna target, which is not in its targets"),
        ("  a:\n    op: relu\n    targets: [ref, xdna]\n    xdna_body: mlir-aie\n    shapes:\n      - [4]\n"
         "  b:\n    op: relu\n    targets: [ref, xdna]\n    xdna_body: generated\n    shapes:\n      - [4]\n",
         "kernel relu_f32_4 is wanted on xdna with xdna_body mlir-aie by kernel family 'a' (specs/kernels/k.yaml:2) and "
         "generated by kernel family 'b' (specs/kernels/k.yaml:8)"),
    ],
    ids=["unknown", "without-xdna", "conflict"],
)
def test_xdna_body_errors(project, body, message):
    r = project("kernels:\n" + body).doit("build", check=False)
    assert r.rc != 0 and message in r.out + r.err, r.out + r.err


def test_xdna_bodies_config_is_checked(project):
    p = project("kernels:\n  a:\n    op: relu\n    shapes:\n      - [4]\n")
    p.write("pyproject.toml", '[tool.npubuild]\nxdna_bodies = "vendor"\n')
    r = p.doit("build", check=False)
    assert r.rc != 0 and "xdna_bodies (NPUBUILD_XDNA_BODIES) must be 'auto', 'generated', 'mlir-aie', got 'vendor'" in r.out + r.err


def test_bf16_matmul_builds_with_the_bf16_microkernel(project, fake_toolchain):
    p = project("kernels:\n  mm:\n    op: matmul\n    dtype: bf16\n    targets: [ref, host, xdna]\n    shapes:\n"
                "      - {a: [512, 512], b: [512, 512]}\n")
    r = p.doit("build", env=fake_toolchain["env"])
    assert r.summary["compiled"] == 2, r.out
    calls = [json.loads(ln) for ln in fake_toolchain["record"].read_text().splitlines()]
    linked = [f for c in calls if c["argv"][-1:] == ["aie.mlir"] for f in c["files"] if f.startswith("mm_")]
    assert linked == ["mm_aie2_bf16_f32_64x32x64.o"]
    abi = _manifest(p)["kernels"]["matmul_bf16_512x512_512x512"]["targets"]["xdna"]["abi"]
    assert abi["dtype"] == "bf16" and abi["cores"] == 16 and abi["dispatches_per_run"] == 1
    assert abi["microkernel"]["defines"][:1] == ["-Dbf16_f32_ONLY"]
    assert "16 cores, mm.cc, 1 dispatch" in p.npubuild("list").out
    assert p.npubuild("verify").rc == 0


def test_auto_keeps_the_generated_body_when_the_installed_mlir_aie_lacks_the_kernel(project, fake_toolchain):
    # this fake mlir-aie ships mm.cc only
    kernels = "kernels:\n  act:\n    op: gelu\n    dtype: bf16\n    attrs: {approximate: tanh}\n    targets: [ref, xdna]\n    shapes:\n      - [64, 4096]\n"
    p = project(kernels)
    env = fake_toolchain["env"]
    assert p.doit("build", env=env).summary["compiled"] == 1
    body = _manifest(p)["kernels"]["gelu_bf16_64x4096_approximate-tanh"]["targets"]["xdna"]["abi"]["body"]
    assert body["source"] == "scalar"
    assert body["not_used"] == "mlir-aie's kernel is not used: the installed mlir-aie has no aie_kernels/aie2/gelu.cc"
    assert "16 cores, scalar, 1 dispatch" in p.npubuild("list", env=env).out
    # asked for explicitly, the missing kernel is an error naming the file and the way out
    p.write("pyproject.toml", '[tool.npubuild]\ntargets = ["ref", "host"]\nxdna_bodies = "mlir-aie"\n')
    r = p.doit("build", env=env, check=False)
    out = r.out + r.err
    assert r.rc != 0 and "aie_kernels/aie2/gelu.cc does not exist" in out and 'use xdna_bodies = "generated"' in out
