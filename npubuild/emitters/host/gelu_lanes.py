"""gelu's erf form (``approximate: none``) on an AIE core's bf16 lanes: a polynomial body built only from
operations both devices' aievec profiles lower (:data:`.vector.PROFILE`).

The host body (:func:`.unary_math._gelu_erf`) splits exponents with bit casts, ``fptosi`` and ldexp, which
convert-vector-to-aievec does not lower; this form needs none of them:

* xh = maximumf(x, -L), xc = minimumf(xh, L) on the bf16 lanes (exact; aie2: test-max.mlir / test-min.mlir,
  aie2p: AIEVecToLLVM/test-max-min.mlir, bf16 only there), L = 4;
* X = extf(xc), H = extf(xh) (exact), t = X * X (exact in f32: a bf16 x bf16 product);
* R(t) = r0 + r1 t + ... + r6 t^6 by Horner in f32, each step a multiply and an add;
* gelu = X (0.5 + X R(t)) - (X - H), rounded once to bf16.

X (0.5 + X R(t)) approximates x Phi(x) = 0.5 x (1 + erf(x / sqrt 2)) on [-L, L] (:data:`R`: fitted offline
with NumPy, a weighted least-squares fit iterated to minimax by Lawson's method, rounded to f32; the fit's
S(t) = t R(t) is within 3.9e-4 of 0.5 x erf(x / sqrt 2) on [0, 4], its error weighted to be smallest where
gelu(-|x|) is small). The last term is 0 inside [-L, L]; beyond it the result is x - (L - P(L)) for x > L (x
to within 1.3e-4, which the rounding to bf16 removes) and P(-L) = -9.3e-5 for x < -L, whose exact value is in
(-1.3e-4, 0).

Accuracy (:data:`RTOL`, :data:`ATOL`, every finite bf16 input, tests/test_xdna_gelu_erf.py): |y - ref| <=
2^-12 + 2^-7 |ref| against the oracle (which rounds to bf16 too: one bf16 ulp apart is up to 2^-7 |ref|), and
within 2^-12 + 2^-8 |g| of the exact gelu g. Within one bf16 ulp of the oracle for x >= -1; the absolute error is
largest for x in [-4, -2] (at most 2.1e-4, where gelu is between -0.046 and -1.3e-4) and below -4 (the
constant P(-L)).

Special values: NaN gives NaN (maximumf propagates it, :mod:`.elementwise`); +inf gives +inf (H - X = inf);
-inf and every x < -4 give P(-4) = -9.3e-5 rather than -0.0; gelu(-0.0) = -0.0; a subnormal x gives 0.5 x
rounded to bf16 (a core that flushes subnormals gives 0: within ATOL).

The same operations on both devices, so npu1 and npu2 compute the same bits. aie2p multiplies f32 lanes
natively; on aie2 every f32 multiply but t is the 25-instruction emulation (:mod:`..aie.roofline`), which
``npubuild list`` shows as the body's compute bound.
"""
from __future__ import annotations

from ...ops.lazy_numpy import np
from . import mathfns as M

CLAMP = 4.0  # L: |x| beyond uses the polynomial's value at +-L (exact in bf16)
# R(t) = r0 + r1 t + ... + r6 t^6, f32 (python floats that are exact f32 values)
R = (0.3971294164657593, -0.06377458572387695, 0.008479869924485683, -0.0007635364308953285,
     4.34786343248561e-05, -1.4010183804202825e-06, 1.9342884627349122e-08)
RTOL, ATOL = 2.0**-7, 2.0**-12  # against the oracle (bf16-rounded), on every finite bf16 input
EXACT_RTOL = 2.0**-8  # against the exact gelu (float64), with ATOL
DOMAIN = (-3.3895313892515355e38, 3.3895313892515355e38)  # every finite bf16


def emit_lanes(b, v, dt):
    """The body on ``dt`` = bf16 lanes (a vector builder lifts the scalar text)."""
    x = v[0]
    lo, hi = b.float_const(-CLAMP, "bf16"), b.float_const(CLAMP, "bf16")
    xh = b.op(f"arith.maximumf {x}, {lo} : bf16")
    xc = b.op(f"arith.minimumf {xh}, {hi} : bf16")
    big, h = (b.op(f"arith.extf {y} : bf16 to f32") for y in (xc, xh))
    t = M.mul(b, big, big)
    acc = M._c(b, R[-1])
    for r in reversed(R[:-1]):
        acc = M.add(b, M.mul(b, acc, t), M._c(b, r))
    g = M.mul(b, big, M.add(b, M._c(b, 0.5), M.mul(b, big, acc)))
    g = M.sub(b, g, M.sub(b, big, h))
    return b.op(f"arith.truncf {g} : f32 to bf16")


def model(x):
    """:func:`emit_lanes` in NumPy f32, operation for operation: bf16 ``x`` -> bf16."""
    from ...core.constants import numpy_dtype

    f32 = np.float32
    x = np.asarray(x).astype(f32)
    with np.errstate(all="ignore"):
        h = np.maximum(x, f32(-CLAMP))
        c = np.minimum(h, f32(CLAMP))
        t = c * c
        acc = np.full_like(t, f32(R[-1]))
        for r in reversed(R[:-1]):
            acc = acc * t + f32(r)
        g = c * (f32(0.5) + c * acc)
        g = g - (c - h)
    return g.astype(numpy_dtype("bf16"))
