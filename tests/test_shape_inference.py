"""Shape inference rejects bad shapes/attrs with a clear OpError, and every xdna
restriction (npubuild/targets/xdna/rules.py) refuses what it says through the target's
supports()."""
from __future__ import annotations

import subprocess
import sys

import pytest

from npubuild import targets
from npubuild.core.errors import OpError
from npubuild.ops import REGISTRY, normalize_attrs
from npubuild.targets.xdna.rules import NO_DESIGN
from npubuild.emitters.aie.devices import NO_XDNA_DESIGN, XDNA_F16_TEXT, XDNA_I64_TEXT, XDNA_SUB_BYTE_TEXT, XDNA_U8_TEXT

BANNED = (("i64", XDNA_I64_TEXT), ("f16", XDNA_F16_TEXT), ("u8", XDNA_U8_TEXT), ("i4", XDNA_SUB_BYTE_TEXT),
          ("u4", XDNA_SUB_BYTE_TEXT))
from npubuild.specfile.instances import make_instance
from npubuild.targets.xdna import rules


def infer(op_name, shapes, attrs=None):
    op = REGISTRY[op_name]
    return tuple(op.infer([tuple(s) for s in shapes], normalize_attrs(op, attrs)))


# ---- good shapes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "op, shapes, attrs, want",
    [
        ("reduce_sum", [(2, 3, 4)], {"axes": [0, -1]}, (3,)),
        ("reduce_max", [(2, 3)], {"axes": [], "keepdims": True}, (1, 1)),
        ("argmax", [(2, 3, 4)], {"axis": 1}, (2, 4)),
        ("reshape", [(2, 3, 4)], {"shape": [4, -1]}, (4, 6)),
        ("transpose", [(2, 3, 4)], {}, (4, 3, 2)),
        ("slice", [(10,)], {"axis": 0, "start": 1, "end": -1, "step": 4}, (2,)),  # 1, 5
        ("expand", [(3, 1)], {"shape": [2, 1, 5]}, (2, 3, 5)),
        ("concat", [(2, 3), (2, 1), (2, 2)], {"axis": -1}, (2, 6)),
        ("gather", [(5, 6, 7), (2, 3)], {"axis": 1}, (5, 2, 3, 7)),
        ("gather", [(5, 6), ()], {}, (6,)),
        ("pad", [(2, 3)], {"pads": [[1, 2], [0, 3]]}, (5, 6)),
        ("rope", [(2, 3, 8), (6, 1), (6, 1)], {"head_dim": 4, "n_rot": 2}, (2, 3, 8)),
        ("attention", [(5, 8), (7, 8), (7, 8)], {"num_heads": 2, "head_dim": 4}, (5, 8)),
        ("pool", [(1, 3, 7, 7)], {"mode": "max", "kernel_size": [3, 3], "strides": [2, 2], "pads": [1, 1]}, (1, 3, 4, 4)),
        ("im2col", [(2, 3, 7, 7)], {"kernel_size": [3, 3], "dilations": [2, 2]}, (2 * 3 * 3, 3 * 9)),
        ("matmul", [(2, 5, 4), (4, 3)], {}, (2, 5, 3)),
        ("quantize", [(2, 3, 4)], {"scales": [0.1, 0.2, 0.3]}, (2, 3, 4)),
    ],
)
def test_infer(op, shapes, attrs, want):
    assert infer(op, shapes, attrs) == want


# ---- OpError cases -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "op, shapes, attrs, message",
    [
        ("softmax", [(2, 3)], {"axis": 3}, "axis 3 is out of range for rank 2"),
        ("softmax", [(2, 3)], {"axis": -3}, "axis -3 is out of range for rank 2"),
        ("reduce_sum", [(2, 3)], {"axes": [1, -1]}, "name the same axis twice"),
        ("cumsum", [(4,)], {"axis": 1}, "axis 1 is out of range for rank 1"),
        ("argmin", [(2, 3)], {"axis": 2}, "axis 2 is out of range for rank 2"),
        ("matmul", [(8, 4), (3, 5)], {}, r"a is \[M, K=4\] but b is \[K=3, N\]"),
        ("matmul", [(8, 4), (2, 4, 5)], {}, r"b must be \[K, N\]"),
        ("rms_norm", [(2, 1024), (512,)], {}, r"gamma must have shape \[1024\] \(the normalised axis\), got \[512\]"),
        ("layer_norm", [(2, 8), (8,), (8, 1)], {}, r"beta must have shape \[8\]"),
        ("group_norm", [(1, 6, 4, 4), (6,), (6,)], {"num_groups": 4}, "C=6 is not divisible by num_groups=4"),
        ("group_norm", [(1, 6, 4), (3,), (6,)], {"num_groups": 3}, r"gamma must have shape \[6\]"),
        ("reshape", [(2, 3)], {"shape": [4, 2]}, r"cannot reshape \[2, 3\] \(6 elements\) to \[4, 2\] \(8 elements\)"),
        ("reshape", [(2, 3)], {"shape": [4, -1]}, "not a multiple of 4"),
        ("reshape", [(2, 3)], {"shape": [-1, -1]}, "at most one -1"),
        ("reshape", [(2, 3)], {"shape": [0, 6]}, "positive or -1"),
        ("concat", [(2, 3), (3, 3)], {"axis": 1}, r"input 1 has shape \[3, 3\] but input 0 has \[2, 3\]"),
        ("concat", [(2, 3), (2, 3, 1)], {"axis": 0}, "all dims except axis 0 must match"),
        ("transpose", [(2, 3, 4)], {"perm": [0, 1, 1]}, "not a permutation"),
        ("narrow", [(5,)], {"axis": 0, "start": 3, "length": 3}, "do not fit axis 0 of size 5"),
        ("slice", [(5,)], {"axis": 0, "start": 4, "end": 2}, "selects no element"),
        ("slice", [(5,)], {"axis": 0, "start": 0, "end": 5, "step": -1}, "step must be positive"),
        ("tile", [(2, 3)], {"reps": [2]}, "one entry per axis"),
        ("expand", [(2, 3)], {"shape": [4, 3]}, "do not broadcast"),
        ("trilu", [(4,)], {}, "rank >= 2"),
        ("reverse", [(2, 3)], {"axes": [0, -2]}, "same axis twice"),
        ("gather", [(2, 3), (4,)], {"axis": 2}, "axis 2 is out of range for rank 2"),
        ("pad", [(2, 3)], {"pads": [[1, 1]]}, "one \\[before, after\\] pair per axis"),
        ("pad", [(2, 3)], {"pads": [[0, 0], [3, 0]], "mode": "reflect"}, "at most 2 per side"),
        ("pad", [(2, 3)], {"pads": [[0, 0], [-1, 0]]}, "non-negative"),
        ("rope", [(3, 10), (3, 2), (3, 2)], {"head_dim": 4}, r"last dim of x \(10\) is not a multiple of head_dim \(4\)"),
        ("rope", [(3, 8), (3, 1), (3, 2)], {"head_dim": 4}, r"cos must have shape \[3, 2\]"),
        ("rope", [(3, 8), (3, 1), (3, 1)], {"head_dim": 4, "n_rot": 3}, "n_rot must be even"),
        ("attention", [(4, 8), (4, 6), (4, 8)], {"num_heads": 2, "head_dim": 4}, "num_heads\\*head_dim = 2\\*4 = 8"),
        ("attention", [(2, 4, 8), (3, 4, 8), (3, 4, 8)], {"num_heads": 2, "head_dim": 4}, "same batch"),
        ("attention", [(4, 8), (2, 8), (2, 8)], {"num_heads": 2, "head_dim": 4, "mask": "causal"}, "at least as many keys"),
        ("pool", [(1, 1, 4, 4)], {"mode": "avg", "kernel_size": [2, 2], "pads": [2, 0]}, "at most half the kernel"),
        ("pool", [(3, 4, 4)], {"mode": "max", "kernel_size": [2, 2]}, r"NCHW \(rank 4\)"),
        ("im2col", [(1, 1, 2, 2)], {"kernel_size": [3, 3]}, "does not fit"),
        ("im2col", [(1, 1, 4, 4)], {"kernel_size": [3]}, "kernel_size must have 2 entries"),
        ("quantize", [(2, 4)], {"scales": [0.1, 0.2, 0.3]}, "3 scales given but axis 1 of x \\[2, 4\\] has size 4"),
        ("quantize", [(2, 3)], {"scales": [0.1, 0.2, 0.3], "zero_points": [0]}, "one entry per scale"),
        ("dequantize", [(3,)], {"scales": [0.0]}, "positive"),
        ("quantize", [(3,)], {"scales": [1.0], "zero_points": [300]}, "int8 range"),
    ],
)
def test_op_errors(op, shapes, attrs, message):
    with pytest.raises(OpError, match=message):
        infer(op, shapes, attrs)


def test_zero_points_must_be_codes_of_the_dtype():
    with pytest.raises(OpError, match=r"zero_points of a i8 quantize must be in \[-128, 127\], got \[200\]"):
        make_instance("quantize", "i8", [(3,)], {"scales": [1.0], "zero_points": [200]})
    with pytest.raises(OpError, match=r"zero_points of a u8 dequantize must be in \[0, 255\], got \[-1\]"):
        make_instance("dequantize", "u8", [(3,)], {"scales": [1.0], "zero_points": [-1]})
    assert make_instance("quantize", "u8", [(3,)], {"scales": [1.0], "zero_points": [200]}).output.dtype == "u8"


def test_make_instance_reports_the_op_error():
    with pytest.raises(OpError, match=r"a is \[M, K=64\] but b is \[K=32, N\]"):
        make_instance("matmul", "i8", [(16, 64), (32, 8)], {})


def test_instance_dtypes_follow_the_signatures():
    inst = make_instance("matmul", "i8", [(16, 64), (64, 8)], {})
    assert [t.dtype for t in inst.inputs] == ["f32", "f32"] and inst.output.dtype == "f32"
    q = make_instance("quantize", "i8", [(4, 3)], {"scales": [0.5]})
    assert q.inputs[0].dtype == "f32" and q.output.dtype == "i8"
    d = make_instance("dequantize", "i8", [(4, 3)], {"scales": [0.5]})
    assert d.inputs[0].dtype == "i8" and d.output.dtype == "f32"
    g = make_instance("gather", "i8", [(4, 3), (2,)], {})
    assert [t.dtype for t in g.inputs] == ["i8", "i64"] and g.output.dtype == "i8"
    a = make_instance("argmax", "f16", [(4, 3)], {})
    assert a.output.dtype == "i64" and a.output.shape == (4,)


def test_movement_ops_take_every_dtype_of_a_byte_or_more():
    from npubuild.ops.registry import BYTE_DTYPES, DTYPES

    assert set(DTYPES) - set(BYTE_DTYPES) == {"i4", "u4"}  # quantize/dequantize's codes only
    for name, op in REGISTRY.items():
        if op.family == "movement":
            assert tuple(op.dtypes) == BYTE_DTYPES, name


# ---- xdna restrictions (from the reference design) -----------------------------------------

# (op, shapes, attrs, dtype) that xdna rejects; every xdna restriction in the catalog must be hit.
XDNA_REJECTS = [
    ("softmax", [(4, 8)], {"axis": 0}, "f32"),
    ("softmax", [(4, 8)], {}, "f16"),
    ("rms_norm", [(4, 8), (8,)], {}, "f16"),
    ("layer_norm", [(4, 8), (8,), (8,)], {}, "f16"),
    ("group_norm", [(4, 8), (8,), (8,)], {"num_groups": 2}, "f32"),
    ("group_norm", [(1, 8, 4), (8,), (8,)], {"num_groups": 2}, "f16"),
    ("reduce_sum", [(4, 8)], {"axes": [0]}, "f32"),
    ("reduce_mean", [(4, 8)], {"axes": [0, 1]}, "f32"),
    ("reduce_max", [(4, 8)], {"axes": []}, "f32"),
    ("reduce_min", [(4, 8)], {}, "i32"),
    ("reduce_prod", [(4, 8)], {"axes": [-2]}, "f32"),
    ("cumsum", [(4, 8)], {"axis": 0}, "f32"),
    ("cumsum", [(4, 8)], {"reverse": True}, "f32"),
    ("cumprod", [(4, 8)], {"reverse": True}, "f32"),
    ("cummax", [(4, 8)], {}, "i32"),
    ("argmax", [(4, 8)], {"axis": 0}, "f32"),
    ("argmin", [(4, 8)], {}, "i8"),
    ("transpose", [(2, 3, 4)], {"perm": [1, 0, 2]}, "f32"),
    ("transpose", [(2, 3, 4)], {}, "f32"),
    ("transpose", [(2, 4)], {"perm": [1, 0]}, "i8"),  # the DMAs transpose 32-bit words, a core shuffles bf16 only
    ("trilu", [(2, 3, 3)], {}, "f32"),
    ("reverse", [(2, 3)], {"axes": [0, 1]}, "f32"),
    ("tile", [(2, 3)], {"reps": [2, 2]}, "f32"),
    ("tile", [(2, 3)], {"reps": [1, 1]}, "f32"),
    ("expand", [(1, 3, 1)], {"shape": [2, 3, 4]}, "f32"),
    ("expand", [(3, 1)], {"shape": [2, 3, 4]}, "f32"),
    ("concat", [(2, 3), (2, 3), (2, 3)], {"axis": 0}, "f32"),
    ("pad", [(2, 3)], {"pads": [[1, 0], [0, 1]]}, "f32"),
    ("pad", [(2, 3)], {"pads": [[0, 0], [1, 1]], "mode": "edge"}, "f32"),
    ("reshape", [(2, 3)], {"shape": [6]}, "f16"),
    ("narrow", [(2, 3)], {"axis": 1, "start": 0, "length": 1}, "i8"),
    ("slice", [(2, 3)], {"axis": 1, "start": 0, "end": 1}, "bool"),
    ("gather", [(2, 3), (2,)], {}, "i64"),
    ("stop_gradient", [(2, 3)], {}, "f16"),
    ("attention", [(2, 4, 8), (2, 4, 8), (2, 4, 8)], {"num_heads": 2, "head_dim": 4}, "f32"),
    ("attention", [(4, 8), (6, 8), (6, 8)], {"num_heads": 2, "head_dim": 4}, "f32"),
    ("attention", [(4, 8), (4, 8), (4, 8)], {"num_heads": 2, "head_dim": 4}, "f16"),
    ("lt", [(4, 8), (4, 8)], {}, "u8"),
    ("quantize", [(4, 8)], {"scales": [0.5]}, "i4"),
    ("matmul_nbits", [(1, 64), (8, 2, 16), (8, 2)], {}, "bf16"),
    ("dequantize_nbits", [(8, 2, 16), (8, 2)], {}, "bf16"),
    ("attention", [(4, 8), (4, 8), (4, 8), (4, 4)], {"num_heads": 2, "head_dim": 4}, "f32"),
    ("attention", [(4, 8), (4, 4), (4, 4)], {"num_heads": 2, "head_dim": 4, "kv_num_heads": 1}, "f32"),
    ("attention", [(4, 8), (4, 8), (4, 8)], {"num_heads": 2, "head_dim": 4, "softcap": 20.0}, "f32"),
    ("rope", [(4, 8), (4, 2), (4, 2)], {"head_dim": 4}, "f16"),
    ("pool", [(1, 1, 4, 4)], {"mode": "avg", "kernel_size": [3, 3], "pads": [1, 1]}, "f32"),
    ("pool", [(1, 1, 4, 4)], {"mode": "max", "kernel_size": [2, 2]}, "f16"),
    ("im2col", [(1, 1, 4, 4)], {"kernel_size": [2, 2]}, "i32"),
    ("matmul", [(4, 8), (8, 2)], {}, "f32"),
    # no NPU design (rules.NO_DESIGN)
    ("gather_elements", [(2, 3), (2, 3)], {"index_dtype": "i32"}, "f32"),
    ("scatter_elements", [(2, 3), (2, 3), (2, 3)], {"index_dtype": "i32"}, "f32"),
    ("einsum", [(2, 3), (3, 4)], {"equation": "ij,jk->ik"}, "bf16"),
    ("conv_transpose", [(1, 2, 3, 3), (2, 2, 3, 3)], {}, "bf16"),
    ("resize", [(1, 2, 3, 3)], {"scales": [1, 1, 2, 2]}, "bf16"),
    ("topk", [(4, 8)], {"k": 2}, "bf16"),
    # elementwise.py
    ("gelu", [(4,)], {}, "f32"),
    ("gelu", [(4, 24)], {}, "bf16"),  # the erf form's body takes whole vectors of 16
    ("add", [(4, 1), (4, 3)], {}, "f32"),
    ("mul", [(4,), (4,)], {}, "i32"),
    ("lt", [(4,), (1,)], {}, "f32"),
    ("where", [(4,), (4,), (1,)], {}, "f32"),
    ("fma", [(4,), (4,), (1,)], {}, "f32"),
    ("cast", [(4,)], {"to": "i8"}, "f32"),
    # every op: no i64 and no f16 tensor crosses to the NPU
    ("argmax", [(4, 8)], {}, "f32"),  # i64 indices by default
    ("gather", [(2, 3), (2,)], {"axis": 1}, "f32"),
    ("abs", [(4,)], {}, "i64"),
    ("cast", [(4,)], {"to": "i64"}, "i32"),
    ("cast", [(4,)], {"to": "f16"}, "f32"),
    ("relu", [(4,)], {}, "f16"),
]

# the same ops in a form xdna runs
XDNA_ACCEPTS = [
    ("softmax", [(4, 8)], {"axis": -1}, "f32"),
    ("group_norm", [(1, 8, 4, 4), (8,), (8,)], {"num_groups": 2}, "f32"),
    ("reduce_sum", [(4, 8)], {"axes": [1]}, "f32"),
    ("cumsum", [(4, 8)], {"axis": 1, "exclusive": True}, "f32"),
    ("argmax", [(4, 8)], {"index_dtype": "i32"}, "f32"),
    ("transpose", [(2, 3)], {}, "f32"),
    ("transpose", [(2, 3)], {"perm": [1, 0]}, "i32"),
    ("transpose", [(4, 8)], {"perm": [1, 0]}, "bf16"),
    ("trilu", [(3, 3)], {"upper": False}, "f32"),
    ("reverse", [(2, 3)], {"axes": [0]}, "f32"),
    ("tile", [(2, 3)], {"reps": [1, 4]}, "f32"),
    ("expand", [(2, 1, 4)], {"shape": [2, 3, 4]}, "f32"),
    ("concat", [(2, 3), (2, 5)], {"axis": 1}, "f32"),
    ("pad", [(2, 3)], {"pads": [[0, 0], [1, 2]], "value": -1.0}, "f32"),
    ("gather", [(2, 3), (2,)], {"axis": 1, "index_dtype": "i32"}, "f32"),
    ("attention", [(1, 4, 8), (1, 4, 8), (1, 4, 8)], {"num_heads": 2, "head_dim": 4, "mask": "causal"}, "f32"),
    ("rope", [(4, 8), (4, 2), (4, 2)], {"head_dim": 4, "style": "gptj"}, "f32"),
    ("pool", [(1, 1, 4, 4)], {"mode": "avg", "kernel_size": [3, 3], "pads": [1, 1], "count_include_pad": True}, "f32"),
    ("pool", [(1, 1, 4, 4)], {"mode": "avg", "kernel_size": [2, 2]}, "f32"),
    ("im2col", [(1, 1, 4, 4)], {"kernel_size": [2, 2]}, "f32"),
    ("matmul", [(4, 8), (8, 2)], {}, "i8"),
    ("quantize", [(4, 8)], {"scales": [0.5]}, "i8"),
    ("gelu", [(4, 32)], {}, "bf16"),
    ("gelu", [(4,)], {"approximate": "tanh"}, "f32"),
]


XDNA = targets.get("xdna")


def xdna_problems(op_name, shapes, attrs, dtype) -> list[str]:
    """The texts of the xdna restrictions the combination fails, in order (what the spec loader reports)."""
    return [r.text for r in XDNA.restrictions(op_name) if not r.check(shapes, attrs, dtype)]


@pytest.mark.parametrize("op_name, shapes, attrs, dtype", XDNA_REJECTS, ids=[f"{r[0]}-{i}" for i, r in enumerate(XDNA_REJECTS)])
def test_xdna_rejects(op_name, shapes, attrs, dtype):
    op = REGISTRY[op_name]
    attrs = normalize_attrs(op, attrs)
    op.infer(shapes, attrs)  # the combination itself is valid
    problems = xdna_problems(op_name, shapes, attrs, dtype)
    assert problems
    if op_name in NO_XDNA_DESIGN:  # no design at all: refused whatever the shapes, saying what is missing
        assert XDNA.supports(op_name) == XDNA.supports(op_name, shapes, dtype, attrs) == NO_XDNA_DESIGN[op_name]
        assert problems[0] == NO_DESIGN[op_name].text and NO_XDNA_DESIGN[op_name] in problems[0]
    else:
        assert XDNA.supports(op_name, shapes, dtype, attrs) == "; ".join(problems)
        assert XDNA.supports(op_name) is None  # the op itself is emitted: only this combination is refused
    # the other targets run everything
    for target in ("ref", "host"):
        assert targets.get(target).supports(op_name, shapes, dtype, attrs) is None


@pytest.mark.parametrize("op_name, shapes, attrs, dtype", XDNA_ACCEPTS, ids=[f"{r[0]}-{i}" for i, r in enumerate(XDNA_ACCEPTS)])
def test_xdna_accepts(op_name, shapes, attrs, dtype):
    op = REGISTRY[op_name]
    attrs = normalize_attrs(op, attrs)
    op.infer(shapes, attrs)
    assert xdna_problems(op_name, shapes, attrs, dtype) == []
    assert XDNA.supports(op_name, shapes, dtype, attrs) is None


def test_xdna_supports_without_an_emitter_is_a_note_before_any_restriction(monkeypatch):
    """An op xdna has no emitter for is "not yet emitted" (built on ref only), whatever the shapes;
    the restrictions are asked only of an op it builds."""
    from npubuild.emitters import aie

    monkeypatch.setattr(aie, "has_emitter", lambda op: op != "softmax")
    assert XDNA.supports("softmax") == "not yet emitted"
    assert XDNA.supports("softmax", [(4, 8)], "f32", {"axis": 0}) == "not yet emitted"
    assert XDNA.supports("relu", [(4,)], "f16") == XDNA_F16_TEXT  # attrs None: the op's defaults
    assert XDNA.restrictions("no_such_op") == ()


def test_xdna_rules_name_registered_ops_and_families_share_them():
    """The table is keyed by op name: every key is an op, the ops of a family the NPU design treats
    alike carry the same restrictions, and every movement op the 32-bit cells rule (a new op of such
    a family needs its entry)."""
    from npubuild.targets.xdna import rules

    assert sorted(set(rules.BY_OP) - set(REGISTRY)) == []
    by_family: dict[str, set] = {}
    for name, op in REGISTRY.items():
        own = tuple(r.text for r in rules.BY_OP.get(name, ()))
        if op.family in ("binary", "compare", "reduce", "scan", "arg"):
            by_family.setdefault(op.family, set()).add(own)
        if op.family == "movement":  # transpose: the DMAs' own 32-bit rule (it runs on no core)
            assert own[-1:] == ((rules.TRANSPOSE32 if name == "transpose" else rules.CELL32).text,), name
    assert all(len(v) == 1 and () not in v for v in by_family.values()), by_family


def test_every_xdna_restriction_is_exercised():
    """Each xdna restriction text of each op family is hit by some XDNA_REJECTS entry
    (ops of one family share their restrictions, so one representative is enough)."""
    hit = set()
    for op_name, shapes, attrs, dtype in XDNA_REJECTS:
        op = REGISTRY[op_name]
        hit |= {(op.family, t) for t in xdna_problems(op_name, shapes, normalize_attrs(op, attrs), dtype)}
    missing = sorted(
        {f"{op.family}: {r.text}" for op in REGISTRY.values() for r in XDNA.restrictions(op.name)}
        - {f"{fam}: {t}" for fam, t in hit}
        - {f"{op.family}: {t}" for op in REGISTRY.values() for _, t in BANNED}  # next test
        - {f"{op.family}: {rules.EMPTY_INPUT_TEXT}" for op in REGISTRY.values()}  # test_zero_size.py
    )
    assert not missing, missing


@pytest.mark.parametrize("op_name", sorted(REGISTRY))
def test_no_i64_f16_u8_or_4bit_tensor_reaches_xdna(op_name):
    """Every dtype (and str-attr choice) of every op whose instance would carry an i64, f16 or u8
    tensor is refused on xdna with the one message saying what to use; i32/f32 instances are not."""
    op = REGISTRY[op_name]
    refused = kept = 0
    for dt in op.dtypes:
        for attrs in _str_attr_variants(op):
            ins, out = op.signature(dt, len(op.inputs), attrs)
            texts = [t for _, t in BANNED]
            problems = [r.text for r in XDNA.restrictions(op_name)
                        if r.text in texts and not r.check([()] * len(op.inputs), attrs, dt)]
            for text in dict.fromkeys(t for _, t in BANNED):  # i4 and u4 share one text
                if any(b in (*ins, out) for b, t in BANNED if t == text):
                    assert text in problems, (dt, attrs)
                    refused += 1
                else:
                    assert text not in problems, (dt, attrs)
            kept += not problems
    assert kept or refused


def _str_attr_variants(op):
    base = {a.name: a.default for a in op.attrs if not a.required}
    base.update({a.name: {"int": 1, "float": 1.0, "ints": [1], "floats": [1.0], "int_pairs": [[0, 0]], "str": "x", "bool": False}[a.kind]
                 for a in op.attrs if a.required})
    variants = [base]
    for a in op.attrs:
        if a.kind == "str" and a.choices:
            variants = [{**v, a.name: c} for v in variants for c in a.choices]
    return variants


def test_importing_the_catalog_does_not_import_numpy():
    code = "import sys, npubuild.ops; assert 'numpy' not in sys.modules, 'numpy imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
