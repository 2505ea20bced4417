"""[tool.npubuild] ane_accumulate: the ANE emulator's sums in fp32 (the default, the best case) or fp16 (the worst
case: every product and every partial sum rounded to fp16, in index order; docs/ane.md, Numerics)."""
from __future__ import annotations

import numpy as np
import pytest

import npubuild
from npubuild.core.config import load_config
from npubuild.core.errors import UserError
from npubuild.runner.ane import AneRuntime

from .test_ane import _plan, h, program, rand, ulp
from .test_ane_build import _repo_plan, _x, mil_project  # noqa: F401 (mil_project: a fixture)

f16 = np.float16


# ---- the option --------------------------------------------------------------------------------------------------


def test_default_project_value_and_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("NPUBUILD_ANE_ACCUMULATE", raising=False)
    (tmp_path / "pyproject.toml").write_text("[tool.npubuild]\n")
    assert load_config(tmp_path).ane_accumulate == "fp32"
    (tmp_path / "pyproject.toml").write_text('[tool.npubuild]\nane_accumulate = "fp16"\n')
    assert load_config(tmp_path).ane_accumulate == "fp16"
    monkeypatch.setenv("NPUBUILD_ANE_ACCUMULATE", "fp32")
    assert load_config(tmp_path).ane_accumulate == "fp32"


@pytest.mark.parametrize("line, env", [('ane_accumulate = "bf16"', None), ('ane_accumulate = "FP16"', None), ("", "fp8")])
def test_a_bad_value_is_one_message_naming_the_file(tmp_path, monkeypatch, line, env):
    monkeypatch.delenv("NPUBUILD_ANE_ACCUMULATE", raising=False)
    if env:
        monkeypatch.setenv("NPUBUILD_ANE_ACCUMULATE", env)
    (tmp_path / "pyproject.toml").write_text(f"[tool.npubuild]\n{line}\n")
    with pytest.raises(UserError) as e:
        load_config(tmp_path)
    got = env or line.split(" = ")[1].strip('"')
    assert str(e.value) == (f"{tmp_path / 'pyproject.toml'}: ane_accumulate (NPUBUILD_ANE_ACCUMULATE) must be 'fp32', 'fp16', "
                            f"got {got!r} (docs/ane.md, Numerics)")


def test_a_non_string_is_the_type_message(tmp_path, monkeypatch):
    monkeypatch.delenv("NPUBUILD_ANE_ACCUMULATE", raising=False)
    (tmp_path / "pyproject.toml").write_text("[tool.npubuild]\nane_accumulate = 16\n")
    with pytest.raises(UserError, match=r'ane_accumulate must be a string such as "fp32", got 16'):
        load_config(tmp_path)


def test_the_emulator_refuses_another_value(tmp_path):
    plan = _plan(tmp_path, program('        tensor<fp16, [1, 64, 1, 1]> y = relu(x = x)[name = string("y")];'))
    with pytest.raises(UserError, match=r"ane_accumulate must be 'fp32' or 'fp16', got 'fp64'"):
        AneRuntime(plan, accumulate="fp64")


# ---- the model ---------------------------------------------------------------------------------------------------


def fp16_dot_model(x, w):
    """The documented worst case, written independently of npubuild: out[i, j] = s_K with s_0 = +0 and
    s_k = fp16(s_{k-1} + fp16(x[i, k-1] * w[j, k-1])), the products and sums exact in float64 before each rounding."""
    x, w = np.asarray(x, np.float64), np.asarray(w, np.float64)
    acc = np.zeros((x.shape[0], w.shape[0]), np.float64)
    for k in range(x.shape[1]):
        p = np.outer(x[:, k], w[:, k]).astype(f16).astype(np.float64)
        acc = (acc + p).astype(f16).astype(np.float64)
    return acc


def _linear(tmp_path, rows, k, n, seed, route="linear"):
    xv, wv = rand((1, rows, 1, k), seed, 0.0, 1.0), rand((n, k), seed + 1, 0.0, 1.0)
    wv.astype(f16).tofile(tmp_path / "w.bin")
    body = (f'        tensor<fp16, [{n}, {k}]> W = const()[val = tensor<fp16, [{n}, {k}]>(BLOBFILE(path = string("@model_path/w.bin"), '
            'offset = uint64(0)))];\n'
            f'        tensor<fp16, [1, {rows}, 1, {n}]> y = matmul(x = x, y = W, transpose_y = bool(true))[name = string("y")];')
    plan = _plan(tmp_path, program(body, f"tensor<fp16, [1, {rows}, 1, {k}]> x"))
    assert [n_.route for n_ in plan.nodes] == [route]
    return plan, xv, wv


def _run(plan, accumulate=None, **inputs):
    rt = AneRuntime(plan) if accumulate is None else AneRuntime(plan, accumulate=accumulate)
    for name, v in inputs.items():
        rt.write_ext(name, np.asarray(v).reshape(-1))
    rt.run()
    return rt.output("y")


@pytest.mark.parametrize("rows, n, route", [(4, 32, "linear"), (1, 64, "matvec")])
def test_a_k4096_matmul_in_fp16_is_the_documented_model_bit_for_bit(tmp_path, rows, n, route):
    k = 4096
    plan, xv, wv = _linear(tmp_path, rows, k, n, 7, route)
    best, worst = _run(plan, "fp32", x=xv), _run(plan, "fp16", x=xv)
    exact = xv.reshape(rows, k).astype(np.float64) @ wv.T.astype(np.float64)
    assert np.all(np.abs(best.reshape(rows, n) - exact) <= ulp(exact))  # fp32 sums, one rounding
    model = fp16_dot_model(xv.reshape(rows, k), wv)
    np.testing.assert_array_equal(worst.reshape(rows, n).astype(np.float64), model)
    assert np.all(worst != best)
    assert np.max(np.abs(worst.reshape(rows, n) - exact) / ulp(exact)) > 16  # sums near 1000 stall at fp16's spacing


def test_the_default_is_todays_float32_sum_rounded_once(tmp_path):
    rows, k, n = 4, 64, 32
    plan, xv, wv = _linear(tmp_path, rows, k, n, 3)
    today = (xv.reshape(rows, k).astype(np.float32) @ wv.astype(np.float32).T).astype(f16).reshape(-1)
    default = _run(plan, x=xv)
    np.testing.assert_array_equal(default.view(np.uint16), today.view(np.uint16))
    np.testing.assert_array_equal(_run(plan, "fp32", x=xv).view(np.uint16), default.view(np.uint16))


def test_softmax_sums_its_denominator_in_fp16(tmp_path):
    x = rand((1, 4, 1, 256), 5, -3, 3)
    plan = _plan(tmp_path, program('        tensor<fp16, [1, 4, 1, 256]> y = softmax(x = x, axis = int32(-1))[name = string("y")];',
                                   "tensor<fp16, [1, 4, 1, 256]> x"))
    assert [n_.route for n_ in plan.nodes] == ["softmax"]
    best, worst = _run(plan, "fp32", x=x), _run(plan, "fp16", x=x)
    xs = x.reshape(4, 256).astype(np.float32)
    e = np.exp(xs - xs.max(axis=1, keepdims=True))
    den = np.zeros(4, np.float64)
    for k in range(256):
        den = (den + e[:, k].astype(f16).astype(np.float64)).astype(f16).astype(np.float64)
    np.testing.assert_array_equal(worst, (e / den[:, None].astype(np.float32)).astype(f16).reshape(-1))
    np.testing.assert_array_equal(best, h(e / e.sum(axis=1, keepdims=True)).astype(f16).reshape(-1))


# ---- the runtime and `npubuild run` ------------------------------------------------------------------------------


def test_the_runtime_and_npubuild_run_honour_it(mil_project, tmp_path, monkeypatch):
    p = mil_project
    p.doit("build")
    plan = _repo_plan()
    want = {}
    for acc in ("fp32", "fp16"):
        rt = AneRuntime(plan, accumulate=acc)
        rt.write_ext("x", _x().reshape(-1))
        rt.run()
        want[acc] = rt.output("y")
    assert not np.array_equal(want["fp32"], want["fp16"])  # the swiglu graph's 64- and 128-long sums differ
    monkeypatch.delenv("NPUBUILD_ANE_ACCUMULATE", raising=False)
    monkeypatch.chdir(p.root)  # npubuild.load reads the project's [tool.npubuild]
    assert np.array_equal(npubuild.load(p.artifacts).graph("swiglu").run(x=_x())["y"].reshape(-1), want["fp32"])
    monkeypatch.setenv("NPUBUILD_ANE_ACCUMULATE", "fp16")
    assert np.array_equal(npubuild.load(p.artifacts).graph("swiglu").run(x=_x())["y"].reshape(-1), want["fp16"])
    monkeypatch.delenv("NPUBUILD_ANE_ACCUMULATE")
    np.savez(tmp_path / "x.npz", x=_x())
    pp = p.root / "pyproject.toml"
    pp.write_text(pp.read_text() + 'ane_accumulate = "fp16"\n')
    for env, acc in ((None, "fp16"), ({"NPUBUILD_ANE_ACCUMULATE": "fp32"}, "fp32")):
        out = p.npubuild("run", "swiglu", "-i", str(tmp_path / "x.npz"), "-o", str(tmp_path / "y.npz"), "--backend", "ane", env=env)
        assert out.rc == 0
        np.testing.assert_array_equal(np.load(tmp_path / "y.npz")["y"].reshape(-1), want[acc])
    pp.write_text(pp.read_text().replace('"fp16"', '"fp12"'))
    bad = p.npubuild("run", "swiglu", "-i", str(tmp_path / "x.npz"), "-o", str(tmp_path / "y.npz"), check=False)
    assert bad.rc != 0 and "ane_accumulate (NPUBUILD_ANE_ACCUMULATE) must be 'fp32', 'fp16', got 'fp12'" in bad.out + bad.err
