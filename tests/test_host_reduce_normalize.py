"""Host kernels of the reduce, scan, arg and normalize families vs their oracles.

Every kernel is compiled once per session, in parallel (``tests.hostkit``).

* Integer results, float max/min/cummax and argmax/argmin are compared exactly
  (NaN == NaN; +0.0 == -0.0, since NumPy's max/min may return either zero).
* Float sums, means, products, their scans and the normalisations are compared
  against the float64 oracle with an error *bound* derived from the kernel's
  arithmetic (below); the bound grows with the reduction length n. Non-finite
  expected values must match exactly (NaN positions, the sign of infinities).

Run with ``-s`` to print the measured errors per op and dtype (see MEASURED;
docs/kernels.md has the table).
"""
from __future__ import annotations

import numpy as np
import pytest

from npubuild import ops
from npubuild.emitters import host as emitters
from npubuild.core.constants import numpy_dtype
from npubuild.ops.registry import norm_axis, normalize_attrs
from npubuild.specfile.instances import make_instance

from .hostkit import assert_standard_dialects, compile_kernels

FLOATS = ("f32", "f16", "bf16")
# random bf16 instances are in tests/test_bf16.py; here bf16 gets the special-value cases only
EXTRA_DTYPES = ("f32", "i32")  # the extra shapes/attrs only for these (compile time)

# ---- error bounds -------------------------------------------------------------------------------------
#
# The kernels accumulate in f32, sequentially; the oracle computes in float64 and
# rounds once. Every f32 + - * / rounds with relative error at most U32 (unit
# roundoff), so a recursive sum of n terms is off by at most (n-1)·U32·Σ|x_i|
# and a product of n terms by (n-1)·U32·|product| (Higham, Accuracy and Stability
# of Numerical Algorithms, §3.1 and §4.2; first order, the O(n²u²) term is far
# below the slack in BOUND_SAFETY for n ~ 1000). SUM_ROUNDINGS_PER_TERM is that
# "one rounding per term": the tolerance is a bound, not a fitted number, so it
# scales with n and never flakes.
U32 = 2.0**-24
SUM_ROUNDINGS_PER_TERM = 1
# The oracle rounds the exact value to the output dtype once and the kernel rounds
# its f32 result once more (f16 output), so the two may differ by one rounding
# each: 2·U_OUT·|y| on top of the f32 error (for f32 output this is also an upper
# bound: the kernel's f32 result needs no second rounding).
U_OUT = {"f32": 2.0**-24, "f16": 2.0**-11, "bf16": 2.0**-8}
# Results in the output dtype's subnormal range are rounded to absolute spacing,
# not relative: allow one subnormal step.
TINY = {dt: float(np.finfo(numpy_dtype(dt)).smallest_subnormal) for dt in ("f32", "f16", "bf16")}
# Second-order terms and the bound's own float64 evaluation.
BOUND_SAFETY = 1.25
# Accuracy of the mathfns expansions in f32, in ULPs of the result, as documented
# (and tested) by npubuild.emitters.host.mathfns; one ULP is at most 2·U32 relative.
EXP_ULPS = 1
RSQRT_ULPS = 1


# ---- cases ------------------------------------------------------------------------------------------------

REDUCE_OPS = ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod")
SCAN_OPS = ("cumsum", "cumprod", "cummax")
ARG_OPS = ("argmax", "argmin")

# (shape, attrs): for every dtype each op allows
REDUCE_CORE = [
    ((7,), {"axes": [-1]}),
    ((3, 1031), {"axes": [1]}),
    ((4, 5, 6), {"axes": [0, 2], "keepdims": True}),
]
REDUCE_EXTRA = [
    ((), {"axes": []}),
    ((1,), {"axes": [0], "keepdims": True}),
    ((5, 1, 3), {"axes": [1]}),
    ((1100, 3), {"axes": [0]}),
    ((2, 3, 4, 5), {"axes": [], "keepdims": False}),
    ((2, 3, 4, 5), {"axes": [1], "keepdims": True}),
    ((2, 3, 4, 5), {"axes": [-1, 0, 2]}),
]
SCAN_CORE = [
    ((7,), {}),
    ((3, 1031), {"axis": -1, "exclusive": True}),
    ((4, 5, 6), {"axis": 1, "reverse": True}),
]
SCAN_EXTRA = [
    ((1,), {"axis": 0}),
    ((3, 1), {"axis": 1, "exclusive": True}),
    ((1030, 2), {"axis": 0, "exclusive": True, "reverse": True}),
    ((2, 3, 4, 5), {"axis": 2, "exclusive": True}),
    ((2, 3, 4, 5), {"axis": 0, "reverse": True}),
]
ARG_CORE = [
    ((7,), {}),
    ((3, 1031), {"select_last_index": True}),
    ((4, 5, 6), {"axis": 1, "keepdims": True, "index_dtype": "i32"}),
]
ARG_EXTRA = [
    ((), {"axis": 0}),
    ((1,), {"keepdims": True}),
    ((1030, 2), {"axis": 0}),
    ((2, 3, 4, 5), {"axis": 2, "select_last_index": True, "keepdims": True}),
    ((2, 3, 4, 5), {"axis": -4}),
]


NORM_OPS = ("softmax", "rms_norm", "layer_norm", "group_norm")
# (x shape, attrs) for f32 and f16; gamma/beta shapes follow from x
NORM_SHAPES = {
    "softmax": [
        ((), {"axis": 0}),
        ((7,), {}),
        ((3, 1), {"axis": 1}),
        ((3, 1031), {"axis": -1}),
        ((4, 5, 6), {"axis": 1}),
        ((1030, 2), {"axis": 0}),
        ((2, 3, 4, 5), {"axis": -4}),
    ],
    "rms_norm": [((7,), {}), ((4, 1), {}), ((3, 1031), {}), ((2, 3, 4, 16), {"eps": 1e-3})],
    "layer_norm": [((7,), {}), ((4, 1), {}), ((3, 1031), {}), ((2, 3, 4, 16), {"eps": 1e-3})],
    "group_norm": [
        ((4, 6), {"num_groups": 3}),
        ((2, 6, 5), {"num_groups": 3}),
        ((3, 4, 7), {"num_groups": 4}),
        ((1, 4, 3, 3), {"num_groups": 2, "eps": 1e-3}),
        ((2, 8, 130), {"num_groups": 1}),
    ],
}


def _norm_shapes(name: str, x_shape, attrs) -> tuple:
    if name == "softmax":
        return (x_shape,)
    p = (x_shape[1],) if name == "group_norm" else (x_shape[-1],)
    return (x_shape, p) if name == "rms_norm" else (x_shape, p, p)


def _cases():
    out = []
    for name in NORM_OPS:
        for dt in FLOATS[:2]:
            for shape, attrs in NORM_SHAPES[name]:
                out.append((name, dt, _norm_shapes(name, shape, attrs), attrs))
    for names, core, extra in ((REDUCE_OPS, REDUCE_CORE, REDUCE_EXTRA), (SCAN_OPS, SCAN_CORE, SCAN_EXTRA),
                               (ARG_OPS, ARG_CORE, ARG_EXTRA)):
        for name in names:
            for dt in ops.REGISTRY[name].dtypes:
                if dt == "bf16":
                    continue
                for shape, attrs in core + (extra if dt in EXTRA_DTYPES else []):
                    out.append((name, dt, (shape,), attrs))
    return out


# Special rows (NaN, ±inf, ±0, ties) for the float reduce/scan/arg kernels: a
# [rows, 7] matrix reduced along its last axis, and its transpose along axis 0.
SPECIAL_LEN = 7


def _special_rows(dt: str) -> np.ndarray:
    nan, inf = np.nan, np.inf
    rows = [
        [1.5, -2.0, 3.25, 0.5, -1.0, 2.0, 0.75],
        [1.0, 2.0, 3.0, nan, 5.0, 6.0, 7.0],
        [1.0, nan, 3.0, 9.0, 5.0, nan, -9.0],  # first vs last NaN
        [1.0, 2.0, inf, 4.0, 5.0, 6.0, 7.0],
        [1.0, 2.0, 3.0, 4.0, -inf, 6.0, 7.0],
        [inf, 2.0, 3.0, -inf, 5.0, 6.0, 7.0],
        [-inf] * 7,
        [inf, 2.0, nan, 4.0, -inf, 6.0, 7.0],
        [0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0],
        [-0.0] * 7,
        [2.0, 5.0, 5.0, -1.0, 5.0, -1.0, 2.0],  # ties for max and min
        [1.0] * 7,
    ]
    return np.array(rows, dtype=numpy_dtype(dt))


def _special_cases():
    out = []
    rows = len(_special_rows("f32"))
    for dt in FLOATS:
        for name in REDUCE_OPS:
            out.append((name, dt, ((rows, SPECIAL_LEN),), {"axes": [-1]}))
            out.append((name, dt, ((SPECIAL_LEN, rows),), {"axes": [0]}))
        for name in SCAN_OPS + ARG_OPS:
            last = {"exclusive": False} if name in SCAN_OPS else {}
            out.append((name, dt, ((rows, SPECIAL_LEN),), {"axis": -1, **last}))
            first = {"reverse": True} if name in SCAN_OPS else {"select_last_index": True}
            out.append((name, dt, ((SPECIAL_LEN, rows),), {"axis": 0, **first}))
        nrows = len(_special_norm_rows(dt, "softmax"))
        out.append(("softmax", dt, ((nrows, SPECIAL_LEN),), {"axis": -1}))
        out.append(("softmax", dt, ((SPECIAL_LEN, nrows),), {"axis": 0}))
        for name in NORM_OPS[1:]:
            attrs = {"num_groups": 1} if name == "group_norm" else {}
            nrows = len(_special_norm_rows(dt, name))
            out.append((name, dt, _norm_shapes(name, (nrows, SPECIAL_LEN), attrs), attrs))
    return out


def _special_norm_rows(dt: str, name: str) -> np.ndarray:
    nan, inf = np.nan, np.inf
    big = 3e38 if dt == "f32" else 60000.0
    rows = [
        [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
        [0.0] * 7,
        [2.5] * 7,  # constant: variance 0 (only eps remains)
        [1000.125, 1000.25, 1000.5, 1000.0, 1000.75, 1000.375, 1000.625],  # |mean| >> std
        [0.0, -90.0, -100.0, -110.0, 1.0, 2.0, 3.0],  # exp underflows to f32 subnormals / 0
        [1.0, -inf, 3.0, 4.0, -inf, 6.0, 7.0],
        [-inf] * 7,
        [1.0, 2.0, inf, 4.0, 5.0, 6.0, 7.0],
        [1.0, 2.0, 3.0, nan, 5.0, 6.0, 7.0],
    ]
    if name == "softmax" or dt == "f16":
        # (x² of f32 values this large overflows the f32 accumulator of the norms:
        # a documented difference from the float64 oracle)
        rows.append([big, -big, 0.0, 1.0, 2.0, 3.0, 4.0])
    return np.array(rows, dtype=numpy_dtype(dt))


CASES = _cases()
SPECIAL_CASES = _special_cases()


def _case_id(case) -> str:
    return _instance(case).id


def _instance(case):
    name, dt, shapes, attrs = case
    return make_instance(name, dt, [list(s) for s in shapes], attrs)


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    kernels = compile_kernels([_instance(c) for c in CASES + SPECIAL_CASES], tmp_path_factory.mktemp("host_rn"))
    yield kernels
    for k in kernels.values():
        k.close()


# ---- measured errors (printed at the end of the session with -s) ------------------------------------------

# (op, dtype) -> [max ULPs of the output dtype, max |err| / (u_out · scale), max fraction
# of the bound used]; scale is the size of the terms the result is made of (Σ|x|
# for a sum, |y| for a product or softmax, |γ|·max(|ŷ|, 1) + |β| for a norm), so
# the second number stays meaningful where the result cancels to ~0.
MEASURED: dict[tuple[str, str], list[float]] = {}


@pytest.fixture(scope="session", autouse=True)
def _report():
    yield
    if MEASURED:
        print("\n[host reduce/normalize] error vs the float64 oracle: op, dtype, max ULPs, "
              "max |err|/(u_out·scale), max fraction of the bound")
        for (name, dt), (ulps, scaled, frac) in sorted(MEASURED.items()):
            print(f"  {name:12s} {dt}  {ulps:9.2f}  {scaled:7.3f}  {frac:.3f}")


def _record(name: str, dt: str, *values: float) -> None:
    old = MEASURED.get((name, dt), [0.0] * len(values))
    MEASURED[(name, dt)] = [max(a, b) for a, b in zip(old, values)]


# ---- inputs ------------------------------------------------------------------------------------------------


def _input(name: str, shape, dt: str, rng: np.random.Generator) -> np.ndarray:
    npdt = numpy_dtype(dt)
    fam = ops.REGISTRY[name].family
    if dt not in FLOATS:
        ii = np.iinfo(npdt)
        wide = rng.integers(ii.min, ii.max, size=shape, dtype=npdt, endpoint=True)  # wrap-around
        small = rng.integers(-3, 4, size=shape).astype(npdt)  # ties
        pick = rng.random(size=shape)
        if fam == "arg" or name in ("reduce_max", "reduce_min", "cummax"):
            return np.where(pick < 0.5, small, wide).astype(npdt)
        if name in ("reduce_prod", "cumprod"):
            # mostly small odd factors (a product of odd numbers is never 0 modulo
            # 2^bits, so the wrap-around stays visible over 1000 terms), some wide
            # odd ones, a few 2s
            odd = rng.choice(np.array([-3, -1, 1, 3, 5, 7], dtype=npdt), size=shape)
            x = np.where(pick < 0.05, wide | npdt.type(1), odd)
            return np.where(pick > 0.98, npdt.type(2), x).astype(npdt)
        return wide
    if name in ("reduce_prod", "cumprod"):
        # |x| near 1 so that a product of 1000 terms stays well inside f16 / f32 range
        x = rng.uniform(0.9, 1.1, size=shape) * rng.choice([-1.0, 1.0], size=shape)
    elif fam == "arg" or name in ("reduce_max", "reduce_min", "cummax"):
        # half small integers (ties, ±0), half spread out
        x = np.where(rng.random(size=shape) < 0.5, rng.integers(-3, 4, size=shape) * 1.0, rng.normal(0, 8, size=shape))
        x = np.where(x == 0, rng.choice([0.0, -0.0], size=shape), x)
    else:
        x = rng.normal(0.0, 8.0, size=shape) + (rng.random(size=shape) < 0.1) * 100.0
    return np.asarray(x).astype(npdt)


def _oracle(name: str, inputs, attrs: dict):
    """The oracle (bf16 inputs: its bf16 rule, npubuild/ops/bf16.py; float64 inputs: unrounded)."""
    op = ops.REGISTRY[name]
    with np.errstate(all="ignore"):
        if any(x.dtype == numpy_dtype("bf16") for x in inputs):
            return np.asarray(op.evaluate(list(inputs), normalize_attrs(op, attrs), "bf16"))
        return np.asarray(op.oracle(list(inputs), normalize_attrs(op, attrs)))


# ---- comparison --------------------------------------------------------------------------------------------


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|got - want| in ULPs of the output dtype at ``want``."""
    spacing = np.abs(np.spacing(want.astype(want.dtype)).astype(np.float64))
    return np.abs(got.astype(np.float64) - want.astype(np.float64)) / spacing


def assert_exact(name: str, got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    if got.dtype.kind == "f" or got.dtype == numpy_dtype("bf16"):
        same = (got == want) | (np.isnan(got) & np.isnan(want))
        # +0.0 == -0.0 passes; otherwise the bits match for finite values and infinities
    else:
        same = got == want
    bad = ~same
    where = np.argwhere(bad)[:5].tolist()
    assert not bad.any(), f"{name}: {bad.sum()} mismatches at {where}: got {got[bad][:5]} want {want[bad][:5]}"


def assert_within(
    name: str, dt: str, got: np.ndarray, want: np.ndarray, exact: np.ndarray, err_bound: np.ndarray, scale: np.ndarray
) -> None:
    """``got`` (the kernel) vs ``want`` (the oracle, rounded): finite values within
    ``err_bound`` (the kernel's f32 error vs ``exact``) plus the two roundings."""
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    nan_w, nan_g = np.isnan(want), np.isnan(got)
    assert np.array_equal(nan_g, nan_w), f"{name}: NaN at {np.argwhere(nan_g != nan_w)[:5].tolist()}"
    inf_w = np.isinf(want)
    assert np.array_equal(got[inf_w], want[inf_w]), f"{name}: infinities differ: got {got[inf_w]} want {want[inf_w]}"
    fin = np.isfinite(want)
    u = U_OUT[dt]
    with np.errstate(invalid="ignore", over="ignore"):
        tol = BOUND_SAFETY * (err_bound * (1 + 2 * u) + 2 * u * np.abs(exact)) + TINY[dt]
        err = np.abs(got.astype(np.float64) - want.astype(np.float64))
    bad = fin & ~(err <= tol)
    assert not bad.any(), (
        f"{name} {dt}: {bad.sum()} values outside the bound, e.g. at {np.argwhere(bad)[:3].tolist()}: "
        f"got {got[bad][:3]} want {want[bad][:3]} err {err[bad][:3]} tol {tol[bad][:3]}"
    )
    if fin.any():
        with np.errstate(invalid="ignore", divide="ignore"):
            scaled = np.where(err[fin] == 0, 0.0, err[fin] / (u * np.abs(scale[fin])))
        ulps = float(_ulps(got[fin], want[fin]).max())
        _record(name, dt, ulps, float(scaled.max()), float((err[fin] / tol[fin]).max()))


def check_reduce_family(name: str, dt: str, attrs: dict, x: np.ndarray, got: np.ndarray) -> None:
    want = _oracle(name, [x], attrs)
    exact_ops = ("reduce_max", "reduce_min", "cummax", "argmax", "argmin")
    if dt not in FLOATS or name in exact_ops:
        assert_exact(name, got, want)
        return
    wide = x.astype(np.float64)
    exact = _oracle(name, [wide], attrs)  # float64 result (no final rounding)
    ones = np.ones_like(wide)
    with np.errstate(invalid="ignore"):  # inf · 0 in rows of specials (their results are compared exactly)
        bound, scale = _sum_prod_bound(name, attrs, wide, exact, ones)
    assert_within(name, dt, got, want, exact, bound, scale)


def _sum_prod_bound(name: str, attrs: dict, wide: np.ndarray, exact: np.ndarray, ones: np.ndarray):
    """(bound, scale) for a float sum, mean, product or their scans."""
    if name in ("reduce_sum", "reduce_mean", "cumsum"):
        # n terms per output (for a scan: the prefix length) and Σ|x| over them
        base = {"reduce_mean": "reduce_sum"}.get(name, name)
        n = _oracle(base, [ones], attrs)
        s = _oracle(base, [np.abs(wide)], attrs)
        bound = SUM_ROUNDINGS_PER_TERM * np.maximum(n - 1, 0) * U32 * s
        scale = s
        if name == "reduce_mean":
            bound = bound / n + U32 * np.abs(exact)  # the division rounds once more
            scale = s / n
    else:  # reduce_prod, cumprod
        n = _oracle("reduce_sum" if name == "reduce_prod" else "cumsum", [ones], attrs)
        bound = np.maximum(n - 1, 0) * U32 * np.abs(exact)
        scale = exact
    return bound, scale


# ---- tests --------------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASES if c[0] not in NORM_OPS], ids=_case_id)
def test_reduce_scan_arg(case, compiled):
    name, dt, shapes, attrs = case
    inst = _instance(case)
    rng = np.random.default_rng(int(inst.key[:8], 16))
    x = _input(name, shapes[0], dt, rng)
    got = compiled[inst.key](x)
    assert got.shape == inst.output.shape
    check_reduce_family(name, dt, attrs, x, got)


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in SPECIAL_CASES if c[0] not in NORM_OPS], ids=_case_id)
def test_special_values(case, compiled):
    """NaN (first/last), ±inf, inf - inf, all -inf, ±0, ties, along the last and the first axis."""
    name, dt, shapes, attrs = case
    inst = _instance(case)
    x = _special_rows(dt)
    if shapes[0][0] == SPECIAL_LEN:
        x = np.ascontiguousarray(x.T)
    got = compiled[inst.key](x)
    check_reduce_family(name, dt, attrs, x, got)


@pytest.mark.slow
def test_argmax_nan_and_ties_semantics(compiled):
    """Spelled out: the first NaN wins (the last one with select_last_index), ties
    keep the first (last) index, -0.0 ties with +0.0."""
    rows = _special_rows("f32")
    for dt in FLOATS:
        x = rows.astype(numpy_dtype(dt))
        shape = [x.shape]
        amax = compiled[make_instance("argmax", dt, shape, {"axis": -1}).key](x)
        amin = compiled[make_instance("argmin", dt, shape, {"axis": -1}).key](x)
        assert amax[1] == 3 and amin[1] == 3  # the NaN
        assert amax[2] == 1 and amin[2] == 1  # the first NaN
        assert amax[8] == 0 and amin[8] == 0  # ±0 all tie
        assert amax[10] == 1 and amin[10] == 3  # first of tied 5s / -1s
        xt = np.ascontiguousarray(x.T)
        amax_last = compiled[make_instance("argmax", dt, [xt.shape], {"axis": 0, "select_last_index": True}).key](xt)
        amin_last = compiled[make_instance("argmin", dt, [xt.shape], {"axis": 0, "select_last_index": True}).key](xt)
        assert amax_last[2] == 5 and amin_last[2] == 5  # the last NaN
        assert amax_last[8] == 6 and amin_last[8] == 6
        assert amax_last[10] == 4 and amin_last[10] == 5


# ---- normalisations -------------------------------------------------------------------------------------


def _norm_inputs(name: str, shapes, dt: str, rng: np.random.Generator, x=None) -> list[np.ndarray]:
    npdt = numpy_dtype(dt)
    if x is None:
        # a per-case offset and scale, so that means are not ~0 and rows differ in size
        x = rng.normal(rng.uniform(-20, 20), rng.uniform(0.5, 10), size=shapes[0]).astype(npdt)
    params = [rng.normal(0.5, 1.0, size=s).astype(npdt) for s in shapes[1:]]
    return [x] + params


def _rows(a: np.ndarray, name: str, attrs: dict) -> np.ndarray:
    """The normalised rows [R, L] (group_norm: one group per row)."""
    if name == "group_norm":
        return a.reshape(a.shape[0] * attrs["num_groups"], -1)
    return a.reshape(-1, a.shape[-1])


def _softmax_bound(x: np.ndarray, attrs: dict, exact: np.ndarray) -> np.ndarray:
    """Absolute error bound of the f32 kernel per element (first order).

    e_i = exp(fl(x_i - m)): the subtraction rounds (relative U32·|x_i - m| after exp)
    and exp is EXP_ULPS off: δ_i = U32·|x_i - m| + 2·EXP_ULPS·U32. The sum of the
    n positive e_j adds (n-1)·U32 relative and inherits Σ_j y_j·δ_j; the division
    one more U32. Results that are f32 subnormals carry one subnormal step.
    """
    ax = norm_axis(attrs["axis"], x.ndim)
    w = np.moveaxis(x.astype(np.float64), ax, -1) if x.ndim else x.astype(np.float64).reshape(1)
    y = np.moveaxis(exact, ax, -1) if x.ndim else exact.reshape(1)
    n = w.shape[-1]
    with np.errstate(invalid="ignore"):
        delta = U32 * np.abs(w - w.max(axis=-1, keepdims=True)) + 2 * EXP_ULPS * U32
        delta_s = np.nansum(y * delta, axis=-1, keepdims=True) + (n - 1) * U32
        bound = (delta + delta_s + U32) * y + TINY["f32"]
    bound = np.moveaxis(bound, -1, ax) if x.ndim else bound.reshape(())
    return bound


def _norm_bound(name: str, inputs, attrs: dict, exact: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(bound, scale): the absolute error bound of the f32 kernel per element (first order; see
    docs/kernels.md).

    mean: Δμ = (n-1)·U32·mean|x| + U32·|μ| (sum, then one division); x - mean:
    Δd_i = Δμ + U32·(|x_i - μ| + Δμ); variance (of x - mean, or mean of x² for
    rms_norm): (2/n)·Σ|x_i - μ|·Δd_i + (n+3)·U32·σ² absolute, so relative to
    σ_e² = σ² + eps: ε_v; rsqrt: ε_r = ε_v/2 + 2·RSQRT_ULPS·U32. Then
    y_i = d_i·r·γ + β is off by |γ|·(Δd_i/σ_e + |ŷ_i|·(ε_r + 2·U32)) + U32·|y_i|.
    """
    center = name != "rms_norm"
    x = _rows(inputs[0].astype(np.float64), name, attrs)
    shape = inputs[0].shape
    full = [np.broadcast_to(_param_full(p.astype(np.float64), shape, name), shape) for p in inputs[1:]]
    gamma = _rows(np.ascontiguousarray(full[0]), name, attrs)
    n = x.shape[-1]
    with np.errstate(invalid="ignore", over="ignore"):
        if center:
            mu = x.mean(axis=-1, keepdims=True)
            d_mu = (n - 1) * U32 * np.abs(x).mean(axis=-1, keepdims=True) + U32 * np.abs(mu)
        else:
            mu = np.zeros_like(x[..., :1])
            d_mu = np.zeros_like(mu)
        dev = np.abs(x - mu)
        d_d = d_mu + U32 * (dev + d_mu)
        var = (dev**2).mean(axis=-1, keepdims=True)
        sig2 = var + attrs.get("eps", 1e-5)
        eps_v = (2 * (dev * d_d).mean(axis=-1, keepdims=True) + (n + 3) * U32 * sig2) / sig2
        eps_r = eps_v / 2 + 2 * RSQRT_ULPS * U32
        yhat = dev / np.sqrt(sig2)
        bound = np.abs(gamma) * (d_d / np.sqrt(sig2) + yhat * (eps_r + 2 * U32))
        bound = bound + U32 * np.abs(_rows(exact, name, attrs))
        beta = _rows(np.ascontiguousarray(full[1]), name, attrs) if center else 0.0
        scale = np.abs(gamma) * np.maximum(yhat, 1.0) + np.abs(beta)
    return bound.reshape(inputs[0].shape), scale.reshape(inputs[0].shape)


def _param_full(p: np.ndarray, x_shape, name: str) -> np.ndarray:
    if name == "group_norm":
        return p.reshape((x_shape[1],) + (1,) * (len(x_shape) - 2))
    return p


def check_norm(name: str, dt: str, attrs: dict, inputs, got: np.ndarray) -> None:
    full = normalize_attrs(ops.REGISTRY[name], attrs)
    want = _oracle(name, inputs, attrs)
    exact = _oracle(name, [a.astype(np.float64) for a in inputs], attrs)
    if name == "softmax":
        bound, scale = _softmax_bound(inputs[0], full, exact), exact
    else:
        bound, scale = _norm_bound(name, inputs, full, exact)
    # rows with inf/NaN inputs: their finite outputs (zeros) must be exact
    assert_within(name, dt, got, want, exact, np.nan_to_num(bound, nan=0.0), scale)


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASES if c[0] in NORM_OPS], ids=_case_id)
def test_normalize(case, compiled):
    name, dt, shapes, attrs = case
    inst = _instance(case)
    rng = np.random.default_rng(int(inst.key[:8], 16))
    inputs = _norm_inputs(name, shapes, dt, rng)
    got = compiled[inst.key](*inputs)
    assert got.shape == inst.output.shape
    check_norm(name, dt, attrs, inputs, got)


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in SPECIAL_CASES if c[0] in NORM_OPS], ids=_case_id)
def test_normalize_special_values(case, compiled):
    """Rows of zeros, constants (variance 0), |mean| >> std, exp underflow, -inf
    (some, all), +inf, NaN, values near the dtype's limit."""
    name, dt, shapes, attrs = case
    inst = _instance(case)
    x = _special_norm_rows(dt, name)
    if shapes[0][0] == SPECIAL_LEN:
        x = np.ascontiguousarray(x.T)
    inputs = _norm_inputs(name, shapes, dt, np.random.default_rng(7), x=x)
    got = compiled[inst.key](*inputs)
    check_norm(name, dt, attrs, inputs, got)


def test_emitted_text_is_standard_dialect_and_deterministic():
    for case in CASES + SPECIAL_CASES:
        inst = _instance(case)
        text = emitters.emit(inst)
        assert text == emitters.emit(_instance(case))
        assert_standard_dialects(text, inst.id)
