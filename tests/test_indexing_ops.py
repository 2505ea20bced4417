"""gather_elements and scatter_elements end to end: catalog entries, shape errors, the oracle against
the ONNX definition's element loop (written out below in plain Python), host kernels bit-exact against
the oracle for every dtype (duplicate indices, negative ones, indices shorter than data), the
kernels' documented choice for an out-of-range index, and the refusal on xdna at spec time.

The ONNX examples themselves are hand cases in tests/test_oracles.py.
"""
from __future__ import annotations

import itertools
import textwrap

import ml_dtypes
import numpy as np
import pytest

from npubuild import ops, targets
from npubuild.core.constants import numpy_dtype
from npubuild.core.errors import OpError, SpecError
from npubuild.emitters import host as host_emitters
from npubuild.ops.registry import AttrError, normalize_attrs
from npubuild.specfile.instances import make_instance

from .hostkit import assert_standard_dialects, compile_kernels
from .test_host_select_movement import assert_same

GATHER, SCATTER = ops.REGISTRY["gather_elements"], ops.REGISTRY["scatter_elements"]
REDUCTIONS = ("none", "add", "mul", "max", "min")


# ---- the definition's loops, in plain Python --------------------------------------------------------


def _positions(shape):
    return itertools.product(*(range(d) for d in shape))


def gather_elements_loop(data, idx, axis):
    """ONNX GatherElements: out[i][j][k] = data[index[i][j][k]][j][k] (axis 0), per element."""
    out = np.empty(idx.shape, data.dtype)
    n = data.shape[axis]
    for pos in _positions(idx.shape):
        j = int(idx[pos])
        src = list(pos)
        src[axis] = j + n if j < 0 else j
        out[pos] = data[tuple(src)]
    return out


def scatter_elements_loop(data, idx, upd, axis, reduction):
    """ONNX ScatterElements' update loop, row-major over indices, in f32 for floats (one rounding at the end)."""
    wide = np.float32 if data.dtype.kind == "f" or data.dtype == ml_dtypes.bfloat16 else data.dtype
    out = data.astype(wide)
    n = data.shape[axis]
    f = {"none": lambda a, u: u, "add": lambda a, u: a + u, "mul": lambda a, u: a * u,
         "max": lambda a, u: u if (u > a or u != u) and a == a else a,
         "min": lambda a, u: u if (u < a or u != u) and a == a else a}[reduction]
    with np.errstate(over="ignore"):
        for pos in _positions(idx.shape):
            j = int(idx[pos])
            dst = list(pos)
            dst[axis] = j + n if j < 0 else j
            dst = tuple(dst)
            out[dst] = f(out[dst], upd[pos].astype(wide))
    return out.astype(data.dtype)


# ---- entries and shape rules ------------------------------------------------------------------------


def test_entries():
    assert GATHER.inputs == ("data", "indices") and SCATTER.inputs == ("data", "indices", "updates")
    assert normalize_attrs(SCATTER, {}) == {"axis": 0, "reduction": "none", "index_dtype": "i64"}
    assert SCATTER.signature("bf16", 3, {"index_dtype": "i32"}) == (["bf16", "i32", "bf16"], "bf16")
    with pytest.raises(AttrError, match="did you mean 'max'") as e:
        normalize_attrs(SCATTER, {"reduction": "maxx"})
    assert e.value.attr == "reduction"


@pytest.mark.parametrize("op, shapes, attrs, msg", [
    ("gather_elements", [(3, 4), (3,)], {}, r"indices \[3\] must have data's rank 2"),
    ("gather_elements", [(3, 4), (2, 5)], {}, r"larger than data \[3, 4\] on axis 1, which is not the indexed axis 0"),
    ("gather_elements", [(3, 4), (2, 4)], {"axis": 2}, "axis 2 is out of range for rank 2"),
    ("scatter_elements", [(3, 4), (2, 4), (2, 3)], {}, r"updates \[2, 3\] must have the shape of indices \[2, 4\]"),
    ("scatter_elements", [(3, 4), (4, 4), (4, 4)], {"axis": 1}, "larger than data"),
])
def test_shape_errors(op, shapes, attrs, msg):
    o = ops.REGISTRY[op]
    with pytest.raises(OpError, match=msg):
        o.infer(shapes, normalize_attrs(o, attrs))


def test_indices_may_be_longer_than_data_on_the_axis():
    assert GATHER.infer([(2, 3), (5, 3)], normalize_attrs(GATHER, {})) == (5, 3)
    assert SCATTER.infer([(2, 3), (5, 3), (5, 3)], normalize_attrs(SCATTER, {})) == (2, 3)


def test_out_of_range_index_is_an_oracle_error():
    data = np.zeros((2, 3), np.float32)
    with pytest.raises(OpError, match="index 3 is out of range for axis 1 of size 3"):
        GATHER.evaluate([data, np.array([[0, 3]])], normalize_attrs(GATHER, {"axis": 1}), "f32")
    with pytest.raises(OpError, match="index -3 is out of range for axis 0 of size 2"):
        SCATTER.evaluate([data, np.array([[-3]]), np.array([[1.0]], np.float32)], normalize_attrs(SCATTER, {}), "f32")


def test_bad_reduction_is_one_error_at_its_spec_line(tmp_path):
    from npubuild.specfile.load import load_specs

    k = tmp_path / "specs" / "kernels" / "k.yaml"
    k.parent.mkdir(parents=True)
    k.write_text(textwrap.dedent("""\
        kernels:
          sc:
            op: scatter_elements
            attrs: {reduction: sum}
            shapes:
              - {data: [4, 4], indices: [2, 4], updates: [2, 4]}
        """))
    with pytest.raises(SpecError) as e:
        load_specs(tmp_path / "specs", tmp_path)
    assert [str(d) for d in e.value.diagnostics] == [
        "specs/kernels/k.yaml:4: kernel family 'sc': attr 'reduction' of 'scatter_elements' must be one of "
        "none, add, mul, max, min; got 'sum'"
    ]


# ---- oracle against the definition's loop -----------------------------------------------------------


def _data(shape, dt, rng):
    if dt == "bool":
        return rng.random(shape) < 0.5
    if dt in ("f32", "f16", "bf16"):
        # small integers and halves plus a few specials: sums and products stay exact in no dtype but are equal
        # only if the order and the rounding are the definition's
        a = rng.standard_normal(shape).astype(np.float32) * 3
        flat = a.reshape(-1)
        flat[: min(4, flat.size)] = [np.nan, np.inf, -0.0, -np.inf][: min(4, flat.size)]
        return a.astype(numpy_dtype(dt))
    return rng.integers(-100, 100, size=shape).astype(numpy_dtype(dt))


def _indices(shape, n, rng, dtype="i64"):
    return rng.integers(-n, n, size=shape).astype(numpy_dtype(dtype))


# (dtype, data shape, indices shape, axis): duplicates are certain where the indexed axis is short
SHAPES = [
    ("f32", (5, 7), (9, 7), 0),
    ("f32", (4, 6, 3), (4, 10, 2), 1),
    ("f16", (3, 16), (2, 32), -1),
    ("bf16", (6, 16), (12, 16), 0),
    ("i8", (4, 5), (4, 9), 1),
    ("i32", (7,), (20,), 0),
    ("i64", (2, 3, 4), (2, 3, 8), 2),
]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dt, dshape, ishape, axis", SHAPES)
def test_scatter_oracle_is_the_definitions_loop(dt, dshape, ishape, axis, reduction):
    rng = np.random.default_rng(len(ishape) * 7 + axis)
    data, upd = _data(dshape, dt, rng), _data(ishape, dt, rng)
    idx = _indices(ishape, dshape[axis], rng)
    attrs = normalize_attrs(SCATTER, {"axis": axis, "reduction": reduction})
    got = np.asarray(SCATTER.evaluate([data, idx, upd], attrs, dt))
    assert_same(got, scatter_elements_loop(data, idx, upd, axis % len(dshape), reduction), f"{dt} {reduction}")


@pytest.mark.parametrize("dt, dshape, ishape, axis", SHAPES + [("bool", (3, 4), (3, 6), 1)])
def test_gather_oracle_is_the_definitions_loop(dt, dshape, ishape, axis):
    rng = np.random.default_rng(3)
    data = _data(dshape, dt, rng)
    idx = _indices(ishape, dshape[axis], rng)
    got = np.asarray(GATHER.evaluate([data, idx], normalize_attrs(GATHER, {"axis": axis}), dt))
    assert_same(got, gather_elements_loop(data, idx, axis % len(dshape)), dt)


# ---- host kernels ------------------------------------------------------------------------------------


def _host_cases():
    out = []
    for dt, dshape, ishape, axis in SHAPES:
        # indices no longer than data off the axis (the shape rule), and shorter on some axis
        ishape_g = tuple(min(i, d) if k != axis % len(dshape) else i for k, (i, d) in enumerate(zip(ishape, dshape)))
        it = "i32" if dt in ("f32", "bf16") else "i64"
        out.append(make_instance("gather_elements", dt, [dshape, ishape_g], {"axis": axis, "index_dtype": it}))
        for r in REDUCTIONS:
            out.append(make_instance("scatter_elements", dt, [dshape, ishape, ishape], {"axis": axis, "reduction": r,
                                                                                        "index_dtype": it}))
    out.append(make_instance("gather_elements", "bool", [(3, 4), (3, 6)], {"axis": 1}))
    out.append(make_instance("scatter_elements", "f32", [(4, 6), (9, 3), (9, 3)], {"reduction": "add"}))  # shorter
    return out


HOST = _host_cases()


@pytest.fixture(scope="module")
def compiled():
    return compile_kernels(HOST)


@pytest.mark.parametrize("inst", HOST, ids=lambda i: i.id)
def test_host_kernel_is_bit_exact(inst, compiled):
    rng = np.random.default_rng(int(inst.key[:8], 16))
    data_t, idx_t = inst.inputs[0], inst.inputs[1]
    ax = inst.attrs["axis"] % len(data_t.shape)
    xs = [_data(data_t.shape, data_t.dtype, rng), _indices(idx_t.shape, data_t.shape[ax], rng, idx_t.dtype)]
    if inst.op == "scatter_elements":
        xs.append(_data(idx_t.shape, data_t.dtype, rng))
    got = compiled[inst.key](*xs)
    assert_same(got, np.asarray(inst.opdef.evaluate(xs, inst.attrs, inst.dtype)), inst.id)


def test_host_out_of_range_index():
    """The oracle rejects it; the kernels read nothing for it: gather_elements gives 0, scatter_elements
    writes nothing (movement.py's gather does the same)."""
    g = make_instance("gather_elements", "f32", [(2, 3), (2, 3)], {"axis": 1})
    s = make_instance("scatter_elements", "i32", [(2, 3), (2, 3), (2, 3)], {"axis": 1, "reduction": "add"})
    k = compile_kernels([g, s])
    data = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    idx = np.array([[0, 3, -4], [-1, 2**40, -(2**62)]], np.int64)
    assert_same(k[g.key](data, idx), np.array([[1, 0, 0], [6, 0, 0]], np.float32), g.id)
    got = k[s.key](np.zeros((2, 3), np.int32), idx, np.full((2, 3), 5, np.int32))
    assert_same(got, np.array([[5, 0, 0], [0, 0, 5]], np.int32), s.id)


def test_emitted_text_is_standard_dialects():
    for inst in HOST[::5]:
        assert_standard_dialects(host_emitters.emit(inst), inst.id)


# ---- xdna -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("op, shapes", [("gather_elements", [(8, 64), (8, 64)]),
                                        ("scatter_elements", [(8, 64), (8, 64), (8, 64)])])
def test_xdna_refuses_with_the_reason(op, shapes):
    attrs = normalize_attrs(ops.REGISTRY[op], {"index_dtype": "i32"})
    why = targets.get("xdna").supports(op, shapes, "f32", attrs)
    assert why.startswith("no NPU design for this op yet (data-dependent addressing") and "targets: [ref, host]" in why
    assert targets.get("host").supports(op, shapes, "f32", attrs) is None
