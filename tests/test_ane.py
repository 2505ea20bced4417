"""The ane target: the reference design's three scenarios, re-written with the
same shapes, weight formulas and tolerances, plus adapters, residency,
state and errors. Programs run in the fp16 host emulation (npubuild.runner.ane)."""
from __future__ import annotations

import numpy as np
import pytest

from npubuild.ane.mil import parse_mil
from npubuild.ane.plan import Cur, HostNode, PlanError, compile_plan
from npubuild.runner.ane import AneRuntime

from .mil_programs import FUSE, SWIGLU, TRAIN

f16 = np.float16


def h(v):
    """Round to fp16 and back (the reference's f16::from_f32(..).to_f32())."""
    return np.asarray(v, dtype=np.float32).astype(f16).astype(np.float32)


def _plan(tmp_path, text):
    (tmp_path / "m.mil").write_text(text)
    return compile_plan(parse_mil(text, file="m.mil", base_dir=tmp_path))


def _raw(path, values, dtype):
    np.asarray(values, dtype=dtype).tofile(path)


# ---- scenario 1: RMS norm + q8 SwiGLU ------------------------------------------------------------------------------------


def swiglu_files(d):
    dd, ff = 64, 128
    i = np.arange(dd)
    gam = h(0.8 + (i % 7) * 0.05)
    _raw(d / "gam.bin", gam, f16)
    k = np.arange(ff * dd)
    wu_q8 = (((k * 23 + 7) % 199) - 99).astype(np.int8)
    j = np.arange(ff * 2)
    wu_sc = h(0.002 * ((j * 11 % 31) + 1.0))
    _raw(d / "wu_q8.bin", wu_q8, np.int8)
    _raw(d / "wu_sc.bin", wu_sc, f16)
    wg = h(((k * 17 + 3) % 29) / 64.0 - 0.22)
    wd = h(((k * 13 + 5) % 23) / 64.0 - 0.17)
    _raw(d / "wg.bin", wg, f16)
    _raw(d / "wd.bin", wd, f16)
    return gam, wu_q8, wu_sc, wg, wd


def test_rms_q8_swiglu(tmp_path):
    d, ff = 64, 128
    gam, wu_q8, wu_sc, wg, wd = swiglu_files(tmp_path)
    plan = _plan(tmp_path, SWIGLU.format(d=tmp_path))
    assert isinstance(plan.nodes[plan.order[0]], HostNode)  # rms_norm: host rsqrt broadcast first
    rt = AneRuntime(plan)
    i = np.arange(d)
    xv = h(((i * 9 + 4) % 17) / 16.0 - 0.5)
    rt.write_ext("x", xv)
    rt.run()
    # the reference's float32 computation
    r = 1.0 / np.sqrt((xv * xv).sum() / d + 1e-5)
    xnr = xv * h(r * gam)
    wu = h(wu_q8.astype(np.float32).reshape(ff, d) * np.repeat(wu_sc.reshape(ff, 2), 32, axis=1))
    ur = wu @ xnr
    gr = wg.reshape(ff, d) @ xnr
    fur = ur * gr / (1.0 + np.exp(-gr))
    dnr = wd.reshape(d, ff) @ fur
    yr = xv + dnr
    y = rt.output("y").astype(np.float32)
    assert np.all(np.abs(y - yr) < 0.03 + np.abs(yr) * 0.05), np.abs(y - yr).max()


# ---- scenario 2: conv chain + conv-SiLU fusion -> exactly 3 programs --------------------------------------------------------


def fuse_files(d):
    def mk(tag, rows, cols):
        i = np.arange(rows * cols)
        return h(((i * 11 + tag * 7) % 23) / 64.0 - 0.17)

    w = {1: mk(1, 96, 64), 2: mk(2, 64, 96), 3: mk(3, 64, 64)}
    for k, v in w.items():
        _raw(d / f"w{k}.bin", v, f16)
    return w


def test_conv_chain_and_conv_silu_fuse_into_three_programs(tmp_path):
    w = fuse_files(tmp_path)
    plan = _plan(tmp_path, FUSE.format(d=tmp_path))
    assert len(plan.nodes) == 3, [n.route for n in plan.nodes]
    assert [plan.nodes[i].route for i in plan.order] == ["conv_chain", "conv_act", "ew"]
    assert plan.nodes[1].attrs["act"] == "silu"
    rt = AneRuntime(plan)
    i = np.arange(64)
    xv = h(((i * 5 + 3) % 13) / 16.0 - 0.35)
    rt.write_ext("x", xv)
    rt.run()
    c1 = w[1].reshape(96, 64) @ xv
    c2 = w[2].reshape(64, 96) @ c1
    g = w[3].reshape(64, 64) @ c2
    yr = c2 + g / (1.0 + np.exp(-g))
    y = rt.output("y").astype(np.float32)
    assert np.all(np.abs(y - yr) < 0.03 + np.abs(yr) * 0.05), np.abs(y - yr).max()


def test_fusion_guards(tmp_path):
    """g is also a function output: the conv-SiLU pattern must not swallow it."""
    fuse_files(tmp_path)
    text = FUSE.format(d=tmp_path).replace("} -> (y);", "} -> (y, g);")
    plan = _plan(tmp_path, text)
    assert [plan.nodes[i].route for i in plan.order] == ["conv_chain", "conv1x1", "lut", "ew", "ew"]


# ---- scenario 3: 2-layer MLP trained by on-device backprop, in-place weight updates -----------------------------------


def train_init():
    d = 64
    i = np.arange(d)
    xv = h(((i * 7 + 3) % 19) / 19.0 - 0.45)
    tv = h(((i * 11 + 5) % 23) / 23.0 - 0.5)
    k = np.arange(d * d)
    w1 = h((((k * 13 + 7) % 31) - 15.0) * 0.015)
    w2 = h((((k * 17 + 11) % 29) - 14.0) * 0.015)
    return xv, tv, w1, w2


def train_runtime(plan, budget=None):
    d, lr = 64, 0.15
    xv, tv, w1, w2 = train_init()
    rt = AneRuntime(plan, budget)
    rt.write_ext("x", xv)
    rt.write_ext("target", tv)
    rt.write_ext("neg_lr", np.full(d, -lr))
    rt.write_ext("one", np.ones(d))
    rt.write_ext("W1", w1)
    rt.write_ext("W2", w2)
    return rt


def test_two_layer_mlp_trains_on_device(tmp_path):
    plan = _plan(tmp_path, TRAIN)
    routes = sorted(plan.nodes[i].route for i in plan.order)
    assert routes.count("add4d") == 2 and routes.count("outer") == 2 and routes.count("attn_v") == 1
    d, lr = 64, 0.15
    xv, tv, w1_ref, w2_ref = train_init()
    w1_ref, w2_ref = w1_ref.reshape(d, d).copy(), w2_ref.reshape(d, d).copy()
    rt = train_runtime(plan)
    losses = []
    for step in range(16):
        rt.run()
        z1 = w1_ref @ xv
        hh = 1.0 / (1.0 + np.exp(-z1))
        y_ref = w2_ref @ hh
        dy = y_ref - tv
        dh = w2_ref.T @ dy
        dz1 = dh * hh * (1.0 - hh)
        w2_ref += np.outer(-lr * dy, hh)
        w1_ref += np.outer(-lr * dz1, xv)
        y = rt.output("y").astype(np.float32)
        assert np.all(np.abs(y - y_ref) < 0.04 + np.abs(y_ref) * 0.05), (step, np.abs(y - y_ref).max())
        losses.append(float(((y - tv) ** 2).mean()))
    assert losses[-1] < losses[0] * 0.05, losses


# ---- adapters, residency, state, errors ------------------------------------------------------------------------------------


def test_adapters_are_inserted_once_per_producer_and_currency(tmp_path):
    plan = _plan(tmp_path, TRAIN)
    names = [n.name for n in plan.nodes]
    assert names.count("h_rp") == 1  # h is strided; y's matvec and dW2's outer product both want it contig
    assert names.count("dh_unrp") == 1  # dh is contig (attn.V); dz1's mul wants it strided
    rp = names.index("h_rp")
    first_user = min(plan.order.index(i) for i, n in enumerate(plan.nodes) if any(b.node == rp for b in n.binds))
    assert plan.order.index(rp) == first_user - 1  # evaluated just before its first consumer
    unrp = plan.nodes[names.index("dh_unrp")]
    assert unrp.route == "matvec" and np.array_equal(unrp.weights["w"], np.eye(64, dtype=f16))
    assert plan.nodes[names.index("h")].out == Cur.strided(64) and plan.nodes[rp].out == Cur.contig(64)


@pytest.mark.parametrize("budget", [2, 3])
def test_eviction_under_a_residency_budget(tmp_path, budget):
    plan = _plan(tmp_path, TRAIN)
    ref = train_runtime(plan)
    rt = train_runtime(plan, budget)
    for _ in range(2):
        ref.run()
        rt.run()
    np.testing.assert_array_equal(rt.output("y"), ref.output("y"))  # same answers under any budget
    assert len(rt.progs) <= budget
    progs = [i for i in plan.order if i in plan.programs()]
    # every load past the budget evicted the program that ran just before it (the most recently run, not itself)
    for loaded, victim in zip(rt.loads[budget:], rt.evictions):
        assert victim == progs[progs.index(loaded) - 1], (loaded, victim)
    # so the first budget-1 programs and the last stay resident across runs: the second run reloads the others
    assert len(rt.loads) == 2 * len(progs) - budget
    assert rt.loads[len(progs):] == progs[budget - 1 : -1]


def test_reset_state_zeroes_the_accumulators(tmp_path):
    plan = _plan(tmp_path, TRAIN)
    rt = train_runtime(plan)
    rt.run()
    assert np.abs(rt.output("W1_new")).sum() > 0
    rt.reset_state()
    assert np.abs(rt.output("W1_new")).sum() == 0 and np.abs(rt.output("W2_new")).sum() == 0
    assert len(rt.progs) > 0  # programs stay resident


def test_off_route_ops_name_the_op_and_shapes(tmp_path):
    bad = """program(1.3)
{
    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> x) {
        tensor<fp16, [1, 64, 1, 1]> y = exp(x = x)[name = string("y")];
    } -> (y);
}"""
    with pytest.raises(PlanError, match=r"m.mil:4: op 'exp' \('y', shape \[1, 64, 1, 1\]\) is not on an ANE graph route"):
        _plan(tmp_path, bad)
    relu = bad.replace("exp(x = x)", "relu(x = x)").replace("64", "32")
    with pytest.raises(PlanError, match=r"m.mil:4: relu 'y' on 32 elements is off route"):
        _plan(tmp_path, relu)
    mm = """program(1.3)
{
    func main<ios18>(tensor<fp16, [1, 8, 1, 8]> a, tensor<fp16, [1, 8, 1, 8]> b) {
        tensor<fp16, [1, 8, 1, 8]> y = matmul(x = a, y = b)[name = string("y")];
    } -> (y);
}"""
    with pytest.raises(PlanError, match=r"m.mil:4: matmul 'y' x \[1, 8, 1, 8\] y \[1, 8, 1, 8\] .* is not on an ANE route"):
        _plan(tmp_path, mm)


def test_tuple_arguments_are_off_route_not_a_crash(tmp_path):
    text = """program(1.3)
{
    func main<ios18>(tensor<fp16, [1, 64, 1, 1]> a, tensor<fp16, [1, 64, 1, 1]> b) {
        tensor<fp16, [1, 128, 1, 1]> y = concat(axis = int32(1), interleave = bool(false), values = (a, b))[name = string("y")];
    } -> (y);
}"""
    with pytest.raises(PlanError, match=r"m.mil:4: op 'concat' \('y', shape \[1, 128, 1, 1\]\) is not on an ANE graph route"):
        _plan(tmp_path, text)
