"""Host kernels of compare / select / mod / cast and of the movement ops,
checked bit-exactly against the NumPy oracles (NaN-aware: NaN positions must
agree, payloads may differ; bool outputs must be bytes 0/1).

All kernels are compiled once per session, in parallel (``compiled``).

Where NumPy's own answer is platform-specific (float -> int of NaN or of an
out-of-range value, clamp of int64 beyond 2**53 through float64, gather with an
out-of-range index, which the oracle rejects) the kernel's documented choice
is checked instead (see npubuild/emitters/host/cast.py, select.py, movement.py).
"""
from __future__ import annotations

import dataclasses
import hashlib
import warnings

import numpy as np
import pytest

from npubuild.core.canonical import canonical_json
from npubuild.core.constants import BYTE_DTYPES as ALL_DTYPES  # cast and movement take every dtype of a byte or more
from npubuild.core.constants import NUMERIC_DTYPES as ALL_NUMERIC
from npubuild.core.constants import NUMPY_DTYPE, numpy_dtype
from npubuild.emitters import host as emitters
from npubuild.runner.ref import run_oracle
from npubuild.specfile.instances import make_instance
from tests.hostkit import assert_standard_dialects, compile_kernels

FLOATS = ("f32", "f16", "bf16")
# the sweeps below run every dtype but bf16, whose representatives are listed
# separately (the rest of bf16 is in tests/test_bf16.py): a kernel per case costs compile time
DTYPES = tuple(d for d in ALL_DTYPES if d != "bf16")
NUMERIC_DTYPES = tuple(d for d in ALL_NUMERIC if d != "bf16")
INTS = ("i8", "i32", "i64")
CAST_INTS = INTS + ("u8",)  # the integer destinations of cast (u8 is no arithmetic dtype)
COMPARE = ("eq", "ne", "lt", "le", "gt", "ge")


def _npdt(dt: str) -> np.dtype:
    return numpy_dtype(dt)


def _is_float(a: np.ndarray) -> bool:
    return a.dtype.kind == "f" or a.dtype == numpy_dtype("bf16")


def _specials(dt: str) -> np.ndarray:
    npdt = _npdt(dt)
    if dt in FLOATS:
        fi = np.finfo(npdt)
        vals = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, -3.0, 7.0, fi.max, -fi.max, fi.tiny,
                -fi.smallest_subnormal]
    elif dt == "bool":
        vals = [False, True]
    elif dt == "u8":
        vals = [0, 1, 2, 3, 7, 127, 128, 129, 254, 255]
    else:
        ii = np.iinfo(npdt)
        vals = [ii.min, ii.min + 1, -7, -3, -1, 0, 1, 2, 3, 7, ii.max - 1, ii.max]
    return np.array(vals, dtype=npdt)


# ==== cases ==========================================================================================
# (op, dtype, shapes, attrs, kind): kind "pairs" feeds every pair (triple) of special values

CASES: list[tuple] = []


def case(op, dt, shapes, attrs=None, kind="random"):
    CASES.append((op, dt, [tuple(s) for s in shapes], attrs or {}, kind))


def _pairs_shape(dt, arity):
    n = len(_specials(dt))
    return [(n**arity,)] * arity


# compare: every special pair for every dtype; broadcasting and ranks 0..4
for _op in COMPARE:
    for _dt in NUMERIC_DTYPES:
        case(_op, _dt, _pairs_shape(_dt, 2), kind="pairs")
        case(_op, _dt, [(2, 1, 5), (1, 3, 1)])
    for _shapes in ([(3, 4), (4,)], [(), (2, 2)], [(2, 3, 4, 5), (2, 3, 4, 5)]):
        case(_op, "f32", _shapes)
    case(_op, "i32", [(3, 1), (4,)])
    case(_op, "u8", _pairs_shape("u8", 2), kind="pairs")  # unsigned order: 255 > 128 > 127
    case(_op, "u8", [(2, 1, 5), (1, 3, 1)])

# where
for _dt in NUMERIC_DTYPES:
    case("where", _dt, [(40,), (40,), (40,)])
    case("where", _dt, [(2, 1, 4), (3, 1), (1, 4)])
for _shapes in ([(), (2, 3), (3,)], [(2, 3, 4, 5), (2, 3, 4, 5), (2, 3, 4, 5)], [(1,), (5,), ()]):
    case("where", "f32", _shapes)
case("where", "u8", [(2, 1, 4), (3, 1), (1, 4)])

# fma
for _dt in FLOATS:
    case("fma", _dt, [(64,), (64,), (64,)])
    case("fma", _dt, [(3, 4), (4,), (3, 1)])
    case("fma", _dt, [(2, 3, 4, 5), (1, 3, 1, 5), (5,)])
    case("fma", _dt, [(), (2,), (1,)])

# clamp
_FLOAT_BOUNDS = [
    {},
    {"min": -1.5, "max": 2.0},
    {"min": 0.0, "max": 0.0},
    {"min": -0.0, "max": 1.0},
    {"min": 3.0, "max": -3.0},  # min > max: max
    {"min": -1e10, "max": 70000.0},  # f16: the bounds round to +-inf
    {"min": 0.1, "max": 0.30000001},  # rounded to the dtype first
]
for _attrs in _FLOAT_BOUNDS:
    case("clamp", "f32", [(60,)], _attrs)
    case("clamp", "f16", [(60,)], _attrs)
for _attrs in ({}, {"min": -5.5, "max": 7.9}, {"min": 2.5, "max": 1e30}, {"min": -1e30, "max": -2.0}, {"min": 4.0, "max": -4.0}):
    for _dt in INTS:
        case("clamp", _dt, [(60,)], _attrs)
case("clamp", "f32", [(2, 3, 4, 5)], {"min": -1.0, "max": 1.0})
case("clamp", "i32", [()], {"min": -1.0, "max": 1.0})

# mod / fmod
for _fm in (False, True):
    for _dt in NUMERIC_DTYPES:
        case("mod", _dt, _pairs_shape(_dt, 2), {"fmod": _fm}, kind="pairs")
        case("mod", _dt, [(4, 50), (50,)], {"fmod": _fm})
    case("mod", "f32", [(2, 1, 3, 1), (4, 1, 5)], {"fmod": _fm})
    case("mod", "i32", [(), (3, 2)], {"fmod": _fm})

# cast: every pair
for _src in DTYPES:
    for _dst in DTYPES:
        case("cast", _src, [(80,)], {"to": _dst})
case("cast", "f32", [(2, 3, 4, 5)], {"to": "i32"})
case("cast", "i32", [()], {"to": "f16"})

# movement: every listed (shapes, attrs) for f32; the first one for every other dtype
MOVEMENT: dict[str, list] = {
    "reshape": [
        ([(2, 3, 4)], {"shape": [4, -1]}),
        ([(24,)], {"shape": [2, 3, 4]}),
        ([(2, 1, 3)], {"shape": [3, 1, 2]}),
        ([()], {"shape": [1, 1]}),
        ([(1,)], {"shape": []}),
        ([(3, 4, 5, 2)], {"shape": [2, -1, 5]}),
    ],
    "transpose": [
        ([(2, 3, 4)], {"perm": [1, 2, 0]}),
        ([(3, 4)], {}),
        ([(2, 3, 4, 5)], {"perm": [3, 1, 0, 2]}),
        ([(5,)], {"perm": [0]}),
        ([(2, 3, 4)], {}),
    ],
    "narrow": [
        ([(5, 6)], {"axis": -1, "start": 2, "length": 3}),
        ([(4, 3, 2)], {"axis": 0, "start": -3, "length": 2}),
        ([(7,)], {"axis": 0, "start": 0, "length": 7}),
        ([(2, 3, 4, 5)], {"axis": 2, "start": 1, "length": 2}),
    ],
    "slice": [
        ([(4, 9)], {"axis": -1, "start": -8, "end": 100, "step": 2}),
        ([(10,)], {"axis": 0, "start": 1, "end": 9, "step": 3}),
        ([(6, 3, 2)], {"axis": 1, "start": -2, "end": 3}),
        ([(3, 8, 2, 2)], {"axis": 1, "start": 0, "end": 8, "step": 5}),
        ([(5,)], {"axis": 0, "start": -100, "end": -1, "step": 1}),
    ],
    "reverse": [
        ([(3, 4)], {"axes": [0, 1]}),
        ([(5,)], {}),
        ([(2, 3, 4, 5)], {"axes": [1, -1]}),
        ([(2, 1, 3)], {"axes": [1]}),
    ],
    "tile": [
        ([(2, 3)], {"reps": [2, 3]}),
        ([(3,)], {"reps": [4]}),
        ([(1, 2, 1, 2)], {"reps": [2, 1, 3, 2]}),
        ([(2, 3, 4)], {"reps": [1, 1, 1]}),
    ],
    "expand": [
        ([(3, 1)], {"shape": [2, 1, 4]}),
        ([(1,)], {"shape": [5]}),
        ([()], {"shape": [2, 3]}),
        ([(2, 1, 4, 1)], {"shape": [2, 3, 4, 5]}),
        ([(4,)], {"shape": [3, 1, 1]}),
    ],
    "trilu": [
        ([(4, 5)], {"upper": True, "diagonal": 1}),
        ([(4, 5)], {}),
        ([(5, 4)], {"upper": False, "diagonal": -1}),
        ([(2, 3, 4, 4)], {"upper": False}),
        ([(3, 3)], {"upper": True, "diagonal": -2}),
        ([(2, 6, 3)], {"upper": False, "diagonal": 5}),
        ([(3, 4)], {"upper": True, "diagonal": 10}),
    ],
    "concat": [
        ([(2, 3), (2, 1), (2, 4)], {"axis": -1}),
        ([(1, 3), (4, 3)], {"axis": 0}),
        ([(2, 2, 3, 1), (2, 1, 3, 1), (2, 3, 3, 1)], {"axis": 1}),
        ([(3,)], {"axis": 0}),
        ([(2,), (3,), (1,)], {"axis": -1}),
    ],
    "gather": [
        ([(3, 6), (2, 2)], {"axis": -1}),
        ([(5, 4), (3,)], {}),
        ([(5, 4), (2, 3)], {"axis": 1, "index_dtype": "i32"}),
        ([(2, 3, 4), ()], {"axis": 1}),
        ([(7,), (4, 3)], {}),
        ([(2, 3, 4, 2), (5,)], {"axis": 2}),
    ],
    "pad": [
        ([(3, 4)], {"pads": [[1, 2], [0, 3]], "value": -2.5}),
        ([(3, 4)], {"pads": [[1, 2], [0, 3]]}),
        ([(4, 5)], {"pads": [[2, 3], [1, 4]], "mode": "reflect"}),
        ([(2, 3, 4)], {"pads": [[1, 1], [2, 0], [0, 3]], "mode": "edge"}),
        ([(5,)], {"pads": [[4, 4]], "mode": "reflect"}),
        ([(2, 2, 3, 3)], {"pads": [[0, 0], [1, 1], [2, 2], [0, 1]], "mode": "reflect"}),
        ([(1, 2)], {"pads": [[2, 1], [3, 0]], "mode": "edge"}),
        ([(2,)], {"pads": [[0, 2]], "value": 1e6}),  # f16: inf
    ],
    "stop_gradient": [([(3, 4)], {}), ([()], {}), ([(2, 3, 4, 5)], {})],
}
for _op, _cases in MOVEMENT.items():
    for _i, (_shapes, _attrs) in enumerate(_cases):
        for _dt in DTYPES if _i == 0 else ("f32",):
            case(_op, _dt, _shapes, _attrs)
# bf16 representatives: special-value pairs of a compare and of mod, where, clamp, movement
case("lt", "bf16", _pairs_shape("bf16", 2), kind="pairs")
case("eq", "bf16", [(2, 1, 5), (1, 3, 1)])
for _fm in (False, True):
    case("mod", "bf16", _pairs_shape("bf16", 2), {"fmod": _fm}, kind="pairs")
case("where", "bf16", [(2, 1, 4), (3, 1), (1, 4)])
for _attrs in ({"min": -1.5, "max": 2.0}, {"min": 0.1, "max": 0.30000001}, {"min": -1e39, "max": 70000.0}):
    case("clamp", "bf16", [(60,)], _attrs)
for _dt in ALL_DTYPES:
    case("cast", "bf16", [(80,)], {"to": _dt})
    if _dt != "bf16":
        case("cast", _dt, [(80,)], {"to": "bf16"})
for _op in ("transpose", "pad", "gather"):
    case(_op, "bf16", *MOVEMENT[_op][0])
# the pad fill value converted to each dtype (truncated for ints, != 0 for bool)
for _dt in ("i8", "i32", "i64", "bool", "f16", "bf16"):
    case("pad", _dt, [(2, 3)], {"pads": [[1, 0], [1, 1]], "value": -2.5})
for _v in (-2.5, 300.0, 7.9):  # u8: saturated to [0, 255], truncated
    case("pad", "u8", [(2, 3)], {"pads": [[1, 0], [1, 1]], "value": _v})


def _instance(c):
    op, dt, shapes, attrs, _ = c
    return make_instance(op, dt, shapes, attrs)


def _case_id(c) -> str:
    return _instance(c).id


def _nan_attr_instance(op, dt, shapes, attrs, nan_attr):
    """An instance whose attr ``nan_attr`` is NaN. (make_instance cannot build one yet: its
    readable id formats the value with int(); so swap the attrs into a finite-valued instance.)"""
    inst = make_instance(op, dt, shapes, attrs)
    full = dict(inst.attrs, **{nan_attr: float("nan")})
    attrs_json = canonical_json(full)
    key = hashlib.sha256((inst.key + attrs_json).encode()).hexdigest()
    return dataclasses.replace(inst, attrs_json=attrs_json, key=key, id=f"{inst.id}_{nan_attr}-nan")


# documented-choice tests use these extra kernels
EXTRA = [
    make_instance("gather", "f32", [(5, 2), (9,)], {"axis": 0}),
    make_instance("gather", "bool", [(4,), (6,)], {}),
    _nan_attr_instance("clamp", "i32", [(8,)], {"min": 1.0}, "min"),
    make_instance("clamp", "i64", [(8,)], {"min": -1e30}),
    make_instance("fma", "f32", [(1,), (1,), (1,)], None),
]
NAN_ATTR_CASES = [  # (instance, inputs) checked against the oracle
    _nan_attr_instance("clamp", "f32", [(15,)], {"min": 1.0}, "min"),
    _nan_attr_instance("clamp", "f16", [(15,)], {"min": 1.0}, "max"),
    _nan_attr_instance("pad", "f32", [(2,)], {"pads": [[1, 1]], "value": 1.0}, "value"),
    _nan_attr_instance("pad", "bool", [(2,)], {"pads": [[1, 1]], "value": 1.0}, "value"),
]
EXTRA += NAN_ATTR_CASES


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    out_dir = tmp_path_factory.mktemp("host_select_movement")
    kernels = compile_kernels([_instance(c) for c in CASES] + EXTRA, out_dir)
    yield kernels
    for k in kernels.values():
        k.close()


# ==== inputs and comparison ==========================================================================


def _random(shape, dt: str, rng: np.random.Generator) -> np.ndarray:
    npdt = _npdt(dt)
    n = int(np.prod(shape, dtype=np.int64))
    if dt == "bool":
        return rng.random(size=shape) < 0.5
    s = _specials(dt)
    if dt in FLOATS:
        e = rng.integers(-10, 10, size=n)
        x = rng.normal(size=n) * np.exp2(e)
        small = rng.integers(-8, 9, size=n).astype(np.float64)
    else:
        ii = np.iinfo(npdt)
        x = rng.integers(ii.min, ii.max, size=n, endpoint=True, dtype=npdt)
        small = rng.integers(-8, 9, size=n)
    pick = rng.integers(0, 3, size=n)
    flat = np.where(pick == 0, x, np.where(pick == 1, small, s[rng.integers(0, len(s), size=n)]))
    return flat.astype(npdt).reshape(shape)


def _inputs(c, rng):
    op, dt, shapes, attrs, kind = c
    inst = _instance(c)
    if kind == "pairs":
        s = _specials(dt)
        grids = np.meshgrid(*([s] * len(shapes)), indexing="ij")
        return [g.reshape(-1).copy() for g in grids]
    xs = [_random(t.shape, t.dtype, rng) for t in inst.inputs]
    if op == "gather":  # in-range indices, negative ones too
        n = inst.inputs[0].shape[inst.attrs["axis"]]
        xs[1] = rng.integers(-n, n, size=inst.inputs[1].shape).astype(NUMPY_DTYPE[inst.inputs[1].dtype])
    if op == "clamp" and dt == "i64":  # the oracle clips in float64: exact up to 2**53
        xs[0] = np.where(np.abs(xs[0]) <= 2**53, xs[0], xs[0] >> 11)
    return xs


def _oracle(inst, xs):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return run_oracle(inst.op, list(xs), inst.attrs, inst.dtype, inst.output.dtype)


_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def assert_same(got: np.ndarray, want: np.ndarray, what: str, mask=None) -> None:
    """Bit-exact; NaN positions must match (payloads may differ); ``mask`` selects the checked elements."""
    assert got.dtype == want.dtype and got.shape == want.shape, (what, got.dtype, want.dtype, got.shape, want.shape)
    if got.dtype == np.bool_:
        assert (got.view(np.uint8) <= 1).all(), f"{what}: bool output bytes other than 0/1"
    bits_g, bits_w = got.view(_BITS[got.itemsize]), want.view(_BITS[want.itemsize])
    ok = bits_g == bits_w
    if _is_float(got):
        nan_g, nan_w = np.isnan(got), np.isnan(want)
        ok = (ok & ~nan_g & ~nan_w) | (nan_g & nan_w)
    if mask is not None:
        ok |= ~mask
    bad = ~ok
    assert not bad.any(), f"{what}: {int(bad.sum())} mismatches, e.g. got {got[bad][:6]} want {want[bad][:6]}"


def _cast_defined(x: np.ndarray, dst: str) -> np.ndarray:
    """Where NumPy's float -> int cast is defined (not NaN, truncation in range)."""
    if not _is_float(x) or dst not in CAST_INTS:
        return np.ones(x.shape, bool)
    ii = np.iinfo(_npdt(dst))
    with np.errstate(invalid="ignore"):
        t = np.trunc(x.astype(np.float64))
        return (t >= ii.min) & (t < float(ii.max) + 1)  # false for NaN; max + 1 is a power of two


def _cast_rule(x: np.ndarray, dst: str) -> np.ndarray:
    """The kernel's documented float -> int rule: truncate toward zero, saturate, NaN -> 0."""
    ii = np.iinfo(_npdt(dst))
    res = np.zeros(x.shape, _npdt(dst))
    with np.errstate(invalid="ignore"):
        t = np.trunc(x.astype(np.float64))
        inside = _cast_defined(x, dst)
        res[inside] = t[inside].astype(_npdt(dst))
        res[t >= float(ii.max) + 1] = ii.max
        res[t < ii.min] = ii.min
    return res


# ==== tests ==========================================================================================


@pytest.mark.parametrize("c", CASES, ids=_case_id)
def test_kernel_matches_oracle(c, compiled):
    inst = _instance(c)
    rng = np.random.default_rng(int(inst.key[:8], 16))
    xs = _inputs(c, rng)
    got = compiled[inst.key](*xs)
    want = _oracle(inst, xs)
    mask = None
    if inst.op == "cast":
        mask = _cast_defined(xs[0], inst.attrs["to"])  # the rest: test_cast_nan_and_out_of_range
        assert mask.any() or xs[0].size == 1
    assert_same(got, want, inst.id, mask)
    if mask is not None and not mask.all():
        assert_same(got, _cast_rule(xs[0], inst.attrs["to"]), inst.id + " (saturating rule)", ~mask)


@pytest.mark.parametrize("src", FLOATS)
@pytest.mark.parametrize("dst", CAST_INTS)
def test_cast_nan_and_out_of_range(src, dst, compiled):
    """NaN -> 0, +-inf and out-of-range values saturate to MAX/MIN (NumPy: platform-specific)."""
    inst = make_instance("cast", src, [(80,)], {"to": dst})
    ii = np.iinfo(_npdt(dst))
    vals = [np.nan, -np.nan, np.inf, -np.inf, 1e30, -1e30, 60000.0, -60000.0, 128.0, -129.0, -128.9, 127.9,
            2.0**31, -(2.0**31), 2.0**31 - 128, -(2.0**31) - 256, 2.0**63, -(2.0**63), 3e9]
    with np.errstate(over="ignore"):  # f16: the large values become +-inf (also saturated)
        x = np.array(vals + [0.0] * (80 - len(vals)), np.float64).astype(_npdt(src))
    got = compiled[inst.key](x)
    assert_same(got, _cast_rule(x, dst), inst.id)
    assert got[0] == 0 and got[1] == 0 and got[2] == ii.max and got[3] == ii.min


@pytest.mark.parametrize("inst", NAN_ATTR_CASES, ids=lambda i: i.id)
def test_nan_attrs(inst, compiled):
    """A NaN clamp bound makes every element NaN (as np.clip); a NaN pad value fills NaN (bool: True)."""
    xs = [_specials(t.dtype) if t.shape == (15,) else _random(t.shape, t.dtype, np.random.default_rng(0)) for t in inst.inputs]
    got = compiled[inst.key](*xs)
    assert_same(got, _oracle(inst, xs), inst.id)


def test_gather_out_of_range_gives_zero(compiled):
    inst = EXTRA[0]
    data = np.arange(10, dtype=np.float32).reshape(5, 2) + 1
    idx = np.array([0, 4, -1, -5, 5, -6, 2**62, -(2**63), 3], np.int64)
    got = compiled[inst.key](data, idx)
    want = np.array([data[0], data[4], data[4], data[0], [0, 0], [0, 0], [0, 0], [0, 0], data[3]], np.float32)
    assert_same(got, want, inst.id)
    b = compiled[EXTRA[1].key](np.array([True, True, False, True]), np.array([0, 3, 4, -4, -5, 2], np.int64))
    assert_same(b, np.array([True, True, False, True, False, False]), EXTRA[1].id)


def test_clamp_int_documented_choices(compiled):
    x = np.array([-(2**31), -7, -1, 0, 1, 7, 2**31 - 1, 3], np.int32)
    assert_same(compiled[EXTRA[2].key](x), np.zeros(8, np.int32), "clamp with a NaN bound")  # cast(NaN) == 0
    big = np.array([-(2**63), -(2**63) + 1, -(2**53) - 1, -1, 0, 2**53 + 1, 2**63 - 2, 2**63 - 1], np.int64)
    assert_same(compiled[EXTRA[3].key](big), big, "clamp int64 is exact beyond 2**53")


def test_fma_is_not_fused(compiled):
    a = np.array([1 + 2.0**-12], np.float32)
    got = compiled[EXTRA[4].key](a, a, np.array([-1.0], np.float32))
    assert got[0] == np.float32(2.0**-11)  # fused: 2**-11 + 2**-24


def test_bool_abi_is_numpy_layout(compiled):
    """bool buffers are one byte per element holding 0/1, both ways."""
    to_i8 = compiled[make_instance("cast", "bool", [(80,)], {"to": "i8"}).key]
    x = np.zeros(80, bool)
    x[::3] = True
    np.testing.assert_array_equal(to_i8(x), x.view(np.int8))
    from_i8 = compiled[make_instance("cast", "i8", [(80,)], {"to": "bool"}).key]
    y = np.arange(-40, 40, dtype=np.int8)
    np.testing.assert_array_equal(from_i8(y).view(np.uint8), (y != 0).astype(np.uint8))


def test_emitted_text_standard_dialects_and_deterministic():
    for c in CASES[::7]:
        inst = _instance(c)
        text = emitters.emit(inst)
        assert text == emitters.emit(_instance(c))
        assert_standard_dialects(text, inst.id)
        assert "remf" not in text, inst.id


def test_every_op_here_is_covered():
    ops_here = {"cast", "clamp", "fma", "mod", "where", *COMPARE, *MOVEMENT}
    assert ops_here <= set(emitters.EMITTERS)
    assert {c[0] for c in CASES} == ops_here
    # every allowed dtype of every op
    from npubuild import ops

    from tests.test_bf16 import CASES as BF16_CASES

    bf16_there = {c[0] for c in BF16_CASES}
    for name in ops_here:
        here = {c[1] for c in CASES if c[0] == name} | ({"bf16"} if name in bf16_there else set())
        assert here == set(ops.REGISTRY[name].dtypes), name
