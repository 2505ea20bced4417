"""The definition of every op on bf16 tensors (``ml_dtypes.bfloat16``).

A bf16 instance is its f32 instance on the widened inputs, rounded once:

* every bf16 input is widened to f32 (exact: bf16 is the top half of an f32);
* the op's f32 oracle runs on them (for matmul and reductions that means f32 or
  wider accumulation: bf16 x bf16 products are exact in f32, and the f32 oracles
  sum in float64 and round to f32);
* a bf16 output is that f32 result rounded once to bf16, to nearest even
  (``astype(ml_dtypes.bfloat16)`` of float32). Non-bf16 outputs (compare's
  bool, argmax's indices, a cast's destination) are the f32 instance's own.

That is what the host and NPU bodies compute: bf16 is loaded, extended to f32
(``arith.extf``), computed in f32 and rounded once (``arith.truncf``). For
``+ - * /`` and ``sqrt`` the f32 result rounded to bf16 equals the correctly
rounded bf16 result (f32 has 24 bits >= 2 * 8 + 2, so the double rounding is
innocuous), and NumPy's ml_dtypes loops compute the same way.

Integers converted to bf16 (cast, and anything whose result is an integer
array) go through f32 as well: ``x.astype(float32).astype(bfloat16)``. That
rounds twice for integers above 2**24 and can differ by one bf16 ulp from
``x.astype(ml_dtypes.bfloat16)``, which rounds an integer once; the kernels
convert through f32 (``sitofp`` then ``truncf``), so this is their definition.
"""
from __future__ import annotations

from ..core.constants import numpy_dtype
from .lazy_numpy import np


def evaluate_bf16(op, inputs: list, attrs: dict, dtype: str):
    """The oracle of ``op`` for an instance with bf16 tensors (the module docstring's rule)."""
    bf16 = numpy_dtype("bf16")
    wide = []
    for x in inputs:
        a = np.asarray(x)
        wide.append(a.astype(np.float32) if a.dtype == bf16 else a)
    y = op.call_oracle(wide, attrs, "f32" if dtype == "bf16" else dtype)
    _, out = op.signature(dtype, len(inputs), attrs)
    if out == "bf16":
        return np.asarray(y).astype(np.float32).astype(bf16)
    return y
