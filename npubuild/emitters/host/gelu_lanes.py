"""gelu's erf form (``approximate: none``) on an AIE core's bf16 lanes: a polynomial body built only from
operations both devices' aievec profiles lower (:data:`.vector.PROFILE`).

The host body (:func:`.unary_math._gelu_erf`) splits exponents with bit casts, ``fptosi`` and ldexp, which
convert-vector-to-aievec does not lower; this form needs none of them:

* xh = maximumf(x, -4), xc = minimumf(xh, 4) on the bf16 lanes (exact; aie2: test-max.mlir / test-min.mlir,
  aie2p: AIEVecToLLVM/test-max-min.mlir, which takes bf16 only);
* X = extf(xc), H = extf(xh) (exact), t = X * X (exact in f32: a bf16 x bf16 product), u = t - 10;
* R(u) = r0 + r1 u + ... + r6 u^6 (:data:`R`), by Horner;
* gelu = X (0.5 + X R) - (X - H), rounded once to bf16.

X (0.5 + X R(x^2 - 10)) approximates x Phi(x) = 0.5 x (1 + erf(x / sqrt 2)) on [-4, 4]. :data:`R` was fitted
offline with NumPy (weighted least squares on [0, 4] iterated to minimax by Lawson's method, the error weighted
by x^2 / (2^-13 + 2^-9 min(|gelu(x)|, |gelu(-x)|)), rounded to f32): x^2 R is within 3.9e-4 of 0.5 x erf(x / sqrt 2)
on [0, 4], least where gelu(-|x|) is small. The polynomial is centred at t = 10 (u in [-10, 6]) so that the
Horner partial sums stay small: the aie2 form below rounds them. The last term is 0 inside [-4, 4]; beyond it
the result is x - (4 - P(4)) for x > 4 (x to within 1.3e-4, which the rounding to bf16 removes) and P(-4) for
x < -4, whose exact gelu is in (-1.3e-4, 0).

Two arithmetic forms of the same polynomial (:func:`emit_lanes` picks by profile, as ``vector_rows.norm_form``):

* f32 (aie2p): t, u, each Horner step acc * u + r and the two products by X in f32. 26 vector
  operations per 16 elements.
* bf16 products (aie2, whose f32 vector multiply is the 25-instruction emulation: :func:`.vector.emulated_f32_multiply`):
  every product a widened bf16 x bf16 ``mul_elem`` (test_mul_elem.mlir, test_mul_elem_bf16_float), exact in f32.
  u is carried as its bf16 pair (lo, hi) (:func:`.vector_rows.bf16_pieces`, 16 significant bits); the first two
  Horner steps take acc rounded to bf16 times u_hi, the last four acc's own pair: (acc_lo u_hi + acc_hi u_lo) +
  acc_hi u_hi; X R and X (0.5 + X R) take R's and (0.5 + X R)'s pairs. 85 vector operations per 16 elements
  (``roofline.count_ops``), against 218 for the f32 form with its 8 emulated multiplies.

Accuracy (:data:`RTOL`, :data:`ATOL`, :data:`EXACT_RTOL`; both forms, every finite bf16 input,
tests/test_xdna_gelu_erf.py): |y - ref| <= 2^-12 + 2^-7 |ref| against the oracle (which rounds to bf16 too: one
bf16 ulp apart is up to 2^-7 |ref|), and within 2^-12 + 2^-8 |g| of the exact gelu g. Within one bf16 ulp of the
oracle for x >= -1; the absolute error against the exact gelu is largest on [-4, -1] (2.1e-4 on [-4, -2], where
gelu is between -0.046 and -1.3e-4; up to 7.8e-4 on [-2, -1], under half an ulp there) and below -4 (the
constant P(-4): -2.2e-5 in the f32 form, -7.3e-5 in the bf16 products form).

Special values: NaN gives NaN (maximumf propagates it, :mod:`.elementwise`); +inf gives +inf (X - H = -inf);
-inf and every x < -4 give P(-4) rather than -0.0; gelu(-0.0) = -0.0; a subnormal x gives 0.5 x rounded to bf16
(a core that flushes subnormals gives 0: within ATOL). The bound holds too where the core's conversion to bf16
truncates instead of rounding to nearest even (``model(..., truncate=True)``).
"""
from __future__ import annotations

from ...ops.lazy_numpy import np
from . import mathfns as M
from .vector import emulated_f32_multiply
from .vector_rows import bf16_pieces, times_pieces

CLAMP = 4.0  # |x| beyond uses the polynomial's value at +-4 (exact in bf16)
CENTRE = 10.0  # u = x^2 - CENTRE
# R(u) = r0 + r1 u + ... + r6 u^6: f32 values
R = (0.15786144137382507, -0.007768779527395964, 0.0005522050778381526, -3.855153772747144e-05,
     2.4420912723144284e-06, -2.404510155429307e-07, 1.9341989343502064e-08)
ROUNDED_STEPS = 2  # bf16 products form: the first Horner steps, whose partial sums are smallest, take acc in bf16
RTOL, ATOL = 2.0**-7, 2.0**-12  # against the oracle (bf16-rounded), on every finite bf16 input
EXACT_RTOL = 2.0**-8  # against the exact gelu (float64), with ATOL
DOMAIN = (-3.3895313892515355e38, 3.3895313892515355e38)  # every finite bf16


def numerics(inst) -> dict | None:
    """What a core's generated body of ``inst`` computes instead of the host body, with its tolerance against the
    oracle (as mlir-aie's kernels carry theirs: ``kernel_library.LibraryKernel.describe``), for the current AIE
    profile; None where :func:`emit_lanes` is not the body."""
    from .vector import on_npu

    if not (on_npu() and inst.op == "gelu" and inst.dtype == "bf16" and inst.attrs["approximate"] == "none"):
        return None
    form = "every product bf16 x bf16" if emulated_f32_multiply() else "in f32"
    return {"numerics": f"x Phi(x) as X (0.5 + X R(X^2 - 10)), X = x clamped to [-4, 4], R of degree 6, {form} "
                        "(npubuild/emitters/host/gelu_lanes.py)",
            "tolerance": {"rtol": RTOL, "atol": ATOL, "domain": list(DOMAIN),
                          "why": "the polynomial (x^2 R within 3.9e-4 of 0.5 x erf(x / sqrt 2) on [0, 4]), the "
                                 "clamp (gelu(-4) = -1.3e-4) and one bf16 rounding, against an oracle rounded to bf16"}}


def emit_lanes(b, v, dt):
    """The body on ``dt`` = bf16 lanes (a vector builder lifts the scalar text), in the current profile's form."""
    x = v[0]
    lo, hi = b.float_const(-CLAMP, "bf16"), b.float_const(CLAMP, "bf16")
    xh = b.op(f"arith.maximumf {x}, {lo} : bf16")
    xc = b.op(f"arith.minimumf {xh}, {hi} : bf16")
    big, h = (b.op(f"arith.extf {y} : bf16 to f32") for y in (xc, xh))
    u = M.sub(b, M.mul(b, big, big), M._c(b, CENTRE))
    if emulated_f32_multiply():
        g = _bf16_products(b, big, u)
    else:
        acc = M._c(b, R[-1])
        for r in reversed(R[:-1]):
            acc = M.add(b, M.mul(b, acc, u), M._c(b, r))
        g = M.mul(b, big, M.add(b, M._c(b, 0.5), M.mul(b, big, acc)))
    g = M.sub(b, g, M.sub(b, big, h))
    return b.op(f"arith.truncf {g} : f32 to bf16")


def _bf16_products(b, big, u):
    """X (0.5 + X R(u)) with every product bf16 x bf16 (module docstring)."""
    u_lo, u_hi = bf16_pieces(b, u, 2)
    acc = M._c(b, R[-1])
    for k, r in enumerate(reversed(R[:-1])):
        if k < ROUNDED_STEPS:
            (a,) = bf16_pieces(b, acc, 1)
            acc = M.mul(b, a, u_hi)
        else:
            a_lo, a_hi = bf16_pieces(b, acc, 2)
            acc = M.add(b, M.add(b, M.mul(b, a_lo, u_hi), M.mul(b, a_hi, u_lo)), M.mul(b, a_hi, u_hi))
        acc = M.add(b, acc, M._c(b, r))
    phi = M.add(b, M._c(b, 0.5), times_pieces(b, big, bf16_pieces(b, acc, 2)))
    return times_pieces(b, big, bf16_pieces(b, phi, 2))


def model(x, products: bool = False, truncate: bool = False):
    """:func:`emit_lanes` in NumPy f32, operation for operation: bf16 ``x`` -> bf16. ``products``: the bf16
    products form (aie2), else the f32 form. Every ``truncf`` rounds to nearest even (the host's, and the
    model's of every generated body); ``truncate``: toward zero instead, as a core set to truncate would (the
    bound holds either way: tests/test_xdna_gelu_erf.py)."""
    from ...core.constants import numpy_dtype

    f32, bf16 = np.float32, numpy_dtype("bf16")

    def to_bf16(a):  # arith.truncf, widened back
        if truncate:
            return (np.asarray(a, f32).view(np.uint32) & np.uint32(0xFFFF0000)).view(f32)
        return np.asarray(a, f32).astype(bf16).astype(f32)

    def pieces(a, count):  # bf16_pieces, smallest first
        out, rest = [], a
        for k in range(count):
            out.append(to_bf16(rest))
            if k < count - 1:
                rest = rest - out[-1]
        return out[::-1]

    def times(d, parts):  # times_pieces
        prods = [d * p for p in parts]
        acc = prods[0]
        for p in prods[1:]:
            acc = acc + p
        return acc

    x = np.asarray(x).astype(f32)
    with np.errstate(all="ignore"):
        h = np.maximum(x, f32(-CLAMP))
        c = np.minimum(h, f32(CLAMP))
        u = c * c - f32(CENTRE)
        acc = np.full_like(u, f32(R[-1]))
        if products:
            u_lo, u_hi = pieces(u, 2)
            for k, r in enumerate(reversed(R[:-1])):
                if k < ROUNDED_STEPS:
                    acc = pieces(acc, 1)[0] * u_hi
                else:
                    a_lo, a_hi = pieces(acc, 2)
                    acc = (a_lo * u_hi + a_hi * u_lo) + a_hi * u_hi
                acc = acc + f32(r)
            g = times(c, pieces(f32(0.5) + times(c, pieces(acc, 2)), 2))
        else:
            for r in reversed(R[:-1]):
                acc = acc * u + f32(r)
            g = c * (f32(0.5) + c * acc)
        g = g - (c - h)
    return to_bf16(g).astype(bf16)
