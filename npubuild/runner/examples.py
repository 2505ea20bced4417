"""Seeded example inputs (and params) of a graph's declared shapes and dtypes.

For trying a graph without real data (``npubuild run GRAPH --example``,
``npubuild inputs GRAPH -o x.npz``): the same seed gives the same arrays.
Floats are normal with standard deviation 0.5 (values of order 1, where every
float dtype here, fp16 and bf16 included, is accurate and nothing overflows);
integers are small (-4..4: an int8 product or sum of a few stays in range);
bools are fair coin flips. Arrays are made in the order the graph declares
its inputs, then its params, so adding a param does not change the inputs.
"""
from __future__ import annotations

from ..constants import numpy_dtype
from ..errors import UserError
from ..ops.lazy_numpy import np

# the ANE manifest's dtype names (MIL's), besides the kernel dtypes of npubuild.constants
_MIL_DTYPES = {"fp16": "float16", "fp32": "float32"}
INT_RANGE = (-4, 5)  # [low, high) of example integers


def _dtype(name: str):
    if name in _MIL_DTYPES:
        return np.dtype(_MIL_DTYPES[name])
    try:
        return numpy_dtype(name)
    except (KeyError, ImportError) as e:
        raise UserError(f"no example values for dtype {name!r} ({e})") from None


def example_array(sig: dict, rng):
    """One array of ``sig``'s shape and dtype, drawn from ``rng``."""
    shape, dt = tuple(sig["shape"]), _dtype(sig["dtype"])
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        return rng.integers(*INT_RANGE, size=shape).astype(dt) if dt.kind == "i" else rng.integers(0, INT_RANGE[1], size=shape).astype(dt)
    return (rng.standard_normal(shape) * 0.5).astype(dt)


def example_arrays(signature: dict, seed: int = 0) -> tuple[dict, dict]:
    """(inputs, params) for a graph signature (npubuild.runner.signature.graph_signature)."""
    rng = np.random.default_rng(seed)
    inputs = {n: example_array(s, rng) for n, s in signature["inputs"].items()}
    params = {n: example_array(s, rng) for n, s in signature["params"].items()}
    return inputs, params
