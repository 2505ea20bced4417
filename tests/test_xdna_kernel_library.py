"""mlir-aie's library kernels as xdna bodies: the catalog against the sources,
the numerics models against the oracle, the core's call text, the object recipe.

The sources are not on CI machines, so the prototypes and table values read
from mlir-aie at MIRROR_COMMIT are recorded here; when the bare mirror is
present, the tests also read them from it.
"""
from __future__ import annotations

import dataclasses
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from npubuild import ops
from npubuild.core.constants import numpy_dtype
from npubuild.emitters.aie import kernel_library as kl
from npubuild.emitters.aie import kernel_numerics as kn
from npubuild.core.errors import UserError
from npubuild.ops.registry import normalize_attrs
from npubuild.specfile.instances import make_instance
from npubuild.toolchain import aie_kernel_objects as ako

MIRROR = Path("/work/.mirror/hunhoffe+mlir-aie/repo")
MIRROR_COMMIT = "1e400306479ef709a0f897e330cd51fc297f9a13"
BF16 = numpy_dtype("bf16")

# The extern "C" prototypes (joined onto one line) and the lines fixing the element
# counts, as they stand in aie_kernels/ at MIRROR_COMMIT.
RECORDED = {
    "aie2/relu.cc": ("void bf16_relu(bfloat16 *a_in, bfloat16 *c_out)", "relu(a_in, c_out, 1024);"),
    "aie2/add.cc": ("void eltwise_add_bf16_vector(bfloat16 *a_in, bfloat16 *b_in, bfloat16 *c_out)",
                    "eltwise_vadd<bfloat16, bfloat16, 1024>(a_in, b_in, c_out);"),
    "aie2/mul.cc": ("void eltwise_mul_bf16_vector(bfloat16 *a_in, bfloat16 *b_in, bfloat16 *c_out)",
                    "eltwise_vmul<bfloat16, bfloat16, 1024>(a_in, b_in, c_out);"),
    "aie2/gelu.cc": ("void gelu_bf16(bfloat16 *restrict input, bfloat16 *restrict output)", "int32_t input_size = 1024;"),
    "aie2/silu.cc": ("void silu_bf16(bfloat16 *restrict input, bfloat16 *restrict output)", "int32_t input_size = 1024;"),
    "aie2/bf16_exp.cc": ("void exp_bf16_1024(bfloat16 *a_in, bfloat16 *c_out)", "exp_bf16_func<1024>(a_in, c_out);"),
    "aie2/reduce_max.cc": ("void reduce_max_vector_bfloat16(bfloat16 *a_in, bfloat16 *c_out, int32_t input_size)", ""),
    "aie2/softmax.cc": ("void softmax_bf16(bfloat16 *restrict input, bfloat16 *restrict output, const int32_t input_size)", ""),
    "aie2p/gelu.cc": ("void gelu_bf16(bfloat16 *restrict input, bfloat16 *restrict output)", "int32_t input_size = 1024;"),
    "aie2p/silu.cc": ("void silu_bf16(bfloat16 *restrict input, bfloat16 *restrict output)", "int32_t input_size = 1024;"),
    "aie2p/bf16_exp.cc": ("void exp_bf16_1024(bfloat16 *a_in, bfloat16 *c_out)", "exp_bf16_func<1024>(a_in, c_out);"),
    "aie2p/softmax.cc": ("void softmax_bf16(bfloat16 *restrict input, bfloat16 *restrict output, const int32_t input_size)", ""),
    # added to mlir-aie after MIRROR_COMMIT: read at kl.READ_LATER[src]
    "aie2p/relu.cc": ("void bf16_relu(bfloat16 *a_in, bfloat16 *c_out)", "relu_vectorized_bf16(a_in, c_out, 1024);"),
    "aie2p/add.cc": ("void eltwise_add_bf16_vector(bfloat16 *a_in, bfloat16 *b_in, bfloat16 *c_out)",
                     "eltwise_vadd<bfloat16, bfloat16, 1024>(a_in, b_in, c_out);"),
    "aie2p/mul.cc": ("void eltwise_mul_bf16_vector(bfloat16 *a_in, bfloat16 *b_in, bfloat16 *c_out)",
                     "eltwise_vmul<bfloat16, bfloat16, 1024>(a_in, b_in, c_out);"),
    # the count is the int argument (its loop bound below), or the macro when defined
    "aie2/tanh.cc": ("void tanh_bf16(bfloat16 *restrict input, bfloat16 *restrict output, int input_size)",
                     "for (int i = 0; i < TANH_ELEMS; i += 32) {"),
    "aie2/sigmoid.cc": ("void sigmoid_bf16(bfloat16 *restrict input, bfloat16 *restrict output, int input_size)",
                        "for (int i = 0; i < vector_size; i += 32) {"),
    "aie2p/tanh.cc": ("void tanh_bf16(bfloat16 *restrict input, bfloat16 *restrict output, int input_size)",
                      "for (int i = 0; i < num_elems; i += 32) {"),
    "aie2p/sigmoid.cc": ("void sigmoid_bf16(bfloat16 *restrict input, bfloat16 *restrict output, int input_size)",
                         "for (int i = 0; i < num_elems; i += 32) {"),
}
# The count macros: `#ifndef X / #define X vector_size` in the source (none: the loop runs to the argument)
COUNT_MACROS = {"aie2/tanh.cc": "TANH_ELEMS", "aie2p/sigmoid.cc": "SIGMOID_ELEMS"}
# The vector each kernel's loop loads (lanes of bf16), as written in the source.
LANES = {
    "aie2/relu.cc": ("v32bfloat16 input = *(v32bfloat16 *)(a + i);", 32),
    "aie2/add.cc": ("constexpr int vec_factor = 16;", 16),
    "aie2/mul.cc": ("constexpr int vec_factor = 16;", 16),
    "aie2/gelu.cc": ("aie::begin_restrict_vector<16>((bfloat16 *)input_vector);", 16),
    "aie2/silu.cc": ("aie::begin_restrict_vector<16>((bfloat16 *)input_vector);", 16),
    "aie2/bf16_exp.cc": ("v16bfloat16 vec_in = *(v16bfloat16 *)(in + i);", 16),
    "aie2/reduce_max.cc": ("_reduce_max_vector<bfloat16, aie::vector<bfloat16>>(a_in, c_out, input_size);", 32),
    "aie2/softmax.cc": ("auto it_exp_in = aie::cbegin_vector<16>((bfloat16 *)input_vector);", 16),
    "aie2p/gelu.cc": ("aie::begin_restrict_vector<16>((bfloat16 *)input_vector);", 16),
    "aie2p/silu.cc": ("aie::begin_restrict_vector<16>((bfloat16 *)input_vector);", 16),
    "aie2p/bf16_exp.cc": ("#define VEC_LEN 16", 16),
    "aie2p/softmax.cc": ("#define SM_VEC_LEN 32", 32),
    "aie2p/relu.cc": ("auto it_in = aie::begin_restrict_vector<32>((bfloat16 *)a);", 32),
    "aie2p/add.cc": ("constexpr int vec_factor = 32;", 32),
    "aie2p/mul.cc": ("constexpr int vec_factor = 32;", 32),
    "aie2/tanh.cc": ("auto it_in = aie::begin_restrict_vector<32>((bfloat16 *)input_vector);", 32),
    "aie2/sigmoid.cc": ("auto it_in = aie::begin_restrict_vector<32>((bfloat16 *)input_vector);", 32),
    "aie2p/tanh.cc": ("auto it_in = aie::begin_restrict_vector<32>((bfloat16 *)input_vector);", 32),
    "aie2p/sigmoid.cc": ("auto it_in = aie::begin_restrict_vector<32>((bfloat16 *)input_vector);", 32),
}
LUT_KERNELS = {"aie2/gelu.cc", "aie2/silu.cc", "aie2/bf16_exp.cc", "aie2/softmax.cc",  # #include <lut_based_ops.h>
               "aie2/tanh.cc", "aie2/sigmoid.cc"}  # #include "lut_based_ops.h"


def _mirror_show(path: str) -> str | None:
    if not (MIRROR / "HEAD").exists():
        return None
    r = subprocess.run(["git", f"--git-dir={MIRROR}", "show", f"{MIRROR_COMMIT}:{path}"], capture_output=True, text=True, check=False)
    return r.stdout if r.returncode == 0 else None


def _params(prototype: str) -> list[str]:
    inner = prototype[prototype.index("(") + 1: prototype.rindex(")")]
    return [p.strip() for p in inner.split(",")]


# ---- the catalog against the sources --------------------------------------------------------------------------------


def test_every_entry_matches_its_recorded_prototype():
    assert {e.source for e in kl.CATALOG} == set(RECORDED)
    for e in kl.CATALOG:
        proto, count_line = RECORDED[e.source]
        assert e.prototype == proto, e.source  # the catalog quotes the source
        assert re.match(rf"void {e.symbol}\(", proto), e.source
        params = _params(proto)
        assert len(params) == len(e.args), e.source
        for p, role in zip(params, e.args):
            if role == "n":
                assert p.split()[-2] in ("int32_t", "int"), (e.source, p)
            else:
                assert p.startswith("bfloat16 *") and e.dtype == "bf16", (e.source, p)
        assert (e.kind == "fixed") == bool(count_line), e.source
        if e.kind == "fixed" and "n" in e.args:  # the loop runs to the argument, or to the macro when defined
            macro = COUNT_MACROS.get(e.source)
            assert e.defines == ((f"{macro}={e.fixed_elems}",) if macro else ()), e.source
            assert re.search(rf"i < ({macro}|num_elems|vector_size);", count_line), e.source
        elif e.kind == "fixed":
            assert re.search(rf"\b{e.fixed_elems}\b", count_line), e.source
        assert e.lut == (e.source in LUT_KERNELS), e.source
        lanes = LANES[e.source][1]
        assert e.multiple == lanes and e.align == 2 * lanes, e.source  # bf16: 2 bytes a lane
        assert e.object_name.endswith(".a" if e.lut else ".o")


@pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason="no mlir-aie mirror on this machine")
def test_recorded_prototypes_are_in_the_mirror():
    for src, (proto, count_line) in RECORDED.items():
        if src in kl.READ_LATER:  # not at MIRROR_COMMIT: read at its own commit
            assert _mirror_show(f"aie_kernels/{src}") is None, f"{src} is at MIRROR_COMMIT: drop it from READ_LATER"
            continue
        text = _mirror_show(f"aie_kernels/{src}")
        assert text is not None, src
        extern = text[text.index('extern "C"'):]
        flat = re.sub(r"\s+", " ", extern)
        assert proto in flat, src
        if count_line:
            assert count_line in flat, src
        assert ("#include <lut_based_ops.h>" in text) == (src in LUT_KERNELS), src
        assert LANES[src][0] in text, src
    for src in kl.LEFT_OUT:
        assert (_mirror_show(f"aie_kernels/{src}") is None) == (src in kl.READ_LATER), src


def test_later_kernels_name_their_commit():
    later = {e.source for e in kl.CATALOG if e.source in kl.READ_LATER} | (set(kl.LEFT_OUT) & set(kl.READ_LATER))
    assert later == set(kl.READ_LATER)
    for src, commit in kl.READ_LATER.items():
        assert re.fullmatch(r"[0-9a-f]{40}", commit) and commit != MIRROR_COMMIT, src
    assert kl.entries("relu", "aie2p")[0].describe()["read_at"] == kl.READ_LATER["aie2p/relu.cc"]
    assert kl.entries("relu", "aie2")[0].describe()["read_at"] == MIRROR_COMMIT
    # tanh and sigmoid: added after MIRROR_COMMIT on both archs; aie2p's hardware aie::tanh is modelled as gelu's
    for op in ("tanh", "sigmoid"):
        assert {e.arch: e.describe()["read_at"] for e in kl.entries(op)} == {
            a: kl.READ_LATER[f"{a}/{op}.cc"] for a in ("aie2", "aie2p")}
    assert not set(kl.LEFT_OUT) & {"aie2p/tanh.cc", "aie2p/sigmoid.cc"}


def test_entries_cover_only_ops_with_matching_semantics():
    for e in kl.CATALOG:
        op = ops.REGISTRY[e.op]
        assert e.dtype in op.dtypes
        for k, v in e.attrs:
            assert v in op.attr(k).choices
    # the tanh form only: gelu's default (erf) is not what gelu.cc computes
    assert dict(kl.entries("gelu", "aie2")[0].attrs) == {"approximate": "tanh"}
    assert "gamma" in kl.LEFT_OUT["aie2p/rms_norm.cc"]
    # aie2/softmax.cc subtracts no row maximum: it is taken only behind the prologue that subtracts it
    (sm,) = kl.entries("softmax", "aie2")
    assert sm.prologue == kl.ROW_SHIFT and "aie2/softmax.cc" not in kl.LEFT_OUT
    assert all(not e.prologue for e in kl.CATALOG if e is not sm)
    assert not kl.entries("layer_norm") and not kl.entries("rope") and not kl.entries("rms_norm")


# ---- lookup tables ----------------------------------------------------------------------------------------------------

# From aie_runtime_lib/AIE2/lut_based_ops.cpp at MIRROR_COMMIT: exp_ilut_ab[0..7] (e^0 .. e^7),
# the saturation value, exp_ilut_ab from index 128 on (e^-128 ..) and exp_flut_ab[0..7].
ILUT_HEAD = [16256, 16430, 16620, 16801, 16986, 17172, 17354, 17545]
ILUT_SATURATED = 32505
FLUT_HEAD_NONZERO = 16256  # flut[0] = e^0


def _lut_arrays(src: str, name: str) -> list[int]:
    m = re.search(name + r"\[\d+\]\s*=\s*\{(.*?)\};", src, re.DOTALL)
    return [v for v in re.findall(r"-?[\d.]+(?:e-?\d+)?", m.group(1))]


def test_exp_tables_reproduce_the_recorded_values():
    ilut, flut = kn.exp_tables()
    assert list(ilut[:8]) == ILUT_HEAD
    assert set(ilut[89:128]) == {ILUT_SATURATED} and ilut[88] == ILUT_SATURATED  # e^88 and beyond
    assert flut[0] == FLUT_HEAD_NONZERO
    # exp(1.5) from e^1 * e^(128/256), rounded: within a bf16 step of the true value
    y = kn.exp_lut(np.array([1.5], dtype=np.float32).astype(BF16))
    assert abs(float(y[0]) - np.exp(1.5)) / np.exp(1.5) < 2**-7


@pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason="no mlir-aie mirror on this machine")
def test_exp_and_tanh_tables_equal_the_mirror():
    src = _mirror_show("aie_runtime_lib/AIE2/lut_based_ops.cpp")

    def distinct(vals, group):  # every `group` entries hold two copies of group/2 values
        out = []
        for i in range(0, len(vals), group):
            out += vals[i: i + group // 2]
        return out

    ilut, flut = kn.exp_tables()
    assert [int(v) for v in distinct(_lut_arrays(src, "exp_ilut_ab"), 16)] == [int(v) for v in ilut]
    assert [int(v) for v in distinct(_lut_arrays(src, "exp_flut_ab"), 16)] == [int(v) for v in flut]
    t = [float(v) for v in _lut_arrays(src, "tanh_lut_ab")]
    pairs = distinct([(t[i], t[i + 1]) for i in range(0, len(t), 2)], 4)
    assert pairs == kn.tanh_pieces()


# tanh_lut_ab at MIRROR_COMMIT: pieces 0, 13, 16 and 31 ((slope, offset), table order)
TANH_RECORDED = {0: (0.0, -1.0), 13: (0.69140625, -0.11962890625), 16: (1.0, 0.0), 31: (0.0, 1.0)}


def test_tanh_pieces_reproduce_the_recorded_values():
    pieces = kn.tanh_pieces()
    assert len(pieces) == 32
    assert {k: pieces[k] for k in TANH_RECORDED} == TANH_RECORDED


def test_tanh_pieces_are_a_tanh():
    x = np.linspace(-6, 6, 4001).astype(np.float32).astype(BF16)
    err = np.abs(kn.tanh_lut(x) - np.tanh(x.astype(np.float64)))
    assert err.max() < 0.0055  # a piecewise-linear tanh (max error 0.0051), saturated outside [-4, 4)
    assert kn.tanh_lut(np.array([5.0], np.float32))[0] == 1.0 and kn.tanh_lut(np.array([-5.0], np.float32))[0] == -1.0


# ---- numerics models vs the oracle -----------------------------------------------------------------------------------


def _inputs(e: kl.LibraryKernel, rng, rows: int = 4):
    lo, hi = e.tolerance.domain
    lo, hi = max(lo, -100.0), min(hi, 100.0)
    n = e.fixed_elems or 512
    k = sum(1 for a in e.args if a.startswith("in"))
    return [rng.uniform(lo, hi, (rows, n)).astype(np.float32).astype(BF16) for _ in range(k)]


@pytest.mark.parametrize("e", kl.CATALOG, ids=lambda e: f"{e.op}-{e.arch}")
def test_model_agrees_with_the_oracle_within_the_documented_tolerance(e):
    rng = np.random.default_rng(7)
    ins = _inputs(e, rng)
    op = ops.REGISTRY[e.op]
    attrs = normalize_attrs(op, dict(e.attrs))
    ref = np.asarray(op.evaluate(ins, attrs, "bf16")).astype(np.float64)
    y = kl.model(e, ins)
    assert y.dtype == BF16 and y.shape == ref.shape
    y = y.astype(np.float64)
    t = e.tolerance
    bad = np.abs(y - ref) > t.atol + t.rtol * np.abs(ref)
    assert not bad.any(), f"{e.op}/{e.arch}: {np.count_nonzero(bad)} outside {t}"


@pytest.mark.parametrize("op_arch", [("gelu", "aie2"), ("silu", "aie2"), ("exp", "aie2"), ("exp", "aie2p"), ("softmax", "aie2p"),
                                     ("softmax", "aie2"),
                                     ("tanh", "aie2"), ("sigmoid", "aie2"), ("sigmoid", "aie2p")])
def test_approximate_kernels_are_modelled_not_the_oracle(op_arch):
    """The models carry the kernels' own errors: the LUT tanh, the fixed-point exp, bf16 log2e."""
    e = kl.entries(*op_arch)[0]
    ins = _inputs(e, np.random.default_rng(3))
    op = ops.REGISTRY[e.op]
    ref = np.asarray(op.evaluate(ins, normalize_attrs(op, dict(e.attrs)), "bf16"))
    assert np.count_nonzero(kl.model(e, ins) != ref) > 0


def test_aie2p_exp_carries_the_bf16_log2e():
    e = kl.entries("exp", "aie2p")[0]
    y = float(kl.model(e, [np.array([10.0], np.float32).astype(BF16)])[0])
    assert abs(y / np.exp(10.0 * kn.LOG2E_BF16 / np.log2(np.e)) - 1) < 2**-7  # not e^10
    assert abs(y / np.exp(10.0) - 1) > 0.01


def _bits(a):
    return np.asarray(a).view(np.uint16)


def _every_bf16(lo: float, hi: float):
    x = np.arange(1 << 16, dtype=np.uint16).view(BF16)
    f = x.astype(np.float32)
    return x[np.isfinite(f) & (f >= lo) & (f <= hi)]


@pytest.mark.parametrize("op", ["tanh", "sigmoid"])
def test_tanh_and_sigmoid_hold_their_tolerance_on_every_bf16_input(op):
    """The random-input test above draws from [-100, 100]; these kernels' errors are near 0, so every input."""
    o = ops.REGISTRY[op]
    for e in kl.entries(op):
        x = _every_bf16(*e.tolerance.domain)
        ref = np.asarray(o.evaluate([x], {}, "bf16")).astype(np.float64)
        y = kl.model(e, [x]).astype(np.float64)
        t = e.tolerance
        assert (np.abs(y - ref) <= t.atol + t.rtol * np.abs(ref)).all(), e.arch


def test_aie2_tanh_is_the_lut_tanh_and_aie2p_tanh_the_rounded_tanh():
    x = _every_bf16(-1e4, 1e4)
    t2, t2p = kl.entries("tanh", "aie2")[0], kl.entries("tanh", "aie2p")[0]
    assert np.array_equal(_bits(kl.model(t2, [x])), _bits(kn.tanh_lut(x).astype(BF16)))
    assert np.array_equal(_bits(kl.model(t2p, [x])), _bits(np.tanh(x.astype(np.float32)).astype(BF16)))
    # on [0, 1/4) the LUT piece is y = x: 0.2383 comes back as itself, 1.9% above tanh
    y = float(kl.model(t2, [np.array([0.23828125], np.float32).astype(BF16)])[0])
    assert y == 0.23828125 and y / np.tanh(0.23828125) - 1 > 0.018


def test_sigmoid_models_step_as_their_sources():
    x = _every_bf16(-1e4, 1e4)
    f = x.astype(np.float32)

    def r(v):
        return np.asarray(v, np.float32).astype(BF16).astype(np.float32)

    # aie2: half_x stored as bf16, LUT tanh, + 1 and * 0.5 rounded to bf16
    want2 = r(r(kn.tanh_lut(r(f * np.float32(0.5))) + np.float32(1)) * np.float32(0.5))
    assert np.array_equal(_bits(kl.model(kl.entries("sigmoid", "aie2")[0], [x])), _bits(want2.astype(BF16)))
    # aie2p: half_x stays f32, the hardware tanh rounded to bf16, then the same two roundings
    want2p = r(r(r(np.tanh(f * np.float32(0.5))) + np.float32(1)) * np.float32(0.5))
    assert np.array_equal(_bits(kl.model(kl.entries("sigmoid", "aie2p")[0], [x])), _bits(want2p.astype(BF16)))
    # 1 + tanh in bf16: sigmoid is 0 once tanh(x/2) rounds to -1, and a multiple of 2^-8 from 1/2 up
    for e in kl.entries("sigmoid"):
        y = kl.model(e, [np.array([-8.0, 0.0, 0.005, 0.01], np.float32).astype(BF16)]).astype(np.float32)
        assert list(y) == [0.0, 0.5, 0.5, 0.5 + 2**-8], e.arch


# ---- choosing and calling -------------------------------------------------------------------------------------------


def _inst(op, shapes, attrs=None, dtype="bf16"):
    return make_instance(op, dtype, shapes, attrs or {})


def test_kernel_call_func_level_link_with():
    c = kl.kernel_call(_inst("add", [[1, 1024], [1, 1024]]), "npu1")
    assert c.object_name == "aiek_aie2_add_bf16.o"
    assert c.declaration("func") == (
        "func.func private @eltwise_add_bf16_vector(memref<1x1024xbf16>, memref<1x1024xbf16>, memref<1x1024xbf16>) "
        'attributes {link_with = "aiek_aie2_add_bf16.o"}'
    )
    assert c.core_attr("func") == "" and c.constant_lines() == []
    assert c.call_lines(["%s0", "%s1"], "%o") == [
        "func.call @eltwise_add_bf16_vector(%s0, %s1, %o) : (memref<1x1024xbf16>, memref<1x1024xbf16>, memref<1x1024xbf16>) -> ()"
    ]


def test_kernel_call_core_level_link_with_and_the_lut_archive():
    c = kl.kernel_call(_inst("gelu", [[1024]], {"approximate": "tanh"}), "npu1")
    assert c.object_name == "aiek_aie2_gelu_bf16.a"  # the kernel and lut_based_ops.o, archived
    assert c.declaration("core") == "func.func private @gelu_bf16(memref<1024xbf16>, memref<1024xbf16>)"
    assert c.core_attr("core") == 'link_with = "aiek_aie2_gelu_bf16.a"'
    with pytest.raises(ValueError):
        c.declaration("somewhere")
    with pytest.raises(ValueError):
        c.call_lines(["%a", "%b"], "%o")


def test_kernel_call_of_a_row_kernel_passes_the_row_length():
    c = kl.kernel_call(_inst("softmax", [[1, 4096]]), "npu2")
    assert c.declaration() == (
        'func.func private @softmax_bf16(memref<1x4096xbf16>, memref<1x4096xbf16>, i32) attributes {link_with = "aiek_aie2p_softmax_bf16.o"}'
    )
    assert c.constant_lines() == ["%kn = arith.constant 4096 : i32"]
    assert c.call_lines(["%s0"], "%o") == ["func.call @softmax_bf16(%s0, %o, %kn) : (memref<1x4096xbf16>, memref<1x4096xbf16>, i32) -> ()"]
    r = kl.kernel_call(_inst("reduce_max", [[1, 512]]), "npu1")
    assert r.call_lines(["%s0"], "%o", "%len") == [
        "func.call @reduce_max_vector_bfloat16(%s0, %o, %len) : (memref<1x512xbf16>, memref<1xbf16>, i32) -> ()"
    ]
    assert r.describe()["row_length"] == 512 and r.describe()["body_source"] == "mlir-aie"


@pytest.mark.parametrize("op,device,obj", [
    ("tanh", "npu1", "aiek_aie2_tanh_bf16_TANH_ELEMS-1024.a"), ("sigmoid", "npu1", "aiek_aie2_sigmoid_bf16.a"),
    ("tanh", "npu2", "aiek_aie2p_tanh_bf16.o"), ("sigmoid", "npu2", "aiek_aie2p_sigmoid_bf16_SIGMOID_ELEMS-1024.o"),
])
def test_kernel_call_of_a_fixed_kernel_with_a_count_passes_the_chunk(op, device, obj):
    """tanh_bf16 / sigmoid_bf16 take the element count: the 1024-element chunk, whatever its shape's last axis."""
    for shape, ty in (([1024], "memref<1024xbf16>"), ([1, 1024], "memref<1x1024xbf16>"), ([32, 32], "memref<32x32xbf16>")):
        c = kl.kernel_call(_inst(op, [shape]), device)
        assert c.count == 1024 and c.object_name == obj
        assert c.constant_lines() == ["%kn = arith.constant 1024 : i32"]
        assert c.call_lines(["%s0"], "%o") == [f"func.call @{op}_bf16(%s0, %o, %kn) : ({ty}, {ty}, i32) -> ()"]
        assert c.describe()["row_length"] == 1024
    assert kl.why_not(_inst(op, [[2, 1024]]), device).endswith("exactly 1024 elements, this chunk has 2048")
    r = kl.chunk_rule(_inst(op, [[64, 4096]]), device)
    assert (r.elements, r.rows, r.align) == (1024, 0, 64)


@pytest.mark.parametrize("op,shapes,attrs,dtype,device,why", [
    ("gelu", [[1024]], {}, "bf16", "npu1", "approximate=tanh"),
    ("relu", [[1024]], {}, "f32", "npu1", "takes bf16, not f32"),
    ("relu", [[2048]], {}, "bf16", "npu1", "exactly 1024 elements"),
    ("reduce_max", [[1, 1024]], {}, "bf16", "npu2", "no mlir-aie kernel for reduce_max on aie2p (only aie2)"),
    ("softmax", [[2, 512]], {}, "bf16", "npu2", "one row per call"),
    ("softmax", [[1, 100]], {}, "bf16", "npu2", "multiple of 32"),
    ("softmax", [[512, 1]], {"axis": 0}, "bf16", "npu2", "last axis"),
    ("reduce_max", [[1, 64]], {}, "bf16", "npu1", "at least 256"),
    ("layer_norm", [[1, 1024], [1024], [1024]], {}, "bf16", "npu2", "no mlir-aie kernel"),
    ("reduce_max", [[512]], {}, "bf16", "npu1", "give the chunk a row axis"),
])
def test_no_kernel_call_when_the_kernel_does_not_compute_the_chunk(op, shapes, attrs, dtype, device, why):
    inst = _inst(op, shapes, attrs, dtype)
    assert kl.kernel_call(inst, device) is None
    assert why in kl.why_not(inst, device)


def test_chunk_rule_for_the_planner():
    r = kl.chunk_rule(_inst("silu", [[64, 4096]]), "npu2")
    assert (r.elements, r.rows, r.align, r.kernel.symbol) == (1024, 0, 32, "silu_bf16")
    s = kl.chunk_rule(_inst("softmax", [[64, 4096]]), "npu2")
    assert (s.elements, s.rows, s.align) == (0, 1, 64)
    assert kl.chunk_rule(_inst("softmax", [[64, 4010]]), "npu2") is None
    assert "multiple of 32" in kl.chunk_problem(_inst("softmax", [[64, 4010]]), "npu2")
    assert kl.chunk_rule(_inst("add", [[64, 4096], [1, 4096]]), "npu1") is None  # broadcasting
    assert kl.chunk_problem(_inst("gelu", [[64, 4096]]), "npu1").endswith("approximate=none")


def test_unknown_device_is_one_clear_error():
    from npubuild.core.errors import UnsupportedOnTarget

    with pytest.raises(UnsupportedOnTarget, match="unknown xdna device 'npu9'"):
        kl.kernel_call(_inst("relu", [[1024]]), "npu9")


# ---- the object recipe and build ------------------------------------------------------------------------------------


def _script(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


@pytest.fixture
def install(tmp_path, monkeypatch):
    """An mlir-aie install tree (include/aie_api, include/aie_kernels, aie_runtime_lib) and a Peano whose
    clang++ / llvm-ar only record their argv and write their output."""
    prefix = tmp_path / "mlir_aie"
    inc = prefix / "include"
    (inc / "aie_api").mkdir(parents=True)
    for arch in ("aie2", "aie2p"):
        (inc / "aie_kernels" / arch).mkdir(parents=True)
        (inc / "aie_kernels" / arch / "mm.cc").write_text("// mm\n")
    for src in RECORDED:
        (inc / "aie_kernels" / src).write_text(f"// {src}\n")
    (prefix / "aie_runtime_lib" / "AIE2").mkdir(parents=True)
    (prefix / "aie_runtime_lib" / "AIE2" / "lut_based_ops.cpp").write_text("// luts\n")
    log = tmp_path / "tools.log"
    peano = tmp_path / "llvm-aie"
    record = f'echo "$(basename $0) $*" >> {log}\n'
    _script(peano / "bin" / "clang++", record + 'out=""; prev=""\nfor a in "$@"; do [ "$prev" = "-o" ] && out="$a"; prev="$a"; done\n'
            'printf "OBJ" > "$out"\n')
    _script(peano / "bin" / "llvm-ar", record + 'shift; out="$1"; shift; cat "$@" > "$out"\n')
    monkeypatch.setenv("NPUBUILD_AIE_INCLUDE", str(inc))
    tools = {"peano": {"path": str(peano / "bin" / "clang++"), "install_dir": str(peano)}, "aiecc": {}, "xclbinutil": {}}
    return {"prefix": prefix, "inc": inc, "tools": tools, "log": log, "tmp": tmp_path}


def test_recipe_changes_with_source_defines_arch_and_toolchain(install):
    tools, tc = install["tools"], {"id": "tc1"}
    relu = kl.entries("relu", "aie2")[0]
    gelu2, gelu2p = kl.entries("gelu", "aie2")[0], kl.entries("gelu", "aie2p")[0]
    base = ako.recipe_key(ako.aie_kernel_recipe(relu, tc, tools))
    assert ako.recipe_key(ako.aie_kernel_recipe(relu, tc, tools)) == base  # deterministic
    assert ako.recipe_key(ako.aie_kernel_recipe(dataclasses.replace(relu, defines=("X=1",)), tc, tools)) != base
    assert ako.recipe_key(ako.aie_kernel_recipe(relu, {"id": "tc2"}, tools)) != base
    assert ako.aie_kernel_recipe(gelu2, tc, tools)["arch"] == "aie2" and ako.aie_kernel_recipe(gelu2p, tc, tools)["arch"] == "aie2p"
    assert ako.recipe_key(ako.aie_kernel_recipe(gelu2, tc, tools)) != ako.recipe_key(ako.aie_kernel_recipe(gelu2p, tc, tools))
    (install["inc"] / "aie_kernels" / "aie2" / "relu.cc").write_text("// relu v2\n")
    assert ako.recipe_key(ako.aie_kernel_recipe(relu, tc, tools)) != base
    g = ako.recipe_key(ako.aie_kernel_recipe(gelu2, tc, tools))
    (install["prefix"] / "aie_runtime_lib" / "AIE2" / "lut_based_ops.cpp").write_text("// luts v2\n")
    assert ako.recipe_key(ako.aie_kernel_recipe(gelu2, tc, tools)) != g  # the LUT source is in the key
    assert ako.aie_kernel_recipe(relu, tc, tools)["lut_sha256"] is None


def test_build_compiles_archives_and_then_comes_from_the_store(install):
    tools, tc, tmp = install["tools"], {"id": "tc1"}, install["tmp"]
    gelu = kl.entries("gelu", "aie2")[0]
    out = ako.build_aie_kernel(gelu, tools, tc, tmp / "store", tmp / "k1")
    assert out == tmp / "k1" / "link" / "aiek_aie2_gelu_bf16.a" and out.read_bytes() == b"OBJOBJ"
    calls = install["log"].read_text().splitlines()
    assert [c.split()[0] for c in calls] == ["clang++", "clang++", "llvm-ar"]
    assert "aie_kernels/aie2/gelu.cc" in calls[0] and f"-I{install['prefix'] / 'aie_runtime_lib' / 'AIE2'}" in calls[0]
    assert "--target=aie2-none-unknown-elf" in calls[0]
    assert "aie_runtime_lib/AIE2/lut_based_ops.cpp" in calls[1]
    assert sorted(p.name for p in out.parent.iterdir() if not p.name.endswith(".log")) == [out.name]
    # another kernel directory: materialised from the store, nothing runs
    again = ako.build_aie_kernel(gelu, tools, tc, tmp / "store", tmp / "k2")
    assert again.read_bytes() == b"OBJOBJ" and len(install["log"].read_text().splitlines()) == 3
    # a kernel without LUTs is one object, no archive
    relu = ako.build_aie_kernel(kl.entries("relu", "aie2")[0], tools, tc, tmp / "store", tmp / "k3")
    assert relu.name == "aiek_aie2_relu_bf16.o"
    assert [c.split()[0] for c in install["log"].read_text().splitlines()[3:]] == ["clang++"]


def test_missing_sources_are_one_clear_error(install, monkeypatch):
    tools = install["tools"]
    (install["inc"] / "aie_kernels" / "aie2p" / "softmax.cc").unlink()
    with pytest.raises(UserError, match=r"aie_kernels/aie2p/softmax.cc does not exist.*xdna_bodies"):
        ako.aie_kernel_recipe(kl.entries("softmax", "aie2p")[0], {"id": "t"}, tools)
    (install["prefix"] / "aie_runtime_lib" / "AIE2" / "lut_based_ops.cpp").unlink()
    with pytest.raises(UserError, match="lut_based_ops.cpp"):
        ako.aie_kernel_recipe(kl.entries("exp", "aie2")[0], {"id": "t"}, tools)
    os.remove(Path(tools["peano"]["install_dir"]) / "bin" / "llvm-ar")
    monkeypatch.setenv("PATH", str(install["tmp"] / "nothing-here"))  # no system ar either
    (install["prefix"] / "aie_runtime_lib" / "AIE2" / "lut_based_ops.cpp").write_text("//\n")
    with pytest.raises(UserError, match="no llvm-ar in Peano's bin .* and no ar on PATH"):
        ako.build_aie_kernel(kl.entries("exp", "aie2")[0], tools, {"id": "t"}, install["tmp"] / "s", install["tmp"] / "k")
