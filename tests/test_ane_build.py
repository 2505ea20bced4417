"""ane graphs in the build: specs/graphs/*.mil -> per-node artifacts (MIL + weight.bin v2)
through a doit task and the store, the manifest's record, and `npubuild run` on the ane backend;
an off-route graph fails its own task at build time and stops no other build."""
from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

import npubuild
from npubuild.ane.mil import parse_mil
from npubuild.ane.plan import compile_plan
from npubuild.ane.plan_model import HostNode, RsqrtNode
from npubuild.runner.ane import AneRuntime

from .conftest import REPO
from .test_ane import check_programs


@pytest.fixture
def mil_project(project):
    p = project("kernels:\n  r:\n    op: relu\n    shapes:\n      - [4]\n")
    (p.root / "specs" / "graphs").mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "specs" / "graphs" / "swiglu.mil", p.root / "specs" / "graphs" / "swiglu.mil")
    shutil.copytree(REPO / "specs" / "graphs" / "weights", p.root / "specs" / "graphs" / "weights")
    return p


def _x():
    return (np.arange(64).reshape(1, 64, 1, 1) / 64 - 0.5).astype(np.float16)


def _repo_plan():
    src = REPO / "specs" / "graphs" / "swiglu.mil"
    return compile_plan(parse_mil(src.read_text(), file=str(src), base_dir=src.parent))


def test_mil_graph_builds_into_node_artifacts_and_runs(mil_project, tmp_path):
    p = mil_project
    r = p.doit("build")
    assert "compile:swiglu@ane" in r.out
    m = json.loads((p.artifacts / "manifest.json").read_text())
    g = m["graphs"]["swiglu"]
    plan = _repo_plan()
    assert g["kind"] == "ane" and [n["route"] for n in g["nodes"]] == [n.route for n in plan.nodes]
    assert [g["nodes"][i]["route"] for i in g["order"]][0] == "host_rsqrt_broadcast"
    # every program artifact reads back as pure MIL (npubuild's reader and its type inference) holding the plan's weights
    packed = 0
    for i, n in enumerate(g["nodes"]):
        if "mil" not in n:
            continue
        path = p.artifacts / n["mil"]["path"]
        prog = parse_mil(path.read_text(), file=str(path), base_dir=path.parent, pure=True)
        for name, w in plan.nodes[i].weights.items():
            np.testing.assert_array_equal(prog.main.consts[name].reshape(w.shape), w)
        if n["packed"]:  # the int8 SwiGLU weight: int8 blocks and their scales in weight.bin, not fp16
            packed += 1
            assert prog.main.constexprs["w"].op == "constexpr_blockwise_shift_scale"
            assert prog.main.const_types["w_data"].dtype == "int8" and n["blobs"]["w_data"]["dtype"] == "int8"
    assert packed == 1
    assert p.npubuild("verify").rc == 0
    # run from the manifest = run the plan in process
    rt = npubuild.load(p.artifacts)
    runner = rt.graph("swiglu", backend="auto")
    assert runner.backend == "ane"
    y = runner.run(x=_x())["y"]
    direct = AneRuntime(plan)
    direct.write_ext("x", _x().reshape(-1))
    direct.run()
    np.testing.assert_array_equal(y.reshape(-1), direct.output("y"))
    assert runner.last_stats["loads"] == len(plan.programs())  # every program loaded lazily on the first run
    # the CLI
    np.savez(tmp_path / "x.npz", x=_x())
    out = p.npubuild("run", "swiglu", "-i", str(tmp_path / "x.npz"), "-o", str(tmp_path / "y.npz"), "--backend", "ane")
    assert out.rc == 0
    np.testing.assert_array_equal(np.load(tmp_path / "y.npz")["y"], y)
    # second build: nothing runs
    again = p.doit("build")
    assert "compile:swiglu@ane" not in again.out


def test_the_repository_graph_emits_programs_coremltools_agrees_with(tmp_path):
    plan = _repo_plan()
    assert check_programs(plan, tmp_path) == len(plan.programs()) > 0
    assert sum(isinstance(n, RsqrtNode) for n in plan.nodes) == 1  # rms_norm's rsqrt; the other host nodes are layout steps
    assert all(n.attrs["op"] == "reshape" for n in plan.nodes if isinstance(n, HostNode) and not isinstance(n, RsqrtNode))


@pytest.mark.slow  # a full doit build (or two); the fast run keeps a lighter case of the same check
def test_store_and_rebuild(mil_project):
    p = mil_project
    p.doit("build")
    shutil.rmtree(p.artifacts / "ane")
    (p.root / ".npubuild.doit.db").unlink()
    (p.root / ".npubuild.noop-stamp").unlink(missing_ok=True)
    p.doit("build")
    assert p.npubuild("verify").rc == 0  # restored from the store
    def nodes():
        return json.loads((p.artifacts / "manifest.json").read_text())["graphs"]["swiglu"]["nodes"]

    def acts(ns):
        return [n["attrs"].get("act") for n in ns if n.get("route") == "matvec"]

    before = nodes()
    mil = p.root / "specs" / "graphs" / "swiglu.mil"
    mil.write_text(mil.read_text().replace("silu(x = g)", "sigmoid(x = g)"))
    r = p.doit("build")
    assert "compile:swiglu@ane" in r.out
    after = nodes()
    # the gate's activation rides its matmul's program (npubuild.ane.fusion): the same routes, the other activation
    assert [n["route"] for n in after] == [n["route"] for n in before]
    assert "silu" in acts(before) and "sigmoid" in acts(after) and "silu" not in acts(after)
    assert p.npubuild("verify").rc == 0


OFF_ROUTE = """program(1.3)
{
    func main<ios18>(tensor<fp16, [1, 32, 4, 4]> x) {
        tensor<fp16, [32, 32, 3, 3]> W = const()[val = tensor<fp16, [32, 32, 3, 3]>(BLOBFILE(path = string("@model_path/k3.bin"), offset = uint64(0)))];
        tensor<fp16, [1, 32, 2, 2]> y = conv(x = x, weight = W)[name = string("y")];
    } -> (y);
}
"""


def _strict(p) -> None:
    """ane_strict = true: an op no ANE route computes fails the build instead of running on the CPU."""
    with open(p.root / "pyproject.toml", "a") as f:
        f.write("ane_strict = true\n")


def test_an_off_route_graph_fails_its_task_and_stops_no_other_build(mil_project):
    p = mil_project
    _strict(p)
    np.zeros(32 * 32 * 9, np.float16).tofile(p.root / "specs" / "graphs" / "k3.bin")
    p.write("specs/graphs/a_conv3.mil", OFF_ROUTE)  # sorts before swiglu: it must not stop it
    r = p.doit("build", check=False)
    assert r.rc != 0
    assert ("specs/graphs/a_conv3.mil:5: conv 'y' (x [1, 32, 4, 4], weight [32, 32, 3, 3] -> [1, 32, 2, 2]) is off route: "
            "kernel 3x3") in r.out + r.err
    assert (p.artifacts / "ane" / "swiglu" / "plan.json").is_file()  # the other graph built
    assert list((p.artifacts / "kernels").glob("*/host/kernel.so"))  # and the kernel
    assert not (p.artifacts / "ane" / "a_conv3" / "plan.json").exists()
    (p.root / "specs" / "graphs" / "a_conv3.mil").unlink()
    p.doit("build")
    assert "a_conv3" not in json.loads((p.artifacts / "manifest.json").read_text())["graphs"]


def test_bad_mil_fails_the_build_naming_file_and_line(mil_project):
    p = mil_project
    _strict(p)  # exp has a CPU form: only ane_strict refuses it
    mil = p.root / "specs" / "graphs" / "swiglu.mil"
    text = mil.read_text()
    line = text[: text.index("silu(x = g)")].count("\n") + 1
    mil.write_text(text.replace("silu(x = g)", "exp(x = g)"))
    r = p.doit("build", check=False)
    assert r.rc != 0
    assert f"specs/graphs/swiglu.mil:{line}: op 'exp'" in r.out + r.err


def test_fp32_edges_run_from_the_artifacts(tmp_path):
    """A graph whose input and output are fp32 (cast at both ends) takes and gives float32 from its artifacts."""
    import types

    from npubuild.ane.build import manifest_record, write_graph
    from npubuild.runner.ane_graph import AneGraphRunner

    text = ("program(1.3)\n{\n    func main<ios18>(tensor<fp32, [1, 64, 1, 1]> x) {\n"
            '        tensor<fp16, [1, 64, 1, 1]> xh = cast(x = x, dtype = string("fp16"))[name = string("xh")];\n'
            '        tensor<fp16, [1, 64, 1, 1]> s = sigmoid(x = xh)[name = string("s")];\n'
            '        tensor<fp32, [1, 64, 1, 1]> y = cast(x = s, dtype = string("fp32"))[name = string("y")];\n'
            "    } -> (y);\n}\n")
    plan = compile_plan(parse_mil(text, "g.mil"))
    art = tmp_path / "artifacts"
    write_graph(plan, art / "ane" / "g")
    runner = AneGraphRunner(types.SimpleNamespace(path=art), "g", manifest_record(art / "ane" / "g", art), None)
    x = np.linspace(-3, 3, 64).reshape(1, 64, 1, 1)
    y = runner.run(x=x)["y"]
    assert y.dtype == np.float32 and y.shape == (1, 64, 1, 1)
    ref = 1 / (1 + np.exp(-x.astype(np.float16).astype(np.float64)))
    assert np.all(np.abs(y - ref) <= np.spacing(ref.astype(np.float16)).astype(np.float64))  # one fp16 rounding (sigmoid)
    with pytest.raises(npubuild.core.errors.UserError, match="holds finite values beyond the fp32 range"):
        runner.run(x=np.full((1, 64, 1, 1), 1e300))
