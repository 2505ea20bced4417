"""Conformance of the ane backend with coremltools' MIL (issue 13, item 7).

Each graph is built with coremltools' MIL builder at iOS18 in fp16 (``@mb.program``), printed as
``program(1.3)`` text by the converter in tests/mil_convert.py, read by npubuild's reader as pure MIL,
planned (``compile_plan``) and run in the ane backend's fp16 emulation. Its outputs are compared with

1. a NumPy reference of coremltools' semantics written here: every op computed in float64 from its fp16
   operands and rounded to fp16 where MIL rounds (every MIL op's result is an fp16 tensor, so after every
   op; a cast to fp32 rounds to fp32);
2. coremltools' own value inference (``mil_convert.coreml_value``: each op's ``value_inference`` of the
   iOS15..18 definitions, NumPy in fp16), where every op of the graph has one (conv and silu have none:
   there the NumPy reference alone stands, and the test checks that coremltools indeed has none).

Tolerances are in fp16 ULPs at the reference value (``ulp``; ``floor`` raises the magnitude at which the ULP
is taken where a result may cancel towards 0, stated per case). npubuild rounds once per program, from float32
arithmetic on fp16 operands; the reference rounds once per op from float64: for one op the two round nearly
the same number, so they differ by at most 1 ULP (a float32 error that crosses a rounding boundary). Every
case also checks that a deliberately wrong reference (the other axis, mode, operand order, weight layout)
fails the same comparison, so each comparison can fail.

Then graphs the routes do not take must be refused by the plan naming the op; and every ``model.mil`` that
a build of the repository's specs writes is rebuilt op by op with the builder (``mil_convert.replay``) and
every declared type compared with coremltools' type inference."""
from __future__ import annotations

import math
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from npubuild.ane.mil import MilError, parse_mil
from npubuild.ane.plan import PlanError, compile_plan
from npubuild.ane.plan_model import PlanBounds
from npubuild.runner.ane import AneRuntime

from .conftest import REPO
from .mil_convert import coreml_value, program_text, replay

ct = pytest.importorskip("coremltools", reason="conformance is checked against coremltools' MIL")
from coremltools.converters.mil import Builder as mb  # noqa: E402
from coremltools.converters.mil.mil import types  # noqa: E402

f16 = np.float16
iOS18 = ct.target.iOS18


def r16(v):
    """Round to fp16 (as a MIL fp16 op's result), held in float64."""
    return np.asarray(v, np.float64).astype(f16).astype(np.float64)


def d(v):
    return np.asarray(v, np.float64)


def ulp(v):
    """The fp16 spacing at each value (the subnormal spacing near 0)."""
    return np.spacing(np.abs(np.asarray(v, np.float64)).astype(f16)).astype(np.float64)


def ulps(y, ref, floor=0.0):
    """The largest distance between ``y`` and ``ref`` in fp16 ULPs at max(|ref|, floor)."""
    y, ref = d(y), d(ref)
    assert y.shape == ref.shape, (y.shape, ref.shape)
    return float(np.max(np.abs(y - ref) / ulp(np.maximum(np.abs(ref), floor))))


def rand(shape, seed, lo=-2.0, hi=2.0):
    return np.random.default_rng(seed).uniform(lo, hi, size=shape).astype(f16)


def spec(shape, dtype=types.fp16):
    return mb.TensorSpec(shape=shape, dtype=dtype)


def run_text(text: str, tmp_path: Path, inputs: dict, outputs) -> dict:
    """Read ``text`` as pure MIL, plan it and run it in the ane emulation; the outputs in their MIL shapes."""
    (tmp_path / "conf.mil").write_text(text)
    prog = parse_mil(text, file="conf.mil", base_dir=tmp_path, pure=True)
    plan = compile_plan(prog)
    rt = AneRuntime(plan)
    for k, v in inputs.items():
        rt.write_ext(k, np.asarray(v).reshape(-1))
    rt.run()
    types_ = dict(prog.main.inputs) | {o.result: o.type for o in prog.main.ops}
    return {n: rt.output(n).reshape(types_[n].shape) for n in outputs}


# ---- the cases ------------------------------------------------------------------------------------------------------

C32 = rand((1, 32, 1, 1), 1)  # a per-channel constant
ROW8 = rand((1, 1, 1, 8), 2)  # a per-row (last axis) constant
W_MV = rand((32, 64), 3, -0.25, 0.25)  # matvec weight, [n, k]: transpose_y
W_ROWS = rand((64, 48), 4, -0.25, 0.25)  # rows weight, [k, n]
W_CONV = rand((48, 32, 1, 1), 5, -0.3, 0.3)
B_CONV = rand((48,), 6)
Q8 = np.random.default_rng(7).integers(-128, 128, (64, 64)).astype(np.int8)
Q8_SCALE = (np.random.default_rng(8).uniform(0.5, 2.0, (64, 2)) / 256).astype(f16)  # blocks of 32 along k


def gelu_ref(x, mode):
    x = d(x)
    if mode == "EXACT":
        return np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x.reshape(-1)]).reshape(x.shape)
    if mode == "TANH_APPROXIMATION":
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    return x * (1 / (1 + np.exp(-1.702 * x)))  # SIGMOID_APPROXIMATION


def sig(x):
    return 1 / (1 + np.exp(-d(x)))


def softmax(x, axis):
    x = d(x)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def dequant(q, scale):
    """iOS18 constexpr_blockwise_shift_scale: data * scale, scale repeated over its block; an fp16 result."""
    blk = q.shape[1] // scale.shape[1]
    return r16(d(q) * np.repeat(d(scale), blk, axis=1))


# coremltools' value inference computes each op in NumPy in fp16: a transcendental is evaluated in float32 and
# rounded, but an op spelled as a formula (gelu's approximations: ~8 fp16 operations) rounds after each step,
# so its answer may be a few ULPs off the correctly rounded one: measured at most 2.0 ULP (gelu TANH and SIGMOID
# at the floor below), which is the tolerance; softmax (fp16 exp, an fp16 sum of 32 terms, an fp16 divide)
# measured 6.0, allowed 8 (SOFTMAX_CM_TOL).
COREML_TOL = 2.0
SOFTMAX_CM_TOL = 8.0


class Case:
    """A builder graph, its inputs, the NumPy reference, a deliberately wrong reference and the tolerance."""

    def __init__(self, name, specs, build, inputs, ref, wrong, tol=1.0, floor=0.0, why="", cm_tol=COREML_TOL):
        self.name, self.specs, self.build, self.inputs = name, specs, build, inputs
        self.ref, self.wrong, self.tol, self.floor, self.why = ref, wrong, tol, floor, why
        self.cm_tol = cm_tol  # against coremltools' value inference

    def program(self):
        return mb.program(input_specs=[s for _, s in self.specs], opset_version=iOS18)(self.build)


def _ew(x):
    m = mb.mul(x=x, y=C32, name="m")
    s = mb.sub(x=f16(0.5), y=m, name="s")
    a = mb.add(x=s, y=ROW8, name="a")
    return mb.maximum(x=a, y=f16(-1.0), name="y")


def _ew_ref(x, sub_order=1):
    m = r16(d(x) * d(C32))
    s = r16(sub_order * (0.5 - m))
    a = r16(s + d(ROW8))
    return np.maximum(a, -1.0)


def _act(op):
    def build(x):
        return getattr(mb, op)(x=x, name="y")
    return build


def _gelu(mode):
    def build(x):
        return mb.gelu(x=x, mode=mode, name="y") if mode else mb.gelu(x=x, name="y")
    return build


def _mv(x):
    return mb.matmul(x=x, y=W_MV, transpose_y=True, name="y")


def _rows(x):
    return mb.matmul(x=x, y=W_ROWS, name="y")


def _conv(x):
    return mb.conv(x=x, weight=W_CONV, bias=B_CONV, name="y")


def _conv_ref(x, bias=True):
    c = np.einsum("oc,bchw->bohw", d(W_CONV[:, :, 0, 0]), d(x))  # conv + bias is one MIL op: one rounding
    return r16(c + (d(B_CONV).reshape(1, 48, 1, 1) if bias else 0))


def _transpose(x):
    t = mb.transpose(x=x, perm=[0, 3, 2, 1], name="t")  # [1, 4, 1, 16] -> [1, 16, 1, 4]: a transpose program
    r = mb.reshape(x=t, shape=[1, 64, 1, 1], name="r")  # same buffer
    s = mb.sigmoid(x=r, name="s")
    return mb.transpose(x=s, perm=[0, 2, 3, 1], name="y")  # only moves size-1 axes: a pass-through


def _transpose_ref(x, perm=(0, 3, 2, 1)):
    return r16(sig(np.transpose(d(x), perm).reshape(1, 64, 1, 1))).reshape(1, 1, 1, 64)


def _q8(x):
    w = mb.constexpr_blockwise_shift_scale(data=Q8, scale=Q8_SCALE, name="w")
    return mb.matmul(x=x, y=w, transpose_y=True, name="y")


def _cast(x):
    xh = mb.cast(x=x, dtype="fp16", name="xh")
    t = mb.tanh(x=mb.sub(x=xh, y=f16(1000.0), name="s"), name="t")
    return mb.cast(x=t, dtype="fp32", name="y")


X64 = rand((1, 64, 1, 1), 10, -4, 4)
XG = np.linspace(-4, 4, 64).astype(f16).reshape(1, 64, 1, 1)
X4x32 = rand((1, 4, 1, 32), 11, -4, 4)
# fp32 values fp16 cannot hold: near 1000 fp16's spacing is 0.5, so the cast moves them by up to 0.25
XF32 = (1000 + np.linspace(-3, 3, 64) + 0.1).astype(np.float32).reshape(1, 64, 1, 1)

CASES = [
    Case("elementwise_broadcast", [("x", spec((1, 32, 1, 8)))], _ew, {"x": rand((1, 32, 1, 8), 12)}, _ew_ref,
         lambda x: _ew_ref(x, -1),
         # 0.5 - m may cancel: the ULP is taken at least at 0.5's (the operands' scale); each op is one program
         # rounding what the reference rounds, so 1 ULP (measured 0)
         floor=0.5, why="sub operand order"),
    Case("relu", [("x", spec((1, 64, 1, 1)))], _act("relu"), {"x": X64}, lambda x: np.maximum(d(x), 0),
         lambda x: np.abs(d(x)), why="abs for relu"),
    Case("sigmoid", [("x", spec((1, 64, 1, 1)))], _act("sigmoid"), {"x": X64}, lambda x: r16(sig(x)),
         lambda x: r16(sig(-d(x))), why="sigmoid(-x)"),
    Case("tanh", [("x", spec((1, 4, 1, 32)))], _act("tanh"), {"x": X4x32}, lambda x: r16(np.tanh(d(x))),
         lambda x: r16(np.tanh(d(x) / 2)), why="tanh(x/2)"),
    Case("silu", [("x", spec((1, 64, 1, 1)))], _act("silu"), {"x": X64}, lambda x: r16(d(x) * sig(x)),
         lambda x: r16(d(x) * sig(2 * d(x))),
         # MIL's silu is one op (one rounding); npubuild lowers it to sigmoid + mul, two programs, so the sigmoid
         # is rounded to fp16 first: x * (s + e), |e| <= ulp(s)/2, adds up to 1/2 ULP of the result on top of
         # the final rounding's: 2 ULP; near 0 silu(x) ~ x/2, so the ULP is taken at least at 2^-4
         tol=2.0, floor=2.0**-4, why="x * sigmoid(2x)"),
] + [
    Case(f"gelu_{mode or 'default'}", [("x", spec((1, 64, 1, 1)))], _gelu(mode), {"x": XG},
         lambda x, m=mode or "EXACT": r16(gelu_ref(x, m)),
         lambda x, m=mode or "EXACT": r16(gelu_ref(x, {"EXACT": "TANH_APPROXIMATION"}.get(m, "EXACT"))),
         # gelu(x) passes 0 at x = 0 and has a minimum -0.17 near x = -0.75: the ULP at least at 2^-4; npubuild's
         # EXACT is erf-free (A&S 7.1.26, within 1.5e-7 of erf), far below an fp16 ULP
         floor=2.0**-4, why="the other gelu form")
    for mode in (None, "EXACT", "TANH_APPROXIMATION", "SIGMOID_APPROXIMATION")
] + [
    Case("softmax_last_axis", [("x", spec((1, 4, 1, 32)))], lambda x: mb.softmax(x=x, axis=-1, name="y"), {"x": X4x32},
         lambda x: r16(softmax(x, -1)), lambda x: r16(softmax(x, 1)), why="softmax over axis 1", cm_tol=SOFTMAX_CM_TOL),
    Case("matvec", [("x", spec((1, 1, 1, 64)))], _mv, {"x": rand((1, 1, 1, 64), 13)},
         lambda x: r16(d(x) @ d(W_MV).T), lambda x: r16(d(x) @ d(W_MV).reshape(64, 32)),
         # a sum of 64 products: float32 accumulation in the emulation vs float64 here, one rounding each; the
         # sum may cancel, so the ULP is taken at least at 1/4 (the scale of |x| |w| sqrt(64)): 2 ULP
         tol=2.0, floor=0.25, why="the weight read untransposed"),
    Case("matmul_rows", [("x", spec((1, 4, 1, 64)))], _rows, {"x": rand((1, 4, 1, 64), 14)},
         lambda x: r16(d(x) @ d(W_ROWS)), lambda x: r16(d(x) @ d(W_ROWS).reshape(48, 64).T),
         tol=2.0, floor=0.25, why="the weight in the other layout"),  # as matvec
    Case("conv1x1_bias", [("x", spec((1, 32, 2, 4)))], _conv, {"x": rand((1, 32, 2, 4), 15)}, _conv_ref,
         lambda x: _conv_ref(x, bias=False),
         # MIL's conv adds its bias inside the op and so does npubuild's program (the bias fused into the conv):
         # one rounding, 1/2 ULP plus float32 sums; the sum of 32 products may cancel (ULP taken at least at 1/4,
         # as for matmul): 1 ULP
         tol=1.0, floor=0.25, why="the bias left out"),
    Case("transpose_reshape", [("x", spec((1, 4, 1, 16)))], _transpose, {"x": rand((1, 4, 1, 16), 16)}, _transpose_ref,
         lambda x: _transpose_ref(x, (0, 2, 1, 3)), why="a wrong permutation"),
    Case("int8_blockwise_matvec", [("x", spec((1, 1, 1, 64)))], _q8, {"x": rand((1, 1, 1, 64), 17)},
         lambda x: r16(d(x) @ dequant(Q8, Q8_SCALE).T),
         lambda x: r16(d(x) @ dequant(Q8, Q8_SCALE[:, :1].repeat(2, axis=1)).T),
         tol=2.0, floor=0.25, why="one scale per row instead of per block"),  # as matvec
    Case("cast_fp32_fp16", [("x", spec((1, 64, 1, 1), types.fp32))], _cast, {"x": XF32},
         lambda x: r16(np.tanh(r16(r16(x) - 1000))).astype(np.float32),
         lambda x: np.tanh(d(x) - 1000).astype(np.float32),
         # the fp32 output holds tanh's fp16 result: 1 fp16 ULP as for tanh (sub of fp16 values is exact here); the
         # wrong reference skips the cast's rounding of the input, off by up to 0.25 before the tanh
         why="no fp16 rounding at the input cast"),
]



@pytest.fixture(params=CASES, ids=[c.name for c in CASES])
def case(request):
    return request.param


def test_case_against_the_numpy_reference(case, tmp_path):
    prog = case.program()
    text = program_text(prog)
    got = run_text(text, tmp_path, case.inputs, ["y"])["y"]
    ref = case.ref(*case.inputs.values())
    assert got.dtype == (np.float32 if case.name.startswith("cast") else f16)
    err = ulps(got, ref, case.floor)
    assert err <= case.tol, f"{case.name}: {err:.2f} ULP from MIL's answer (allowed {case.tol})"
    bad = ulps(got, case.wrong(*case.inputs.values()), case.floor)
    assert bad > case.tol, f"{case.name}: the wrong reference ({case.why}) passes too: {bad:.2f} ULP"


def test_case_against_coremltools_value_inference(case, tmp_path):
    prog = case.program()
    vals, missing = coreml_value(prog, case.inputs)
    if case.name in ("silu", "conv1x1_bias"):
        assert vals is None and missing == case.name.split("1x1")[0].split("_")[0]  # no value inference in coremltools
        pytest.skip(f"coremltools has no value inference for {missing}: the NumPy reference stands alone")
    assert missing is None, missing
    cm = vals[0]
    got = run_text(program_text(prog), tmp_path, case.inputs, ["y"])["y"]
    assert cm.shape == got.shape and cm.dtype == got.dtype, (cm.shape, cm.dtype, got.shape, got.dtype)
    err = ulps(got, cm, case.floor)
    assert err <= case.cm_tol, f"{case.name}: {err:.2f} ULP from coremltools' value inference (allowed {case.cm_tol})"
    # and coremltools agrees with the reference written here, so the two references check each other
    assert ulps(cm, case.ref(*case.inputs.values()), case.floor) <= case.cm_tol
    assert ulps(cm, case.wrong(*case.inputs.values()), case.floor) > case.cm_tol, case.why


def test_the_comparison_fails_on_a_wrong_answer(tmp_path):
    """The ULP comparison is not vacuous: one ULP off everywhere passes at tol 1, two ULPs fail."""
    c = CASES[2]  # sigmoid
    ref = c.ref(*c.inputs.values())
    assert ulps(ref + ulp(ref), ref) == 1.0
    assert ulps(ref + 2 * ulp(ref), ref) > c.tol


def test_the_converter_prints_what_npubuild_reads():
    """The converter keeps every op, name, type and inline constant: npubuild's reader, as pure MIL, gives the
    ops in order with the types coremltools inferred and the constants' values bit for bit."""
    prog = CASES[-2].program()  # int8 blockwise weight: constexpr + int8 and fp16 inline constants
    text = program_text(prog)
    assert "BLOBFILE" not in text and "constexpr_blockwise_shift_scale(" in text
    fn = parse_mil(text, file="conf.mil", pure=True).main
    ops = [o for o in prog.functions["main"].operations if o.op_type != "const" and not o.op_type.startswith("constexpr")]
    assert [(o.op, o.result, str(o.type)) for o in fn.ops] == [
        (o.op_type, o.outputs[0].name, f"tensor<fp16, {list(o.outputs[0].shape)}>") for o in ops]
    np.testing.assert_array_equal(fn.consts["w"], dequant(Q8, Q8_SCALE).astype(f16))
    assert fn.constexprs["w"].op == "constexpr_blockwise_shift_scale"


# ---- graphs the routes do not take are refused by the plan, naming the op -------------------------------------------


def _conv3x3(x):
    return mb.conv(x=x, weight=rand((32, 32, 3, 3), 20, -0.1, 0.1), name="y")


REFUSED = [
    ("conv3x3", [spec((1, 32, 4, 4))], _conv3x3, r"conv 'y' \(x \[1, 32, 4, 4\], weight \[32, 32, 3, 3\] -> \[1, 32, 2, 2\]\) "
                                                r"is off route: kernel 3x3"),
    ("softmax_inner_axis", [spec((1, 4, 8, 32))], lambda x: mb.softmax(x=x, axis=2, name="y"),
     r"softmax 'y' \(x \[1, 4, 8, 32\] -> \[1, 4, 8, 32\]\) is off route: softmax over axis 2"),
    ("matmul_two_computed", [spec((1, 1, 8, 8)), spec((1, 1, 8, 8))], lambda a, b: mb.matmul(x=a, y=b, name="y"),
     r"matmul 'y' x \[1, 1, 8, 8\] y \[1, 1, 8, 8\] .* is not on an ANE route \(x \(m, k\), y \(k, n\) -> \(m, n\)\)"),
]


@pytest.mark.parametrize("name, specs, build, message", REFUSED, ids=[r[0] for r in REFUSED])
def test_graphs_off_the_routes_are_refused_naming_the_op_under_strict(name, specs, build, message):
    text = program_text(mb.program(input_specs=specs, opset_version=iOS18)(build))
    prog = parse_mil(text, file="conf.mil", pure=True)  # valid MIL: the reader takes it
    with pytest.raises(PlanError, match=r"conf.mil:\d+: " + message):
        compile_plan(prog, PlanBounds(ane_strict=True))
    # without ane_strict the op is one CPU node, named with the route's reason
    plan = compile_plan(prog)
    assert [(n.placement, n.route) for n in plan.nodes] == [("cpu", "cpu")] and plan.nodes[0].reason


# ---- every model.mil a build of the repository's specs writes, against coremltools' type inference --------------------


def check_model_mils(root: Path) -> int:
    """Every ``ane/*/n*/model.mil`` under ``root`` read back as pure MIL, rebuilt op by op with the builder
    (tests/mil_convert.replay), every declared type the one coremltools infers. Returns how many."""
    mils = sorted(root.glob("ane/*/n*/model.mil"))
    for p in mils:
        prog = parse_mil(p.read_text(), file=str(p), base_dir=p.parent, pure=True)
        wrong, _ = replay(prog)
        assert not wrong, (str(p), wrong)
    return len(mils)


def _repo_ane_graphs():
    from npubuild.ane.build import mil_files

    return mil_files(REPO / "specs")


def test_the_repository_specs_model_mils_are_what_coremltools_infers(tmp_path):
    """The repository's ANE graphs planned and written as the ``compile:<name>@ane`` task writes them
    (npubuild.ane.build.write_graph, into tmp), then every model.mil checked."""
    from npubuild.ane.build import plan_graph, write_graph
    from npubuild.ane.mil_model import MilBounds

    mils = _repo_ane_graphs()
    assert mils, "the repository has ANE graphs (specs/graphs/*.mil)"
    programs = 0
    for m in mils:
        plan = plan_graph(m, m.name, MilBounds())
        write_graph(plan, tmp_path / "ane" / m.stem)
        programs += len(plan.programs())
    assert check_model_mils(tmp_path) == programs > 0


def test_the_model_mil_check_can_fail(tmp_path):
    """A model.mil whose declared type coremltools does not infer fails the check above."""
    from npubuild.ane.build import plan_graph, write_graph
    from npubuild.ane.mil_model import MilBounds

    m = _repo_ane_graphs()[0]
    write_graph(plan_graph(m, m.name, MilBounds()), tmp_path / "ane" / m.stem)
    p = next(p for p in sorted(tmp_path.glob("ane/*/n*/model.mil")) if "matmul(" in p.read_text())
    text = p.read_text()
    line = next(l for l in text.splitlines() if " = matmul(" in l)
    decl = line.split("> ")[0] + ">"
    shape = decl[decl.index("["):decl.rindex("]") + 1]
    dims = [int(v) for v in shape[1:-1].split(",")]
    p.write_text(text.replace(line, line.replace(decl, decl.replace(shape, str(dims[::-1])), 1)))
    with pytest.raises(MilError, match=r"model.mil:\d+: matmul '.*': declared .* but MIL infers"):  # the reader's own inference
        check_model_mils(tmp_path)
    prog = parse_mil(text, file=str(p), base_dir=p.parent, pure=True)
    op = next(o for o in prog.main.ops if o.op == "matmul")
    op.type = type(op.type)(op.type.dtype, tuple(dims[::-1]))  # past the reader: replay alone must catch it
    assert replay(prog)[0] and replay(prog)[0][0][2] == op.result


@pytest.mark.slow
def test_a_doit_build_of_the_repository_specs_writes_model_mils_coremltools_agrees_with(tmp_path):
    """The real thing: ``doit build`` of a copy of the repository's specs, then every
    artifacts/ane/*/n*/model.mil it wrote checked."""
    from .conftest import Project

    root = tmp_path / "repo"
    root.mkdir()
    for f in ("dodo.py", "pyproject.toml"):
        shutil.copy(REPO / f, root / f)
    shutil.copytree(REPO / "specs", root / "specs")
    Project(root).doit("build", env={"PYTHONPATH": str(REPO) + ":" + ":".join(sys.path)})
    n = check_model_mils(root / "artifacts")
    # every ane graph's node programs: the .mil files' and the YAML ane graphs' (specs/graphs/kv_decode.yaml)
    graphs = [m.stem for m in _repo_ane_graphs()]
    assert all((root / "artifacts" / "ane" / g).is_dir() for g in graphs)
    assert n == len(list((root / "artifacts").glob("ane/*/n*/model.mil"))) > sum(
        len(list((root / "artifacts" / "ane" / g).glob("n*/model.mil"))) for g in graphs) > 0
