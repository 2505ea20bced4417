"""The AIE vector profiles (npubuild.emitters.host.vector.PROFILE) against mlir-aie's
tests, and a sweep of every bf16 unary/binary op on npu1 and npu2: the body each
core runs (generated vector, an mlir-aie kernel, or scalar with the construct that
stops it and where mlir-aie shows it missing)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from npubuild.emitters import aie
from npubuild.emitters.aie import kernel_library as kl
from npubuild.emitters.aie.rules_check import text_problems
from npubuild.emitters.aie.summary import op_bodies
from npubuild.emitters.host import vector
from npubuild.ops import REGISTRY
from npubuild.specfile.instances import make_instance

MIRROR = Path("/work/.mirror/hunhoffe+mlir-aie/repo")

# op -> (npu1, npu2) under the default xdna_bodies = "auto": "vector" (generated vector<16>),
# "aie2p/silu.cc" (an mlir-aie kernel) or "scalar" (the generated scalar body). max, min and relu run on
# bf16 lanes (they select an operand), which aie2p's aievec.max / min take.
BODIES = {
    "abs": ("vector", "vector"), "add": ("vector", "vector"), "ceil": ("scalar", "scalar"),
    "cos": ("scalar", "scalar"), "div": ("scalar", "scalar"), "elu": ("scalar", "scalar"),
    "erf": ("scalar", "scalar"), "exp": ("aie2/bf16_exp.cc", "aie2p/bf16_exp.cc"), "floor": ("scalar", "scalar"),
    "gelu": ("vector", "vector"),  # the default approximate=none: gelu_lanes' polynomial; approximate=tanh: gelu.cc
    "hard_sigmoid": ("vector", "scalar"), "hard_swish": ("scalar", "scalar"), "leaky_relu": ("vector", "scalar"),
    "log": ("scalar", "scalar"), "log_sigmoid": ("scalar", "scalar"), "max": ("vector", "vector"),
    "min": ("vector", "vector"), "mish": ("scalar", "scalar"), "mod": ("scalar", "scalar"),
    "mul": ("vector", "vector"), "neg": ("vector", "vector"), "pow": ("scalar", "scalar"), "recip": ("scalar", "scalar"),
    "relu": ("vector", "vector"), "round": ("scalar", "scalar"), "rsqrt": ("scalar", "scalar"),
    "sigmoid": ("aie2/sigmoid.cc", "aie2p/sigmoid.cc"), "sign": ("vector", "scalar"), "silu": ("aie2/silu.cc", "aie2p/silu.cc"),
    "sin": ("scalar", "scalar"), "softplus": ("scalar", "scalar"), "softsign": ("scalar", "scalar"),
    "sqrt": ("scalar", "scalar"), "sub": ("vector", "vector"), "tanh": ("aie2/tanh.cc", "aie2p/tanh.cc"),
}
ATTRS = {"gelu": [{}, {"approximate": "tanh"}]}
GELU_TANH = ("aie2/gelu.cc", "aie2p/gelu.cc")
DEVICES = ("npu1", "npu2")
SHAPE = (64, 1024)


def _ops():
    return sorted(n for n, o in REGISTRY.items() if o.family in ("unary", "binary") and "bf16" in o.dtypes)


def test_the_table_covers_every_bf16_unary_and_binary_op():
    assert sorted(BODIES) == _ops()


def _kind(info: dict) -> str:
    if info["source"] == "mlir-aie kernel":
        return info["kernel"].removeprefix("aie_kernels/")
    return "vector" if info["source"] == "generated vector" else "scalar"


@pytest.mark.parametrize("op", sorted(BODIES))
def test_every_bf16_op_emits_the_body_of_the_table_on_both_devices(op):
    for attrs in ATTRS.get(op, [{}]):
        want = GELU_TANH if attrs.get("approximate") == "tanh" else BODIES[op]
        n_in = max(1, len(REGISTRY[op].inputs))
        inst = make_instance(op, "bf16", [list(SHAPE)] * n_in, attrs)
        for dev, expected in zip(DEVICES, want):
            opts = {"device": dev, "body": "auto"}
            text = aie.emit(inst, opts)  # the design text, through the rule checker (frame.render)
            assert text_problems(text) == [], (op, dev)
            info = aie.body_info(inst, opts)
            assert _kind(info) == expected, (op, dev, attrs, info)
            if expected == "scalar":
                # the construct that stops it, and where mlir-aie shows it missing
                assert re.search(r"no aievec lowering on aie2p? for \w+ on vector<\d+x\w+> \(mlir-aie 1e400306", info["why"]), info
                assert "test/Conversion/" in info["why"] or "lib/" in info["why"], info
            elif expected == "vector":
                assert info["lanes"] == 16 and "vector.transfer_read" in text
            else:
                assert f"link_with = \"{kl.entries(op, {'npu1': 'aie2', 'npu2': 'aie2p'}[dev])[0].object_name}\"" in text


def test_npubuild_ops_reports_the_same_bodies():
    for op in _ops():
        per = op_bodies(op, ["bf16"])
        for dev, expected in zip(DEVICES, BODIES[op]):
            b = per[dev]["bf16"]
            if expected.endswith(".cc") and op != "gelu":
                assert b["auto"] == "mlir-aie kernel" and b["mlir_aie"]["kernel"] == f"aie_kernels/{expected}", (op, dev)
            else:
                assert b["source"] == ("generated vector" if expected == "vector" else "scalar"), (op, dev)


def test_describe_op_names_the_construct_and_the_missing_kernel():
    from npubuild.engine.catalog import describe_op, ops_catalog

    gelu = next(o for o in ops_catalog(bodies=True) if o["name"] == "gelu")
    line = next(ln for ln in describe_op(gelu) if ln.strip().startswith("npu2 bf16"))
    # the default approximate=none: the bf16 lanes polynomial (gelu_lanes) ...
    assert line.strip().startswith("npu2 bf16: generated vector x16;"), line
    # ... and mlir-aie's kernel computes the other form, which auto takes there
    assert "aie_kernels/aie2p/gelu.cc" in line and "when approximate: tanh" in line
    assert "default (auto): generated (mlir-aie kernel when approximate: tanh)" in line
    # f32 keeps the host body: its bit casts stop a vector body, and the construct is named
    line = next(ln for ln in describe_op(gelu) if ln.strip().startswith("npu2 f32"))
    assert "bitcast on vector<16xf32>" in line and "VectorToAIEVecConversions.cpp" in line


# ---- the profile entries and their tests -----------------------------------------------------------------------------


def test_every_profile_entry_names_its_test_file_and_construct():
    for table in (vector.PROFILE, vector.HARDWARE):
        for (dev, op, elem, lanes), ev in table.items():
            path, _, construct = ev.partition(": ")
            assert re.fullmatch(r"test/Conversion/(VectorToAIEVec|AIEVecToLLVM)/[\w-]+\.mlir", path), ev
            assert construct and f"{lanes}x{elem}" in construct.replace("vector<", ""), (dev, op, elem, lanes, ev)
    assert vector.AIEVEC_OPS == {d: {k[1:] for k in vector.PROFILE if k[0] == d} for d in ("aie2", "aie2p")}


def test_hardware_forms_are_recorded_but_never_taken():
    """exp, tanh, 1/x and rsqrt lower on aie2p to the hardware functions: not the oracle's numerics."""
    assert {k[1] for k in vector.HARDWARE} == {"exp", "tanh", "inv", "rsqrt"}
    for dev, op, elem, lanes in vector.HARDWARE:
        assert (op, elem, lanes) not in vector.AIEVEC_OPS[dev]


def test_aie2p_takes_nothing_only_an_aie2_test_shows():
    only_aie2 = {k[1:] for k in vector.PROFILE if k[0] == "aie2"} - vector.AIEVEC_OPS["aie2p"]
    assert ("maximumf", "f32", 16) in only_aie2 and ("cmpf", "f32", 16) in only_aie2
    why = vector.missing_why("maximumf", "f32", 16, "aie2p")
    assert "test-max.mlir" in why and "aie-target=aie2" in why


def _mirror(path: str) -> str | None:
    r = subprocess.run(["git", f"--git-dir={MIRROR}", "show", f"{vector.MLIR_AIE_TESTS}:{path}"],
                       capture_output=True, text=True, check=False)
    return r.stdout if r.returncode == 0 else None


_OP_TEXT = {"broadcast": "vector.broadcast", "exp": "math.exp", "tanh": "math.tanh", "rsqrt": "math.rsqrt",
            "inv": "arith.divf"}


@pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason="no mlir-aie mirror on this machine")
def test_every_profile_entry_is_in_its_test_at_the_commit():
    for table in (vector.PROFILE, vector.HARDWARE):
        for (dev, op, elem, lanes), ev in table.items():
            path = ev.split(": ")[0]
            text = _mirror(path)
            assert text is not None, ev
            runs = re.findall(r"// RUN: .*", text)
            if "AIEVecToLLVM" in path:
                assert any(f"aie-target={dev}" in r and "convert-aievec-to-llvm" in r for r in runs), ev
            elif dev == "aie2p":
                assert any("aie-target=aie2p" in r and "convert-vector-to-aievec" in r for r in runs), ev
            else:  # aie2 (truncf: the unprefixed RUN, whose pattern every target registers)
                assert any("convert-vector-to-aievec" in r and "aie2p" not in r for r in runs), ev
            code = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("//"))
            name = _OP_TEXT.get(op, f"vector.reduction <{op.split('.')[1]}>" if op.startswith("reduction.") else f"arith.{op}")
            if "AIEVecToLLVM" in path and (op, elem) in _TWO_STEP:
                aievec_op, vty, pattern = _TWO_STEP[op, elem]
                name, vty = aievec_op, vty or f"vector<{lanes}x{elem}>"
                assert _converted_for_aie2p(pattern), (dev, op, pattern)
            else:
                vty = f"vector<{lanes}x{elem}>"
            hits = [ln for ln in code.splitlines() if name in ln and vty in ln]
            assert hits, (dev, op, elem, lanes, path)


# aie2p entries shown in two steps: the arith/vector op becomes an aievec op by a pattern that
# populateAIEVecV2PConversionPatterns registers (itself, or through populateAIEVecV2CommonConversionPatterns),
# and the AIEVecToLLVM test (AIE2P prefix) lowers that aievec op at the width the pattern makes.
# (op, element type) -> (aievec op, its vector type in the test, or None for the entry's own; the pattern)
_TWO_STEP = {
    ("maximumf", "bf16"): ("aievec.max", "vector<32xbf16>", "LowerVectorMaximumFOpToAIEVecMaxOp"),
    ("minimumf", "bf16"): ("aievec.min", "vector<32xbf16>", "LowerVectorMinimumFOpToAIEVecMinOp"),
    ("maxsi", "i32"): ("aievec.max", None, "LowerVectorMaxSIOpToAIEVecMaxOp"),
    ("minsi", "i32"): ("aievec.min", None, "LowerVectorMinSIOpToAIEVecMinOp"),
    **{("broadcast", t): ("aievec.broadcast_scalar", None, "ConvertSplatToAIEBroadcastAIE2p") for t in ("bf16", "f32", "i32")},
}


def _function_body(src: str, name: str) -> str:
    start = re.search(rf"static void\s+{name}\(", src).start()  # clang-format may break the line after "void"
    return src[start:src.index("\n}\n", start)]


def _converted_for_aie2p(pattern: str) -> bool:
    conv = _mirror("lib/Dialect/AIEVec/Transforms/VectorToAIEVecConversions.cpp")
    v2p = _function_body(conv, "populateAIEVecV2PConversionPatterns")
    common = _function_body(conv, "populateAIEVecV2CommonConversionPatterns")
    return pattern in v2p or ("populateAIEVecV2CommonConversionPatterns(patterns, backend)" in v2p and pattern in common)


@pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason="no mlir-aie mirror on this machine")
def test_what_stops_neg_and_abs_is_in_the_sources_at_the_commit():
    conv = _mirror("lib/Dialect/AIEVec/Transforms/VectorToAIEVecConversions.cpp")
    to_llvm = _mirror("lib/Conversion/AIEVecToLLVM/AIEVecToLLVM.cpp")
    assert "arith::BitcastOp" not in conv  # no pattern: the sign-bit bodies stay scalar
    assert "aievec::NegOp::create" in conv and "aievec::NegOp" not in to_llvm  # negf -> aievec.neg, not lowered
    assert '"getAbs"' in conv  # absf -> an emitc call (C++ backend only)
    assert _mirror("test/Conversion/VectorToAIEVec/test-negf-32-aie2p.mlir") is None


# ---- the last-axis normalisations (bf16, 64 x 1024): the same table, the same checks -------------------------------

NORM_BODIES = {"softmax": ("aie2/softmax.cc", "aie2p/softmax.cc"), "rms_norm": ("vector", "vector"),
               "layer_norm": ("vector", "vector")}


def _norm_instance(op):
    row = list(SHAPE)
    if op == "softmax":
        return make_instance(op, "bf16", [row], {"axis": -1})
    p = [SHAPE[-1]]
    return make_instance(op, "bf16", [row, p] + ([p] if op == "layer_norm" else []), {})


@pytest.mark.parametrize("op", sorted(NORM_BODIES))
def test_the_normalisations_emit_the_body_of_their_table(op):
    inst = _norm_instance(op)
    per = op_bodies(op, ["bf16"])
    for dev, expected in zip(DEVICES, NORM_BODIES[op]):
        opts = {"device": dev, "body": "auto"}
        text = aie.emit(inst, opts)
        assert text_problems(text) == [], (op, dev)
        info = aie.body_info(inst, opts)
        assert _kind(info) == expected, (op, dev, info)
        if expected == "scalar":
            assert re.search(r"no aievec lowering on aie2p? for \w+ on vector<\d+x\w+> \(mlir-aie 1e400306", info["why"]), info
            assert per[dev]["bf16"]["source"] == "scalar", (op, dev)
        elif expected == "vector":
            assert info["lanes"] == 16 and "vector.reduction <add>" in text
            assert per[dev]["bf16"]["source"] == "generated vector", (op, dev)
