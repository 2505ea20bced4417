"""einsum end to end: the equation grammar and its spec-time errors, the output shape and implicit
output of ONNX Einsum, the oracle against a plain-Python sum of products, and host kernels against
the oracle (integers exact; floats within the f32 summation bound of npubuild/emitters/host/einsum.py).

The hand-computed cases (batched matmul, transpose, outer product, bilinear, trace, implicit mode,
ellipsis) are in tests/test_oracles.py.
"""
from __future__ import annotations

import itertools
import textwrap

import numpy as np
import pytest

from npubuild import ops, targets
from npubuild.core.constants import numpy_dtype
from npubuild.core.errors import OpError, SpecError
from npubuild.emitters import host as host_emitters
from npubuild.ops.einsum import parse
from npubuild.ops.registry import AttrError, normalize_attrs
from npubuild.specfile.instances import make_instance

from .hostkit import assert_standard_dialects, compile_kernels

OP = ops.REGISTRY["einsum"]


@pytest.mark.parametrize("eq, why", [
    ("ij->ji->ij", "more than one '->'"),
    ("i1,j->ij", "must be letters a-z, A-Z with at most one '...'"),
    ("i....j", "must be letters"),
    ("ij->ii", "names a label twice"),
    ("ij->k", "output label 'k' of 'ij->k' is in no input term"),
    ("ij->...ij", "has '...' but no input term has"),
    ("a" * 300, "at most 256 characters"),
])
def test_bad_equations_are_attr_errors(eq, why):
    with pytest.raises(AttrError, match=why.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")) as e:
        normalize_attrs(OP, {"equation": eq})
    assert e.value.attr == "equation"


@pytest.mark.parametrize("eq, shapes, why", [
    ("ij,jk->ik", [(2, 3)], "has 2 input terms but 1 inputs"),
    ("ij,jk->ik", [(2, 3), (4, 5)], "label 'j' of 'ij,jk->ik' is 3 on one axis and 4 on another"),
    ("ijk->i", [(2, 3)], "labels 3 axes but input 0 has rank 2"),
    ("...ij->i", [(2,)], "labels 2 axes but input 0 has rank 1"),
    ("...i,...i->...i", [(2, 3), (4, 3)], r"the '\.\.\.' axes of .* do not broadcast"),
])
def test_shape_errors(eq, shapes, why):
    with pytest.raises(OpError, match=why):
        OP.infer(shapes, normalize_attrs(OP, {"equation": eq}))


@pytest.mark.parametrize("eq, shapes, out", [
    ("bhqd,bhkd->bhqk", [(2, 4, 5, 8), (2, 4, 7, 8)], (2, 4, 5, 7)),
    ("ij,jk", [(2, 3), (3, 4)], (2, 4)),
    ("ba,ca", [(2, 3), (4, 3)], (2, 4)),  # implicit: labels used once, alphabetically: b, c
    ("ji", [(2, 3)], (3, 2)),  # implicit transposes: the output is 'ij'
    ("Ba,ab", [(2, 3), (3, 4)], (2, 4)),  # 'B' sorts before 'b' (ASCII), as numpy.einsum
    ("...ij,...jk", [(5, 1, 2, 3), (4, 3, 6)], (5, 4, 2, 6)),  # ellipsis first, broadcast
    ("ii->i", [(3, 3)], (3,)),
    ("ij->", [(3, 4)], ()),
])
def test_output_shapes(eq, shapes, out):
    assert OP.infer(shapes, normalize_attrs(OP, {"equation": eq})) == out


def test_bad_equation_is_one_error_at_its_spec_line(tmp_path):
    from npubuild.specfile.load import load_specs

    k = tmp_path / "specs" / "kernels" / "k.yaml"
    k.parent.mkdir(parents=True)
    k.write_text(textwrap.dedent("""\
        kernels:
          e:
            op: einsum
            attrs: {equation: "ij,jk->iz"}
            shapes:
              - {x0: [2, 3], x1: [3, 4]}
              - {x0: [5, 3], x1: [3, 4]}
        """))
    with pytest.raises(SpecError) as e:
        load_specs(tmp_path / "specs", tmp_path)
    assert [str(d) for d in e.value.diagnostics] == [
        "specs/kernels/k.yaml:4: kernel family 'e': attr 'equation' of 'einsum' output label 'z' of "
        "'ij,jk->iz' is in no input term"
    ]


# ---- the oracle against the definition, in plain Python ---------------------------------------------


def sum_of_products(eq: str, xs) -> np.ndarray:
    """For every output index, the sum over the summed labels of the product of the inputs (floats: math.fsum
    of exact float64 products of two f32 operands)."""
    plan = parse(eq, [x.shape for x in xs])
    out = np.zeros(plan.out_shape(), np.float64)
    for o in itertools.product(*(range(plan.extents[lb]) for lb in plan.output)):
        terms = []
        for s in itertools.product(*(range(plan.extents[lb]) for lb in plan.summed)):
            at = {**dict(zip(plan.output, o)), **dict(zip(plan.summed, s))}
            p = 1.0
            for x, labels in zip(xs, plan.terms):
                p *= float(x[tuple(at[lb] if d > 1 else 0 for lb, d in zip(labels, x.shape))])
            terms.append(p)
        out[o] = sum(terms)
    return out


EQUATIONS = [
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bhqd,bhkd->bhqk", [(1, 2, 3, 4), (1, 2, 5, 4)]),
    ("ij->ji", [(3, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("ii->i", [(4, 4)]),
    ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]),
    ("ij,ij->", [(3, 5), (3, 5)]),
]


@pytest.mark.parametrize("eq, shapes", EQUATIONS)
def test_oracle_is_the_sum_of_products(eq, shapes):
    rng = np.random.default_rng(1)
    xs = [rng.integers(-8, 8, s).astype(np.float32) for s in shapes]  # small integers: every sum is exact
    got = OP.evaluate(xs, normalize_attrs(OP, {"equation": eq}), "f32")
    np.testing.assert_array_equal(got, sum_of_products(eq, xs).astype(np.float32))


# ---- host kernels -----------------------------------------------------------------------------------

HOST = [make_instance("einsum", dt, shapes, {"equation": eq})
        for eq, shapes in EQUATIONS for dt in ("f32", "bf16", "i32")]
HOST += [make_instance("einsum", dt, [(3, 16), (16, 4)], {"equation": "ij,jk->ik"}) for dt in ("f16", "i8", "i64")]


@pytest.fixture(scope="module")
def compiled():
    return compile_kernels(HOST)


def _inputs(inst, rng):
    if inst.dtype in ("f32", "f16", "bf16"):
        return [rng.standard_normal(t.shape).astype(np.float32).astype(numpy_dtype(t.dtype)) for t in inst.inputs]
    return [rng.integers(-100, 100, t.shape).astype(numpy_dtype(t.dtype)) for t in inst.inputs]


@pytest.mark.parametrize("inst", HOST, ids=lambda i: i.id)
def test_host_kernel_matches_the_oracle(inst, compiled):
    rng = np.random.default_rng(int(inst.key[:8], 16))
    xs = _inputs(inst, rng)
    got = np.asarray(compiled[inst.key](*xs))
    want = np.asarray(OP.evaluate(xs, inst.attrs, inst.dtype))
    assert got.dtype == want.dtype and got.shape == want.shape
    if inst.dtype not in ("f32", "f16", "bf16"):
        np.testing.assert_array_equal(got, want)  # integers wrap alike
        return
    # the documented bound: (n - 1)·u·Σ|terms| for the f32 sum, u·Σ|terms| more for three-operand products,
    # and half an ulp of the output dtype for its rounding
    plan = parse(inst.attrs["equation"], inst.shapes)
    n = int(np.prod([plan.extents[lb] for lb in plan.summed], dtype=np.int64))
    abs_terms = sum_of_products(inst.attrs["equation"], [np.abs(x.astype(np.float64)) for x in xs])
    u = 2.0**-24
    half_ulp = {"f32": 2.0**-24, "f16": 2.0**-11, "bf16": 2.0**-8}[inst.dtype]
    bound = (n + len(xs)) * u * abs_terms + half_ulp * np.abs(want.astype(np.float64))
    err = np.abs(got.astype(np.float64) - want.astype(np.float64))
    assert (err <= bound).all(), (inst.id, err.max(), bound.min())


def test_emitted_text_is_standard_dialects():
    for inst in HOST[::4]:
        assert_standard_dialects(host_emitters.emit(inst), inst.id)


def test_xdna_refuses_with_the_reason():
    attrs = normalize_attrs(OP, {"equation": "ij,jk->ik"})
    why = targets.get("xdna").supports("einsum", [(64, 64), (64, 64)], "bf16", attrs)
    assert why.startswith("no NPU design for this op yet (a contraction over any labels")
    assert targets.get("host").supports("einsum", [(64, 64), (64, 64)], "bf16", attrs) is None
