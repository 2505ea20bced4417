"""The ane target: the reference design's three scenarios, re-written with the
same shapes, weight formulas and tolerances, plus adapters, residency and state;
then every route against MIL's semantics (coremltools 9.0) and every emitted
per-node program checked as MIL. Programs run in the fp16 host emulation
(npubuild.runner.ane).

Numeric references are NumPy transcriptions of the coremltools op definitions
(``coremltools/converters/mil/mil/ops/defs/iOS15/*.py``) on the fp16 inputs,
computed in float64; the emulation computes each program in float32 and rounds
its result to fp16 once, so a one-program result must be within one fp16 ulp of
the reference (half an ulp of rounding plus float32 arithmetic)."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from npubuild.ane.mil import parse_mil
from npubuild.ane.plan import Bind, Cur, HostNode, PlanError, compile_plan
from npubuild.ane.plan_model import CpuNode, PlanBounds, ProgNode, is_mil_identifier
from npubuild.ane.programs import node_program
from npubuild.runner.ane import AneRuntime, execute

from .mil_convert import coremltools_mil, replay
from .mil_programs import FUSE, SWIGLU, TRAIN

f16 = np.float16


def h(v):
    """Round to fp16 and back (the reference's f16::from_f32(..).to_f32())."""
    return np.asarray(v, dtype=np.float32).astype(f16).astype(np.float32)


def ulp(v):
    """The fp16 spacing at each value (the subnormal spacing near 0)."""
    return np.spacing(np.abs(np.asarray(v, np.float64)).astype(f16)).astype(np.float64)


def within_ulps(y, ref, n=1.0) -> bool:
    y, ref = np.asarray(y, np.float64), np.asarray(ref, np.float64)
    return bool(np.all(np.abs(y - ref) <= n * ulp(ref)))


def _plan(tmp_path, text, strict: bool = False):
    """The plan of ``text``; ``strict``: as under ane_strict = true, where an op no ANE route computes is refused
    with the route's reason instead of placed on the CPU (docs/ane.md, Placement)."""
    (tmp_path / "m.mil").write_text(text)
    return compile_plan(parse_mil(text, file="m.mil", base_dir=tmp_path), PlanBounds(ane_strict=True) if strict else None)


def cpu_ops(plan) -> list[str]:
    """The MIL ops the plan placed on the CPU, in node order."""
    return [n.attrs["op"] for n in plan.nodes if isinstance(n, CpuNode)]


def _raw(path, values, dtype):
    np.asarray(values, dtype=dtype).tofile(path)


def program(body: str, inputs: str = "tensor<fp16, [1, 64, 1, 1]> x", outputs: str = "y") -> str:
    return f"program(1.3)\n{{\n    func main<ios18>({inputs}) {{\n{body}\n    }} -> ({outputs});\n}}\n"


def run_plan(plan, **inputs):
    rt = AneRuntime(plan)
    for k, v in inputs.items():
        rt.write_ext(k, np.asarray(v).reshape(-1))
    rt.run()
    return rt


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
    # x is read in two layouts (as the row xr by the rms_norm's mul, as a channel vector by the last add):
    # its buffer is strided, as its shape says, and the row is a layout step (a CPU reshape) reading that buffer
    assert plan.ext_curs["x"] == Cur.strided(64)
    assert [(n.route, n.attrs["op"], n.binds) for n in plan.nodes if n.name == "xr%rp"] == [("cpu", "reshape", [Bind(ext="x")])]
    i = np.arange(d)
    xv = h(((i * 9 + 4) % 17) / 16.0 - 0.5)
    rt = run_plan(plan, x=xv)
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
    # the int8 weight stays int8 blocks in its program (constexpr_blockwise_shift_scale), not dequantised
    u = next(n for n in plan.nodes if getattr(n, "name", "") == "u")
    text = node_program(u)[0]
    assert "constexpr_blockwise_shift_scale(data = w_data, scale = w_scale)" in text and "tensor<int8, [128, 64]> w_data" in text
    assert u.packed["w"].data.dtype == np.int8 and np.array_equal(u.packed["w"].data, wu_q8.reshape(ff, d))


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
    i = np.arange(64)
    xv = h(((i * 5 + 3) % 13) / 16.0 - 0.35)
    rt = run_plan(plan, x=xv)
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


# the training scenario with its weights declared as iOS18 states: read with read_state, the updated weights written
# back with write_state (the only values the plan may update in place); x, target, neg_lr and one are plain inputs
TRAIN_STATE = (TRAIN
               .replace("tensor<fp16, [1, 64, 1, 64]> W1,", "state<tensor<fp16, [1, 64, 1, 64]>> W1_state,")
               .replace("tensor<fp16, [1, 64, 1, 64]> W2)", "state<tensor<fp16, [1, 64, 1, 64]>> W2_state)")
               .replace("        tensor<bool, []> bt",
                        '        tensor<fp16, [1, 64, 1, 64]> W1 = read_state(input = W1_state)[name = string("W1")];\n'
                        '        tensor<fp16, [1, 64, 1, 64]> W2 = read_state(input = W2_state)[name = string("W2")];\n'
                        "        tensor<bool, []> bt")
               .replace('[name = string("W2_new")];', '[name = string("W2_new")];\n'
                        '        write_state(data = W2_new, input = W2_state)[name = string("W2_write")];')
               .replace('[name = string("W1_new")];', '[name = string("W1_new")];\n'
                        '        write_state(data = W1_new, input = W1_state)[name = string("W1_write")];'))
assert TRAIN_STATE.count("state<") == TRAIN_STATE.count("read_state(") == TRAIN_STATE.count("write_state(") == 2


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
    rt.write_ext("W1_state", w1)
    rt.write_ext("W2_state", w2)
    return rt


def test_two_layer_mlp_trains_on_device(tmp_path):
    plan = _plan(tmp_path, TRAIN_STATE)
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


# ---- adapters, residency, state -----------------------------------------------------------------------------------------


def test_adapters_are_inserted_once_per_producer_and_currency(tmp_path):
    plan = _plan(tmp_path, TRAIN_STATE)
    names = [n.name for n in plan.nodes]
    # hr = reshape(h) passes h's strided buffer through; y's avw and dW2's outer product both want it contig
    assert names.count("hr%rp") == 1 and plan.nodes[names.index("hr%rp")].attrs["op"] == "reshape"
    # dh = reshape(dhr) passes attn_v's contig result through; dz1's mul wants it strided: a layout step too (the
    # seed's identity matvec), no program and no n x n weight
    assert names.count("dh%rp") == 1 and isinstance(plan.nodes[names.index("dh%rp")], HostNode)
    assert not any(isinstance(n, ProgNode) and n.route == "matvec" and n.name.endswith("%unrp") for n in plan.nodes)
    rp = names.index("hr%rp")
    first_user = min(plan.order.index(i) for i, n in enumerate(plan.nodes) if any(b.node == rp for b in n.binds))
    assert plan.order.index(rp) == first_user - 1  # evaluated just before its first consumer
    assert sum(any(b.node == rp for b in n.binds) for n in plan.nodes) == 2
    unrp = plan.nodes[names.index("dh%rp")]
    assert (str(unrp.ins[0]), str(unrp.out)) == ("contig[64]", "strided[64]")  # contig -> strided, by the host
    assert plan.nodes[names.index("h")].out == Cur.strided(64) and plan.nodes[rp].out == Cur.contig(64)
    assert not any(is_mil_identifier(n) for n in names if "%" in n)  # adapters are named outside MIL's namespace


@pytest.mark.parametrize("budget", [2, 3])
def test_eviction_under_a_residency_budget(tmp_path, budget):
    plan = _plan(tmp_path, TRAIN_STATE)
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


def test_reset_state_zeroes_the_states_only(tmp_path):
    plan = _plan(tmp_path, TRAIN_STATE)
    rt = train_runtime(plan)
    rt.run()
    assert np.abs(rt.output("W1_new")).sum() > 0
    rt.reset_state()
    assert np.abs(rt.output("W1_new")).sum() == 0 and np.abs(rt.output("W2_new")).sum() == 0
    assert len(rt.progs) > 0  # programs stay resident
    xv, tv, _, _ = train_init()
    assert np.array_equal(rt.ext["x"].reshape(-1), xv.astype(f16))  # a plain input keeps its value


# ---- every route against MIL's semantics ---------------------------------------------------------------------------------


def np_softmax(x, axis):
    x = np.asarray(x, np.float64)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def rand(shape, seed, lo=-2.0, hi=2.0):
    return h(np.random.default_rng(seed).uniform(lo, hi, size=shape))


def test_softmax_computes_the_axis_it_names(tmp_path):
    """MIL's softmax (iOS15/activation.py) reduces `axis`, default -1."""
    x = rand((1, 4, 1, 32), 1, -4, 4)
    for axis, arg in ((3, "axis = int32(-1), "), (3, ""), (1, "axis = int32(1), ")):
        plan = _plan(tmp_path, program(f'        tensor<fp16, [1, 4, 1, 32]> y = softmax({arg}x = x)[name = string("y")];',
                                       "tensor<fp16, [1, 4, 1, 32]> x"))
        y = run_plan(plan, x=x).output("y").reshape(1, 4, 1, 32)
        ref = np_softmax(x, axis)
        assert within_ulps(y, ref), (arg, np.abs(y - ref).max())
        assert np.allclose(y.astype(np.float64).sum(axis=axis), 1, atol=0.01)  # really per row / per column
    # the default axis of a [1, 64, 1, 1] channel vector is its last axis, of size 1: all ones
    plan = _plan(tmp_path, program('        tensor<fp16, [1, 64, 1, 1]> y = softmax(x = x)[name = string("y")];'))
    assert np.array_equal(run_plan(plan, x=rand(64, 2)).output("y"), np.ones(64, f16))


def test_softmax_over_an_axis_the_route_cannot_reduce_is_placed_on_the_cpu(tmp_path):
    text = program('        tensor<fp16, [1, 4, 8, 32]> y = softmax(x = x, axis = int32(2))[name = string("y")];',
                   "tensor<fp16, [1, 4, 8, 32]> x")
    with pytest.raises(PlanError, match=r"m.mil:4: softmax 'y' \(x \[1, 4, 8, 32\] -> \[1, 4, 8, 32\]\) is off route: "
                                        r"softmax over axis 2 reduces 8 values 32 apart in 4 groups"):
        _plan(tmp_path, text, strict=True)
    plan = _plan(tmp_path, text)
    assert cpu_ops(plan) == ["softmax"] and plan.nodes[0].reason.startswith("softmax over axis 2 reduces 8 values")
    xv = rand((1, 4, 8, 32), 40, -3, 3)
    e = np.exp(xv.astype(np.float64) - xv.max(axis=2, keepdims=True))
    assert within_ulps(run_plan(plan, x=xv).output("y").reshape(1, 4, 8, 32), e / e.sum(axis=2, keepdims=True))


def test_transpose_applies_its_permutation(tmp_path):
    x = rand((1, 4, 1, 16), 3)
    plan = _plan(tmp_path, program('        tensor<fp16, [1, 16, 1, 4]> y = transpose(x = x, perm = tensor<int32, [4]>([0, 3, 2, 1]))'
                                   '[name = string("y")];', "tensor<fp16, [1, 4, 1, 16]> x"))
    assert [n.route for n in plan.nodes] == ["transpose"]
    y = run_plan(plan, x=x).output("y").reshape(1, 16, 1, 4)
    assert np.array_equal(y, np.transpose(x, (0, 3, 2, 1)).astype(f16))  # a permutation: no rounding at all
    # a permutation that only moves size-1 axes keeps the order: a pass-through, no program
    body = ('        tensor<fp16, [1, 64, 1, 1]> s = sigmoid(x = x)[name = string("s")];\n'
            '        tensor<fp16, [1, 1, 1, 64]> y = transpose(x = s, perm = tensor<int32, [4]>([0, 2, 3, 1]))[name = string("y")];')
    plan = _plan(tmp_path, program(body))
    assert [n.route for n in plan.nodes] == ["lut"]
    xv = rand(64, 4)
    assert within_ulps(run_plan(plan, x=xv).output("y"), 1 / (1 + np.exp(-xv.astype(np.float64))))


def test_add_never_overwrites_a_value_that_is_read_later(tmp_path):
    """MIL values are immutable: y = add(a, b); z = add(b, a) gives a + b twice."""
    a, b = rand((1, 4, 1, 16), 5), rand((1, 4, 1, 16), 6)
    body = ('        tensor<fp16, [1, 4, 1, 16]> y = add(x = a, y = b)[name = string("y")];\n'
            '        tensor<fp16, [1, 4, 1, 16]> z = add(x = b, y = a)[name = string("z")];')
    plan = _plan(tmp_path, program(body, "tensor<fp16, [1, 4, 1, 16]> a, tensor<fp16, [1, 4, 1, 16]> b", "y, z"))
    # a is read after y, so y may not ride a's buffer; nothing reads b after z, but b is a plain input, never written
    # (only a declared state is updated in place: tests/test_ane_state.py)
    assert [n.route for n in plan.nodes] == ["ew", "ew"]
    rt = run_plan(plan, a=a, b=b)
    ref = (a.astype(np.float64) + b).reshape(-1)
    for name in ("y", "z"):
        assert within_ulps(rt.output(name), ref), name
    # a value read after the add under another name (a pass-through reshape) counts too
    body = ('        tensor<fp16, [1, 4, 1, 16]> y = add(x = a, y = b)[name = string("y")];\n'
            '        tensor<fp16, [1, 1, 4, 16]> r = reshape(x = a, shape = tensor<int32, [4]>([1, 1, 4, 16]))[name = string("r")];\n'
            '        tensor<fp16, [1, 1, 4, 16]> z = sigmoid(x = r)[name = string("z")];')
    plan = _plan(tmp_path, program(body, "tensor<fp16, [1, 4, 1, 16]> a, tensor<fp16, [1, 4, 1, 16]> b", "y, z"))
    assert [n.route for n in plan.nodes] == ["ew", "lut"]
    rt = run_plan(plan, a=a, b=b)
    assert within_ulps(rt.output("z"), 1 / (1 + np.exp(-a.astype(np.float64).reshape(-1))))


def test_lowering_temporaries_never_meet_user_names(tmp_path):
    """silu lowers to a sigmoid whose value the user cannot name: a user `y_sig` is another value."""
    body = ('        tensor<fp16, [1, 64, 1, 1]> y_sig = tanh(x = x)[name = string("y_sig")];\n'
            '        tensor<fp16, [1, 64, 1, 1]> y = silu(x = x)[name = string("y")];')
    plan = _plan(tmp_path, program(body, outputs="y, y_sig"))
    xv = rand(64, 7)
    rt = run_plan(plan, x=xv)
    x64 = xv.astype(np.float64)
    assert within_ulps(rt.output("y_sig"), np.tanh(x64))
    sig = h(1 / (1 + np.exp(-x64)))  # silu is two programs: the sigmoid lands in fp16 first
    assert within_ulps(rt.output("y"), x64 * sig)
    assert "y%sig" in [n.name for n in plan.nodes] and not is_mil_identifier("y%sig")


def gelu_exact(x):
    return np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in np.asarray(x, np.float64).reshape(-1)])


@pytest.mark.parametrize("mode", [None, "EXACT", "TANH_APPROXIMATION", "SIGMOID_APPROXIMATION"])
def test_gelu_computes_its_mode(tmp_path, mode):
    """iOS15/activation.py gelu: EXACT (the default) 0.5 x (1 + erf(x/sqrt 2)); the approximations as defined."""
    arg = f'mode = string("{mode}"), ' if mode else ""
    plan = _plan(tmp_path, program(f'        tensor<fp16, [1, 64, 1, 1]> y = gelu({arg}x = x)[name = string("y")];'))
    assert plan.nodes[0].attrs["mode"] == (mode or "EXACT")
    xv = h(np.linspace(-4, 4, 64))
    y = run_plan(plan, x=xv).output("y")
    x = xv.astype(np.float64)
    ref = {"TANH_APPROXIMATION": 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
           "SIGMOID_APPROXIMATION": x / (1 + np.exp(-1.702 * x))}.get(mode, gelu_exact(x))
    assert within_ulps(y, ref), np.abs(y - ref).max()
    if mode in (None, "EXACT"):  # the tanh form would miss EXACT here by far more than an ulp
        tanh_form = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
        assert not within_ulps(h(tanh_form), ref)
    assert "gelu(" not in node_program(plan.nodes[0])[0]  # decomposed: the ANE compiler rejects a gelu op


def test_the_erf_free_gelu_is_within_its_stated_error():
    from npubuild.ane.numerics import ERF_FREE_MAX_ERROR, gelu

    x = np.linspace(-12, 12, 24001).astype(np.float32)
    err = np.abs(gelu(x).astype(np.float64) - gelu_exact(x)) / np.maximum(1, np.abs(x))
    assert err.max() < ERF_FREE_MAX_ERROR, err.max()


def test_cast_makes_fp32_at_the_edges(tmp_path):
    body = ('        tensor<fp16, [1, 64, 1, 1]> xh = cast(x = x, dtype = string("fp16"))[name = string("xh")];\n'
            '        tensor<fp16, [1, 64, 1, 1]> s = sigmoid(x = xh)[name = string("s")];\n'
            '        tensor<fp32, [1, 64, 1, 1]> y = cast(x = s, dtype = string("fp32"))[name = string("y")];')
    plan = _plan(tmp_path, program(body, "tensor<fp32, [1, 64, 1, 1]> x"))
    assert [n.route for n in plan.nodes] == ["cast", "lut", "cast"]
    assert plan.ext_curs["x"] == Cur.strided(64, "fp32") and plan.nodes[2].out == Cur.strided(64, "fp32")
    xv = np.linspace(-3, 3, 64).astype(np.float32) + np.float32(1e-4)  # values fp16 cannot hold: the cast rounds them
    rt = AneRuntime(plan)
    rt.write_ext("x", xv)
    assert rt._ext_buffer("x").dtype == np.float32  # the input is held in fp32 until the cast program reads it
    rt.run()
    y = rt.output("y")
    assert y.dtype == np.float32 and within_ulps(y, 1 / (1 + np.exp(-h(xv).astype(np.float64))))
    # without the cast, MIL's sigmoid of an fp32 input is fp32: no ANE program computes that; the CPU does, in fp32
    fp32 = program('        tensor<fp32, [1, 64, 1, 1]> s = sigmoid(x = x)[name = string("s")];\n'
                   '        tensor<fp32, [1, 64, 1, 1]> y = cast(x = s, dtype = string("fp32"))[name = string("y")];',
                   "tensor<fp32, [1, 64, 1, 1]> x")
    with pytest.raises(PlanError, match=r"m.mil:4: sigmoid 's' \(x \[1, 64, 1, 1\] -> \[1, 64, 1, 1\]\) is off route: "
                                        r"its result 's' is fp32: the ANE programs write fp16"):
        _plan(tmp_path, fp32, strict=True)
    y = run_plan(_plan(tmp_path, fp32), x=xv).output("y")
    assert y.dtype == np.float32 and np.allclose(y, 1 / (1 + np.exp(-xv.astype(np.float64))), rtol=1e-6, atol=0)  # fp32 throughout
    to_int = program('        tensor<int32, [1, 64, 1, 1]> y = cast(x = x, dtype = string("int32"))[name = string("y")];')
    with pytest.raises(PlanError, match=r"m.mil:4: cast 'y' \(x \[1, 64, 1, 1\] -> \[1, 64, 1, 1\]\) is off route: cast to 'int32'"):
        _plan(tmp_path, to_int, strict=True)
    xi = np.linspace(-40, 40, 64).astype(f16)
    y = run_plan(_plan(tmp_path, to_int), x=xi).output("y")
    assert y.dtype == np.int32 and np.array_equal(y, xi.astype(np.int32))  # astype: toward zero, as cast's value inference


CONV = ('        tensor<fp16, [{w}]> W = const()[val = tensor<fp16, [{w}]>(BLOBFILE(path = string("@model_path/cw.bin"), offset = uint64(0)))];\n'
        '        tensor<fp16, [{y}]> y = conv(x = x, weight = W{extra})[name = string("y")];')


@pytest.mark.parametrize("w, xs, ys, extra, why", [
    ("32, 32, 3, 3", "1, 32, 4, 4", "1, 32, 2, 2", "", "kernel 3x3: the ANE conv route is 1x1"),
    ("32, 32, 1, 1", "1, 32, 4, 4", "1, 32, 2, 2", ', strides = tensor<int32, [2]>([2, 2])', r"strides \[2, 2\]"),
    ("32, 16, 1, 1", "1, 32, 1, 4", "1, 32, 1, 4", ", groups = int32(2)", "groups = 2"),
    ("32, 32, 1, 1", "1, 32, 1, 4", "1, 32, 3, 6", ', pad_type = string("custom"), pad = tensor<int32, [4]>([1, 1, 1, 1])',
     r"pad \[1, 1, 1, 1\]: the ANE conv program does not pad"),
    ("16, 32, 1, 1", "1, 32, 1, 4", "1, 16, 1, 4", "", "32 -> 16 channels"),
], ids=["3x3", "stride-2", "grouped", "padded", "narrow"])
def test_convs_off_the_1x1_route_are_cpu_nodes_and_refused_under_strict(tmp_path, w, xs, ys, extra, why):
    np.zeros(math.prod(int(d) for d in w.split(",")), f16).tofile(tmp_path / "cw.bin")
    text = program(CONV.format(w=w, y=ys, extra=extra), f"tensor<fp16, [{xs}]> x")
    with pytest.raises(PlanError, match=rf"m.mil:5: conv 'y' \(x \[{xs}\], weight \[{w}\] -> \[{ys}\]\) is off route: {why}"):
        _plan(tmp_path, text, strict=True)
    plan = _plan(tmp_path, text)
    assert cpu_ops(plan) == ["conv"] and re.match(why, plan.nodes[0].reason)
    assert np.array_equal(run_plan(plan, x=rand([int(d) for d in xs.split(",")], 41)).output("y"), np.zeros(plan.nodes[0].out.elems))


def test_a_1x1_conv_keeps_its_spatial_shape_and_bias(tmp_path):
    wv, bv, xv = rand((48, 32, 1, 1), 8, -0.3, 0.3), rand(48, 9), rand((1, 32, 1, 8), 10)
    wv.astype(f16).tofile(tmp_path / "cw.bin")
    bv.astype(f16).tofile(tmp_path / "cb.bin")
    body = CONV.format(w="48, 32, 1, 1", y="1, 48, 1, 8", extra=", bias = B").replace(
        "        tensor<fp16, [1, 48", '        tensor<fp16, [48]> B = const()[val = tensor<fp16, [48]>(BLOBFILE(path = string("@model_path/cb.bin"), '
        'offset = uint64(0)))];\n        tensor<fp16, [1, 48')
    plan = _plan(tmp_path, program(body, "tensor<fp16, [1, 32, 1, 8]> x"))
    assert [n.route for n in plan.nodes] == ["conv1x1"]  # conv and its bias: one program (MIL conv's bias input)
    assert plan.nodes[0].weights["b"].shape == (48,)
    conv = node_program(plan.nodes[0])[0]
    assert "tensor<fp16, [1, 48, 1, 8]> y = conv(bias = b, " in conv  # the real spatial shape, no channel flattening
    y = run_plan(plan, x=xv).output("y").reshape(1, 48, 1, 8)
    ref = np.einsum("oc,bchw->bohw", wv.reshape(48, 32).astype(np.float64), xv) + bv.reshape(1, 48, 1, 1)
    assert within_ulps(y, ref, 1), np.abs(y - ref).max()  # one program: float32 sums rounded once (1/2 ulp + float32)


def test_broadcast_operands(tmp_path):
    """Constants broadcast as MIL broadcasts (iOS15/elementwise_binary.py); a computed operand must match."""
    xv, cv = rand((1, 32, 1, 8), 11), rand((1, 32, 1, 1), 12)
    cv.astype(f16).tofile(tmp_path / "c.bin")
    body = ('        tensor<fp16, [1, 32, 1, 1]> c = const()[val = tensor<fp16, [1, 32, 1, 1]>(BLOBFILE(path = string("@model_path/c.bin"), '
            'offset = uint64(0)))];\n'
            '        tensor<fp16, [1, 32, 1, 8]> m = mul(x = x, y = c)[name = string("m")];\n'
            '        tensor<fp16, [1, 32, 1, 8]> y = sub(x = fp16(0.5), y = m)[name = string("y")];')
    plan = _plan(tmp_path, program(body, "tensor<fp16, [1, 32, 1, 8]> x"))
    assert [n.weights[k].shape for n in plan.nodes for k in n.weights] == [(1, 32, 1, 1), (1, 1, 1, 1)]
    rt = run_plan(plan, x=xv)
    m = h(xv.astype(np.float64) * cv)
    assert within_ulps(rt.output("y").reshape(1, 32, 1, 8), 0.5 - m)
    bad = program('        tensor<fp16, [1, 32, 1, 8]> y = mul(x = x, y = v)[name = string("y")];',
                  "tensor<fp16, [1, 32, 1, 8]> x, tensor<fp16, [1, 32, 1, 1]> v")
    with pytest.raises(PlanError, match=r"m.mil:4: mul 'y' \(x \[1, 32, 1, 8\], y \[1, 32, 1, 1\] -> \[1, 32, 1, 8\]\) is off route: "
                                        r"'v' \[1, 32, 1, 1\] is computed at run time and broadcasts to \[1, 32, 1, 8\]"):
        _plan(tmp_path, bad, strict=True)
    vv = rand((1, 32, 1, 1), 42)
    plan = _plan(tmp_path, bad)
    assert cpu_ops(plan) == ["mul"]
    assert within_ulps(run_plan(plan, x=xv, v=vv).output("y").reshape(1, 32, 1, 8), xv.astype(np.float64) * vv)


def test_matmul_routes_follow_the_roles_of_the_axes(tmp_path):
    xv, wv = rand((1, 4, 1, 64), 13), rand((32, 64), 14, -0.2, 0.2)
    wv.astype(f16).tofile(tmp_path / "w.bin")
    body = ('        tensor<fp16, [32, 64]> W = const()[val = tensor<fp16, [32, 64]>(BLOBFILE(path = string("@model_path/w.bin"), '
            'offset = uint64(0)))];\n'
            '        tensor<fp16, [1, 4, 1, 32]> y = matmul(x = x, y = W, transpose_y = bool(true))[name = string("y")];')
    plan = _plan(tmp_path, program(body, "tensor<fp16, [1, 4, 1, 64]> x"))
    assert [(n.route, n.attrs) for n in plan.nodes] == [("linear", {"rows": 4, "k": 64, "n": 32})]
    y = run_plan(plan, x=xv).output("y").reshape(1, 4, 1, 32)
    ref = np.matmul(xv.astype(np.float64), wv.T)  # iOS15/linear.py: batch [1, 4] broadcast, [1, 64] x [64, 32] each
    assert within_ulps(y, ref, 2), np.abs(y - ref).max()  # float32 sums of 64 products, then one rounding
    two = program('        tensor<fp16, [1, 1, 8, 8]> y = matmul(x = a, y = b)[name = string("y")];',
                  "tensor<fp16, [1, 1, 8, 8]> a, tensor<fp16, [1, 1, 8, 8]> b")
    with pytest.raises(PlanError, match=r"m.mil:4: matmul 'y' x \[1, 1, 8, 8\] y \[1, 1, 8, 8\] .* is not on an ANE route "
                                        r"\(x \(m, k\), y \(k, n\) -> \(m, n\)\)"):
        _plan(tmp_path, two, strict=True)
    av, bv = rand((1, 1, 8, 8), 43), rand((1, 1, 8, 8), 44)
    plan = _plan(tmp_path, two)
    assert cpu_ops(plan) == ["matmul"]
    ref = np.matmul(av.astype(np.float64), bv)
    assert within_ulps(run_plan(plan, a=av, b=bv).output("y").reshape(1, 1, 8, 8), ref, 2), "float32 sums of 8 products, one rounding"


def test_off_route_ops_name_the_op_and_shapes_under_strict(tmp_path):
    cases = [
        (program('        tensor<fp16, [1, 64, 1, 1]> y = exp(x = x)[name = string("y")];'),
         r"m.mil:4: op 'exp' \('y', shape \[1, 64, 1, 1\]\) is not on an ANE graph route", "exp"),
        (program('        tensor<fp16, [1, 32, 1, 1]> y = relu(x = x)[name = string("y")];', "tensor<fp16, [1, 32, 1, 1]> x"),
         r"m.mil:4: relu 'y' on 32 elements is off route", "relu"),
        (program('        tensor<fp16, [1, 4, 1, 16]> y = rms_norm(x = x)[name = string("y")];', "tensor<fp16, [1, 4, 1, 16]> x"),
         r"m.mil:4: rms_norm 'y' on x \[1, 4, 1, 16\] is off route", "rms_norm"),
    ]
    for text, message, op in cases:
        with pytest.raises(PlanError, match=message):
            _plan(tmp_path, text, strict=True)
        assert cpu_ops(_plan(tmp_path, text)) == [op]  # without ane_strict: a CPU node


def test_tuple_arguments_are_off_route_not_a_crash(tmp_path):
    text = program('        tensor<fp16, [1, 128, 1, 1]> y = concat(axis = int32(1), interleave = bool(false), values = (a, b))[name = string("y")];',
                   "tensor<fp16, [1, 64, 1, 1]> a, tensor<fp16, [1, 64, 1, 1]> b")
    with pytest.raises(PlanError, match=r"m.mil:4: op 'concat' \('y', shape \[1, 128, 1, 1\]\) is not on an ANE graph route"):
        _plan(tmp_path, text, strict=True)
    av, bv = rand((1, 64, 1, 1), 45), rand((1, 64, 1, 1), 46)
    y = run_plan(_plan(tmp_path, text), a=av, b=bv).output("y")
    assert np.array_equal(y, np.concatenate([av, bv], axis=1).reshape(-1))  # a copy: exact


# ---- every emitted program is MIL whose every declared type coremltools infers, and computes the emulation's answer ------


ACCEPTANCE = [
    ("softmax", program('        tensor<fp16, [1, 4, 1, 32]> y = softmax(x = x)[name = string("y")];', "tensor<fp16, [1, 4, 1, 32]> x")),
    ("transpose", program('        tensor<fp16, [1, 16, 1, 4]> y = transpose(x = x, perm = tensor<int32, [4]>([0, 3, 2, 1]))[name = string("y")];',
                          "tensor<fp16, [1, 4, 1, 16]> x")),
    ("gelu", program('        tensor<fp16, [1, 64, 1, 1]> g = gelu(x = x)[name = string("g")];\n'
                     '        tensor<fp16, [1, 64, 1, 1]> t = gelu(x = g, mode = string("TANH_APPROXIMATION"))[name = string("t")];\n'
                     '        tensor<fp16, [1, 64, 1, 1]> y = gelu(x = t, mode = string("SIGMOID_APPROXIMATION"))[name = string("y")];')),
    ("cast", program('        tensor<fp16, [1, 64, 1, 1]> xh = cast(x = x, dtype = string("fp16"))[name = string("xh")];\n'
                     '        tensor<fp32, [1, 64, 1, 1]> y = cast(x = xh, dtype = string("fp32"))[name = string("y")];',
                     "tensor<fp32, [1, 64, 1, 1]> x")),
    ("add", program('        tensor<fp16, [1, 4, 1, 16]> y = add(x = a, y = b)[name = string("y")];\n'
                    '        tensor<fp16, [1, 4, 1, 16]> z = add(x = b, y = a)[name = string("z")];\n'
                    '        tensor<fp16, [1, 4, 1, 16]> s = mul(x = z, y = fp16(0.5))[name = string("s")];',
                    "tensor<fp16, [1, 4, 1, 16]> a, tensor<fp16, [1, 4, 1, 16]> b", "y, s")),
]


def check_programs(plan, tmp_path):
    """Every program of ``plan``: read back by npubuild's reader as pure MIL with its type inference, every op's
    declared type the one coremltools infers, the usual buildInfo keys, no gelu op, and the program's value as
    coremltools computes it that of the emulation (npubuild.runner.ane.execute) on the same inputs."""
    checked = 0
    for i, node in enumerate(plan.nodes):
        if isinstance(node, HostNode):
            continue
        text, blob, _ = node_program(node)
        d = tmp_path / f"n{i}"
        (d / "weights").mkdir(parents=True, exist_ok=True)
        (d / "weights" / "weight.bin").write_bytes(blob)
        (d / "model.mil").write_text(text)
        prog = parse_mil(text, file=str(d / "model.mil"), base_dir=d, pure=True)
        for key in ("npubuild-version", "npubuild-ane-route"):
            assert f'"{key}"' in text.splitlines()[1], key
        assert "gelu(" not in text and "silu(" not in text
        wrong, _ = replay(prog)
        assert not wrong, (node.route, node.name, wrong)
        ins = [rand(c.elems, 100 + i * 7 + p).astype(np.float32 if c.dtype == "fp32" else f16) for p, c in enumerate(node.ins)]
        values = {f"in{p}": v.reshape(c.shape) for p, (v, c) in enumerate(zip(ins, node.ins))}
        _, got = replay(prog, values)
        want = execute(node, [v.astype(np.float32).reshape(-1) for v in ins])
        # coremltools rounds every op to fp16 (22 ops for gelu EXACT, fp16 sums of 128 products), the emulation
        # rounds once: measured at most 4.8e-4 * (1 + |y|) over these programs (about two fp16 ulps), so 4e-3
        # leaves 8x; a wrong axis, permutation, operand order or weight layout is off by 0.05 and more.
        np.testing.assert_allclose(np.asarray(got, np.float64).reshape(-1), want, rtol=4e-3, atol=4e-3,
                                   err_msg=f"{node.route} {node.name}")
        checked += 1
    return checked


@pytest.mark.parametrize("name", ["swiglu", "fuse", "train", "train_state"] + [n for n, _ in ACCEPTANCE])
def test_emitted_programs_are_mil_coremltools_agrees_with(tmp_path, name):
    swiglu_files(tmp_path)
    fuse_files(tmp_path)
    text = {"swiglu": SWIGLU.format(d=tmp_path), "fuse": FUSE.format(d=tmp_path), "train": TRAIN, "train_state": TRAIN_STATE, **dict(ACCEPTANCE)}[name]
    plan = _plan(tmp_path, text)
    assert check_programs(plan, tmp_path) == len(plan.programs())


def test_the_program_check_catches_a_wrong_declared_type(tmp_path):
    """The check above can fail: a matmul declared [1, 64, 1, 1] where coremltools infers [1, 1, 1, 64]."""
    coremltools_mil()
    np.zeros(64 * 64, f16).tofile(tmp_path / "w.bin")
    text = program('        tensor<fp16, [64, 64]> w = const()[val = tensor<fp16, [64, 64]>(BLOBFILE(path = string("@model_path/w.bin"), '
                   'offset = uint64(0)))];\n'
                   '        tensor<fp16, [1, 1, 1, 64]> y = matmul(x = x, y = w, transpose_y = bool(true))[name = string("y")];',
                   "tensor<fp16, [1, 1, 1, 64]> x")
    prog = parse_mil(text, file="m.mil", base_dir=tmp_path)
    prog.main.ops[0].type = type(prog.main.ops[0].type)("fp16", (1, 64, 1, 1))  # what the review's defect 4 emitted
    assert replay(prog)[0] == [(5, "matmul", "y", ("fp16", [1, 1, 1, 64]), "tensor<fp16, [1, 64, 1, 1]>")]
