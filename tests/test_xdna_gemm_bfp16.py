"""xdna_bf16_mmul = "bfp16": a bf16 GEMM on npu2 runs aie2p/mm.cc's 8x8x8 mmul emulated with bfp16
(-DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16). The option's parsing, the planner's tiles, the define in
the compile command and the object's identity, the roofline's MAC rate, and the numerics: the emitted
design simulated with the bfp16 model of one mm.cc call (npubuild.emitters.aie.gemm_bfp16) against the
model of the whole product, bit for bit, and against the f32 oracle within the documented bound."""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from npubuild.core.config import load_config
from npubuild.core.constants import numpy_dtype
from npubuild.core.errors import UserError
from npubuild.emitters.aie import design_for, emit, gemm_bfp16
from npubuild.emitters.aie.gemm_whole import effective_bf16_mmul, whole_array_problems
from npubuild.specfile.instances import make_instance

from . import design_sim_gemm as sim
from .test_commands import _json
from .test_xdna_build import _env_without_tools, _manifest, make_fake_toolchain
from .test_xdna_toolchain import clean_env  # noqa: F401  (a fixture)

BF16 = numpy_dtype("bf16")
DEFINE = "-DAIE_API_EMULATE_BFLOAT16_MMUL_WITH_BFP16"
OPTS = {"runtime_sequence": "aie.runtime_sequence", "link_with": "func"}


def mm(a, b, dtype="bf16"):
    return make_instance("matmul", dtype, [a, b], {})


# ---- the option --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ['xdna_bf16_mmul = "bf16"', 'xdna_bf16_mmul = "BFP16"'])
def test_a_bad_value_is_one_message_naming_the_file(tmp_path, monkeypatch, line):
    monkeypatch.delenv("NPUBUILD_XDNA_BF16_MMUL", raising=False)
    (tmp_path / "pyproject.toml").write_text(f"[tool.npubuild]\n{line}\n")
    with pytest.raises(UserError) as e:
        load_config(tmp_path)
    got = line.split(" = ")[1].strip('"')
    assert str(e.value) == (f"{tmp_path / 'pyproject.toml'}: xdna_bf16_mmul (NPUBUILD_XDNA_BF16_MMUL) must be 'native', 'bfp16', "
                            f"got {got!r} (docs/xdna-gemm.md)")


def test_a_non_string_is_the_type_message(tmp_path, monkeypatch):
    monkeypatch.delenv("NPUBUILD_XDNA_BF16_MMUL", raising=False)
    (tmp_path / "pyproject.toml").write_text("[tool.npubuild]\nxdna_bf16_mmul = 1\n")
    with pytest.raises(UserError, match=r'xdna_bf16_mmul must be a string such as "native", got 1'):
        load_config(tmp_path)


def test_default_project_value_and_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("NPUBUILD_XDNA_BF16_MMUL", raising=False)
    (tmp_path / "pyproject.toml").write_text("[tool.npubuild]\n")
    assert load_config(tmp_path).xdna_bf16_mmul == "native"
    (tmp_path / "pyproject.toml").write_text('[tool.npubuild]\nxdna_bf16_mmul = "bfp16"\n')
    assert load_config(tmp_path).xdna_bf16_mmul == "bfp16"
    monkeypatch.setenv("NPUBUILD_XDNA_BF16_MMUL", "native")
    assert load_config(tmp_path).xdna_bf16_mmul == "native"
    monkeypatch.setenv("NPUBUILD_XDNA_BF16_MMUL", "fast")
    with pytest.raises(UserError, match="must be 'native', 'bfp16', got 'fast'"):
        load_config(tmp_path)


def test_the_emit_options_carry_it_for_bf16_matmuls_only():
    from npubuild.engine.plan import Plan

    cfg = type("Cfg", (), {"xdna_bf16_mmul": "bfp16", "xdna_device": "npu2", "xdna_bodies": "auto"})()
    insts = {"g": mm((64, 64), (64, 64)), "q": mm((64, 64), (64, 64), "i8"),
             "r": make_instance("relu", "bf16", [(64,)], {})}
    plan = Plan(cfg, None, insts, {}, {})
    assert plan.xdna_options("g") == {"device": "npu2", "body": "auto", "bf16_mmul": "bfp16"}
    assert plan.xdna_options("q") == plan.xdna_options("r") == {"device": "npu2", "body": "auto"}
    cfg.xdna_bf16_mmul = "native"  # the default adds nothing: every key stays what it was
    assert plan.xdna_options("g") == {"device": "npu2", "body": "auto"}


# ---- the planner -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("m, k, n", [(512, 512, 512), (100, 300, 200), (1, 4096, 1024), (8, 1000, 300)])
def test_npu2_bf16_takes_the_8x8x8_mmul_and_its_tiles(m, k, n):
    inst = mm((m, k), (k, n))
    w = design_for(inst, {"device": "npu2", "bf16_mmul": "bfp16"})
    assert w.mmul == (8, 8, 8) and w.bf16_mmul == "bfp16"
    # aie2p/mm.cc matmul_vectorized_8x8x8_bf16_f32: m % (2 r), k % s, n % (2 t)
    assert w.tm % 16 == 0 and w.tk % 8 == 0 and w.tn % 16 == 0
    abi = w.abi()
    assert abi["mmul"] == [8, 8, 8] and abi["bf16_mmul"] == "bfp16" and "bfp16" in abi["numerics"]
    assert abi["microkernel"]["defines"][-1] == DEFINE and "_bfp16_" in abi["microkernel"]["object"]
    assert not whole_array_problems(w) if w.variant == "whole-array" else True
    bad = dataclasses.replace(w, tm=8) if w.variant == "whole-array" else None
    if bad is not None:  # the native 4x8x8 shape's smallest tm is not enough for 8x8x8
        assert any("m % 16" in p for p in whole_array_problems(bad))
    native = design_for(inst, {"device": "npu2"})
    assert native.mmul == (4, 8, 8) and DEFINE not in native.defines and native.microkernel != w.microkernel


@pytest.mark.parametrize("device, dtype", [("npu1", "bf16"), ("npu1", "i8"), ("npu2", "i8")])
def test_elsewhere_the_option_changes_nothing(device, dtype):
    """aie2's mm.cc has no emulation define; an int8 GEMM has no bf16 mmul: the design is the native one."""
    inst = mm((128, 256), (256, 128), dtype)
    a = design_for(inst, {"device": device, "bf16_mmul": "bfp16"})
    b = design_for(inst, {"device": device})
    assert a == b and DEFINE not in a.defines
    assert emit(inst, {**OPTS, "device": device, "bf16_mmul": "bfp16"}) == emit(inst, {**OPTS, "device": device})
    assert effective_bf16_mmul("bfp16", a.arch, dtype) == "native"
    with pytest.raises(ValueError, match="bf16_mmul must be"):
        effective_bf16_mmul("fast", a.arch, dtype)


def test_the_roofline_computes_at_the_bfp16_mmul_rate():
    from npubuild.emitters.aie.roofline import FIGURES
    from npubuild.emitters.aie.summary import summary

    inst = mm((512, 512), (512, 512))
    s = summary(inst, {"device": "npu2", "bf16_mmul": "bfp16"})
    facts = s["roofline"]["facts"]
    assert facts["work"]["dtype"] == "bfp16" and facts["ideal"]["dtype"] == "bfp16"
    assert summary(inst, {"device": "npu2"})["roofline"]["facts"]["work"]["dtype"] == "bf16"
    assert FIGURES["npu2"].macs("bfp16") == 512


def test_the_bfp16_rate_is_the_8x8x8_mmul_per_cycle():
    from npubuild.emitters.aie.roofline import FIGURES

    assert FIGURES["npu2"].macs("bfp16") == 512 == 2 * FIGURES["npu2"].macs("bf16")


# ---- the compile command and the object's identity ---------------------------------------------------------------

SPEC = ("kernels:\n  mm:\n    op: matmul\n    dtype: bf16\n    targets: [ref, xdna]\n    shapes:\n"
        "      - {a: [128, 256], b: [256, 128]}\n")
KID = "matmul_bf16_128x256_256x128"


def _npu2(p, mode=None):
    extra = f'xdna_bf16_mmul = "{mode}"\n' if mode else ""
    p.write("pyproject.toml", f'[tool.npubuild]\ntargets = ["ref"]\nxdna_device = "npu2"\n{extra}')


def test_the_define_is_in_the_compile_command(project, clean_env):  # noqa: F811
    p = project(SPEC, targets=("ref",))
    env = _env_without_tools(clean_env)
    _npu2(p, "bfp16")
    (peano, _aiecc) = (r["arguments"] for r in _json(p, KID, env=env))
    assert DEFINE in peano and "-Dbf16_f32_ONLY" in peano and "--target=aie2p-none-unknown-elf" in peano
    assert peano[-1].rsplit("/", 1)[-1].startswith("mm_aie2p_bf16_f32_bfp16_")  # another object, another name
    _npu2(p)
    (peano, _aiecc) = (r["arguments"] for r in _json(p, KID, env=env))
    assert DEFINE not in peano and "_bfp16_" not in peano[-1]


def test_switching_it_compiles_another_object_and_design(project, tmp_path, clean_env):  # noqa: F811
    tc = make_fake_toolchain(tmp_path, _env_without_tools(clean_env))
    p = project(SPEC, targets=("ref",))
    _npu2(p, "bfp16")
    r = p.doit("build", env=tc["env"])
    assert r.summary["compiled"] == 1, r.out
    calls = [json.loads(ln) for ln in tc["record"].read_text().splitlines()]
    linked = [f for c in calls if c["argv"][-1:] == ["aie.mlir"] for f in c["files"] if f.startswith("mm_")]
    assert len(linked) == 1 and linked[0].startswith("mm_aie2p_bf16_f32_bfp16_")
    abi = _manifest(p)["kernels"][KID]["targets"]["xdna"]["abi"]
    assert abi["bf16_mmul"] == "bfp16" and abi["mmul"] == [8, 8, 8]
    _npu2(p)
    r = p.doit("build", env=tc["env"])
    assert r.summary["compiled"] == 1, r.out  # not the bfp16 entry from the store
    abi = _manifest(p)["kernels"][KID]["targets"]["xdna"]["abi"]
    assert abi["bf16_mmul"] == "native" and abi["mmul"] == [4, 8, 8]


# ---- numerics ------------------------------------------------------------------------------------------------------


def test_the_conversion_floors_to_the_block_quantum():
    """helper.h's floatToBfp16 under truncation: E the block's largest exponent, m = floor(x / 2**(E-133))."""
    x = np.array([[127.0, 1.0, 0.5, -3.0, 0.75, 0.0, -0.25, 2.0, 1, 2, 3, 4, 5, 6, 7, -8.5]])
    q = gemm_bfp16.to_bfp16(x)
    # block 1: max 127 (exponent 6): quantum 1; 0.5 -> 0, 0.75 -> 0, -0.25 -> -1 (toward -inf)
    assert q[0, :8].tolist() == [127.0, 1.0, 0.0, -3.0, 0.0, 0.0, -1.0, 2.0]
    # block 2: max 8.5 (exponent 3): quantum 1/8, every value a multiple of it already
    assert q[0, 8:].tolist() == x[0, 8:].tolist()
    assert gemm_bfp16.quantum(x)[0].tolist() == [1.0] * 8 + [0.125] * 8
    # a negative block maximum floors away from zero and still fits the int8 mantissa: -127.5 -> -128
    assert gemm_bfp16.to_bfp16(np.array([[-127.5, 0, 0, 0, 0, 0, 0, 0]]))[0, 0] == -128.0
    # blocks run along the given axis: B's columns along K
    b = x.reshape(16, 1)
    assert gemm_bfp16.to_bfp16(b, axis=0).ravel().tolist() == q.ravel().tolist()


def _inputs(w, m, k, n, seed):
    """bf16 values with exponents spread within the blocks (what makes bfp16 lose bits), zero padded."""
    rng = np.random.default_rng(seed)
    mp, kp, np_ = w.padded
    a = np.zeros((mp, kp), BF16)
    b = np.zeros((kp, np_), BF16)
    a[:m, :k] = (rng.standard_normal((m, k)) * np.exp2(rng.integers(-6, 6, (m, k)))).astype(np.float32).astype(BF16)
    b[:k, :n] = rng.standard_normal((k, n)).astype(np.float32).astype(BF16)
    return a, b


@pytest.mark.parametrize("m, k, n", [(100, 300, 200), (1, 1000, 300), (64, 260, 48)])
def test_the_simulated_design_is_the_model_and_within_the_bound(m, k, n):
    inst = mm((m, k), (k, n))
    opts = {**OPTS, "device": "npu2", "bf16_mmul": "bfp16"}
    w = design_for(inst, opts)
    a, b = _inputs(w, m, k, n, seed=m + k + n)
    mp, _, np_ = w.padded
    got = sim.run(emit(inst, opts), a, b, w.mmul, call=gemm_bfp16.matmul_call).reshape(mp, np_)[:m, :n]
    a0, b0 = a[:m, :k], b[:k, :n]
    model = gemm_bfp16.bfp16_matmul(a0, b0)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, model)  # bit for bit: the design feeds mm.cc the blocks the model has
    exact = a0.astype(np.float64) @ b0.astype(np.float64)
    assert (np.abs(model - exact) <= gemm_bfp16.error_bound(a0, b0)).all()
    y = model.astype(BF16).astype(np.float64)  # the runtime's one rounding
    ref = np.asarray(inst.opdef.evaluate([a0, b0], {}, "bf16")).astype(np.float64)  # the oracle
    assert (np.abs(y - ref) <= gemm_bfp16.tolerance(a0, b0, ref)).all()
    # and the emulation is not the native product: these inputs lose bits to the shared exponents
    assert not np.array_equal(model, exact.astype(np.float32))


def test_the_native_mmul_model_misses_the_bfp16_design():
    """The bfp16 design's sub-tiles are 8x8: a simulation with the native 4x8x8 shape reads them wrongly,
    and the bfp16 model of a design blocked along another axis would not match."""
    inst = mm((64, 64), (64, 64))
    opts = {**OPTS, "device": "npu2", "bf16_mmul": "bfp16"}
    w = design_for(inst, opts)
    a, b = _inputs(w, 64, 64, 64, seed=5)
    text = emit(inst, opts)
    model = gemm_bfp16.bfp16_matmul(a, b)
    wrong = sim.run(text, a, b, (4, 8, 8), call=gemm_bfp16.matmul_call).reshape(w.padded[0], w.padded[2])
    assert not np.array_equal(wrong, model)
    along_m = gemm_bfp16.bfp16_matmul(a.T.copy(), b).T  # blocks along the wrong axis of A
    assert not np.array_equal(along_m, model)


def test_zero_mean_inputs_lose_about_one_percent():
    """mlir-aie PR #3442 measured 9.83e-3 relative L2 against f32 for the floor-rounded emulation on zero-mean,
    symmetric inputs (512x1024x4096 on npu4); the model on such inputs is of that order."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((64, 1024)).astype(np.float32).astype(BF16)
    b = rng.standard_normal((1024, 256)).astype(np.float32).astype(BF16)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    rel = np.linalg.norm(gemm_bfp16.bfp16_matmul(a, b) - exact) / np.linalg.norm(exact)
    assert 3e-3 < rel < 3e-2, rel
