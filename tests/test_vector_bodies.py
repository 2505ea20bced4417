"""Vector bodies (npubuild.emitters.host.vector): the elementwise families over
vector<lanes x T>, the same per-lane arithmetic as the scalar bodies, and the AIE
profiles that keep a body scalar when aievec has no pattern for one of its ops."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from npubuild.emitters import aie
from npubuild.emitters import host as emitters
from npubuild.emitters.host import vector
from npubuild.emitters.host.elementwise import BINARY, UNARY
from npubuild.ops.registry import NUMPY_DTYPE
from npubuild.specfile.instances import make_instance
from tests.hostkit import compile_kernels


def _scalar_text(inst):
    """The scalar body of ``inst``."""
    with vector.profile("scalar"):
        return emitters.emit(inst)


CASES = [
    ("relu", "f32", [(8, 64)], None),
    ("add", "f32", [(4, 32), (32,)], None),
    ("mul", "i32", [(2, 48), (2, 48)], None),
    ("max", "i8", [(128,), (1,)], None),
    ("div", "i32", [(64,), (64,)], None),
    ("exp", "f32", [(4, 64)], None),
    ("tanh", "f32", [(64,)], None),
    ("gelu", "f32", [(2, 32)], {"approximate": "tanh"}),
    ("gelu", "f32", [(2, 32)], None),
    ("sigmoid", "f32", [(32,)], None),
    ("neg", "f32", [(16,)], None),
    ("relu", "bf16", [(4, 32)], None),
    ("add", "bf16", [(64,), (64,)], None),
    ("cast", "f32", [(64,)], {"to": "bf16"}),
    ("cast", "bf16", [(2, 32)], {"to": "f32"}),
    ("reduce_max", "f32", [(4, 64)], {"axes": [-1]}),
    ("reduce_min", "i8", [(2, 128)], {"axes": [-1], "keepdims": True}),
    ("reduce_sum", "i32", [(3, 32)], {"axes": [-1]}),  # integer sums wrap identically in any order
    # the other bf16 bodies npu1 runs as vector<16> (tests/test_xdna_profile.py BODIES)
    ("max", "bf16", [(2, 32), (2, 32)], None),
    ("sub", "bf16", [(64,), (64,)], None),
    ("leaky_relu", "bf16", [(2, 32)], None),
    ("hard_sigmoid", "bf16", [(2, 32)], None),
    ("sign", "bf16", [(2, 32)], None),
]


@pytest.fixture(scope="module")
def pairs(tmp_path_factory):
    """(instance, vector kernel, scalar kernel) per case, all compiled in one go."""
    from npubuild.runner.host import HostKernel
    from npubuild.toolchain import host as toolchain

    out = tmp_path_factory.mktemp("vec")
    insts = [make_instance(op, dt, shapes, attrs) for op, dt, shapes, attrs in CASES]
    vec = compile_kernels(insts, out)
    res = []
    for i, inst in enumerate(insts):
        so = out / f"scalar_{i}.so"
        toolchain.compile_shared_library(_scalar_text(inst), so, so.with_suffix(".log"))
        res.append((inst, vec[inst.key], HostKernel(so, inst.describe())))
    return res


def _inputs(inst, rng):
    xs = []
    for t in inst.inputs:
        dt = np.dtype(NUMPY_DTYPE[t.dtype])
        if t.dtype in ("f32", "f16", "bf16"):
            x = (rng.standard_normal(t.shape) * 4).astype(dt)
            flat = x.reshape(-1)
            flat[: min(6, flat.size)] = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 100.0], dt)[: min(6, flat.size)]
        else:
            info = np.iinfo(dt)
            x = rng.integers(info.min, info.max, t.shape, endpoint=True, dtype=dt)
        xs.append(x)
    return xs


def test_vector_bodies_are_emitted_for_the_cases():
    for op, dt, shapes, attrs in CASES:
        text = emitters.emit(make_instance(op, dt, shapes, attrs))
        assert "vector.transfer_read" in text, (op, dt)
        if op.startswith("reduce_"):  # one scalar per row, after the vector.reduction
            assert "vector.reduction" in text and "memref.load" not in text, (op, dt)
            continue
        assert "vector.transfer_write" in text, (op, dt)
        assert "memref.load" not in text or shapes[-1] in [(1,)], (op, dt)  # scalars only for broadcast inputs


@pytest.mark.parametrize("k", range(len(CASES)))
def test_vector_body_is_bit_identical_to_the_scalar_body(pairs, k, monkeypatch):
    """Each lane runs the scalar body's operations, so results agree bit for bit (NaN payloads too) on the
    baseline ISA level, which fuses nothing. The wider levels fuse the multiply-adds a vector body writes as
    vector.fma (the transcendentals' polynomials): those are held to the documented error bounds instead
    (tests/test_host_isa.py); every other body stays bit-identical on them too."""
    from npubuild.core import host_isa

    inst, vec, scal = pairs[k]
    xs = _inputs(inst, np.random.default_rng(k))
    want = scal(*xs).tobytes()
    fused = "vector.fma" in emitters.emit(inst)
    baseline = host_isa.levels()[0].name
    for isa in dict.fromkeys([baseline, host_isa.widest_here()]):
        vec.close()  # the variant is picked when the library is loaded
        monkeypatch.setenv(host_isa.ENV, isa)
        got = vec(*xs).tobytes()
        assert vec.isa == isa and (got == want or (fused and isa != baseline)), (inst.id, isa)
    vec.close()


def test_tails_keep_the_scalar_body_and_say_why():
    inst = make_instance("relu", "f32", [(3, 10)], None)
    lanes, why = vector.vector_plan(inst)
    assert lanes is None and "not a multiple of 16 lanes" in why
    assert "vector." not in emitters.emit(inst)
    inner = make_instance("add", "f32", [(4, 32), (4, 1)], None)
    assert "vector.broadcast" in emitters.emit(inner)  # broadcast along the last axis: a splat


def test_host_vector_kernels_need_no_runtime_helpers(tmp_path):
    """No libm / compiler-rt call in a vector body's library: everything is inline arithmetic."""
    from npubuild.toolchain import host as toolchain

    for op, attrs in (("exp", None), ("gelu", None), ("div", None)):
        dt = "i32" if op == "div" else "f32"
        inst = make_instance(op, dt, [(64,)] * (2 if op == "div" else 1), attrs)
        so = tmp_path / f"{op}.so"
        toolchain.compile_shared_library(emitters.emit(inst), so, tmp_path / "log")
        undefined = subprocess.run(["nm", "-D", "--undefined-only", str(so)], capture_output=True, text=True, check=True).stdout
        assert [ln for ln in undefined.split() if ln not in ("U", "w") and not ln.startswith(("__cxa_finalize", "__gmon_start__", "_ITM_", "_Jv_"))] == [], undefined


def test_aie_profiles_take_only_what_aievec_lowers():
    relu = make_instance("relu", "f32", [(64, 64)], None)
    exp = make_instance("exp", "f32", [(64, 64)], None)
    on = {dev: aie.body_info(relu, {"device": dev}) for dev in ("npu1", "npu2")}
    assert on["npu1"]["lanes"] == 16 and on["npu1"]["source"] == "generated vector"
    assert "vector.transfer_read" in aie.emit(relu, {"device": "npu1"})
    # aie2p: no test shows maximumf converted, so relu stays scalar there
    assert on["npu2"]["lanes"] == "scalar" and "maximumf on vector<16xf32>" in on["npu2"]["why"]
    assert "vector." not in aie.emit(relu, {"device": "npu2"})
    info = aie.body_info(exp, {"device": "npu1"})
    assert info["lanes"] == "scalar" and "bitcast" in info["why"]
    # the host takes the vector exp the device refuses
    assert "vector.transfer_read" in emitters.emit(exp)


def test_every_aievec_entry_is_at_the_emitted_width():
    """The emitter writes LANES[dtype] lanes only; an entry at another width could never match."""
    for dev, ops in vector.AIEVEC_OPS.items():
        for op, elem, lanes in ops:
            assert lanes == vector.LANES[elem], (dev, op, elem, lanes)


def test_xdna_summary_says_cores_body_dispatches_and_bytes():
    from npubuild.emitters.aie.summary import one_line, summary

    relu = make_instance("relu", "f32", [(64, 64)], None)
    s = summary(relu, {"device": "npu1"})
    assert s["body"]["source"] == "generated vector" and s["body"]["lanes"] == 16
    assert s["dispatches_per_run"] == 1
    assert s["bytes_per_run"] == 2 * 64 * 64 * 4  # x in, y out, no padding at this shape
    assert s["cores"] == len(aie.design_for(relu, {"device": "npu1"}).cores)
    assert "vector<16>" in one_line(s) and "1 dispatch," in one_line(s)
    mm = make_instance("matmul", "i8", [(1, 4096), (4096, 1024)], None)
    m = summary(mm, {"device": "npu1"})
    abi = aie.design_for(mm, {"device": "npu1"}).abi()
    want = (abi.get("blocking") or {}).get("dispatches") or abi.get("dispatches_per_run")
    assert m["dispatches_per_run"] == want and m["body"]["source"] == "mlir-aie kernel"


def test_vector_float_sum_of_negative_zeros_stays_negative(tmp_path):
    """The lanes are folded with -0.0 as the accumulator operand, as the scalar sum starts."""
    inst = make_instance("reduce_sum", "f32", [(2, 32)], {"axes": [-1]})
    assert "vector.reduction <add>" in emitters.emit(inst)
    k = compile_kernels([inst], tmp_path)[inst.key]
    y = k(np.full((2, 32), -0.0, np.float32))
    assert np.signbit(y).all() and (y == 0).all()


def test_ops_catalog_says_which_xdna_bodies_are_vector_and_why_not():
    from npubuild.engine.catalog import ops_catalog

    ops = {o["name"]: o["targets"]["xdna"] for o in ops_catalog(bodies=True)}
    add = ops["add"]["bodies"]["npu1"]["bf16"]
    assert {k: add[k] for k in ("lanes", "why", "source")} == {"lanes": 16, "why": "", "source": "generated vector"}
    # what xdna_bodies = "mlir-aie" would give instead
    assert add["mlir_aie"]["kernel"] == "aie_kernels/aie2/add.cc" and add["mlir_aie"]["lanes"] == 16
    gelu2 = ops["gelu"]["bodies"]["npu2"]["bf16"]["mlir_aie"]
    assert gelu2["symbol"] == "gelu_bf16" and gelu2["attrs"] == {"approximate": "tanh"}
    # the default approximate=none keeps the generated body; gelu.cc is taken where an instance has tanh
    gelu1 = ops["gelu"]["bodies"]["npu1"]["bf16"]
    assert gelu1["auto"] == "generated" and gelu1["auto_when"] == {"mlir-aie kernel": {"approximate": "tanh"}}
    relu2 = ops["relu"]["bodies"]["npu2"]["bf16"]  # the generated body is vector there too, and exact: auto keeps it
    assert relu2["mlir_aie"]["kernel"] == "aie_kernels/aie2p/relu.cc" and relu2["auto"] == "generated"
    silu2 = ops["silu"]["bodies"]["npu2"]["bf16"]  # the generated body would be scalar: auto takes the kernel
    assert silu2["mlir_aie"]["kernel"] == "aie_kernels/aie2p/silu.cc" and silu2["auto"] == "mlir-aie kernel"
    assert ops["reduce_max"]["bodies"]["npu2"]["bf16"]["mlir_aie"] == {
        "kernel": None, "why": "no mlir-aie kernel for reduce_max on aie2p (only aie2)"}
    assert ops["exp"]["bodies"]["npu1"]["f32"]["mlir_aie"]["why"] == "mlir-aie's exp_bf16_1024 takes bf16, not f32"
    assert ops["reduce_max"]["bodies"]["npu1"]["i8"]["lanes"] == 64
    exp = ops["exp"]["bodies"]["npu1"]["f32"]
    assert exp["source"] == "scalar" and "no aievec lowering on aie2" in exp["why"]
    assert all(v["why"] for per in ops["argmax"]["bodies"].values() for v in per.values())  # every scalar says why
    assert "bodies" not in ops_catalog()[0]["targets"]["xdna"]  # only when asked (it emits per op)


@pytest.mark.parametrize("dtype", ["bf16", "f32"])
@pytest.mark.parametrize("op", ["neg", "abs", "max", "relu"])
def test_npu_lane_forms_are_their_numpy_model_and_differ_from_the_oracle_only_in_a_nans_sign(op, dtype):
    """On an AIE core neg is -0.0 - x and abs maximumf(x, -0.0 - x) + 0.0 (no vector bit cast lowers there); max and
    relu run on the dtype's own lanes. The host target keeps the sign-bit neg/abs."""
    from tests.hostkit import compiled_library
    from npubuild.runner.host import HostKernel

    n_in = 2 if op == "max" else 1
    inst = make_instance(op, dtype, [(2, 64)] * n_in, {})
    from npubuild.core.constants import numpy_dtype

    dt = numpy_dtype(dtype)
    rng = np.random.default_rng(3)
    xs = [(rng.standard_normal((2, 64)) * 4).astype(dt) for _ in range(n_in)]
    specials = np.array([np.nan, -np.nan, 0.0, -0.0, np.inf, -np.inf, 1e-40, -3.0], np.float32).astype(dt)
    xs[0][0, :8] = specials
    if n_in == 2:
        xs[1][0, :8] = specials[::-1]
    wide = [x.astype(np.float32) for x in xs]
    with np.errstate(invalid="ignore"):
        model = {"neg": lambda a: np.float32(-0.0) - a, "abs": lambda a: np.maximum(a, np.float32(-0.0) - a) + np.float32(0.0),
                 "max": np.maximum, "relu": lambda a: np.maximum(a, np.float32(0.0))}[op](*wide).astype(dt)
        oracle = {"neg": np.negative, "abs": np.abs, "max": np.maximum,
                  "relu": lambda a: np.maximum(a, np.float32(0.0))}[op](*wide).astype(dt)
    host = emitters.emit(inst)
    for arch in ("aie2", "aie2p"):
        with vector.profile(arch):
            text = emitters.emit(inst)
        if vector.decision(inst, arch)["lanes"] == "scalar":  # f32 max/relu/abs on aie2p: maximumf on f32 lanes
            assert arch == "aie2p" and dtype == "f32" and op != "neg"
            continue
        assert (text == host) == (op in ("max", "relu"))
        got = HostKernel(compiled_library(text, f"{op}_{dtype}_{arch}"), inst.describe())(*xs)
        nan = np.isnan(model.astype(np.float32))
        assert got[~nan].tobytes() == model[~nan].tobytes(), (arch, got[0, :8], model[0, :8])
        if op in ("neg", "abs"):  # bit for bit, -0.0 included
            assert got[~nan].tobytes() == oracle[~nan].tobytes()
        else:  # of a +0.0/-0.0 pair maximumf returns the second operand (docs/ops.md), NumPy either
            assert np.array_equal(got[~nan].astype(np.float32), oracle[~nan].astype(np.float32))
        assert np.isnan(got.astype(np.float32)[nan]).all() and np.isnan(oracle.astype(np.float32)[nan]).all()
