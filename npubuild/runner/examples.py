"""Seeded example inputs (and params) of a graph's declared shapes and dtypes.

For trying a graph without real data (``npubuild run GRAPH --example``,
``npubuild inputs GRAPH -o x.npz``): the same seed gives the same arrays.
Floats are normal with standard deviation 0.5 (values of order 1, where every
float dtype here, fp16 and bf16 included, is accurate and nothing overflows);
integers are small (-4..4: an int8 product or sum of a few stays in range);
bools are fair coin flips. Arrays are made in the order the graph declares
its inputs, then its params, so adding a param does not change the inputs.

Every array's size is checked against ``limits.max_input_bytes`` (the limit on
a run's input arrays) before any is made, and arrays are drawn a chunk at a
time into the result, so a huge declared input is one message, not a 16 GiB
allocation, and one that fits costs its own size, not a float64 copy of it.
"""
from __future__ import annotations

from ..core.constants import numpy_dtype
from ..core.errors import UserError
from ..core.limits import Limits
from ..ops.lazy_numpy import np

# the ANE manifest's dtype names (MIL's), besides the kernel dtypes of npubuild.core.constants
_MIL_DTYPES = {"fp16": "float16", "fp32": "float32"}
INT_RANGE = (-4, 5)  # [low, high) of example integers


def _dtype(name: str):
    if name in _MIL_DTYPES:
        return np.dtype(_MIL_DTYPES[name])
    try:
        return numpy_dtype(name)
    except (KeyError, ImportError) as e:
        raise UserError(f"no example values for dtype {name!r} ({e})") from None


CHUNK = 1 << 20  # elements drawn at a time; the generator's stream is the same as one draw of the whole


def _draw(dt, rng, n: int):
    if dt == np.bool_:
        return rng.random(n) < 0.5
    if dt.kind in "iu" or dt.name in ("int4", "uint4"):  # ml_dtypes' 4-bit integers (kind "V"): in range too
        signed = dt.kind == "i" or dt.name == "int4"
        return rng.integers(*INT_RANGE, size=n).astype(dt) if signed else rng.integers(0, INT_RANGE[1], size=n).astype(dt)
    return (rng.standard_normal(n) * 0.5).astype(dt)


def example_array(sig: dict, rng):
    """One array of ``sig``'s shape and dtype, drawn from ``rng``."""
    shape, dt = tuple(sig["shape"]), _dtype(sig["dtype"])
    out = np.empty(shape, dtype=dt)
    flat = out.reshape(-1)
    for start in range(0, flat.size, CHUNK):
        flat[start:start + CHUNK] = _draw(dt, rng, min(CHUNK, flat.size - start))
    return out


def _size_text(n: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def check_sizes(signature: dict, limits: Limits) -> None:
    """Refuse, before anything is allocated, an example array over ``limits.max_input_bytes``."""
    for side, kind in (("inputs", "input"), ("params", "param")):
        for name, s in signature[side].items():
            n = _dtype(s["dtype"]).itemsize
            for d in s["shape"]:
                n *= int(d)  # Python ints: a declared [46340, 46340] does not wrap
            if n > limits.max_input_bytes:
                raise UserError(
                    f"graph '{signature.get('graph', '?')}': example {kind} '{name}' ({s['dtype']} {list(s['shape'])}) "
                    f"would be {n} bytes ({_size_text(n)}), over the limit of {limits.max_input_bytes} bytes "
                    f"(limits.max_input_bytes); raise max_input_bytes in [tool.npubuild.limits] of pyproject.toml "
                    f"to make it, or give the {kind} from a file"
                )


def example_arrays(signature: dict, seed: int = 0, limits: Limits = Limits()) -> tuple[dict, dict]:
    """(inputs, params) for a graph signature (npubuild.runner.signature.graph_signature), each at
    most ``limits.max_input_bytes``."""
    check_sizes(signature, limits)
    rng = np.random.default_rng(seed)
    inputs = {n: example_array(s, rng) for n, s in signature["inputs"].items()}
    params = {n: example_array(s, rng) for n, s in signature["params"].items()}
    return inputs, params
