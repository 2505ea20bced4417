"""No hidden state in the ``ane`` backend (issue 26, item 4): a MIL program is a pure function of its inputs
except for the states it declares (iOS18 ``state<tensor<...>>``, read with ``read_state`` and written with
``write_state`` / ``coreml_update_state``), as Core ML's package of it is. A plain input is never written by
a program, ``reset_state`` touches only the states, and a run without an input is one error naming it.

The runner-level tests build the plan's artifacts (node programs, weights, manifest record) the way the build
does, without the graph package, and run them through :class:`npubuild.runner.ane_graph.AneGraphRunner`."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from npubuild.ane.build import manifest_record, write_graph
from npubuild.ane.coreml import relocate
from npubuild.ane.mil import parse_mil
from npubuild.ane.plan import PlanError, compile_plan
from npubuild.core.errors import UserError
from npubuild.runner.ane import AneRuntime
from npubuild.runner.ane_graph import AneGraphRunner

f16 = np.float16
V = "tensor<fp16, [1, 4, 1, 16]>"


def program(body: str, inputs: str, outputs: str) -> str:
    return f"program(1.3)\n{{\n    func main<ios18>({inputs}) {{\n{body}\n    }} -> ({outputs});\n}}\n"


def op(result: str, call: str) -> str:
    return f'        {V} {result} = {call}[name = string("{result}")];'


# the review's defect 4: a residual add on a function input (x is read by the sigmoid before the add)
RESIDUAL = program("\n".join([op("s", "sigmoid(x = x)"), op("y", "add(x = x, y = s)")]), f"{V} x", "y")
# two inputs, so that a missing one is named alone
TWO = program(op("y", "add(x = a, y = b)"), f"{V} a, {V} b", "y")
# an accumulator declared as a state: acc <- acc + x, returned
ACC = program("\n".join([op("old", "read_state(input = acc)"), op("s", "add(x = old, y = x)"),
                         '        write_state(data = s, input = acc)[name = string("w")];']), f"{V} x, state<{V}> acc", "s")
# the same with coreml_update_state, whose result (the value written) is the output
ACC_UPDATE = program("\n".join([op("old", "read_state(input = acc)"), op("s", "add(x = old, y = x)"),
                                op("now", "coreml_update_state(state = acc, value = s)")]), f"{V} x, state<{V}> acc", "now")


def _plan(tmp_path: Path, text: str):
    (tmp_path / "m.mil").write_text(text)
    return compile_plan(parse_mil(text, file="m.mil", base_dir=tmp_path))


def _x(seed: int = 1):
    # multiples of 1/8 in [-2, 2]: sums of a few of them are exact in fp16
    return (np.random.default_rng(seed).integers(-16, 17, size=(1, 4, 1, 16)) / 8).astype(f16)


def _sig(x):
    return 1 / (1 + np.exp(-np.asarray(x, np.float64)))


def _runner(tmp_path: Path, text: str) -> AneGraphRunner:
    """The plan's artifacts as the build writes them (no graph package), run from its manifest record."""
    plan = _plan(tmp_path, text)
    art = tmp_path / "art"
    out = art / "ane" / "g"
    write_graph(plan, out)
    rec = relocate(manifest_record(out, art), "ane/g")
    return AneGraphRunner(SimpleNamespace(path=art), "g", rec, None)


# ---- a plain input is never written ----------------------------------------------------------------------------------


def test_a_residual_add_on_an_input_is_pure(tmp_path):
    plan = _plan(tmp_path, RESIDUAL)
    assert all(not getattr(n, "alias", []) and not getattr(n, "zero", []) for n in plan.nodes)
    x = _x()
    rt = AneRuntime(plan)
    rt.write_ext("x", x.reshape(-1))
    rt.run()
    first = rt.output("y").copy()
    ref = (x.astype(np.float64) + _sig(x).astype(f16)).reshape(-1)
    assert np.allclose(first, ref, atol=2e-3)
    rt.run()
    np.testing.assert_array_equal(rt.output("y"), first)  # run twice on the same input: the same result
    rt.reset_state()  # no states: the input keeps its value
    rt.run()
    np.testing.assert_array_equal(rt.output("y"), first)


def test_runner_runs_twice_with_the_same_result_and_leaves_the_callers_array(tmp_path):
    g = _runner(tmp_path, RESIDUAL)
    assert g.record["states"] == {} and list(g.record["inputs"]) == ["x"]
    for dtype in (np.float16, np.float32):
        x = _x(2).astype(dtype)
        keep = x.copy()
        y1 = g.run(x=x)["y"].copy()
        y2 = g.run(x=x)["y"]
        np.testing.assert_array_equal(y1, y2)
        np.testing.assert_array_equal(x, keep)  # the caller's array is not modified
        g.reset_state()
        np.testing.assert_array_equal(g.run(x=x)["y"], y1)


def test_a_missing_input_is_one_error_naming_it(tmp_path):
    rt = AneRuntime(_plan(tmp_path, RESIDUAL))
    with pytest.raises(UserError, match=r"^missing inputs: x \(write each with write_ext before run\)$"):
        rt.run()
    g = _runner(tmp_path, RESIDUAL)
    with pytest.raises(UserError, match=r"^graph 'g': missing inputs: x \(inputs: x\)$"):
        g.run()
    # a previous run's values do not stand in for an input not given
    g.run(x=_x())
    with pytest.raises(UserError, match=r"^graph 'g': missing inputs: x "):
        g.run()


def test_missing_and_unknown_inputs_are_named_together(tmp_path):
    g = _runner(tmp_path, TWO)
    with pytest.raises(UserError) as e:
        g.run(a=_x())
    assert str(e.value) == "graph 'g': missing inputs: b (inputs: a, b)"
    with pytest.raises(UserError) as e:
        g.run(a=_x(), c=_x())
    assert str(e.value) == "graph 'g': missing inputs: b; unknown input 'c' (inputs: a, b)"
    y = g.run(a=_x(1), b=_x(3))["y"]
    np.testing.assert_array_equal(y, (_x(1).astype(np.float32) + _x(3)).astype(f16))


def test_a_plan_that_writes_a_plain_input_in_place_is_refused(tmp_path):
    """A plan made before states were declared (an add aliased onto a function input) does not run."""
    plan = _plan(tmp_path, RESIDUAL)
    add = next(n for n in plan.nodes if n.attrs.get("op") == "add")
    add.alias, add.zero = [(0, 0)], [0]
    with pytest.raises(UserError, match=r"writes in place into 'x', which the program does not declare as a state"):
        AneRuntime(plan)


# ---- declared states accumulate ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, out", [(ACC, "s"), (ACC_UPDATE, "now")], ids=["write_state", "coreml_update_state"])
def test_a_declared_state_accumulates_and_resets(tmp_path, text, out):
    plan = _plan(tmp_path, text)
    assert [n.route for n in plan.nodes] == ["add4d"] and plan.nodes[0].alias == [(0, 0)]
    assert plan.inputs == [("x", [1, 4, 1, 16], "fp16")] and plan.states == [("acc", [1, 4, 1, 16], "fp16")]
    x = _x()
    rt = AneRuntime(plan)
    rt.write_ext("x", x.reshape(-1))
    for k in (1, 2, 3):
        rt.run()
        np.testing.assert_array_equal(rt.output(out), (k * x.astype(np.float32)).astype(f16).reshape(-1))
    rt.reset_state()
    rt.run()
    np.testing.assert_array_equal(rt.output(out), x.reshape(-1))
    rt.write_ext("acc", np.full(64, 0.5))  # a state is set directly (Core ML: MLState), not given to a run
    rt.run()
    np.testing.assert_array_equal(rt.output(out), (x.astype(np.float32) + 0.5).astype(f16).reshape(-1))


def test_runner_keeps_states_out_of_the_inputs(tmp_path):
    g = _runner(tmp_path, ACC)
    assert list(g.record["inputs"]) == ["x"] and g.record["states"] == {"acc": {"shape": [1, 4, 1, 16], "dtype": "fp16"}}
    x = _x()
    keep = x.copy()
    assert np.array_equal(g.run(x=x)["s"], x)
    assert np.array_equal(g.run(x=x)["s"], (2 * x.astype(np.float32)).astype(f16))
    np.testing.assert_array_equal(x, keep)
    with pytest.raises(UserError, match=r"^graph 'g': 'acc' is a state, not an input \(set it with write_ext"):
        g.run(x=x, acc=x)
    with pytest.raises(UserError, match=r"^graph 'g': missing inputs: x \(inputs: x\)$"):
        g.run()
    g.reset_state()
    assert np.array_equal(g.run(x=x)["s"], x)
    g.write_ext("acc", np.ones((1, 4, 1, 16), np.float32))
    assert np.array_equal(g.run(x=x)["s"], (x.astype(np.float32) + 1).astype(f16))


def test_a_state_read_but_not_written_is_not_changed(tmp_path):
    text = program("\n".join([op("old", "read_state(input = acc)"), op("s", "add(x = old, y = x)")]), f"{V} x, state<{V}> acc", "s")
    plan = _plan(tmp_path, text)
    assert [n.route for n in plan.nodes] == ["ew"]
    rt = AneRuntime(plan)
    rt.write_ext("x", _x().reshape(-1))
    rt.write_ext("acc", np.ones(64))
    rt.run()
    first = rt.output("s").copy()
    rt.run()
    np.testing.assert_array_equal(rt.output("s"), first)


@pytest.mark.parametrize("body", [
    # the value written is not an add of the state's value: no in-place route writes it
    [op("old", "read_state(input = acc)"), op("s", "mul(x = old, y = x)"), '        write_state(data = s, input = acc)[name = string("w")];'],
    # the state's old value is read after the add: the sum may not overwrite it
    [op("old", "read_state(input = acc)"), op("s", "add(x = old, y = x)"), op("t", "sub(x = old, y = x)"),
     '        write_state(data = s, input = acc)[name = string("w")];'],
])
def test_a_state_write_the_plan_cannot_do_in_place_is_refused(tmp_path, body):
    text = program("\n".join(body), f"{V} x, state<{V}> acc", "s")
    with pytest.raises(PlanError, match=r"m.mil:\d+: write_state of 's' into state 'acc' is off route: the plan writes a state only in place: "
                                        r"'s' must be add\(x = read_state\(input = acc\), y = \.\.\.\)"):
        _plan(tmp_path, text)


def test_a_state_program_builds_a_stateful_core_ml_package_and_accumulates(tmp_path):
    """`doit build` of a program with a state: the graph package declares it as a Core ML state (its
    description.state, a state-typed input of the MIL function; write_state built as coremltools'
    coreml_update_state), and the built graph accumulates into it run after run, as the package would."""
    import json

    import coremltools as ct

    import npubuild

    from .conftest import new_project

    p = new_project(tmp_path / "proj", targets=("ref",))
    p.write("specs/graphs/acc.mil", ACC)
    p.doit("build")
    m = json.loads((p.artifacts / "manifest.json").read_text())
    pkg = p.artifacts / m["graphs"]["acc"]["mlpackage"]["path"]
    spec = ct.utils.load_spec(str(pkg))
    assert [f.name for f in spec.description.input] == ["x"]
    assert [(f.name, list(f.type.stateType.arrayType.shape)) for f in spec.description.state] == [("acc", [1, 4, 1, 16])]
    rt = npubuild.load(p.artifacts)
    g = rt.graph("acc", backend="ane")
    x = np.full((1, 4, 1, 16), 0.5, np.float32)
    first, second = g.run(x=x)["s"], g.run(x=x)["s"]
    np.testing.assert_array_equal(first, np.full_like(first, 0.5))
    np.testing.assert_array_equal(second, np.full_like(second, 1.0))
    rt.close()
