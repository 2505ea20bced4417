"""Hostile .mil files at build time: a file name that is not a graph name, a small program whose
artifacts would be huge, and NaN/Inf literals. Each is one message (file:line where there is a line),
nothing written, never a traceback."""
from __future__ import annotations

import shutil

import pytest

from npubuild.ane.build import write_graph, written_bytes
from npubuild.ane.mil_model import MilBounds
from npubuild.ane.plan import PlanError
from npubuild.core.errors import UserError

from .test_mil_hostile import plan_in, program, raises_at, scratch  # noqa: F401  (fixture)
from .test_ane_build import mil_project  # noqa: F401  (fixture)


def _files(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()) if root.exists() else []


@pytest.mark.parametrize("filename", ["...mil", "..mil.mil", "-x.mil"])
def test_a_mil_file_name_that_is_not_a_graph_name_is_refused_and_nothing_is_written(mil_project, filename):
    p = mil_project
    shutil.copy(p.root / "specs" / "graphs" / "swiglu.mil", p.root / "specs" / "graphs" / filename)
    stem = filename[:-len(".mil")]
    r = p.doit("build", check=False)
    assert r.rc != 0
    msg = f"specs/graphs/{filename}:1: graph name {stem!r} is not a valid name"
    assert msg in r.out + r.err and "Traceback" not in r.out + r.err
    assert "rename the file" in r.out + r.err
    assert [f for f in _files(p.artifacts) if not f.startswith(".cache/")] == []  # no plan.json, program or package anywhere
    r = p.npubuild("list", check=False)
    assert r.rc != 0 and msg in r.err and "Traceback" not in r.err


# an N -> N 1x1 conv whose N x N fp16 weight is read from a blob beside the .mil: the program holds it
WEIGHTED = ('        tensor<fp16, [{n}, {n}, 1, 1]> W = const()[name = string("W"), val = tensor<fp16, [{n}, {n}, 1, 1]>'
            '(BLOBFILE(path = string("@model_path/w.bin"), offset = uint64(0)))];\n'
            '        tensor<fp16, [1, {n}, 1, 1]> y = conv(dilations = tensor<int32, [2]>([1, 1]), groups = int32(1), '
            'pad = tensor<int32, [4]>([0, 0, 0, 0]), pad_type = string("valid"), strides = tensor<int32, [2]>([1, 1]), '
            'weight = W, x = x)[name = string("y")];')


def _weighted(scratch, n: int) -> str:
    import numpy as np

    (scratch / "specs" / "graphs").mkdir(parents=True, exist_ok=True)
    w = np.random.default_rng(n).uniform(-0.1, 0.1, (n, n)).astype("<f2")
    for d in (scratch, scratch / "specs" / "graphs"):  # wherever the test's .mil lives
        (d / "w.bin").write_bytes(w.tobytes())
    return program(WEIGHTED.format(n=n), inputs=f"tensor<fp16, [1, {n}, 1, 1]> x")


def test_what_a_graph_writes_is_bounded_before_anything_is_written(scratch, tmp_path):
    n = 512  # one 512 x 512 fp16 weight: 0.5 MiB in the plan, stored in its weight.bin and its package
    text = _weighted(scratch, n)
    limit = 3 * n * n  # 1.5x the weight: the plan's own budget (each weight once) fits, what would be written does not
    bounds = MilBounds(roots=(scratch,), max_bytes=limit)
    plan = plan_in(scratch, text, bounds)
    assert written_bytes(plan) >= 2 * n * n * 2 > limit
    out = tmp_path / "artifacts" / "ane" / "g"
    with pytest.raises(UserError) as e:
        write_graph(plan, out, max_bytes=limit)
    assert f"ane graph 'g': its artifacts would take {written_bytes(plan)} bytes on disk" in str(e.value)
    assert "over max_artifact_size" in str(e.value)
    assert not out.exists()


def test_a_graph_under_the_bound_is_written_and_takes_no_more_than_it_said(scratch, tmp_path):
    n = 64
    plan = plan_in(scratch, _weighted(scratch, n))
    out = tmp_path / "g"
    write_graph(plan, out, max_bytes=written_bytes(plan) + (1 << 20))
    weights = sum(p.stat().st_size for p in out.rglob("*.bin"))
    assert 2 * n * n * 2 <= weights  # the weight is in the program's weight.bin and its package's


@pytest.mark.parametrize("lit", ["fp16(nan)", "fp16(inf)", "fp16(-inf)", "tensor<fp16, []>(nan)"])
def test_a_non_finite_parameter_is_refused_at_its_line(scratch, lit):
    text = program(f'        tensor<fp16, [1, 1, 1, 64]> y = rms_norm(x = x, eps = {lit})[name = string("y")];',
                   inputs="tensor<fp16, [1, 1, 1, 64]> x")
    with pytest.raises(PlanError) as e:
        plan_in(scratch, text)
    raises_at(e.value, 4, "'y' (host_rsqrt_broadcast): parameter eps is", "not a finite number", "give a finite value")


@pytest.mark.parametrize("lit", ["fp16(nan)", "fp16(inf)", "fp16(-inf)"])
def test_non_finite_literals_in_weights_plan_as_coremltools_keeps_them(scratch, lit):
    # NaN/Inf values are valid MIL (coremltools' builder keeps them); as weights they are binary data
    plan = plan_in(scratch, program(f'        tensor<fp16, [1, 64, 1, 1]> y = add(x = x, y = {lit})[name = string("y")];'))
    assert plan.nodes


def test_a_build_with_a_nan_parameter_fails_its_graph_with_one_message(mil_project):
    p = mil_project
    p.write("specs/graphs/g.mil", program('        tensor<fp16, [1, 1, 1, 64]> y = rms_norm(x = x, eps = fp16(nan))[name = string("y")];',
                                          inputs="tensor<fp16, [1, 1, 1, 64]> x"))
    r = p.doit("build", check=False)
    assert r.rc != 0 and "Traceback" not in r.out + r.err and "ValueError" not in r.out + r.err
    assert "specs/graphs/g.mil:4: 'y' (host_rsqrt_broadcast): parameter eps is nan" in r.out
    assert "compile:swiglu@ane" in r.out  # the other graph still builds
